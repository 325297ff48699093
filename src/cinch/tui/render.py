"""How cards look at the table: colours per theme, one-line chips and drawn cards.

Colour is never the only cue: every card shows its suit symbol (four shapes), a trump
has a ``*``, the card under the cursor has a heavy frame, a card that cannot be picked
is greyed (a change of brightness, not of hue), and a card to keep has a tick.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text

from cinch.cards import DECK_SIZE, Card
from cinch.table.narrate import Trump, tables_of


@dataclass(frozen=True)
class Palette:
    name: str
    label: str
    theme: str  # the Textual theme that goes with it
    suits: tuple[str, str, str, str]  # ink of spades, hearts, diamonds, clubs
    face: str  # a card's face
    dim_face: str  # a card that cannot be picked
    dim_ink: str
    frame: str  # the frame of a card that can be picked
    dim_frame: str
    cursor: str  # the frame of the card under the cursor
    felt_text: str
    muted: str
    mine: str  # your side's colour in scores
    theirs: str


PALETTES: dict[str, Palette] = {
    "classic": Palette(
        name="classic", label="classic (red and black)", theme="cinch",
        suits=("#151515", "#c4132c", "#c4132c", "#151515"),
        face="#f4f0e4", dim_face="#8c897f", dim_ink="#45433d",
        frame="#f4f0e4", dim_frame="#5f7a66", cursor="#ffc233",
        felt_text="#e9efe6", muted="#9fb8a5", mine="#ffd36b", theirs="#bcd7ff",
    ),
    "colour-blind": Palette(
        # Okabe-Ito colours: four suits that stay apart for every common colour vision.
        name="colour-blind", label="colour-blind safe (four colours)", theme="cinch-cb",
        suits=("#000000", "#b34700", "#005a9c", "#006b4f"),
        face="#ffffff", dim_face="#8f8f8f", dim_ink="#3a3a3a",
        frame="#ffffff", dim_frame="#5d6b78", cursor="#56b4e9",
        felt_text="#f0f0f0", muted="#a9b6c2", mine="#e69f00", theirs="#56b4e9",
    ),
}
THEME_ORDER = ("classic", "colour-blind")


def ink(card: int, palette: Palette) -> str:
    return palette.suits[Card(card).suit]


def is_trump(card: int, trump: Trump | None) -> bool:
    """Whether ``card`` is a trump: ``trump`` a suit, or the deal's tables (which know the bowers)."""
    return trump is not None and tables_of(trump).is_trump(card % DECK_SIZE)  # (a twin is a trump as its card is)


def rank_text(card: int) -> str:
    """``A♥``, ``10♥``: rank and suit symbol."""
    return Card(card).symbol


def chip(card: int, trump: Trump | None, palette: Palette, *, dim: bool = False) -> Text:
    """A card on one line, four cells: `` A♥*``, ``10♥ ``."""
    body = f"{rank_text(card):>3}{'*' if is_trump(card, trump) else ' '}"
    if dim:
        return Text(body, style=f"{palette.dim_ink} on {palette.dim_face}")
    return Text(body, style=f"bold {ink(card, palette)} on {palette.face}")


def chips(cards, trump: Trump | None, palette: Palette, sep: str = " ") -> Text:
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(sep)
        out.append_text(chip(c, trump, palette))
    return out


CARD_WIDTH = 5
CARD_HEIGHT = 4


def card_lines(card: int, trump: Trump | None, palette: Palette, *, cursor: bool = False, dim: bool = False,
               mark: str = " ") -> list[Text]:
    """A drawn card, five cells by four lines::

        ╭───╮
        │10♥│
        │✓ *│
        ╰───╯

    ``cursor``: a heavy frame; ``dim``: greyed (cannot be picked); ``mark``: the first cell of
    the bottom line (``✓`` kept, ``✗`` thrown).
    """
    if cursor:
        top, side, bottom = "┏━━━┓", "┃", "┗━━━┛"
        frame = f"bold {palette.cursor}"
    else:
        top, side, bottom = "╭───╮", "│", "╰───╯"
        frame = palette.dim_frame if dim else palette.frame
    face = palette.dim_face if dim else palette.face
    color = palette.dim_ink if dim else ink(card, palette)
    weight = "" if dim else "bold "
    rank = f"{rank_text(card):<3}"
    marks = f"{mark[:1]:1} {'*' if is_trump(card, trump) else ' '}"
    lines = [Text(top, style=frame)]
    for body in (rank, marks):
        line = Text(side, style=frame)
        line.append(body, style=f"{weight}{color} on {face}")
        line.append(side, style=frame)
        lines.append(line)
    lines.append(Text(bottom, style=frame))
    return lines
