"""A seat's view as numbers: the same numbers for every seat and every trump suit.

The learned models (:mod:`cinch.neural.models`) read one vector per decision, made here from a
:class:`~cinch.view.SeatView` and nothing else.  Two symmetries of the game are taken out of it,
so that one network serves every seat and every suit:

- **Seats** are counted from the deciding seat: me, my left, my partner, my right.
- **Suits** are put in a canonical order.  Once trumps are named: the trumps in trump order
  (ace to 2, the left Pedro in its place between the 5 and the 4), then the rest of the
  trumps' colour (its 5 gone), then the two suits of the other colour.  Before that (the
  bidding, the trump): the two suits of one colour, then the two of the other.  Where the
  rules leave two suits interchangeable (the two suits of the other colour; before trumps,
  the suits of a colour and the colours themselves) they are ordered by what the view holds
  in them, card by card, so that a deal whose suits are swapped gives the very same numbers.

A card is then its *slot* (0 to 51) in that order, and the vector is one row of
:data:`CHANNELS` numbers for each slot, followed by the facts of the deal as a whole
(:data:`GLOBALS`).  Each kind of decision has its *action slots*: a bid's are the pass and
the bids 1 to 14, a trump's the four suit places, a keep's and a play's the card slots.

The heuristic bot's own choice is one of the inputs (a card channel, or a one-hot over the
action slots): the network learns where the expert departs from it.

>>> from cinch import Deal, Rules, Seat
>>> view = Deal.shuffled(Rules.preset("official"), Seat.W, rng=3).view(Seat.N)
>>> e = encode(view)
>>> e.kind, e.x.shape == (FEATURES,), int(e.legal.sum()) == len(view.legal)
('bid', True, True)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from cinch.actions import BIDS, PASS, PLAYS, TRUMPS, Action, Bid, Keep, NameTrump, Pass, Play
from cinch.bots.base import make_bot
from cinch.bots.heuristic import expected_points
from cinch.cards import PARTNER_SUIT, CardSet, TrumpTables, bit_list
from cinch.keep import KeepOptions
from cinch.rules import PRESET_NAMES, Rules
from cinch.scoring import PointTable
from cinch.seating import PARTNERSHIP_PLAYERS
from cinch.view import Phase, PlayedCard, SeatView
from cinch.worlds import voids

__all__ = [
    "ACTION_SLOTS", "CHANNELS", "FEATURES", "GLOBALS", "HEURISTIC_INPUT", "KINDS", "LOCATIONS", "PRESETS",
    "SLOT_INPUTS", "Encoded", "action_slot", "coverage", "encode", "heuristic_slot", "kind_of", "slot_inputs",
]

PRESETS = PRESET_NAMES  # the presets the models know, in the order of their one-hot
KINDS = ("bid", "trump", "keep", "play")
MAX_BID = 14  # the presets' highest bid: the points of a deal
ACTION_SLOTS = {"bid": MAX_BID + 1, "trump": 4, "keep": 52, "play": 52}
LOCATIONS = ("left", "partner", "right", "out")  # where an unseen card may be: a hand, or none (stock, discards)
SUIT_CARDS = 13

# Per card slot, in this order.  "rel" channels go me, left, partner, right.
CHANNELS = (
    "hand", "played by me", "played by left", "played by partner", "played by right", "on the table now",
    "own discard", "own draw", "stock seen", "face up by me", "face up by left", "face up by partner",
    "face up by right", "shown by me", "shown by left", "shown by partner", "shown by right",
    "captured by us", "captured by them", "legal", "must keep", "unseen", "points / 5",
    "left cannot hold", "partner cannot hold", "right cannot hold", "heuristic's choice",
    "takes the trick", "master", "stronger out / 13",
)
CH = {name: i for i, name in enumerate(CHANNELS)}

# The deal as a whole: name and width.
GLOBALS = (
    ("preset", len(PRESETS)), ("phase", 5), ("dealer", 4), ("maker", 4), ("bid", MAX_BID), ("calls", 12),
    ("high bid", MAX_BID + 1), ("hand sizes", 4), ("drawn", 4), ("trick", 6), ("in trick", 4), ("led", 4),
    ("winning", 4), ("points", 2), ("suit values", 4), ("keep sizes", 3), ("heuristic's call", MAX_BID + 1),
    ("heuristic's trump", 4),
)
GLOBAL_AT: dict[str, int] = {}
_at = 52 * len(CHANNELS)
for _name, _width in GLOBALS:
    GLOBAL_AT[_name] = _at
    _at += _width
FEATURES = _at
# What each action slot's score also reads directly, beside the network (a weight per input, shared by
# the slots): a card slot its own card channels, a bid or a trump the heuristic's choice (and a trump the
# hand's worth in that suit).  The network then starts from the heuristic's choice and learns where to leave it.
SLOT_INPUTS = {"bid": 1, "trump": 2, "keep": len(CHANNELS), "play": len(CHANNELS)}
HEURISTIC_INPUT = {"bid": 0, "trump": 0, "keep": CH["heuristic's choice"], "play": CH["heuristic's choice"]}
PHASES = (Phase.BIDDING, Phase.TRUMP, Phase.DISCARD, Phase.ROB, Phase.PLAY)
KIND_OF_PHASE = {Phase.BIDDING: "bid", Phase.TRUMP: "trump", Phase.DISCARD: "keep", Phase.ROB: "keep",
                 Phase.PLAY: "play"}

_HEURISTIC = make_bot("heuristic", seed=0)  # deterministic: it draws no random numbers

# Match-level options: they change what a deal is worth to the match, not how it is played.
_MATCH_OPTIONS = ("target", "bidder_goes_out", "negative_floor", "makers_count_first")


def coverage(rules: Rules) -> str | None:
    """None when the models cover these rules; else why not, in words.

    They cover the five presets at four players with one pack, without the honour rule; an option
    changed from the preset is covered only when it is the match's (the target, going out).

    >>> coverage(Rules.preset("pagat").with_options(target=121)) is None
    True
    >>> coverage(Rules.preset("official").with_options(players=3))
    'three players (the models know four)'
    """
    if rules.players != PARTNERSHIP_PLAYERS:
        words = ("two", "three", "four", "five", "six")[rules.players - 2]
        return f"{words} players (the models know four)"
    if rules.decks != 1:
        return "two decks (the models know one pack)"
    if rules.honour_rule:
        return "the honour rule (the models never saw a claim)"
    preset = Rules.preset(rules.preset_name)
    same = dataclasses.replace(rules, **{k: getattr(preset, k) for k in _MATCH_OPTIONS})
    if same != preset:
        changed = [f.name for f in dataclasses.fields(Rules) if f.name not in ("overrides", *_MATCH_OPTIONS)
                   and getattr(rules, f.name) != getattr(preset, f.name)]
        return f"{rules.preset_name} with {', '.join(changed)} changed (the models know the presets as they are)"
    return None


def kind_of(view: SeatView) -> str | None:
    """The kind of decision the view asks for: bid, trump, keep or play (None: not a decision of the game)."""
    return KIND_OF_PHASE.get(view.phase)


@dataclass(frozen=True)
class Encoded:
    """One decision as the models read it, and the maps back to the game."""

    kind: str
    x: np.ndarray  # float32, FEATURES
    cards: tuple[int, ...]  # slot -> the card in it
    suits: tuple[int, ...]  # suit place -> the suit (a trump's action slots)
    legal: np.ndarray  # bool, ACTION_SLOTS[kind]: the slots of legal actions (a keep: the cards it may keep)
    must: np.ndarray  # bool, 52: a keep's cards that must stay (empty for other kinds)
    unseen: np.ndarray  # bool, 52 slots: cards whose place the seat does not know
    allowed: np.ndarray  # bool, 52 x 4: where each card slot may be (LOCATIONS), by counts and voids

    def slot_of(self, card: int) -> int:
        return self.cards.index(card)


def _rel(view: SeatView, seat: int) -> int:
    return (seat - view.seat) % PARTNERSHIP_PLAYERS


def _order(view: SeatView, grid: np.ndarray) -> tuple[list[int], list[int]]:
    """The canonical card order (slot -> card) and suit places (place -> suit) for this view.

    ``grid`` holds the card channels by card; interchangeable suits are ordered by its rows.
    """

    def key(suit: int) -> bytes:
        return grid[suit * SUIT_CARDS:(suit + 1) * SUIT_CARDS].tobytes()

    if view.trump is None:
        pairs = [sorted(p, key=key, reverse=True) for p in ((0, 3), (1, 2))]  # black, red
        pairs.sort(key=lambda p: (key(p[0]), key(p[1])), reverse=True)
        suits = pairs[0] + pairs[1]
        cards = [s * SUIT_CARDS + r for s in suits for r in range(SUIT_CARDS)]
        return cards, suits
    trump = int(view.trump)
    t = view.rules.trump_tables[trump]
    colour = PARTNER_SUIT[trump]
    others = sorted((s for s in range(4) if s not in (trump, colour)), key=key, reverse=True)
    cards = list(t.order)
    cards += [colour * SUIT_CARDS + r for r in range(SUIT_CARDS) if colour * SUIT_CARDS + r != t.left_pedro]
    cards += [s * SUIT_CARDS + r for s in others for r in range(SUIT_CARDS)]
    return cards, [trump, colour, *others]


def _set(grid: np.ndarray, channel: str, mask: int, value: float = 1.0) -> None:
    if mask:
        grid[bit_list(mask), CH[channel]] = value


def encode(view: SeatView, heuristic: Action | None = None) -> Encoded:
    """The decision ``view`` asks for, as numbers (``heuristic``: the heuristic bot's choice, if known)."""
    kind = kind_of(view)
    if kind is None:
        raise ValueError(f"no decision of the game to encode in the {view.phase} phase")
    if heuristic is None and len(view.legal) > 1:
        heuristic = _HEURISTIC.choose(view)
    rules = view.rules
    me = int(view.seat)
    grid = np.zeros((52, len(CHANNELS)), dtype=np.float32)
    rel = [_rel(view, s) for s in range(PARTNERSHIP_PLAYERS)]
    names = ("me", "left", "partner", "right")
    _set(grid, "hand", int(view.hand))
    # Played cards, by whom, and who took them.
    captured = [0, 0]  # us, them
    for trick in view.tricks:
        side = 0 if trick.winner.team == view.seat.team else 1
        for p in trick.plays:
            m = 1 << p.card | int(p.buried)
            _set(grid, f"played by {names[rel[p.seat]]}", m)
            captured[side] |= m
    on_table = 0
    for p in view.current_trick:
        m = 1 << p.card | int(p.buried)
        _set(grid, f"played by {names[rel[p.seat]]}", m)
        on_table |= m
    _set(grid, "on the table now", on_table)
    _set(grid, "captured by us", captured[0])
    _set(grid, "captured by them", captured[1])
    _set(grid, "own discard", int(view.own_discards))
    _set(grid, "own draw", int(view.own_drawn))
    _set(grid, "stock seen", int(view.stock_seen))
    for s in range(PARTNERSHIP_PLAYERS):
        _set(grid, f"face up by {names[rel[s]]}", int(view.face_up_discards[s]))
        _set(grid, f"shown by {names[rel[s]]}", int(view.shown_trumps[s]))
    unseen = ((1 << 52) - 1) & ~int(view.known_elsewhere)
    _set(grid, "unseen", unseen)
    void = voids(view)
    for s in range(PARTNERSHIP_PLAYERS):
        if s != me:
            _set(grid, f"{names[rel[s]]} cannot hold", void[s] & unseen)
    values = None
    if view.trump is not None:
        values = PointTable.of(rules, view.trump).value
        for c in range(52):
            if values[c]:
                grid[c, CH["points / 5"]] = values[c] / 5
    legal = view.legal
    must = 0
    if isinstance(legal, KeepOptions):
        _set(grid, "legal", int(legal.pool))
        must = int(legal.must)
        _set(grid, "must keep", must)
        if isinstance(heuristic, Keep):
            _set(grid, "heuristic's choice", int(heuristic.cards))
    elif kind == "play":
        for a in legal:
            if isinstance(a, Play):
                grid[a.card, CH["legal"]] = 1
        if isinstance(heuristic, Play):
            grid[heuristic.card, CH["heuristic's choice"]] = 1

    under_way = _trick_so_far(view)
    if view.trump is not None:
        _tactics(view, view.rules.trump_tables[view.trump], grid, unseen, under_way)
    cards, suits = _order(view, grid)
    x = np.zeros(FEATURES, dtype=np.float32)
    x[: 52 * len(CHANNELS)] = grid[cards].reshape(-1)
    g = _Globals(x)
    g.one("preset", PRESETS.index(rules.preset_name) if rules.preset_name in PRESETS else -1)
    g.one("phase", PHASES.index(view.phase))
    g.one("dealer", rel[view.dealer])
    if view.maker is not None:
        g.one("maker", rel[view.maker])
    if view.bid is not None and 1 <= view.bid <= MAX_BID:
        g.one("bid", view.bid - 1)
    high = 0
    for seat, call in view.auction:
        at = GLOBAL_AT["calls"] + 3 * rel[seat]
        x[at] = 1
        if isinstance(call, Pass):
            x[at + 1] = 1
        else:
            x[at + 2] = call.amount / MAX_BID
            high = max(high, call.amount)
    g.one("high bid", min(high, MAX_BID))
    for s in range(PARTNERSHIP_PLAYERS):
        x[GLOBAL_AT["hand sizes"] + rel[s]] = view.hand_sizes[s] / 9
        x[GLOBAL_AT["drawn"] + rel[s]] = view.drawn_counts[s] / 9
    if view.phase is Phase.PLAY:
        g.one("trick", min(len(view.tricks), 5))
        g.one("in trick", len(view.current_trick))
        if under_way is not None:
            led, _, winner = under_way
            g.one("led", suits.index(led))
            g.one("winning", rel[winner.seat])
    if values is not None:
        x[GLOBAL_AT["points"]] = sum(values[c] for c in bit_list(captured[0])) / MAX_BID
        x[GLOBAL_AT["points"] + 1] = sum(values[c] for c in bit_list(captured[1])) / MAX_BID
    else:
        position = (me - view.dealer) % PARTNERSHIP_PLAYERS
        for place, s in enumerate(suits):
            x[GLOBAL_AT["suit values"] + place] = expected_points(int(view.hand), s, rules, position) / MAX_BID
    if isinstance(legal, KeepOptions):
        at = GLOBAL_AT["keep sizes"]
        x[at:at + 3] = (legal.lo / 9, legal.hi / 9, legal.min_trumps / 9)
    if isinstance(heuristic, (Bid, Pass)):
        g.one("heuristic's call", 0 if isinstance(heuristic, Pass) else min(heuristic.amount, MAX_BID))
    elif isinstance(heuristic, NameTrump):
        g.one("heuristic's trump", suits.index(int(heuristic.suit)))

    slots = ACTION_SLOTS[kind]
    legal_slots = np.zeros(slots, dtype=bool)
    if kind in ("keep",):
        assert isinstance(legal, KeepOptions)
        legal_slots[[cards.index(c) for c in bit_list(int(legal.pool))]] = True
    else:
        for a in legal:
            slot = action_slot(kind, a, cards, suits)
            if slot is not None:
                legal_slots[slot] = True
    must_slots = np.zeros(52, dtype=bool)
    if must:
        must_slots[[cards.index(c) for c in bit_list(must)]] = True
    unseen_slots = grid[cards, CH["unseen"]] > 0
    allowed = _allowed(view, grid[cards], unseen_slots, rel)
    return Encoded(kind, x, tuple(cards), tuple(suits), legal_slots, must_slots, unseen_slots, allowed)


def _trick_so_far(view: SeatView) -> tuple[int, tuple[int, ...], PlayedCard] | None:
    """The trick under way: its suit led, each card's strength in it and the play winning it so far (None: no
    trick under way)."""
    if view.phase is not Phase.PLAY or not view.current_trick or view.trump is None:
        return None
    t = view.rules.trump_tables[view.trump]
    led = t.effective_suit[view.current_trick[0].card]
    strength = t.strength[led]
    return led, strength, max(view.current_trick, key=lambda p: strength[p.card])


def _tactics(view: SeatView, t: TrumpTables, grid: np.ndarray, unseen: int,
             under_way: tuple[int, tuple[int, ...], PlayedCard] | None) -> None:
    """What a card would do in the play, which a network reads poorly from card places alone: whether it
    would take the trick as it stands, whether no card another seat may hold beats it in its suit (a
    master), and how many such cards there are."""
    hand = int(view.hand)
    out = unseen
    for s in range(PARTNERSHIP_PLAYERS):
        if s != view.seat:
            out |= int(view.shown_trumps[s])
    out &= ~int(view.played)
    by_suit: list[list[int]] = [[], [], [], []]  # the strengths of the cards out, by effective suit
    for c in bit_list(out):
        suit = t.effective_suit[c]
        by_suit[suit].append(t.strength[suit][c])
    column_master, column_out = CH["master"], CH["stronger out / 13"]
    for c in bit_list(hand | out):
        suit = t.effective_suit[c]
        mine = t.strength[suit][c]
        stronger = sum(1 for v in by_suit[suit] if v > mine)
        grid[c, column_master] = stronger == 0
        grid[c, column_out] = stronger / SUIT_CARDS
    if under_way is not None:
        _, strength, winner = under_way
        best = strength[winner.card]
        for c in bit_list(hand):
            grid[c, CH["takes the trick"]] = strength[c] > best


def _allowed(view: SeatView, grid: np.ndarray, unseen: np.ndarray, rel: list[int]) -> np.ndarray:
    """Where each card slot may lie (LOCATIONS): a seat with cards in hand that has not shown a void in
    it, or elsewhere (the stock, the discards) while more cards are unseen than the other hands hold."""
    allowed = np.zeros((52, len(LOCATIONS)), dtype=bool)
    held = 0
    for s in range(PARTNERSHIP_PLAYERS):
        r = rel[s]
        if r == 0:
            continue
        held += view.hand_sizes[s]
        if view.hand_sizes[s]:
            allowed[:, r - 1] = grid[:, CH[f"{('left', 'partner', 'right')[r - 1]} cannot hold"]] == 0
    allowed[:, 3] = int(unseen.sum()) > held
    allowed[~unseen] = False
    return allowed


class _Globals:
    def __init__(self, x: np.ndarray):
        self.x = x

    def one(self, name: str, index: int) -> None:
        if index >= 0:
            self.x[GLOBAL_AT[name] + index] = 1


def slot_inputs(kind: str, x: np.ndarray) -> np.ndarray:
    """(B, slots, SLOT_INPUTS[kind]): each action slot's own inputs, from features ``x`` (B, FEATURES)."""
    n = len(x)
    if kind in ("keep", "play"):
        return x[:, :52 * len(CHANNELS)].reshape(n, 52, len(CHANNELS))
    if kind == "bid":
        at = GLOBAL_AT["heuristic's call"]
        return x[:, at:at + MAX_BID + 1].reshape(n, MAX_BID + 1, 1)
    h, v = GLOBAL_AT["heuristic's trump"], GLOBAL_AT["suit values"]
    return np.stack([x[:, h:h + 4], x[:, v:v + 4]], axis=2)


def heuristic_slot(e: Encoded) -> int:
    """The slot of the heuristic's choice, as the features hold it (-1: a keep, or no choice to make)."""
    if e.kind == "keep":
        return -1
    hot = np.flatnonzero(slot_inputs(e.kind, e.x[None, :])[0, :, HEURISTIC_INPUT[e.kind]])
    return int(hot[0]) if len(hot) else -1


def action_slot(kind: str, action: Action, cards: list[int] | tuple[int, ...],
                suits: list[int] | tuple[int, ...]) -> int | None:
    """The action slot of ``action`` in a decision of ``kind`` (None: no slot, as a bid above 14)."""
    if kind == "bid":
        if isinstance(action, Pass):
            return 0
        if isinstance(action, Bid) and 1 <= action.amount <= MAX_BID:
            return action.amount
        return None
    if kind == "trump" and isinstance(action, NameTrump):
        return list(suits).index(int(action.suit))
    if kind == "play" and isinstance(action, Play):
        return list(cards).index(int(action.card))
    return None


def slot_action(e: Encoded, slot: int, legal: list[Action] | tuple[Action, ...]) -> Action:
    """The legal action in ``slot`` of a bid, trump or play (a play with cards to bury: the first listed)."""
    if e.kind == "bid":
        return PASS if slot == 0 else BIDS[slot]
    if e.kind == "trump":
        return TRUMPS[e.suits[slot]]
    card = e.cards[slot]
    plays = [a for a in legal if isinstance(a, Play) and int(a.card) == card]
    return plays[0] if plays else PLAYS[card]


def keep_slots(e: Encoded, kept: int) -> np.ndarray:
    """A keep's cards as a bool mask over the card slots."""
    out = np.zeros(52, dtype=bool)
    for c in bit_list(kept):
        out[e.cards.index(c)] = True
    return out


def keep_from_scores(e: Encoded, scores: np.ndarray, options: KeepOptions) -> Keep:
    """The keep the per-card scores ask for, within the rule: every card it must keep, the trumps it needs
    (best first), then the best cards to the smallest size allowed, then any more it wants (score > 0)
    up to the largest."""
    order = [int(i) for i in np.argsort(-scores, kind="stable") if e.legal[i]]
    pool = [e.cards[i] for i in order]
    kept = int(options.must)
    trumps = int(options.trumps)
    need = options.min_trumps - (kept & trumps).bit_count()
    for c in pool:
        if need <= 0:
            break
        if trumps >> c & 1 and not kept >> c & 1:
            kept |= 1 << c
            need -= 1
    for i, c in zip(order, pool):
        size = kept.bit_count()
        if size >= options.hi:
            break
        if not kept >> c & 1 and (size < options.lo or scores[i] > 0):
            kept |= 1 << c
    return Keep(CardSet(kept))
