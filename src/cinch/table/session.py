"""A match at a table: who sits where, whose turn it is, the bots' turns, undo, hints and saving.

Every front end (plain mode, the Textual table, the web server) plays through a
:class:`Table`: it never drives the turns itself.  :meth:`Table.advance` deals and
resolves chance until someone must decide; a person's action goes through
:meth:`Table.act`, which checks the seat and the rules and saves before it returns;
a bot's turn is a :class:`BotTurn` that the front end may think through on any thread
(``turn.decide()``) and hand back with :meth:`Table.play_bot`.

>>> from cinch import Rules, Seat
>>> table = Table.new(Rules.preset("pagat"), people={Seat.S: "you"}, bots="basic", seed=2)
>>> table.advance(), table.deal.dealer
(<Pending.BOT: 'bot'>, Seat.N)
>>> table.play_bots()  # E, the dealer's left, bids first
>>> table.advance(), table.to_act, table.view(Seat.S).phase
(<Pending.HUMAN: 'human'>, Seat.S, Phase.BIDDING)
>>> table.act(Seat.S, table.view(Seat.S).legal[0]); table.to_act != Seat.S
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from cinch.actions import Action, Claim, OutOfTurn, Play, Waive, parse_action
from cinch.bots import DEFAULT_BOT, make_bot
from cinch.bots.base import Bot
from cinch.cards import Card, Seat
from cinch.deal import Deal
from cinch.errors import CinchError, IllegalAction, quoted
from cinch.keep import KeepOptions
from cinch.match import DealSummary, Match
from cinch.record import replay, to_record
from cinch.rules import Rules
from cinch.shuffle import Shuffle
from cinch.table.advice import ADVISOR, Hint, ask_hint, hint_bot, suggest
from cinch.table.storage import Saver
from cinch.view import SeatView

BotFactory = Callable[[str, int], Bot]
"""``factory(name, seed)``: the bot that plays a seat (``cinch.bots.make_bot`` by default)."""

ShuffleSource = Callable[[int], Shuffle]
"""``source(number)``: the checkable shuffle that deals deal ``number`` (the server's fair shuffle)."""


def _make_bot(name: str, seed: int) -> Bot:
    return make_bot(name, seed=seed)


class Pending(Enum):
    """What the table waits for."""

    NEW_DEAL = "new-deal"  # nobody: the next deal is to be dealt (advance() does it)
    CHANCE = "chance"  # nobody: a new stock is to be shuffled (advance() does it)
    HUMAN = "human"  # a person's decision
    BOT = "bot"  # a bot's decision
    DEAL_OVER = "deal-over"  # a deal has ended: a front end shows it, then acknowledge()
    MATCH_OVER = "match-over"  # the match is won


@dataclass(frozen=True)
class BotTurn:
    """A bot's decision to make: think with :meth:`decide` anywhere, then :meth:`Table.play_bot`."""

    seat: Seat
    bot: Bot
    view: SeatView
    generation: int  # the table's state it was asked in: a later undo or new deal makes it stale

    def decide(self) -> tuple[Action | None, Exception | None]:
        """The bot's action, or the error it failed with (a broken bot must not stop the match)."""
        try:
            return self.bot.choose(self.view), None
        except Exception as e:
            return None, e


class Table:
    """One match at one table: the seats (people by name, bots by kind), the match, and its saving.

    ``bots`` are the seats the computer plays; every other seat is a person's.  With a
    ``seed`` the decks and the bots are repeatable, and undo rebuilds the match exactly.
    """

    def __init__(self, match: Match, bots: Mapping[Seat, Bot], *, names: Mapping[Seat, str] | None = None,
                 seed: int | None = None, seed_known: bool = False, saver: Saver | None = None,
                 bot_factory: BotFactory = _make_bot, undo: bool = True, hints: str | None = None,
                 shuffles: ShuffleSource | None = None):
        self.match = match
        self.bots = dict(bots)
        self.bot_names = dict(names) if names is not None else {s: b.name for s, b in self.bots.items()}
        self.shuffles = shuffles  # None: the match's rng shuffles
        self.seed = seed
        # A match dealt from its seed can be rebuilt exactly (the next decks included).
        self.seed_known = seed_known and seed is not None
        self.saver = saver if saver is not None else Saver()
        self.bot_factory = bot_factory
        self.undo_allowed = undo
        self.hints = hints  # the bot that gives hints (None: the strongest installed)
        self.advisor = make_bot(ADVISOR, seed=0)  # the quick suggestion, one bot for the whole match
        self.undos = 0
        self.generation = 0  # bumped when the match is rebuilt: older bot turns and hints are stale
        self.acknowledged = len(match.summaries)  # deal summaries a front end has shown
        self.notes: list[str] = []  # what went wrong and was mended (a bot's failure), for the front end

    # ---- making one ---------------------------------------------------------------------------------
    @classmethod
    def new(cls, rules: Rules, *, people: Mapping[Seat, str], bots: str | Mapping[Seat, str] = DEFAULT_BOT,
            seed: int | None = None, saver: Saver | None = None, bot_factory: BotFactory = _make_bot,
            undo: bool = True, hints: str | None = None) -> Table:
        """A fresh match: ``people`` by seat (their names), a bot in every other seat (one name for all,
        or a name per seat); repeatable for ``seed`` (a random seed if None)."""
        if seed is None:
            seed = random.SystemRandom().randrange(1_000_000)
        seats = rules.seating.seats  # N E S W, or 1 to n at a cut-throat table
        people = {seat_at(rules, s): name for s, name in people.items()}
        if not isinstance(bots, str):
            bots = {seat_at(rules, s): name for s, name in bots.items()}
        names = {s: (bots if isinstance(bots, str) else bots[s]) for s in seats if s not in people}
        players = {s: (people[s] if s in people else names[s]) for s in seats}
        match = Match(rules, players=players, rng=seed)
        robots = {s: bot_factory(names[s], _bot_seed(seed, s, 0)) for s in names}
        table = cls(match, robots, names=names, seed=seed, seed_known=True, saver=saver, bot_factory=bot_factory,
                    undo=undo, hints=hints)
        table.saver.start(match, human_seat=table.human, seed=seed, players=players)
        return table

    @classmethod
    def resume(cls, saver: Saver, match_id: int, *, bot_factory: BotFactory = _make_bot, undo: bool = True,
               hints: str | None = None) -> Table:
        """A match of the saver's library, at the exact action where it stopped, with the same bots in the
        same seats (seeded from the stored seed and the position, so resuming twice plays the same)."""
        from cinch.library import position_of, resume_seed

        library = saver.library
        if library is None:
            raise CinchError("no game library is open")
        stored = library.get(match_id)
        match = library.resume(match_id)
        position = position_of(match)
        names = {s: n for s, n in stored.players.items() if s != stored.human_seat}
        missing = [str(s) for s in match.table.seats if s != stored.human_seat and s not in names]
        if missing:
            raise CinchError(f"match {match_id}: no player is stored for seat {', '.join(missing)}")
        bots = {}
        for seat, name in names.items():
            try:
                bots[seat] = bot_factory(name, resume_seed(stored.seed, stored.id, position, seat.name))
            except CinchError as e:
                raise CinchError(f"match {match_id}: seat {seat} is played by {quoted(name)}: {e}") from None
        saver.attach(match_id, match)
        return cls(match, bots, names=names, seed=stored.seed, seed_known=False, saver=saver,
                   bot_factory=bot_factory, undo=undo, hints=hints)

    # ---- where the match stands ---------------------------------------------------------------------------
    @property
    def rules(self) -> Rules:
        return self.match.rules

    @property
    def deal(self) -> Deal | None:
        """The current deal, or the last one once it is over (None before the first)."""
        return self.match.deals[-1] if self.match.deals else None

    @property
    def people(self) -> tuple[Seat, ...]:
        """The seats people play (every seat without a bot)."""
        return tuple(s for s in self.match.table.seats if s not in self.bots)

    @property
    def human(self) -> Seat | None:
        """The one person's seat at a table with one person (None otherwise)."""
        return self.people[0] if len(self.people) == 1 else None

    @property
    def to_act(self) -> Seat | None:
        deal = self.match.current
        return None if deal is None else deal.to_act

    @property
    def last_summary(self) -> DealSummary | None:
        return self.match.summaries[-1] if self.match.summaries else None

    def pending(self) -> Pending:
        m = self.match
        deal = self.deal
        if deal is not None and deal.is_over and self.acknowledged < len(m.summaries):
            return Pending.DEAL_OVER
        if m.is_over:
            return Pending.MATCH_OVER
        if deal is None or deal.is_over:
            return Pending.NEW_DEAL
        if deal.to_act is None:
            return Pending.CHANCE
        return Pending.BOT if deal.to_act in self.bots else Pending.HUMAN

    def view(self, seat: Seat | None = None) -> SeatView | None:
        """What ``seat`` (by default the one person) may know of the current or last deal."""
        if seat is None:
            seat = self.human
        if seat is None or not self.match.deals:
            return None
        return self.match.view(seat)

    # ---- moving on -----------------------------------------------------------------------------------------
    def advance(self) -> Pending:
        """Deal and shuffle what needs no decision; then say who must act, or that a deal or the match ended."""
        while True:
            pending = self.pending()
            if pending is Pending.NEW_DEAL:
                self.start_deal()
            elif pending is Pending.CHANCE:
                self.match.resolve_chance()
                self._changed()
            else:
                return pending

    def start_deal(self) -> Deal:
        shuffle = None if self.shuffles is None else self.shuffles(len(self.match.deals) + 1)
        deal = self.match.start_deal(shuffle=shuffle)
        self._changed()
        return deal

    def acknowledge(self) -> None:
        """The end of the last deal has been shown: the next deal may be dealt."""
        self.acknowledged = len(self.match.summaries)

    def act(self, seat: Seat, action: Action, *, irregular: bool = False) -> None:
        """``seat`` takes ``action``: refused with :class:`IllegalAction` (naming the rule) if it is not that
        seat's turn or the rules forbid it; saved before this returns.

        Under the honour rule a person may also act against the rules, but only on purpose: a revoke
        (a card the follow rule forbids) needs ``irregular=True``, so that a slip is explained and not
        committed; a bid, a lead or a play out of turn (003) is an :class:`~cinch.actions.OutOfTurn` of the
        person's own seat; a misdeal is claimed with ``Claim("misdeal")`` by anyone before the first call.
        """
        if seat in self.bots:
            raise IllegalAction(action, f"{seat} is played by the {self.bot_names[seat]} bot")
        deal = self.match.current
        out_of_turn = deal is not None and seat != deal.to_act
        if deal is not None and self.rules.honour_rule:
            self._check_on_purpose(deal, seat, action, irregular)
        self._apply(seat, action)
        if out_of_turn:
            # Out of turn the turn moves (to the seat asked to claim): a bot's turn being thought is stale.
            self.generation += 1

    def _check_on_purpose(self, deal: Deal, seat: Seat, action: Action, irregular: bool) -> None:
        """Refuse an irregular action the person did not mean (honour rule), or another seat's."""
        legal = [] if isinstance(deal.legal_actions(), KeepOptions) else [str(a) for a in deal.legal_actions()]
        if isinstance(action, OutOfTurn) and action.seat != seat:
            raise IllegalAction(action, f"{seat} may act out of turn for his own seat only, not for {action.seat}",
                                legal)
        if seat != deal.to_act and not isinstance(action, (OutOfTurn, Claim)):
            who = "nobody" if deal.to_act is None else str(deal.to_act)
            raise IllegalAction(action, f"it is {who}'s turn, not {seat}'s"
                                + (f" (a bid, a lead or a play out of turn is made on purpose, as '{seat} out of turn: "
                                   f"{action}')" if deal.irregular_actions(seat) else ""), legal)
        if not irregular and isinstance(action, Play) and action in deal.irregular_actions(seat):
            raise IllegalAction(action, revoke_words(self.match.view(seat), action.card)
                                + "; the honour rule lets it be played only on purpose", legal)

    def irregular_actions(self, seat: Seat) -> list[Action]:
        """What the person in ``seat`` may do against the rules now (honour rule): a revoke on his turn, and
        under 003 a bid, a lead or a play out of turn when it is not; empty for a bot's seat or with the option off."""
        deal = self.match.current
        if deal is None or seat in self.bots:
            return []
        return deal.irregular_actions(seat)

    def revokes(self, seat: Seat) -> list[Play]:
        """The cards ``seat`` may play now only as a revoke (honour rule), as plays."""
        return [a for a in self.irregular_actions(seat) if isinstance(a, Play)]

    def _apply(self, seat: Seat, action: Action) -> None:
        self.match.apply(action, seat)
        self._changed()

    def why_illegal(self, action: Action, seat: Seat | None = None) -> str | None:
        """The rule that forbids ``action`` for ``seat`` now, in the engine's words (None if legal)."""
        seat = self.human if seat is None else seat
        deal = self.match.current
        if deal is None:
            return "no deal is in progress"
        if isinstance(action, Play) and seat is not None and action in deal.irregular_actions(seat):
            return revoke_words(self.match.view(seat), action.card)  # a revoke: the engine would take it
        trial = deal.copy()  # the check runs on a copy: the real deal is never touched
        try:
            trial.apply(action, seat)
        except IllegalAction as e:
            return e.rule
        return None

    def _changed(self) -> None:
        self.saver.save(self.match)

    # ---- the bots ------------------------------------------------------------------------------------------
    def bot_turn(self) -> BotTurn | None:
        """The bot to act now, with its view (None if no bot is to act)."""
        deal = self.match.current
        if deal is None or deal.to_act is None or deal.to_act not in self.bots:
            return None
        seat = deal.to_act
        return BotTurn(seat, self.bots[seat], self.match.view(seat), self.generation)

    def play_bot(self, turn: BotTurn, action: Action | None, error: Exception | None = None) -> bool:
        """Apply a bot's decision (False if the turn is stale: the table has moved on since).

        A bot that failed or chose an illegal action plays the first legal one instead, and
        :attr:`notes` says so.
        """
        if turn.generation != self.generation or self.to_act != turn.seat or self.bot_turn() is None:
            return False
        legal = turn.view.legal
        if error is not None or action is None or action not in legal:
            self.notes.append(f"{turn.seat}'s bot failed ({error or 'no legal action'}): "
                              "it takes the first legal choice.")
            action = legal[0]
        try:
            self._apply(turn.seat, action)
        except IllegalAction as e:
            self.notes.append(f"{turn.seat}'s bot chose an illegal {action} ({e.rule}): "
                              "it takes the first legal choice.")
            self._apply(turn.seat, legal[0])
        return True

    def play_bots(self) -> None:
        """Play the bots' turns here and now until a person must act or a deal ends."""
        while self.advance() is Pending.BOT:
            turn = self.bot_turn()
            assert turn is not None
            self.play_bot(turn, *turn.decide())

    def seat_bot(self, seat: Seat, name: str, seed: int = 0) -> None:
        """A bot called ``name`` plays ``seat`` from now on (a person who left, or a substitute); a bot's
        turn already being thought for another player of the seat goes stale."""
        self.bots[seat] = self.bot_factory(name, seed)
        self.bot_names[seat] = name
        self.generation += 1

    def seat_person(self, seat: Seat) -> None:
        """A person plays ``seat`` from now on (its bot's turn in progress, if any, goes stale)."""
        self.bots.pop(seat, None)
        self.bot_names.pop(seat, None)
        self.generation += 1

    def take_notes(self) -> list[str]:
        """What went wrong since the last call (a bot's failure, a save that failed), once."""
        notes, self.notes = self.notes, []
        problem = self.saver.take_problem()
        return notes + ([problem] if problem else [])

    # ---- advice --------------------------------------------------------------------------------------------
    def suggestion(self, seat: Seat) -> Action:
        """The quick advisor's choice for ``seat`` (the pre-marked hand of a keep)."""
        return suggest(self.match.view(seat), self.advisor)

    def hint_bot(self) -> tuple[str, Bot]:
        """The bot that gives hints, fresh: the table's choice, else the strongest installed."""
        return hint_bot() if self.hints is None else (self.hints, make_bot(self.hints, seed=0))

    def hint(self, seat: Seat) -> Hint:
        """What the hint bot would do for ``seat`` (slow: a front end calls it off its UI thread)."""
        name, bot = self.hint_bot()
        return ask_hint(name, bot, self.match.view(seat))

    # ---- undo ----------------------------------------------------------------------------------------------
    def undo_target(self, seat: Seat | None = None) -> int | None:
        """Index in the last deal's history of ``seat``'s last decision that may be taken back (None:
        nothing to undo): never once the match is over, nor past another person's decision."""
        seat = self.human if seat is None else seat
        deal = self.deal
        if deal is None or self.match.is_over or not self.undo_allowed:
            return None
        for i in range(len(deal.actors) - 1, -1, -1):
            actor = deal.actors[i]
            if actor == seat:
                return i
            if actor not in self.bots:
                return None
        return None

    def undo(self, seat: Seat | None = None) -> bool:
        """Take back ``seat``'s last decision in this deal, and the bots' actions after it.

        The match is rebuilt by replaying its record without them (the engine has no undo),
        and the bots are made afresh so that they do not simply repeat themselves.
        """
        index = self.undo_target(seat)
        if index is None:
            return False
        record = to_record(self.match)
        record["deals"][-1]["actions"] = record["deals"][-1]["actions"][:index]
        self.match = self._rebuild(record)
        self.undos += 1
        self.generation += 1
        self.bots = {s: self.bot_factory(name, _bot_seed(self.seed or 0, s, self.undos))
                     for s, name in self.bot_names.items()}
        self.acknowledged = min(self.acknowledged, len(self.match.summaries))
        self._changed()
        return True

    def _rebuild(self, record: dict[str, Any]) -> Match:
        if self.seed_known:
            # The same seed deals the same decks (and new stocks) in the same order: the rebuilt
            # match also deals the next decks it would have dealt.
            m = Match(self.rules, players=dict(self.match.players), rng=self.seed)
            try:
                for entry in record["deals"]:
                    deal = m.start_deal()
                    if deal.dealer.name != entry["dealer"] or " ".join(map(str, deal.deck)) != entry["deck"]:
                        raise CinchError("the seed does not deal this record")
                    for text in entry["actions"]:
                        while deal.to_act is None and not deal.is_over:
                            m.resolve_chance()
                        m.apply(parse_action(text))
                return m
            except CinchError:
                self.seed_known = False
        m = replay(record).match
        m.rng = random.Random(f"{self.seed}:{len(record['deals'])}:{self.undos}")
        return m


def default_seat(rules: Rules) -> Seat:
    """The person's seat unless chosen: S (South) at four, 1 at a cut-throat table."""
    table = rules.seating
    return Seat.S if table.partnership else table.seats[0]


def seat_at(rules: Rules, seat: Seat | int) -> Seat:
    """``seat`` as a seat of the rules' table (an index is taken as the seat with that number);
    :class:`CinchError` if it sits elsewhere (S at a table of three).

    >>> three = Rules.preset("official").with_options(players=3)
    >>> str(seat_at(three, 2)), str(seat_at(Rules.preset("official"), 2))
    ('3', 'S')
    >>> seat_at(three, Seat.S)
    Traceback (most recent call last):
    ...
    cinch.errors.CinchError: seat S is not at this table; the seats are 1 2 3
    """
    table = rules.seating
    if isinstance(seat, Enum) and not table.has_seat(seat):
        raise CinchError(f"seat {seat} is not at this table; the seats are {' '.join(table.names)}")
    if not 0 <= int(seat) < table.players:
        raise CinchError(f"seat {int(seat) + 1} is not at this table; the seats are {' '.join(table.names)}")
    return table.seats[int(seat)]


def _bot_seed(seed: int, seat: Seat, undos: int) -> int:
    """The seed of the bot in ``seat``: different per seat, and again after each undo."""
    return seed * 10 + 1 + seat + 100_003 * undos


# ---- the honour rule ------------------------------------------------------------------------------------------
def revoke_words(view: SeatView, card: int) -> str:
    """Why playing ``card`` now is a revoke, from the seat's view: the lead and what the seat holds.

    >>> from cinch import Deal, Rules
    >>> from cinch.deal import EXAMPLE_DECK
    >>> deal = Deal.from_actions(Rules.preset("pagat"), Seat.W, EXAMPLE_DECK)
    >>> revoke_words(deal.view(Seat.N), 0)  # before any lead, nothing is a revoke
    ''
    """
    if not view.current_trick or view.trump is None:
        return ""
    tables = view.rules.trump_tables[view.trump]
    led = Card(view.current_trick[0].card)
    played = Card(card)
    if tables.is_trump(led):
        return f"a trump was led ({led}) and {view.seat} holds trumps: playing {played} is a revoke"
    suit = led.suit.name.lower()
    return f"{led} was led and {view.seat} holds {suit}: playing {played} is a revoke"


def answer_choices(view: SeatView) -> list[Action]:
    """The claims and the waiver when ``view``'s seat is asked about an irregularity (honour rule), else
    empty: the engine then offers only these, the waiver last."""
    legal = view.legal
    if isinstance(legal, KeepOptions) or not legal or type(legal[-1]) is not Waive:
        return []
    return list(legal)
