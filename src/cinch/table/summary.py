"""What a seat can count during a deal, and the end of a deal: the sure points so far and the par.

>>> from cinch import Rules, Seat
>>> from cinch.match import Match
>>> m = Match(Rules.preset("pagat"), rng=1); _ = m.start_deal()
>>> points_so_far(m.view(Seat.S)) is None  # nothing counts before trumps are named
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cinch.cards import Card, Seat, Team, mask_of
from cinch.deal import Deal
from cinch.match import DealSummary
from cinch.scoring import PointTable
from cinch.view import Phase, SeatView


@dataclass
class PointsSoFar:
    """The points each side has surely taken so far in a deal, card by card, from one seat's view
    (sides NS and EW at four; cut-throat each player is a side)."""

    awards: tuple[list[tuple[str, Card, int]], ...] = field(default_factory=lambda: ([], []))
    pending: list[str] = field(default_factory=list)  # what is decided only at the end, in words

    def total(self, team: Team) -> int:
        return sum(p for _, _, p in self.awards[team])


def points_so_far(view: SeatView) -> PointsSoFar | None:
    """Point cards already won by each side in this deal (None before trumps are named).

    Only certain points count: a point card known by its identity once the trick that
    holds it is finished (the 2 under "Low to the holder" as soon as it is played, and a
    defender's thrown point card under the official rule); High and Low that are "the
    highest/lowest trump in play" are known only at the end of the deal.
    """
    if view.trump is None or view.maker is None:
        return None
    table = PointTable.of(view.rules, view.trump)
    seating = view.rules.seating
    makers = seating.side_of[view.maker]
    claims = []
    for trick in view.tricks:  # trick by trick, in the order they were taken
        taken = [0] * seating.sides
        taken[seating.side_of[trick.winner]] = int(trick.cards)
        in_play = mask_of(p.card for p in trick.plays)
        claims += table.claims(taken, in_play, None, 0, makers, relative=False)
    plays = [p for t in view.tricks for p in t.plays] + list(view.current_trick)
    holder = next((seating.side_of[p.seat] for p in plays if p.card == table.two), None)  # who played the 2 held it
    # Two decks: the second pack's 2 scores for its own holder.
    twin_holder = next((seating.side_of[p.seat] for p in plays if p.card == table.twin_two), None) \
        if table.twins else None
    thrown = 0
    for s in seating.defenders(view.maker):
        thrown |= int(view.shown_trumps[s])
    claims += table.claims([0] * seating.sides, 0, holder, thrown, makers, relative=False, low_twin=twin_holder)
    out = PointsSoFar(tuple([] for _ in range(seating.sides)))
    for name, card, side, points, _ in claims:
        out.awards[side].append((name, Card(card), points))
    if table.relative_high:
        out.pending.append("High (the highest trump in play)")
    if table.relative_low:
        out.pending.append("Low (the lowest trump in play)")
    return out


def play_start(deal: Deal) -> Deal | None:
    """A copy of ``deal`` as its play began (its first lead), rebuilt from its own record."""
    if deal.trump is None:
        return None
    start = Deal(deal.rules, deal.dealer, deal.deck, restock=deal.restock)
    for action in deal.history:
        if start.phase is Phase.PLAY:
            break
        start.apply(action)
    return start if start.phase is Phase.PLAY else None


@dataclass
class Par:
    """Best play with every card open from the first lead: the points and the settlement."""

    points: tuple[int, ...]
    made: bool | None
    score_change: tuple[int, ...] | None


def par_of(start: Deal | None) -> Par | None:
    """The par of a deal from its first lead (None without a play, or if the solver fails)."""
    if start is None:
        return None
    from cinch.solver import Position, solve  # the solver is big: loaded when a par is asked for

    try:
        result = solve(Position.from_deal(start), card_values=False)
    except Exception:
        return None
    return Par(tuple(result.points), result.made, result.score_change)


def describe_par(par: Par, summary: DealSummary, me: Seat) -> str:
    """The par in words, next to what the table took."""
    r = summary.result
    text = f"Par with every card open, from the first lead: {r.seating.score_text(par.points)}"
    if r.maker is not None and par.made is not None:
        text += f" (the bid {'is made' if par.made else 'is set'})"
    if r.points is not None:
        mine = me.team
        diff = r.points[mine] - par.points[mine]
        if diff == 0:
            text += f". {mine} (you) took par."
        else:
            text += f". {mine} (you) took {r.points[mine]}: {abs(diff)} {'above' if diff > 0 else 'below'} par."
    return text
