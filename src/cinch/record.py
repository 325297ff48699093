"""The ``cinch/1`` game record: load, validate, replay and write.

>>> import json
>>> from cinch import Rules, Seat
>>> m = Match(Rules.preset("pagat"), first_dealer=Seat.W, rng=1)
>>> _ = m.start_deal()
>>> text = dumps(to_record(m))
>>> nxt = replay(json.loads(text)).to_json()["next"]
>>> nxt["seat"], nxt["phase"], nxt["legal"][:4]
('N', 'bidding', ['pass', 'bid 7', 'bid 8', 'bid 9'])
"""

from __future__ import annotations

import functools
import json
import weakref
from collections.abc import Iterable
from typing import Any

from cinch.actions import parse_action
from cinch.cards import Card, Seat
from cinch.deal import Deal
from cinch.errors import CinchError, IllegalAction, NotationError, RecordError, RulesError, json_kind, quoted
from cinch.keep import KeepOptions
from cinch.match import DealSummary, Match
from cinch.rules import Rules
from cinch.scorekeeper import DealEntry, EntryError, ScoreSheet
from cinch.seating import Seating
from cinch.shuffle import Shuffle
from cinch.view import Phase, PlayedCard

FORMAT = "cinch/1"
_KEYS = ("format", "rules", "players", "deals")  # every other top-level key is metadata
_DEAL_KEYS = {"dealer", "deck", "restock", "shuffle", "actions"}
_REAL_CARDS_KEYS = {"dealer", "real_cards", "result"}  # a deal played with real cards (cinch score)
_RESULT_KEYS = ("points", "made", "score_change", "score")


def to_record(match: Match, **metadata: Any) -> dict[str, Any]:
    """A match (finished or not) as a ``cinch/1`` record."""
    record = _header(match)
    record.update(metadata)
    record["deals"] = [_deal_entry(match, index, deal) for index, deal in enumerate(match.deals)]
    return record


def _deal_entry(match: Match, index: int, deal: Deal) -> dict[str, Any]:
    entry: dict[str, Any] = {"dealer": deal.dealer.name, "deck": _deck_text(deal.deck)}
    if deal.restock is not None:
        entry["restock"] = " ".join(str(c) for c in deal.restock)
    shuffle = match.shuffles.get(index)
    if shuffle is not None:
        entry["shuffle"] = shuffle.to_json()
    entry["actions"] = [str(a) for a in deal.history]
    return entry


# By match (a deal of the compiled build, cinch.native, cannot be weakly referenced), then by the
# deal's place in it, with the deal itself: a deal taken back and played again is written anew.
_WRITTEN: weakref.WeakKeyDictionary[Match, dict[int, tuple[Deal, str]]] = weakref.WeakKeyDictionary()


def record_text(match: Match) -> str:
    """``dumps(to_record(match))``, the same text, with each finished deal written out only once: a server
    rewrites the record after every action, and a match's old deals do not change."""
    head = _header(match)
    written = []
    known = _WRITTEN.get(match)
    if known is None:
        known = _WRITTEN[match] = {}
    for index, deal in enumerate(match.deals):
        entry = known.get(index) if deal.is_over else None
        if entry is not None and entry[0] is deal:
            line = entry[1]
        else:
            line = _deal_line(_deal_entry(match, index, deal))
            if deal.is_over:
                known[index] = (deal, line)
        written.append(line)
    return _dumps(head, written)


def sheet_record(sheet: ScoreSheet, **metadata: Any) -> dict[str, Any]:
    """A score sheet (a match played with real cards, :mod:`cinch.scorekeeper`) as a ``cinch/1`` record:
    each deal its dealer, its entry (``real_cards``) and the settled ``result``, no deck and no actions.

    >>> from cinch.scorekeeper import DealEntry
    >>> sheet = ScoreSheet(Rules.preset("pagat"))
    >>> _ = sheet.add(DealEntry.of("W", maker="N", bid=7, trump="H", points=(13, 1)))
    >>> sheet_record(sheet)["deals"][0]["real_cards"]
    {'maker': 'N', 'bid': 7, 'trump': 'H', 'points': {'NS': 13, 'EW': 1}}
    """
    record: dict[str, Any] = {"format": FORMAT, "rules": _rules_json(sheet.rules)}
    if sheet.players:  # (by the table's own seats: seat 1 of three equals N as a number)
        record["players"] = {s.name: sheet.players[s] for s in sheet.table.seats if s in sheet.players}
    record.update({k: v for k, v in sheet.metadata.items() if k not in _KEYS})
    record.update(metadata)
    record["deals"] = [{"dealer": d.dealer.name, "real_cards": d.entry.to_json(), "result": d.result_json()}
                       for d in sheet.deals]
    return record


def sheet_text(sheet: ScoreSheet) -> str:
    """``dumps(sheet_record(sheet))``: the record text the game library keeps for a score sheet."""
    return dumps(sheet_record(sheet))


def _header(match: Match) -> dict[str, Any]:
    """The record without its deals."""
    record: dict[str, Any] = {"format": FORMAT, "rules": _rules_json(match.rules)}
    if match.players:
        record["players"] = {s.name: match.players[s] for s in match.table.seats if s in match.players}
    record.update({k: v for k, v in match.metadata.items() if k not in _KEYS})
    return record


def _rules_json(rules: Rules) -> Any:
    spec = _rules_spec(rules)
    return dict(spec) if isinstance(spec, dict) else spec  # (a copy: a record's reader may change its dict)


@functools.lru_cache(maxsize=64)
def _rules_spec(rules: Rules) -> Any:
    return rules.to_json()


@functools.lru_cache(maxsize=1024)
def _deck_text(deck: tuple[Card, ...]) -> str:
    # (a server rewrites the record after every action: each deck is written out once)
    return " ".join(str(c) for c in deck)


def dumps(record: dict[str, Any]) -> str:
    """JSON text with one line per field and each deal's actions on one line."""
    head = {k: v for k, v in record.items() if k != "deals"}
    deals = None if "deals" not in record else [_deal_line(d) for d in record["deals"]]
    return _dumps(head, deals, order=list(record))


def _deal_line(deal: dict[str, Any]) -> str:
    parts = [f"{json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in deal.items()]
    return "    {" + ",\n     ".join(parts) + "}"


def _dumps(head: dict[str, Any], deals: list[str] | None, order: list[str] | None = None) -> str:
    keys = order if order is not None else [*head, "deals"]
    lines = ["{"]
    for i, key in enumerate(keys):
        comma = "," if i < len(keys) - 1 else ""
        if key == "deals":
            assert deals is not None
            lines.append('  "deals": [')
            lines.extend(line + ("," if j < len(deals) - 1 else "") for j, line in enumerate(deals))
            lines.append("  ]" + comma)
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(head[key], ensure_ascii=False)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def finished_deals(record: dict[str, Any], match: Match | None = None) -> dict[str, Any]:
    """The record without its last deal while that deal is being played (``match``: the record's match,
    else it is replayed to tell): what a live table may show of its match, never the running deal's cards."""
    deals = record.get("deals")
    if not isinstance(deals, list) or not deals:
        return record
    if match is None:
        try:
            match = replay(record).match
        except CinchError:  # a record that does not replay: its last deal is not shown either way
            return {**record, "deals": deals[:-1]}
    return {**record, "deals": deals[:-1]} if match.current is not None else record


KEEPS_LISTED = 100_000
"""The most keeps ``next`` lists one by one; beyond, it gives the keep as its rule and a count (a rob of the
dealer's hand and the whole stock may hold over a hundred thousand hands with one pack, millions with two)."""


class Replay:
    """The outcome of replaying a record: the match and where it stands.

    A record of deals played with real cards (``cinch score``) replays as a :attr:`sheet` instead:
    it has no cards, so asking for its :attr:`match` raises a :class:`RecordError` that says so.
    """

    def __init__(self, match: Match | None, sheet: ScoreSheet | None = None):
        self._match = match
        self.sheet = sheet

    @property
    def match(self) -> Match:
        if self._match is None:
            raise RecordError("the record holds deals played with real cards (cinch score): their entries and "
                              "scores, but no cards to play through; `cinch replay` shows them")
        return self._match

    def next(self) -> dict[str, Any] | None:
        if self.sheet is not None:
            return None  # a score sheet waits for no action
        deal = self.match.current
        if deal is None:
            return None
        seat = deal.to_act.name if deal.to_act is not None else None
        legal = deal.legal_actions()
        if isinstance(legal, KeepOptions) and len(legal) > KEEPS_LISTED:
            # Millions of hands (a two-deck rob): the rule and the count, as the server gives a keep.
            return {"seat": seat, "phase": deal.phase.value, "legal": [], "keep": legal.to_json()}
        return {"seat": seat, "phase": deal.phase.value, "legal": [str(a) for a in legal]}

    def to_json(self) -> dict[str, Any]:
        if self.sheet is not None:
            return _sheet_json(self.sheet)
        m = self.match
        return {
            "rules": m.rules.to_json(),
            "score": m.table.side_json(m.score),
            "winner": None if m.winner is None else m.winner.name,
            "deals": [_summary_json(s) for s in m.summaries],
            "next": self.next(),
        }

    def describe(self) -> str:
        """The replay for people: one line per deal, the score and what comes next."""
        if self.sheet is not None:
            return _sheet_text(self.sheet)
        m = self.match
        lines = [f"Rules: {m.rules.name} (target {m.rules.target})"]
        if m.shuffles:  # a replay verifies every shuffle it keeps
            n = len(m.shuffles)
            lines.append(f"Fair shuffle: {n} deal's commitment verified." if n == 1 else
                         f"Fair shuffle: {n} deals' commitments verified.")
        for s in m.summaries:
            r = s.result
            head = f"{s.number:>3}. {s.dealer} dealt"
            if r.ruling and (r.thrown_in or r.points is None):  # a misdeal, a revoke claimed under 002
                lines.append(f"{head}: {r.describe()}  Score {m.table.score_text(s.score)}")
                continue
            if r.thrown_in:
                lines.append(f"{head}: thrown in." + f"  Score {m.table.score_text(s.score)}")
                continue
            assert r.points is not None and r.trump is not None
            bgo = " [bidder goes out]" if s.bidder_goes_out else ""
            lines.append(
                f"{head}: {r.maker} bid {r.bid} in {r.trump.name.lower()}{bgo}; "
                f"{'took' if m.table.partnership else 'points'} {m.table.score_text(r.points)}; "
                f"{r.describe()}.  Score {m.table.score_text(s.score)}"
            )
        if m.current is not None:
            lines.extend(_deal_so_far(len(m.deals), m.current))
        if m.winner is not None:
            lines.append(f"Winner: {m.winner} ({_final(m.table, m.score)})")
        else:
            nxt = self.next()
            lines.append(f"Score: {m.table.score_text(m.score)}; the match goes on.")
            if nxt is None:
                lines.append(f"Next: a new deal, dealt by {m.next_dealer}.")
            else:
                lines.append(f"Next: {nxt['seat']} to act ({nxt['phase']}): {_choices_text(nxt)}")
        return "\n".join(lines)


def _choices_text(nxt: dict[str, Any]) -> str:
    """The legal actions of ``next`` for people: the first twenty and how many, or a keep's rule and count."""
    keep = nxt.get("keep")
    if keep is not None:
        return f"{keep['rule']} ({keep['count']:,} hands)"
    legal = nxt["legal"]
    return ", ".join(legal[:20]) + (f", ... ({len(legal)} in all)" if len(legal) > 20 else "")


def _summary_json(summary: DealSummary) -> dict[str, Any]:
    """A finished deal as ``cinch replay --json`` prints it: the summary, and the honour rule's rulings in
    words when there were any (``"ruling"``; absent otherwise, so every other record reads as before)."""
    out = summary.to_json()
    if summary.result.ruling:
        out["ruling"] = list(summary.result.ruling)
    return out


def _sheet_json(sheet: ScoreSheet) -> dict[str, Any]:
    """``cinch replay --json`` of a score sheet: the fields of any replay, and ``"real_cards": true``."""
    winner = sheet.winner
    return {
        "rules": sheet.rules.to_json(),
        "score": sheet.table.side_json(sheet.score),
        "winner": None if winner is None else winner.name,
        "deals": [d.to_json() for d in sheet.deals],
        "next": None,
        "real_cards": True,
    }


def _sheet_text(sheet: ScoreSheet) -> str:
    rules = sheet.rules
    n = len(sheet.deals)
    lines = [f"Rules: {rules.name} (target {rules.target})",
             f"Played with real cards and kept by `cinch score`: {n} deal{'' if n == 1 else 's'} entered, "
             "with their scores (there are no cards to show)."]
    lines += [d.line() for d in sheet.deals]
    winner = sheet.winner
    if winner is not None:
        lines.append(f"Winner: {winner} ({_final(sheet.table, sheet.score)})")
    else:
        lines.append(f"Score: {sheet.score_text()}; the match goes on.")
        dealer = sheet.next_dealer
        if dealer is not None:
            lines.append(f"Next: a new deal, dealt by {dealer}.")
    return "\n".join(lines)


def _deal_so_far(number: int, deal: Deal) -> list[str]:
    """A deal still going on, for people: its bids, the trump and maker once named, the tricks so far."""
    lines = [f"{number:>3}. {deal.dealer} dealt, in progress:"]
    if deal.auction:
        lines.append("     Bids: " + ", ".join(f"{seat} {action}" for seat, action in deal.auction) + ".")
    if deal.trump is not None and deal.maker is not None:
        lines.append(f"     Trumps: {deal.trump.name.lower()}, named by {deal.maker}, who bid {deal.high_bid}.")
    elif deal.maker is not None:
        lines.append(f"     {deal.maker} holds the bid at {deal.high_bid}; no trump named yet.")
    for i, trick in enumerate(deal.tricks, start=1):
        lines.append(f"     Trick {i}: {_plays(trick.plays)}; {trick.winner} won it.")
    if deal.trick:
        lines.append(f"     Trick {len(deal.tricks) + 1}, so far: {_plays(deal.trick)}.")
    if deal.irregularities:
        lines.append("     Irregularities: " + " ".join(deal.irregularities))
    return lines


def _plays(plays: Iterable[PlayedCard]) -> str:
    """``N KC, E 5D (buried 4H 3H)``: the cards of a trick in the order played."""
    return ", ".join(f"{p.seat} {p.card}" + (f" (buried {p.buried})" if p.buried else "") for p in plays)


def loads(text: str) -> dict[str, Any]:
    """A record's JSON text as a dict; a UTF-8 byte-order mark at the start is ignored, as editors write one."""
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"not valid JSON: {e.msg} at line {e.lineno}, column {e.colno}") from None
    except RecursionError:
        raise RecordError("not a record: the JSON is nested too deeply") from None
    except ValueError as e:  # a number too long to read, for one
        raise RecordError(f"not valid JSON: {e}") from None
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object with format, rules and deals")
    return data


def replay(record: dict[str, Any]) -> Replay:
    """Replay every deal of a record; raises :class:`RecordError` saying where and why it fails."""
    if record.get("format") != FORMAT:
        raise RecordError(f'"format" must be "{FORMAT}", not {quoted(record.get("format"))}')
    if "rules" not in record:
        raise RecordError('the record has no "rules" (a preset name or {"preset": NAME, ...})')
    try:
        rules = Rules.from_json(record["rules"])
    except RulesError as e:
        raise RecordError(f"rules: {e}") from None
    table = rules.seating
    players = _players(record.get("players"), table)
    deals = record.get("deals")
    if not isinstance(deals, list):
        raise RecordError('"deals" must be a list of deals')
    if any(isinstance(d, dict) and "real_cards" in d for d in deals):
        return Replay(None, _replay_sheet(record, rules, players, deals))
    first = None
    if deals and isinstance(deals[0], dict):
        first = _seat(deals[0].get("dealer"), 1, table)
    match = Match(rules, first_dealer=first or table.seats[0], players=players)
    match.metadata = {k: v for k, v in record.items() if k not in _KEYS}
    for number, entry in enumerate(deals, start=1):
        _replay_deal(match, entry, number, is_last=number == len(deals))
    return Replay(match)


def _replay_sheet(record: dict[str, Any], rules: Rules, players: dict[Seat, str], deals: list[Any]) -> ScoreSheet:
    """Settle every deal of a record played with real cards, checking each written result."""
    sheet = ScoreSheet(rules, players)
    sheet.metadata = {k: v for k, v in record.items() if k not in _KEYS}
    for number, entry in enumerate(deals, start=1):
        if not isinstance(entry, dict):
            raise RecordError("a deal must be an object with dealer, real_cards and result", deal=number)
        if "real_cards" not in entry:
            raise RecordError('the deal has no "real_cards", but other deals of the record were played with real '
                              "cards: a record holds deals dealt by the program or deals played with real cards, "
                              "not both", deal=number)
        unknown = set(entry) - _REAL_CARDS_KEYS
        if unknown:
            raise RecordError(f"unknown field {quoted(sorted(unknown)[0])}; a deal played with real cards has dealer, "
                              "real_cards and result", deal=number)
        if "dealer" not in entry:
            raise RecordError('the deal has no "dealer"', deal=number)
        dealer = _seat(entry["dealer"], number, rules.seating)
        try:
            played = DealEntry.from_json(dealer, entry["real_cards"])
        except EntryError as e:
            raise RecordError(f'"real_cards": {e}', deal=number) from None
        if sheet.winner is not None:
            raise RecordError(
                f"the match was already won by {sheet.winner} ({_final(sheet.table, sheet.score)}) before this "
                f"deal; the record ends with deal {number - 1}", deal=number)
        try:
            settled = sheet.add(played)
        except EntryError as e:
            raise RecordError(str(e), deal=number) from None
        if "result" in entry:
            _check_result(entry["result"], settled.result_json(), number)
    return sheet


def _check_result(written: Any, settled: dict[str, Any], number: int) -> None:
    """A written result must be what the rules make of the entry: a record whose scores another
    reading changed is refused rather than shown with scores it does not hold."""
    if not isinstance(written, dict):
        raise RecordError(f'"result" must be an object with {", ".join(_RESULT_KEYS)}, not {json_kind(written)}',
                          deal=number)
    unknown = set(written) - set(_RESULT_KEYS)
    if unknown:
        raise RecordError(f'"result" has an unknown field {quoted(sorted(unknown)[0])}; it has '
                          f'{", ".join(_RESULT_KEYS)}', deal=number)
    for key in _RESULT_KEYS:
        if key in written and written[key] != settled[key]:
            raise RecordError(f'"result": {key} is written {json.dumps(written[key])}, but the rules settle the '
                              f"deal to {json.dumps(settled[key])}", deal=number)


def _players(value: Any, table: Seating) -> dict[Seat, str]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise RecordError(f'"players" must be an object naming players by seat, as {{"{table.names[0]}": "Ann"}}')
    out = {}
    for key, name in value.items():
        try:  # one letter or number: "N" or "n", "1"; a word ("North") is not a seat key
            seat = table.parse_seat(key) if len(str(key)) == 1 else None
        except NotationError:
            seat = None
        if seat is None:
            raise RecordError(f'"players" has {quoted(key)}, which is not a seat ({" ".join(table.names)})')
        if not isinstance(name, str):
            raise RecordError(f'"players" gives {key} a name that is not text')
        out[seat] = name
    return out


def _seat(value: Any, number: int, table: Seating) -> Seat:
    if not isinstance(value, str) or value.strip().upper() not in table.names:
        raise RecordError(f'"dealer" must be one of {" ".join(table.names)}, not {quoted(value)}', deal=number)
    return table.parse_seat(value)


def _cards(value: Any, field: str, number: int) -> list[Card]:
    if not isinstance(value, str):
        # A list would do as well, but the format has one spelling, so every reader reads every record.
        raise RecordError(f'"{field}" must be cards in one string, separated by spaces (as "AH KH QH ..."), '
                          f"not {json_kind(value)}", deal=number)
    try:
        return [Card.parse(c) for c in value.split()]
    except NotationError as e:
        raise RecordError(f'"{field}": {e}', deal=number) from None


def _replay_deal(match: Match, entry: Any, number: int, *, is_last: bool) -> None:
    if not isinstance(entry, dict):
        raise RecordError("a deal must be an object with dealer, deck and actions", deal=number)
    unknown = set(entry) - _DEAL_KEYS
    if unknown:
        raise RecordError(
            f"unknown field {quoted(sorted(unknown)[0])}; a deal has dealer, deck, restock, shuffle and actions",
            deal=number,
        )
    for key in ("dealer", "deck", "actions"):
        if key not in entry:
            raise RecordError(f'the deal has no "{key}"', deal=number)
    dealer = _seat(entry["dealer"], number, match.table)
    deck = _cards(entry["deck"], "deck", number)
    restock = _cards(entry["restock"], "restock", number) if "restock" in entry else None
    shuffle = None
    if "shuffle" in entry:
        try:
            shuffle = Shuffle.from_json(entry["shuffle"], number, decks=match.rules.decks)
        except RecordError as e:
            raise RecordError(f'"shuffle": {e.detail}', deal=number) from None
    actions = entry["actions"]
    if not isinstance(actions, list):
        raise RecordError('"actions" must be a list of actions', deal=number)
    if match.winner is not None:
        raise RecordError(
            f"the match was already won by {match.winner} ({_final(match.table, match.score)}) before this "
            f"deal. Legal there: nothing; the record ends with deal {number - 1}",
            deal=number,
        )
    try:
        deal = match.start_deal(deck, restock=restock, dealer=dealer, shuffle=shuffle)
    except IllegalAction as e:
        raise RecordError(f'"dealer" is {dealer}, but {e.rule}', deal=number) from None
    except CinchError as e:
        raise RecordError(f'"deck": {e}', deal=number) from None
    if shuffle is not None:
        try:
            shuffle.verify(deal.deck, restock)
        except RecordError as e:
            raise RecordError(e.detail, deal=number) from None
    for index, text in enumerate(actions, start=1):
        try:
            action = parse_action(text)
        except NotationError as e:
            raise RecordError(f"{e}. Legal there: {_legal_text(match)}", deal=number, action=index) from None
        if deal.is_over:
            raise RecordError(
                f"{quoted(text)} comes after the deal is over (it ended with action {index - 1}). Legal there: "
                'nothing; the next deal is a new entry of "deals"',
                deal=number, action=index,
            )
        try:
            match.apply(action)
            if shuffle is not None and deal.phase is Phase.RESTOCK:
                match.resolve_chance()  # no "restock" written: the shuffle forms the new stock
        except IllegalAction as e:
            if deal.phase.value == "restock":
                raise RecordError(_no_restock(deal), deal=number, action=index - 1) from None
            if isinstance(e.action, str) and e.action.startswith("restock"):
                # the given new stock was checked when the stock ran out, on this action
                raise RecordError(f'"restock" is wrong: {e.rule}. Legal there: {e.legal_summary}',
                                  deal=number, action=index) from None
            raise RecordError(f"{quoted(text)} is illegal: {e.rule}. Legal there: {e.legal_summary}",
                              deal=number, action=index) from None
    if deal.phase.value == "restock":
        raise RecordError(_no_restock(deal), deal=number, action=len(actions))
    if restock is not None and deal.restock is None and deal.phase.value in ("play", "done"):
        raise RecordError('"restock" is given but the stock never ran out (or the rules share out what is left). '
                          'Legal there: no "restock" field', deal=number)
    if not deal.is_over and not is_last:
        raise RecordError(
            f"the deal stops before its end, but another deal follows. Legal there: {_legal_text(match)}",
            deal=number, action=len(actions) + 1,
        )


def _final(table: Seating, score: tuple[int, ...]) -> str:
    """``62 to 40``, or cut-throat every player's score."""
    return f"{score[0]} to {score[1]}" if table.partnership else table.score_text(score)


def _no_restock(deal: Deal) -> str:
    pool = deal.restock_pool
    return ('the stock ran out after this action, before every hand was refilled, and the rules form a new '
            'stock from the discards, but the deal has no "restock" giving its order. Legal there: a "restock" '
            f"field ordering the {len(pool)} non-trump discards {pool}")


def _legal_text(match: Match) -> str:
    deal = match.current
    if deal is None:
        return "nothing"
    legal = deal.legal_actions()
    if isinstance(legal, KeepOptions) and len(legal) > 24:
        return legal.describe()
    return ", ".join(str(a) for a in legal)
