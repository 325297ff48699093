"""The scorekeeper's phone page: ``cinch score`` in the browser, over the same score sheet and game library.

A table that plays with a real pack opens ``/score`` on a phone, picks the preset and the players
(four in partnerships, or two to six each for himself: ``"options": {"players": 3}``), then enters
each deal in a form.  Every check, settlement and ruling is
:class:`~cinch.scorekeeper.ScoreSheet`'s, the code ``cinch score`` runs in the terminal: this module only
turns JSON into a :class:`~cinch.scorekeeper.DealEntry` and the sheet back into JSON.  Each sheet is a
match of the game library (the record ``cinch score`` writes), saved after every deal entered or taken
back, so a reopened page or a restarted server goes on with it by its id.

A sheet belongs to whoever created it: creating one answers a token (192 random bits, as a room's seat),
and every later request must carry it (``Authorization: Bearer TOKEN``).  The library keeps only the
token's SHA-256, in the record's ``server`` metadata (``{"owner": ...}``).

The routes (:func:`add_scoresheet_routes`):

- ``GET /score``: the page; ``POST /api/scoresheets``: a new sheet;
- ``GET /api/scoresheets/ID``: the sheet; ``POST /api/scoresheets/ID/deals``: enter a deal;
  ``POST /api/scoresheets/ID/undo``: take back the last deal.

>>> from cinch.scorekeeper import ScoreSheet
>>> sheet = new_sheet({"rules": "pagat", "players": {"N": "Ann", "S": "Cy"}, "first_dealer": "W"})
>>> entry, number = read_entry({"number": 1, "dealer": "W", "maker": "N", "bid": 7, "trump": "H",
...                             "points": {"NS": 13, "EW": 1}})
>>> settled_json(sheet.add(entry))["ruling"][0]
'N bid 7 in hearts: NS took 13, EW 1: made.'
>>> sheet_json(1, sheet)["score"], sheet_json(1, sheet)["next_dealer"]
({'NS': 13, 'EW': 1}, 'N')
>>> three = new_sheet({"rules": "official", "options": {"players": 3}, "players": {"2": "Bo"}})
>>> entry, _ = read_entry({"dealer": "3", "maker": "2", "bid": 5, "points": {"1": 4, "2": 10, "3": 0}},
...                       three.table)
>>> settled_json(three.add(entry))["score"], sheet_json(2, three)["sides"]["2"]
({'1': 4, '2': 10, '3': 0}, '2 (Bo)')
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from cinch.cards import Seat
from cinch.errors import CinchError, json_kind
from cinch.library import SCOREKEEPER, LibraryError, UnknownMatch
from cinch.match import teams_json
from cinch.rules import AllPass, Rules
from cinch.scorekeeper import (
    MISDEAL,
    DealEntry,
    EntryError,
    ScoreSheet,
    SettledDeal,
    cards_text,
    default_penalty_text,
    every_card_scores,
    point_cards,
)
from cinch.seating import FOUR, Seating
from cinch.server.pages import BadBody, page_routes, read_json
from cinch.server.protocol import Name, Refusal
from cinch.server.rooms import new_token, rules_from, token_hash

log = logging.getLogger("cinch.server")

STATIC = Path(__file__).parent / "static" / "score"
MAX_BODY = 16 * 1024  # bytes: the largest request body (a deal's entry is a few hundred)
MAX_NUMBER = 1_000_000  # any whole number of a request above this is refused before the rules see it
KEEP_SHEETS = 256  # sheets held in memory; the others are read again from the library when asked for
CREATE_RATE, CREATE_BURST = 1.0, 30  # new sheets a second, and at once: a flood cannot fill the library
_NAME = TypeAdapter(Name)
# What each request's body looks like, for the refusals that say what to send.
NEW_SHEET = '{"rules": "official", "players": {"N": "Ann"}, "first_dealer": "W"}'
AN_ENTRY = '{"number": 1, "dealer": "W", "maker": "N", "bid": 7, "points": {"NS": 9, "EW": 5}}'
AN_UNDO = '{"deals": 3}'

PENALTIES = {
    "002": {
        "misdeal": "002: the same dealer deals again; no score.",
        "revoke": "002: the other side scores the deal's points, the revoking side nothing, and revoking makers "
                  "lose their bid as a set; the points taken are not needed.",
        "incorrect_hand": "002 has no ruling on an incorrect hand: it is noted, and the deal is settled as entered.",
    },
    "003": {
        "misdeal": "003: the dealer loses the deal, and the next player deals; no score.",
        "revoke": "003: play went on, so the deal is settled from the points taken; the revoking side gains "
                  "nothing, and a defender's revoke cannot set the makers.",
        "incorrect_hand": "003: too few cards, play goes on; too many, an opponent draws the excess face down and it "
                          "returns to the pack. The score is not changed: the deal is settled from the points taken.",
    },
}
"""What each text's penalty does, in words, for the form (the rulings themselves are the scorekeeper's)."""


class Refused(Refusal):
    """A request the page's API will not take: the HTTP status, a code and the message in words."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(code, _sentence(message))
        self.status = status


# ---- JSON to the scorekeeper's terms -----------------------------------------------------------------------
def _object(body: Any, example: str) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise Refused(400, "bad-request", f"send a JSON object, as {example}, not {json_kind(body)}")
    return body


def _no_unknown(body: dict[str, Any], known: tuple[str, ...], what: str) -> None:
    unknown = sorted(set(body) - set(known))
    if unknown:
        raise Refused(400, "bad-request", f"{what} has an unknown field {unknown[0][:40]!r}; it has "
                                          f"{', '.join(known)}")


def _seat(value: Any, what: str, table: Seating = FOUR) -> Seat:
    if not isinstance(value, str) or value.strip().upper() not in table.names:
        shown = repr(value[:10]) if isinstance(value, str) else json_kind(value)
        raise Refused(400, "bad-request", f"{what} must be one of {' '.join(table.names)}, not {shown}")
    return table.parse_seat(value.strip().upper())


def _check_sizes(value: Any, depth: int = 0) -> None:
    """Refuse numbers no deal has, and nesting no entry needs, before anything reads them."""
    if depth > 8:
        raise Refused(400, "bad-request", "the request is nested too deeply: an entry is an object of "
                                          "plain values, lists and objects one level down")
    if isinstance(value, bool):
        return
    if isinstance(value, int) and abs(value) > MAX_NUMBER:
        raise Refused(400, "bad-request", f"a number of {len(str(abs(value)))} digits is far larger than any bid, "
                                          "point, target or deal number")
    if isinstance(value, float):
        raise Refused(400, "bad-request", f"{value!r} is not a whole number: bids, points and deal numbers "
                                          "are whole numbers")
    if isinstance(value, dict):
        for item in value.values():
            _check_sizes(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _check_sizes(item, depth + 1)


def new_sheet(body: Any) -> ScoreSheet:
    """A new score sheet from ``{"rules", "options", "target", "players", "first_dealer"}``: the rules as
    a room takes them (a preset, option overrides, a target; ``players`` and ``heasly`` among the options
    seat two to six each for himself), names by seat (``N E S W``, or ``1`` to ``n``), who deals first
    (or null)."""
    spec = _object(body, NEW_SHEET)
    _no_unknown(spec, ("rules", "options", "target", "players", "first_dealer"), "a new score sheet")
    _check_sizes(spec)
    target = spec.get("target")
    if target is not None and (not isinstance(target, int) or isinstance(target, bool)):
        raise Refused(400, "bad-request", '"target" must be a whole number of points')
    options = spec.get("options") or {}
    if not isinstance(options, dict) or not all(isinstance(v, str | int | bool) for v in options.values()):
        raise Refused(400, "bad-request", '"options" must be an object of option names and values, as '
                                          '{"sancho": "true", "target": 61}')
    rules_spec = spec.get("rules", "pagat")
    if not isinstance(rules_spec, str | dict):
        raise Refused(400, "bad-request", f'"rules" must be a preset\'s name, as "official", not '
                                          f"{json_kind(rules_spec)}")
    try:
        rules = rules_from(rules_spec, target, options)
    except Refusal as e:
        raise Refused(400, e.code, e.message) from None
    table = rules.seating
    players = spec.get("players") or {}
    if not isinstance(players, dict):
        raise Refused(400, "bad-request", f'"players" must be an object of names by seat, as '
                                          f'{{"{table.names[0]}": "Ann"}}, not {json_kind(players)}')
    names: dict[Seat, str] = {}
    for key, name in players.items():
        seat = _seat(key, "a player's seat", table)
        if name is None or (isinstance(name, str) and not name.strip()):
            continue  # a seat left without a name
        try:
            names[seat] = _NAME.validate_python(name.strip() if isinstance(name, str) else name)
        except ValidationError:
            raise Refused(400, "bad-request", f"{seat}'s name must be text of 1 to 40 characters, without "
                                              "control or invisible characters") from None
    first = spec.get("first_dealer")
    return ScoreSheet(rules, names, None if first is None else _seat(first, '"first_dealer"', table))


def read_entry(body: Any, table: Seating = FOUR) -> tuple[DealEntry, int | None]:
    """A deal's entry from the page's JSON: ``dealer``, optionally the deal's ``number`` (a form sent
    twice is then refused), and the fields of a record's ``real_cards`` (docs/record-format.md), with
    the seats of ``table``."""
    spec = _object(body, AN_ENTRY)
    _check_sizes(spec)
    number = spec.get("number")
    if number is not None and (not isinstance(number, int) or isinstance(number, bool) or number < 1):
        raise Refused(400, "bad-request", '"number" must be the deal\'s number, a whole number from 1')
    if "dealer" not in spec:
        raise Refused(400, "bad-request", f"say who dealt: dealer, one of {' '.join(table.names)}")
    dealer = _seat(spec["dealer"], '"dealer"', table)
    real_cards = {k: v for k, v in spec.items() if k not in ("number", "dealer")}
    try:
        return DealEntry.from_json(dealer, real_cards), number
    except EntryError as e:
        raise Refused(400, "bad-entry", str(e)) from None


def _sentence(text: str) -> str:
    """A message as a sentence: a capital (unless it begins with a name, as ``bidder_goes_out``) and a stop."""
    first = text.split(" ", 1)[0]
    if "_" not in first and '"' not in first:
        text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


# ---- the scorekeeper's terms to JSON -----------------------------------------------------------------------
def rules_json(rules: Rules) -> dict[str, Any]:
    """What the form needs of the rules: the table, the bids' range, the point cards, the penalties' text."""
    table = rules.seating
    return {
        "players": table.players,
        "partnership": table.partnership,
        "seats": list(table.names),  # N E S W, or 1 to n
        "side_names": list(table.side_names),  # NS EW, or the seats again
        "irregularities": table.partnership,  # misdeal, revoke, incorrect hand: four players only
        "name": rules.name,
        "spec": rules.to_json(),
        "target": rules.target,
        "min_bid": rules.min_bid,
        "highest_bid": rules.highest_bid,
        "total_points": rules.total_points,
        "throw_in": rules.all_pass is AllPass.THROW_IN,
        "decks": rules.decks,
        # With two packs each point card is there twice ("copies"), and the form asks who took each copy.
        "point_cards": [{"name": c.name, "points": c.points, "what": c.what, "copies": c.copies}
                        for c in point_cards(rules)],
        "cards_text": cards_text(rules),
        "every_card_scores": every_card_scores(rules),
        "penalty_text": default_penalty_text(rules),
        "penalties": PENALTIES,
        "describe": list(rules.describe()),
    }


def settled_json(deal: SettledDeal) -> dict[str, Any]:
    """One settled deal: its entry as a record keeps it, the ruling in words, the score after it."""
    irregularity = deal.entry.irregularity
    table = deal.table
    return {
        "number": deal.number,
        "dealer": deal.dealer.name,
        "entry": deal.entry.to_json(),
        "summary": deal.summary(),
        "ruling": list(deal.ruling),
        "points": None if deal.points is None else teams_json(deal.points, table),
        "made": deal.made,
        "score_change": teams_json(deal.score_change, table),
        "score": teams_json(deal.score, table),
        "bidder_goes_out": deal.bidder_goes_out,
        "irregularity": None if irregularity is None else irregularity.to_json(),
        "misdeal": irregularity is not None and irregularity.kind == MISDEAL,
        "winner": None if deal.winner is None else deal.winner.name,
        "next_dealer": deal.next_dealer.name,
    }


def sheet_json(match_id: int, sheet: ScoreSheet) -> dict[str, Any]:
    """The whole sheet as the page shows it."""
    winner = sheet.winner
    next_dealer = sheet.next_dealer
    table = sheet.table
    return {
        "id": match_id,
        "rules": rules_json(sheet.rules),
        "players": {s.name: sheet.players[s] for s in table.seats if sheet.players.get(s)},
        "sides": {side.name: sheet.side_name(side) for side in table.side_list},
        "score": teams_json(sheet.score, table),
        "deals": [settled_json(d) for d in sheet.deals],
        "next_number": len(sheet.deals) + 1,
        "next_dealer": None if next_dealer is None else next_dealer.name,
        "bidder_goes_out": not sheet.is_over and sheet.bidder_goes_out_applies(),
        "winner": None if winner is None else winner.name,
        "winner_words": None if winner is None else sheet.final_words() + ".",
    }


# ---- the sheets of one server ------------------------------------------------------------------------------
@dataclass
class Held:
    """A sheet in memory: its match id, the hash of its owner's token, and a lock (one change at a time)."""

    match_id: int
    sheet: ScoreSheet
    owner: str | None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class SheetBook:
    """The score sheets a server holds, read from and saved to its game library.

    The rules run on the event loop (a deal settles in well under a millisecond); the library's reads
    and writes run in a worker thread (``asyncio.to_thread``), as the replay viewer's do, so that a
    slow disk never holds up the rooms.  A change is kept only once it is saved: a failed save takes
    it back and says so.
    """

    def __init__(self, server: Any):
        self.server = server
        self.held: OrderedDict[int, Held] = OrderedDict()
        self.tokens = float(CREATE_BURST)
        self.at = time.monotonic()

    @property
    def library(self) -> Any:
        library = getattr(self.server, "library", None)
        if library is None or not hasattr(library, "new_sheet"):
            raise Refused(501, "no-sheets", "this server keeps its matches in PostgreSQL, where score sheets are "
                                            "not kept yet: use a server on the SQLite game library (cinch serve "
                                            "--db), or `cinch score` in a terminal")
        return library

    def _may_create(self) -> bool:
        now = time.monotonic()
        self.tokens = min(float(CREATE_BURST), self.tokens + (now - self.at) * CREATE_RATE)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    async def create(self, body: Any) -> tuple[Held, str]:
        """A new sheet, stored in the library: it and its owner's token."""
        sheet = new_sheet(body)
        library = self.library
        if not self._may_create():
            raise Refused(429, "rate-limited", "too many new score sheets on this server just now; try again in "
                                               "a minute")
        token = new_token()
        owner = token_hash(token)
        sheet.metadata["server"] = {"owner": owner}
        try:
            match_id = await asyncio.to_thread(library.new_sheet, sheet)
        except LibraryError as e:
            raise Refused(503, "storage", f"the score sheet could not be saved ({e}); try again") from None
        held = Held(match_id, sheet, owner)
        self._keep(held)
        return held, token

    async def open(self, raw_id: str, token: str | None) -> Held:
        """The sheet the path names, for the holder of its token."""
        match_id = _match_id(raw_id)
        if token is None:
            raise Refused(401, "no-token", f"score sheet {match_id} needs its key: send the token its creation "
                                           "answered, as Authorization: Bearer TOKEN")
        held = self.held.get(match_id)
        if held is None:
            held = await self._load(match_id)
        self.held.move_to_end(match_id)
        if held.owner is None:
            raise Refused(403, "not-yours", f"match {match_id} was kept by `cinch score` in a terminal and has no "
                                            f"key: `cinch score --resume {match_id}` goes on with it there")
        if not secrets.compare_digest(token_hash(token), held.owner):
            raise Refused(403, "not-yours", f"that is not score sheet {match_id}'s key: only the device that "
                                            "created a sheet (or has its secret link) may change it")
        return held

    async def _load(self, match_id: int) -> Held:
        library = self.library

        def read() -> Held:
            stored = library.get(match_id)
            if stored.frontend != SCOREKEEPER:
                raise Refused(404, "unknown-sheet", f"match {match_id} was played at a card table, not kept on a "
                                                    "score sheet")
            sheet = library.sheet(match_id)
            meta = stored.record.get("server")
            owner = meta.get("owner") if isinstance(meta, dict) else None
            if isinstance(meta, dict):
                sheet.metadata["server"] = meta  # (a sheet without deals is read without its record's metadata)
            return Held(match_id, sheet, owner if isinstance(owner, str) else None)

        try:
            loaded = await asyncio.to_thread(read)
        except UnknownMatch:
            raise Refused(404, "unknown-sheet", f"there is no score sheet {match_id} on this server") from None
        except LibraryError as e:
            raise Refused(503, "storage", f"score sheet {match_id} could not be read: {e}") from None
        held = self.held.get(match_id)  # (another request may have read it meanwhile)
        if held is None:
            held = loaded
            self._keep(held)
        return held

    def _keep(self, held: Held) -> None:
        """Hold ``held``, and let go of the sheets used least recently beyond :data:`KEEP_SHEETS`.

        A sheet whose lock is taken (a change under way, or waiting) stays: there is only ever one
        copy of a sheet in memory, or two changes could each save a sheet without the other's deal.
        """
        self.held[held.match_id] = held
        for match_id, other in list(self.held.items()):
            if len(self.held) <= KEEP_SHEETS:
                break
            if other is not held and not other.lock.locked():
                del self.held[match_id]

    async def enter(self, held: Held, body: Any) -> SettledDeal:
        """Settle the entry as the sheet's next deal and save the sheet."""
        entry, number = read_entry(body, held.sheet.table)
        async with held.lock:
            sheet = held.sheet
            _expect(number, len(sheet.deals) + 1, "number", sheet)
            try:
                settled = sheet.add(entry)
            except EntryError as e:
                raise Refused(409 if sheet.is_over else 400, "bad-entry", str(e)) from None
            try:
                await asyncio.to_thread(self.library.save_sheet, held.match_id, sheet)
            except LibraryError as e:
                sheet.undo()
                raise Refused(503, "storage", f"deal {settled.number} could not be saved ({e}), so it was not "
                                              "kept: send it again") from None
        return settled

    async def undo(self, held: Held, body: Any) -> SettledDeal:
        """Take back the sheet's last deal and save the sheet."""
        spec = _object(body if body is not None else {}, AN_UNDO)
        _no_unknown(spec, ("deals",), "an undo")
        _check_sizes(spec)
        deals = spec.get("deals")
        if deals is not None and (not isinstance(deals, int) or isinstance(deals, bool)):
            raise Refused(400, "bad-request", '"deals" must be the number of deals the page shows, a whole number')
        async with held.lock:
            sheet = held.sheet
            if deals is not None and deals != len(sheet.deals):
                raise Refused(409, "stale", f"the sheet now holds {len(sheet.deals)} deals, not {deals} (changed "
                                            "from another page?); nothing was taken back: look again")
            try:
                removed = sheet.undo()
            except EntryError as e:
                raise Refused(409, "nothing-to-undo", str(e)) from None
            try:
                await asyncio.to_thread(self.library.save_sheet, held.match_id, sheet)
            except LibraryError as e:
                sheet.add(removed.entry)
                raise Refused(503, "storage", f"the sheet could not be saved ({e}), so deal {removed.number} "
                                              "still stands") from None
        return removed


def _expect(given: int | None, number: int, what: str, sheet: ScoreSheet) -> None:
    if given is not None and given != number:
        done = len(sheet.deals)
        raise Refused(409, "stale", f"this is deal {given}, but the sheet holds {done} deal{'s' * (done != 1)} and "
                                    f"waits for deal {number} (sent twice, or entered from another page?); nothing "
                                    "was entered: look again")


def _match_id(raw: str) -> int:
    if not raw.isascii() or not raw.isdigit() or len(raw) > 18:
        raise Refused(404, "unknown-sheet", f"{raw[:20]!r} is not a score sheet's id (a number, as 12)")
    return int(raw)


def _token(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    value = value.strip()
    if scheme.lower() != "bearer" or not value:
        return None
    if len(value) > 128 or not all(c.isascii() and (c.isalnum() or c in "-_") for c in value):
        raise Refused(403, "not-yours", "that is no score sheet's key (a key is 32 letters, digits, - and _)")
    return value


async def _body(request: Request, example: str) -> Any:
    """The request's JSON (None if it sent no body), read as every route reads one (:func:`read_json`)."""
    try:
        return await read_json(request, MAX_BODY, example, empty=None)
    except BadBody as e:
        raise Refused(e.status, e.code, e.message) from None


def add_scoresheet_routes(routes: list[Any], server: Any) -> None:
    """Add the scorekeeper's page and its API to ``routes`` (the app's route list), over ``server``'s library."""
    book = SheetBook(server)
    server.sheets = book

    def answer(handler: Callable[[Request], Any]) -> Callable[[Request], Any]:
        async def run(request: Request) -> Response:
            try:
                return await handler(request)
            except Refused as e:
                return JSONResponse(e.to_json(), status_code=e.status)
            except CinchError as e:  # a refusal the checks above did not foresee: still one line, and a 400
                return JSONResponse({"type": "error", "code": "bad-entry", "message": _sentence(str(e))},
                                    status_code=400)
        return run

    async def create(request: Request) -> Response:
        held, token = await book.create(await _body(request, NEW_SHEET))
        return JSONResponse({"id": held.match_id, "token": token, "sheet": sheet_json(held.match_id, held.sheet)},
                            status_code=201)

    async def show(request: Request) -> Response:
        held = await book.open(request.path_params["id"], _token(request))
        return JSONResponse({"sheet": sheet_json(held.match_id, held.sheet)})

    # A change reads its body first: from opening the sheet to taking its lock nothing awaits, so the
    # sheet cannot be let go of (SheetBook._keep) in between.
    async def enter(request: Request) -> Response:
        body = await _body(request, AN_ENTRY)
        held = await book.open(request.path_params["id"], _token(request))
        settled = await book.enter(held, body)
        return JSONResponse({"deal": settled_json(settled), "sheet": sheet_json(held.match_id, held.sheet)},
                            status_code=201)

    async def undo(request: Request) -> Response:
        body = await _body(request, AN_UNDO)
        held = await book.open(request.path_params["id"], _token(request))
        removed = await book.undo(held, body)
        return JSONResponse({"undone": settled_json(removed),
                             "sheet": sheet_json(held.match_id, held.sheet)})

    routes.extend([
        *page_routes("/score", STATIC, "score.js", "score.css"),
        Route("/api/scoresheets", answer(create), methods=["POST"]),
        Route("/api/scoresheets/{id}", answer(show), methods=["GET"]),
        Route("/api/scoresheets/{id}/deals", answer(enter), methods=["POST"]),
        Route("/api/scoresheets/{id}/undo", answer(undo), methods=["POST"]),
    ])


__all__ = ["PENALTIES", "Refused", "SheetBook", "add_scoresheet_routes", "new_sheet", "read_entry", "rules_json",
           "settled_json", "sheet_json"]
