"""The action space and observations shared by the OpenSpiel and PettingZoo adapters.

One fixed set of 188 distinct actions covers every decision of every rule preset:

====================  ==========  ==========================================================
ids                   action      meaning
====================  ==========  ==========================================================
0                     pass
1 .. 26               bid n       id = n (26 is the most a deal can hold, Sancho and Dom)
27 .. 30              trump       27 + suit (S H D C)
31 .. 82              play c      31 + card index (a card to the trick)
83 .. 134             keep c      83 + card: one more card for the hand being kept
135                   keep done   the hand kept so far is the whole keep
136 .. 187            bury c      136 + card: one more card buried under the card played
====================  ==========  ==========================================================

A keep (a discard with a choice, keeping six of many trumps, the dealer's rob) can have
tens of thousands of legal hands, so it is split into one card at a time.  The cards the
rules force into the hand are kept without asking; the player then picks the other
cards he keeps, in ascending card order, and ends with ``keep done``.  A pick is legal
only if some legal hand still completes it (with cards above it), and ``done`` only if
the hand so far is legal, so every sequence ends in a legal keep and every legal keep has
exactly one sequence.  When no further pick is possible the keep ends by itself.

Burying the excess on trick 1 (000's rule) is split the same way: ``play c`` names the
competing card, then ``bury`` picks the buried cards in ascending order, and the play is
made when the last one is picked.

The observation of a seat is its :class:`~cinch.view.SeatView` (never the full state),
plus, for the player in the middle of a keep or a bury, the cards picked so far.  Its pieces
are sized for the table: one row per seat (2 to 6) and one ``captured`` row per side (two at
four players, one per player cut-throat).

>>> obs_size(4), obs_size(3), obs_size(6)
(1480, 1289, 2174)

Both are one pack's: two-deck Cinch (``decks=2``, 104 cards, bids to 52) is refused at construction
(:func:`check_one_pack`), so that no id or observation ever means two things.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import cast

import numpy as np

from cinch.actions import BIDS, PASS, PLAYS, TRUMPS, Action, Bid, Keep, NameTrump, Pass, Play
from cinch.cards import CARDS, CardSet, Seat, bit_list
from cinch.deal import Deal
from cinch.errors import RulesError
from cinch.keep import KeepOptions
from cinch.rules import Rules
from cinch.seating import FOUR, Seating, seating
from cinch.view import Phase, SeatView

PASS_ID = 0
TRUMP_BASE = 27
PLAY_BASE = 31
KEEP_BASE = 83
KEEP_DONE = 135
BURY_BASE = 136
NUM_ACTIONS = 188
MAX_BID = 26

PHASES = ("dealing", "bidding", "trump", "discard", "restock", "rob", "play", "done")


def action_id(action: Action) -> int:
    """The id of a pass, bid, trump or plain play (keeps and buries take several ids)."""
    if isinstance(action, Pass):
        return PASS_ID
    if isinstance(action, Bid):
        return action.amount
    if isinstance(action, NameTrump):
        return TRUMP_BASE + action.suit
    if isinstance(action, Play) and not action.bury:
        return PLAY_BASE + action.card
    raise ValueError(f"{action} takes several ids; use Turn.ids_for")


def id_to_string(a: int) -> str:
    if a == PASS_ID:
        return "pass"
    if a < TRUMP_BASE:
        return f"bid {a}"
    if a < PLAY_BASE:
        return str(TRUMPS[a - TRUMP_BASE])
    if a < KEEP_BASE:
        return f"play {CARDS[a - PLAY_BASE]}"
    if a < KEEP_DONE:
        return f"keep {CARDS[a - KEEP_BASE]}"
    if a == KEEP_DONE:
        return "keep done"
    if a < NUM_ACTIONS:
        return f"bury {CARDS[a - BURY_BASE]}"
    raise ValueError(f"no action has id {a}")


class Turn:
    """A deal whose keep and bury decisions are taken one card at a time.

    ``legal_ids()`` and ``apply_id()`` drive it; ``deal`` is the engine's state, which
    changes only when a whole action is complete.  ``picked`` holds the cards picked so far
    in a pending keep or bury (known to the player making it, and to nobody else).
    """

    __slots__ = ("deal", "picked", "last", "card", "steps")

    def __init__(self, deal: Deal):
        self.deal = deal
        self.picked = 0  # cards picked so far (keep or bury)
        self.last = -1  # the highest card picked
        self.card = -1  # the competing card named, while burying
        self.steps: list[int] = []  # the ids of the pending keep or bury so far

    def __deepcopy__(self, memo) -> Turn:
        new = Turn.__new__(Turn)
        new.deal = self.deal.copy()
        new.picked, new.last, new.card = self.picked, self.last, self.card
        new.steps = list(self.steps)
        return new

    def copy(self) -> Turn:
        return copy.deepcopy(self)

    @property
    def actor(self) -> Seat | None:
        """The seat to decide now (None at chance and at the end)."""
        phase = self.deal.phase
        if phase is Phase.RESTOCK or phase is Phase.DONE:
            return None
        return self.deal.to_act

    @property
    def pending(self) -> bool:
        """Whether a keep or a bury is half made."""
        return bool(self.steps)

    # ---- legal ids -------------------------------------------------------------------
    def legal_ids(self) -> list[int]:
        deal = self.deal
        phase = deal.phase
        if phase is Phase.PLAY:
            if self.card >= 0:
                return [BURY_BASE + b for b in self._bury_next()]
            legal = legal_plays(deal)
            if legal and legal[0].bury:
                return sorted({PLAY_BASE + p.card for p in legal})
            return [PLAY_BASE + p.card for p in legal]
        if phase is Phase.BIDDING:
            return [action_id(a) for a in deal.legal_actions()]
        if phase is Phase.TRUMP:
            return [TRUMP_BASE, TRUMP_BASE + 1, TRUMP_BASE + 2, TRUMP_BASE + 3]
        if phase is Phase.DISCARD or phase is Phase.ROB:
            options = deal.legal_actions()
            assert isinstance(options, KeepOptions)
            ids = [KEEP_BASE + c for c in self._keep_next(options)]
            if options.violation(options.must | self.picked) is None and (ids or not self.steps):
                ids.append(KEEP_DONE)
            return ids
        return []

    def _keep_next(self, options: KeepOptions) -> list[int]:
        """Cards that may be picked next: above the last pick, with a legal hand completing them."""
        trumps = options.trumps
        kept = options.must | self.picked
        free = options.pool & ~kept & ~((2 << self.last) - 1 if self.last >= 0 else 0)
        out = []
        n_kept = kept.bit_count()
        t_kept = (kept & trumps).bit_count()
        for c in bit_list(free):
            above = free & ~((2 << c) - 1)
            k0 = n_kept + 1
            t0 = t_kept + (trumps >> c & 1)
            nt = (above & trumps).bit_count()
            nn = above.bit_count() - nt
            need = max(0, options.min_trumps - t0)
            if k0 + need <= options.hi and need <= nt and k0 + nt + nn >= options.lo:
                out.append(c)
        return out

    def _bury_options(self) -> list[int]:
        return [int(p.bury) for p in legal_plays(self.deal) if p.card == self.card]

    def _bury_next(self) -> list[int]:
        picked = self.picked
        low = (2 << self.last) - 1 if self.last >= 0 else 0
        out = set()
        for m in self._bury_options():
            if m & picked == picked and m & low == picked and m & ~picked:
                rest = m & ~picked
                out.add((rest & -rest).bit_length() - 1)
        return sorted(out)

    # ---- applying ids -------------------------------------------------------------------
    def apply_id(self, a: int) -> None:
        deal = self.deal
        phase = deal.phase
        if phase is Phase.PLAY:
            if self.card >= 0:
                b = a - BURY_BASE
                if not 0 <= b < 52 or b not in self._bury_next():
                    raise ValueError(f"{id_to_string(a)} is not legal now")
                self.picked |= 1 << b
                self.last = b
                self.steps.append(a)
                if self.picked in self._bury_options():  # every way to bury has the same size
                    action = Play(CARDS[self.card], CardSet(self.picked))
                    self._reset()
                    deal.apply(action)
                return
            c = a - PLAY_BASE
            if not 0 <= c < 52:
                raise ValueError(f"{id_to_string(a)} is not legal now")
            legal = legal_plays(deal)
            if legal and legal[0].bury:
                if not any(p.card == c for p in legal):
                    raise ValueError(f"{id_to_string(a)} is not legal now")
                self.card = c
                self.steps.append(a)
                return
            deal.apply(PLAYS[c])
            return
        if phase is Phase.BIDDING:
            deal.apply(PASS if a == PASS_ID else BIDS.get(a) or Bid(a))
            return
        if phase is Phase.TRUMP:
            if not TRUMP_BASE <= a < PLAY_BASE:
                raise ValueError(f"{id_to_string(a)} is not legal now")
            deal.apply(TRUMPS[a - TRUMP_BASE])
            return
        if phase is Phase.DISCARD or phase is Phase.ROB:
            options = deal.legal_actions()
            assert isinstance(options, KeepOptions)
            if a == KEEP_DONE:
                if KEEP_DONE not in self.legal_ids():
                    raise ValueError("keep done is not legal now: the hand kept so far is not a legal keep")
                self._finish_keep(options)
                return
            c = a - KEEP_BASE
            if not 0 <= c < 52 or c not in self._keep_next(options):
                raise ValueError(f"{id_to_string(a) if 0 <= a < NUM_ACTIONS else a} is not legal now")
            self.picked |= 1 << c
            self.last = c
            self.steps.append(a)
            if not self._keep_next(options):
                self._finish_keep(options)
            return
        raise ValueError(f"no decision is pending ({phase.value})")

    def _finish_keep(self, options: KeepOptions) -> None:
        kept = options.must | self.picked
        self._reset()
        self.deal.apply(Keep(CardSet(kept)))

    def _reset(self) -> None:
        self.picked = 0
        self.last = -1
        self.card = -1
        self.steps = []

    # ---- whole actions as ids --------------------------------------------------------------
    def ids_for(self, action: Action) -> list[int]:
        """The ids that make ``action`` from here (the state is left unchanged)."""
        if isinstance(action, Keep):
            trial = self.copy()
            options = trial.deal.legal_actions()
            assert isinstance(options, KeepOptions)
            ids = []
            cards = bit_list(int(action.cards) & ~options.must & ~trial.picked)
            for i, c in enumerate(cards):
                ids.append(KEEP_BASE + c)
                trial.apply_id(KEEP_BASE + c)
                if not trial.steps:  # the keep ended by itself
                    if i != len(cards) - 1:
                        raise ValueError(f"{action} is not a legal keep")
                    return ids
            ids.append(KEEP_DONE)
            return ids
        if isinstance(action, Play) and action.bury:
            return [PLAY_BASE + action.card] + [BURY_BASE + b for b in bit_list(int(action.bury))]
        if isinstance(action, Play):
            legal = legal_plays(self.deal)
            if legal and legal[0].bury:
                raise ValueError(f"{action} must bury cards")
        return [action_id(action)]

    def action_of(self, ids: Sequence[int]) -> Action:
        """The whole action a sequence of ids makes from here."""
        trial = self.copy()
        before = len(trial.deal.history)
        for a in ids:
            trial.apply_id(a)
        if len(trial.deal.history) != before + 1:
            raise ValueError("the ids do not make exactly one action")
        return trial.deal.history[-1]


def legal_plays(deal: Deal) -> Sequence[Play]:
    """The legal actions of a deal in its play phase, typed as what they are there: plays."""
    return cast("Sequence[Play]", deal.legal_actions())


def new_deal(rules: Rules, dealer: int, deck: Sequence[int]) -> Deal:
    return Deal(rules, dealer, [CARDS[c] for c in deck])


def deal_seat(dealer: int, position: int, table: Seating = FOUR) -> int | None:
    """The seat the card at ``position`` of the deck is dealt to (None: the stock).

    The cards go in batches of three from the dealer's left:

    >>> deal_seat(0, 0), deal_seat(0, 3), deal_seat(2, 3, seating(3)), deal_seat(0, 27, seating(3))
    (1, 2, 1, None)
    """
    if position >= table.players * table.dealt:
        return None
    return (dealer + 1 + position // 3) % table.players


# ---- observations --------------------------------------------------------------------------

def pieces(players: int = 4) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The named pieces of the observation at a table of ``players``, in order, with their shapes."""
    n = players
    return (
        ("seat", (n,)),
        ("dealer", (n,)),
        ("phase", (len(PHASES),)),
        ("to_act", (n,)),
        ("hand", (52,)),
        ("bids", (n, MAX_BID + 2)),  # per seat: nothing yet, pass, or its highest bid
        ("high_bid", (MAX_BID + 1,)),
        ("maker", (n,)),
        ("trump", (4,)),
        ("own_discards", (52,)),
        ("face_up_discards", (n, 52)),
        ("shown_trumps", (n, 52)),
        ("own_drawn", (52,)),
        ("stock_seen", (52,)),
        ("drawn_counts", (n,)),  # divided by 16
        ("hand_sizes", (n,)),  # divided by 14
        ("played", (n, 52)),  # every card each seat has played (buried ones too)
        ("captured", (seating(n).sides, 52)),  # cards each side has taken in tricks
        ("current_trick", (n, 52)),
        ("trick_leader", (n,)),
        ("tricks_done", (1,)),  # divided by 9
        ("picked", (52,)),  # the keep or bury half made by this seat
        ("named_card", (52,)),  # the card named before burying
        # Last, so that the pieces above keep their places: the trumps once the suit is named,
        # the left Pedro with them, or the left bower that replaces it under ``bowers``.
        ("trump_cards", (52,)),
    )


PIECES = pieces(4)  # the partnership game's
PRIVATE = {"hand", "own_discards", "own_drawn", "stock_seen", "picked", "named_card"}


def obs_size(players: int = 4) -> int:
    """How many numbers the observation holds at a table of ``players``."""
    return sum(int(np.prod(shape)) for _, shape in pieces(players))


OBS_SIZE = obs_size(4)


def _set_cards(row: np.ndarray, mask: int) -> None:
    for c in bit_list(int(mask)):
        row[c] = 1.0


def encode_view(out: dict[str, np.ndarray], view: SeatView | None, seat: int, *, dealer: int = 0,
                dealt: int = 0, picked: int = 0, named: int = -1, private: bool = True,
                players: int | None = None) -> None:
    """Write a seat's knowledge into the named pieces of ``out`` (zeroed first by the caller).

    ``out`` comes from :func:`make_buffers` for the view's table.  ``view`` is None while the
    cards are being dealt: then only ``dealt`` (the cards this seat has received so far) is known.
    """
    n = out["seat"].shape[0]
    table_size = view.players_count if view is not None else players
    if table_size is not None and table_size != n:
        raise ValueError(f"the observation is sized for {n} players, the deal has {table_size}")
    out["seat"][seat] = 1.0
    if view is None:
        out["dealer"][dealer] = 1.0
        out["phase"][0] = 1.0
        if private:
            _set_cards(out["hand"], dealt)
        return
    out["dealer"][view.dealer] = 1.0
    out["phase"][PHASES.index(view.phase.value)] = 1.0
    if view.to_act is not None:
        out["to_act"][view.to_act] = 1.0
    if private:
        _set_cards(out["hand"], view.hand)
        _set_cards(out["own_discards"], view.own_discards)
        _set_cards(out["own_drawn"], view.own_drawn)
        _set_cards(out["stock_seen"], view.stock_seen)
        _set_cards(out["picked"], picked)
        if named >= 0:
            out["named_card"][named] = 1.0
    bids = out["bids"]
    best = [0] * n
    high = 0
    for bidder, a in view.auction:
        if isinstance(a, Bid):
            best[bidder] = max(best[bidder], a.amount + 1)
            high = max(high, a.amount)
        elif not best[bidder]:
            best[bidder] = 1
    for s in range(n):
        bids[s, min(best[s], MAX_BID + 1)] = 1.0
    out["high_bid"][min(high, MAX_BID)] = 1.0
    if view.maker is not None:
        out["maker"][view.maker] = 1.0
    if view.trump is not None:
        out["trump"][view.trump] = 1.0
        _set_cards(out["trump_cards"], view.rules.trump_tables[view.trump].trumps)
    for s in range(n):
        _set_cards(out["face_up_discards"][s], view.face_up_discards[s])
        _set_cards(out["shown_trumps"][s], view.shown_trumps[s])
        out["drawn_counts"][s] = min(view.drawn_counts[s], 16) / 16.0
        out["hand_sizes"][s] = min(view.hand_sizes[s], 14) / 14.0
    played = out["played"]
    captured = out["captured"]
    side_of = view.rules.seating.side_of
    for trick in view.tricks:
        for p in trick.plays:
            m = 1 << p.card | p.buried
            _set_cards(played[p.seat], m)
            _set_cards(captured[side_of[trick.winner]], m)
    for p in view.current_trick:
        _set_cards(played[p.seat], 1 << p.card | p.buried)
        out["current_trick"][p.seat, p.card] = 1.0
    if view.trick_leader is not None:
        out["trick_leader"][view.trick_leader] = 1.0
    out["tricks_done"][0] = len(view.tricks) / 9.0


def make_buffers(players: int = 4) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """A zeroed observation for a table of ``players``, and its pieces by name (views into it)."""
    tensor = np.zeros(obs_size(players), np.float32)
    named = {}
    i = 0
    for name, shape in pieces(players):
        size = int(np.prod(shape))
        named[name] = tensor[i:i + size].reshape(shape)
        i += size
    return tensor, named


def view_text(view: SeatView | None, seat: int, *, dealer: int = 0, dealt: int = 0, picked: int = 0,
              named: int = -1, private: bool = True, history: bool = True, players: int | None = None) -> str:
    """The seat's knowledge as text: equal texts mean equal knowledge.

    ``players`` names the table while the cards are dealt (``view`` None); a view knows its table.
    """
    names = (view.rules.seating if view is not None else seating(players or 4)).names
    s = names[seat]
    if view is None:
        text = f"seat {s} dealer {names[dealer]} dealing"
        return text + (f"\nhand {CardSet(dealt)}" if private else "")
    lines = [f"seat {s} dealer {view.dealer} phase {view.phase.value} to_act {view.to_act}"]
    if private:
        lines.append(f"hand {view.hand}")
    lines.append("auction " + " ".join(f"{a}:{b}" for a, b in view.auction))
    lines.append(f"maker {view.maker} bid {view.bid} trump {view.trump}")
    lines.append("hand_sizes " + " ".join(map(str, view.hand_sizes)) +
                 " drawn " + " ".join(map(str, view.drawn_counts)))
    if any(view.shown_trumps):
        lines.append("shown " + " / ".join(str(x) for x in view.shown_trumps))
    if any(view.face_up_discards):
        lines.append("face_up " + " / ".join(str(x) for x in view.face_up_discards))
    if private:
        if view.own_discards:
            lines.append(f"own_discards {view.own_discards}")
        if view.own_drawn:
            lines.append(f"own_drawn {view.own_drawn}")
        if view.stock_seen:
            lines.append(f"stock_seen {view.stock_seen}")
    if history:
        for trick in view.tricks:
            plays = " ".join(f"{p.seat}:{p.card}" + (f"+{p.buried}".replace(" ", "+") if p.buried else "")
                             for p in trick.plays)
            lines.append(f"trick {plays} won {trick.winner}")
    else:
        lines.append("played " + " / ".join(str(CardSet(m)) for m in view.played_by()))
        lines.append(f"tricks {len(view.tricks)}")
    if view.current_trick:
        lines.append("current " + " ".join(f"{p.seat}:{p.card}" + (f"+{p.buried}".replace(" ", "+")
                                                                    if p.buried else "")
                                          for p in view.current_trick))
    if private and (picked or named >= 0):
        lines.append(f"picking {CARDS[named] if named >= 0 else ''} {CardSet(picked)}".rstrip())
    return "\n".join(lines)


def check_one_pack(rules: Rules, what: str) -> None:
    """Refuse two-deck Cinch in ``what`` (an adapter, the dataset): the fixed 188 actions and the
    observation name each card of one pack, and two packs hold 104 (twins sharing one card's text).

    One size for every learner was chosen over a second, larger space that would change every id.

    >>> check_one_pack(Rules.preset("official").with_options(decks=2), "the OpenSpiel game")
    Traceback (most recent call last):
    ...
    cinch.errors.RulesError: the OpenSpiel game takes one pack only (52 cards, 2 to 6 players): the 188 action ids ...
    """
    if rules.decks != 1:
        raise RulesError(f"{what} takes one pack only (52 cards, 2 to 6 players): the {NUM_ACTIONS} action ids and "
                         "the observation name each card of one pack, and two-deck Cinch (decks=2) has 104; "
                         "leave out decks=2")


def zero_sum(rules: Rules) -> bool:
    """Whether a deal's returns sum to zero: two sides (four in partnerships, or two players)."""
    return rules.seating.sides == 2


def seat_returns(deal: Deal) -> list[float]:
    """Each seat's return for a finished deal (zeros before the end).

    Two sides (four players in partnerships, or two players): the seat's side's score change
    less the other side's, so the deal is zero-sum.  Three, five or six players, each for
    himself: the seat's own score change.
    """
    table = deal.rules.seating
    if deal.result is None:
        return [0.0] * table.players
    change = deal.result.score_change
    sides = [change[table.side_of[s]] for s in range(table.players)]
    if table.sides == 2:
        return [float(2 * own - sum(change)) for own in sides]  # ours less theirs
    return [float(own) for own in sides]


def utility_bound(rules: Rules) -> float:
    """The largest return, either way, a deal can give a seat under these rules."""
    return float(rules.total_points + rules.highest_bid)


def max_decisions(rules: Rules) -> int:
    """An upper bound on the decisions of one deal, sub-decisions included."""
    n = rules.players
    # one call each; an auction: a bid for each amount, and a pass from everyone
    bidding = n if rules.bidding.value == "one-circuit" else rules.highest_bid - rules.min_bid + 1 + n
    # the trump; a keep of up to six picks and its "done" for everyone and the robbing dealer;
    # a card a trick each; the buried cards (fewer than nine a seat)
    return bidding + 1 + (n + 1) * 7 + n * rules.tricks + n * 9


def shuffled_deck(rng: random.Random) -> list[int]:
    deck = list(range(52))
    rng.shuffle(deck)
    return deck
