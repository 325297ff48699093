"""Exceptions that name the rule or the notation that was broken."""

from __future__ import annotations

from collections.abc import Sequence

QUOTE_LIMIT = 60  # the most characters of someone's input a message quotes


def quoted(value: object, limit: int = QUOTE_LIMIT, *, length: bool = False) -> str:
    """``value`` (input being refused: an action, a card, an option, a record's field) as a message quotes
    it: its ``repr``, cut to ``limit`` characters, saying how long text that was cut is (``length``: say
    it always); a megabyte of input makes a line one can read, not a megabyte of error.

    >>> quoted("bid 7"), quoted(["x"] * 3), quoted("ab", length=True)
    ("'bid 7'", "['x', 'x', 'x']", "'ab' (2 characters)")
    >>> quoted("play " + "X" * 10_000, limit=20)
    "'play XXXXXXXXXX...' (10,005 characters)"
    >>> quoted(list(range(100)), limit=20)
    '[0, 1, 2, 3, 4, 5...'
    """
    shown = repr(value)
    if not isinstance(value, str):
        return cut(shown, limit)
    if len(shown) > limit:
        size = limit - 5  # the quotes and the dots
        while size > 1 and len(repr(value[:size])) > limit - 3:  # an escape (\x00, \n) takes several characters
            size -= 1
        head = repr(value[:size])
        shown = f"{head[:-1]}...{head[-1]}"
    elif not length:
        return shown
    return f"{shown} ({len(value):,} character{'' if len(value) == 1 else 's'})"


def cut(shown: str, limit: int = QUOTE_LIMIT) -> str:
    """A value already written out (as JSON, say) cut to ``limit`` characters, as :func:`quoted` cuts.

    >>> cut("[1, 2, 3]"), cut("[1, 2, 3, 4, 5]", limit=10)
    ('[1, 2, 3]', '[1, 2, ...')
    """
    return shown if len(shown) <= limit else shown[:limit - 3] + "..."


ARGUMENT_LIMIT = 4096  # a longer argument is no path (PATH_MAX on Linux): a message cuts it; a path stays whole


def cut_quotes(message: str, given: Sequence[str], longer_than: int = ARGUMENT_LIMIT) -> str:
    """``message`` with every piece of ``given`` input in it longer than ``longer_than`` (a command line's
    arguments, which Click's own messages quote whole) cut as :func:`quoted` cuts it.  Shorter ones, paths
    among them, are left whole.

    >>> cut_quotes("Invalid value for '--theme': 'XXXXXXXXXXXX' is not one of 'a', 'b'.", ["XXXXXXXXXXXX"], 10)
    "Invalid value for '--theme': 'XXXXX...' (12 characters) is not one of 'a', 'b'."
    """
    for text in sorted({g for g in given if len(g) > longer_than}, key=len, reverse=True):
        if text in message:
            short = quoted(text, min(QUOTE_LIMIT, longer_than))
            message = message.replace(f"'{text}'", short).replace(text, short)
    return message


class CinchError(Exception):
    """Base class of every error the engine raises on purpose."""


class NotationError(CinchError, ValueError):
    """Text that is not a card, suit, seat or action in the record notation."""


class RulesError(CinchError, ValueError):
    """An unknown preset or option, a bad value, or options that clash."""


class IllegalAction(CinchError, ValueError):
    """An action the rules do not allow at this point of the deal.

    ``rule`` names the rule that forbids it, ``legal`` lists what was allowed
    (in record notation), so a message can say both.
    """

    def __init__(self, action: object, rule: str, legal: Sequence[str] = (), *, legal_summary: str = ""):
        self.action = action
        self.rule = rule
        self.legal = tuple(legal)
        self.legal_summary = legal_summary or _summarise(self.legal)
        super().__init__(f"{action!s} is illegal: {rule}. Legal here: {self.legal_summary}")


def _summarise(legal: Sequence[str], limit: int = 24) -> str:
    if not legal:
        return "nothing (no one is to act)"
    if len(legal) <= limit:
        return ", ".join(legal)
    return ", ".join(legal[:limit]) + f", ... ({len(legal)} in all)"


class RecordError(CinchError, ValueError):
    """A game record that is malformed or does not replay under its rules."""

    def __init__(self, message: str, *, deal: int | None = None, action: int | None = None):
        self.deal = deal
        self.action = action
        self.detail = message
        where = []
        if deal is not None:
            where.append(f"deal {deal}")
        if action is not None:
            where.append(f"action {action}")
        super().__init__((", ".join(where) + ": " if where else "") + message)


def json_kind(value: object) -> str:
    """What a JSON value is, in the words of JSON, for messages about a malformed record.

    >>> json_kind([1]), json_kind(2.5), json_kind(None), json_kind("x")
    ('a list', 'a number', 'null', 'a string')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return "a number"
    kinds: dict[type, str] = {list: "a list", dict: "an object", str: "a string"}
    return kinds.get(type(value), type(value).__name__)
