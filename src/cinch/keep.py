"""The legal hands after a discard or a rob, without listing them all.

A dealer robbing 19 cards to six has 27,132 possible hands, so the legal keeps
are a lazy :class:`KeepOptions` sequence: ``len``, indexing (so
``random.choice`` is uniform), iteration and ``in`` work without building the
list.  Every keep rule of the rulebook is one set of constraints:
the kept cards come from ``pool``, include ``must``, number between ``lo``
and ``hi``, and hold at least ``min_trumps`` trumps.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from math import comb
from typing import overload

from cinch.actions import Keep
from cinch.cards import CardSet, bit_list

_cardset = int.__new__  # a CardSet from a mask, without the general constructor


class KeepOptions(Sequence[Keep]):
    __slots__ = ("pool", "must", "trumps", "lo", "hi", "min_trumps", "rules_text", "_blocks", "_free_t", "_free_n",
                 "_count")

    def __init__(self, pool: int, must: int, trumps: int, lo: int, hi: int, min_trumps: int = 0,
                 rules_text: dict[str, str] | None = None):
        self.pool, self.must, self.trumps = pool, must, trumps
        self.lo, self.hi, self.min_trumps = lo, hi, min_trumps
        self.rules_text = rules_text or {}
        free = pool & ~must
        self._free_t: list[int] | None = None  # built when first unranking
        self._free_n: list[int] | None = None
        n_t = (free & trumps).bit_count()
        n_n = (free & ~trumps).bit_count()
        must_n = must.bit_count()
        must_t = (must & trumps).bit_count()
        blocks = []  # (free cards to choose, trumps among them, how many hands)
        count = 0
        for size in range(lo, hi + 1):
            f = size - must_n
            if f < 0:
                continue
            for j in range(max(0, min_trumps - must_t), min(f, n_t) + 1):
                n = comb(n_t, j) * comb(n_n, f - j)
                if n:
                    blocks.append((f, j, n))
                    count += n
        self._blocks = blocks
        self._count = count

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> Keep: ...

    @overload
    def __getitem__(self, index: slice) -> list[Keep]: ...

    def __getitem__(self, index: int | slice) -> Keep | list[Keep]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._count))]
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError("keep option index out of range")
        if self._free_t is None:
            free = self.pool & ~self.must
            self._free_t = bit_list(free & self.trumps)
            self._free_n = bit_list(free & ~self.trumps)
        assert self._free_n is not None
        for f, j, n in self._blocks:
            if index < n:
                per = comb(len(self._free_n), f - j)
                a, b = divmod(index, per)
                m = self.must | _unrank(self._free_t, j, a) | _unrank(self._free_n, f - j, b)
                return Keep(_cardset(CardSet, m))
            index -= n
        raise IndexError(index)  # pragma: no cover - the blocks sum to the count

    def __iter__(self) -> Iterator[Keep]:
        for i in range(self._count):
            yield self[i]

    def __contains__(self, action: object) -> bool:
        return isinstance(action, Keep) and self.violation(int(action.cards)) is None

    @property
    def forced(self) -> Keep | None:
        """The only legal keep, when there is exactly one."""
        if self._count != 1:
            return None
        f, j, _ = self._blocks[0]
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

    def describe(self) -> str:
        """The choice in words: ``keep 6 of AH KH ... (must keep AH)``."""
        size = str(self.lo) if self.lo == self.hi else f"{self.lo}-{self.hi}"
        text = f"keep {size} of {CardSet(self.pool)}"
        if self.must:
            text += f", including {CardSet(self.must)}"
        if self.min_trumps and self.min_trumps > (self.must & self.trumps).bit_count():
            text += f", with at least {self.min_trumps} trumps"
        return text


def _unrank(items: list[int], k: int, rank: int) -> int:
    """The ``rank``-th k-subset of ``items`` in lexicographic order, as a mask."""
    m = 0
    n = len(items)
    start = 0
    while k:
        for i in range(start, n):
            c = comb(n - i - 1, k - 1)
            if rank < c:
                m |= 1 << items[i]
                start = i + 1
                k -= 1
                break
            rank -= c
    return m

