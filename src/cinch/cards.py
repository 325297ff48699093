"""Cards, suits, seats and card sets: the vocabulary of the table.

A :class:`Card` is a small int (0-51) so it can index tables directly, and a
set of cards is a 52-bit mask (:class:`CardSet`).  Index order is the
canonical display order: spades, hearts, diamonds, clubs, ace high to two low,
so iterating a mask from its lowest bit lists a hand the way it is written.

Two-deck Cinch (002) plays a second pack: its cards are 52-103, each the *twin*
of the card 52 below it, printed the same and equal to it in play
(docs/rule-readings.md, "Two decks").

>>> Card.parse("5h")
Card.parse('5H')
>>> str(CardSet.parse("2H AH 10s"))
'TS AH 2H'
>>> Suit.HEARTS.partner
Suit.DIAMONDS
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import Enum, IntEnum
from typing import NamedTuple

from cinch.errors import NotationError, quoted
from cinch.masks import bit_list as bit_list  # re-exported: compiled with the engine (cinch.native)

RANK_LETTERS = "AKQJT98765432"  # index within a suit: 0 = ace ... 12 = two
SUIT_LETTERS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")


def enum_repr(member: Enum) -> str:
    """``Seat.N`` rather than ``<Seat.N: 0>``: a repr that pastes back as Python."""
    return f"{type(member).__name__}.{member.name}"


class Suit(IntEnum):
    """The four suits, in the order the record format writes them."""

    __repr__ = enum_repr

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        return SUIT_LETTERS[self]

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def partner(self) -> Suit:
        """The other suit of the same colour: home of the left Pedro."""
        return SUITS[PARTNER_SUIT[self]]

    @property
    def mask(self) -> int:
        """All thirteen cards of the suit as printed (ignoring any trump)."""
        return SUIT_MASKS[self]

    def __str__(self) -> str:
        return self.letter

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit from a letter, a symbol or a word ("H", "♥", "hearts")."""
        t = text.strip().lower()
        for suit in cls:
            if t in (suit.letter.lower(), suit.symbol, SUIT_NAMES[suit], SUIT_NAMES[suit][:-1]):
                return suit
        raise NotationError(f"{quoted(text)} is not a suit; write one of S H D C, ♠ ♥ ♦ ♣ or a suit name")


PARTNER_SUIT = (3, 2, 1, 0)  # spades<->clubs, hearts<->diamonds
SUIT_MASKS = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))


class Card(int):
    """One card, an int from 0 to 51 (``suit * 13 + rank index``).

    Cards are interned: ``Card.parse("AS") is Card.parse("as")``.
    """

    __slots__ = ()

    def __new__(cls, index: int) -> Card:  # noqa: D102 - interning constructor
        return ALL_CARDS[index]

    @classmethod
    def _make(cls, index: int) -> Card:
        return int.__new__(cls, index)

    @classmethod
    def of(cls, rank: str, suit: Suit) -> Card:
        return ALL_CARDS[suit * 13 + RANK_LETTERS.index(rank)]

    @property
    def suit(self) -> Suit:
        """The printed suit (the left Pedro's trump membership is a rule, see TrumpTables)."""
        return SUITS[self % DECK_SIZE // 13]

    @property
    def twin(self) -> Card:
        """The same card of the other pack, in two-deck Cinch.

        >>> Card.parse("AH").twin, int(Card.parse("AH").twin)
        (Card.parse('AH'), 65)
        """
        return ALL_CARDS[(self + DECK_SIZE) % (2 * DECK_SIZE)]

    @property
    def printed(self) -> Card:
        """The first pack's card that this card prints as (itself, or its twin)."""
        return ALL_CARDS[self % DECK_SIZE]

    @property
    def rank(self) -> str:
        """Rank letter, ``A K Q J T 9 ... 2``."""
        return RANK_LETTERS[self % 13]

    @property
    def pips(self) -> int:
        """Rank as a number: 2..10, jack 11, queen 12, king 13, ace 14."""
        return 14 - self % 13

    @property
    def bit(self) -> int:
        return 1 << self

    @property
    def symbol(self) -> str:
        """Human form with the suit symbol, ``10♥``."""
        rank = "10" if self.rank == "T" else self.rank
        return rank + SUIT_SYMBOLS[self % DECK_SIZE // 13]

    def __str__(self) -> str:
        return RANK_LETTERS[self % 13] + SUIT_LETTERS[self % DECK_SIZE // 13]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card: ``AH``, ``ah``, ``10h``, ``T♥``, ``10♥``."""
        known = _CARD_TEXT.get(text)
        if known is not None:
            return known
        t = text.strip()
        if len(t) < 2:
            raise NotationError(f"{quoted(text)} is not a card; write rank then suit, as AH, 10S or T♥")
        rank_part, suit_part = t[:-1].upper(), t[-1]
        if rank_part == "10":
            rank_part = "T"
        if len(rank_part) != 1 or rank_part not in RANK_LETTERS:
            raise NotationError(
                f"{quoted(text)} is not a card: {quoted(t[:-1])} is not a rank (ranks are A K Q J T/10 9 8 7 6 5 4 3 2)"
            )
        try:
            suit = Suit.parse(suit_part)
        except NotationError:
            raise NotationError(
                f"{quoted(text)} is not a card: {quoted(suit_part)} is not a suit (suits are S H D C or ♠ ♥ ♦ ♣)"
            ) from None
        return cls.of(rank_part, suit)


DECK_SIZE = 52
ALL_CARDS: tuple[Card, ...] = tuple(Card._make(i) for i in range(2 * DECK_SIZE))
"""Every card by index, the second pack's too (two-deck Cinch)."""
CARDS: tuple[Card, ...] = ALL_CARDS[:DECK_SIZE]
"""The 52 cards of one pack, in index order."""
# Every spelling of every card the notation accepts, so reading a record is a lookup.
_CARD_TEXT: dict[str, Card] = {}
for _card in CARDS:
    _rank = RANK_LETTERS[_card % 13]
    for _r in {_rank, _rank.lower(), "10" if _rank == "T" else _rank}:
        for _s in (SUIT_LETTERS[_card // 13], SUIT_LETTERS[_card // 13].lower(), SUIT_SYMBOLS[_card // 13]):
            _CARD_TEXT[_r + _s] = _card
FULL_DECK_MASK = (1 << 52) - 1
TWO_DECK_MASK = (1 << 104) - 1


def deck_mask(decks: int) -> int:
    """Every card of one pack, or of two."""
    return TWO_DECK_MASK if decks == 2 else FULL_DECK_MASK


def fold(mask: int) -> int:
    """The printed cards of ``mask``: each twin of the second pack read as its first-pack card."""
    return (mask | mask >> DECK_SIZE) & FULL_DECK_MASK


def own_copies(cards: Iterable[int], pool: int) -> list[Card]:
    """``cards`` as named (by their text, so first-pack cards), each taken as the copy ``pool`` has:
    the card itself while the pool holds it, else its twin.  A card named twice is both copies.

    >>> pool = int(CardSet.parse("AH KH")) | 1 << Card.parse("AH").twin
    >>> [int(c) for c in own_copies([Card.parse("AH"), Card.parse("AH"), Card.parse("KH")], pool)]
    [13, 65, 14]
    """
    out = []
    for c in cards:
        if not pool >> c & 1:
            twin = (c + DECK_SIZE) % (2 * DECK_SIZE)
            if pool >> twin & 1:
                c = twin
        pool &= ~(1 << c)
        out.append(ALL_CARDS[c])
    return out


def bits(mask: int) -> Iterator[int]:
    """Indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


class CardSet(int):
    """An immutable set of cards stored as a 52-bit mask.

    >>> hand = CardSet.parse("AH 5D 2C")
    >>> Card.parse("5D") in hand, len(hand)
    (True, 3)
    >>> [str(c) for c in hand - CardSet.parse("2C")]
    ['AH', '5D']
    """

    __slots__ = ()

    def __new__(cls, cards: Iterable[int] | int = 0) -> CardSet:
        if isinstance(cards, int):
            return int.__new__(cls, cards)
        return int.__new__(cls, mask_of(cards))

    @classmethod
    def parse(cls, text: str, decks: int = 1) -> CardSet:
        """Read a space-separated list of cards; a card named twice is an error, unless two packs
        (``decks=2``) hold it: then the second is the twin.

        >>> len(CardSet.parse("AH AH", decks=2)), str(CardSet.parse("AH KH AH", decks=2))
        (2, 'AH AH KH')
        """
        m = 0
        for word in text.split():
            c = Card.parse(word)
            if m >> c & 1:
                if decks == 2 and not m >> c + DECK_SIZE & 1:
                    c = ALL_CARDS[c + DECK_SIZE]
                else:
                    written = "three times" if decks == 2 else "twice"
                    raise NotationError(f"card {c} is written {written} in {quoted(text)}")
            m |= 1 << c
        return cls(m)

    def __iter__(self) -> Iterator[Card]:
        m = int(self)
        if m >> DECK_SIZE:  # two packs: each twin beside its first-pack card, in display order
            yield from sorted((ALL_CARDS[c] for c in bits(m)), key=lambda c: c % DECK_SIZE)
            return
        while m:
            low = m & -m
            yield ALL_CARDS[low.bit_length() - 1]
            m ^= low

    def __len__(self) -> int:
        return int(self).bit_count()

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < 2 * DECK_SIZE and bool(int(self) >> card & 1)

    def __or__(self, other: int) -> CardSet:
        return CardSet(int(self) | int(other))

    def __and__(self, other: int) -> CardSet:
        return CardSet(int(self) & int(other))

    def __sub__(self, other: int) -> CardSet:
        return CardSet(int(self) & ~int(other))

    def __str__(self) -> str:
        return " ".join(str(c) for c in self)

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"

    def __reduce__(self) -> tuple[type[CardSet], tuple[int]]:
        return (CardSet, (int(self),))

    def symbols(self) -> str:
        return " ".join(c.symbol for c in self)


class Seat(IntEnum):
    """Seats clockwise; E sits at N's left, and partners sit opposite.

    >>> Seat.N.left, Seat.N.partner, Seat.E.team
    (Seat.E, Seat.S, Team.EW)
    """

    __repr__ = enum_repr

    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def left(self) -> Seat:
        """The next seat clockwise: the deal, the bidding and the play move this way."""
        return SEATS[(self + 1) & 3]

    @property
    def partner(self) -> Seat:
        return SEATS[(self + 2) & 3]

    @property
    def team(self) -> Team:
        return TEAMS[self & 1]

    def __str__(self) -> str:
        return self.name

    @classmethod
    def parse(cls, text: str) -> Seat:
        t = text.strip().upper()[:1]
        if t and t in "NESW":
            return cls("NESW".index(t))
        raise NotationError(f"{quoted(text)} is not a seat; seats are N E S W")


class Team(IntEnum):
    """The two partnerships."""

    __repr__ = enum_repr

    NS = 0
    EW = 1

    @property
    def other(self) -> Team:
        return TEAMS[1 - self]

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return (SEATS[self], SEATS[self + 2])

    def __str__(self) -> str:
        return self.name


SEATS: tuple[Seat, ...] = tuple(Seat)
SUITS: tuple[Suit, ...] = tuple(Suit)
TEAMS: tuple[Team, ...] = tuple(Team)


class FollowRule(NamedTuple):
    """What a trick's lead asks of the players after the leader: the one home of the follow rule.

    ``follow``: the cards that follow the lead; ``allowed``: what a player holding one of
    them may play (the followers, and under all-fours the trumps too).  A player holding
    no follower may play anything.  Built once per trump, lead and follow option
    (:meth:`TrumpTables.follow_rule`), so the play is mask arithmetic.

    >>> rule = TRUMP_TABLES[Suit.HEARTS].follow_rule(Suit.CLUBS)
    >>> str(CardSet(rule.playable(int(CardSet.parse("KC 5D 9S")))))
    '5D KC'
    >>> str(CardSet(rule.reveals_void(Card.parse("9S"))))
    'AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C'
    """

    follow: int
    allowed: int

    def playable(self, hand: int) -> int:
        """The cards of ``hand`` that may go to the trick."""
        return hand & self.allowed if hand & self.follow else hand

    def reveals_void(self, card: int) -> int:
        """The cards a player who played ``card`` to this trick cannot have held: the followers, when
        ``card`` is a card he could not have played holding one."""
        return 0 if self.allowed >> card & 1 else self.follow


class TrumpTables:
    """Everything about the cards that changes once a trump suit is named.

    Built once per suit (``TRUMP_TABLES[suit]``) so the play code is table lookups; the
    all-hands Pedro option plays by a second set, ``BOWER_TABLES`` (``Rules.trump_tables``
    gives the set of a rules value).

    ``left_pedro`` is the card of the same colour that the trump suit takes in: the 5 (the
    left Pedro), or with ``bowers`` the Jack (the left bower), which replaces it.

    >>> t = TRUMP_TABLES[Suit.HEARTS]
    >>> str(ALL_CARDS[t.left_pedro]), t.is_trump(Card.parse("5D"))
    ('5D', True)
    >>> b = BOWER_TABLES[Suit.HEARTS]
    >>> [str(ALL_CARDS[c]) for c in b.order[:4]], b.is_trump(Card.parse("5D")), b.is_trump(Card.parse("JD"))
    (['JH', 'JD', 'AH', 'KH'], False, True)
    """

    __slots__ = (
        "suit", "trumps", "right_pedro", "left_pedro", "power", "follow_masks",
        "effective_suit", "strength", "order", "follow_rules", "_base", "bowers", "right_bower", "left_bower",
        "decks",
    )

    def __init__(self, suit: Suit, bowers: bool = False, decks: int = 1):
        self.suit = suit
        self.bowers = bowers
        self.right_pedro = suit * 13 + RANK_LETTERS.index("5")
        self._base = suit * 13
        if bowers:
            # Euchre's bowers on top (the Jack of trumps, then the Jack of the same colour), then
            # A K Q 10 9 8 7 6 5 4 3 2; the 5 of the same colour is a plain card (docs/rule-readings.md).
            self.right_bower = suit * 13 + RANK_LETTERS.index("J")
            self.left_bower = self.left_pedro = PARTNER_SUIT[suit] * 13 + RANK_LETTERS.index("J")
            order = [self.right_bower, self.left_bower]
            order += [suit * 13 + i for i in range(13) if suit * 13 + i != self.right_bower]
        else:
            self.right_bower = self.left_bower = -1
            self.left_pedro = PARTNER_SUIT[suit] * 13 + RANK_LETTERS.index("5")
            # Trump order, high to low: A K Q J T 9 8 7 6 5(right) 5(left) 4 3 2.
            order = [suit * 13 + i for i in range(9)]  # A .. 6
            order += [self.right_pedro, self.left_pedro]
            order += [suit * 13 + i for i in range(10, 13)]  # 4 3 2
        self.decks = decks
        trumps = SUIT_MASKS[suit] | 1 << self.left_pedro
        self.order = tuple(order)
        power = [0] * 52
        for p, c in enumerate(reversed(order), start=1):
            power[c] = p  # the lowest trump = 1 ... the highest = 14
        eff = [c // 13 for c in range(52)]
        eff[self.left_pedro] = suit
        # Cards that "follow" a lead of each suit under this trump.
        follow_masks = [trumps if s == suit else SUIT_MASKS[s] & ~(1 << self.left_pedro) for s in range(4)]
        if decks == 2:  # a twin is its first-pack card in every table: equal in play (first played wins)
            power += power
            eff += eff
            trumps |= trumps << DECK_SIZE
            follow_masks = [m | m << DECK_SIZE for m in follow_masks]
        self.trumps = trumps
        self.power = tuple(power)
        self.effective_suit = tuple(eff)
        self.follow_masks = tuple(follow_masks)
        # follow_rules[strict][led]: the follow rule of a trick led in suit `led` (see FollowRule).
        self.follow_rules = tuple(
            tuple(self._follow_rule(led, bool(strict)) for led in range(4)) for strict in (False, True)
        )
        # strength[led][card]: what the card is worth in a trick led in suit `led`.
        self.strength = tuple(
            tuple(
                100 + power[c] if power[c] else (13 - c % 13 if eff[c] == led else 0)
                for c in range(len(power))
            )
            for led in range(4)
        )

    def _follow_rule(self, led: int, strict: bool) -> FollowRule:
        follow = self.follow_masks[led]
        if led == self.suit or strict:
            return FollowRule(follow, follow)  # a trump lead, or strict following: follow if you can
        return FollowRule(follow, follow | self.trumps)  # all-fours: follow suit or trump, as you like

    def follow_rule(self, led: int, strict: bool = False) -> FollowRule:
        """The follow rule of a trick led in suit ``led`` (``strict``: 002's strict following)."""
        return self.follow_rules[strict][led]

    def is_trump(self, card: int) -> bool:
        return bool(self.trumps >> card & 1)

    def role(self, card: int) -> str:
        """What the trump order calls ``card`` beyond its rank: ``"right Pedro"``, ``"left Pedro"``,
        ``"right bower"``, ``"left bower"``, or ``""``.

        >>> BOWER_TABLES[Suit.SPADES].role(Card.parse("JC")), TRUMP_TABLES[Suit.SPADES].role(Card.parse("5C"))
        ('left bower', 'left Pedro')
        """
        card %= DECK_SIZE
        if card == self.right_pedro:
            return "right Pedro"
        if card == self.right_bower:
            return "right bower"
        if card == self.left_pedro:
            return "left bower" if self.bowers else "left Pedro"
        return ""

    # The trump suit's cards lie ace first at bits base .. base + 12; the left Pedro ranks just below
    # the right one (base + 9). So the highest and lowest trump of a set are a few bit operations,
    # which the playouts' scoring of relative High and Low relies on.  (BowerTables: the bowers on top.)
    def highest(self, cards: int) -> int:
        """The highest trump among ``cards`` (-1 if none): ``order``'s first that is there."""
        suit = cards >> self._base & 0x1FFF
        if cards >> self.left_pedro & 1 and not suit & 0x3FF:  # nothing from the ace to the right Pedro
            return self.left_pedro
        return self._base + (suit & -suit).bit_length() - 1 if suit else -1

    def lowest(self, cards: int) -> int:
        """The lowest trump among ``cards`` (-1 if none): ``order``'s last that is there."""
        suit = cards >> self._base & 0x1FFF
        if cards >> self.left_pedro & 1 and not suit & 0x1C00:  # none of the 4, 3, 2
            return self.left_pedro
        return self._base + suit.bit_length() - 1 if suit else -1

    def sort_key(self, card: int) -> tuple[int, int]:
        """Trumps first, high to low, then the plain suits in display order."""
        if self.power[card]:
            return (0, -self.power[card])
        return (1 + self.effective_suit[card], card % DECK_SIZE)


class BowerTables(TrumpTables):
    """The trump tables of all-hands Pedro: the Jack of trumps (right bower) and the Jack of the same
    colour (left bower) above the ace.  Its own class, so that the default tables' ``highest`` and
    ``lowest`` ask nothing about bowers on the playouts' hot path.

    >>> b = BOWER_TABLES[Suit.HEARTS]
    >>> [str(ALL_CARDS[b.highest(int(CardSet.parse(h)))]) for h in ("AH JD", "AH 2H JD JH", "KH")]
    ['JD', 'JH', 'KH']
    >>> [str(ALL_CARDS[b.lowest(int(CardSet.parse(h)))]) for h in ("AH JD", "JD JH", "JH 5D")]
    ['AH', 'JD', 'JH']
    """

    __slots__ = ()

    def __init__(self, suit: Suit):
        super().__init__(suit, bowers=True)

    def highest(self, cards: int) -> int:
        if cards >> self.right_bower & 1:
            return self.right_bower
        if cards >> self.left_bower & 1:
            return self.left_bower
        suit = cards >> self._base & 0x1FFF  # the Jack's bit is clear: the right bower was not there
        return self._base + (suit & -suit).bit_length() - 1 if suit else -1

    def lowest(self, cards: int) -> int:
        suit = cards >> self._base & 0x1FFF & ~(1 << 3)  # the suit without its Jack, the right bower
        if suit:
            return self._base + suit.bit_length() - 1
        if cards >> self.left_bower & 1:
            return self.left_bower
        return self.right_bower if cards >> self.right_bower & 1 else -1


class TwoDeckTables(TrumpTables):
    """The trump tables of two-deck Cinch (002): every table covers both packs, a twin as its
    first-pack card.  ``highest`` and ``lowest`` answer with the first pack's card; whether one
    copy or both are among the cards is the caller's question.

    >>> t = TWO_DECK_TABLES[Suit.HEARTS]
    >>> ah, twin = Card.parse("AH"), Card.parse("AH").twin
    >>> t.strength[Suit.HEARTS][ah] == t.strength[Suit.HEARTS][twin], t.is_trump(Card.parse("5D").twin)
    (True, True)
    >>> str(ALL_CARDS[t.highest(1 << twin | int(CardSet.parse("KH")))])
    'AH'
    """

    __slots__ = ("_one",)

    def __init__(self, suit: Suit, bowers: bool = False):
        super().__init__(suit, bowers, decks=2)
        self._one: TrumpTables = (BOWER_TABLES if bowers else TRUMP_TABLES)[suit]

    def highest(self, cards: int) -> int:
        return self._one.highest(fold(cards))

    def lowest(self, cards: int) -> int:
        return self._one.lowest(fold(cards))


TRUMP_TABLES: tuple[TrumpTables, ...] = tuple(TrumpTables(s) for s in Suit)
BOWER_TABLES: tuple[TrumpTables, ...] = tuple(BowerTables(s) for s in Suit)
"""The trump tables of all-hands Pedro, by trump suit (``Rules.trump_tables`` picks the set)."""
TWO_DECK_TABLES: tuple[TrumpTables, ...] = tuple(TwoDeckTables(s) for s in Suit)
TWO_DECK_BOWER_TABLES: tuple[TrumpTables, ...] = tuple(TwoDeckTables(s, bowers=True) for s in Suit)


def trump_tables(bowers: bool, decks: int = 1) -> tuple[TrumpTables, ...]:
    """The trump tables by suit: with or without bowers, for one pack or two."""
    if decks == 2:
        return TWO_DECK_BOWER_TABLES if bowers else TWO_DECK_TABLES
    return BOWER_TABLES if bowers else TRUMP_TABLES
