"""The decision in front of the person at the table: what the cursor is on and what is marked.

Nothing here draws or talks to the match: :class:`Decision` is the state of one decision
(a bid, the trumps, a keep, a card, a burial) and the moves of the keys on it; the screen
turns keys into these calls and the table applies the action at the end.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from cinch.actions import TRUMPS, Action, Bid, Keep, Pass, Play
from cinch.cards import DECK_SIZE, Card, CardSet, Suit, own_copies
from cinch.keep import KeepOptions
from cinch.table.advice import Hint, cheapest_bury
from cinch.table.narrate import card_text, hand_order, view_trump
from cinch.table.session import answer_choices
from cinch.view import Phase, SeatView

SUIT_KEYS = {"s": Suit.SPADES, "h": Suit.HEARTS, "d": Suit.DIAMONDS, "c": Suit.CLUBS}


class Mode(StrEnum):
    """What the keys do now."""

    WAIT = "wait"  # not your turn
    BID = "bid"
    TRUMP = "trump"
    KEEP = "keep"  # a discard or the rob: cards are kept or thrown
    PLAY = "play"
    BURY = "bury"  # trick 1 above six cards: mark the cards buried under the one played
    OVER = "over"  # the match is over
    CLAIM = "claim"  # honour rule: you are asked to claim another seat's irregularity, or to waive it
    AHEAD = "ahead"  # honour rule (003): the table stopped before another player acts; you may act out of turn

    @property
    def deciding(self) -> bool:
        return self in _DECIDING

    @property
    def choosing_option(self) -> bool:
        """The choices are the options above the hand (bids, suits, claims), not cards."""
        return self in (Mode.BID, Mode.TRUMP, Mode.CLAIM)


_DECIDING = frozenset({Mode.BID, Mode.TRUMP, Mode.KEEP, Mode.PLAY, Mode.BURY, Mode.CLAIM})


@dataclass
class Decision:
    """One decision of the person, from its view: the options or cards offered, the cursor, the marks."""

    mode: Mode = Mode.WAIT
    key: Any = None  # which decision this is (a new key starts afresh)
    view: SeatView | None = None
    options: list[Action] = field(default_factory=list)  # the bids or the suits offered
    cards: list[Card] = field(default_factory=list)  # the cards the cursor may rest on
    cursor: int = 0
    keep_sel: int = 0  # the cards marked kept (a keep) or buried (a burial)
    bury_card: Card | None = None
    bury_sets: list[int] = field(default_factory=list)
    suggested: Action | None = None
    hint: Hint | None = None
    bid_buf: str = ""  # the digits of a bid typed so far
    refused: int | None = None  # a bid just refused: Enter waits for a choice (it would take the cursor's)
    card_buf: str = ""  # the digits of a card's number typed so far (hands of ten or more)

    def stop(self, mode: Mode = Mode.WAIT) -> None:
        self.mode = mode
        self.key = None

    def begin(self, view: SeatView, key: Any, suggest: Callable[[], Action]) -> None:
        """A decision for ``view`` (the same ``key`` again keeps the cursor and the marks)."""
        self.view = view
        if key == self.key and self.mode.deciding:
            return
        self.key = key
        self.hint = None
        self.bid_buf = ""
        self.refused = None
        self.card_buf = ""
        self.bury_card = None
        self.suggested = None
        legal = view.legal
        answers = answer_choices(view)
        if answers:  # asked about an irregularity (honour rule): the claims, then the waiver
            self.mode = Mode.CLAIM
            self.options = answers
            self.cursor = 0
        elif view.phase is Phase.BIDDING:
            self.mode = Mode.BID
            self.options = list(legal)
            self.cursor = next((i for i, a in enumerate(self.options) if isinstance(a, Pass)), 0)
        elif view.phase is Phase.TRUMP:
            self.mode = Mode.TRUMP
            self.options = list(TRUMPS)
            lengths = [len(view.hand & (s.mask | s.mask << DECK_SIZE)) for s in Suit]  # (both packs' cards)
            self.cursor = lengths.index(max(lengths))
        elif isinstance(legal, KeepOptions):
            self.mode = Mode.KEEP
            self.suggested = suggest()
            self.keep_sel = _own_keep(self.suggested, legal)
            self.cards = [c for c in self.keep_order() if (legal.pool & ~legal.must) >> c & 1]
            self.cursor = 0
        else:
            self.to_play()

    def to_play(self, card: Card | None = None) -> None:
        """Choosing the card to play (again, after a burial was abandoned), the cursor on ``card``."""
        view = self.view
        assert view is not None
        self.mode = Mode.PLAY
        # Two decks: a play names a card as it reads, so both copies held may be picked (the deal plays either).
        legal_cards = {a.card.printed for a in view.legal if isinstance(a, Play)}
        self.cards = [c for c in hand_order(view.hand, view_trump(view)) if c.printed in legal_cards]
        self.cursor = self.cards.index(card) if card in self.cards else 0
        self.bury_card = None

    # ---- what is on offer ------------------------------------------------------------------------------
    def keep_order(self) -> list[Card]:
        view = self.view
        assert view is not None
        trump = view_trump(view)  # the order the hand is drawn in (the bowers on top under all-hands Pedro)
        if view.phase is Phase.ROB:
            return hand_order(view.hand, trump) + hand_order(view.stock_seen, trump)
        return hand_order(view.hand, trump)

    @property
    def bury_due(self) -> bool:
        return self.mode is Mode.PLAY and self.view is not None and any(
            isinstance(a, Play) and a.bury for a in self.view.legal)

    @property
    def items(self) -> list[Any]:
        return self.options if self.mode.choosing_option else self.cards

    @property
    def under_cursor(self) -> Any:
        items = self.items
        return items[self.cursor] if items else None

    def chosen(self) -> Action | str:
        """The action Enter takes, or why it cannot be taken yet."""
        if self.mode.choosing_option:
            return self.options[self.cursor]
        if self.mode is Mode.KEEP:
            assert self.view is not None and isinstance(self.view.legal, KeepOptions)
            why = self.view.legal.violation(self.keep_sel)
            return f"Not yet: {why}." if why else Keep(CardSet(self.keep_sel))
        if self.mode is Mode.BURY:
            assert self.bury_card is not None
            return Play(self.bury_card, CardSet(self.keep_sel))
        return Play(self.cards[self.cursor])

    # ---- the moves of the keys -----------------------------------------------------------------------------
    def move(self, step: int) -> None:
        if self.items:
            self.cursor = (self.cursor + step) % len(self.items)
        self.typed_over()

    def move_end(self, last: bool) -> None:
        if self.items:
            self.cursor = len(self.items) - 1 if last else 0
        self.typed_over()

    def typed_over(self) -> None:
        """A choice made another way than by digits: the digits typed so far, and a refusal, are over."""
        self.bid_buf = self.card_buf = ""
        self.refused = None

    def toggle(self) -> bool:
        """Keep or throw (or bury) the card under the cursor; False where Space means nothing."""
        if self.mode in (Mode.KEEP, Mode.BURY) and self.cards:
            self.keep_sel ^= 1 << self.cards[self.cursor]
            return True
        return False

    def bid_digit(self, d: str) -> tuple[str, int | None]:
        """A digit typed while bidding: the message, and the amount refused (None if it was taken)."""
        amounts = {a.amount: i for i, a in enumerate(self.options) if isinstance(a, Bid)}

        def prefix(buf: str) -> bool:
            return any(str(n).startswith(buf) and str(n) != buf for n in amounts)

        for buf in ((self.bid_buf + d, d) if self.bid_buf else (d,)):
            n = int(buf)
            if n in amounts:
                self.cursor = amounts[n]
                self.bid_buf = buf if prefix(buf) else ""
                self.refused = None
                return f"Bid {n}: Enter bids" + (" (or type another digit)" if self.bid_buf else "") + ".", None
            if prefix(buf):
                self.bid_buf = buf
                return f"Bid {buf}…: type the next digit.", None
        n = int(self.bid_buf + d if self.bid_buf else d)
        self.bid_buf = ""
        self.refused = n  # the cursor stays where it was, and the next Enter does not take it unasked
        return "", n

    def take_refusal(self) -> int | None:
        """The bid refused just before this Enter, if any (the Enter after it only says what the next does)."""
        refused, self.refused = self.refused, None
        return refused

    def pick_pass(self) -> bool:
        self.typed_over()
        for i, a in enumerate(self.options):
            if isinstance(a, Pass):
                self.cursor = i
                return True
        return False

    def card_digit(self, d: str, held: int) -> tuple[int, bool]:
        """A digit typed to pick a card by its number: the number (``0`` alone is 10), and whether a
        second digit may follow it.  In a hand of ten or more, ``1`` picks card 1 and ``1`` ``2`` then
        card 12, as a bid's digits are typed.

        >>> d = Decision()
        >>> d.card_digit("1", held=18), d.card_digit("2", held=18), d.card_digit("7", held=18)
        ((1, True), (12, False), (7, False))
        >>> d.card_digit("1", held=9), d.card_digit("0", held=9)
        ((1, False), (10, False))
        """
        if self.card_buf and int(self.card_buf + d) <= held:
            n = int(self.card_buf + d)
        else:
            n = int(d) or 10
        more = n * 10 <= held
        self.card_buf = str(n) if more else ""
        return n, more

    def pick_number(self, n: int) -> Card | str:
        """The ``n``-th card of the hand as drawn: the card, if the cursor may rest on it, else the card
        to explain, or a message."""
        view = self.view
        assert view is not None
        hand = hand_order(view.hand, view_trump(view))  # numbered as drawn
        if not 1 <= n <= len(hand):
            return f"There is no card {n}: you hold {len(hand)}."
        card = hand[n - 1]
        if card in self.cards:
            self.cursor = self.cards.index(card)
        return card

    def jump_suit(self, suit: Suit) -> Card | str | None:
        """The cursor to the next card of ``suit`` (None when it moved); else the card held of that
        suit to explain, or a message."""
        view = self.view
        assert view is not None
        t = view.rules.trump_tables[view.trump] if view.trump is not None else None

        def effective(c: Card) -> int:
            return t.effective_suit[c] if t is not None else c.suit

        n = len(self.cards)
        for step in range(1, n + 1):
            i = (self.cursor + step) % n
            if effective(self.cards[i]) == suit:
                self.cursor = i
                return None
        pool = self.keep_order() if self.mode is Mode.KEEP else hand_order(view.hand, t)
        held = [c for c in pool if effective(c) == suit]
        if held:
            return held[0]
        what = "trumps" if view.trump == suit else suit.name.lower()
        return f"You hold no {what}."

    def take_suggestion(self) -> str | None:
        """Back to the hint's or the suggested hand (a keep): the message, or None if there is none."""
        choice = self.hint.action if self.hint is not None and isinstance(self.hint.action, Keep) else self.suggested
        if isinstance(choice, Keep):
            assert self.view is not None and isinstance(self.view.legal, KeepOptions)
            self.keep_sel = _own_keep(choice, self.view.legal)
            who = f"the {self.hint.bot} bot's" if choice is not self.suggested and self.hint else "the suggested"
            return f"Back to {who} hand: Enter keeps it."
        return None

    def start_bury(self, card: Card) -> Play | str:
        """Enter on a card that must take burials: the play if only one burial is legal, else the burial
        begins (the cheapest cards, or the hint's, marked) and its message."""
        view = self.view
        assert view is not None and view.trump is not None
        # Two decks: either copy held names the card; the burials are the legal plays', of the copy they play.
        plays = [a for a in view.legal if isinstance(a, Play) and a.card.printed == card.printed]
        card = plays[0].card if plays else card
        sets = sorted({int(p.bury) for p in plays})
        if len(sets) == 1:
            return plays[0]
        self.mode = Mode.BURY
        self.bury_card = card
        self.bury_sets = sets
        hinted = self.hint.action if self.hint is not None else None
        if isinstance(hinted, Play) and hinted.card.printed == card.printed and int(hinted.bury) in sets:
            self.keep_sel = int(hinted.bury)
        else:
            self.keep_sel = int(cheapest_bury(plays, view.rules.trump_tables[view.trump])[card].bury)
        union = 0
        for s in sets:
            union |= s
        self.cards = [c for c in hand_order(view.hand, view_trump(view)) if union >> c & 1]
        self.cursor = 0
        n = int(plays[0].bury).bit_count()
        return f"Now bury {n} card{'s' * (n != 1)} under {card_text(card, view_trump(view))}: the cheapest are marked."

    def show_hint(self, hint: Hint) -> str:
        """Take a hint: the cursor on its choice where it can go, and what to press."""
        self.hint = hint
        self.typed_over()  # the cursor is the hint's now: Enter takes it
        action = hint.action
        if self.mode.choosing_option and action in self.options:
            self.cursor = self.options.index(action)
            return ". Enter takes it."
        printed = [c.printed for c in self.cards]  # (a hint names a card as it reads: either copy)
        if self.mode is Mode.PLAY and isinstance(action, Play) and action.card.printed in printed:
            self.cursor = printed.index(action.card.printed)
            return ". Enter takes it."
        if self.mode is Mode.KEEP:
            return ". Press a to take it."
        return "."


def _own_keep(choice: Action | None, legal: KeepOptions) -> int:
    """The cards a suggested keep marks, each the copy the pool has (two decks: a suggestion may name the
    other pack's copy); with no keep, the cards that must be kept.

    >>> from cinch.cards import Card
    >>> ah = Card.parse("AH")
    >>> options = KeepOptions(pool=1 << ah.twin | 1 << 14, must=0, trumps=0, lo=1, hi=1)
    >>> _own_keep(Keep(CardSet([ah])), options) == 1 << ah.twin
    True
    """
    if not isinstance(choice, Keep):
        return legal.must
    if not choice.cards >> DECK_SIZE and not legal.pool >> DECK_SIZE:
        return int(choice.cards)  # one deck
    return int(CardSet(own_copies(choice.cards, legal.pool)))
