"""Who sits at the table (cinch.seating): seats, sides and the numbers of a deal at 2 to 6 players.

Four play the partnership game of every rule text (seats N E S W, sides NS and EW); two,
three, five and six play cut-throat, each for himself (002's "individual variants", read in
docs/rule-readings.md, "Cut-throat"): seats 1 to n clockwise, each player his own side.
"""

import pickle

import pytest

from cinch import Seat, Team
from cinch.errors import NotationError
from cinch.seating import FOUR, seating

CUT_THROAT = (2, 3, 5, 6)


def test_four_players_sit_in_the_partnerships_of_every_text():
    four = seating(4)
    assert four is FOUR and four.partnership
    assert four.seats == (Seat.N, Seat.E, Seat.S, Seat.W)
    assert four.side_list == (Team.NS, Team.EW) and four.sides == 2
    assert [str(four.side(s)) for s in four.seats] == ["NS", "EW", "NS", "EW"]
    assert four.defenders(Seat.E) == (Seat.N, Seat.S)


@pytest.mark.parametrize("n", CUT_THROAT)
def test_a_cut_throat_table_numbers_its_seats_and_each_player_is_his_own_side(n):
    table = seating(n)
    assert not table.partnership and table.players == n
    assert [str(s) for s in table.seats] == [str(i) for i in range(1, n + 1)]
    assert table.names == table.side_names == tuple(str(i) for i in range(1, n + 1))
    assert table.sides == n and table.side_of == tuple(range(n))
    for seat in table.seats:
        assert seat.team is seat and seat.partner is seat and table.side(seat) is seat
        assert table.defenders(seat) == tuple(s for s in table.seats if s is not seat)  # the maker plays alone


@pytest.mark.parametrize("n", (2, 3, 4, 5, 6))
def test_the_seats_go_round_clockwise_and_every_deal_begins_on_the_dealers_left(n):
    table = seating(n)
    seats = table.seats
    assert [seats[i].left for i in range(n)] == [seats[(i + 1) % n] for i in range(n)]
    assert table.left == tuple((i + 1) % n for i in range(n))
    last = seats[n - 1]
    assert table.turns(last) == seats  # the dealer bids, discards and draws last
    assert table.turns(seats[0])[0] == seats[1] and table.turns(seats[0])[-1] == seats[0]


@pytest.mark.parametrize(("n", "dealt", "stock", "robs"), [
    (2, 9, 34, False),  # two or three: nine each; the dealer draws like the others (Foster 1897)
    (3, 9, 25, False),
    (4, 9, 16, True),
    (5, 6, 22, True),  # five or six: six cards each (Foster 1897, "Five or Six Players")
    (6, 6, 16, True),
])
def test_how_many_cards_each_is_dealt_what_is_left_in_the_stock_and_who_robs(n, dealt, stock, robs):
    table = seating(n)
    assert (table.dealt, table.stock, table.dealer_robs) == (dealt, stock, robs)
    assert table.players * table.dealt + table.stock == 52
    assert table.batches * 3 == table.players * table.dealt  # dealt three at a time


def test_only_two_players_have_one_other_side():
    one, two = seating(2).seats
    assert one.other is two and two.other is one
    with pytest.raises(ValueError, match="3 players each play for himself"):
        _ = seating(3).seats[0].other


def test_seats_and_sides_are_read_by_their_names_at_each_table():
    three = seating(3)
    assert three.parse_seat(" 2 ") is three.seats[1]
    assert three.parse_side("3") is three.seats[2]
    assert FOUR.parse_seat("west") is Seat.W and FOUR.parse_side("ew") is Team.EW


@pytest.mark.parametrize(("n", "text", "message"), [
    (3, "N", "'N' is not a seat at this table; the seats are 1 2 3"),
    (3, "4", "'4' is not a seat at this table; the seats are 1 2 3"),
    (4, "1", "'1' is not a seat at this table; the seats are N E S W"),
    (6, "0", "'0' is not a seat at this table; the seats are 1 2 3 4 5 6"),
])
def test_a_seat_that_is_not_at_the_table_is_refused_naming_the_seats_there(n, text, message):
    with pytest.raises(NotationError) as info:
        seating(n).parse_seat(text)
    assert str(info.value) == message


def test_a_side_that_is_not_at_the_table_is_refused():
    with pytest.raises(NotationError, match="'NS' is not a side at this table; the sides are 1 2 3 4 5"):
        seating(5).parse_side("NS")


@pytest.mark.parametrize("n", (0, 1, 7, 8))
def test_cinch_is_played_by_two_to_six(n):
    with pytest.raises(ValueError, match=f"{n} players: Cinch is played by 2 to 6"):
        seating(n)


def test_scores_are_written_by_side_or_by_player():
    assert FOUR.score_text((13, 1)) == "NS 13, EW 1"
    assert FOUR.side_json((13, 1)) == {"NS": 13, "EW": 1}
    assert seating(3).score_text((4, -7, 5)) == "1: 4, 2: -7, 3: 5"
    assert seating(3).side_json((4, -7, 5)) == {"1": 4, "2": -7, "3": 5}
    with pytest.raises(ValueError):
        seating(3).side_json((1, 2))  # a number for every player, no fewer


@pytest.mark.parametrize("n", CUT_THROAT)
def test_a_cut_throat_seat_pickles_to_itself_for_worker_processes(n):
    seat = seating(n).seats[-1]
    again = pickle.loads(pickle.dumps(seat))
    assert again is seat and str(again) == str(n) and again.left is seating(n).seats[0]
