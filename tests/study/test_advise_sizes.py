"""The bid advisor at cut-throat tables: the lone maker against all the others, seats by the table's names.

Small fixed numbers of worlds keep the file to a couple of seconds.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cinch import Rules
from cinch.actions import PASS, Bid
from cinch.bots import make_bot
from cinch.cli import main
from cinch.study.advise import AdviceError, advise, parse_score, position
from cinch.table.advice import ADVISED_BY, ask_hint

SPADES = "AS KS QS JS 5S 2H 3D 4C 7C"  # four top spades and the right Pedro: spades, and a bid
THREE = Rules.preset("official").with_options(players=3)
FIVE = Rules.preset("official").with_options(players=5)
TWO = Rules.preset("official").with_options(players=2)


def seat(rules: Rules, name: str):
    return rules.seating.parse_seat(name)


def test_the_position_names_the_seats_of_the_table_and_deals_its_hand_size():
    view = position(THREE, SPADES, seat(THREE, "1"), seat(THREE, "3"))
    assert str(view.seat) == "1" and str(view.dealer) == "3" and view.to_act == view.seat
    assert str(view.hand) == str(position(THREE, SPADES, seat(THREE, "1"), seat(THREE, "3")).hand)
    assert view.hand_sizes == (9, 9, 9) and PASS in view.legal
    after = position(FIVE, "AS KS QS JS 5S 2H", seat(FIVE, "2"), seat(FIVE, "5"), ["pass"])
    assert [(str(s), str(a)) for s, a in after.auction] == [("1", "pass")] and after.hand_sizes == (6,) * 5
    with pytest.raises(AdviceError, match="a hand is the 6 cards dealt; 'AS KS QS JS 5S 2H 3D 4C 7C' has 9"):
        position(FIVE, SPADES, seat(FIVE, "2"), seat(FIVE, "5"), ["pass"])
    with pytest.raises(AdviceError, match="the calls before 2's first turn to bid are those of 1"):
        position(THREE, SPADES, seat(THREE, "2"), seat(THREE, "3"))


def test_a_cut_throat_score_has_one_number_per_player():
    table = THREE.seating
    assert parse_score("12,-7,0", table) == (12, -7, 0) and parse_score("12--7-0", table) == (12, -7, 0)
    with pytest.raises(AdviceError, match="write one number per player, 1 first, as 12,-7,0"):
        parse_score("12-7", table)
    assert parse_score("20-30", TWO.seating) == (20, 30)
    with pytest.raises(AdviceError, match=r"one number per player \(3\); 2 were given"):
        position(THREE, SPADES, seat(THREE, "1"), seat(THREE, "3"), score=(1, 2))


def test_the_lone_maker_s_figures_are_his_change_less_the_others_average():
    view = position(THREE, SPADES, seat(THREE, "1"), seat(THREE, "3"))
    advice = advise(view, worlds=4, seed=1)
    assert advice.unit == "points" and advice.suits[0].suit.name == "SPADES"
    best = advice.best_advice
    assert isinstance(advice.best, Bid) and best.trump is not None and best.trump.name == "SPADES"
    assert f"bidding {advice.best.amount} (spades as trumps)" in advice.words()
    assert "you should come out about" in advice.words() and "your side" not in advice.words()
    assert advice.brief().startswith("as the maker you take ♠ ")
    # One world: every figure is exact. Made, the maker adds his points; set, he loses his bid; each of
    # the two others adds what he took, so the others' average is half of what they took together.
    one = advise(view, worlds=1, seed=1)
    for suit in one.suits:
        mine, theirs = suit.points.mean, suit.against.mean
        for level in suit.levels:
            change = mine if mine >= level.bid else -level.bid
            assert level.make.mean == float(mine >= level.bid)
            assert level.change.mean == pytest.approx(change - theirs / 2)


def test_with_a_score_three_players_get_points_and_two_players_the_chance_to_win():
    three = advise(position(THREE, SPADES, seat(THREE, "1"), seat(THREE, "3"), score=(40, 10, 0)), worlds=2)
    assert three.unit == "points" and all(c.win is None for c in three.calls)
    assert three.note is not None and "no chance to win the match: at 3 players" in three.note
    two = advise(position(TWO, SPADES, seat(TWO, "2"), seat(TWO, "1"), score=(20, 30)), worlds=2)
    assert two.unit == "%" and all(c.win is not None for c in two.calls) and two.note is None
    assert "your chance to win the match is about" in two.words()


def test_the_hint_at_a_turn_to_bid_uses_the_advisor_at_three_players():
    view = position(THREE, SPADES, seat(THREE, "1"), seat(THREE, "3"))
    hint = ask_hint(ADVISED_BY, make_bot("expert", seed=0, time_budget=0.05), view)
    assert hint.action in view.legal and isinstance(hint.action, Bid)
    assert hint.table and hint.table[0].startswith("♠ trumps: ")  # the advisor's line per suit
    assert "you should come out" in hint.estimate


def test_cinch_advise_at_three_players_names_the_seats_and_says_why_there_is_no_win_chance():
    args = ["advise", *SPADES.split(), "--rules", "official", "-o", "players=3", "--seat", "1", "--dealer", "3",
            "--worlds", "2", "--score", "12,-7,0"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.startswith("Hand of 1: ") and "3 players each for himself, dealer 3" in out
    assert "score 1: 12, 2: -7, 3: 0 (to 51)" in out and "no chance to win the match" in out
    assert "Points you take as the maker: " in out and "yours less the others' average" in out
    data = json.loads(CliRunner().invoke(main, [*args, "--json"]).output)
    assert data["seat"] == "1" and data["dealer"] == "3" and data["score"] == {"1": 12, "2": -7, "3": 0}
    assert data["unit"] == "points" and data["note"].startswith("no chance to win the match")
    bad = CliRunner().invoke(main, [*args[:14], "--seat", "4", "--dealer", "3"])
    assert bad.exit_code == 2 and "'4' is not a seat at this table; the seats are 1 2 3" in bad.output
