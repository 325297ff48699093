"""The screens around the table: rules, keys, tricks, settings, a new match, the library, the command line."""

from __future__ import annotations

import json

from click.testing import CliRunner
from tablekit import SIZE, card_background, make_app, press, region_text, screen_text, settle, status, table_test

from cinch import Rules, Seat
from cinch.bots import make_bot
from cinch.cli import main
from cinch.cli.play import DEFAULT_FRONTEND, FRONTENDS, run_table
from cinch.library import Library
from cinch.match import Match
from cinch.record import loads, replay
from cinch.table import Saver
from cinch.tui.render import PALETTES
from cinch.tui.screens import (
    DealOverScreen,
    KeysScreen,
    NewMatchScreen,
    ResumeScreen,
    RulesScreen,
    SettingsScreen,
    TricksScreen,
)


@table_test
async def test_the_rules_screen_explains_the_active_options():
    app = make_app("official", seed=3, options={"target": 42, "follow": "strict"})
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "r")
        assert isinstance(app.screen, RulesScreen)
        text = " ".join(region_text(app, app.screen.query_one("#rules-body")).split())
        assert "Rules: official+ (first to 42)" in screen_text(app)
        assert "Changed from the official preset: target, follow." in text
        for line in Rules.preset("official").with_options(target=42, follow="strict").describe()[:5]:
            assert line in text
        await press(pilot, "escape")
        assert app.screen is app.table
        await press(pilot, "f1")
        assert isinstance(app.screen, KeysScreen) and "Space keeps or throws" in screen_text(app)
        await press(pilot, "escape")


@table_test
async def test_hints_can_be_turned_off_in_the_settings():
    app = make_app("pagat", seed=2)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "question_mark")
        assert "Hint from the " in status(app) and " bot: " in status(app)
        await press(pilot, "o")
        assert isinstance(app.screen, SettingsScreen)
        await press(pilot, "space")  # the hints switch has the focus
        await press(pilot, "escape")
        assert app.settings.hints is False
        await press(pilot, "question_mark")
        assert "Hints are off (o: settings)." in status(app)


@table_test
async def test_the_last_trick_and_the_colour_theme():
    app = make_app("pagat", seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "l")
        assert "No trick has been played yet" in status(app)
        t = app.table
        for _ in range(40):
            if t.game.view().tricks:
                break
            await press(pilot, "enter")
        await press(pilot, "l")
        assert isinstance(app.screen, TricksScreen)
        first = t.game.view().tricks[0]
        assert f"Trick 1, led by {first.leader}" in screen_text(app).replace(" (you)", "").replace(" (partner)", "")
        assert "won by" in screen_text(app)
        await press(pilot, "escape")
        card = next(iter(t.game.view().hand))
        assert card_background(app, card) == PALETTES["classic"].face
        await press(pilot, "t")
        assert app.palette is PALETTES["colour-blind"] and app.theme == "cinch-cb"
        assert card_background(app, card) == PALETTES["colour-blind"].face
        assert "Colours: colour-blind safe" in status(app)
        await press(pilot, "t")
        assert app.palette is PALETTES["classic"] and app.theme == "cinch"


@table_test
async def test_a_new_match_from_the_new_match_screen():
    app = make_app("pagat", seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "n")
        screen = app.screen
        assert isinstance(screen, NewMatchScreen)
        from textual.widgets import Input, Select

        # A new match deals new cards: the last seed is only a reminder, never the value.
        assert screen.query_one("#nm-seed", Input).value == ""
        assert "seed 5" in screen.query_one("#nm-seed", Input).placeholder
        # Your own seat has no bot to choose; the others do.
        assert not screen.query_one("#nm-bot-S", Select).display and screen.query_one("#nm-bot-N", Select).display
        screen.query_one("#nm-preset", Select).value = "difference"
        screen.query_one("#nm-options", Input).value = "target=31 follow=strict"
        screen.query_one("#nm-seat", Select).value = "E"
        screen.query_one("#nm-bot-W", Select).value = "random"
        screen.query_one("#nm-seed", Input).value = "bad"
        await settle(pilot)
        screen.action_start()
        await settle(pilot)
        assert "the seed must be a whole number" in screen_text(app)
        screen.query_one("#nm-seed", Input).value = "9"
        screen.query_one("#nm-options", Input).value = "target=x"
        screen.action_start()
        await settle(pilot)
        assert "target cannot be 'x'" in screen_text(app)
        screen.query_one("#nm-options", Input).value = "target=31 follow=strict"
        screen.query_one("#nm-start").focus()
        await press(pilot, "enter")
        game = app.table.game
        assert app.screen is app.table
        assert game.rules.preset_name == "difference" and game.rules.target == 31
        assert game.human is Seat.E and game.seed == 9 and game.bot_names[Seat.W] == "random"
        assert "E you" in screen_text(app) and "W partner" in screen_text(app)


@table_test
async def test_every_action_is_saved_to_the_library_and_an_unfinished_match_is_offered(tmp_path):
    db = tmp_path / "games.sqlite3"
    lib = Library.open(db)
    save = tmp_path / "match.json"
    app = make_app("pagat", seed=5, saver=Saver(lib, save_path=str(save)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "enter", "enter")  # bid 7, name trumps
        match_id = app.saver.match_id
        match = app.table.game.match
        stored = lib.get(match_id)
        assert stored.frontend == "table" and stored.human_seat is Seat.S and stored.seed == 5
        assert stored.position == (1, len(match.deals[0].history))
        on_file = replay(loads(save.read_text())).match
        assert len(on_file.deals[0].history) == len(match.deals[0].history)
        hand = app.table.game.view().hand
    # A new start offers it; Enter resumes it at the same decision.
    app = make_app("pagat", seed=6, saver=Saver(lib), offer_resume=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ResumeScreen)
        assert f"match {match_id} (pagat, deal 1" in screen_text(app)
        await press(pilot, "enter")
        assert app.table.game.view().hand == hand
        assert f"Resumed match {match_id}" in status(app)
        assert app.saver.match_id == match_id
    # Declining marks it abandoned: it is not offered again.
    app = make_app("pagat", seed=7, saver=Saver(lib), offer_resume=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ResumeScreen)
        await press(pilot, "n")
        assert app.screen is app.table and app.table.game.seed == 7
    assert lib.get(match_id).status == "abandoned"
    assert [m.id for m in lib.unfinished()] == [app.saver.match_id]
    # `cinch resume ID` still continues it, straight to the table.
    app = make_app("pagat", seed=8, saver=Saver(lib), resume_id=match_id)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.table.game.view().hand == hand and app.saver.match_id == match_id
        await press(pilot, "enter")
    assert lib.get(match_id).status == "in_progress" and lib.get(match_id).position[1] > stored.position[1]
    lib.close()


@table_test
async def test_the_end_of_a_deal_shows_the_par_when_the_solver_is_there():
    app = make_app("official", seed=4, par=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for _ in range(40):
            if isinstance(app.screen, DealOverScreen):
                break
            await press(pilot, "enter")
        assert isinstance(app.screen, DealOverScreen)
        text = " ".join(region_text(app, app.screen.query_one("#par")).split())
        assert "Par with every card open, from the first lead: NS " in text
        assert "par." in text


def test_the_table_is_the_default_front_end_and_needs_a_terminal(tmp_path):
    assert DEFAULT_FRONTEND == "table" and FRONTENDS["table"] is run_table
    # Under a test runner standard input is not a terminal: the line prompt plays instead.
    save = tmp_path / "m.json"
    result = CliRunner().invoke(main, ["play", "--seed", "8", "--save", str(save), "--pause", "0"], input="1\n1\n")
    assert result.exit_code == 0, result.output
    assert "End of input." in result.output
    assert json.loads(save.read_text())["format"] == "cinch/1"
    result = CliRunner().invoke(main, ["play", "--table", "--theme", "colour-blind", "--no-library"], input="")
    assert result.exit_code == 0 and "End of input." in result.output


@table_test
async def test_a_match_saved_between_deals_resumes_with_the_next_deal_and_says_so(tmp_path):
    lib = Library.open(tmp_path / "games.sqlite3")
    match = Match(Rules.preset("difference"), players={s: "you" if s is Seat.S else "basic" for s in Seat}, rng=4)
    match_id = lib.new_match(match, human_seat=Seat.S, seed=4, frontend="plain", players=match.players)
    bots = {s: make_bot("basic", seed=s) for s in Seat}
    match.start_deal()
    while not match.deals[-1].is_over:
        deal = match.current
        if deal.to_act is None:
            match.resolve_chance()
            continue
        match.apply(bots[deal.to_act].choose(match.view(deal.to_act)), deal.to_act)
    lib.save(match_id, match)  # saved at the end of deal 1: resuming deals deal 2
    assert lib.get(match_id).describe().startswith(f"match {match_id} (difference, deal 2")  # the deal to play
    app = make_app("difference", saver=Saver(lib), resume_id=match_id)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert len(app.table.game.match.deals) == 2
        assert f"Resumed match {match_id} (difference, deal 2," in status(app)
        assert "deal 2" in screen_text(app).split("\n")[0]  # the top bar says the same
    lib.close()
