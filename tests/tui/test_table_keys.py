"""The table's keys where they went wrong: a refused bid, the numbers of a long hand, a hint that wraps,
and what the terminal says when you quit."""

from __future__ import annotations

from tablekit import SIZE, SMALL, hand_text, make_app, press, prompt, region_text, settle, status, table_app, table_test

from cinch import Bid, Pass
from cinch.library import Library
from cinch.study.advise import advise
from cinch.table import Hint, Saver
from cinch.tui import app as table_module


def cursor_choice(app):
    d = app.table.decision
    return d.options[d.cursor]


@table_test
async def test_a_refused_bid_leaves_the_cursor_where_it_was_and_enter_does_not_take_it_unasked():
    app = make_app("pagat", seed=2)  # E bid 7 before you: the bids left are 8 to 14
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        game = app.table.game
        bids = len(game.view().auction)
        assert isinstance(cursor_choice(app), Pass)
        await press(pilot, "7")
        assert "You cannot bid 7: each bid must beat the one before" in status(app)
        assert isinstance(cursor_choice(app), Pass) and "[Pass]" in prompt(app)
        await press(pilot, "enter")  # meant as the bid just refused: no pass is made
        assert len(game.view().auction) == bids and app.table.mode == "bid"
        assert "Enter again passes" in status(app)
        await press(pilot, "right", "right")  # the cursor on 9; a refused 15 leaves it there
        await press(pilot, "1", "5")
        assert "You cannot bid 15" in status(app) and cursor_choice(app) == Bid(9)
        await press(pilot, "enter")
        assert len(game.view().auction) == bids and "Enter again bids 9" in status(app)
        await press(pilot, "enter")
        assert game.view().auction[bids] == (game.human, Bid(9))


@table_test
async def test_every_card_of_an_18_card_hand_carries_its_number_and_two_digits_pick_it():
    app = table_app("two decks")  # no draw: the 18 cards dealt are played out
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        for _ in range(20):
            if app.table.mode == "play":
                break
            await press(pilot, "enter")
        d = app.table.decision
        hand = app.table.game.view().hand
        assert len(hand) == 18 and d.mode == "play"
        numbers = hand_text(app).split("\n")[0].split()
        assert numbers == [str(n) for n in range(1, 19)]  # above every card, as drawn
        assert "1-18 choose" in prompt(app)
        drawn = app.table.look().hand_model(d.view).groups[0][1]
        n = next(i for i, card in enumerate(drawn, start=1) if i >= 10 and card in d.cards)  # a legal card past 9
        await press(pilot, *str(n))
        assert d.cards[d.cursor] == drawn[n - 1]
        await press(pilot, "enter")
        view = app.table.game.view()
        played = view.current_trick or view.tricks[0].plays
        assert next(p.card for p in played if p.seat == app.table.seat) == drawn[n - 1]


@table_test
async def test_a_long_hint_wraps_at_100_by_30_instead_of_being_cut(monkeypatch):
    def advice(name, bot, view):  # the bid advisor's hint, on a fixed number of worlds (the real one is timed)
        a = advise(view, worlds=40, seed=1)
        return Hint(name, a.best, a.words(), a.brief(), tuple(a.suit_lines()))

    monkeypatch.setattr(table_module, "ask_hint", advice)
    app = make_app("pagat", seed=2)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await press(pilot, "question_mark")
        said = app.table.status_text.plain
        assert said.startswith("Hint from the expert bot: ") and said.endswith("(? again: the figures)")
        shown = region_text(app, app.table.query_one("#status"))
        assert len(shown.strip().split("\n")) >= 3  # longer than two lines at 100 columns
        assert " ".join(shown.split()) == " ".join(said.split())  # every word of it on the screen


@table_test
async def test_quitting_names_the_match_id_as_the_plain_prompt_does(tmp_path):
    lib = Library.open(tmp_path / "games.sqlite3")
    record = tmp_path / "match.json"
    app = make_app("pagat", seed=2, saver=Saver(lib, save_path=record))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        match_id = app.saver.match_id
        await pilot.press("q")
    assert match_id is not None
    assert app.farewell() == (f"You quit. The match stops in deal 1. The game record is saved in {record}; "
                              f"`cinch replay {record}` shows it. `cinch resume {match_id}` continues it.")
    lib.close()


def test_the_table_says_its_farewell_when_it_closes(monkeypatch, capsys, tmp_path):
    lib = Library.open(tmp_path / "games.sqlite3")
    closed = []

    def run_until_quit(app):  # (the terminal's own loop needs a terminal: the match is dealt and quit here)
        app.game = app.setup.table(app.saver)
        closed.append(app)

    monkeypatch.setattr(table_module.CinchApp, "run", run_until_quit)
    setup = make_app("pagat", seed=2).setup
    assert table_module.run(setup, saver=Saver(lib), offer_resume=False) == 0
    match_id = closed[0].saver.match_id
    assert capsys.readouterr().out == f"You quit. `cinch resume {match_id}` continues it.\n"
    lib.close()

