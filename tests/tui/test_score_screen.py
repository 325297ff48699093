"""`cinch score`'s Textual screen: a deal typed in, the sheet and score drawn, undo, the winner, on a phone's width."""

from __future__ import annotations

from tablekit import screen_text, table_test
from textual.widgets import Input

from cinch import Rules, Seat
from cinch.scorekeeper import ScoreSheet
from cinch.table.score_dialogue import ScoreDialogue, SheetSaver
from cinch.tui.score import ScoreApp

PHONE = (40, 24)  # a phone's terminal held upright


async def type_in(pilot, *answers: str) -> None:
    for text in answers:
        pilot.app.query_one(Input).value = text
        await pilot.press("enter")
    await pilot.pause()


@table_test
async def test_the_score_screen_fits_a_phone_and_keeps_the_sheet(tmp_path):
    sheet = ScoreSheet(Rules.preset("official"), players={Seat.N: "Ann", Seat.S: "Cy"}, first_dealer=Seat.W)
    saver = SheetSaver(None, tmp_path / "match.json")
    app = ScoreApp(ScoreDialogue(sheet, on_change=saver.save))
    async with app.run_test(size=PHONE) as pilot:
        await pilot.pause()
        assert "Deal 1, W deals. The bidding from N" in screen_text(app)
        await type_in(pilot, "p 6 p p", "s", "6 8")  # 003's worked deal: the defenders score 2
        text = screen_text(app)
        assert "NS (Ann & Cy) 0  ·  EW 2" in text
        assert "1   W: E 6♠ made" in text and "2 (+2)" in text
        assert "Deal 2, N deals." in text
        await pilot.press("f2")  # undo
        await pilot.pause()
        assert sheet.deals == () and "No deal entered yet." in screen_text(app)
        for _ in range(4):
            await type_in(pilot, "N 14", "h", "14 0")
        text = screen_text(app)
        assert sheet.score == (56, 0) and "NS (Ann & Cy) win the match!" in text
        assert "The match is over" in text
        assert max(len(line) for line in text.splitlines()) <= PHONE[0]
        assert (tmp_path / "match.json").exists()
        await type_in(pilot, "quit")
    assert app.return_code == 0


@table_test
async def test_an_incorrect_hand_is_noted_on_the_score_screen_and_its_ruling_shown():
    sheet = ScoreSheet(Rules.preset("official"), first_dealer=Seat.W)
    app = ScoreApp(ScoreDialogue(sheet))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await type_in(pilot, "p 6 p p", "s", "incorrect N +1")
        assert "Noted: N held 1 card too many (003): an opponent drew the excess face down" in \
            " ".join(screen_text(app).split())
        await type_in(pilot, "6 8")
        text = " ".join(screen_text(app).split())
        assert "W: E 6♠ made (incorrect hand)" in text
        assert sheet.score == (0, 2) and sheet.deals[0].entry.incorrect_hands[0].text == "003"


@table_test
async def test_a_six_player_deal_on_the_score_screen_has_a_column_for_each_player():
    rules = Rules.preset("official").with_options(players=6)
    table = rules.seating
    sheet = ScoreSheet(rules, players={table.seats[1]: "Bo"})
    app = ScoreApp(ScoreDialogue(sheet))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await type_in(pilot, "6")
        assert "Deal 1, 6 deals. The bidding from 1" in screen_text(app)
        await type_in(pilot, "p 7 p p p p", "c", "1 high 2 low jack game rp 5 lp")
        text = screen_text(app)
        assert sheet.score == (1, 8, 0, 0, 5, 0)
        assert "1: 1  ·  2 (Bo): 8  ·  3: 0  ·  4: 0  ·  5: 5  ·  6: 0" in text
        header = next(line for line in text.splitlines() if "Dealer: bid" in line)
        assert header.split()[-6:] == ["1", "2", "3", "4", "5", "6"]
        rows = text.splitlines()
        at = next(i for i, line in enumerate(rows) if "6: 2 7♣ made" in line)
        assert rows[at].split()[-6:] == ["1", "8", "0", "0", "5", "0"]  # each player's score, his change below
        assert rows[at + 1].split() == ["+1", "+8", "+5"] and "Deal 2, 1 deals." in text
        await type_in(pilot, "p p p p p p")  # all passed
        assert "Deal 3, 2 deals." in screen_text(app)
        await type_in(pilot, "3 bid 5", "h", "revoke 2")
        assert "only at four players in partnerships" in " ".join(screen_text(app).split())
        assert len(sheet.deals) == 2
