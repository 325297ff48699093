"""The engine side of the table, without a screen: points so far, legality, undo, hints, saving."""

from __future__ import annotations

import random

import pytest
from tablekit import TRUMP_LEAD, dealt_game

from cinch import CardSet, Rules, Seat
from cinch.actions import Bid, Keep, Pass
from cinch.bots import make_bot
from cinch.bots.base import Bot
from cinch.match import Match
from cinch.tui.game import (
    TableGame,
    TableSetup,
    ask_hint,
    available_bots,
    hand_order,
    keep_words,
    points_so_far,
)
from cinch.tui.storage import Saver
from cinch.view import Phase


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


def test_no_points_before_trumps_and_none_counted_from_an_unfinished_trick():
    game = dealt_game("pagat", TRUMP_LEAD, Seat.N)
    view = game.view()
    assert points_so_far(view) is None
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


def test_why_illegal_names_the_rule_and_leaves_the_deal_alone():
    game = dealt_game("pagat", TRUMP_LEAD, Seat.N)
    assert game.why_illegal(Pass()) == "it is E's turn, not S's"
    game.apply(Bid(7), Seat.E)
    assert game.why_illegal(Bid(3)) == "bids run from 7 to 14 under pagat"
    assert game.why_illegal(Bid(7)) == "each bid must beat the one before (E bid 7)"
    assert game.why_illegal(Pass()) is None
    assert len(game.deal.history) == 1 and game.deal.to_act == Seat.S


def test_undo_replays_the_record_and_the_same_decks_follow():
    rules = Rules.preset("difference").with_options(target=200)
    game = TableGame(TableSetup.uniform(rules, seed=17))
    plain = TableGame(TableSetup.uniform(rules, seed=17))
    for g in (game, plain):
        g.start_deal()
    rng = random.Random(3)

    def step(g: TableGame, choice: int) -> None:
        deal = g.deal
        seat = deal.to_act
        if seat is None:
            g.resolve_chance()
            return
        view = g.match.view(seat)
        action = view.legal[choice % len(view.legal)] if seat == g.seat else g.bots[seat].choose(view)
        g.apply(action, seat)

    choices = [rng.randrange(100) for _ in range(400)]
    i = 0
    while game.deal.phase is not Phase.PLAY:
        step(game, choices[i])
        step(plain, choices[i])
        i += 1
    history = list(game.deal.history)
    target = game.undo_target()
    assert target is not None and game.deal.actors[target] == Seat.S
    assert game.undo()
    assert game.deal.history == history[:target]
    assert game.deal.deck == plain.deal.deck
    # The rebuilt match deals the next deck the first one would have dealt.
    for g in (game, plain):
        while not g.deal.is_over:
            deal = g.deal
            seat = deal.to_act
            if seat is None:
                g.resolve_chance()
                continue
            g.apply(g.match.view(seat).legal[0], seat)
        g.start_deal()
    assert game.deal.deck == plain.deal.deck


def test_nothing_to_undo_before_your_first_decision():
    game = TableGame(TableSetup.uniform(Rules.preset("pagat"), seed=5))
    game.start_deal()
    assert game.undo_target() is None and not game.undo()


class Explaining(Bot):
    name = "explaining"

    def choose(self, view):
        return view.legal[-1]

    def explain(self, view):
        return view.legal[0], 0.25


class Talking(Bot):
    name = "talking"

    def choose(self, view):
        return view.legal[0]

    def explain(self, view):
        return "expects 6.5 points"


def test_a_hint_shows_an_estimate_when_the_bot_offers_one():
    game = TableGame(TableSetup.uniform(Rules.preset("pagat"), seed=2))
    game.start_deal()
    while game.deal.to_act != game.seat:
        seat = game.deal.to_act
        game.apply(game.bots[seat].choose(game.match.view(seat)), seat)
    view = game.view()
    hint = ask_hint("explaining", Explaining(), view)
    assert hint.action == view.legal[0] and hint.estimate in ("+0.2", "+0.3")
    hint = ask_hint("talking", Talking(), view)
    assert hint.action == view.legal[0] and hint.estimate == "expects 6.5 points"
    hint = ask_hint("basic", make_bot("basic", seed=0), view)
    assert hint.action in view.legal and hint.estimate == ""


def test_the_new_match_screen_offers_the_installed_bots():
    from cinch.bots import bot_names

    names = available_bots()
    assert names[:2] == ["random", "basic"] and set(names) <= set(bot_names())


def test_keep_words_and_hand_order_put_trumps_first():
    from cinch.cards import TRUMP_TABLES, Suit
    from cinch.keep import KeepOptions

    t = TRUMP_TABLES[Suit.HEARTS]
    hand = CardSet.parse("AS 5D 2H KH 3C")
    assert [str(c) for c in hand_order(hand, Suit.HEARTS)] == ["KH", "5D", "2H", "AS", "3C"]
    opts = KeepOptions(int(hand), int(hand) & t.trumps, t.trumps, 3, 6)
    assert keep_words(opts, Suit.HEARTS) == "keep 3 to 6 of K♥* 5♦* 2♥* A♠ 3♣, including K♥* 5♦* 2♥*"
    assert Keep(CardSet.parse("KH 5D 2H")) in opts


class Broken:
    def new_match(self, *a, **k):
        raise OSError("disk full")

    def save(self, *a, **k):
        raise OSError("disk full")

    def unfinished(self):
        raise OSError("locked")


def test_a_library_that_fails_never_stops_the_match(tmp_path):
    saver = Saver(Broken(), save_path=str(tmp_path / "m.json"))
    match = Match(Rules.preset("pagat"), rng=1)
    saver.start(match, human_seat=Seat.S, seed=1, players={s: "basic" for s in Seat})
    assert "could not store the new match (disk full)" in saver.problem
    assert saver.unfinished() == [] and "locked" in saver.problem
    saver.save(match)
    assert (tmp_path / "m.json").exists()
