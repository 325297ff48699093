"""A person's attempt at a duplicate deal set at the table: South with three bots, one board at a time.

:class:`DuplicateSession` makes each board's :class:`~cinch.table.Table` (a match of one deal, dealt from the
set's fair shuffle, no take-backs), keeps the board in play in the attempt after every action (so Ctrl-C loses
nothing and ``cinch duplicate --resume`` goes on at the same action), takes the board's result when its deal
ends, and gives its traveller: the robot table's result, this attempt's and the person's earlier attempts' at
the same set.  Both front ends of ``cinch duplicate`` (the line prompt and the Textual table) stand on it, and
tell a board in the words of :func:`traveller_lines` and :func:`standings_lines`.

>>> from cinch.duplicate import DealSet, MemoryStore
>>> from cinch.rules import Rules
>>> session = DuplicateSession.start(MemoryStore(), DealSet.from_seed(4, Rules.preset("pagat"), 2, bots="basic"))
>>> table = session.table()
>>> table.advance() in (Pending.HUMAN, Pending.BOT), table.deal.dealer, session.board
(True, Seat.N, 1)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from cinch.bots import make_bot
from cinch.bots.base import Bot
from cinch.cards import Seat
from cinch.duplicate import (
    FINISHED,
    IN_PROGRESS,
    ROBOTS,
    SEATS,
    Attempt,
    BoardResult,
    DealSet,
    DuplicateError,
    DuplicateStore,
    MemoryStore,
    Standing,
    Traveller,
    bot_seed,
    replayed_board,
    robot_result,
    standings,
)
from cinch.errors import CinchError, quoted
from cinch.match import DealSummary, Match
from cinch.record import record_text
from cinch.rules import Rules
from cinch.table.narrate import Narrator, hand_text, result_lines, seat_name
from cinch.table.session import BotFactory, Pending, Table
from cinch.table.storage import Saver
from cinch.view import SeatView

YOU = "you"
ME = Seat.S  # a person plays a duplicate board in South, as on the robot table's traveller

def _make_bot(name: str, seed: int) -> Bot:
    return make_bot(name, seed=seed)


class DuplicateSession:
    """One attempt at a deal set: the next board's table, its result, the travellers and the ranking.

    Every change is kept in ``store`` (the game library, or memory); a store that fails leaves a message in
    ``problem`` and the set goes on without it.
    """

    def __init__(self, store: DuplicateStore, attempt: Attempt, *, bot_factory: BotFactory = _make_bot) -> None:
        self.store = store
        self.attempt = attempt
        self.bot_factory = bot_factory
        self.problem: str | None = None
        self._robots: dict[int, BoardResult] = {}

    # ---- making one -----------------------------------------------------------------------------------------
    @classmethod
    def start(cls, store: DuplicateStore, deal_set: DealSet, player: str = YOU, *,
              bot_factory: BotFactory = _make_bot) -> DuplicateSession:
        """A new attempt at ``deal_set`` (kept in ``store`` at once)."""
        bot_factory(deal_set.bots, 0)  # an unknown bot fails here, before anything is stored
        return cls(store, store.new_attempt(deal_set, player), bot_factory=bot_factory)

    @classmethod
    def resume(cls, store: DuplicateStore, attempt_id: int | None = None, *,
               bot_factory: BotFactory = _make_bot) -> DuplicateSession:
        """Go on with attempt ``attempt_id`` (None: the most recent unfinished one) at its exact action."""
        if attempt_id is None:
            waiting = unfinished(store)
            if not waiting:
                raise DuplicateError("no unfinished duplicate set to resume; `cinch duplicate` starts one")
            attempt = waiting[0]
        else:
            attempt = store.attempt(attempt_id)
        if attempt.is_finished:
            raise DuplicateError(f"attempt {attempt.id} ({quoted(attempt.deal_set.name)}) is finished: "
                                 f"`cinch duplicate export {attempt.id}` writes it")
        if attempt.status != IN_PROGRESS:
            attempt = dataclasses.replace(attempt, status=IN_PROGRESS)
            store.save_attempt(attempt)
        return cls(store, attempt, bot_factory=bot_factory)

    # ---- where it stands -------------------------------------------------------------------------------------------
    @property
    def deal_set(self) -> DealSet:
        return self.attempt.deal_set

    @property
    def player(self) -> str:
        return self.attempt.player

    @property
    def board(self) -> int | None:
        """The board to play now (None: the set is over)."""
        return self.attempt.next_board

    @property
    def results(self) -> tuple[BoardResult, ...]:
        return self.attempt.results

    @property
    def kept(self) -> bool:
        """Whether the attempt outlives this process (not with ``--no-library``)."""
        return not isinstance(self.store, MemoryStore)

    # ---- a board at the table --------------------------------------------------------------------------------------
    def table(self) -> Table:
        """The table of the board to play now: three bots of the set's kind, the person in South; a board left in
        play goes on at the action where it stopped (its bots seeded anew for that position)."""
        board = self.board
        if board is None:
            raise DuplicateError(f"every board of {quoted(self.deal_set.name)} is played")
        kind = self.deal_set.bots
        players = {s: (self.player if s == ME else kind) for s in SEATS}
        playing = self.attempt.playing
        if playing is not None:
            match: Match = replayed_board(self.deal_set, board, playing, players)
            position = len(match.deals[0].history)
        else:
            match = self.deal_set.board_match(board, players)
            position = 0
        bots = {s: self.bot_factory(kind, bot_seed(self.deal_set, board, s, position)) for s in SEATS if s != ME}
        deal_set = self.deal_set
        return BoardTable(match, bots, names={s: kind for s in bots}, saver=BoardSaver(self, board), undo=False,
                          shuffles=lambda number: deal_set.shuffle(board))

    def save_playing(self, match: Match) -> None:
        """Keep the board in play (after every action): its record, in the attempt."""
        self.attempt = dataclasses.replace(self.attempt, playing=record_text(match))
        self.store.save_attempt(self.attempt)

    def finish(self, table: Table) -> BoardResult:
        """The board's deal is over: its result joins the attempt (finished after the last board)."""
        board = self.board
        if board is None or table.pending() not in (Pending.DEAL_OVER, Pending.MATCH_OVER):
            raise DuplicateError("the board is not over yet: its result is taken when its deal ends")
        result = BoardResult.of(table.match, board, self.player, self.deal_set.bots, set_name=self.deal_set.name)
        results = (*self.attempt.results, result)
        status = FINISHED if len(results) == self.deal_set.deals else IN_PROGRESS
        self.attempt = dataclasses.replace(self.attempt, results=results, playing=None, status=status)
        self._keep(lambda: self.store.save_attempt(self.attempt), f"keep board {board}'s result")
        return result

    def abandon(self) -> None:
        """Leave the attempt unfinished for good: it is not offered again (``--resume ID`` still goes on)."""
        self.attempt = dataclasses.replace(self.attempt, status="abandoned")
        self._keep(lambda: self.store.save_attempt(self.attempt), "mark the attempt abandoned")

    def _keep(self, call: Callable[[], None], what: str) -> None:
        try:
            call()
        except CinchError as e:
            self.problem = f"The game library could not {what} ({e}); the set goes on without it."

    def take_problem(self) -> str | None:
        problem, self.problem = self.problem, None
        return problem

    # ---- the field -------------------------------------------------------------------------------------------------
    def robot(self, board: int) -> BoardResult:
        """The robot table's result of ``board``: played once per set and kind of bot, then kept (slow with the
        expert: a front end asks for it off its UI thread)."""
        if board in self._robots:
            return self._robots[board]
        kind = self.deal_set.bots
        try:
            found = self.store.robot_result(self.deal_set, board, kind)
        except CinchError:
            found = None
        if found is None:
            found = robot_result(self.deal_set, board, kind)
            result = found
            self._keep(lambda: self.store.save_robot_result(self.deal_set, result), "keep the robot table's result")
        self._robots[board] = found
        return found

    def robot_known(self, board: int) -> bool:
        """Whether the robot table's result of ``board`` is at hand (else :meth:`robot` plays it first)."""
        if board not in self._robots:
            try:
                found = self.store.robot_result(self.deal_set, board, self.deal_set.bots)
            except CinchError:
                return False
            if found is None:
                return False
            self._robots[board] = found
        return True

    def earlier(self) -> list[Attempt]:
        """The person's other attempts at the same set, the most recent first."""
        try:
            others = self.store.attempts(self.deal_set.key)
        except CinchError:
            return []
        return [a for a in others if a.id != self.attempt.id]

    def traveller(self, board: int) -> Traveller:
        """Every result on ``board``: the robot table, this attempt, earlier attempts; only once it is played here."""
        self.deal_set.check_board(board)
        if board > len(self.results):
            raise DuplicateError(f"board {board} is not played yet: its traveller shows once you have played it")
        entries = [(ROBOTS, self.robot(board)), (self.player, self.results[board - 1])]
        for other in self.earlier():
            if board <= len(other.results):
                entries.append((attempt_label(other), other.results[board - 1]))
        return Traveller.of(self.deal_set, board, entries, mine=self.player)

    def standings(self) -> list[Standing]:
        """The ranking over the boards played in this attempt: this attempt, the robot table, earlier attempts
        (their results on those boards)."""
        played = len(self.results)
        field = {self.player: list(self.results), ROBOTS: [self.robot(n) for n in range(1, played + 1)]}
        for other in self.earlier():
            if other.results[:played]:
                field[attempt_label(other)] = list(other.results[:played])
        return standings(field)

    # ---- words -----------------------------------------------------------------------------------------------------
    def intro_lines(self) -> list[str]:
        """How the set begins (or goes on), in words."""
        s = self.deal_set
        first = "Duplicate Cinch" if not self.results and self.attempt.playing is None else (
            f"Resuming attempt {self.attempt.id}")
        lines = [f"{first}, {s.rules.name} rules: set {quoted(s.name)}, {s.deals} boards, dealt by N E S W in turn.",
                 f"You sit S; your partner N and the opponents E and W are played by the {s.bots} bot.",
                 "Each board is one deal. After it, its traveller shows every result on it: the robot table's",
                 "(four bots) and your earlier attempts' at this set, each matchpointed against the others."]
        if self.kept:
            lines += [f"This is attempt {self.attempt.id}, kept in your game library after every move:",
                      f"`cinch duplicate --resume {self.attempt.id}` goes on with it if it stops."]
        return lines

    def stopped_words(self) -> str:
        """Where the attempt stops and how to go on, after a front end's own first words ("You quit.")."""
        board = self.board
        if board is None:
            return f" `cinch duplicate export {self.attempt.id}` writes the set." if self.kept else ""
        where = f" The set {quoted(self.deal_set.name)} stops at board {board} of {self.deal_set.deals}."
        if not self.kept:
            return where + " Nothing is kept (--no-library)."
        return where + f" `cinch duplicate --resume {self.attempt.id}` goes on with it."


def unfinished(store: DuplicateStore) -> list[Attempt]:
    """The attempts in progress, the most recently played first."""
    return store.attempts(status=IN_PROGRESS)


def attempt_label(attempt: Attempt) -> str:
    """How an earlier attempt is named on a traveller: ``attempt 3``."""
    return f"attempt {attempt.id}"


class BoardTable(Table):
    """The table of one board: once its deal is over (and shown), nothing follows it (:data:`Pending.MATCH_OVER`),
    though the match it is the first deal of goes on to no winner."""

    def pending(self) -> Pending:
        pending = super().pending()
        return Pending.MATCH_OVER if pending is Pending.NEW_DEAL and self.match.deals else pending


class BoardSaver(Saver):
    """Keeps the board in play in the session's attempt after every action (a :class:`Saver` for the table)."""

    def __init__(self, session: DuplicateSession, board: int) -> None:
        super().__init__(None, frontend="duplicate")
        self.session = session
        self.board = board

    def save(self, match: Match) -> None:
        try:
            self.session.save_playing(match)
        except CinchError as e:
            self.problem = f"The game library could not save board {self.board} ({e}); the board goes on."

    def stopped_words(self, match: Match) -> str:
        return self.session.stopped_words()


class BoardNarrator(Narrator):
    """The deal told as a duplicate board: its number in the set, no match score."""

    def __init__(self, seat: Seat | None, board: int, boards: int, symbols: bool = True) -> None:
        super().__init__(seat, symbols)
        self.board = board
        self.boards = boards

    def deal_header(self, v: SeatView) -> list[str]:
        lines = super().deal_header(v)
        lines[1] = f"=== Board {self.board} of {self.boards}: {self.who(v.dealer)} deals. ==="
        return lines


# ---- a board in words --------------------------------------------------------------------------------------------
def board_over_lines(summary: DealSummary, board: int, rules: Rules, symbols: bool = True) -> list[str]:
    """The end of a board: who took which point card and the settlement (no match score: a board stands alone)."""
    lines = result_lines(summary, ME, rules, summary.score, symbols)
    return [f"Board {board} is over.", *lines[1:-1]]


def traveller_lines(t: Traveller, symbols: bool = True) -> list[str]:
    """A traveller in lines of at most 78 characters: each result (yours marked ``>``), then the hands."""
    n = len(t.lines)
    lines = [f"Board {t.board} of {quoted(t.set_name)}, dealt by {t.dealer}: {n} result{'s' if n != 1 else ''}, "
             "best for NS first."]
    width = min(14, max(len(line.entrant) for line in t.lines))
    lines.append(f"  {'Who':<{width}}  {'Contract':<15} {'Took':>5} {'NS-EW':>6} {'MP':>5} {'%':>4}  Par")
    for line in t.lines:
        r = line.result
        took = "-" if r.points is None else f"{r.points[0]}-{r.points[1]}"
        par = "-" if r.par is None else f"{r.par.points[0]}-{r.par.points[1]}"
        mp = line.matchpoints
        who = line.entrant if len(line.entrant) <= width else line.entrant[:width - 1] + "…"
        lines.append(f"{'>' if line.mine else ' '} {who:<{width}}  {r.contract_text(symbols):<15} {took:>5} "
                     f"{r.result:>+6d} {f'{mp.points}/{mp.top}':>5} {mp.percent:>4.0f}  {par}")
    lines.append("Par: each table's points with every card open, from its first lead.")
    lines.append("Hands as dealt:")
    for seat, hand in zip(SEATS, t.hands, strict=True):
        lines.append(f"  {seat_name(seat, ME):<12} {hand_text(hand, None, symbols)}")
    return lines


def standings_lines(ranking: list[Standing], you: str = YOU) -> list[str]:
    """The ranking in lines: rank, who, percentage, total points."""
    if not ranking:
        return []
    boards = max(s.boards for s in ranking)
    lines = [f"Ranking over {boards} board{'s' if boards != 1 else ''} (matchpoints %, then total points):"]
    width = max(len(s.entrant) for s in ranking)
    for s in ranking:
        mark = ">" if s.entrant == you else " "
        lines.append(f"{mark} {s.rank:>2}  {s.entrant:<{width}}  {s.percentage:6.2f}%  {s.total:+5d}")
    return lines


__all__ = ["BoardNarrator", "BoardSaver", "BoardTable", "DuplicateSession", "attempt_label", "board_over_lines",
           "standings_lines", "traveller_lines", "unfinished"]
