"""A shuffle anyone can check: commit to a deck before the deal, reveal how it was made after.

The server draws a secret ``salt``; each seat's client contributes an ``entropy`` string.  The deck
follows from the salt, the entropy and the deal's number by SHA-256 alone, so any program (a browser
too) can derive it again.  Before the first bid the server publishes the ``commitment``, a hash of the
deck and the salt; when the deal ends it reveals the salt, and a player checks that the commitment,
the deck and the entropy he sent all agree (:meth:`Shuffle.verify`).  The derivation, step by step
(docs/record-format.md, "Verifiable shuffles", says the same):

1. ``seed = SHA-256(UTF-8 of "cinch/1 shuffle\\n" + salt + "\\n" + N + "\\n" + E + "\\n" + S + "\\n"
   + W + "\\n" + str(number))``, 32 bytes; N E S W are the seats' entropy strings, ``number`` the
   deal's number in its match (1 for the first deal) in decimal.  A cut-throat table (2, 3, 5 or 6
   players) writes its seats' entropy in the same way, seat ``1`` to seat ``n`` in that order.
2. The stream of a label L (the ASCII string ``deck`` or ``restock``) is the concatenation of the
   blocks ``SHA-256(seed + L + i)``, i = 0, 1, 2, ... as an 8-byte big-endian integer, read 4 bytes
   at a time as unsigned 32-bit big-endian integers.
3. ``uniform(n)``, a number from 0 to n - 1: read r; if r >= 2**32 - (2**32 mod n), read again;
   return r mod n.
4. Fisher-Yates: from the cards in canonical order (the engine's card ids 0 to 51: spades, hearts,
   diamonds, clubs, each from ace to two: ``AS KS QS JS TS 9S ... 2S AH ... 2H AD ... 2D AC ... 2C``;
   a card there twice, as in two-deck Cinch, twice in a row: ``AS AS KS KS ...``), for i from
   len - 1 down to 1: j = uniform(i + 1), swap a[i] and a[j].
5. The deck is the whole pack (both packs, 104 cards, with ``decks=2``) shuffled with the stream
   ``deck``, top card (the first dealt) first.  A new stock (``restock``) is the cards of the pool in
   canonical order shuffled with the stream ``restock``, top first.
6. ``commitment = hex(SHA-256(UTF-8 of "cinch/1 commitment\\n" + deck + "\\n" + salt))`` in lower
   case, ``deck`` written as in a record: two-character cards separated by single spaces.

Only the cards' text matters, so another program needs no idea of which pack a card came from: of
two copies, the one dealt first is the first pack's (as a record reader takes it).

>>> s = Shuffle("00112233445566778899aabbccddeeff", ("", "", "", ""), 1)
>>> " ".join(str(c) for c in s.deck()[:6])
'TD 9D AC 4H QD JD'
>>> s.commitment[:16]
'80064df66aa8a460'
>>> s.verify(s.deck())
>>> Shuffle.from_json(s.to_json(), 1) == s
True
>>> two = Shuffle("00112233445566778899aabbccddeeff", ("", "", "", ""), 1, decks=2)
>>> len(two.deck()), deck_text(two.deck()).count("AH")
(104, 2)
"""

from __future__ import annotations

import hashlib
import re
import secrets
import struct
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from cinch.cards import ALL_CARDS, CARDS, DECK_SIZE, TWO_DECK_MASK, Card, own_copies
from cinch.errors import RecordError, json_kind, quoted

SEED_TAG = "cinch/1 shuffle\n"
COMMITMENT_TAG = "cinch/1 commitment\n"
SALT_DIGITS = 32  # 128 bits
ENTROPY_DIGITS = 64  # at most, per seat
COMMITMENT_DIGITS = 64  # a SHA-256 digest in hex
SEAT_NAMES = ("N", "E", "S", "W")
CUT_THROAT_SIZES = (2, 3, 5, 6)  # the other table sizes: seats named 1 to n


def seat_names(count: int) -> tuple[str, ...]:
    """The seats whose entropy a shuffle holds, in the seed's order: N E S W, or 1 to n cut-throat."""
    return SEAT_NAMES if count == len(SEAT_NAMES) else tuple(str(i + 1) for i in range(count))


def _count_problem(count: int) -> str | None:
    if count == len(SEAT_NAMES) or count in CUT_THROAT_SIZES:
        return None
    return (f'"entropy" holds one string per seat: N E S W at four players, 1 to n at 2, 3, 5 or 6; '
            f"not {count}")
_WORDS = struct.Struct(">8I")  # a 32-byte block as eight unsigned 32-bit big-endian integers
_TWO_32 = 1 << 32
_HEX = re.compile(r"[0-9a-f]*")
_KEYS = ("commitment", "salt", "entropy")


def derive_seed(salt: str, entropy: Iterable[str], number: int) -> bytes:
    """The 32-byte seed of step 1 (no checking: :class:`Shuffle` checks its fields)."""
    text = SEED_TAG + salt + "\n" + "\n".join(entropy) + "\n" + str(number)
    return hashlib.sha256(text.encode("utf-8")).digest()


def words(seed: bytes, label: str) -> Iterator[int]:
    """The stream of ``label`` (step 2) as unsigned 32-bit integers, without end."""
    prefix = seed + label.encode("ascii")
    i = 0
    while True:
        yield from _WORDS.unpack(hashlib.sha256(prefix + i.to_bytes(8, "big")).digest())
        i += 1


def uniform(n: int, stream: Iterator[int]) -> int:
    """A number from 0 to ``n - 1`` read from ``stream``, by rejection so every one is equally likely.

    >>> uniform(3, iter([2**32 - 1, 5]))  # 2**32 - 1 is past the last whole multiple of 3: read again
    2
    """
    limit = _TWO_32 - _TWO_32 % n
    r = next(stream)
    while r >= limit:
        r = next(stream)
    return r % n


def canonical(cards: Iterable[int]) -> list[Card]:
    """``cards`` in canonical order (step 4): as a record lists them, a card held twice (two packs)
    twice in a row, the first pack's copy first.

    >>> " ".join(map(str, canonical([Card.parse("2C"), Card.parse("AS").twin, Card.parse("AS")])))
    'AS AS 2C'
    """
    return [ALL_CARDS[c] for c in sorted(cards, key=lambda c: (c % DECK_SIZE, c))]


def first_copies_first(cards: tuple[Card, ...], pool: int) -> tuple[Card, ...]:
    """Two packs: ``cards`` with the copies of each card renamed so that the first one in the order is
    the copy a record reader takes (the first pack's when ``pool`` holds both), since the text alone
    goes into a record and twins play alike.  A live deal and its replay then hold the same copies."""
    return tuple(own_copies([c.printed for c in cards], pool))


def fisher_yates(cards: Iterable[Card], stream: Iterator[int]) -> tuple[Card, ...]:
    """``cards`` shuffled with ``stream`` (step 4): from the last place down, swap in a uniform pick."""
    a = list(cards)
    for i in range(len(a) - 1, 0, -1):
        j = uniform(i + 1, stream)
        a[i], a[j] = a[j], a[i]
    return tuple(a)


def deck_text(cards: Iterable[int]) -> str:
    """Cards as a record writes them: ``AS KS ...`` (a second-pack card as its twin)."""
    return " ".join(str(ALL_CARDS[c]) for c in cards)


def commitment(deck_text: str, salt: str) -> str:
    """The commitment to a deck (as a record writes it) and a salt: lower-case hex SHA-256 (step 6)."""
    return hashlib.sha256((COMMITMENT_TAG + deck_text + "\n" + salt).encode("utf-8")).hexdigest()


def _salt_problem(salt: object) -> str | None:
    if not isinstance(salt, str):
        return f'"salt" must be a string of {SALT_DIGITS} lower-case hex digits (0-9, a-f), not {json_kind(salt)}'
    if len(salt) != SALT_DIGITS or not _HEX.fullmatch(salt):
        return (f'"salt" must be {SALT_DIGITS} lower-case hex digits (0-9, a-f), not '
                f"{quoted(salt, length=True)}")
    return None


def _entropy_problem(seat: str, value: object) -> str | None:
    if not isinstance(value, str):
        return f'"entropy" of {seat} must be a string of hex digits, not {json_kind(value)}'
    if len(value) > ENTROPY_DIGITS or not _HEX.fullmatch(value):
        return (f'"entropy" of {seat} must be lower-case hex digits (0-9, a-f), at most {ENTROPY_DIGITS} of '
                f"them, or empty; not {quoted(value)}")
    return None


def _decks_problem(decks: object) -> str | None:
    if decks in (1, 2) and not isinstance(decks, bool):
        return None
    return f"a shuffle deals one pack or two (decks 1 or 2), not {quoted(decks)}"


def _number_problem(number: object) -> str | None:
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        return f"a shuffle's deal number counts from 1 (the match's first deal), not {quoted(number)}"
    return None


@dataclass(frozen=True)
class Shuffle:
    """The makings of one deal's deck: the server's secret ``salt``, each seat's ``entropy`` (N E S W, or
    1 to n at a cut-throat table) and the deal's ``number`` in its match (from 1); ``decks`` is how many
    packs it shuffles (2 in two-deck Cinch: the rules' ``decks``).

    ``written_commitment`` is the commitment a record wrote (:meth:`from_json`); :meth:`verify`
    checks it.  A bad field raises ``ValueError`` (:class:`RecordError` from :meth:`from_json`).
    """

    salt: str
    entropy: tuple[str, ...]
    number: int
    written_commitment: str | None = field(default=None, compare=False, repr=False)
    decks: int = 1

    def __post_init__(self) -> None:
        if isinstance(self.entropy, str):
            raise ValueError('"entropy" holds one string per seat (N E S W), four in all, not one string')
        entropy = tuple(self.entropy)
        problem = _count_problem(len(entropy))
        if problem:
            raise ValueError(problem)
        object.__setattr__(self, "entropy", entropy)
        problem = _salt_problem(self.salt) or _number_problem(self.number) or _decks_problem(self.decks) or next(
            (p for seat, v in zip(seat_names(len(entropy)), entropy) if (p := _entropy_problem(seat, v))), None)
        if problem:
            raise ValueError(problem)
        object.__setattr__(self, "_seed", derive_seed(self.salt, entropy, self.number))
        object.__setattr__(self, "_deck", None)

    @classmethod
    def new(cls, entropy: Iterable[str], number: int, decks: int = 1) -> Shuffle:
        """A shuffle with a fresh secret salt (``secrets.token_hex``) for deal ``number`` of ``decks`` packs."""
        return cls(secrets.token_hex(SALT_DIGITS // 2), tuple(entropy), number, decks=decks)

    @property
    def seed(self) -> bytes:
        """The 32-byte seed both streams are drawn from (step 1)."""
        seed: bytes = self.__dict__["_seed"]
        return seed

    def deck(self) -> tuple[Card, ...]:
        """The 52 cards this shuffle deals (104 with two decks), top (the first dealt) first."""
        deck: tuple[Card, ...] | None = self.__dict__["_deck"]
        if deck is None:
            if self.decks == 1:
                deck = fisher_yates(CARDS, words(self.seed, "deck"))
            else:
                both = canonical(range(len(ALL_CARDS)))
                deck = first_copies_first(fisher_yates(both, words(self.seed, "deck")), TWO_DECK_MASK)
            object.__setattr__(self, "_deck", deck)
        return deck

    def restock(self, pool: int) -> tuple[Card, ...]:
        """The new stock this shuffle forms from the cards of ``pool`` (a mask or CardSet), top first."""
        pool = int(pool)
        if not pool >> DECK_SIZE:  # one pack's cards: already in canonical order by index
            return fisher_yates((c for c in CARDS if pool >> c & 1), words(self.seed, "restock"))
        cards = canonical(c for c in range(len(ALL_CARDS)) if pool >> c & 1)
        return first_copies_first(fisher_yates(cards, words(self.seed, "restock")), pool)

    @property
    def commitment(self) -> str:
        """The commitment to the deck this shuffle deals, published before the first bid."""
        done: str | None = self.__dict__.get("_commitment")
        if done is None:  # (a server sends it with every state: worked out once)
            done = commitment(deck_text(self.deck()), self.salt)
            object.__setattr__(self, "_commitment", done)
        return done

    def to_json(self) -> dict[str, Any]:
        """``{"commitment", "salt", "entropy": {"N", "E", "S", "W"}}`` (``{"1", ..., "n"}`` cut-throat), the
        record's deal key ``shuffle``."""
        return {
            "commitment": self.commitment,
            "salt": self.salt,
            "entropy": dict(zip(seat_names(len(self.entropy)), self.entropy, strict=True)),
        }

    @classmethod
    def from_json(cls, obj: Any, number: int, decks: int = 1) -> Shuffle:
        """Read a record's ``shuffle`` object for deal ``number`` of a game of ``decks`` packs (the record's
        rules say how many); raises :class:`RecordError` if malformed.

        The commitment read is kept (``written_commitment``) for :meth:`verify`.
        """
        if not isinstance(obj, Mapping):
            raise RecordError(f"a shuffle is an object with commitment, salt and entropy, not {json_kind(obj)}")
        unknown = sorted(str(k) for k in obj if k not in _KEYS)
        if unknown:
            raise RecordError(f"unknown field {quoted(unknown[0])}; a shuffle has commitment, salt and entropy")
        for key in _KEYS:
            if key not in obj:
                raise RecordError(f'the shuffle has no "{key}"')
        written = obj["commitment"]
        if not isinstance(written, str) or len(written) != COMMITMENT_DIGITS or not _HEX.fullmatch(written):
            shown = quoted(written) if isinstance(written, str) else json_kind(written)
            raise RecordError(f'"commitment" must be {COMMITMENT_DIGITS} lower-case hex digits (0-9, a-f), '
                              f"a SHA-256 digest; not {shown}")
        entropy = obj["entropy"]
        if not isinstance(entropy, Mapping):
            raise RecordError('"entropy" must be an object with one string per seat, as '
                              f'{{"N": "", "E": "9f0c", "S": "", "W": ""}}, not {json_kind(entropy)}')
        # The seats it names say the table: N E S W, or 1 to n at a cut-throat one.
        four = len(entropy) == len(SEAT_NAMES) or any(k in SEAT_NAMES for k in entropy)
        names = SEAT_NAMES if four else seat_names(len(entropy))
        problem = None if four else _count_problem(len(names))
        if problem:
            raise RecordError(problem)
        said = "N, E, S and W" if four else f"1 to {len(names)}"
        odd = sorted(str(k) for k in entropy if k not in names)
        if odd:
            raise RecordError(f'"entropy" has {quoted(odd[0])}, which is not a seat; it has {said}, each a '
                              "string of hex digits (empty for none)")
        missing = [s for s in names if s not in entropy]
        if missing:
            raise RecordError(f'"entropy" has nothing for {", ".join(missing)}; it has {said}, each a '
                              "string of hex digits (empty for none)")
        problem = _salt_problem(obj["salt"]) or _number_problem(number) or _decks_problem(decks) or next(
            (p for s in names if (p := _entropy_problem(s, entropy[s]))), None)
        if problem:
            raise RecordError(problem)
        return cls(obj["salt"], tuple(entropy[s] for s in names), number, written_commitment=written, decks=decks)

    def verify(self, deck: Iterable[int] | str, restock: Iterable[int] | str | None = None) -> None:
        """Check a deal against this shuffle; raises :class:`RecordError` naming what does not match.

        The commitment read with the shuffle (if any) must be the one of ``deck`` and the salt; the
        deck must be the one the salt, entropy and number deal; ``restock`` (if given) the new stock
        they form from its cards.  Cards compare by their text: which pack a copy came from is no part
        of a record.
        """
        given = _cards(deck)
        derived = _printed(self.deck())
        written = self.written_commitment
        computed = commitment(deck_text(given), self.salt)
        if written is not None and written != computed:
            text = f"the commitment written is {written}, but the deck and salt give {computed}"
            if given == derived:
                raise RecordError(f"the shuffle's commitment does not match: {text}; the deck is the one the "
                                  "salt and entropy deal, so the commitment is what differs")
            if written == self.commitment:  # the salt and entropy deal the deck committed to: the deck changed
                raise RecordError("the deck is not the one its shuffle commitment promises: "
                                  f"{_difference(given, derived)}")
            raise RecordError(f"the deck is not the one its shuffle commitment promises: {text}, and the salt "
                              f"and entropy deal another deck ({_difference(given, derived)})")
        if given != derived:
            raise RecordError("the deck is not the one its shuffle's salt and entropy deal: "
                              f"{_difference(given, derived)}")
        if restock is not None:
            stock = _cards(restock)
            formed = _printed(self.restock(_pool_of(stock)))
            if stock != formed:
                raise RecordError(f'"restock" is not the new stock its shuffle forms from those cards: '
                                  f"{_difference(stock, formed)}; the shuffle forms {deck_text(formed)}")


def _cards(cards: Iterable[int] | str) -> tuple[Card, ...]:
    """Cards as printed (a second-pack card as its first-pack twin), from a record's text or card ids."""
    if isinstance(cards, str):
        return tuple(Card.parse(c) for c in cards.split())
    return _printed(ALL_CARDS[c] for c in cards)


def _printed(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(c.printed for c in cards)


def _pool_of(cards: tuple[Card, ...]) -> int:
    """The mask of printed cards, each named twice taken as both copies (its restock's pool)."""
    pool = 0
    for c in cards:
        pool |= 1 << (c + DECK_SIZE if pool >> c & 1 else c)
    return pool


def _difference(given: tuple[Card, ...], derived: tuple[Card, ...]) -> str:
    """Where two orders of cards first differ, in words."""
    if len(given) != len(derived):
        return f"it holds {len(given)} cards, the shuffle's {len(derived)}"
    places = [i for i, (a, b) in enumerate(zip(given, derived)) if a != b]
    first = places[0]
    more = f" ({len(places) - 1} more cards differ)" if len(places) > 2 else (
        " (1 more card differs)" if len(places) == 2 else "")
    return f"card {first + 1} is {given[first]} where the shuffle has {derived[first]}{more}"

