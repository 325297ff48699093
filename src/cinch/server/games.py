"""The matches a table plays, one after another: the one at the table now, the earlier ones, and ``seq``.

:class:`Games` is one part of a table on the server (:mod:`cinch.server.tables` lists the others).
It builds the :class:`~cinch.table.Table` for a match (its bots, the server's saver, where its
decks come from), holds it with its id in the game library, keeps the ids of the matches played
before it, and numbers the game's states (``seq``) across them all, so that a client's ``act``
names the state it answers.  It knows nothing of seats' holders or connections: the table hands
it the bots' kinds, and it hands back the :class:`Table`.

A table composes it so (:class:`~cinch.server.tables.ServerTable` does, for every kind of table):
``Games(library, shuffles=..., seed=...)``, where ``shuffles`` gives deal ``n``'s
:class:`~cinch.shuffle.Shuffle` (a room's come from fresh salts and the seats' entropy; a table that
plays a fixed deal set gives that set's) and ``seed`` a seed for a bot; :meth:`Games.start` for each
new match (a daily table's board may be a match of one deal); :meth:`Games.table_for` to rebuild a
stored one; :func:`status_of` says what the table waits for.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from cinch.bots.base import Bot
from cinch.cards import Seat
from cinch.errors import CinchError
from cinch.match import Match
from cinch.shuffle import Shuffle
from cinch.table import Pending, Saver, Table

WAITING, PLAYING, BETWEEN, OVER = "waiting", "playing", "between-deals", "over"


def status_of(table: Table | None) -> str:
    """Where a table's game stands: not started, a deal being played, between deals, or over."""
    if table is None:
        return WAITING
    if table.match.is_over:
        return OVER
    pending = table.pending()
    return BETWEEN if pending in (Pending.DEAL_OVER, Pending.NEW_DEAL) else PLAYING


def make_bot(name: str, seed: int) -> Bot:
    """A bot of this kind (the factory a server's table seats bots with)."""
    from cinch.bots import make_bot as make

    return make(name, seed=seed)


class StrictSaver(Saver):
    """The server's saver: a save that fails raises, so that no action is announced unsaved."""

    def save(self, match: Match) -> None:
        if self.library is None or self.match_id is None:
            raise CinchError("the room's match is not in the library")
        self.library.save(self.match_id, match)

    def start(self, match: Match, *, human_seat: Seat | None, seed: int | None, players: dict[Seat, str]) -> None:
        assert self.library is not None
        self.match_id = self.library.new_match(match, human_seat=human_seat, seed=seed, frontend=self.frontend,
                                               players=players)


class Games:
    """The running :class:`Table` (None before the first match), its id, and the ids of the earlier ones."""

    def __init__(self, library: Any, *, shuffles: Callable[[int], Shuffle], seed: Callable[[], int]):
        self.library = library
        self.shuffles = shuffles
        self.seed = seed
        self.table: Table | None = None
        self.match_id: int | None = None
        self.matches: list[int] = []  # every match played here, oldest first
        self.seq_base = 0  # the seq numbers of earlier matches, so that seq only ever grows
        self._seq_cache: tuple[Match | None, int, int] = (None, 0, 0)
        # What a kind of table may change: the Table its matches are played at (a daily table's board ends with
        # its one deal), and the front end its matches are saved under (the replay viewer lists the rooms').
        self.table_class: type[Table] = Table
        self.frontend = "server"

    @property
    def seq(self) -> int:
        """The number of the game's state: it grows with every deal and action (``act`` must name it)."""
        if self.table is None:
            return self.seq_base
        m = self.table.match
        n = len(m.deals)
        if self._seq_cache[0] is not m or self._seq_cache[1] != n:  # (the earlier deals' actions, counted once)
            self._seq_cache = (m, n, sum(len(d.history) for d in m.deals[:-1]))
        return self.seq_base + n + self._seq_cache[2] + (len(m.deals[-1].history) if n else 0)

    def forget_seq(self) -> None:
        """The match was carried forward in place (another process's change): count its actions again."""
        self._seq_cache = (None, 0, 0)

    def _table(self, match: Match, bots: Mapping[Seat, str], saver: StrictSaver) -> Table:
        seated = {seat: make_bot(bot, self.seed()) for seat, bot in bots.items()}
        return self.table_class(match, seated, names={s: bots[s] for s in seated}, saver=saver, undo=False,
                                shuffles=self.shuffles, bot_factory=make_bot)

    def table_for(self, match_id: int, match: Match, bots: Mapping[Seat, str]) -> Table:
        """The table of a stored match, at its last saved action, with these bots (by seat)."""
        saver = StrictSaver(self.library, frontend=self.frontend)
        saver.attach(match_id, match)
        table = self._table(match, bots, saver)
        table.acknowledge()
        return table

    def start(self, match: Match, bots: Mapping[Seat, str], players: dict[Seat, str]) -> Table:
        """A new match at the table: saved to the library at once, its id added to the table's matches."""
        saver = StrictSaver(self.library, frontend=self.frontend)
        table = self._table(match, bots, saver)
        saver.start(match, human_seat=None, seed=None, players=players)
        assert saver.match_id is not None
        self.table, self.match_id = table, saver.match_id
        self.matches.append(saver.match_id)
        return table

    def follow_on(self) -> None:
        """The next match's seq numbers follow on from this one's (a rematch)."""
        self.seq_base = self.seq + 1

    def to_json(self) -> dict[str, Any]:
        return {"matches": self.matches, "seq_base": self.seq_base}

    def take_json(self, data: dict[str, Any]) -> None:
        self.matches = list(data["matches"])
        self.seq_base = int(data["seq_base"])
