"""The table: a match with its seats, turns, bots, undo, hints, narration and saving.

Every front end stands on this layer, which knows nothing of screens or sockets:

- :mod:`cinch.table.session`: :class:`Table`, the match at one table;
- :mod:`cinch.table.narrate`: the deal told in words, from one seat's view;
- :mod:`cinch.table.summary`: the sure points so far, and the par of a deal;
- :mod:`cinch.table.advice`: suggestions and hints;
- :mod:`cinch.table.storage`: saving to the game library and a record file.
"""

from cinch.table.advice import Hint, available_bots
from cinch.table.session import BotTurn, Pending, Table, answer_choices, revoke_words
from cinch.table.storage import Saver, save_record

__all__ = ["BotTurn", "Hint", "Pending", "Saver", "Table", "answer_choices", "available_bots", "revoke_words",
           "save_record"]
