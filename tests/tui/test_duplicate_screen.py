"""``cinch duplicate`` at the Textual table: each board at the card table, its traveller after it, the next board on
Enter, the ranking after the last; no hints or take-backs; a picture of the traveller at 80x24."""

from __future__ import annotations

from tablekit import SMALL, press, screen_text, settle, status, table_test

from cinch import Rules
from cinch.duplicate import DealSet, LibraryStore, MemoryStore
from cinch.library import Library
from cinch.table.duplicate import DuplicateSession
from cinch.tui.duplicate import NO_HINTS, NO_UNDO, DuplicateApp, TravellerScreen
from cinch.tui.screens import Settings


def session(store=None, deals: int = 2) -> DuplicateSession:
    deal_set = DealSet.from_seed(7, Rules.preset("official"), deals, bots="basic")
    return DuplicateSession.start(store if store is not None else MemoryStore(), deal_set)


def app_for(s: DuplicateSession) -> DuplicateApp:
    return DuplicateApp(s, settings=Settings(pause=0))


async def to_traveller(pilot, limit: int = 80) -> None:
    """Enter (the default choice) until the board's traveller shows, its robot table done."""
    await settle(pilot)
    for _ in range(limit):
        if isinstance(pilot.app.screen, TravellerScreen):
            await settle(pilot)
            return
        await press(pilot, "enter")
    raise AssertionError("the board never ended")


@table_test
async def test_each_board_ends_with_its_traveller_and_the_set_with_the_ranking():
    s = session()
    app = app_for(s)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        top = screen_text(app).split("\n")[0]
        assert "Cinch duplicate official · board 1 of 2 · set 'seed 7' · dealer N" in top
        await press(pilot, "question_mark")
        assert NO_HINTS[:40] in status(app).replace("\n", " ")
        await press(pilot, "u")
        assert NO_UNDO[:30] in status(app).replace("\n", " ")
        await to_traveller(pilot)
        text = screen_text(app)
        assert "Board 1 of 2: the traveller" in text and "Your table:" in text
        assert "Board 1 of 'seed 7', dealt by N: 2 results, best for NS first." in text
        assert "> you" in text and "  robots" in text and "Hands as dealt:" in text
        assert "Enter: board 2" in text
        await press(pilot, "enter")
        assert not isinstance(app.screen, TravellerScreen)
        assert "board 2 of 2" in screen_text(app).split("\n")[0] and s.board == 2
        await to_traveller(pilot)
        text = screen_text(app)
        assert "Board 2 of 'seed 7', dealt by E" in text and "Ranking over 2 boards" in text
        assert "Enter: the end of the set" in text
        await pilot.press("enter")
        await pilot.pause()
    assert s.board is None and len(s.results) == 2
    assert app.farewell().startswith("The set is over.")


@table_test
async def test_quitting_mid_board_keeps_it_and_the_table_resumes_it_at_the_same_action(tmp_path):
    with Library.open(tmp_path / "g.sqlite3") as lib:
        store = LibraryStore(lib)
        first = session(store)
        app = app_for(first)
        async with app.run_test(size=(100, 32)) as pilot:
            await settle(pilot)
            await press(pilot, "enter", "enter")
            await pilot.press("q")
        kept = first.attempt.playing
        assert kept is not None and store.attempt(first.attempt.id).playing == kept
        assert app.farewell() == ("You quit. The set 'seed 7' stops at board 1 of 2. "
                                  "`cinch duplicate --resume 1` goes on with it.")
        again = DuplicateSession.resume(store)
        table = again.table()
        assert [str(a) for a in table.deal.history] == [str(a) for a in
                                                         first.table().deal.history]  # the same action
        app = app_for(again)
        async with app.run_test(size=(100, 32)) as pilot:
            await to_traveller(pilot)
            assert "Board 1 of 'seed 7'" in screen_text(app)


def test_the_traveller_at_80_by_24(snap_compare):
    async def run_before(pilot) -> None:
        await to_traveller(pilot)

    assert snap_compare(app_for(session()), terminal_size=SMALL, run_before=run_before)
