"""The legal hands after a discard or a rob, without listing them all.

A dealer robbing 19 cards to six has 27,132 possible hands, so the legal keeps
are a lazy :class:`KeepOptions` sequence: ``len``, indexing (so
``random.choice`` is uniform), iteration and ``in`` work without building the
list.  Every keep rule of the rulebook is one set of constraints:
the kept cards come from ``pool``, include ``must``, number between ``lo``
and ``hi``, and hold at least ``min_trumps`` trumps.

With two decks a pool may hold both copies of a card.  The copies are the same card as the
hand reads, so the sequence lists each hand once: a card of which both copies are free is
kept twice, once (as its first-pack copy) or not at all, never once per copy.
"""

from __future__ import annotations

import abc
from collections.abc import Iterator, Sequence
from math import comb
from typing import Final, overload

from cinch.actions import Keep
from cinch.cards import DECK_SIZE, FULL_DECK_MASK, CardSet, own_copies

_cardset: Final = int.__new__  # a CardSet from a mask, without the general constructor

_Blocks = tuple[tuple[int, int, int, int], ...]
"""``(free cards chosen, trumps among them, how many hands, choices of the others per choice of trumps)``."""
_Key = tuple[int, int, int, int, int, int, int, int]
"""What a keep's count depends on: the free trumps held once and twice, the free others held once and
twice, the trumps that must be kept, the free cards to choose (fewest and most), and the fewest trumps."""


class KeepOptions(Sequence[Keep]):
    __slots__ = ("pool", "must", "trumps", "lo", "hi", "min_trumps", "rules_text", "_blocks", "_count", "_pairs")

    def __init__(self, pool: int, must: int, trumps: int, lo: int, hi: int, min_trumps: int = 0,
                 rules_text: dict[str, str] | None = None):
        self.pool, self.must, self.trumps = pool, must, trumps
        self.lo, self.hi, self.min_trumps = lo, hi, min_trumps
        self.rules_text = rules_text or {}
        # Counted when first asked for (len, an index, forced): a keep that is only checked
        # (``in``, violation(): a replay, a player's own choice) never needs the count.
        self._blocks: _Blocks = ()
        self._count = -1
        self._pairs = 0  # two decks: the free cards held twice, as their first-pack bits (see _counted)

    def __reduce__(self) -> tuple[type[KeepOptions], tuple[int, int, int, int, int, int, dict[str, str]]]:
        # Spelled out for the compiled build (cinch.native), whose classes pickle no fields by themselves:
        # a seat's view, legal keeps included, goes to the server's worker processes.
        return KeepOptions, (self.pool, self.must, self.trumps, self.lo, self.hi, self.min_trumps, self.rules_text)

    def _counted(self) -> int:
        count = self._count
        if count < 0:
            free = int(self.pool) & ~self.must  # plain ints: a CardSet's operators build CardSets
            trumps = int(self.trumps)
            # Two decks: a card both of whose copies are free is one card that may be kept twice.
            pairs = self._pairs = free & free >> DECK_SIZE & FULL_DECK_MASK
            t_twice = n_twice = 0
            if pairs:
                free &= ~(pairs | pairs << DECK_SIZE)  # the cards held once
                t_twice = (pairs & trumps).bit_count()
                n_twice = pairs.bit_count() - t_twice
            t_once = (free & trumps).bit_count()
            must_n = self.must.bit_count()
            key = (t_once, t_twice, free.bit_count() - t_once, n_twice, (self.must & trumps).bit_count(),
                   self.lo - must_n, self.hi - must_n, self.min_trumps)
            known = _BLOCKS.get(key)
            if known is None:
                blocks = _blocks(key)
                known = _BLOCKS[key] = (blocks, sum(n for _, _, n, _ in blocks))
            self._blocks, count = known
            self._count = count
        return count

    def __len__(self) -> int:
        count = self._count
        return count if count >= 0 else self._counted()

    @overload
    def __getitem__(self, index: int) -> Keep: ...

    @overload
    def __getitem__(self, index: slice) -> list[Keep]: ...

    def __getitem__(self, index: int | slice) -> Keep | list[Keep]:
        count = self._count
        if count < 0:
            count = self._counted()
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(count))]
        if index < 0:
            index += count
        if not 0 <= index < count:
            raise IndexError("keep option index out of range")
        free = int(self.pool) & ~self.must  # a plain int (a CardSet's "-" is set difference)
        pairs = self._pairs
        for f, j, n, per in self._blocks:
            if index < n:
                a, b = divmod(index, per)
                m = self.must
                if pairs:  # two decks, a card held twice among the free ones
                    if j:
                        m |= _unrank_twice(free & self.trumps, pairs & self.trumps, j, a)
                    if f - j:
                        m |= _unrank_twice(free & ~self.trumps, pairs & ~self.trumps, f - j, b)
                    return Keep(_cardset(CardSet, m))
                if j:  # (a discard keeps every trump: no free trump to choose)
                    m |= _unrank(free & self.trumps, j, a)
                if f - j:
                    m |= _unrank(free & ~self.trumps, f - j, b)
                return Keep(_cardset(CardSet, m))
            index -= n
        raise IndexError(index)  # pragma: no cover - the blocks sum to the count

    def __iter__(self) -> Iterator[Keep]:
        for i in range(len(self)):
            yield self[i]

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, Keep):
            return False
        kept = int(action.cards)
        if (kept | self.pool) >> DECK_SIZE:  # two decks: a keep names cards, whichever copy it picked
            kept = int(CardSet(own_copies(CardSet(kept), self.pool)))
        return self.violation(kept) is None

    @property
    def forced(self) -> Keep | None:
        """The only legal keep, when there is exactly one."""
        if self._counted() != 1:
            return None
        if self._pairs:
            return self[0]  # two decks: of a card held twice, the one way may keep one copy
        f, j, _, _ = self._blocks[0]
        free = self.pool & ~self.must
        # One way to choose: all of the free trumps or none, and likewise the others.
        m = self.must | (free & self.trumps if j else 0) | (free & ~self.trumps if f - j else 0)
        return Keep(_cardset(CardSet, m))

    def violation(self, kept: int) -> str | None:
        """Why a kept hand is illegal, in the words of the rule, or None."""
        t = self.rules_text
        if kept & ~self.pool:
            extra = CardSet(kept & ~self.pool)
            return t.get("pool", "you may keep only cards you can choose from") + f" ({extra} is not among them)"
        if self.must & ~kept:
            missing = CardSet(self.must & ~kept)
            return t.get("must", "these cards must be kept") + f" (you left out {missing})"
        n = kept.bit_count()
        if not self.lo <= n <= self.hi:
            size = f"exactly {self.lo}" if self.lo == self.hi else f"between {self.lo} and {self.hi}"
            return t.get("size", "the hand must hold " + size + " cards") + f" (you kept {n})"
        if (kept & self.trumps).bit_count() < self.min_trumps:
            return t.get("trumps", f"at least {self.min_trumps} trumps must be kept")
        return None

    def to_json(self) -> dict[str, object]:
        """The choice as its rule, for a keep with too many hands to list: the cards to choose from, those
        that must be kept, how many to keep (``fewest`` to ``most``), the fewest trumps, how many hands
        (``count``, each once as it reads) and the rule in words (``rule``, as :meth:`describe`)."""
        return {"pool": [str(c) for c in CardSet(self.pool)], "must": [str(c) for c in CardSet(self.must)],
                "fewest": self.lo, "most": self.hi, "min_trumps": self.min_trumps, "count": len(self),
                "rule": self.describe()}

    def describe(self) -> str:
        """The choice in words: ``keep 6 of AH KH ... (must keep AH)``."""
        size = str(self.lo) if self.lo == self.hi else f"{self.lo}-{self.hi}"
        text = f"keep {size} of {CardSet(self.pool)}"
        if self.must:
            text += f", including {CardSet(self.must)}"
        if self.min_trumps and self.min_trumps > (self.must & self.trumps).bit_count():
            text += f", with at least {self.min_trumps} trumps"
        return text


# Compiled (cinch.native), the class is made without ABCMeta.__new__ and would share Sequence's
# registry of virtual subclasses, so that isinstance(t, KeepOptions) held for any tuple: it gets its own.
if "_abc_impl" not in vars(KeepOptions):
    getattr(abc, "_abc_init")(KeepOptions)  # noqa: B009 - a private name of abc, not in its stubs


def _blocks(key: _Key) -> _Blocks:
    """The hands, by the number of free cards chosen (``lo``..``hi``) and of trumps among them, from
    the numbers of free trumps and others (held once, and held twice with two decks) and of trumps
    that must be kept.  Hands recur, so the blocks are kept by these numbers (see _BLOCKS)."""
    t_once, t_twice, n_once, n_twice, must_t, lo, hi, min_trumps = key
    out = []
    for f in range(max(lo, 0), hi + 1):
        for j in range(max(0, min_trumps - must_t), min(f, t_once + 2 * t_twice) + 1):
            per = _ways(n_once, n_twice, f - j)
            n = _ways(t_once, t_twice, j) * per
            if n:
                out.append((f, j, n, per))
    return tuple(out)


def _ways(once: int, twice: int, k: int) -> int:
    """The hands of ``k`` cards from cards held ``once`` and cards held ``twice`` (two decks), each hand
    counted once as it reads: ``d`` of the cards held twice kept both times, and ``k - 2d`` cards each
    kept once from the rest.  With no card held twice, comb(once, k).

    >>> _ways(3, 0, 2), _ways(0, 2, 2), _ways(1, 1, 2)  # AH AH | AH KH | KH KH; AH AH | AH KH
    (3, 3, 2)
    """
    return sum(comb(twice, d) * comb(twice - d + once, k - 2 * d) for d in range(min(twice, k // 2) + 1))


_BLOCKS: Final[dict[_Key, tuple[_Blocks, int]]] = {}  # and their sum
# _CHOOSE[n][k]: comb(n, k) for the at most 104 cards of a pool (two decks), read in the unranking loop.
_CHOOSE: Final = tuple(tuple(comb(n, k) for k in range(105)) for n in range(105))


def _unrank(items: int, k: int, rank: int) -> int:
    """The ``rank``-th k-subset of the cards of ``items`` (a mask) in lexicographic order, lowest
    card first, as a mask."""
    m = 0
    left = items.bit_count()
    choose = _CHOOSE
    while k:
        low = items & -items
        items ^= low
        left -= 1
        c = choose[left][k - 1]
        if rank < c:
            m |= low
            k -= 1
        else:
            rank -= c
    return m


def _unrank_twice(items: int, pairs: int, k: int, rank: int) -> int:
    """The ``rank``-th hand of ``k`` cards from ``items`` (a mask, two decks) in which the cards of
    ``pairs`` (first-pack bits) are there twice, each hand once as it reads: by the number ``d`` of
    cards kept twice, then which (both copies), then the ``k - 2d`` cards kept once (a card held twice
    and kept once is its first-pack copy)."""
    once = items & ~(pairs | pairs << DECK_SIZE)
    p = pairs.bit_count()
    s = once.bit_count()
    choose = _CHOOSE
    for d in range(min(p, k // 2) + 1):
        per = choose[p - d + s][k - 2 * d]
        block = choose[p][d] * per
        if rank < block:
            a, b = divmod(rank, per)
            both = _unrank(pairs, d, a)
            return both | both << DECK_SIZE | _unrank(once | pairs & ~both, k - 2 * d, b)
        rank -= block
    raise IndexError(rank)  # pragma: no cover - the blocks sum to _ways()
