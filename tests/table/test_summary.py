"""What a seat can count during a deal, and the par at its end (cinch.table.summary)."""

from __future__ import annotations

import pytest

from cinch import Rules, Seat
from cinch.actions import Pass
from cinch.bots import make_bot
from cinch.match import Match
from cinch.table.summary import describe_par, par_of, play_start, points_so_far
from cinch.view import Phase
from helpers import TRUMP_LEAD, dealt_table


def play_deal(match: Match, seed: int) -> None:
    bots = {s: make_bot("random", seed=seed + s) for s in Seat}
    deal = match.current or match.start_deal()
    while not deal.is_over:
        if deal.to_act is None:
            match.resolve_chance()
            continue
        match.apply(bots[deal.to_act].choose(match.view(deal.to_act)), deal.to_act)


@pytest.mark.parametrize("preset", ["pagat", "difference", "additive", "official", "double-pedro"])
def test_points_so_far_are_the_sure_part_of_the_final_awards(preset):
    for seed in range(12):
        match = Match(Rules.preset(preset), rng=seed)
        play_deal(match, seed)
        result = match.deals[-1].result
        if result.thrown_in:
            continue
        for seat in Seat:
            pts = points_so_far(match.view(seat))
            final = {(a.name, a.card, a.team) for a in result.awards}
            for team in (0, 1):
                for name, card, _ in pts.awards[team]:
                    assert (name, card, team) in final
            relative = [a for a in result.awards if a.name in ("High", "Low") and
                        (a.name == "High" and preset in ("official", "double-pedro") or
                         a.name == "Low" and preset in ("additive", "official", "double-pedro"))]
            if not relative and preset != "official":
                assert (pts.total(0), pts.total(1)) == result.points
            assert bool(pts.pending) == (preset in ("additive", "official", "double-pedro"))


@pytest.mark.parametrize("preset", ["pagat", "difference"])
def test_points_so_far_count_every_copy_with_two_decks(preset):
    """High and Low are fixed cards here, so at the end the sure points are all the points: both 2s of
    trumps under "Low to the holder" (pagat) among them."""
    held_twins = 0
    for seed in range(8):
        match = Match(Rules.preset(preset).with_options(decks=2), rng=seed)
        play_deal(match, seed)
        result = match.deals[-1].result
        if result.thrown_in:
            continue
        pts = points_so_far(match.view(Seat.S))
        assert pts is not None and (pts.total(0), pts.total(1)) == result.points
        assert sorted((n, int(c), t) for t in (0, 1) for n, c, _ in pts.awards[t]) == sorted(
            (a.name, int(a.card), a.team) for a in result.awards)
        held_twins += sum(1 for a in result.awards if a.how == "held" and a.card >= 52)
    assert held_twins or preset != "pagat"  # the second pack's 2, held, was counted at least once


def test_no_points_before_trumps_and_none_counted_from_an_unfinished_trick():
    game = dealt_table("pagat", TRUMP_LEAD, Seat.N)
    assert points_so_far(game.view()) is None
    m = game.match
    bots = {s: make_bot("basic", seed=s) for s in Seat}
    while not (m.current.phase is Phase.PLAY and m.current.trick):
        seat = m.current.to_act
        if seat is None:
            m.resolve_chance()
            continue
        m.apply(Pass() if seat == Seat.S and m.current.phase is Phase.BIDDING else bots[seat].choose(m.view(seat)),
                seat)
    pts = points_so_far(game.view())
    assert pts.awards == ([], [])  # the ace of hearts is on the table, not yet captured


def test_the_par_is_taken_from_the_first_lead_and_told_beside_what_the_table_took():
    match = Match(Rules.preset("official"), rng=4)
    play_deal(match, 4)
    deal = match.deals[-1]
    start = play_start(deal)
    assert start is not None and start.phase is Phase.PLAY and not start.tricks
    assert start.hands == [int(h) for h in (start.hand(s) for s in Seat)]
    par = par_of(start)
    assert par is not None and sum(par.points) <= 14
    text = describe_par(par, match.summaries[-1], Seat.S)
    assert text.startswith(f"Par with every card open, from the first lead: NS {par.points[0]}, EW {par.points[1]}")
    assert "par" in text.split(".")[-2]
