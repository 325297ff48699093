"""The match the table screen plays: its setup (the new-match form's value) and the table it makes.

>>> from cinch import Rules, Seat
>>> setup = TableSetup.uniform(Rules.preset("pagat"), seat=Seat.S, bots="basic", seed=2)
>>> table = setup.table()
>>> table.human, table.bot_names[Seat.N], table.seed
(Seat.S, 'basic', 2)
>>> three = TableSetup.uniform(Rules.preset("official").with_options(players=3), bots="basic").table()
>>> str(three.human), sorted(map(str, three.bot_names))  # cut-throat: you are 1 unless you choose
('1', ['2', '3'])
"""

from __future__ import annotations

from dataclasses import dataclass

from cinch.bots import DEFAULT_BOT
from cinch.cards import Seat
from cinch.rules import Rules
from cinch.table import Saver, Table
from cinch.table.session import default_seat, seat_at


@dataclass(frozen=True)
class TableSetup:
    """A new match: the rules, the person's seat, the bot of every other seat and the seed."""

    rules: Rules
    seat: Seat = Seat.S
    bots: tuple[str, ...] = (DEFAULT_BOT,) * 4  # by seat, N E S W or 1 to n (the person's seat is unused)
    seed: int | None = None

    @classmethod
    def uniform(cls, rules: Rules, seat: Seat | None = None, bots: str = DEFAULT_BOT,
                seed: int | None = None) -> TableSetup:
        """The same bot in every other seat; ``seat`` S at four, 1 cut-throat, unless given."""
        table = rules.seating
        chosen = default_seat(rules) if seat is None else seat_at(rules, seat)
        return cls(rules, chosen, (bots,) * table.players, seed)

    def table(self, saver: Saver | None = None) -> Table:
        """The match, dealt from the seed, saved by ``saver`` as it is played."""
        seats = self.rules.seating.seats
        bots = {s: self.bots[s] if s < len(self.bots) else DEFAULT_BOT for s in seats}
        return Table.new(self.rules, people={self.seat: "you"}, bots=bots, seed=self.seed, saver=saver)
