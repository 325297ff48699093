"""Computer players.  Every bot sees only a seat's view and returns one of its legal actions.

>>> from cinch.bots import make_bot
>>> make_bot("random", seed=1).name
'random'
"""

from cinch.bots.base import BOT_MODULES, BOTS, DEFAULT_BOT, Bot, bot_names, make_bot, register

__all__ = ["BOT_MODULES", "BOTS", "DEFAULT_BOT", "Bot", "bot_names", "make_bot", "register"]
