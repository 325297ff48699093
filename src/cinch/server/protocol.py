"""The messages of ``cinch serve``: JSON over one websocket per client (docs/protocol.md).

Every message is one JSON object with a ``type``.  What a client sends is checked here
against these models before the room sees it; anything else is refused with an
:class:`Refusal` whose ``code`` and ``message`` go back as an ``error`` message.

>>> parse_client('{"type": "act", "seq": 4, "action": "play KC"}')
Act(type='act', seq=4, action='play KC', irregular=False)
>>> try:
...     parse_client('{"type": "dance"}')
... except Refusal as e:
...     print(e.code, e.message.split(';')[0])
bad-message unknown message type 'dance'
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, TypeAdapter, ValidationError

MAX_MESSAGE_BYTES = 4096
"""The largest message a client may send (a longer one is refused unread)."""
MAX_CHAT = 300
"""The longest chat line, in characters."""

SeatName = Literal["N", "E", "S", "W", "1", "2", "3", "4", "5", "6"]
"""A seat's name: ``N E S W`` at a four-player table, ``1`` to ``n`` at a cut-throat one (2, 3, 5 or 6
players).  Which seats a room has, its ``info`` says (``seats``); a seat the room lacks is refused
(``no-such-seat``)."""
Hex = Annotated[str, Field(pattern=r"^[0-9a-f]{0,64}$")]
Token = Annotated[str, Field(min_length=16, max_length=128, pattern=r"^[A-Za-z0-9_-]+$")]
_INVISIBLE = (r"\x00-\x1f\x7f-\x9f\xad\u061c\u115f\u1160\u200b-\u200f\u2028-\u202e\u2060-\u2069"
              r"\u3164\ufeff\uffa0")
Name = Annotated[str, Field(min_length=1, max_length=40, pattern=f"^[^{_INVISIBLE}]+$")]
"""A player's name: no control characters, no invisible or bidi-override marks (they would garble every
list of players)."""


class Refusal(Exception):
    """A message the server will not take: ``code`` names the problem, ``message`` says it in words."""

    def __init__(self, code: str, message: str, **extra: Any):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.extra = extra

    def to_json(self) -> dict[str, Any]:
        return {"type": "error", "code": self.code, "message": self.message, **self.extra}


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


# ---- client to server --------------------------------------------------------------------------------
class Hello(_Message):
    """Open a room: as a spectator (no token), in a seat (its seat token), and/or as host (host token)."""

    type: Literal["hello"]
    room: Annotated[str, Field(min_length=1, max_length=16)]
    token: Token | None = None
    host_token: Token | None = None


class Join(_Message):
    """Sit in an empty seat before the match starts; the answer is a ``seated`` message with the token."""

    type: Literal["join"]
    seat: SeatName
    name: Name
    entropy: Hex = ""  # the client's contribution to every deal's shuffle


class TakeSeat(_Message):
    """Take a bot's seat (before the start or between deals)."""

    type: Literal["take-seat"]
    seat: SeatName
    name: Name
    entropy: Hex = ""


class Leave(_Message):
    """Give up your seat: empty before the start, a bot's after it."""

    type: Literal["leave"]


class Fill(_Message):
    """The host puts a bot in a seat nobody has taken (or changes a bot's kind)."""

    type: Literal["fill"]
    seat: SeatName
    bot: Annotated[str, Field(min_length=1, max_length=40)]


class Start(_Message):
    """The host starts the match once every seat is taken."""

    type: Literal["start"]


class Act(_Message):
    """Your decision, in the record notation, for the state numbered ``seq``.

    ``irregular``: the action is meant against the rules, as at a real table (a revoke: a card the follow
    rule forbids), taken only in a room whose rules have the honour rule.  Under the honour rule an act
    may also come when it is not your turn: a bid, a lead or a play out of turn (``"S out of turn: bid 8"``, 003),
    or ``"claim misdeal"`` before the first call; when you are asked about another seat's irregularity,
    ``legal`` holds the claims and ``"waive"``.
    """

    type: Literal["act"]
    seq: StrictInt
    action: Annotated[str, Field(min_length=1, max_length=200)]
    irregular: StrictBool = False


class Ready(_Message):
    """You have seen the end of the deal: deal the next one (when every person is ready)."""

    type: Literal["ready"]


class Rematch(_Message):
    """A new match with the same seats, once the match is over; the deal passes on."""

    type: Literal["rematch"]


class HintRequest(_Message):
    """What would the strongest bot do for me now?  (Only on your turn, and where the host allows hints.)"""

    type: Literal["hint"]


class Chat(_Message):
    """A line to the room (spectators included)."""

    type: Literal["chat"]
    text: Annotated[str, Field(min_length=1, max_length=MAX_CHAT)]


ClientMessage = Annotated[Hello | Join | TakeSeat | Leave | Fill | Start | Act | Ready | Rematch | HintRequest | Chat,
                          Field(discriminator="type")]
CLIENT_TYPES = ("act", "chat", "fill", "hello", "hint", "join", "leave", "ready", "rematch", "start", "take-seat")
_CLIENT = TypeAdapter(ClientMessage)


def parse_client(text: str | bytes) -> ClientMessage:
    """One client message, checked: a :class:`Refusal` says what was wrong and what is allowed."""
    size = len(text) if isinstance(text, bytes) else len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE_BYTES:
        raise Refusal("too-large", f"a message may be at most {MAX_MESSAGE_BYTES} bytes; this one has {size}")
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as e:
        raise Refusal("bad-json", f"a message must be one JSON object: {e}") from None
    except RecursionError:
        raise Refusal("bad-json", "a message must be one JSON object, not nested this deep") from None
    if not isinstance(data, dict):
        raise Refusal("bad-json", f"a message must be a JSON object, not {type(data).__name__}")
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        shown = repr(kind) if isinstance(kind, str) and len(kind) <= 40 else "missing or not a short string"
        raise Refusal("bad-message", f"unknown message type {shown}; the types are {', '.join(CLIENT_TYPES)}")
    try:
        return _CLIENT.validate_python(data)
    except ValidationError as e:
        problems = "; ".join(f"{'.'.join(str(x) for x in err['loc'][1:]) or 'message'}: {err['msg']}"
                             for err in e.errors()[:5])
        raise Refusal("bad-message", f"a {kind!r} message: {problems}") from None


# ---- server to client ------------------------------------------------------------------------------
class SeatInfo(_Message):
    seat: SeatName
    name: str | None  # None for an empty seat
    kind: Literal["empty", "human", "bot", "substitute"]  # substitute: a bot plays while the person is away
    bot: str | None  # the bot's kind, for a bot or a substitute
    connected: bool
    entropy: str  # the seat's contribution to the shuffle (public, so anyone can check the deck)
    player: Literal["guest", "account"] | None = None  # a person the server knows (None: a name typed, or no person)
    profile: str | None = None  # an account's profile page, as /players/NAME


class RoomInfo(_Message):
    code: str
    link: str
    status: Literal["waiting", "playing", "between-deals", "over"]
    rules: Any  # the record's "rules": a preset name or {"preset": ..., options}
    rules_name: str
    target: int
    players: int  # how many sit at the table: 2 to 6
    partnership: bool  # four players in two partnerships (NS, EW); else each plays for himself
    sides: list[str]  # the sides' names, as ``match.score`` keys them: ["NS", "EW"], or the seats' ["1", "2", "3"]
    seats: list[SeatInfo]
    spectators: int
    grace: float  # seconds before a bot plays for a seat whose connection dropped
    between_deals: float  # seconds the end of a deal is shown before the next (unless all are ready)
    trick_pause: float = 1.2  # seconds a finished trick stays on view before a bot leads to the next
    hints: bool
    match_id: int | None
    ready: list[SeatName] = []  # between deals: the seats whose person has pressed Next
    rulings: Literal["002", "003"] | None = None  # under the honour rule only: whose rulings a claim takes
    daily: dict[str, Any] | None = None  # a daily table only: its day, preset, board and boards (docs/duplicate.md)
    event: dict[str, Any] | None = None  # an event's table only: its event, table, board and boards (docs/duplicate.md)


class Welcome(_Message):
    """The answer to ``hello``: who this connection is in the room."""

    type: Literal["welcome"]
    room: str
    seat: SeatName | None
    host: bool


class Seated(_Message):
    """The answer to ``join`` or ``take-seat``: keep the token, it is the only key to the seat."""

    type: Literal["seated"]
    room: str
    seat: SeatName
    token: str


class State(_Message):
    """The room as this connection may see it, after every change (a full snapshot)."""

    type: Literal["state"]
    seq: int  # send it back with ``act``: a stale one is refused
    room: RoomInfo
    you: dict[str, Any]  # {"seat": "S"} (None for a spectator); ``welcome`` says whether you are the host
    match: dict[str, Any] | None  # score by side, target, deal number, winner, finished deals' summaries
    deal: dict[str, Any] | None  # the running (or last) deal as this seat may know it
    clocks: dict[str, Any]  # by seat: seconds used, whether running
    narration: list[str]  # the lines new since the last state
    log: list[str] | None = None  # the recent narration: in a connection's first state only (then add narration)


class ChatLine(_Message):
    type: Literal["chat"]
    name: str
    seat: SeatName | None
    text: str
    at: float


class HintReply(_Message):
    """The answer to ``hint``: the bot's choice for the state ``seq``, in notation and in words."""

    type: Literal["hint"]
    seq: int
    bot: str
    action: str
    words: str
    estimate: str
    detail: str


class Daily(_Message):
    """At a daily table, once a board is over: its traveller (every result on it so far, the hands, the par); after
    the last board, ``session`` too (the percentage, the total, and the rank among those who have finished)."""

    type: Literal["daily"]
    board: int
    traveller: dict[str, Any]
    session: dict[str, Any] | None = None


class EventNews(_Message):
    """At an event's table, once a board is over, to its seated players: the board's traveller (every table's result
    on it so far, the hands, the pars) and the two fields' ranking over the boards they have played."""

    type: Literal["event"]
    board: int
    traveller: dict[str, Any]
    ranking: dict[str, Any]
    final: bool = False


class Error(_Message):
    type: Literal["error"]
    code: str
    message: str
    legal: list[str] | None = None


SERVER_MODELS: dict[str, type[BaseModel]] = {
    "welcome": Welcome, "seated": Seated, "state": State, "chat": ChatLine, "hint": HintReply, "error": Error,
    "daily": Daily, "event": EventNews,
}
CLIENT_MODELS: dict[str, type[BaseModel]] = {
    "hello": Hello, "join": Join, "take-seat": TakeSeat, "leave": Leave, "fill": Fill, "start": Start,
    "act": Act, "ready": Ready, "rematch": Rematch, "hint": HintRequest, "chat": Chat,
}


def json_schema() -> dict[str, Any]:
    """Every message's JSON Schema, by direction and type (served at ``/api/protocol``)."""
    return {
        "client": {name: model.model_json_schema() for name, model in CLIENT_MODELS.items()},
        "server": {name: model.model_json_schema() for name, model in SERVER_MODELS.items()},
    }


def check_server_message(message: dict[str, Any]) -> BaseModel:
    """Validate a message the server sends against its model (the tests check every one)."""
    return SERVER_MODELS[message["type"]].model_validate(message)
