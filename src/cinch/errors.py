"""Exceptions that name the rule or the notation that was broken."""

from __future__ import annotations

from collections.abc import Sequence


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
