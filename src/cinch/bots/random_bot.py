"""Uniform among the legal actions: the floor every other bot must beat."""

from __future__ import annotations

from cinch.actions import Action
from cinch.bots.base import Bot, register
from cinch.view import SeatView


@register("random")
class RandomBot(Bot):
    def choose(self, view: SeatView) -> Action:
        return self.rng.choice(view.legal)
