"""Computer players.  Every bot sees only a seat's view and returns one of its legal actions.

>>> from cinch.bots import make_bot
>>> make_bot("random", seed=1).name
'random'
"""

from cinch.bots.base import BOTS, Bot, make_bot, register

# Importing the modules registers the bots.
from cinch.bots import basic, random_bot  # noqa: E402,F401  isort: skip

__all__ = ["BOTS", "Bot", "make_bot", "register"]
