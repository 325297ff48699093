"""The match the table screen plays: its setup (the new-match form's value) and the table it makes.

>>> from cinch import Rules, Seat
>>> setup = TableSetup.uniform(Rules.preset("pagat"), seat=Seat.S, bots="basic", seed=2)
>>> table = setup.table()
>>> table.human, table.bot_names[Seat.N], table.seed
(Seat.S, 'basic', 2)
"""

from __future__ import annotations

from dataclasses import dataclass

from cinch.bots import DEFAULT_BOT
from cinch.cards import Seat
from cinch.rules import Rules
from cinch.table import Saver, Table


@dataclass(frozen=True)
class TableSetup:
    """A new match: the rules, the person's seat, the bot of every other seat and the seed."""

    rules: Rules
    seat: Seat = Seat.S
    bots: tuple[str, str, str, str] = (DEFAULT_BOT,) * 4  # by seat N E S W (the person's seat is unused)
    seed: int | None = None

    @classmethod
    def uniform(cls, rules: Rules, seat: Seat = Seat.S, bots: str = DEFAULT_BOT, seed: int | None = None) -> TableSetup:
        return cls(rules, Seat(seat), (bots,) * 4, seed)

    def table(self, saver: Saver | None = None) -> Table:
        """The match, dealt from the seed, saved by ``saver`` as it is played."""
        return Table.new(self.rules, people={self.seat: "you"}, bots={s: self.bots[s] for s in Seat},
                         seed=self.seed, saver=saver)
