"""The table's widgets on their own (cinch.tui.widgets)."""

from __future__ import annotations

from tablekit import region_text, table_test
from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from cinch.tui.widgets import EventLog


class Side(App):
    """The side panel's shape: a panel of varying height above the log."""

    CSS = "#info { height: auto; } #log { height: 1fr; }"

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("one line", id="info")
            yield EventLog(id="log", wrap=True, markup=False)


@table_test
async def test_the_log_keeps_its_newest_line_in_sight_when_the_panel_above_grows():
    app = Side()
    async with app.run_test(size=(40, 12)) as pilot:
        log = app.query_one(EventLog)
        for i in range(30):
            log.write(f"line {i}")
        await pilot.pause()
        assert "line 29" in region_text(app, log)
        # The table writes the log, then the panel above grows a line or two (a bid that wraps), and the
        # new height is laid out only later: the log shrinks after its write had scrolled to the end.
        log.write("the newest line")
        await pilot.pause()
        info = app.query_one("#info", Static)
        info.update("one line\ntwo lines\nthree lines", layout=False)
        await pilot.pause()
        info.refresh(layout=True)
        await pilot.pause()
        await pilot.pause()
        assert log.size.height == 9  # the log did shrink
        assert "the newest line" in region_text(app, log)
