"""Rooms: the seats around a :class:`~cinch.table.Table`, the people and bots in them, and who watches.

A room seats as many as its rules' ``players`` option says (2 to 6, :mod:`cinch.seating`): ``N E S W`` in
two partnerships at four, ``1`` to ``n`` each for himself at any other size (Heasly is six).

A :class:`Room` takes the clients' checked messages (``join``, ``act``, ...), changes the
table, saves, and then tells every connection what it may see.  It knows nothing of
websockets: a connection is anything with ``send(message)`` and the fields of
:class:`~cinch.server.audience.Client`, so the tests drive rooms directly.  Everything here
runs on the server's event loop; a bot that thinks for long thinks in a :class:`Thinker`'s process.

A room is a :class:`~cinch.server.tables.ServerTable`: the parts every table on the server is made
of (its seats, its matches, clocks and grace, the bots' turns, hints, what each audience is shown,
the end of a deal, changes kept in the store; :mod:`cinch.server.tables` lists them) and the glue
between them.  What is the room's own is here: its invite code and host, its messages (``join`` an
empty seat, ``take`` a bot's, ``leave``, ``fill`` a seat with a bot, ``start``, ``rematch``), its chance
(fresh secrets, or a test's seeded generator: the salts of its shuffles, its first dealer, its bots'
seeds), what its connections and the lobby are shown of it (:meth:`Room.info`) and its stored form.

A room takes players as they are: a connection whose handshake carried a guest's or an account's session
(``client.player``, :func:`cinch.server.players.player_of`) sits under that player's name, its seat marked
as a guest's or linking the account's profile; anyone else sits under the name they type.  What the room's
people play is reported to its :class:`~cinch.server.ratings.Ledger` once each change is durable: every
match a known player sits in joins that player's games, and a finished match is rated.

Every change of a room is one :meth:`Room._change`: its store makes it exclusive and brings the room up
to date first, the room decides (the same code whatever the store), the store makes it durable, and
only then is anyone told (:mod:`cinch.server.store`).  With several server processes
(:mod:`cinch.server.cluster`) a room is a cache of what PostgreSQL holds, refreshed when another
process moves it on; one process drives its timers and bots.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from typing import Any

from cinch.cards import Seat
from cinch.errors import CinchError, RulesError
from cinch.irregularities import penalty_text
from cinch.library import FORMER_PLAYER, Library
from cinch.match import Match
from cinch.rules import Rules
from cinch.server.audience import Client
from cinch.server.games import BETWEEN, OVER, PLAYING, WAITING
from cinch.server.protocol import Refusal
from cinch.server.ratings import Entrant, Ledger, match_sides
from cinch.server.seats import seat_named, table_json, token_hash
from cinch.server.store import Store
from cinch.server.tables import ServerTable, Settings
from cinch.server.turns import Thinker
from cinch.shuffle import SALT_DIGITS, Shuffle
from cinch.table.advice import available_bots

CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to misread
CODE_LENGTH = 6


def new_token() -> str:
    """A seat or host token: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def new_code(taken: Callable[[str], bool]) -> str:
    """A fresh invite code: six letters and digits that do not look alike."""
    while True:
        code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
        if not taken(code):
            return code


class Room(ServerTable):
    """A room: its settings, seats, the table once started, and the connections watching it."""

    def __init__(self, code: str, settings: Settings, host_hash: str, library: Library, *,
                 link: str = "", thinker: Thinker | None = None, store: Store | None = None,
                 chance: random.Random | None = None, ledger: Ledger | None = None):
        self.ledger = ledger  # where the games of its known players and its finished matches are reported
        # Where the room's chance comes from (the salts of its shuffles, the first dealer, the bots' seeds):
        # fresh secrets, or (a test's server) a seeded generator, so that a test plays the same deals every run.
        self.chance = chance
        self.host_hash = host_hash
        self.link = link
        self._rules_json = settings.rules.to_json()
        self._rules_name = settings.rules.name
        super().__init__(code, settings, library, thinker=thinker, store=store)

    # ---- the room's chance ---------------------------------------------------------------------------------
    def _shuffle(self, number: int) -> Shuffle:
        """Deal ``number``'s deck (both packs in two-deck Cinch): from a fresh secret salt and every seat's
        entropy (docs/protocol.md)."""
        entropy = tuple(self.places[s].entropy for s in self.seating.seats)
        if self.chance is not None:
            return Shuffle(f"{self.chance.getrandbits(4 * SALT_DIGITS):0{SALT_DIGITS}x}", entropy, number,
                           decks=self.settings.rules.decks)
        return Shuffle.new(entropy, number, decks=self.settings.rules.decks)

    def _seed(self) -> int:
        """A seed for a bot or a match (the first dealer), from the room's chance."""
        return self.chance.randrange(2**31) if self.chance is not None else secrets.randbelow(2**31)

    # ---- what the room is ------------------------------------------------------------------------------------
    def info(self) -> dict[str, Any]:
        rules = self.settings.rules
        return {
            "code": self.code, "link": self.link, "status": self.status, "rules": self._rules_json,
            "rules_name": self._rules_name, "target": rules.target, **table_json(self.seating),
            "seats": self.seats.info(self.here()), "spectators": self.audience.spectators(),
            "grace": self.settings.grace, "between_deals": self.settings.between_deals,
            "trick_pause": self.settings.trick_pause, "hints": self.settings.hints, "match_id": self.match_id,
            # Between deals: who has pressed Next (the page says whom the table still waits for).
            "ready": self.between.ready_names(self.seating) if self.status == BETWEEN else [],
            # The honour rule: whose rulings a claimed irregularity takes, for the page to say before a revoke.
            **({"rulings": penalty_text(rules)} if rules.honour_rule else {}),
        }

    def to_json(self) -> dict[str, Any]:
        return {"settings": self.settings.to_json(), "host_hash": self.host_hash, **self.kept_json()}

    @classmethod
    def load(cls, row: dict[str, Any], library: Library, *, link: str = "", thinker: Thinker | None = None,
             store: Store | None = None, chance: random.Random | None = None, ledger: Ledger | None = None) -> Room:
        """A stored room, its table rebuilt at the last saved action (people's seats wait for them)."""
        data = row["data"]
        room = cls(row["code"], Settings.from_json(data["settings"]), data["host_hash"], library, link=link,
                   thinker=thinker, store=store, chance=chance, ledger=ledger)
        room.restore(row)
        return room

    # ---- the messages --------------------------------------------------------------------------------------
    def attach(self, client: Client, token: str | None, host_token: str | None) -> None:
        """A connection opens the room: as a spectator, or in the seat its token names, or as the host."""
        seat, host = opener(self, token, host_token, self.host_hash, f"room {self.code}", f"room {self.code}'s")
        self.open(client, seat, token, host)

    def join(self, client: Client, seat_name: str, name: str, entropy: str, *, take: bool = False) -> None:
        """Sit down: in an empty seat before the start (``join``), or in a bot's seat between deals (``take``)."""
        with self._change():
            self._join(client, seat_name, name, entropy, take)
        self.store.presence_changed(self)

    def _join(self, client: Client, seat_name: str, name: str, entropy: str, take: bool) -> None:
        seat = seat_named(self.seating, seat_name)
        place = self.places[seat]
        if client.seat is not None:
            raise Refusal("already-seated", f"you already sit at {client.seat}: leave it first")
        player = getattr(client, "player", None)  # (the guest or account of the connection's handshake, if any)
        if player is not None:
            held = self.seats.held_by(player.id)
            if held is not None:
                raise Refusal("already-seated", f"{player.name} already sits at {held} in this room: open the room "
                                                "there (or leave that seat first)")
            name = player.name  # (a player sits as the server knows it; a typed name is for anyone else)
        if take:
            if place.kind != "bot":
                raise Refusal("not-a-bot", f"{seat} is {self.seats.describe(seat)}: take-seat takes a bot's seat; "
                                           f"{self.seats.free('bot') or 'no seat has a bot'}")
            if self.status not in (WAITING, BETWEEN, OVER):
                raise Refusal("not-between-deals", "a bot's seat may be taken before the start or between deals, "
                                                   "not during one")
        elif place.kind != "empty":
            raise Refusal("seat-taken", f"{seat} is {self.seats.describe(seat)}; "
                                        f"{self.seats.free('empty') or 'no seat is empty'}")
        token = new_token()
        self.seats.sit(seat, name, token_hash(token), entropy, *((player.id, player.kind) if player else ()))
        self._seat_changed(seat, name)
        self.save()
        if self.match_id is not None:  # (its record names the player from now on, even a match just over)
            self._report_games([seat])
        seated(self, client, seat, token)

    def leave(self, client: Client) -> None:
        """Give up the seat: it is empty again before the start; afterwards the room's substitute bot keeps it."""
        with self._change():
            self._leave(client)
        self.store.presence_changed(self)

    def _leave(self, client: Client) -> None:
        seat = self._seated(client)
        place = self.places[seat]
        for c in list(self.clients):
            if c.seat == seat:
                c.seat = None
        self._stop_grace(seat)
        self.clocks.stop(seat)
        if self.table is None:
            self.seats.empty(seat)
        else:
            bot = place.bot or self.settings.substitute
            self.seats.give_to_bot(seat, bot)
            if place.away:
                self._mark_substitute(seat, start=False)
            self._seat_changed(seat, bot)
        self.between.ready.discard(seat)
        self.save()
        self._changed()

    def fill(self, client: Client, seat_name: str, bot: str) -> None:
        """The host seats a bot in an empty seat (or changes a bot), before the start or between deals."""
        with self._change():
            self._fill(client, seat_name, bot)

    def _fill(self, client: Client, seat_name: str, bot: str) -> None:
        self._host(client)
        seat = seat_named(self.seating, seat_name)
        place = self.places[seat]
        bots = available_bots()
        if bot not in bots:
            raise Refusal("unknown-bot", f"there is no bot {bot!r}; the bots are {', '.join(bots)}")
        if place.kind == "human" and self.connected(seat):
            raise Refusal("seat-taken", f"{seat} is taken by {place.name}, who is here")
        if self.status not in (WAITING, BETWEEN, OVER):
            raise Refusal("not-between-deals", "seats change before the start or between deals, not during one")
        # (a person who is away, or lost the token, gives the seat up to the bot for good)
        self._stop_grace(seat)
        if place.away:
            self._mark_substitute(seat, start=False)
        self.seats.give_to_bot(seat, bot)
        self._seat_changed(seat, bot)
        self.save()
        self._repace()
        self.broadcast()

    def start(self, client: Client) -> None:
        """The host starts the match: every seat must be taken."""
        with self._change():
            self._start(client)

    def _start(self, client: Client) -> None:
        self._host(client)
        if self.table is not None:
            raise Refusal("started", "the match has already started")
        empty = [s.name for s in self.seating.seats if self.places[s].kind == "empty"]
        if empty:
            raise Refusal("empty-seats", f"seat {' '.join(empty)} {'is' if len(empty) == 1 else 'are'} empty: "
                                         "a person must join or the host fill it with a bot")
        self._new_match(first_dealer=None)

    def rematch(self, client: Client) -> None:
        """A new match with the same seats once this one is over; the deal passes to the left."""
        with self._change():
            self._rematch(client)

    def _rematch(self, client: Client) -> None:
        if client.seat is None and not client.host:
            raise Refusal("not-seated", "only a seated player or the host may call a rematch")
        table = self.table
        if table is None or not table.match.is_over:
            raise Refusal("not-over", "a rematch follows a finished match")
        last = table.match.deals[-1].dealer
        self.games.follow_on()
        self._new_match(first_dealer=last.left)

    def _new_match(self, first_dealer: Seat | None) -> None:
        match = Match(self.settings.rules, players=self.seats.players(), first_dealer=first_dealer,
                      rng=self._seed())
        match.metadata["server"] = {"room": self.code}
        self.play(match)
        self._report_games(list(self.places))

    # ---- what the room reports of its people (cinch.server.ratings.Ledger) --------------------------------------
    def _report_games(self, seats: list[Seat]) -> None:
        """(Within a change.)  The running match joins the games of the known players in ``seats``, once the
        change is durable."""
        ledger, match_id = self.ledger, self.match_id
        if ledger is None or match_id is None:
            return
        known = [(p.player, s.name) for s, p in self.places.items()
                 if s in seats and p.kind == "human" and p.player is not None]

        def report() -> None:
            for player, seat in known:
                ledger.seated(player, match_id, seat)

        if known:
            self.changes.after(report)

    def _deal_over(self) -> None:
        super()._deal_over()
        table = self.table
        if table is not None and table.match.is_over:
            self._report_result()

    def _report_result(self) -> None:
        """The finished match is rated, once the change is durable, if a known player answers for a seat (the
        ledger rates a match once however often it is told)."""
        ledger, match_id, table = self.ledger, self.match_id, self.table
        if ledger is None or match_id is None or table is None or not table.match.is_over:
            return
        entrants = {}
        for seat, place in self.places.items():
            player = self.seats.entrants.get(seat)
            entrants[seat] = Entrant(player=player) if player is not None else Entrant(
                bot=place.bot if place.kind == "bot" else None)
        sides, ranks = match_sides(table.match, entrants)
        rules = self.settings.rules
        self.changes.after(lambda: ledger.match_over(match_id, rules, sides, ranks))

    def resume(self) -> None:
        """(A room restored by a restart.)  As every table, and a finished match reported again: one whose
        rating the stopped server had no time to write is rated now (once)."""
        super().resume()
        self._report_result()

    def forget_player(self, player_id: str, label: str = FORMER_PLAYER) -> bool:
        """A player is deleted: the seats it holds here, and the running match's record, name it ``label``,
        kept and shown at once (before the store's own sweep, so that this room never writes the name back).
        Whether it sat here."""
        if self.seats.held_by(player_id) is None:
            return False
        with self._change():
            names = {s.name: p.name for s, p in self.places.items() if p.kind == "human" and p.player == player_id}
            seats = self.seats.forget(player_id, label)
            table = self.table
            if table is not None and seats:
                m = table.match
                for seat in seats:
                    m.players[seat] = label
                for entry in m.metadata.get("seating", ()):  # (who sat where: the player's entries)
                    if entry.get("seat") in names and entry.get("name") == names[entry["seat"]]:
                        entry["name"] = label
                table.saver.save(m)
            self.save()
            self.broadcast()
        return True

    def _host(self, client: Client) -> None:
        if not client.host:
            raise Refusal("not-host", "only the room's host may do that (open the room with the host token)")


def opener(table: ServerTable, token: str | None, host_token: str | None, host_hash: str, where: str,
           whose: str) -> tuple[Seat | None, bool]:
    """Who a connection opening ``table`` (a room, an event's table) is: the seat its token names (None: it watches)
    and whether its host token is the host's (``host_hash``); refused for a token of no seat there, or a host token
    that is not the host's (``where``: "room ABC123"; ``whose``: whose host it is, "the event's")."""
    seat = None
    if token is not None:
        seat = table.seat_of(token)
        if seat is None:
            raise Refusal("bad-token", f"that token is no seat's in {where}: open it without one to watch, or take "
                                       "an empty seat")
    host = False
    if host_token is not None:
        host = secrets.compare_digest(token_hash(host_token), host_hash)
        if not host:
            raise Refusal("bad-token", f"that is not {whose} host token")
    return seat, host


def seated(table: ServerTable, client: Client, seat: Seat, token: str) -> None:
    """(Within the change that sat a person down, saved.)  The connection is in the seat: it is told the seat's token
    (kept by its browser), the seat's grace ends, and everyone is shown the table as it is now."""
    client.seat = seat
    table._send(client, {"type": "seated", "room": table.code, "seat": seat.name, "token": token})
    table._returned(seat)
    table.broadcast(newcomer=client)


def rules_of(spec: dict[str, Any], preset: str) -> Rules:
    """The rules a new table's body asks for (a room's, an event's): ``rules`` (``preset`` if none), its ``options``
    and its ``target``, each checked, or a refusal that says what is allowed."""
    target = spec.get("target")
    if target is not None and (not isinstance(target, int) or isinstance(target, bool)):
        raise Refusal("bad-request", "target must be a whole number of points")
    options = spec.get("options", {})
    if not isinstance(options, dict) or not all(isinstance(v, str | int | bool) for v in options.values()):
        raise Refusal("bad-request", "options must be an object of option names and values, "
                                     "as in {\"sancho\": \"true\", \"follow\": \"strict\"}")
    return rules_from(spec.get("rules", preset), target, options)


PACES = (("grace", 0, 3600), ("between_deals", 0, 600), ("bot_delay", 0, 10), ("trick_pause", 0, 10))
"""A table's pace a body may set: seconds, from the least to the most."""


def set_paces(settings: Settings, spec: dict[str, Any]) -> None:
    """The paces ``spec`` gives (:data:`PACES`) into ``settings``, each checked, or a refusal saying its range."""
    for key, low, high in PACES:
        if key in spec:
            value = spec[key]
            if not isinstance(value, int | float) or isinstance(value, bool) or not low <= value <= high:
                raise Refusal("bad-request", f"{key} must be a number of seconds from {low} to {high}")
            setattr(settings, key, float(value))


def rules_from(spec: Any, target: int | None, options: dict[str, Any] | None = None) -> Rules:
    """A room's rules: a preset name or ``{"preset": ..., options}`` as in a record, then ``options`` given
    as text or JSON values (``{"sancho": "true"}``), and a target."""
    try:
        rules = Rules.from_json(spec)
        changes = {k: (str(v).lower() if isinstance(v, bool) else str(v)) for k, v in (options or {}).items()}
        if target is not None:
            changes["target"] = str(target)
        if changes:
            rules = rules.with_options(**changes)
    except (RulesError, CinchError, KeyError, TypeError, ValueError) as e:
        raise Refusal("bad-rules", str(e)) from None
    return rules


# (Settings, token_hash and PLAYING live in their parts; the tests and the score sheet import them from here.)
__all__ = ["PACES", "PLAYING", "Room", "Settings", "new_code", "new_token", "opener", "rules_from", "rules_of",
           "seated", "set_paces", "token_hash"]
