"""The card table in the terminal: ``cinch play`` (Textual).

>>> from cinch.tui.widgets import Position
>>> from cinch.cards import Seat
>>> [Position.of(s, Seat.S) for s in Seat]
['top', 'right', 'bottom', 'left']
"""

from cinch.tui.game import TableSetup

__all__ = ["TableSetup", "CinchApp", "run"]


def __getattr__(name: str):
    # The Textual app loads on first use, so importing the package stays cheap.
    if name in ("CinchApp", "run"):
        from cinch.tui import app

        return getattr(app, name)
    raise AttributeError(name)
