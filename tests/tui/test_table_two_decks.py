"""The Textual table at two-deck Cinch (-o decks=2): a hand of 18 in one row, cards held twice, a whole deal."""

from __future__ import annotations

import pytest
from tablekit import hand_text, make_app, press, prompt, screen_text, settle, table_test

from cinch import Card, Play, Rules, Seat, parse_action
from cinch.table import Pending, Table
from cinch.tui.app import CinchApp
from cinch.tui.decision import Decision, Mode
from cinch.tui.screens import DealOverScreen
from cinch.tui.widgets import ROW_HEIGHT, HandView
from test_play_plain_two_decks import HEARTS_TWICE, hearts_table, two_deck_deck

AH, KH = Card.parse("AH"), Card.parse("KH")


def hearts_app() -> CinchApp:
    """E deals; you (S) bid first, holding fourteen hearts, seven of them twice (see hearts_table)."""
    return make_app("official", options={"decks": 2}, game=hearts_table())


def copies(cards, card: Card) -> list[Card]:
    return [c for c in cards if c.printed == card]


@pytest.mark.parametrize("size", [(100, 32), (80, 24)])
@table_test
async def test_a_hand_of_18_fits_one_row_with_every_card_readable(size):
    app = hearts_app()
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        assert app.table.mode == "bid"
        assert app.table.query_one(HandView).region.height == ROW_HEIGHT  # one row of cards, not two
        hand = hand_text(app)
        for rank, times in (("A♥", 2), ("K♥", 2), ("8♥", 2), ("6♣", 1), ("2♣", 1)):
            assert hand.count(rank) == times, (rank, hand)
        text = screen_text(app)
        assert "S you" in text and "▶ your turn" in text  # the seat panel is not pushed off the screen
        assert "18 cards" in text  # (the others' panels)


@table_test
async def test_a_whole_two_deck_deal_by_keys_keeping_and_playing_one_copy_or_both():
    app = hearts_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "2", "8", "enter", "h", "enter")
        table = app.table
        assert table.mode == "keep"
        d = table.decision
        # Fourteen hearts, seven held twice: both copies are cards of their own to keep or throw.
        assert len(d.cards) == 14 and len(copies(d.cards, AH)) == 2
        assert str(d.chosen()) == "keep AH AH KH KH QH QH JH JH TH TH 9H 9H"  # the suggestion keeps both
        assert d.cards[0] == AH
        await press(pilot, "space")  # throw one ace
        assert "Keeping 11: not yet legal" in prompt(app)
        eights = [i for i, c in enumerate(d.cards) if c.printed == Card.parse("8H")]
        d.cursor = eights[0]
        await press(pilot, "space", "enter")  # keep an eight instead
        game = table.game
        hand = game.match.view(Seat.S).hand
        assert len(hand) == 12 and len(copies(hand, AH)) == 1 and len(copies(hand, KH)) == 2
        # Your lead: both kings may be picked, and either plays a king.
        assert table.mode == "play"
        kings = [i for i, c in enumerate(table.decision.cards) if c.printed == KH]
        assert len(kings) == 2
        table.decision.cursor = kings[1]
        await press(pilot, "enter")
        view = game.match.view(Seat.S)
        assert view.tricks or view.current_trick
        first = (view.tricks[0].plays if view.tricks else view.current_trick)[0]
        assert first.seat == Seat.S and first.card.printed == KH
        assert len(copies(view.hand, KH)) == 1
        for _ in range(60):
            if isinstance(app.screen, DealOverScreen):
                break
            await press(pilot, "enter")
        assert isinstance(app.screen, DealOverScreen)
        text = screen_text(app)
        assert "Deal 1 is over" in text and "Point cards:" in text
        result = game.last_summary.result
        assert result.points is not None and sum(result.points) <= 28


# ---- pictures (pytest-textual-snapshot; `pytest tests/tui --snapshot-update` redraws them) ----------------------
def test_picture_of_18_cards_fanned_at_80_by_24(snap_compare):
    assert snap_compare(hearts_app(), terminal_size=(80, 24), run_before=settle)


def test_picture_of_a_keep_of_cards_held_twice(snap_compare):
    async def run_before(pilot) -> None:
        await settle(pilot)
        await press(pilot, "2", "8", "enter", "h", "enter", "right", "right", "space")

    assert snap_compare(hearts_app(), terminal_size=(100, 32), run_before=run_before)


@table_test
async def test_the_rules_screen_tells_the_two_deck_game():
    app = hearts_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        await press(pilot, "r")
        text = screen_text(app)
        assert "Rules: official+ (first to 102)" in text
        assert "Two decks (104 cards): each player is dealt 18" in text


def test_either_copy_of_a_card_opens_its_burial_and_the_marked_burial_is_legal():
    # Pagat: fourteen trumps are all kept, so on trick 1 S plays one and buries two under it.
    table = Table.new(Rules.preset("pagat").with_options(decks=2), people={Seat.S: "you"}, bots="random", seed=1)
    table.match.first_dealer = Seat.E
    table.match.start_deal(deck=two_deck_deck(Seat.E, hands={Seat.S: HEARTS_TWICE}), dealer=Seat.E)

    def bots_play() -> None:
        while table.advance() is Pending.BOT:
            turn = table.bot_turn()
            assert turn is not None
            table.play_bot(turn, *turn.decide())

    for action in ("bid 28", "trump H"):
        bots_play()
        table.act(Seat.S, parse_action(action))
    bots_play()
    view = table.view(Seat.S)
    assert view is not None and len(view.hand) == 14
    d = Decision()
    d.begin(view, "trick 1", lambda: table.suggestion(Seat.S))
    assert d.mode is Mode.PLAY and d.bury_due and len(d.cards) == 14  # every copy may be picked
    for king in copies(view.hand, KH):
        d = Decision()
        d.begin(view, "trick 1", lambda: table.suggestion(Seat.S))
        assert isinstance(d.start_bury(king), str) and d.mode is Mode.BURY
        assert d.bury_card is not None and d.bury_card.printed == KH
        assert d.bury_card not in d.cards  # the card played is not offered for burial
        play = d.chosen()
        assert isinstance(play, Play) and len(play.bury) == 2
        assert table.why_illegal(play, Seat.S) is None
