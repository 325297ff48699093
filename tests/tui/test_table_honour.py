"""The honour rule at the Textual table: a greyed card played on purpose after a confirmation, and the
ruling told in the log and the end-of-deal box."""

from __future__ import annotations

from tablekit import SIZE, TRUMP_LEAD, dealt_game, make_app, press, screen_text, settle, status, table_test

from cinch import Card, Seat
from cinch.tui.screens import ConfirmScreen, DealOverScreen
from cinch.tui.widgets import EventLog

HONOUR_002 = {"honour_rule": True, "irregularities": "002"}


def log_text(app) -> str:
    return " ".join(" ".join(strip.text for strip in app.table.query_one(EventLog).lines).split())


@table_test
async def test_a_greyed_card_is_played_as_a_revoke_after_a_confirmation_and_the_ruling_is_told():
    game = dealt_game("pagat", TRUMP_LEAD, Seat.N, options=HONOUR_002)
    app = make_app("pagat", game=game)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "p", "enter")  # pass; W leads A♥: S holds the 2♥, so A♣ would be a revoke
        t = app.table
        assert t.decision.mode == "play" and t.decision.cards == [Card.parse("2H")]
        await press(pilot, "2")  # A♣, greyed
        assert isinstance(app.screen, ConfirmScreen)
        assert app.screen.question == ("Playing the A♣ does not follow suit: that is a revoke under the honour "
                                       "rule. Play it anyway?")
        await press(pilot, "n")
        assert not isinstance(app.screen, ConfirmScreen) and Card.parse("AC") in t.game.view().hand
        assert "A♣ stays in your hand" in status(app)
        await press(pilot, "2", "y")
        assert Card.parse("AC") not in t.game.view().hand
        await press(pilot, "enter")  # trick 2: the 2♥ shows the revoke, and W (S's left) claims it
        assert isinstance(app.screen, DealOverScreen)
        assert "NS revoked (002)" in " ".join(screen_text(app).split())
        assert "S revoked on trick 1 (played A♣): claimed." in log_text(app)
        assert "revoked (002)" in " ".join(t.game.match.summaries[0].result.ruling)


@table_test
async def test_without_the_honour_rule_a_greyed_card_is_only_explained():
    app = make_app("pagat", game=dealt_game("pagat", TRUMP_LEAD, Seat.N))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "p", "enter", "2")
        assert not isinstance(app.screen, ConfirmScreen)
        assert "A♣ cannot be played: a trump was led" in status(app)
        assert Card.parse("AC") in app.table.game.view().hand


HONOUR_003 = {"honour_rule": True, "irregularities": "003"}


@table_test
async def test_a_lead_out_of_turn_is_chosen_at_a_stop_and_the_bot_claims_it():
    from cinch.tui.decision import Mode
    from cinch.tui.screens import OutOfTurnScreen

    game = dealt_game("pagat", TRUMP_LEAD, Seat.N, options=HONOUR_003)
    app = make_app("pagat", game=game, stops=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        t = app.table
        assert t.decision.mode is Mode.AHEAD  # E is to bid first: the table stops for S
        assert "E is to bid: Enter lets him bid; x: bid out of turn" in " ".join(screen_text(app).split())
        await press(pilot, "enter")  # E bids
        await press(pilot, "p", "enter")  # S passes
        while t.decision.mode is Mode.AHEAD and t.game.view().phase.name == "BIDDING":
            await press(pilot, "enter")  # W and N bid
        view = t.game.view()
        assert t.decision.mode is Mode.AHEAD and view.to_act == Seat.W and not view.current_trick
        await press(pilot, "x")
        assert isinstance(app.screen, OutOfTurnScreen)
        assert app.screen.question.startswith("That is a lead out of turn (003): it is W's lead. If W, on your "
                                              "left, claims it, the card is taken back and W leads.")
        assert app.screen.choices[0][0] == "2♥*"  # the trump first, as in the hand
        await press(pilot, "escape")
        assert t.decision.mode is Mode.AHEAD and "Nothing done out of turn" in status(app)
        await press(pilot, "x", "1")  # lead the 2♥ out of turn: W claims it at once
        assert "S led 2♥* out of turn to trick 1: claimed." in log_text(app)
        assert "Lead out of turn (003): 2♥* is taken back, and W leads." in log_text(app)
        assert Card.parse("2H") in t.game.view().hand
        assert t.decision.mode is Mode.AHEAD and t.game.view().to_act == Seat.W  # W leads now, after a stop


@table_test
async def test_x_asks_for_a_stop_while_a_bot_is_to_act_and_explains_itself_otherwise():
    app = make_app("pagat", game=dealt_game("pagat", TRUMP_LEAD, Seat.N))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "x")
        assert "Acting out of turn needs the honour rule with 003's rulings" in status(app)
    app = make_app("pagat", game=dealt_game("pagat", TRUMP_LEAD, Seat.N, options=HONOUR_003))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)  # no stops: the bots play on to S's bid
        await press(pilot, "x")
        assert "It is your turn: act as usual" in status(app)
