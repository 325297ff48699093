"""`cinch score`'s Textual screen: a deal typed in, the sheet and score drawn, undo, the winner, on a phone's width."""

from __future__ import annotations

from tablekit import screen_text, table_test
from textual.widgets import Input

from cinch import Rules, Seat
from cinch.score_plain import ScoreDialogue, SheetSaver
from cinch.scorekeeper import ScoreSheet
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
