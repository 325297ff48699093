"""Perft for Cinch: exact counts of the game tree from fixed positions, kept as an oracle.

Like the perft files of chess engines: from each position below, :func:`perft` counts the
leaves reached by every legal sequence of exactly ``depth`` actions, and for positions late in
the play :func:`end_totals` walks every line to the end of the deal and sums the scores.  The
counts of the engine as it stood are checked in (``tests/perft/counts.txt``) and replayed by
``tests/test_perft.py``, so a changed rule anywhere (bidding, discard, refill, rob, follow,
burying, scoring, settlement) changes some number.

Each position is defined by data alone: rules (a preset and option overrides), dealer, the
52-card deck in record notation (top first) and the actions, in record notation, that lead
from the deal to it.  Chance is resolved without counting as an action: a new stock (the
reshuffle rule) is the discards in card order, ``list(deal.restock_pool)``.

    .venv/bin/python tests/perft.py --check    # compare the engine with the checked-in counts
    .venv/bin/python tests/perft.py --write    # regenerate the counts (after a deliberate change)

>>> from cinch import Deal, Rules, Seat
>>> deal = Deal(Rules.preset("pagat"), Seat.W, POSITIONS[0].deck)
>>> perft(deal, 1), perft(deal, 2)  # N passes or bids 7-14, then E answers
(9, 45)
"""

from __future__ import annotations

import argparse
import sys
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from cinch import Deal, Phase, Rules, parse_action

DATA = Path(__file__).parent / "perft" / "counts.txt"

_DONE = Phase.DONE
_RESTOCK = Phase.RESTOCK


# ---- the walk ---------------------------------------------------------------------------
def resolve_chance(deal: Deal) -> None:
    """Form any new stock the deal waits for: the non-trump discards in card order."""
    while deal.phase is _RESTOCK:
        deal.apply_restock(list(deal.restock_pool))


def perft(deal: Deal, depth: int) -> int:
    """Leaves reached by every legal sequence of exactly ``depth`` actions from ``deal``.

    A finished deal is a leaf even with depth to spare; a new stock is chance, not an action.
    The last ply is counted in bulk (``len(legal_actions())``, lazy for keeps).
    """
    if deal.phase is _RESTOCK:
        deal = deal.copy()
        resolve_chance(deal)
    return _perft(deal, depth)


def _perft(deal: Deal, depth: int) -> int:
    if depth == 0 or deal.phase is _DONE:
        return 1
    legal = deal.legal_actions()
    if depth == 1:
        return len(legal)
    total = 0
    for action in legal:
        child = deal.copy()
        child.apply(action)
        if child.phase is _RESTOCK:
            resolve_chance(child)
        total += _perft(child, depth - 1)
    return total


class EndTotals(NamedTuple):
    """Sums over every line of play from a position to the end of the deal (four players, two sides)."""

    leaves: int  # finished deals reached
    ns_points: int  # points taken by NS, summed over the leaves
    ew_points: int
    made: int  # leaves where the makers made their bid
    ns_change: int  # NS's score change, summed over the leaves
    ew_change: int

    def __str__(self) -> str:
        return " ".join(f"{name}={value}" for name, value in zip(self._fields, self))


class PlayerTotals(NamedTuple):
    """The same sums at a cut-throat table, where each player is a side: points and score changes by seat."""

    leaves: int
    points: tuple[int, ...]  # by seat 1 to n, summed over the leaves
    made: int
    change: tuple[int, ...]

    def __str__(self) -> str:
        def by_seat(values: tuple[int, ...]) -> str:
            return ",".join(f"{seat}:{value}" for seat, value in enumerate(values, start=1))

        return f"leaves={self.leaves} points={by_seat(self.points)} made={self.made} change={by_seat(self.change)}"


def end_totals(deal: Deal) -> EndTotals | PlayerTotals:
    """Walk every legal line from ``deal`` to the end of the deal and sum the results: by side (NS, EW)
    at four players, by player at a cut-throat table."""
    sides = deal.rules.seating.sides
    sums = [0] * (2 + 2 * sides)  # leaves, points by side, made, changes by side
    if deal.phase is _RESTOCK:
        deal = deal.copy()
        resolve_chance(deal)
    _walk_to_end(deal, sums, sides)
    if deal.rules.seating.partnership:
        leaves, ns, ew, made, ns_change, ew_change = sums
        return EndTotals(leaves, ns, ew, made, ns_change, ew_change)
    return PlayerTotals(sums[0], tuple(sums[1:1 + sides]), sums[1 + sides], tuple(sums[2 + sides:]))


def _walk_to_end(deal: Deal, sums: list[int], sides: int) -> None:
    if deal.phase is _DONE:
        result = deal.result
        assert result is not None
        points = result.points or (0,) * sides
        sums[0] += 1
        for side in range(sides):
            sums[1 + side] += points[side]
            sums[2 + sides + side] += result.score_change[side]
        sums[1 + sides] += bool(result.made)
        return
    for action in deal.legal_actions():
        child = deal.copy()
        child.apply(action)
        if child.phase is _RESTOCK:
            resolve_chance(child)
        _walk_to_end(child, sums, sides)


# ---- the positions ------------------------------------------------------------------------
@dataclass(frozen=True)
class Position:
    """One oracle position: everything needed to rebuild it, and what to count from it."""

    name: str
    note: str  # what the position exercises, in words
    preset: str
    dealer: str  # N E S W; 1 to n at a cut-throat table (options "players")
    deck: str  # 52 cards, record notation, top first
    actions: str = ""  # record notation, comma-separated, from the deal to the position
    depths: tuple[int, ...] = ()  # perft depths to count
    end: bool = False  # also walk every line to the end of the deal (end_totals)
    options: dict[str, str] = field(default_factory=dict)  # overrides of the preset

    def rules(self) -> Rules:
        rules = Rules.preset(self.preset)
        return rules.with_options(**self.options) if self.options else rules

    def action_list(self) -> list[str]:
        return [a.strip() for a in self.actions.split(",") if a.strip()]

    def start(self) -> Deal:
        """The position, replayed from the deal (chance resolved as in :func:`perft`)."""
        rules = self.rules()
        deal = Deal(rules, rules.seating.parse_seat(self.dealer), self.deck)
        for i, text in enumerate(self.action_list(), start=1):
            resolve_chance(deal)
            try:
                deal.apply(parse_action(text))
            except Exception as exc:
                raise ReplayError(f"{self.name}: action {i} ({text!r}) was refused: {exc}") from exc
        resolve_chance(deal)
        return deal

    def rules_text(self) -> str:
        spec = self.rules().to_json()
        if isinstance(spec, str):
            return spec
        return " ".join([spec["preset"]] + [f"{k}={v}" for k, v in spec.items() if k != "preset"])


class ReplayError(Exception):
    """The actions leading to a position are no longer legal."""


def describe_start(deal: Deal) -> str:
    """The start position in one line: phase, who acts, tricks taken, every hand."""
    hands = " / ".join(f"{seat} {deal.hand(seat) or '-'}" for seat in deal.rules.seating.seats)
    who = f"{deal.to_act} to act" if deal.to_act is not None else "nobody to act"
    trump = f"trump {deal.trump}, " if deal.trump is not None else ""
    return f"{deal.phase.value}, {who}, {trump}{len(deal.tricks)} tricks taken; {hands}"


def compute(position: Position) -> list[str]:
    """The data lines of one position (without its name): start, one per depth, end."""
    deal = position.start()
    lines = ["start " + describe_start(deal)]
    for depth in position.depths:
        lines.append(f"perft {depth} {perft(deal, depth)}")
    if position.end:
        lines.append(f"end {end_totals(deal)}")
    return lines


def header(position: Position) -> list[str]:
    """The comment lines that describe a position in the data file (its definition, nothing derived)."""
    lines = [f"# {position.name}: {position.note}",
             f"#   rules {position.rules_text()}; dealer {position.dealer}",
             f"#   deck {position.deck}"]
    actions = ", ".join(position.action_list()) or "(none: the start of the deal)"
    lines += textwrap.wrap(actions, 108, initial_indent="#   actions ", subsequent_indent="#     ",
                           break_on_hyphens=False)
    return lines


FILE_HEAD = """\
# Perft oracle for the cinch engine: exact counts of the game tree from fixed positions.
# Written by `.venv/bin/python tests/perft.py --write` from the engine as it stood; replayed by
# tests/test_perft.py.  A changed number means a changed rule: regenerate only on purpose.
#
# Each position is described by comment lines (rules, dealer, deck top first, the actions from
# the deal), then its data lines:
#   NAME start ...          the position reached: phase, who acts, tricks taken, the hands
#   NAME perft D N          N leaves after exactly D actions (a finished deal is a leaf; a new
#                           stock is chance, not an action: the discards in card order)
#   NAME end leaves=... ns_points=... ew_points=... made=... ns_change=... ew_change=...
#                           every line of play to the end of the deal, summed over its leaves
#   NAME end leaves=... points=1:...,2:... made=... change=1:...,2:...
#                           the same at a cut-throat table (2, 3, 5 or 6 players), by seat
"""


def render(results: dict[str, list[str]]) -> str:
    out = [FILE_HEAD]
    for position in POSITIONS:
        out.append("\n".join(header(position)))
        out.append("\n".join(f"{position.name} {line}" for line in results[position.name]) + "\n")
    return "\n".join(out)


class DataFile(NamedTuple):
    data: dict[str, list[str]]  # position name -> its data lines, name stripped
    headers: dict[str, list[str]]  # position name -> its comment lines


def read(path: Path = DATA) -> DataFile:
    data: dict[str, list[str]] = {}
    headers: dict[str, list[str]] = {}
    block: list[str] = []
    for raw in path.read_text().splitlines():
        if raw.startswith("# ") and not raw.startswith("#  ") and ":" in raw:
            block = [raw]
            headers[raw[2:].split(":", 1)[0]] = block
        elif raw.startswith("#   ") and block:
            block.append(raw)
        elif raw and not raw.startswith("#"):
            name, rest = raw.split(" ", 1)
            data.setdefault(name, []).append(rest)
    return DataFile(data, headers)


def differences(position: Position, expected: list[str], got: list[str]) -> list[str]:
    """What differs, line by line, keyed by kind and depth: ``perft 5: expected 4440, got 4432``."""

    def keyed(lines: list[str]) -> dict[str, str]:
        out = {}
        for line in lines:
            kind, _, rest = line.partition(" ")
            if kind == "perft":
                depth, _, count = rest.partition(" ")
                out[f"perft depth {depth}"] = count
            else:
                out[kind] = rest
        return out

    want, have = keyed(expected), keyed(got)
    out = []
    for key in list(want) + [k for k in have if k not in want]:
        if want.get(key) != have.get(key):
            was, now = want.get(key, "(nothing)"), have.get(key, "(nothing)")
            out.append(f"{position.name}: {key}: expected {was}, got {now}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help=f"regenerate {DATA.name} from the engine")
    mode.add_argument("--check", action="store_true", help="compare the engine with the checked-in counts")
    parser.add_argument("names", nargs="*", help="only these positions (--check only)")
    args = parser.parse_args(argv)
    known = {p.name for p in POSITIONS}
    if args.write and args.names:
        parser.error("--write regenerates every position; name positions only with --check")
    if set(args.names) - known:
        parser.error(f"no position named {', '.join(sorted(set(args.names) - known))}")
    positions = [p for p in POSITIONS if not args.names or p.name in args.names]
    expected = read() if args.check else None
    results: dict[str, list[str]] = {}
    problems: list[str] = []
    leaves = 0
    began = time.perf_counter()
    for position in positions:
        t = time.perf_counter()
        try:
            got = compute(position)
        except ReplayError as exc:
            problems.append(str(exc))
            continue
        results[position.name] = got
        leaves += sum(int(line.split()[2]) for line in got if line.startswith("perft "))
        leaves += sum(int(line.split()[1].split("=")[1]) for line in got if line.startswith("end "))
        print(f"{position.name:32} {time.perf_counter() - t:6.2f}s", file=sys.stderr)
        if expected is not None:
            if expected.headers.get(position.name) != header(position):
                problems.append(f"{position.name}: its description in {DATA.name} differs from tests/perft.py")
            problems += differences(position, expected.data.get(position.name, []), got)
    print(f"{len(positions)} positions, {leaves} leaves, {time.perf_counter() - began:.2f}s", file=sys.stderr)
    if expected is not None and not args.names:
        stale = [name for name in expected.data if name not in known]
        problems += [f"{name}: in {DATA.name} but not among the positions" for name in stale]
    if args.write:
        if problems:
            print("\n".join(problems))
            return 1
        DATA.parent.mkdir(exist_ok=True)
        DATA.write_text(render(results))
        print(f"wrote {DATA}")
        return 0
    if problems:
        print("\n".join(problems))
        return 1
    print("all counts agree")
    return 0


# ---- the oracle positions -------------------------------------------------------------------
# The decks, top first, in record notation.  A shuffled one is
# `deck = list(CARDS); random.Random(SEED).shuffle(deck)`; the others were dealt by hand.
# shuffled, seed 1003
DECK_PAGAT = (
    "QH 9C JH 5S AH 4C 5C 2C 2D 7D 8H 8S 3S JS 6S JC 3H 2S AC AS 5H AD 4D TC 4S QC "
    "KD TH 3C 7S 7H QS KC 9H 9S 3D 8C 8D TD TS 6H KS 2H 6C 6D QD JD 7C KH 4H 5D 9D"
)
# shuffled, seed 2002
DECK_DIFFERENCE = (
    "AC 5C 6D 4S 8S 5D QS AH TD 5S KC 6S 2H QD 2C JD KH 9D AD 7D TC JC 9C KD 3S 3H "
    "2S 3D 9S 6C QH KS 5H 4H 6H JS TS 8H 4C TH 8C 3C 2D 9H JH 7S 4D QC 7H 8D AS 7C"
)
# shuffled, seed 3003
DECK_ADDITIVE = (
    "4S 7D TD 6H AH 3H TS 9S KD QC 4C 7S 2H AD 9D 8C JH 2D 3D 8D KS 7H 2S 3C 9H 8H "
    "KH 4H 3S 2C QD QS AC 6S 8S AS 5S 6D 5C KC TC 6C 5H 9C JS 4D TH JC QH 7C JD 5D"
)
# shuffled, seed 4004
DECK_OFFICIAL = (
    "6D 4C 5C 4H JC 4D 9S AD 7H TH 5D 3S 4S QC JD 7D 8H TC QS 6C 6S 3D KC 5S 7S 2C "
    "JH KD 8S 7C 9H 2S TS 3C KH 6H AC 8C QH AH 2D 3H AS QD KS 2H JS 8D 9D 5H 9C TD"
)
# shuffled, seed 5005
DECK_DOUBLE_PEDRO = (
    "8D AC 2H KS TD 5H 5C 3H KD 8C AS 4D KH 9C 7C 4C JC 7H 3D 8H 4H 7D 9H QC QH JH "
    "7S 5D 6D AD 6C 3C JD 5S 6S 8S QS 4S 2D KC TS TC 9S 3S TH 6H 9D QD 2C JS 2S AH"
)
# shuffled, seed 1013
DECK_PAGAT_STRICT = (
    "AD 2D TC 2H 5H 3D 7D TH AH QS JD 7S KH JC 8H 9H KD 2C KC TD 7H 4S 8C 2S 9S 8D "
    "AC 4H 5S 6S 8S 6D 5D QD TS 6H AS 4C QH QC JS 3H KS 6C 4D 3S 3C 7C 9C JH 5C 9D"
)
# shuffled, seed 2102
DECK_DIFFERENCE_AUCTION = (
    "TD 5H TH 7C 8C 2S 7H 3S KC 5S 9H 6C JS AH 2H 6D JC AS 6S JH 2D 7S 6H TC 9D 3C "
    "4C 3D 5D 4H AC QS TS AD 3H KH KS QH 5C 4S 9S KD QD QC 7D 4D 2C JD 8S 8D 9C 8H"
)
# shuffled, seed 3103
DECK_ADDITIVE_SANCHO = (
    "2H QC KC 7D 3S 5C TC AH KH JC QH 4C 2C 3C QS 9S KS 9H 8C 5S AD 6S AS 7S 4D 3D "
    "2S 2D 6H JH 9C 8D 8H 3H JD 5D 7C 6C QD 8S 4S TH 7H 9D TD AC 5H TS 6D JS 4H KD"
)
# shuffled, seed 4104
DECK_OFFICIAL_NODRAW = (
    "9S 3D KS 4S 7H 2S 9D 3S JH 8D KD 4C TH 3C JC 2D QD KC 3H AS 8C QH JD 5H KH 8S "
    "4H 9H AD 5S 6D 7S 7C 5C 6H JS 8H 2H 7D 2C QS 4D TC AH QC 6S AC 6C 5D TD TS 9C"
)
# shuffled, seed 1205
DECK_PAGAT_NODRAW_STRICT = (
    "AH 2D 3S 7S 2C AS 9S JH 8C TH 8H 5H 2S KH AC TC QH 7H 3C KS JS 8D 8S 9D KD 7D "
    "7C 9H 5S 6C 6H 5D 3H 4S JC 3D 4D TS 6S TD 6D QD QS 4H JD KC 2H 9C 4C 5C AD QC"
)
# shuffled, seed 83: with spades trumps only 7 trumps are dealt, so the stock runs out
DECK_PAGAT_RESTOCK = (
    "JH 6C 5C KD 7H TS 5D 8S 7C 2D 7S 6D 4D TC 6H 4H QH 4S TH QD 9H 7D 9C 3C 8D AS "
    "2H KS AC 2C 3D KH TD JC KC 5H 5S AD 8C 4C 8H 3S 2S AH QC JS QS 3H 6S 9S JD 9D"
)
# shuffled, seed 60: with hearts trumps only 7 trumps are dealt, so the stock runs out
DECK_DOUBLE_PEDRO_RESTOCK = (
    "7S 4C 7C 8S 3D QC 7D KC KD 2S 8D AH QD 9C 4H 5D 6D AC JS 5H 2D KS 3C TH 8C 6C "
    "TS TC 2H 7H 9D 2C 6S 4S AD AS QH JC 3H 5C 3S 9S QS 6H JD TD KH JH 5S 4D 9H 8H"
)
# by hand: the dealer W holds 8 hearts, N one, E and S none: 17 cards wanted from 16
DECK_ADDITIVE_SHARE = (
    "KH KD JC JD 5C TD 7C 3D 2S JH 3H 5D 3S 6C 4S 6S QS 8S 4D 2D KS 7H 5H TH AS AD "
    "AC 5S 4C 8D TC 9C 7D 2H 6H 6D 2C TS 4H QC QD 9H 9S 7S 8C 3C 9D QH KC AH JS 8H"
)
# by hand: E is dealt 7 hearts, the dealer N 4 and robs 3 more from the stock
DECK_PAGAT_BURY = (
    "AH KH QH AD KD 9D QS JS 7S TH 7H 6H JH 9H 8H 8D TS 9S 6S 2S 6D 5D AS KS 2H 4C "
    "7C 8S KC JC 3D AC QC 3C QD JD TD 7D 4D 2D 5S 4S 3S TC 9C 8C 6C 5C 5H 4H 3H 2C"
)
# by hand: S, a defender of E's hearts, is dealt 7 hearts including the Jack
DECK_OFFICIAL_THROWN = (
    "AH 5H 5D KH QH JH 7H 9S 8S 6H 4H JS 3H AS KS TH 9H 8H 7S QD JD TS 2S AD QS AC "
    "KC 2H 4C 5C TD 6C 7C KD 9D 2C 8D 7D 3C 6S 5S 4S 3S QC 6D 4D 3D 2D JC TC 9C 8C"
)
# by hand: E is dealt A J T 9 5 5 3 2 of hearts, every point card with Sancho and Dom
DECK_PAGAT_BURY_POINTS = (
    "AH JH TH QH AD KD 8H QS JS KH 4H AS 9H 5H 5D 9D 8D TS 7S 6S 6D KS 3C QD 3H 2H "
    "7C 8S KC JC 3D AC QC JD 9S 2S TD 7D 4D 2D 5S 4S 3S TC 9C 8C 6C 5C 7H 6H 2C 4C"
)
# by hand: S is dealt 8 hearts, the dealer N one, E and W none
DECK_DOUBLE_PEDRO_KEEP_SIX_RESTOCK = (
    "AS KS QS AH KH QH 8S 7S 6S 7H 5S 4S JS TS 9S JH TH 9H AD KD QD 3S 2S 8D AC KC "
    "QC 8H 2H 7C JD TD 9D 7D JC TC 6H 9C 8C 5H 6C 5D 5C 4H 4C 3H 3C 6D 4D 3D 2D 2C"
)

# The decks of the golden records of other table sizes (tests/records), dealt by hand:
# pagat-two-players.json (2 players, 2 deals)
DECK_TWO = (
    "AD 2D 8D KD QD JD KS QS JS 5D 5H 2S KC QC JC 3S 4S 2C TD 9S 9C 3D AS TS 8S 7S "
    "6S 5S AH KH QH JH TH 9H 8H 7H 6H 4H 3H 2H 9D 7D 6D 4D AC TC 8C 7C 6C 5C 4C 3C"
)
# official-three-players.json, deal 1 (3 players, 3 deals)
DECK_THREE = (
    "KH 9H 2H AH JH 5H 5D 6H JS AS KS QS TH AC KC TS 9S 8S 4C 3C 7D QC 9D 8D 2C JC "
    "3D QH 2S 3S 4D 5S 7H 6S 7S 4S 8H 4H 3H AD KD QD JD TD 6D 2D TC 9C 8C 7C 6C 5C"
)
# additive-five-players.json (5 players, 5 deals)
DECK_FIVE = (
    "AH 2H KS KH 5D KC QH JH 5H TH AC 9C 9H 3H 9S QS JS TS QC JC TC AD KD QD 8C 7C "
    "6C 8S 7S 6S 8H 2S 3S 4S 5S 2C 3C 4C 2D 3D 4D 6D 7D 8D 9D 7H 6H 4H AS JD TD 5C"
)
# difference-six-players.json (6 players, 6 deals; the stock runs short)
DECK_SIX = (
    "AC 2C AH KC QC 5C JC 5S AS TC TH 9H 9C 8C TD 3C 6D 4D KH QH JH AD KD QD KS QS "
    "JS 8H 7H 6H 9D 8D 7D 3D 2D TS 7C 9S 8S 7S 6S 4S 3S 2S 5H 4H 3H 2H JD 5D 6C 4C"
)
# official-heasly.json (Heasly: 6 players, 6 deals; the stock runs short)
DECK_HEASLY = (
    "AD QD 8D 7D AC KC 6D AH KH 4D 9S 8S 3D 2D 9C KD 9D JS AS KS QS QC JC TC QH JH "
    "TH 7S 6S 5S 8C 7C 6C TS 4S 3S JD 2S 9H TD 8H 7H 6H 4H 5D 3H 2H 5C 4C 5H 3C 2C"
)

POSITIONS: list[Position] = [
    Position(
        name="pagat-bidding",
        note="the start of the bidding",
        preset="pagat", dealer="W", deck=DECK_PAGAT,
        depths=(1, 2, 3, 4, 5),
    ),
    Position(
        name="pagat-draw",
        note="trumps named, discards forced: the dealer robs every trump in the stock and non-trumps to six",
        preset="pagat", dealer="W", deck=DECK_PAGAT,
        actions="pass, pass, bid 8, bid 10, trump D",
        depths=(1, 2, 3),
    ),
    Position(
        name="pagat-play",
        note="the start of the play",
        preset="pagat", dealer="W", deck=DECK_PAGAT,
        actions="pass, pass, bid 8, bid 10, trump D, keep AS AD 9D 7D 4D 3D",
        depths=(1, 2, 3, 4, 5, 6, 7, 8),
    ),
    Position(
        name="pagat-late",
        note="the last three tricks, walked to the end",
        preset="pagat", dealer="W", deck=DECK_PAGAT,
        actions=("pass, pass, bid 8, bid 10, trump D, keep AS AD 9D 7D 4D 3D, play 3D, play 8D, play QD, play 2D, "
                 "play JD, play 5H, play AD, play KD, play AS, play TD, play 6D, play KH"),
        depths=(1, 2),
        end=True,
    ),
    Position(
        name="difference-bidding",
        note="the start of the bidding",
        preset="difference", dealer="N", deck=DECK_DIFFERENCE,
        depths=(1, 2, 3, 4, 5),
    ),
    Position(
        name="difference-draw",
        note="trumps named, discards face up and forced: the dealer keeps any six of his cards and the stock",
        preset="difference", dealer="N", deck=DECK_DIFFERENCE,
        actions="bid 1, pass, bid 4, pass, trump D",
        depths=(1, 2, 3),
    ),
    Position(
        name="difference-play",
        note="the start of the play",
        preset="difference", dealer="N", deck=DECK_DIFFERENCE,
        actions="bid 1, pass, bid 4, pass, trump D, keep AS 7S JH 7H QC 7C",
        depths=(1, 2, 3, 4, 5, 6, 7),
    ),
    Position(
        name="difference-late",
        note="the last three tricks, walked to the end",
        preset="difference", dealer="N", deck=DECK_DIFFERENCE,
        actions=("bid 1, pass, bid 4, pass, trump D, keep AS 7S JH 7H QC 7C, play 9H, play JH, play QD, play 8C, "
                 "play TH, play 9D, play 2D, play 7H, play 3D, play TD, play 7S, play 6D"),
        depths=(1, 2),
        end=True,
    ),
    Position(
        name="additive-bidding",
        note="the start of the bidding",
        preset="additive", dealer="E", deck=DECK_ADDITIVE,
        depths=(1, 2, 3, 4, 5),
    ),
    Position(
        name="additive-draw",
        note="trumps named: each throws the non-trumps he chooses; the dealer then keeps six of nine and stock",
        preset="additive", dealer="E", deck=DECK_ADDITIVE,
        actions="pass, pass, bid 4, pass, trump S",
        depths=(1, 2),
    ),
    Position(
        name="additive-play",
        note="the start of the play",
        preset="additive", dealer="E", deck=DECK_ADDITIVE,
        actions=("pass, pass, bid 4, pass, trump S, keep 4S 9H 2H TD 7D, keep 3S AH 4H 3H 8C, keep KS QS TS 9S KD "
                 "8D, keep JS 7S 6S KC QC 9C"),
        depths=(1, 2, 3, 4, 5, 6, 7, 8),
    ),
    Position(
        name="additive-late",
        note="the last three tricks, walked to the end",
        preset="additive", dealer="E", deck=DECK_ADDITIVE,
        actions=("pass, pass, bid 4, pass, trump S, keep 4S 9H 2H TD 7D, keep 3S AH 4H 3H 8C, keep KS QS TS 9S KD "
                 "8D, keep JS 7S 6S KC QC 9C, play KD, play KC, play 4S, play 3S, play TD, play 6D, play 8D, play "
                 "QC, play 9H, play 3H, play QS, play 6S"),
        depths=(1, 2),
        end=True,
    ),
    Position(
        name="official-bidding",
        note="the start of the bidding",
        preset="official", dealer="S", deck=DECK_OFFICIAL,
        depths=(1, 2, 3, 4, 5),
    ),
    Position(
        name="official-draw",
        note="trumps named, discards forced: the dealer keeps any six of his nine cards and the stock",
        preset="official", dealer="S", deck=DECK_OFFICIAL,
        actions="bid 2, pass, pass, bid 5, trump H",
        depths=(1, 2),
    ),
    Position(
        name="official-play",
        note="the start of the play",
        preset="official", dealer="S", deck=DECK_OFFICIAL,
        actions="bid 2, pass, pass, bid 5, trump H, keep KH TH 6H TD 3D KC",
        depths=(1, 2, 3, 4, 5, 6, 7),
    ),
    Position(
        name="official-late",
        note="the last three tricks, walked to the end",
        preset="official", dealer="S", deck=DECK_OFFICIAL,
        actions=("bid 2, pass, pass, bid 5, trump H, keep KH TH 6H TD 3D KC, play KC, play JH, play QD, play 9D, "
                 "play QH, play 3H, play 2H, play KH, play TD, play AH, play 4H, play 8D"),
        depths=(1, 2),
        end=True,
    ),
    Position(
        name="double-pedro-bidding",
        note="the start of the bidding",
        preset="double-pedro", dealer="W", deck=DECK_DOUBLE_PEDRO,
        depths=(1, 2, 3, 4, 5),
    ),
    Position(
        name="double-pedro-draw",
        note="trumps named, discards forced: the dealer takes trumps first from the stock, then any, to six",
        preset="double-pedro", dealer="W", deck=DECK_DOUBLE_PEDRO,
        actions="pass, bid 5, pass, pass, trump D",
        depths=(1, 2, 3),
    ),
    Position(
        name="double-pedro-play",
        note="the start of the play",
        preset="double-pedro", dealer="W", deck=DECK_DOUBLE_PEDRO,
        actions="pass, bid 5, pass, pass, trump D, keep JS QD 9D 7D 4D 2C",
        depths=(1, 2, 3, 4, 5, 6, 7, 8),
    ),
    Position(
        name="double-pedro-late",
        note="the last three tricks, walked to the end",
        preset="double-pedro", dealer="W", deck=DECK_DOUBLE_PEDRO,
        actions=("pass, bid 5, pass, pass, trump D, keep JS QD 9D 7D 4D 2C, play 5H, play 3D, play 7D, play 8D, "
                 "play KC, play 6D, play JD, play 9D, play TH, play QD, play 4S, play TD"),
        depths=(1, 2),
        end=True,
    ),
    Position(
        name="pagat-strict-play",
        note="the start of the play (strict following)",
        preset="pagat", dealer="N", deck=DECK_PAGAT_STRICT,
        options={"follow": "strict"},
        actions="bid 8, bid 11, bid 14, pass, trump H, keep 3S JH 6H 9D 4D 7C",
        depths=(1, 2, 3, 4, 5, 6, 7, 8),
    ),
    Position(
        name="pagat-strict-late",
        note="the last three tricks, walked to the end (strict following)",
        preset="pagat", dealer="N", deck=DECK_PAGAT_STRICT,
        options={"follow": "strict"},
        actions=("bid 8, bid 11, bid 14, pass, trump H, keep 3S JH 6H 9D 4D 7C, play AH, play 6H, play 8H, play "
                 "4H, play 6C, play 7C, play QC, play 9H, play JS, play KS, play 3S, play AS"),
        depths=(1, 2),
        end=True,
    ),
    Position(
        name="difference-auction-bidding",
        note="the start of the bidding (auction bidding, bids 5 to 9)",
        preset="difference", dealer="E", deck=DECK_DIFFERENCE_AUCTION,
        options={"bidding": "auction", "min_bid": "5", "max_bid": "9"},
        depths=(1, 2, 3, 4, 5, 6, 7),
    ),
    Position(
        name="difference-auction-play",
        note="the start of the play (auction bidding, bids 5 to 9)",
        preset="difference", dealer="E", deck=DECK_DIFFERENCE_AUCTION,
        options={"bidding": "auction", "min_bid": "5", "max_bid": "9"},
        actions="bid 5, bid 6, pass, bid 8, pass, pass, trump H, keep 8S KH 9H 3H JD 9C",
        depths=(1, 2, 3, 4, 5, 6),
    ),
    Position(
        name="difference-auction-late",
        note="the last three tricks, walked to the end (auction bidding, bids 5 to 9)",
        preset="difference", dealer="E", deck=DECK_DIFFERENCE_AUCTION,
        options={"bidding": "auction", "min_bid": "5", "max_bid": "9"},
        actions=("bid 5, bid 6, pass, bid 8, pass, pass, trump H, keep 8S KH 9H 3H JD 9C, play KH, play TH, play "
                 "5D, play JH, play JD, play 5H, play 4H, play 7H, play QD, play 8S, play KS, play KD"),
        depths=(1, 2),
        end=True,
    ),
    Position(
        name="additive-sancho-bidding",
        note="the start of the bidding (Sancho and Dom Pedro)",
        preset="additive", dealer="S", deck=DECK_ADDITIVE_SANCHO,
        options={"sancho": "true", "dom_pedro": "true"},
        depths=(1, 2, 3),
    ),
    Position(
        name="additive-sancho-draw",
        note="trumps named: the first discard of chosen non-trumps (Sancho and Dom Pedro)",
        preset="additive", dealer="S", deck=DECK_ADDITIVE_SANCHO,
        options={"sancho": "true", "dom_pedro": "true"},
        actions="pass, bid 6, pass, pass, trump S",
        depths=(1,),
    ),
    Position(
        name="additive-sancho-play",
        note="the start of the play (Sancho and Dom Pedro)",
        preset="additive", dealer="S", deck=DECK_ADDITIVE_SANCHO,
        options={"sancho": "true", "dom_pedro": "true"},
        actions=("pass, bid 6, pass, pass, trump S, keep QS 2S 3D KC QC, keep KS 9S 3S 9H 7D 5C, keep 5S AH 8D, "
                 "keep TS 7S QH 4H TD 9D"),
        depths=(1, 2, 3, 4, 5, 6),
    ),
    Position(
        name="additive-sancho-late",
        note="the last three tricks, walked to the end (Sancho and Dom Pedro)",
        preset="additive", dealer="S", deck=DECK_ADDITIVE_SANCHO,
        options={"sancho": "true", "dom_pedro": "true"},
        actions=("pass, bid 6, pass, pass, trump S, keep QS 2S 3D KC QC, keep KS 9S 3S 9H 7D 5C, keep 5S AH 8D, "
                 "keep TS 7S QH 4H TD 9D, play 5C, play 8S, play 7S, play QS, play KC, play 3S, play 6C, play 4H, "
                 "play 9H, play 5S, play QH, play 3D"),
        depths=(1, 2),
        end=True,
    ),
    Position(
        name="official-nodraw-play",
        note="the start of the play (no draw: nine tricks)",
        preset="official", dealer="N", deck=DECK_OFFICIAL_NODRAW,
        options={"no_draw": "true"},
        actions="pass, pass, bid 1, pass, trump S",
        depths=(1, 2, 3, 4, 5, 6),
    ),
    Position(
        name="official-nodraw-late",
        note="the last three tricks, walked to the end (no draw: nine tricks)",
        preset="official", dealer="N", deck=DECK_OFFICIAL_NODRAW,
        options={"no_draw": "true"},
        actions=("pass, pass, bid 1, pass, trump S, play 6D, play KD, play KS, play 2S, play TH, play 5S, play 7S,"
                 " play QH, play 7C, play 5C, play 8S, play KC, play KH, play 7H, play 3H, play 6H, play 4H, play "
                 "9H, play 3S, play 5H, play 9D, play 8D, play 3D, play 4S"),
        depths=(1, 2),
        end=True,
    ),
    Position(
        name="pagat-nodraw-strict-bidding",
        note="the start of the bidding (no draw, strict following, bids 5 to 10)",
        preset="pagat", dealer="E", deck=DECK_PAGAT_NODRAW_STRICT,
        options={"no_draw": "true", "follow": "strict", "min_bid": "5", "max_bid": "10"},
        depths=(1, 2, 3, 4, 5),
    ),
    Position(
        name="pagat-nodraw-strict-play",
        note="the start of the play (no draw, strict following, bids 5 to 10)",
        preset="pagat", dealer="E", deck=DECK_PAGAT_NODRAW_STRICT,
        options={"no_draw": "true", "follow": "strict", "min_bid": "5", "max_bid": "10"},
        actions="pass, pass, pass, bid 5, trump D",
        depths=(1, 2, 3, 4, 5, 6, 7),
    ),
    Position(
        name="pagat-nodraw-strict-late",
        note="the last three tricks, walked to the end (no draw, strict following, bids 5 to 10)",
        preset="pagat", dealer="E", deck=DECK_PAGAT_NODRAW_STRICT,
        options={"no_draw": "true", "follow": "strict", "min_bid": "5", "max_bid": "10"},
        actions=("pass, pass, pass, bid 5, trump D, play 4S, play 3S, play AS, play JS, play QH, play 3H, play TH,"
                 " play AH, play AC, play TC, play 8C, play JC, play 7D, play 7S, play 5D, play 3D, play 2S, play "
                 "5S, play 9S, play 8S, play JH, play 8H, play KH, play 7H"),
        depths=(1, 2),
        end=True,
    ),
    Position(
        name="pagat-restock",
        note="trumps to name; the stock runs out and the discards form a new stock",
        preset="pagat", dealer="S", deck=DECK_PAGAT_RESTOCK,
        actions="pass, bid 7, pass, pass",
        depths=(1, 2, 3),
    ),
    Position(
        name="pagat-restock-late",
        note="the last three tricks after a new stock, walked to the end",
        preset="pagat", dealer="S", deck=DECK_PAGAT_RESTOCK,
        actions=("pass, bid 7, pass, pass, trump S, keep 9S 7S 6S 9H JD 7C, play 2S, play QS, play 9S, play 5C, "
                 "play 8S, play 6S, play AS, play TS, play 8C, play 4S, play QC, play 7S"),
        depths=(1, 2),
        end=True,
    ),
    Position(
        name="double-pedro-restock",
        note="trumps to name; the stock runs out and the discards form a new stock",
        preset="double-pedro", dealer="S", deck=DECK_DOUBLE_PEDRO_RESTOCK,
        actions="pass, bid 2, pass, pass",
        depths=(1, 2, 3),
    ),
    Position(
        name="double-pedro-restock-late",
        note="the last three tricks after a new stock, walked to the end",
        preset="double-pedro", dealer="S", deck=DECK_DOUBLE_PEDRO_RESTOCK,
        actions=("pass, bid 2, pass, pass, trump H, keep 6S AH TH 9H 8H 2D, play 9S, play 5S, play AH, play 4H, "
                 "play 9H, play 3H, play 7H, play JH, play JD, play 2D, play QH, play 5D"),
        depths=(1, 2),
        end=True,
    ),
    Position(
        name="additive-share-discard",
        note="the last discard: keeping only trumps leaves the stock short, shared in turn",
        preset="additive", dealer="W", deck=DECK_ADDITIVE_SHARE,
        actions="pass, pass, pass, bid 6, trump H, keep KH, keep",
        depths=(1, 2),
    ),
    Position(
        name="additive-share-rob",
        note="the rob after the stock was shared out",
        preset="additive", dealer="W", deck=DECK_ADDITIVE_SHARE,
        actions="pass, pass, pass, bid 6, trump H, keep KH, keep, keep",
        depths=(1, 2, 3),
    ),
    Position(
        name="additive-share-play",
        note="the play with hands of unequal size after the share",
        preset="additive", dealer="W", deck=DECK_ADDITIVE_SHARE,
        actions="pass, pass, pass, bid 6, trump H, keep KH, keep, keep, keep TH 7H 5H 3H 2H 6D",
        depths=(1, 2, 3, 4, 5, 6, 7),
    ),
    Position(
        name="additive-share-late",
        note="the last tricks with hands of unequal size, walked to the end",
        preset="additive", dealer="W", deck=DECK_ADDITIVE_SHARE,
        actions=("pass, pass, pass, bid 6, trump H, keep KH, keep, keep, keep TH 7H 5H 3H 2H 6D, play TH, play KH,"
                 " play 8H, play 4H, play KC, play AH, play 8C, play 7H, play QD, play JS, play 6D, play QC"),
        depths=(1, 2),
        end=True,
    ),
    Position(
        name="pagat-bury",
        note="trick 1, maker and dealer above six trumps bury the excess (play C bury ...)",
        preset="pagat", dealer="N", deck=DECK_PAGAT_BURY,
        actions="bid 9, pass, pass, pass, trump H",
        depths=(1, 2, 3, 4),
    ),
    Position(
        name="pagat-keep-six",
        note="the deal above under keep-six: maker and dealer keep six trumps and show the rest",
        preset="pagat", dealer="N", deck=DECK_PAGAT_BURY,
        options={"above_six": "keep-six"},
        actions="bid 9, pass, pass, pass, trump H",
        depths=(1, 2, 3, 4),
    ),
    Position(
        name="pagat-bury-late",
        note="the last three tricks after burying, walked to the end",
        preset="pagat", dealer="N", deck=DECK_PAGAT_BURY,
        actions=("bid 9, pass, pass, pass, trump H, play 8H bury QH, play 2D, play 3S, play TH bury 6H, play 5D, "
                 "play JH, play 4D, play 9C, play KH, play TD, play 5C, play 4H"),
        depths=(1, 2),
        end=True,
    ),
    Position(
        name="official-keep-six",
        note="a defender with seven trumps keeps six and shows the seventh",
        preset="official", dealer="N", deck=DECK_OFFICIAL_THROWN,
        actions="bid 5, pass, pass, pass, trump H",
        depths=(1, 2),
    ),
    Position(
        name="official-thrown-late",
        note="the defender threw the Jack of trumps: it counts for the makers; walked to the end",
        preset="official", dealer="N", deck=DECK_OFFICIAL_THROWN,
        actions=("bid 5, pass, pass, pass, trump H, keep KH QH TH 9H 8H 2H, keep JS KD 6D 4D 2D QC, play 7D, play "
                 "9H, play 4S, play 6D, play TH, play 7H, play JS, play AH, play 8D, play 8H, play 3C, play KD"),
        depths=(1, 2),
        end=True,
    ),
    Position(
        name="official-thrown-dead-late",
        note="the same, the thrown Jack dead (thrown_points=dead)",
        preset="official", dealer="N", deck=DECK_OFFICIAL_THROWN,
        options={"thrown_points": "dead"},
        actions=("bid 5, pass, pass, pass, trump H, keep KH QH TH 9H 8H 2H, keep JS KD 6D 4D 2D QC, play 7D, play "
                 "9H, play 4S, play 6D, play TH, play 7H, play JS, play AH, play 8D, play 8H, play 3C, play KD"),
        depths=(1, 2),
        end=True,
    ),
    Position(
        name="pagat-bury-points",
        note="the rob, then trick 1: E holds eight trumps, all point cards (Sancho and Dom), and buries two",
        preset="pagat", dealer="N", deck=DECK_PAGAT_BURY_POINTS,
        options={"sancho": "true", "dom_pedro": "true"},
        actions="bid 9, pass, pass, pass, trump H",
        depths=(1, 2, 3, 4),
    ),
    Position(
        name="pagat-bury-points-late",
        note="the last three tricks after two point cards were buried, walked to the end",
        preset="pagat", dealer="N", deck=DECK_PAGAT_BURY_POINTS,
        options={"sancho": "true", "dom_pedro": "true"},
        actions=("bid 9, pass, pass, pass, trump H, keep KH 7H 6H 4H 6C 2C, play 9H bury AH 3H, play QH, play 8H, "
                 "play 6H, play TD, play 8C, play 6C, play JH, play 5H, play 4D, play TC, play 4H"),
        depths=(1, 2),
        end=True,
    ),
    Position(
        name="double-pedro-keep-six-restock",
        note="S keeps six of eight trumps; the stock runs out, the new stock is the non-trump discards",
        preset="double-pedro", dealer="N", deck=DECK_DOUBLE_PEDRO_KEEP_SIX_RESTOCK,
        actions="pass, bid 5, pass, pass, trump H",
        depths=(1, 2),
    ),
    Position(
        name="additive-honour-002",
        note="the honour rule (002's rulings) offers the same legal actions: irregularities are extra, never legal",
        preset="additive", dealer="W", deck=DECK_PAGAT,
        options={"honour_rule": "true", "irregularities": "002"},
        actions="pass, pass, bid 8",
        depths=(1, 2, 3),
    ),
    Position(
        name="official-honour-003",
        note="the honour rule (003's rulings) offers the same legal actions: irregularities are extra, never legal",
        preset="official", dealer="N", deck=DECK_OFFICIAL_NODRAW,
        options={"no_draw": "true", "honour_rule": "true", "irregularities": "003"},
        actions="pass, pass, bid 1, pass, trump S, play 6D",
        depths=(1, 2, 3),
    ),
    Position(
        name="pagat-bowers-draw",
        note="all-hands Pedro: trumps named, the Jacks of the colour are trumps and the other five is not",
        preset="pagat", dealer="W", deck=DECK_PAGAT,
        options={"bowers": "true"},
        actions="pass, pass, bid 8, bid 10, trump D",
        depths=(1, 2, 3),
    ),
    Position(
        name="official-bowers-nodraw-play",
        note="all-hands Pedro, no draw: the start of the play, walked to the end",
        preset="official", dealer="N", deck=DECK_OFFICIAL_NODRAW,
        options={"no_draw": "true", "bowers": "true"},
        actions=("pass, pass, bid 1, pass, trump S, play 6D, play KD, play KS, play 2S, play TH, play 5S, play 7S,"
                 " play QH, play 7C, play 5C, play 8S, play KC, play KH, play 7H, play 3H, play 6H, play 4H, play "
                 "9H, play 3S, play 5H"),
        depths=(1, 2, 3),
        end=True,
    ),
    Position(
        name="pagat-two-bidding",
        note="two players, the start of the bidding: the dealer is stuck when the other passes",
        preset="pagat", dealer="2", deck=DECK_TWO,
        options={"players": "2"},
        depths=(1, 2, 3, 4, 5),
    ),
    Position(
        name="pagat-two-late",
        note="two players: no rob, the dealer drew like the other; the last three tricks, walked to the end",
        preset="pagat", dealer="2", deck=DECK_TWO,
        options={"players": "2"},
        actions="pass, bid 7, trump D, play KD, play AD, play 9S, play 3D, play QD, play 2D",
        depths=(1, 2),
        end=True,
    ),
    Position(
        name="official-three-trump",
        note="three players: trumps to name; each then throws his non-trumps and draws, the dealer too",
        preset="official", dealer="3", deck=DECK_THREE,
        options={"players": "3"},
        actions="pass, bid 7, pass",
        depths=(1, 2, 3, 4),
    ),
    Position(
        name="pagat-three-stuck",
        note="three players: both others passed, the dealer is stuck with 7",
        preset="pagat", dealer="3", deck=DECK_THREE,
        options={"players": "3"},
        actions="pass, pass",
        depths=(1, 2, 3, 4),
    ),
    Position(
        name="official-three-late",
        note="three players, the maker alone against two; the last three tricks, walked to the end",
        preset="official", dealer="3", deck=DECK_THREE,
        options={"players": "3"},
        actions=("pass, bid 7, pass, trump H, play AH, play 6H, play 2H, play JH, play 7H, play QH, play KH, "
                 "play TH, play 5D"),
        depths=(1, 2, 3),
        end=True,
    ),
    Position(
        name="additive-five-discard",
        note="five players, six cards each: the first free discard (002 keeps the non-trumps he likes)",
        preset="additive", dealer="5", deck=DECK_FIVE,
        options={"players": "5"},
        actions="pass, pass, bid 6, pass, pass, trump H",
        depths=(1, 2),
    ),
    Position(
        name="additive-five-rob",
        note="five players: the dealer robs, any six of his six and the seven cards left",
        preset="additive", dealer="5", deck=DECK_FIVE,
        options={"players": "5"},
        actions="pass, pass, bid 6, pass, pass, trump H, keep AH 2H, keep KH 5D, keep QH JH 5H, keep TH AC",
        depths=(1, 2),
    ),
    Position(
        name="additive-five-late",
        note="five players: the last three tricks, walked to the end",
        preset="additive", dealer="5", deck=DECK_FIVE,
        options={"players": "5"},
        actions=("pass, pass, bid 6, pass, pass, trump H, keep AH 2H, keep KH 5D, keep QH JH 5H, keep TH AC, "
                 "keep AS 9H 7H 6H 4H 3H, play QH, play TH, play 3H, play AH, play KH, play 8H, play 5D, play JH, "
                 "play 6D, play 9H, play 5H, play 7D, play 7H, play 2H, play 2C"),
        depths=(1, 2),
        end=True,
    ),
    Position(
        name="official-five-nodraw",
        note="five players without the draw: the six cards dealt are played out",
        preset="official", dealer="5", deck=DECK_FIVE,
        options={"players": "5", "no_draw": "true"},
        actions="pass, pass, bid 6, pass, pass, trump H",
        depths=(1, 2, 3, 4, 5),
    ),
    Position(
        name="difference-six-draw",
        note="six players: trumps named, the stock always runs short, the new stock, then the dealer's rob",
        preset="difference", dealer="6", deck=DECK_SIX,
        options={"players": "6"},
        actions="pass, bid 5, pass, pass, pass, pass",
        depths=(1, 2),
    ),
    Position(
        name="difference-six-late",
        note="six players: the last two tricks after a new stock (the discards in card order), walked to the end",
        preset="difference", dealer="6", deck=DECK_SIX,
        options={"players": "6"},
        actions=("pass, bid 5, pass, pass, pass, pass, trump C, keep AH KH AD KD QD 3C, play KC, play JC, play TC, "
                 "play 9C, play 3C, play 2C, play QC, play 5S, play 6C, play 8C, play AD, play AC, play 9S, play 5C, "
                 "play 2S, play 4C, play AS, play AH, play 6S, play 3H, play 2H, play KS, play KH, play 7S"),
        depths=(1, 2),
        end=True,
    ),
    Position(
        name="official-heasly-bidding",
        note="Heasly: six players to 62, the start of the bidding",
        preset="official", dealer="6", deck=DECK_HEASLY,
        options={"heasly": "true"},
        depths=(1, 2, 3),
    ),
    Position(
        name="pagat-heasly-stuck",
        note="Heasly under pagat: five passes leave the dealer stuck with 7",
        preset="pagat", dealer="6", deck=DECK_HEASLY,
        options={"heasly": "true"},
        actions="pass, pass, pass, pass, pass",
        depths=(1, 2, 3),
    ),
    Position(
        name="official-heasly-late",
        note="Heasly: the last two tricks after a new stock (the discards in card order), walked to the end",
        preset="official", dealer="6", deck=DECK_HEASLY,
        options={"heasly": "true"},
        actions=("bid 3, pass, pass, pass, pass, pass, trump D, keep JS TS AH KH KD 9D, play AD, play 7D, play 6D, "
                 "play 4D, play 2D, play 9D, play 8D, play TD, play 5D, play 5H, play 3D, play KD, play AH, play QD, "
                 "play 4H, play 2H, play 2C, play 7S, play JD, play 6H, play 3H, play 3C, play 8S, play KH"),
        depths=(1, 2),
        end=True,
    ),
]

if __name__ == "__main__":
    sys.exit(main())
