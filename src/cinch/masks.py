"""The set bits of a card mask: the one helper every hot loop of the engine and the bots calls.

It lives alone so that the compiled build (:mod:`cinch.native`) compiles it with the engine's
modules, which then call it natively; :mod:`cinch.cards` (an ``int`` subclass, left pure)
re-exports it, and every other caller gets the compiled function through it.

>>> bit_list(0b101001)
[0, 3, 5]
"""

from __future__ import annotations

__all__ = ["bit_list"]


def bit_list(mask: int) -> list[int]:
    """Indices of the set bits of ``mask`` as a list, lowest first (faster than ``list(bits(mask))``)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
