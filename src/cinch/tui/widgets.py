"""The pieces of the table: the hand, the choices, the trick in the middle, the seats."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.widget import Widget
from textual.widgets import RichLog

from cinch.cards import Card, Seat
from cinch.table.narrate import Trump
from cinch.tui.render import CARD_HEIGHT, CARD_WIDTH, PALETTES, Palette, card_lines


def palette_of(widget: Widget) -> Palette:
    return getattr(widget.app, "palette", PALETTES["classic"])


# ---- the hand -----------------------------------------------------------------------------------------
@dataclass
class HandModel:
    """What the hand shows: groups of cards (a title each), the cursor and the marks."""

    groups: list[tuple[str, list[Card]]] = field(default_factory=list)
    trump: Trump | None = None
    cursor: int | None = None  # the card under the cursor
    dim: frozenset[int] = frozenset()  # greyed: cannot be picked now
    marks: dict[int, str] = field(default_factory=dict)  # ✓ kept, ✗ thrown
    labels: dict[int, str] = field(default_factory=dict)  # the key that picks the card, shown above it
    empty: str = "no cards"


ROW_HEIGHT = CARD_HEIGHT + 1  # a line for the labels, then the cards
GAP = 1
GROUP_GAP = 3
STEPS = (CARD_WIDTH + GAP, CARD_WIDTH, CARD_WIDTH - 1)
"""From one card to the next: apart, side by side, or overlapping by a frame (a fan).  A long hand (two
decks: 18 cards) tightens before it takes a second row; each card still shows its rank, suit and marks."""

Row = list[tuple[int, Card, str, bool]]
"""A row of the hand: (x, card, the title over it, whether it is drawn whole: the last of its group)."""


class HandView(Widget):
    """Your cards, drawn; a click on a card posts :class:`HandView.Clicked`."""

    DEFAULT_CSS = """
    HandView { height: auto; width: 1fr; padding: 0 1; }
    """

    class Clicked(Message):
        def __init__(self, card: Card) -> None:
            super().__init__()
            self.card = card

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.model = HandModel()
        self._boxes: list[tuple[int, int, int, int, Card]] = []

    def show(self, model: HandModel) -> None:
        if model == self.model:
            return
        width = max(self.size.width, CARD_WIDTH)
        relayout = len(self._layout(width)[0]) != len(self._layout_of(model, width)[0])
        self.model = model
        self.refresh(layout=relayout)

    def _layout_of(self, model: HandModel, width: int) -> tuple[list[Row], int]:
        old, self.model = self.model, model
        try:
            return self._layout(width)
        finally:
            self.model = old

    def _layout(self, width: int) -> tuple[list[Row], int]:
        """The rows and the step from card to card: the widest step that fits the cards in one row, else
        the tightest, over as many rows as it takes."""
        for step in STEPS:
            rows = self._rows(width, step)
            if len(rows) <= 1:
                break
        return rows, step

    def _rows(self, width: int, step: int) -> list[Row]:
        rows: list[Row] = [[]]
        x = 0
        for g, (title, cards) in enumerate(self.model.groups):
            if g and rows[-1]:
                x = rows[-1][-1][0] + CARD_WIDTH + GROUP_GAP
            first = True
            for i, card in enumerate(cards):
                if rows[-1] and x + CARD_WIDTH > width:
                    x0, last, t, _ = rows[-1][-1]
                    rows[-1][-1] = (x0, last, t, True)  # the end of a row is drawn whole
                    rows.append([])
                    x = 0
                    first = True
                rows[-1].append((x, card, title if first else "", i == len(cards) - 1))
                first = False
                x += step
        return rows if rows[-1] else rows[:-1]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return max(1, len(self._layout(max(width, CARD_WIDTH))[0])) * ROW_HEIGHT

    def render(self) -> Text:
        model = self.model
        palette = palette_of(self)
        width = max(self.size.width, CARD_WIDTH)
        rows, step = self._layout(width)
        self._boxes = []
        if not rows:
            return Text(model.empty, style=palette.muted)
        lines: list[Text] = []
        for r, row in enumerate(rows):
            label = [" "] * width
            for x, card, title, _ in row:
                if title:
                    for i, ch in enumerate(title[: width - x]):
                        label[x + i] = ch
                elif card in model.labels:
                    text = model.labels[card]
                    start = x + (min(step, CARD_WIDTH) - len(text)) // 2
                    for i, ch in enumerate(text):
                        if 0 <= start + i < width:
                            label[start + i] = ch
            lines.append(Text("".join(label).rstrip(), style=f"bold {palette.felt_text}"))
            drawn = [Text() for _ in range(CARD_HEIGHT)]
            col = 0
            for x, card, _, whole in row:
                cursor = card == model.cursor
                parts = card_lines(card, model.trump, palette, cursor=cursor,
                                   dim=card in model.dim, mark=model.marks.get(card, " "))
                # In a fan a card shows its left part, under the next one; the one under the cursor is
                # drawn whole, over the next one's left frame.
                lo = max(0, col - x)
                hi = CARD_WIDTH if whole or cursor else min(step, CARD_WIDTH)
                for i in range(CARD_HEIGHT):
                    drawn[i].append(" " * max(0, x - col))
                    drawn[i].append_text(parts[i][lo:hi])
                col = x + hi
                self._boxes.append((x + lo, r * ROW_HEIGHT, x + hi, (r + 1) * ROW_HEIGHT, card))
            lines.extend(drawn)
        out = Text("\n").join(lines)
        out.no_wrap = True
        out.overflow = "crop"
        return out

    def card_at(self, x: int, y: int) -> Card | None:
        for x0, y0, x1, y1, card in self._boxes:
            if x0 <= x < x1 and y0 <= y < y1:
                return card
        return None

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        card = self.card_at(offset.x, offset.y)
        if card is not None:
            event.stop()
            self.post_message(self.Clicked(card))


# ---- the prompt and the choices ----------------------------------------------------------------------------
@dataclass
class PromptModel:
    """The decision in front of you: one line of words, then the choices (bids, suits) if any."""

    prompt: Text | str = ""
    options: list[tuple[Any, str]] = field(default_factory=list)  # (key, label)
    cursor: Any = None
    note: Text | str = ""


class PromptBar(Widget):
    """What to do now, and the choices to pick from; a click on a choice posts :class:`PromptBar.Clicked`."""

    DEFAULT_CSS = """
    PromptBar { height: auto; width: 1fr; padding: 0 1; }
    """

    class Clicked(Message):
        def __init__(self, key: Any) -> None:
            super().__init__()
            self.key = key

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.model = PromptModel()
        self._boxes: list[tuple[int, int, int, Any]] = []

    def show(self, model: PromptModel) -> None:
        if model == self.model:
            return
        width = max(self.size.width, 8)
        old_height = self.get_content_height(self.size, self.size, width)
        self.model = model
        self.refresh(layout=self.get_content_height(self.size, self.size, width) != old_height)

    def _option_rows(self, width: int) -> list[list[tuple[int, Any, str]]]:
        rows: list[list[tuple[int, Any, str]]] = [[]]
        x = 0
        for key, label in self.model.options:
            cell = len(label) + 2
            if rows[-1] and x + cell > width:
                rows.append([])
                x = 0
            rows[-1].append((x, key, label))
            x += cell + 1
        return rows if rows[-1] else []

    def _wrapped(self, text: Text | str, width: int) -> list[Text]:
        """``text``'s lines, each wrapped at spaces to the width: the words are never cut."""
        if not text:
            return []
        text = text if isinstance(text, Text) else Text(text)
        lines: list[Text] = []
        for line in text.split("\n"):
            lines.extend(line.wrap(self.app.console, width, overflow="fold") if self.is_attached else [line])
        return lines

    def _prompt_lines(self, width: int) -> list[Text]:
        """What to do now, wrapped (at least one line, so the bar keeps its place)."""
        return self._wrapped(self.model.prompt, width) or [Text()]

    def _note_lines(self, width: int) -> list[Text]:
        """The note below the choices, wrapped (a keep's rule with two decks names many cards)."""
        return self._wrapped(self.model.note, width)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        width = max(width, 8)
        return len(self._prompt_lines(width)) + len(self._option_rows(width)) + len(self._note_lines(width))

    def render(self) -> Text:
        palette = palette_of(self)
        model = self.model
        width = max(self.size.width, 8)
        lines = self._prompt_lines(width)
        top = len(lines)
        self._boxes = []
        for r, row in enumerate(self._option_rows(width)):
            line = Text()
            for x, key, label in row:
                line.append(" " * (x - line.cell_len))
                if key == model.cursor:
                    line.append(f"[{label}]", style=f"bold reverse {palette.cursor}")
                else:
                    line.append(f" {label} ", style=f"bold {palette.felt_text} on {palette.dim_frame}")
                self._boxes.append((x, x + len(label) + 2, top + r, key))
            lines.append(line)
        lines.extend(self._note_lines(width))
        out = Text("\n").join(lines)
        out.no_wrap = True
        out.overflow = "ellipsis"
        return out

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        for x0, x1, y, key in self._boxes:
            if y == offset.y and x0 <= offset.x < x1:
                event.stop()
                self.post_message(self.Clicked(key))
                return


# ---- the middle of the table -------------------------------------------------------------------------------
@dataclass
class CenterModel:
    title: Text | str = ""
    slots: dict[str, Text] = field(default_factory=dict)  # by Position: "top", "left", "top-left", ...
    footer: Text | str = ""


class TrickView(Widget):
    """The trick (or the bids, or the draw) in front of each seat, and a line above and below.

    Each seat's card lies on the side of the felt where the seat sits: the seats across the top
    (one, two or three) on a row above the middle, left and right on the middle row, yours below.
    """

    DEFAULT_CSS = """
    TrickView { width: 1fr; height: 1fr; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.model = CenterModel()

    def show(self, model: CenterModel) -> None:
        if model != self.model:
            self.model = model
            self.refresh()

    def render(self) -> Text:
        model = self.model
        w, h = max(self.size.width, 10), max(self.size.height, 5)
        rows = [Text() for _ in range(h)]

        def put(y: int, x: int, text: Text) -> None:
            y = min(max(y, 0), h - 1)
            row = rows[y]
            x = max(0, min(x, w - text.cell_len))
            if row.cell_len < x:
                row.append(" " * (x - row.cell_len))
            rows[y] = row[:x] + text if row.cell_len > x else row + text

        def centered(text: Text | str) -> Text:
            t = text.copy() if isinstance(text, Text) else Text(text)
            t.truncate(w, overflow="ellipsis")
            return Text(" " * max(0, (w - t.cell_len) // 2)) + t

        rows[0] = centered(model.title)
        mid = h // 2
        spread = 2 if h >= 8 else 1
        places: list[tuple[int, int, Text]] = []
        for where, text in model.slots.items():
            y = mid - spread if where.startswith("top") else mid + spread if where == "bottom" else mid
            if where.endswith("left"):
                x = 1
            elif where.endswith("right"):
                x = w - text.cell_len - 1
            else:
                x = (w - text.cell_len) // 2
            places.append((y, x, text))
        for y, x, text in sorted(places, key=lambda p: (p[0], p[1])):  # left to right: a put cuts what follows
            put(y, x, text)
        if model.footer and h > 2:
            rows[h - 1] = centered(model.footer)
        out = Text("\n").join(rows)
        out.no_wrap = True
        out.overflow = "crop"
        return out


# ---- the seats and the top line ----------------------------------------------------------------------------
SEPARATOR = " · "


def pack(items: list[Text], width: int) -> list[Text]:
    """``items`` on as few lines as they fill, in order, ``·`` between two on a line.

    >>> [t.plain for t in pack([Text("W opponent"), Text("heuristic"), Text("9 cards")], 20)]
    ['W opponent', 'heuristic · 9 cards']
    """
    lines: list[Text] = []
    for item in items:
        if lines and lines[-1].cell_len + len(SEPARATOR) + item.cell_len <= width:
            lines[-1].append(SEPARATOR)
            lines[-1].append_text(item)
        else:
            lines.append(Text().append_text(item))  # (a line of its own style: an item's is its own)
    return lines


def fit(forms: list[list[Text]], width: int, height: int) -> list[Text]:
    """The lines of the first form that fits ``width`` by ``height``: its items one a line where
    they fit so, else packed; the last form packed (and cut by the box) when none fits.

    >>> forms = [[Text("W opponent"), Text("heuristic"), Text("9 cards"), Text("bid 7")],
    ...          [Text("W heuristic"), Text("9 cards"), Text("bid 7")]]
    >>> [t.plain for t in fit(forms, 11, 4)], [t.plain for t in fit(forms, 11, 3)]
    (['W opponent', 'heuristic', '9 cards', 'bid 7'], ['W heuristic', '9 cards', 'bid 7'])
    >>> [t.plain for t in fit(forms, 40, 1)]
    ['W opponent · heuristic · 9 cards · bid 7']
    """
    for form in forms:
        for lines in (form, pack(form, width)):
            if len(lines) <= height and all(line.cell_len <= width for line in lines):
                return list(lines)
    return pack(forms[-1], width) if forms else []


@dataclass
class SeatModel:
    """A seat's box: its words in forms, most said first (each a list of items: who sits there, the
    kind of player, the cards held, the bid, the turn), the badge on its frame, whether it is to act."""

    forms: list[list[Text]] = field(default_factory=list)
    badge: Text | str = ""  # "dealer"
    to_act: bool = False


class SeatPanel(Widget):
    """One seat, in a box: the first of its forms that fits (:func:`fit`), the dealer's badge on the
    top of the frame, a heavy frame while it is that seat's turn.

    A box of the height it needs takes at most ``lines`` lines (more only when no form fits), and
    with ``fill`` always that many, so that boxes side by side stay the same height.
    """

    DEFAULT_CSS = """
    SeatPanel { height: auto; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.model = SeatModel()
        self.lines = 1
        self.fill = False

    def shape(self, lines: int, fill: bool) -> None:
        if (lines, fill) != (self.lines, self.fill):
            self.lines, self.fill = lines, fill
            self.refresh(layout=True)

    def show(self, model: SeatModel) -> None:
        if model == self.model:
            return
        width = max(self.size.width, 1)
        old_height = self._height_at(width)
        self.model = model
        self.border_title = model.badge or None
        self.set_class(model.to_act, "to-act")
        self.refresh(layout=self._height_at(width) != old_height)

    def _height_at(self, width: int) -> int:
        if self.fill:
            return self.lines
        return max(1, len(fit(self.model.forms, width, self.lines)))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self._height_at(max(width, 1))

    def render(self) -> Text:
        width, height = max(self.size.width, 1), max(self.size.height, 1)
        out = Text("\n").join(fit(self.model.forms, width, height))
        out.no_wrap = True
        out.overflow = "ellipsis"
        return out


class TopBar(Widget):
    """The line on top: the first of its forms that fits the width, ``keep`` always at its end (the
    target: the longest form is cut before it, never it)."""

    DEFAULT_CSS = """
    TopBar { height: 1; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.forms: list[Text] = []
        self.keep = Text()

    def show(self, forms: list[Text], keep: Text) -> None:
        if (forms, keep) != (self.forms, self.keep):
            self.forms, self.keep = forms, keep
            self.refresh()

    def render(self) -> Text:
        width = max(self.size.width, 1)
        room = width - self.keep.cell_len
        body = next((f for f in self.forms if f.cell_len <= room), None)
        if body is None:
            body = self.forms[-1].copy() if self.forms else Text()
            body.truncate(max(room, 1), overflow="ellipsis")
        out = body + self.keep
        out.no_wrap = True
        out.overflow = "ellipsis"
        return out


class EventLog(RichLog, can_focus=False):
    """What happened, line by line, from your seat; the newest line always in sight."""

    def on_resize(self, event: events.Resize) -> None:
        # The side panel above it grows and shrinks with the deal: a write scrolled to the end of the
        # old height, so scroll again, or the newest lines hide below the new one.
        self.scroll_end(animate=False, immediate=True)


class Position:
    """Where a seat sits on the screen, seen from ``me`` (at the bottom), clockwise round the table.

    At four the partner sits on top and the opponents left and right.  Two sit across; three
    left and right; five one on each side and two across the top (``top-left``, ``top-right``);
    six the same with one more across (``top``).  Each position is a box of its own.

    >>> from cinch.seating import seating
    >>> [Position.of(s, seating(6).seats[0], 6) for s in seating(6).seats]
    ['bottom', 'left', 'top-left', 'top', 'top-right', 'right']
    """

    BY_PLAYERS: dict[int, tuple[str, ...]] = {
        2: ("bottom", "top"),
        3: ("bottom", "left", "right"),
        4: ("bottom", "left", "top", "right"),
        5: ("bottom", "left", "top-left", "top-right", "right"),
        6: ("bottom", "left", "top-left", "top", "top-right", "right"),
    }
    ALL = ("top-left", "top", "top-right", "left", "right", "bottom")
    ACROSS = ("top-left", "top", "top-right")  # the row of boxes across the top

    @staticmethod
    def of(seat: Seat, me: Seat, players: int = 4) -> str:
        return Position.BY_PLAYERS[players][(seat - me) % players]
