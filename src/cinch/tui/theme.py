"""The table's look: two Textual themes (green felt; a colour-blind-safe blue-grey) and the layout.

The stylesheet lives here as a string, not a ``.tcss`` file, so that it travels with the
Python package without any packaging data.
"""

from __future__ import annotations

from textual.theme import Theme

THEMES = (
    Theme(
        name="cinch", primary="#2f8f5b", secondary="#6fa8dc", accent="#ffc233", warning="#ffc233",
        error="#ff6b6b", success="#7bd88f", foreground="#e9efe6", background="#0d3b22", surface="#124a2c",
        panel="#1b5e3a", dark=True,
    ),
    Theme(
        name="cinch-cb", primary="#0072b2", secondary="#56b4e9", accent="#e69f00", warning="#e69f00",
        error="#e69f00", success="#56b4e9", foreground="#f0f0f0", background="#1b2530", surface="#223040",
        panel="#2c3e50", dark=True,
    ),
)

CSS = """
Screen { background: $background; }

#topbar { height: 1; width: 1fr; background: $panel; color: $foreground; padding: 0 1; }

#upper { height: 1fr; }
#felt { width: 1fr; height: 1fr; }
#across { height: auto; }
#across .seat { width: 1fr; }
#middle { height: 1fr; min-height: 5; }
.seat {
    border: round $panel;
    border-title-align: right;
    border-title-color: $accent;
    border-title-style: bold;
    padding: 0 1;
    color: $foreground;
    height: auto;
}
.seat.to-act { border: heavy $accent; }
#seat-left, #seat-right { height: 1fr; width: 13; padding: 0; }
#center { padding: 0 1; }

#side { width: 30%; min-width: 24; max-width: 44; border-left: vkey $panel; padding: 0 0 0 1; }
#info { height: auto; color: $foreground; }
#log { height: 1fr; background: $background; color: $text-muted; scrollbar-size-vertical: 1; }

#prompt { background: $surface; color: $foreground; }
#hand { background: $background; }
#status { height: auto; padding: 0 1; background: $surface; color: $accent; }

ModalScreen { align: center middle; background: $background 60%; }
.dialog {
    width: 76; max-width: 100%; height: auto; max-height: 100%;
    border: thick $accent; background: $surface; padding: 0 1;
}
.dialog .title { text-style: bold; color: $accent; height: 1; }
.dialog .keys { color: $text-muted; height: auto; }
.dialog VerticalScroll { height: auto; max-height: 80vh; }

#newmatch { align: center top; }
#newmatch-form {
    width: 78; max-width: 100%; height: auto; border: thick $accent; background: $surface; padding: 0 1;
}
#newmatch-form .row { height: 1; margin: 0 0 1 0; }
#newmatch-form .label { width: 24; height: 1; }
#newmatch-form Select, #newmatch-form Input { width: 1fr; }
#newmatch-error { color: $error; height: auto; }
#newmatch-buttons { height: 1; align: right middle; }
#newmatch-buttons Button { margin: 0 0 0 2; }

#settings-form .row { height: 1; margin: 0 0 1 0; width: 1fr; }
#settings-form .label { width: 30; height: 1; }
#settings-form Select { width: 1fr; }
"""
