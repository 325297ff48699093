"""The Textual table under all-hands Pedro (``bowers``): the keys pick the cards as the hand is drawn
(the bowers on top), and the messages and dialogs star the left bower as a trump, not the other five."""

from __future__ import annotations

from pathlib import Path

from tablekit import SIZE, dealt_game, make_app, press, settle, status, table_test

from cinch import Card, Seat
from cinch.record import loads, replay
from cinch.table.narrate import hand_order
from cinch.tui.render import PALETTES
from cinch.tui.screens import deal_over_text, trick_text
from helpers import table

# TRUMP_LEAD (tests/helpers.py) with S's 2H and E's JD swapped: with hearts trumps S's trumps are the JD
# (the left bower) and what he draws.
LEFT_BOWER = table("N", W="AH KH QH JH TH 9H 2S 3S 4S", S="JD 2C 3C 4C 6C 7C 8C 9C TC",
                   E="JS QS KS 9D TD 2H 9S TS 5S", N="6S 7S 8S 2D 3D 4D 6D 7D 8D",
                   stock="AS 8H 7H 6H 5H 4H AC KC QC JC 5C 3H 5D QD KD AD")
PALETTE = next(iter(PALETTES.values()))


@table_test
async def test_the_number_keys_pick_the_cards_as_drawn_and_undo_names_the_left_bower():
    game = dealt_game("pagat", LEFT_BOWER, Seat.N, options={"bowers": True})
    app = make_app("pagat", options={"bowers": True}, game=game)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await press(pilot, "p", "enter")  # S passes; W makes hearts trumps and leads
        t = app.table
        view = t.game.view()
        assert t.mode == "play" and view.trump is not None
        tables = view.rules.trump_tables[view.trump]
        left = Card.of("J", view.trump.partner)
        drawn = hand_order(view.hand, tables)
        assert drawn[0] == left  # the bowers on top of the hand
        assert [t.decision.pick_number(i + 1) for i in range(len(drawn))] == drawn
        await press(pilot, str(drawn.index(left) + 1), "enter")  # the left bower, by its number as drawn
        assert left not in t.game.view().hand
        await press(pilot, "u")
        assert "Taken back: your play J♦*" in status(app)


RECORDS = Path(__file__).parent.parent / "records"


def test_the_tricks_and_the_deal_over_dialogs_star_the_left_bower():
    # tests/records/official-bowers.json: S's left bower takes trick 2; W throws the other five in trick 5.
    game = replay(loads((RECORDS / "official-bowers.json").read_text(encoding="utf-8")))
    played = game.match.deals[0]
    view = played.view(Seat.S)
    second = trick_text(2, view.tricks[1], view, Seat.S, PALETTE).plain
    assert "S  J♦*" in second and "E  A♥*" in second
    fifth = trick_text(5, view.tricks[4], view, Seat.S, PALETTE).plain
    assert "W  5♦ " in fifth and "S  5♥*" in fifth  # the other five is a plain card
    summary = game.match.summaries[0]
    over = deal_over_text(summary, Seat.S, game.match.rules, PALETTE, None, summary.score).plain
    assert "Left Bower   J♦*" in over and "Right Pedro  5♥*" in over
