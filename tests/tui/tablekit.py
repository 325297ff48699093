"""Drive the Textual table headless: build an app, wait for it, read what the screen shows.

Every app here has no pause between bot plays and no game library unless a test gives one.
"""

from __future__ import annotations

import asyncio
import functools

from cinch import Rules, Seat
from cinch.table import Saver, Table
from cinch.tui.app import CinchApp
from cinch.tui.game import TableSetup
from cinch.tui.screens import Settings
from cinch.tui.widgets import HandView
from helpers import TRUMP_LEAD, dealt_table, table  # noqa: F401 - TRUMP_LEAD for the tests

SIZE = (100, 32)
SMALL = (80, 24)  # the smallest terminal the table is drawn for

TABLES: dict[str, tuple[str, dict, int]] = {
    # Every table the terminal draws: the preset, the options, your seat (its index) and a seed whose first
    # deal is bid (not thrown in), all by the basic bots.
    "2 players": ("official", {"players": 2}, 0),
    "3 players": ("official", {"players": 3}, 0),
    "4 players": ("pagat", {}, 2),
    "5 players": ("official", {"players": 5}, 0),
    "6 players": ("official", {"players": 6}, 0),
    "Heasly": ("official", {"heasly": True}, 3),  # cinch play --rules official -o heasly=true --seat 4
    "two decks": ("official", {"decks": 2, "no_draw": True}, 2),  # 18 cards in hand through the play
}

# S holds nine hearts: bid 14, hearts, and (pagat) bury three under the first card, or (keep-six) keep six.
NINE_HEARTS = table("W", S="AH KH QH JH TH 9H 8H 7H 6H", N="AS KS QS JS TS 9S 8S 7S 6S",
                    E="5S 4S 3S 2S AD KD QD JD TD", W="9D 8D 7D 6D 4D 3D 2D AC KC")


def table_test(test):
    """Run an ``async def`` test (the headless harness is asynchronous) without an asyncio plugin."""

    @functools.wraps(test)
    def run(*args, **kwargs):
        return asyncio.run(test(*args, **kwargs))

    return run


def make_app(preset: str = "pagat", *, seed: int = 5, options: dict | None = None, bots: str | tuple = "basic",
             seat: Seat = Seat.S, saver: Saver | None = None, game: Table | None = None,
             offer_resume: bool = False, resume_id: int | None = None, **settings) -> CinchApp:
    rules = Rules.preset(preset)
    if options:
        rules = rules.with_options(**options)
    names = (bots,) * 4 if isinstance(bots, str) else tuple(bots)
    setup = TableSetup(rules, seat, names, seed)  # type: ignore[arg-type]
    settings.setdefault("pause", 0)
    settings.setdefault("par", False)
    return CinchApp(setup, saver=saver, settings=Settings(**settings), offer_resume=offer_resume,
                    resume_id=resume_id, game=game)


def table_app(name: str, *, seed: int = 5, **settings) -> CinchApp:
    """The table ``name`` of :data:`TABLES`, dealt from ``seed``, basic bots in the other seats."""
    preset, options, seat = TABLES[name]
    rules = Rules.preset(preset).with_options(**options)
    setup = TableSetup.uniform(rules, seat=rules.seating.seats[seat], bots="basic", seed=seed)
    settings.setdefault("pause", 0)
    settings.setdefault("par", False)
    return CinchApp(setup, settings=Settings(**settings), offer_resume=False)


def dealt_game(preset: str, deck: str, dealer: Seat, *, seed: int = 1, options: dict | None = None) -> Table:
    """A match whose first deal is dealt from ``deck`` (the next ones from the seed)."""
    return dealt_table(preset, deck, dealer, seed=seed, options=options)


async def settle(pilot, limit: int = 5000) -> None:
    """Wait until the table waits for a key: no bot thinking, no hint or par being worked out."""
    app = pilot.app
    for _ in range(limit):
        await pilot.pause()
        if app.table.ready:
            return
        await app.workers.wait_for_complete()
    raise AssertionError("the table never settled")


async def press(pilot, *keys: str) -> None:
    for key in keys:
        await pilot.press(key)
        await settle(pilot)


def screen_text(app) -> str:
    """The whole screen as text, as a person reads it."""
    return "\n".join(strip.text.rstrip() for strip in app.screen._compositor.render_strips())


def region_text(app, widget) -> str:
    lines = screen_text(app).split("\n")
    r = widget.region
    return "\n".join(line[r.x:r.x + r.width] for line in lines[r.y:r.y + r.height])


def hand_text(app) -> str:
    return region_text(app, app.table.query_one(HandView))


def status(app) -> str:
    return region_text(app, app.table.query_one("#status"))


def prompt(app) -> str:
    return region_text(app, app.table.query_one("#prompt"))


def card_background(app, card) -> str | None:
    """The background colour of ``card``'s face in the hand as drawn (hex), or None if not shown."""
    widget = app.table.query_one(HandView)
    r = widget.region
    strips = app.screen._compositor.render_strips()
    for y in range(r.y, r.y + r.height):
        for segment in strips[y]:
            if segment.text.strip() == card.symbol and segment.style is not None and segment.style.bgcolor:
                return segment.style.bgcolor.triplet.hex if segment.style.bgcolor.triplet else None
    return None
