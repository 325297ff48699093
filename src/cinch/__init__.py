"""Cinch (Double Pedro, High Five): every rulebook, exactly.

>>> from cinch import Deal, Rules, Seat
>>> deal = Deal.shuffled(Rules.preset("difference"), Seat.N, rng=7)
>>> deal.to_act
Seat.E
"""

from cinch.native import compiled_modules, install

# Before any module of the engine is imported: the compiled build serves them if it was built
# from exactly these sources (see cinch.native).
install()

from cinch.actions import PASS, Action, Bid, Keep, NameTrump, Pass, Play, parse_action  # noqa: E402
from cinch.cards import CARDS, TRUMP_TABLES, Card, CardSet, Seat, Suit, Team, TrumpTables  # noqa: E402
from cinch.deal import Deal, DealResult, parse_deck  # noqa: E402
from cinch.errors import CinchError, IllegalAction, NotationError, RecordError, RulesError  # noqa: E402
from cinch.rules import PRESET_NAMES, Rules  # noqa: E402
from cinch.view import Phase, PlayedCard, SeatView, Trick  # noqa: E402

__version__ = "0.1.0"

__all__ = [
    "PASS", "Action", "Bid", "Keep", "NameTrump", "Pass", "Play", "parse_action",
    "CARDS", "Card", "CardSet", "Seat", "Suit", "Team", "TrumpTables", "TRUMP_TABLES",
    "Deal", "DealResult", "parse_deck",
    "CinchError", "IllegalAction", "NotationError", "RecordError", "RulesError",
    "PRESET_NAMES", "Rules",
    "Phase", "PlayedCard", "SeatView", "Trick",
    "compiled_modules",
]
