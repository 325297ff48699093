"""Whole deals and a whole match at the Textual table, driven by keystrokes only."""

from __future__ import annotations

from tablekit import (
    NINE_HEARTS,
    SIZE,
    TRUMP_LEAD,
    card_background,
    dealt_game,
    hand_text,
    make_app,
    press,
    prompt,
    screen_text,
    settle,
    status,
    table_test,
)

from cinch import Card, Seat
from cinch.actions import Play
from cinch.tui.app import TableScreen
from cinch.tui.render import PALETTES
from cinch.tui.screens import DealOverScreen, NewMatchScreen
from cinch.tui.widgets import HandView
from cinch.view import Phase


def table_of(app) -> TableScreen:
    return app.table


@table_test
async def test_the_table_shows_the_seats_your_hand_and_the_bidding():
    app = make_app("pagat", seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        view = app.table.game.view()
        text = screen_text(app)
        assert "Cinch pagat · deal 1" in text and "NS (you) 0" in text and "to 62" in text
        assert "N partner" in text and "W opponent" in text and "E opponent" in text and "S you" in text
        assert "▶ your turn" in text
        hand = hand_text(app)
        for card in view.hand:
            assert card.symbol in hand
        assert "Your bid" in prompt(app)
        assert "[7]" in prompt(app) or "[Pass]" in prompt(app)  # the cursor on a legal choice
        # The bids so far sit in front of each seat.
        for seat, action in view.auction:
            assert f"{seat} {'pass' if str(action) == 'pass' else str(action).split()[1]}" in text


@table_test
async def test_a_deal_played_by_keys_shows_the_trick_the_legal_cards_and_the_score():
    app = make_app("official", seed=4, options={"target": 51})
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        checked_trick = checked_legal = False
        for _ in range(40):
            t = table_of(app)
            if isinstance(app.screen, DealOverScreen):
                break
            view = t.game.view()
            if t.mode == "play" and view.current_trick and not checked_trick:
                lead = view.current_trick[0]
                text = screen_text(app)
                assert f"{lead.seat} led" in text
                for p in view.current_trick:
                    assert p.card.symbol in text
                checked_trick = True
            if t.mode == "play" and not checked_legal:
                legal = {a.card for a in view.legal if isinstance(a, Play)}
                illegal = [c for c in view.hand if c not in legal]
                palette = PALETTES["classic"]
                for c in legal:
                    assert card_background(app, c) == palette.face
                for c in illegal:
                    assert card_background(app, c) == palette.dim_face
                checked_legal = bool(illegal)
            await press(pilot, "enter")
        assert isinstance(app.screen, DealOverScreen), "the deal should end within 40 keys"
        game = table_of(app).game
        summary = game.last_summary
        text = screen_text(app)
        assert summary.result.describe() in text.replace("\n", " ") or summary.result.describe()[:40] in text
        assert f"Score: NS (you) {summary.score[0]}, EW {summary.score[1]}" in text
        for award in summary.result.awards:
            assert award.name in text
        assert checked_trick
        await press(pilot, "enter")  # the next deal
        assert f"NS (you) {summary.score[0]} – EW {summary.score[1]}" in screen_text(app)
        assert "deal 2" in screen_text(app)


@table_test
async def test_a_whole_match_by_keyboard_alone():
    app = make_app("difference", seed=21, options={"target": 11}, bots=("basic", "random", "basic", "random"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        winner_shown = False
        for _ in range(200):
            if isinstance(app.screen, NewMatchScreen):
                break
            if isinstance(app.screen, DealOverScreen) and "win the match" in screen_text(app):
                winner_shown = True
            await press(pilot, "enter")
        match = table_of(app).game.match
        assert match.is_over and winner_shown
        assert max(match.score) >= 11
        assert isinstance(app.screen, NewMatchScreen)  # a new match is offered at the end
        await press(pilot, "escape")
        assert "The match is over" in prompt(app)


@table_test
async def test_an_illegal_card_is_explained_in_the_rule_s_words():
    game = dealt_game("pagat", TRUMP_LEAD, Seat.N)
    app = make_app("pagat", game=game)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "p", "enter")  # pass
        t = table_of(app)
        assert t.mode == "play"
        assert t.game.view().current_trick[0].card == Card.parse("AH")
        await press(pilot, "2")  # A♣, the second card: not allowed on a trump lead
        assert "A♣ cannot be played: a trump was led (A♥*) and S holds trumps, so must play a trump." in status(app)
        await press(pilot, "c")  # the next club: none is legal
        assert "cannot be played: a trump was led" in status(app)
        await press(pilot, "right")  # the cursor stays on the only legal card
        assert t.decision.cards[t.decision.cursor] == Card.parse("2H")
        await press(pilot, "enter")
        assert Card.parse("2H") not in t.game.view().hand


@table_test
async def test_bids_are_typed_in_digits_and_a_bad_one_is_explained():
    app = make_app("pagat", seed=2)  # E has bid 7 when it is your turn
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        t = table_of(app)
        await press(pilot, "5")
        assert "You cannot bid 5: bids run from 7 to 14 under pagat." in status(app)
        await press(pilot, "7")
        assert "You cannot bid 7: each bid must beat the one before (E bid 7)." in status(app)
        await press(pilot, "1", "2")
        assert "[12]" in prompt(app)
        await press(pilot, "p")
        assert "[Pass]" in prompt(app)
        await press(pilot, "9", "enter")
        assert any(s == Seat.S and str(a) == "bid 9" for s, a in t.game.view().auction)


@table_test
async def test_a_stuck_dealer_cannot_pass():
    app = make_app("pagat", seed=5)  # the first three pass: you deal, and must bid 7
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "p")
        assert "You cannot pass: the first three passed, so the dealer is stuck and must bid 7." in status(app)
        assert "[7]" in prompt(app) and "Pass" not in prompt(app)


@table_test
async def test_keep_six_of_nine_trumps_by_toggling():
    game = dealt_game("difference", NINE_HEARTS, Seat.W)
    app = make_app("difference", game=game)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "1", "4", "enter", "h", "enter")
        t = table_of(app)
        assert t.mode == "keep"
        assert "keep 6 of A♥* K♥* Q♥* J♥* 10♥* 9♥* 8♥* 7♥* 6♥*" in prompt(app)
        assert "Keeping 6: legal" in prompt(app)  # the suggested hand
        kept = bin(t.decision.keep_sel).count("1")
        assert kept == 6
        thrown = [c for c in t.decision.cards if not t.decision.keep_sel >> c & 1]
        await press(pilot, *(["right"] * t.decision.cards.index(thrown[0])), "space")  # keep a seventh
        assert "Keeping 7: not yet legal" in prompt(app)
        await press(pilot, "enter")
        assert "Not yet: a player with more than six trumps keeps exactly six" in status(app)
        hand = hand_text(app)
        assert hand.count("✓") == 7 and hand.count("✗") == 2
        await press(pilot, "a")  # back to the suggestion
        assert "Keeping 6: legal" in prompt(app)
        await press(pilot, "enter")
        view = t.game.view()
        assert len(view.shown_trumps[Seat.S]) == 3
        assert "S showed, dead" in screen_text(app)


@table_test
async def test_bury_the_excess_under_the_first_card():
    game = dealt_game("pagat", NINE_HEARTS, Seat.W)
    app = make_app("pagat", game=game)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "1", "4", "enter", "h", "enter")
        t = table_of(app)
        assert t.mode == "play" and "You then bury your extra cards" in prompt(app)
        await press(pilot, "2", "enter")  # K♥, then the bury
        assert t.mode == "bury"
        assert "Bury 3 cards under K♥*" in prompt(app)
        assert hand_text(app).count("bury") == 3
        await press(pilot, "left", "space", "enter")  # unmark one: only two buried
        assert "must bury 3 under the first card played" in " ".join(status(app).split())
        await press(pilot, "space", "enter")
        first = t.game.view().tricks[0] if t.game.view().tricks else None
        played = first.plays[0] if first else t.game.view().current_trick[0]
        assert played.card == Card.parse("KH") and len(played.buried) == 3
        assert "+3 buried" in screen_text(app) or len(t.game.view().tricks) == 1


async def click_card(pilot, card) -> None:
    hand = pilot.app.table.query_one(HandView)
    x, y = next((x0, y0) for x0, y0, _, _, c in hand._boxes if c == card)
    await pilot.click(HandView, offset=(x + 2 + 1, y + 2))  # +1: the widget's padding
    await settle(pilot)


@table_test
async def test_a_click_chooses_a_card_and_a_second_click_plays_it():
    app = make_app("pagat", seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        t = table_of(app)
        for _ in range(30):
            if t.mode == "play" and len(t.decision.cards) > 1:
                break
            await press(pilot, "enter")
        other = t.decision.cards[1]
        await click_card(pilot, other)
        assert t.decision.cards[t.decision.cursor] == other and other in t.game.view().hand
        await click_card(pilot, other)
        assert other not in t.game.view().hand


@table_test
async def test_a_click_on_a_card_you_may_not_play_says_why():
    app = make_app("pagat", game=dealt_game("pagat", TRUMP_LEAD, Seat.N))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "p", "enter")
        await click_card(pilot, Card.parse("AC"))
        assert "A♣ cannot be played: a trump was led" in status(app)
        assert Card.parse("AC") in app.table.game.view().hand


@table_test
async def test_undo_takes_back_your_card_and_the_bots_after_it():
    app = make_app("pagat", seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        t = table_of(app)
        for _ in range(30):  # on to a card of yours
            if t.mode == "play":
                break
            await press(pilot, "enter")
        assert t.mode == "play"
        before = t.game.view()
        history = len(t.game.deal.history)
        await press(pilot, "enter")
        assert len(t.game.view().hand) == len(before.hand) - 1
        await press(pilot, "u")
        after = t.game.view()
        assert after.hand == before.hand and after.current_trick == before.current_trick
        assert len(t.game.deal.history) == history
        assert t.mode == "play"
        assert "Taken back: your play" in status(app)


@table_test
async def test_undo_with_nothing_to_take_back_says_so():
    app = make_app("pagat", seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "u")
        assert "Nothing of yours to take back in this deal." in status(app)


@table_test
async def test_a_hint_names_the_strong_bot_s_choice_and_moves_the_cursor():
    app = make_app("pagat", seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        t = table_of(app)
        for _ in range(30):
            if t.mode == "play":
                break
            await press(pilot, "enter")
        await press(pilot, "question_mark")
        text = status(app).replace("\n", " ")
        assert "Hint from the expert bot: playing the " in text and "(? again: the figures)" in text
        assert "worlds" not in text  # words first, as a player says it
        assert t.decision.hint is not None and t.decision.cards[t.decision.cursor] == t.decision.hint.action.card
        await press(pilot, "question_mark")  # the second press shows the figures
        assert "The expert bot's figures: " in status(app) and "worlds)" in status(app).replace("\n", " ")


@table_test
async def test_a_hint_at_the_bidding_is_the_bid_advisor_s_with_a_line_per_suit_on_the_second_press(monkeypatch):
    monkeypatch.setattr("cinch.table.advice.BID_HINT_SECONDS", 0.05)  # its fewest worlds: enough for the screen
    app = make_app("pagat", seed=2)  # S bids second, after a bid of 7
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        t = table_of(app)
        assert app.table.game.view().phase is Phase.BIDDING
        await press(pilot, "question_mark")
        text = status(app).replace("\n", " ")
        assert "Hint from the expert bot: " in text and ("bidding " in text or "passing" in text)
        hint = t.decision.hint
        assert hint is not None and hint.action == t.decision.options[t.decision.cursor]
        assert len(hint.table) == 4 and all(" trumps: " in line for line in hint.table)
        await press(pilot, "question_mark")
        assert "The expert bot's figures: " in status(app)
        log = t.query_one("#log")
        written = " ".join(strip.text for strip in log.lines)
        assert hint.table[0][:12] in written


@table_test
async def test_the_table_redraws_at_80_by_24():
    app = make_app("pagat", seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        text = screen_text(app)
        assert len(text.split("\n")) == 24 and max(len(line) for line in text.split("\n")) <= 80
        view = app.table.game.view()
        for card in view.hand:
            assert card.symbol in hand_text(app)
        assert "Your bid" in prompt(app) and ("[Pass]" in prompt(app) or "[7]" in prompt(app))
        assert "N partner" in text and "W opponent" in text and "E opponent" in text
        for _ in range(20):
            if app.table.mode == "play":
                break
            await press(pilot, "enter")
        assert "Trick" in prompt(app)
        assert app.table.game.view().phase is Phase.PLAY

