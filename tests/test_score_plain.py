"""`cinch score --plain` (cinch.score_plain): the scorekeeper's dialogue at a line prompt, whole matches
typed in as a transcript."""

from __future__ import annotations

import io

from click.testing import CliRunner

from cinch import Rules, Seat, Team
from cinch.cli import main
from cinch.library import FINISHED, Library
from cinch.record import loads, replay, sheet_text
from cinch.score_plain import run_plain
from cinch.scorekeeper import ScoreSheet
from cinch.table.score_dialogue import ScoreDialogue


def test_the_dialogue_goes_back_a_question_and_explains_each_one():
    out = io.StringIO()
    talk = ScoreDialogue(ScoreSheet(Rules.preset("difference"), first_dealer=Seat.N))
    assert run_plain(talk, io.StringIO("help\np 3 p p\nback\n4 p p p\nback\nback\nhelp\n"), out) == "eof"
    text = out.getvalue()
    assert "'p 7 p 8'; or only the maker and the bid: 'N 8';" in text
    assert "S bid 3 for NS. Trumps?" in text and "E bid 4 for EW. Trumps?" in text
    assert "Nothing to go back to in this deal; undo takes back the last deal entered." in text
    assert talk.draft.maker is None and talk.draft.trump is None


MATCH_INPUT = """\
N
E 20
S 14
h
NS 9 EW 9
NS high high
NS all
p p p p
S 8
s
NS high low jack game EW pedros
undo
S 8
s
NS high low jack game rp EW lp
N 14
c
14 0
N 14
d
14 0
N 5
h
NS 9 EW 5
E 7
s
NS 8 EW 6
S 7
sheet
quit
"""


def test_a_whole_match_at_the_plain_prompt_with_refusals_and_an_undo(tmp_path):
    db = str(tmp_path / "games.sqlite3")
    result = CliRunner().invoke(main, ["score", "--plain", "--rules", "official", "--db", db, "--player", "N=Ann",
                                       "--player", "S=Cy"], input=MATCH_INPUT)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "A bid of 20 is out of range: bids run from 1 to 14 under official." in out
    assert "NS 9 and EW 9 make 18, but the point cards hold only 14 under official" in out
    assert "High is given twice (to NS and to NS): a point card scores for one side only." in out
    assert "All passed: the deal is thrown in, no score. S deals next." in out
    assert ("Difference scoring: the defenders score the deal's 14 points plus the 4 the makers fell short: "
            "EW +18.") in out
    assert "Took back deal 3: S dealt: S bid 8 in spades; took NS 4, EW 10; NS bid 8, took 4: set; EW add 18." in out
    assert "Difference scoring: the side that took more scores the difference, 9 - 5: NS +4." in out
    assert "NS reach 51, the target: NS win the match, 65 to 0." in out
    assert "*** NS (Ann & Cy) win the match, 65 to 0 (NS 65, EW 0). ***" in out
    assert "The match is over: NS won, 65 to 0. Type undo to take back the last deal, or quit." in out
    assert "Score: NS (Ann & Cy) 65, EW 0. NS won the match." in out

    with Library.open(db, readonly=True) as lib:
        (stored,) = lib.list()
        assert (stored.status, stored.winner, stored.score, stored.deals) == (FINISHED, Team.NS, (65, 0), 7)
        assert lib.sheet(stored.id).deals[2].points == (9, 5)
    shown = CliRunner().invoke(main, ["replay", "--db", db, str(stored.id)])
    assert shown.exit_code == 0
    assert shown.output.splitlines()[-1] == "Winner: NS (65 to 0)"
    assert "  7. S dealt: E bid 7 in spades; took NS 8, EW 6; EW bid 7, took 6: set; NS add 15.  Score NS 65, EW 0" \
        in shown.output


THREE_PLAYER_INPUT = """\
2
1 bid 6
h
1 high jack game 2 low rp 3 lp
undo
1 bid 6
h
1 high jack game rp 2 low 3 lp
4 bid 7
3 7
3 bid 20
3 bid 7
s
5 5 5
revoke 1
3:9 1:5
p 8 p
d
14 0 0
"""


def test_a_whole_three_player_match_at_the_plain_prompt(tmp_path):
    db = str(tmp_path / "games.sqlite3")
    result = CliRunner().invoke(main, ["score", "--plain", "--rules", "additive", "-o", "players=3", "-o",
                                       "target=21", "--db", db, "--player", "1=Ann", "--player", "3=Cy"],
                                input=THREE_PLAYER_INPUT)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "3 players, each for himself, in seats 1, 2 and 3 clockwise; the maker plays alone against all the " \
           "others." in out
    assert "Who deals the first deal? 1, 2 or 3 (Enter: 1)." in out
    assert "Took back deal 1: 2 dealt: 1 bid 6 in hearts; points 1: 3, 2: 6, 3: 5; 1 bid 6, took 3: set;" in out
    assert "1 bid 6 in hearts: 1 took 8, 2 1, 3 5: made." in out
    assert "'4' is not a seat at this table; the seats are 1 2 3." in out
    assert "3 is still to call" in out and "for a maker and his bid write '3 bid 7'." in out  # not two calls
    assert "A bid of 20 is out of range: bids run from 1 to 14 under additive+." in out
    assert "1: 5, 2: 5 and 3: 5 make 15, but the point cards hold only 14 under additive+" in out
    assert "Misdeals, revokes and incorrect hands are ruled on only at four players in partnerships" in out
    assert "Players: 1 (Ann), 2, 3 (Cy)." in out
    assert "3 bid 7 in spades: 3 took 9, 1 5, 2 0: made." in out  # by seat: 2, left out, took nothing
    assert ("Cut-throat scoring: every player adds the points he took, but a maker short of his bid loses it: "
            "3 -8, 1 +14, 2 +0.") in out  # the maker set
    assert "1 reaches 21, the target: 1 wins the match with 27 (1: 27, 2: 1, 3: 6)." in out
    assert "*** 1 (Ann) wins the match with 27 (1: 27, 2: 1, 3: 6). ***" in out

    with Library.open(db, readonly=True) as lib:
        (stored,) = lib.list()
        assert (stored.status, stored.score, stored.deals) == (FINISHED, (27, 1, 6), 3)
        assert stored.winner is Rules.preset("additive").with_options(players=3).seating.seats[0]
    shown = CliRunner().invoke(main, ["replay", "--db", db, str(stored.id)])
    assert shown.exit_code == 0 and shown.output.splitlines()[-1] == "Winner: 1 (1: 27, 2: 1, 3: 6)"


TWO_DECK_INPUT = """\
W
N 16
h
NS 20 EW 9
NS high high jack jack jack, EW rest
NS high high low jack jack game pedros pedros, EW rest
undo
N 16
h
NS high high low jack jack game pedros, EW rest
E 10
s
EW pedros pedros, NS rest
sheet
quit
"""


def test_a_two_deck_match_at_the_plain_prompt_with_refusals_and_an_undo(tmp_path):
    db = str(tmp_path / "games.sqlite3")
    result = CliRunner().invoke(main, ["score", "--plain", "--rules", "official", "-o", "decks=2", "--db", db],
                                input=TWO_DECK_INPUT)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "first side to 102 wins" in out and "for every copy (two packs): 28 in all" in out
    assert "NS 20 and EW 9 make 29, but the point cards hold only 28 under official+" in out
    assert "Jack is given three times (to NS, NS and NS): two packs hold two" in out
    assert "N bid 16 in hearts: NS took 26, EW 2: made." in out
    assert "Took back deal 1: W dealt: N bid 16 in hearts; took NS 26, EW 2" in out
    assert "N bid 16 in hearts: NS took 16, EW 12: made." in out  # one pair of Pedros to EW this time
    assert "E bid 10 in spades: EW took 20, NS 8: made." in out
    assert "Score: NS 4, EW 12. E deals next." in out

    with Library.open(db, readonly=True) as lib:
        (stored,) = lib.list()
        again = lib.sheet(stored.id)
    assert again.rules.decks == 2 and again.score == (4, 12)
    took = again.deals[0].entry.to_json()["took"]
    assert took["High"] == ["NS", "NS"] and took["Right Pedro"] == ["NS", "EW"]
    record = loads(sheet_text(again))
    assert record["rules"]["decks"] == 2 and replay(record).sheet.score == (4, 12)
