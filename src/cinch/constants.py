"""The sizes of the table: how many players, cards dealt, cards kept, cards in the stock.

Every module that counts cards reads them here, so a table of another size is taught in
one place.

>>> PLAYERS * DEALT + STOCK == DECK
True
>>> DEAL_BATCHES * BATCH == PLAYERS * DEALT
True
"""

from __future__ import annotations

from typing import Final

DECK: Final = 52  # one pack, no jokers
PLAYERS: Final = 4  # two partnerships, partners opposite
DEALT: Final = 9  # each player is dealt nine cards ...
BATCH: Final = 3  # ... in batches of three, from the dealer's left
DEAL_BATCHES: Final = PLAYERS * DEALT // BATCH
STOCK: Final = DECK - PLAYERS * DEALT  # the sixteen undealt cards
HAND: Final = 6  # after the discard and draw every hand holds six cards ...
TRICKS: Final = HAND  # ... so a deal has six tricks
NO_DRAW_TRICKS: Final = DEALT  # without the draw (002 "Simple Cinch") the nine dealt cards are played
