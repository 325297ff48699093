"""Cinch as an OpenSpiel game.  Importing this module registers ``python_cinch``.

>>> import pyspiel
>>> import cinch.adapters.openspiel
>>> game = pyspiel.load_game("python_cinch(rules=difference)")
>>> game.num_players(), game.num_distinct_actions()
(4, 188)

One episode is one deal.  The game parameters are ``rules`` (a preset name, or a JSON
object such as ``{"preset": "additive", "follow": "strict"}``), ``options`` (overrides
as ``key=value`` or ``key:value`` pairs separated by commas, semicolons or spaces; inside a
``load_game`` string write ``options=target:42;sancho:true``) and
``dealer`` (a seat: ``N``, ``E``, ``S`` or ``W`` at four, ``1`` to ``n`` cut-throat; default
the first, ``N`` or ``1``; inside a ``load_game`` string quote a number, ``dealer="2"``).

The number of players is the rules' ``players`` option (2 to 6, default 4):

>>> game = pyspiel.load_game("python_cinch(rules=pagat,options=players:3)")
>>> game.num_players(), game.observation_tensor_size(), str(game.get_type().utility)
(3, 1289, 'Utility.GENERAL_SUM')

- Chance is explicit: the 52 cards of the deck are dealt one chance node at a time, top
  first (each outcome a card id 0-51, uniform over the cards not yet dealt); the hands'
  cards (36 at four players) go in batches of three from the dealer's left, the rest are the
  stock in order.  When
  the stock runs out and the rules make a new stock of the discards, its order is chance
  too, one card at a time.
- Decisions use the 188 ids of :mod:`cinch.adapters._core` (keeps and buries one card at a
  time).
- Returns: at the end of the deal, with two sides (four players in partnerships, or two
  players) each player gets its side's score change less the other side's (zero-sum); with
  three, five or six, each for himself, each gets his own score change (general-sum).
- Information state and observation: built only from ``Deal.view(seat)`` (plus the
  player's own half-made keep or bury).  The information state string holds every
  finished trick; the observation string keeps only the cards each seat has played.
- ``resample_from_infostate(player, sampler)`` returns a new state whose information state
  for ``player`` is the same, drawn with :mod:`cinch.worlds`; OpenSpiel's ISMCTSBot uses
  it for its determinizations.
- One pack: two-deck Cinch (``options=decks:2``) is refused when the game is loaded, in one line
  (:func:`cinch.adapters._core.check_one_pack`): the ids and the observation are one pack's.
"""

from __future__ import annotations

import json
import random
import re

import pyspiel

from cinch import worlds
from cinch.adapters import _core
from cinch.adapters._core import NUM_ACTIONS, Turn
from cinch.cards import CARDS, Seat, bit_list
from cinch.deal import Deal
from cinch.errors import RulesError
from cinch.rules import Rules
from cinch.seating import MAX_PLAYERS, MIN_PLAYERS
from cinch.view import Phase, SeatView

SHORT_NAME = "python_cinch"
DEFAULT_PARAMS = {"rules": "pagat", "options": "", "dealer": ""}  # dealer "": the first seat
MAX_RESTOCK = 36


def _game_type(utility: pyspiel.GameType.Utility) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="Python Cinch (Double Pedro, High Five)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=MAX_PLAYERS,
        min_num_players=MIN_PLAYERS,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=DEFAULT_PARAMS,
    )


# Registered as zero-sum, the four-player game's type; a game of three, five or six players,
# each scoring for himself, reports its own type: general-sum.
_GAME_TYPE = _game_type(pyspiel.GameType.Utility.ZERO_SUM)
_CUT_THROAT_TYPE = _game_type(pyspiel.GameType.Utility.GENERAL_SUM)


def rules_from_params(params: dict) -> Rules:
    """The rules named by the game parameters ``rules`` and ``options``."""
    spec = str(params.get("rules", "pagat")).strip()
    rules = Rules.from_json(json.loads(spec)) if spec.startswith("{") else Rules.preset(spec)
    options = str(params.get("options", "") or "").strip()
    if options:
        pairs = {}
        for item in re.split(r"[,;\s]+", options):
            if item:
                key, sep, value = item.partition("=") if "=" in item else item.partition(":")
                if not sep:
                    raise RulesError(f"option {item!r} must be written key=value or key:value")
                pairs[key.strip()] = value.strip()
        rules = rules.with_options(**pairs)
    return rules


class _Shared:
    """What every state of one game shares; cloning a state shares it instead of copying it."""

    __slots__ = ("game", "rules", "dealer")

    def __init__(self, game: CinchGame):
        self.game = game
        self.rules = game.rules
        self.dealer = int(game.dealer)

    def __deepcopy__(self, memo) -> _Shared:
        return self


class CinchGame(pyspiel.Game):
    """One deal of Cinch under one set of rules, at the table its ``players`` option sets."""

    def __init__(self, params: dict | None = None):
        params = {**DEFAULT_PARAMS, **dict(params or {})}
        rules = rules_from_params(params)
        _core.check_one_pack(rules, "the OpenSpiel game python_cinch")
        table = rules.seating
        zero_sum = _core.zero_sum(rules)
        bound = _core.utility_bound(rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=52,
            num_players=table.players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=_core.max_decisions(rules),
        )
        super().__init__(_GAME_TYPE if zero_sum else _CUT_THROAT_TYPE, info, params)
        self.rules = rules
        # A load_game string reads a bare number as an int, which this text parameter refuses:
        # there a cut-throat dealer is written quoted, dealer="2".
        dealer = str(params.get("dealer") or "").strip().strip("'\"")
        self.dealer = table.parse_seat(dealer) if dealer else table.seats[0]
        self._shared = _Shared(self)

    def new_initial_state(self) -> CinchState:
        return CinchState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> CinchObserver:
        return CinchObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params,
                             players=self.rules.players)

    def max_chance_nodes_in_history(self) -> int:
        return 52 + MAX_RESTOCK


class CinchState(pyspiel.State):
    """A deal in progress: the cards dealt so far, then the engine's deal (wrapped in a Turn)."""

    def __init__(self, game: CinchGame):
        super().__init__(game)
        self._shared = game._shared
        self._cards: list[int] = []  # the deck, top first, as dealt so far
        self._turn: Turn | None = None
        self._restock: list[int] = []  # the new stock's order, while it is being drawn

    # ---- the engine's view --------------------------------------------------------------
    @property
    def deal(self):
        """The engine's :class:`~cinch.deal.Deal` (None while the cards are being dealt)."""
        return None if self._turn is None else self._turn.deal

    @property
    def turn(self) -> Turn | None:
        return self._turn

    def current_player(self) -> int:
        if self._turn is None:
            return pyspiel.PlayerId.CHANCE
        phase = self._turn.deal.phase
        if phase is Phase.DONE:
            return pyspiel.PlayerId.TERMINAL
        if phase is Phase.RESTOCK:
            return pyspiel.PlayerId.CHANCE
        to_act = self._turn.deal.to_act
        assert to_act is not None  # someone acts in every other phase
        return int(to_act)

    def _legal_actions(self, player: int) -> list[int]:
        assert self._turn is not None
        return self._turn.legal_ids()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._turn is None:
            dealt = set(self._cards)
            left = [c for c in range(52) if c not in dealt]
        else:
            taken = set(self._restock)
            left = [c for c in bit_list(int(self._turn.deal.restock_pool)) if c not in taken]
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _apply_action(self, action: int) -> None:
        turn = self._turn
        if turn is None:
            self._cards.append(int(action))
            if len(self._cards) == 52:
                self._turn = Turn(_core.new_deal(self._shared.rules, self._shared.dealer, self._cards))
            return
        deal = turn.deal
        if deal.phase is Phase.RESTOCK:
            self._restock.append(int(action))
            if len(self._restock) == int(deal.restock_pool).bit_count():
                order, self._restock = self._restock, []
                deal.apply_restock([CARDS[c] for c in order])
            return
        turn.apply_id(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"card {CARDS[action]}"
        return _core.id_to_string(action)

    def is_terminal(self) -> bool:
        return self._turn is not None and self._turn.deal.phase is Phase.DONE

    def returns(self) -> list[float]:
        if self._turn is None:
            return [0.0] * self._shared.rules.players
        return _core.seat_returns(self._turn.deal)

    def __str__(self) -> str:
        table = self._shared.rules.seating
        if self._turn is None:
            return (f"dealer {table.names[self._shared.dealer]} dealt "
                    + " ".join(str(CARDS[c]) for c in self._cards))
        deal = self._turn.deal
        lines = [f"{self._shared.rules.name} dealer {deal.dealer} phase {deal.phase.value} to_act {deal.to_act}"]
        lines.append("hands " + " / ".join(str(deal.hand(s)) for s in table.seats))
        lines.append("deck " + " ".join(str(c) for c in deal.deck))
        if deal.restock is not None:
            lines.append("restock " + " ".join(str(c) for c in deal.restock))
        if self._restock:
            lines.append("restocking " + " ".join(str(CARDS[c]) for c in self._restock))
        lines.append("actions " + ", ".join(str(a) for a in deal.history))
        if self._turn.steps:
            lines.append("picking " + ", ".join(_core.id_to_string(a) for a in self._turn.steps))
        if deal.result is not None:
            lines.append(deal.result.describe())
        return "\n".join(lines)

    # ---- what a player knows ----------------------------------------------------------------
    def knowledge(self, player: int):
        """(view or None while dealing, extra facts) for ``player``: all that the seat may know."""
        shared = self._shared
        if self._turn is None:
            table = shared.rules.seating
            dealt = 0
            for i, c in enumerate(self._cards):
                if _core.deal_seat(shared.dealer, i, table) == player:
                    dealt |= 1 << c
            return None, {"dealer": shared.dealer, "dealt": dealt, "players": table.players}
        turn = self._turn
        view = turn.deal.view(player)
        if turn.steps and turn.actor == player:
            return view, {"picked": turn.picked, "named": turn.card}
        return view, {}

    def resample_from_infostate(self, player_id: int, probability_sampler=None) -> CinchState:
        """A state that ``player_id`` cannot tell from this one (same information state)."""
        seed = int(probability_sampler() * 2 ** 53) if probability_sampler is not None else None
        return self.resample(player_id, random.Random(seed))

    def resample(self, player: int, rng: random.Random) -> CinchState:
        """:meth:`resample_from_infostate` with a Python random generator."""
        shared = self._shared
        new = shared.game.new_initial_state()
        if self._turn is None:  # still dealing: the others' cards so far are any of the unseen
            cards = list(self._cards)
            table = shared.rules.seating
            others = [i for i in range(len(cards)) if _core.deal_seat(shared.dealer, i, table) != player]
            mine = {cards[i] for i in range(len(cards)) if i not in others}
            unseen = [c for c in range(52) if c not in mine]
            rng.shuffle(unseen)
            for i, c in zip(others, unseen):
                cards[i] = c
            for c in cards:
                new.apply_action(c)
            return new
        turn = self._turn
        new = state_from_view(shared.game, turn.deal.view(player), rng)
        if turn.steps and turn.actor == player:  # the player's own half-made keep or bury
            for a in turn.steps:
                new.apply_action(a)
        return new


def state_from_view(game: CinchGame, view: SeatView, rng: random.Random) -> CinchState:
    """A state of ``game`` whose deal is a world drawn from ``view`` (:func:`cinch.worlds.sample_world`)."""
    world, sampled = worlds.sample_world(view, rng)
    return state_from_deal(game, sampled, stop_at_restock=view.phase is Phase.RESTOCK)


def state_from_deal(game: CinchGame, deal: Deal, *, stop_at_restock: bool = False) -> CinchState:
    """The state of ``game`` that a deal's deck, new stock and actions lead to.

    ``deal`` must be dealt from a full deck (``deal.deck``) by the game's dealer under the
    game's rules.
    """
    if int(deal.dealer) != int(game.dealer) or deal.rules != game.rules:
        raise ValueError("the deal's dealer and rules must be the game's")
    new = game.new_initial_state()
    for card in deal.deck:
        new.apply_action(int(card))
    turn = new._turn
    assert turn is not None  # the whole deck is dealt
    restock = [int(c) for c in deal.restock] if deal.restock is not None else []
    for action in deal.history:
        if turn.deal.phase is Phase.RESTOCK:
            for c in restock:
                new.apply_action(c)
        for a in turn.ids_for(action):
            new.apply_action(a)
    if turn.deal.phase is Phase.RESTOCK and restock and not stop_at_restock:
        for c in restock:
            new.apply_action(c)
    return new


def game_for(rules: Rules, dealer: Seat | int) -> CinchGame:
    """The ``python_cinch`` game for these rules and dealer (cached)."""
    spec = rules.to_json()
    key = (json.dumps(spec, sort_keys=True), int(dealer))
    game = _GAMES.get(key)
    if game is None:
        text = spec if isinstance(spec, str) else json.dumps(spec, sort_keys=True)
        game = _GAMES[key] = CinchGame({"rules": text, "dealer": rules.seating.names[int(dealer)]})
    return game


_GAMES: dict[tuple[str, int], CinchGame] = {}


class CinchObserver:
    """Observations and information states, from the seat's view only."""

    def __init__(self, iig_obs_type, params=None, players: int = 4):
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self.private = iig_obs_type.private_info != pyspiel.PrivateInfoType.NONE
        self.history = bool(iig_obs_type.perfect_recall)
        self.tensor, self.dict = _core.make_buffers(players)

    def set_from(self, state: CinchState, player: int) -> None:
        self.tensor.fill(0.0)
        view, extra = state.knowledge(player)
        _core.encode_view(self.dict, view, player, private=self.private, **extra)

    def string_from(self, state: CinchState, player: int) -> str:
        view, extra = state.knowledge(player)
        return _core.view_text(view, player, private=self.private, history=self.history, **extra)


pyspiel.register_game(_GAME_TYPE, CinchGame)
