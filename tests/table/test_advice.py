"""Suggestions, burials and hints at the table (cinch.table.advice)."""

from __future__ import annotations

from cinch import Card, CardSet, Rules, Seat, Suit
from cinch.actions import Play
from cinch.bots import make_bot
from cinch.bots.base import Bot
from cinch.table import Table
from cinch.table.advice import ask_hint, available_bots, cheapest_bury


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
    game = Table.new(Rules.preset("pagat"), people={Seat.S: "you"}, seed=2)
    game.play_bots()
    view = game.view()
    assert view.to_act == Seat.S
    hint = ask_hint("explaining", Explaining(), view)
    assert hint.action == view.legal[0] and hint.estimate in ("+0.2", "+0.3")
    hint = ask_hint("talking", Talking(), view)
    assert hint.action == view.legal[0] and hint.estimate == "expects 6.5 points"
    hint = ask_hint("basic", make_bot("basic", seed=0), view)
    assert hint.action in view.legal and hint.estimate == ""


def test_the_table_names_the_bot_that_gives_its_hints():
    game = Table.new(Rules.preset("pagat"), people={Seat.S: "you"}, seed=2, hints="heuristic")
    game.play_bots()
    hint = game.hint(Seat.S)
    assert hint.bot == "heuristic" and hint.action in game.view().legal


def test_the_new_match_screen_offers_the_installed_bots():
    from cinch.bots import bot_names

    names = available_bots()
    assert names[:2] == ["random", "basic"] and set(names) <= set(bot_names())


def test_the_cheapest_burial_buries_plain_cards_before_trumps_and_low_before_high():
    ace = Card.parse("AH")
    plays = [Play(ace, CardSet.parse(bury)) for bury in ("KH 2C", "3C 2C", "AC 2C")]
    best = cheapest_bury(plays, Suit.HEARTS)
    assert list(best) == [ace] and str(best[ace].bury) == "3C 2C"
    preferred = plays[2]
    assert cheapest_bury(plays, Suit.HEARTS, prefer=preferred)[preferred.card] == preferred
