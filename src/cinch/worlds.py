"""Full deals that one seat cannot tell apart from the real one.

A search bot sees a :class:`~cinch.view.SeatView`, never the full state.  To search it
needs *worlds*: complete deals (every hand, the stock, its order, the other players'
concealed decisions) whose view from that seat is exactly the view it holds.
:func:`sample_deal` builds one and returns it as a :class:`~cinch.deal.Deal` replayed
through the engine; :func:`sample_hands` returns only the hands, for the play.  Every table
size is sampled (two to six players: the table's seats, cards dealt, stock and rob).

How a world is built.  Every card the seat cannot place for certain is an *item*; every
place a card can have gone in the deal is a *slot*, named by where the card started and
where it is now: "dealt to E and still held (or played) by E", "drawn by E from the
stock", "drawn by E from the new stock made of the discards", "discarded face down by
W", "left in the stock", "taken by the dealer from the stock", ...  The view fixes how
many cards each slot holds (hand sizes, cards played, draw counts, shown trumps) and
which cards each slot may hold:

- a player who did not follow a lead holds none of the suit led now: on a trump lead,
  no trumps; on a plain lead, none of that suit, except that under all-fours trumping a
  plain lead shows nothing (a player void in the suit led may play any card, trump or
  not, so nothing is learnt about his trumps); a player who buried a point card on trick
  1 holds only point cards;
- under the discard styles that throw every non-trump, the dealt cards a player kept are
  trumps, so a player who kept ``k`` cards was dealt exactly ``k`` trumps (plus any he
  showed); every card thrown face down is a non-trump (a trump thrown is shown);
- a new stock made of the discards holds only non-trumps;
- the dealer's rob leaves no trump in the stock under the all-trumps rob (and under
  trumps-first unless he kept six trumps); while he is still to rob under the all-trumps
  rob, he and the stock hold fewer than six trumps (else he would have had no choice);
- in the discard itself, a player still to discard holds a hand that gives him a choice.

Items are assigned to slots at random (a capacity-respecting matching, then random
swaps to mix it), the deck, the new stock and the concealed keeps are rebuilt from the
assignment, and the deal is replayed through the engine.  The replay must be legal and
its view must equal the given one, field by field; a world that fails (a constraint the
slots do not express, such as which cards may be buried) is thrown away and another is
drawn.  The result is a legal deal, consistent with the view, and deterministic for the
``rng`` given.  A search draws many worlds of one view: in the play, what the view says of the
discards, the refill and the rob, and each case's slots, are worked out once for the latest
view and reused by its next worlds (no random draw is made there, so the worlds are the same).

Two decks (two-deck Cinch): the items are the 104 cards, a card and its twin two items that
read the same, so a hand may hold a card's text twice, a seat holding both copies sees no third
anywhere, and every copy it has not seen is dealt somewhere.  Hands, deals and stock have the
two-deck sizes (``view.rules.seating``).  Two facts of the copies are used: a player who
played the second pack's copy of a card did not hold the first's (a play names a card, and the
deal plays the first copy of two), and a dealer never throws a card from his hand in the rob
while taking its twin from the stock (the deal keeps the copy in the hand; such a world is drawn
again).  Which copy a player kept of two, where nobody sees it, is the deal's to settle in the
replay.

Weighting by the bidding: a *bid weight* ``weight(view, dealt) -> float`` in [0, 1]
scores how likely the auction was given the dealt hands; the worlds wanted follow
the drawn worlds' distribution times that weight.  :func:`sample_deal` and
:func:`sample_hands` accept a drawn world with probability ``weight`` (rejection
sampling: every world they return is an exact draw, but in the presets bidding from 1
they draw 6 to 17 worlds for each one kept).  :func:`sample_weighted` keeps every
world whose weight reaches a floor (0.25) and the others with probability
``weight / floor``, and returns the importance weight ``max(weight, floor)`` with the
world (Liu's rejection control): the weight is the exact ratio of the wanted to the
returned distribution, so averages weighted by it estimate what plain averages over the
rejection sampler's worlds estimate, for 2 to 2.5 times fewer draws.
A weight that can stop early (``stops_early``: see :data:`BidWeight`) is asked to stop
as soon as the world is sure to be rejected.  ``benchmarks/worlds.py`` measures both.
The default is uniform.

Guided by a model of where the cards are: :func:`sample_weighted` may take ``locations``
(:data:`Locations`: for each card, a positive preference for each seat holding it now, or
no hand).  The matching then places each card with chances in proportion to the room left
times the preference, and its random swaps become Metropolis steps (a swap is kept with the
ratio of the preferences after and before), so the worlds drawn lean towards the product of
the preferences among the worlds the view allows; every hard constraint above holds as before.
The expert's learned guidance (:mod:`cinch.bots.guidance`) passes the card-location model's chances.

>>> from cinch import Deal, Rules, Seat
>>> import random
>>> deal = Deal.shuffled(Rules.preset("pagat"), Seat.W, rng=5)
>>> view = deal.view(Seat.N)
>>> world = sample_deal(view, random.Random(1))
>>> world.view(Seat.N).hand == view.hand, world.hand(Seat.E) == deal.hand(Seat.E)
(True, False)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from math import comb

from cinch.actions import WAIVE, Action, Keep, NameTrump, OutOfTurn, Play
from cinch.cards import ALL_CARDS, DECK_SIZE, CardSet, bit_list, deck_mask, fold
from cinch.deal import Deal, discard_is_forced, randbelow, shuffle
from cinch.errors import CinchError, IllegalAction
from cinch.irregularities import LEAD_OUT_OF_TURN, PLAY_OUT_OF_TURN
from cinch.keep import KeepOptions
from cinch.rules import AboveSix, Discard, Follow, Rob, Rules, StockOut
from cinch.scoring import PointTable
from cinch.seating import Seating
from cinch.view import Phase, SeatView

ANY = -1  # the cards a slot takes when any may go there (of one pack or two)

BidWeight = Callable[[SeatView, tuple[int, ...]], float]
"""``weight(view, dealt)``: the likelihood (0 to 1) of the view's auction given the dealt
hands (masks, by seat: four, or the table's number of players).  Worlds are kept with this
probability.

A weight that is a product of factors of at most 1 (one per bid or pass, as
:class:`~cinch.bots.inference.BidLikelihood`) may also take ``stop_below``, and say so
with a true attribute ``stops_early``: ``weight(view, dealt, stop_below=x)`` may return
any value below ``x`` as soon as its partial product falls below ``x``.  The sampler
draws its acceptance threshold first and passes it, so a world it will reject costs
fewer factors; the worlds accepted are the same."""

DEFAULT_FLOOR = 0.25
""":func:`sample_weighted`'s floor.  Measured with the expert's bid inference
(``benchmarks/worlds.py``): in the presets bidding from 1, 3.8 to 7.7 worlds drawn per
world kept instead of 6.5 to 17, each kept world worth 0.84 to 0.88 of an exact draw
(its effective sample size), so 1.6 to 2.8 times less time per effective world; 0.1
draws 2.6 to 3.9, each worth 0.71 to 0.78: better when a world is cheap to use, worse
when the caller then solves it."""

FALLBACK_TRIES = 64
"""Weighted worlds tried before the sampler gives up on a fair draw and returns the likeliest
world seen (``Sample.fallback``): a view whose auction the weight finds nearly impossible."""

Locations = Sequence[Sequence[float]]
"""``locations[card][seat]``: a positive preference for worlds where ``seat`` holds ``card`` now (the
last column: no hand holds it: the stock, the discards).  Only ratios within a card's row matter; a card
the seat has seen may have a row of ones."""

NO_HAND = -1  # a slot's holder when its cards are in no hand now (the stock, the discards, the rob's throw)

bid_weight: BidWeight | None = None
"""The default bid weight for every sampler call that does not pass one (None: uniform).
An expert bot's bid inference can install itself here."""


class WorldError(CinchError):
    """No world consistent with the view could be built (within the attempts allowed)."""


@dataclass
class World:
    """A full deal consistent with a view, before it is replayed."""

    dealer: int
    dealt: list[int]  # the cards dealt to each seat (nine, or six at five or six players)
    stock: list[int]  # the original stock, top first (16 cards at four players)
    restock: list[int] | None  # the new stock made of the discards, top first, when there is one
    keeps: dict[int, int]  # seat -> the hand it kept at the discard (when it had a choice)
    rob: int | None  # the dealer's hand after the rob
    hands: list[int]  # each seat's hand now
    deck: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class Sample:
    """A world from :func:`sample_weighted`, with the importance weight it carries."""

    world: World
    deal: Deal | None  # the world replayed through the engine (None unless verified)
    weight: float  # max(bid weight, floor); 1.0 for an exact draw (floor 1, or no bid weight)
    draws: int  # worlds drawn to get this one, this one included
    fallback: bool = False  # no fair draw within the tries: the likeliest world seen

    @property
    def hands(self) -> list[int]:
        """Every hand now (masks by seat)."""
        return list(self.world.hands)


# ---- public entry points -------------------------------------------------------------

def sample_deal(view: SeatView, rng: random.Random, *, weight: BidWeight | None = None,
                attempts: int = 400) -> Deal:
    """A full deal, replayed through the engine, whose view from ``view.seat`` equals ``view``."""
    deal = _sample(view, rng, weight, attempts, do_replay=True).deal
    assert deal is not None
    return deal


def sample_world(view: SeatView, rng: random.Random, *, weight: BidWeight | None = None,
                 attempts: int = 400) -> tuple[World, Deal]:
    """Like :func:`sample_deal`, with the :class:`World` (deck, restock, keeps) it came from."""
    sample = _sample(view, rng, weight, attempts, do_replay=True)
    assert sample.deal is not None
    return sample.world, sample.deal


def sample_weighted(view: SeatView, rng: random.Random, *, weight: BidWeight | None = None,
                    floor: float = DEFAULT_FLOOR, verify: bool = True, attempts: int = 400,
                    locations: Locations | None = None) -> Sample:
    """A world consistent with ``view`` and its importance weight, for averages weighted by it.

    A drawn world whose bid weight ``w`` is at least ``floor`` is kept, with weight ``w``;
    one below is kept with probability ``w / floor``, with weight ``floor``.  A world is
    therefore returned with probability proportional to (drawn) x min(1, w / floor), and
    its weight ``max(w, floor)`` is (target) / (returned) up to a constant: the weighted
    mean of any figure over the samples estimates its mean under the bid-weighted
    distribution, the one :func:`sample_deal` draws from.  ``floor=1`` is
    :func:`sample_deal`'s rejection sampling itself (every weight 1.0).

    ``verify``: replay the world through the engine and check its view (``Sample.deal``),
    as :func:`sample_deal` does; without, only the hands, as :func:`sample_hands`.
    ``locations``: draw the worlds leaning towards these preferences (:data:`Locations`).

    >>> from cinch import Deal, Rules, Seat
    >>> view = Deal.shuffled(Rules.preset("pagat"), Seat.W, rng=5).view(Seat.N)
    >>> fewer_spades = lambda v, dealt: 0.5 ** (dealt[1] & 0x1FFF).bit_count()  # E, by spades held
    >>> samples = [sample_weighted(view, random.Random(i), weight=fewer_spades) for i in range(3)]
    >>> [s.weight >= DEFAULT_FLOOR and s.deal.view(Seat.N).hand == view.hand for s in samples]
    [True, True, True]
    """
    if not 0 < floor <= 1:
        raise ValueError(f"floor must be above 0 and at most 1, not {floor}")
    return _sample(view, rng, weight, attempts, do_replay=verify, floor=floor, prefer=locations)


def sample_hands(view: SeatView, rng: random.Random, *, weight: BidWeight | None = None,
                 verify: bool = False, attempts: int = 400) -> list[int]:
    """Every hand now (masks by seat) of a world consistent with ``view``.

    The cheap path for search in the play: the world is built but not replayed unless
    ``verify`` is set (the slots already respect every void, count and discard rule; the
    replay only catches rare constraints they do not express, such as which cards may be
    buried on trick 1).
    """
    return _sample(view, rng, weight, attempts, do_replay=verify).hands


def public_actions(view: SeatView) -> list[Action]:
    """The actions every seat saw, in order: the auction, the trump, the plays."""
    out: list[Action] = [a for _, a in view.auction]
    if view.trump is not None:
        out.append(NameTrump(view.trump))
    plays = [p for trick in view.tricks for p in trick.plays] + list(view.current_trick)
    if view.rules.honour_rule:  # a lead or a play out of turn may have been waived: the replay needs each seat
        out.extend(OutOfTurn(p.seat, Play(p.card, p.buried)) for p in plays)
    else:
        out.extend(Play(p.card, p.buried) for p in plays)
    return out


def _claim_waits(view: SeatView) -> bool:
    """Whether the other side is still asked about the last card, played out of turn (honour rule)."""
    return view.asked in (LEAD_OUT_OF_TURN, PLAY_OUT_OF_TURN)


def voids(view: SeatView) -> list[int]:
    """Per seat, the cards it cannot hold now because of how it followed (masks).

    Also: a player who buried a point card on trick 1 had no other card left to bury, so
    every card he still holds is a point card.
    """
    out = [0] * len(view.hand_sizes)
    if view.trump is None:
        return out
    t = view.rules.trump_tables[view.trump]
    strict = view.rules.follow is Follow.STRICT
    tricks = [tr.plays for tr in view.tricks]
    if view.current_trick:
        tricks.append(view.current_trick)
    points = PointTable.of(view.rules, view.trump).point_mask
    full = deck_mask(view.rules.decks)
    for plays in tricks:
        for p in plays:
            if p.buried & points:  # point cards go under only when no other card is left to bury
                out[p.seat] |= full & ~points
        rule = t.follow_rule(t.effective_suit[plays[0].card], strict)
        for p in plays[1:]:
            out[p.seat] |= rule.reveals_void(p.card)
    if view.rules.decks == 2:
        _twin_voids(tricks, out)
    return out


def _twin_voids(tricks: list, out: list[int]) -> None:
    """Two decks: a player who played the second pack's copy of a card did not hold the first's.

    A play names a card by its text and the deal plays the first pack's copy when the player
    holds both (``legal_actions`` lists that one), so the twin goes to a trick only from a hand
    without the other copy; once the play has begun no card comes into a hand.
    """
    for plays in tricks:
        for p in plays:
            if p.card >= DECK_SIZE:
                out[p.seat] |= 1 << (p.card - DECK_SIZE)


def same_view(a: SeatView, b: SeatView) -> bool:
    """Whether two views hold the same knowledge of the deal (match context aside)."""
    return (
        a.seat == b.seat and a.phase is b.phase and a.to_act == b.to_act and a.dealer == b.dealer
        and a.hand == b.hand and a.hand_sizes == b.hand_sizes and a.auction == b.auction
        and a.maker == b.maker and a.bid == b.bid and a.trump == b.trump
        and a.own_discards == b.own_discards and a.face_up_discards == b.face_up_discards
        and a.shown_trumps == b.shown_trumps and a.drawn_counts == b.drawn_counts
        and a.own_drawn == b.own_drawn and a.stock_seen == b.stock_seen and a.tricks == b.tricks
        and a.trick_leader == b.trick_leader and a.current_trick == b.current_trick
        and a.rules == b.rules and _legal_key(a.legal) == _legal_key(b.legal)
    )


def _legal_key(legal) -> tuple:
    if isinstance(legal, KeepOptions):
        return ("keep", legal.pool, legal.must, legal.trumps, legal.lo, legal.hi, legal.min_trumps)
    return tuple(legal)


def replay(rules: Rules, world: World, actions: Iterable[Action], *, stop_at_restock: bool = False,
           waiting: bool = False) -> Deal:
    """Play a world's deal: its deck, the given public actions, and the world's concealed keeps.

    Stops where the public actions run out and the next decision is not the world's to
    make (a keep it holds no answer for), or at a new stock when ``stop_at_restock``.
    Raises :class:`~cinch.errors.IllegalAction` when the world does not fit the actions.
    Under the honour rule the plays come as ``OutOfTurn``: a card played in turn is played as
    usual, one out of turn stood (it is in the view), so it was waived, unless ``waiting``: the
    other side is still asked about the last one.
    """
    deal = Deal(rules, rules.seating.seats[world.dealer], [ALL_CARDS[c] for c in world.deck],
                restock=None if stop_at_restock or world.restock is None else [ALL_CARDS[c] for c in world.restock])
    keeps = dict(world.keeps)
    rob = world.rob
    it = iter(actions)
    pending = next(it, None)
    while True:
        phase = deal.phase
        if phase is Phase.DISCARD:
            seat = deal.to_act
            if seat not in keeps:
                break
            deal.apply(Keep(CardSet(keeps.pop(seat))))
        elif phase is Phase.ROB:
            if rob is None:
                break
            deal.apply(Keep(CardSet(rob)))
            rob = None
        elif phase is Phase.RESTOCK or phase is Phase.DONE:
            break
        else:
            if pending is None:
                break
            action = pending
            pending = next(it, None)
            if type(action) is OutOfTurn and action.seat == deal.to_act:
                deal.apply(action.action)
            else:
                deal.apply(action)
                if type(action) is OutOfTurn and (pending is not None or not waiting):
                    deal.apply(WAIVE)
    if pending is not None:
        raise IllegalAction(pending, "the world's deal ended before the actions did")
    return deal


# ---- the sampling loop -----------------------------------------------------------------

def _sample(view: SeatView, rng: random.Random, weight: BidWeight | None, attempts: int,
            do_replay: bool, floor: float = 1.0, prefer: Locations | None = None) -> Sample:
    """A world consistent with ``view`` and, with ``do_replay``, the deal it replays to.

    Each weighted world draws its threshold ``u * floor`` first and is kept when its weight
    is above it.  The weight is asked before the replay: a rejected world is never
    replayed, and a weight that stops early stops at the threshold.  The order of the
    random draws is the rejection sampler's (the world, then ``u``), so with ``floor=1``
    the worlds returned are the ones it returned before the weight came first.
    """
    weight = weight if weight is not None else bid_weight
    stops_early = weight is not None and bool(getattr(weight, "stops_early", False))
    actions = public_actions(view) if do_replay else []
    seen: list[tuple[float, World]] = []  # rejected worlds, by weight (or a bound above it, when it stopped early)
    tries = 0
    draws = 0
    why = "every world tried broke a constraint"
    for _ in range(attempts):
        draws += 1
        try:
            world = _draw_world(view, rng) if prefer is None else _draw_world(view, rng, prefer)
        except _Inconsistent as e:
            why = str(e)
            continue
        if world is None:
            continue
        if weight is None:
            deal = _replayed(view, world, actions) if do_replay else None
            if do_replay and deal is None:
                continue
            return Sample(world, deal, 1.0, draws)
        bar = rng.random() * floor
        dealt = tuple(world.dealt)
        if stops_early:
            w = float(weight(view, dealt, stop_below=bar))  # type: ignore[call-arg]
        else:
            w = float(weight(view, dealt))
        if bar < w:
            deal = _replayed(view, world, actions) if do_replay else None
            if do_replay and deal is None:
                continue  # a constraint the slots do not express: not a world of this view at all
            return Sample(world, deal, max(w, floor), draws)
        seen.append((w, world))
        tries += 1
        if tries >= FALLBACK_TRIES:
            break  # the weight rejects nearly everything: keep the likeliest world seen
    best = _likeliest(view, seen, weight, stops_early, actions, do_replay)
    if best is not None:
        w, world, deal = best
        return Sample(world, deal, max(w, floor), draws, fallback=True)
    raise WorldError(f"no world consistent with {view.seat}'s view in {attempts} attempts ({why})")


def _replayed(view: SeatView, world: World, actions: list[Action]) -> Deal | None:
    """The world's deal replayed, if its view from the seat is ``view``; else None."""
    try:
        deal = replay(view.rules, world, actions, stop_at_restock=view.phase is Phase.RESTOCK,
                      waiting=_claim_waits(view))
    except IllegalAction:
        return None
    return deal if same_view(deal.view(view.seat), view) else None


def _likeliest(view: SeatView, seen: list[tuple[float, World]], weight: BidWeight | None, stops_early: bool,
               actions: list[Action], do_replay: bool) -> tuple[float, World, Deal | None] | None:
    """The likeliest valid world seen (the first drawn among equals), with its weight and deal.

    A weight that stopped early left only an upper bound of the weight: the candidates are
    taken by bound, each weighed in full, until no bound left can reach the best.
    """
    best: tuple[float, int, World, Deal | None] | None = None
    order = sorted(range(len(seen)), key=lambda i: -seen[i][0])
    for i in order:
        bound, world = seen[i]
        if best is not None and bound < best[0]:
            break
        w = bound
        if stops_early and weight is not None:
            w = float(weight(view, tuple(world.dealt)))
        if best is not None and (w, -i) <= (best[0], -best[1]):
            continue
        deal = _replayed(view, world, actions) if do_replay else None
        if do_replay and deal is None:
            continue
        best = (w, i, world, deal)
    return None if best is None else (best[0], best[2], best[3])


def _draw_world(view: SeatView, rng: random.Random, prefer: Locations | None = None) -> World | None:
    phase = view.phase
    if view.trump is None:
        return _pretrump(view, rng) if prefer is None else _pretrump_guided(view, rng, prefer)
    if view.rules.no_draw:
        return _no_draw(view, rng, prefer)
    if phase in (Phase.DISCARD, Phase.RESTOCK):
        return _before_draw(view, rng, prefer)
    return _after_draw(view, rng, prefer)


# ---- the matching ----------------------------------------------------------------------

class _Model:
    """Slots with capacities and allowed cards; items (cards) with the slots they may take."""

    __slots__ = ("caps", "ok", "names", "cards", "allowed", "holders", "prefer")

    def __init__(self, prefer: Locations | None = None):
        self.caps: list[int] = []
        self.ok: list[int] = []
        self.names: list[str] = []
        self.cards: list[int] = []
        self.allowed: list[int] = []
        self.holders: list[int] = []  # the seat whose hand a slot's cards are in now (NO_HAND: none)
        self.prefer = prefer

    def slot(self, name: str, cap: int, ok: int = ANY, holder: int = NO_HAND) -> int:
        if cap < 0:
            raise _Inconsistent(f"slot {name} has {cap} places")
        self.caps.append(cap)
        self.ok.append(ok)
        self.names.append(name)
        self.holders.append(holder)
        return len(self.caps) - 1

    def restrict(self, slot: int, ok: int) -> None:
        self.ok[slot] &= ok

    def items(self, cards: int, slots: Iterable[int]) -> None:
        slots = [k for k in slots if self.caps[k]]
        for c in bit_list(cards):
            allowed = 0
            for k in slots:
                if self.ok[k] >> c & 1:
                    allowed |= 1 << k
            self.cards.append(c)
            self.allowed.append(allowed)

    def solve(self, rng: random.Random) -> list[int] | None:
        """Cards per slot (masks), or None when no assignment fits."""
        n = len(self.cards)
        caps = self.caps
        if sum(caps) != n:
            raise _Inconsistent(f"{n} cards for {sum(caps)} places")
        allowed = self.allowed
        free = list(caps)
        slot_of = [-1] * n
        members: list[list[int]] = [[] for _ in caps]
        order = list(range(n))
        shuffle(rng, order)
        order.sort(key=lambda i: allowed[i].bit_count())
        score = self._scores() if self.prefer is not None else None
        for i in order:
            a = allowed[i]
            if not a:
                return None
            total = 0.0
            opts = []
            for k in bit_list(a):
                if free[k]:
                    opts.append(k)
                    total += free[k] if score is None else free[k] * score[i][k]
            if opts:
                if score is None:
                    r = float(randbelow(rng, int(total)))
                    for k in opts:
                        r -= free[k]
                        if r < 0:
                            break
                else:
                    r = rng.random() * total
                    for k in opts:
                        r -= free[k] * score[i][k]
                        if r < 0:
                            break
                slot_of[i] = k
                members[k].append(i)
                free[k] -= 1
            elif not _augment(i, allowed, free, slot_of, members):
                return None
        _mix(slot_of, allowed, rng, score)
        out = [0] * len(caps)
        cards = self.cards
        for i, k in enumerate(slot_of):
            out[k] |= 1 << cards[i]
        return out

    def _scores(self) -> list[list[float]]:
        """Each item's preference for each slot, from ``prefer`` by the seat that holds the slot's cards."""
        prefer = self.prefer
        assert prefer is not None
        holders = self.holders
        out = []
        for c in self.cards:  # a card beyond the rows (the second pack's): no preference
            out.append([float(prefer[c][h]) for h in holders] if c < len(prefer) else [1.0] * len(holders))
        return out


class _Inconsistent(Exception):
    """The view's counts do not fit the slot model (a world cannot be built this way)."""


def _augment(i: int, allowed: list[int], free: list[int], slot_of: list[int], members: list[list[int]]) -> bool:
    """Place item ``i`` by moving others along a shortest path to a slot with room."""
    parent: dict[int, tuple[int, int]] = {}  # slot -> (previous slot, item moved from it)
    frontier = []
    for k in bit_list(allowed[i]):
        parent[k] = (-1, i)
        frontier.append(k)
    while frontier:
        nxt = []
        for k in frontier:
            for j in members[k]:
                for k2 in bit_list(allowed[j]):
                    if k2 in parent:
                        continue
                    parent[k2] = (k, j)
                    if free[k2]:
                        # shift: j moves k -> k2, and so on back to i
                        cur = k2
                        free[k2] -= 1
                        while True:
                            prev, item = parent[cur]
                            if prev >= 0:
                                members[prev].remove(item)
                            members[cur].append(item)
                            slot_of[item] = cur
                            if prev < 0:
                                return True
                            cur = prev
                    nxt.append(k2)
        frontier = nxt
    return False


def _mix(slot_of: list[int], allowed: list[int], rng: random.Random,
         score: list[list[float]] | None = None) -> None:
    """Random swaps of two cards between slots that accept both: mixes the assignment.

    With ``score`` (each item's preference by slot) a swap is kept with the ratio of the
    preferences after and before (Metropolis), so the mix leans towards the preferred worlds."""
    mobile = [i for i, a in enumerate(allowed) if a & (a - 1)]
    m = len(mobile)
    if m < 2:
        return
    rand = rng.random
    for _ in range(8 * m):
        i = mobile[int(rand() * m)]
        j = mobile[int(rand() * m)]
        si, sj = slot_of[i], slot_of[j]
        if si != sj and allowed[i] >> sj & 1 and allowed[j] >> si & 1:
            if score is not None and rand() * score[i][si] * score[j][sj] >= score[i][sj] * score[j][si]:
                continue
            slot_of[i], slot_of[j] = sj, si


# ---- helpers -----------------------------------------------------------------------------

def _shuffled(mask: int, rng: random.Random) -> list[int]:
    cards = bit_list(mask)
    shuffle(rng, cards)
    return cards


def _deck(table: Seating, dealer: int, dealt: list[int], stock: list[int], rng: random.Random) -> list[int]:
    """A deck that deals ``dealt`` (in batches of three from the dealer's left) and leaves ``stock``."""
    n = table.players
    deck = [0] * table.deck
    queues = [_shuffled(dealt[s], rng) for s in range(n)]
    for batch in range(table.batches):
        seat = (dealer + 1 + batch) % n
        q = queues[seat]
        deck[3 * batch:3 * batch + 3] = q[-3:]
        del q[-3:]
    deck[table.deck - table.stock:] = stock
    return deck


def _weighted(options: list[int], weights: Sequence[float], rng: random.Random) -> int:
    total = sum(weights)
    if total <= 0:
        return rng.choice(options)
    r = rng.random() * total
    for o, w in zip(options, weights):
        r -= w
        if r < 0:
            return o
    return options[-1]


def _turns(dealer: int, n: int = 4) -> list[int]:
    """Every seat of a table of ``n``, from the dealer's left round to the dealer."""
    return [(dealer + i) % n for i in range(1, n + 1)]


# ---- before trumps: nothing but the dealt hands -------------------------------------------

def _pretrump(view: SeatView, rng: random.Random) -> World:
    s, d = int(view.seat), int(view.dealer)
    table = view.rules.seating
    unknown = _shuffled(deck_mask(view.rules.decks) & ~int(view.hand), rng)
    dealt = [0] * table.players
    dealt[s] = int(view.hand)
    for p in range(table.players):
        if p != s:
            for c in unknown[:table.dealt]:
                dealt[p] |= 1 << c
            del unknown[:table.dealt]
    stock = unknown
    deck = _deck(table, d, dealt, stock, rng)
    return World(d, dealt, stock, None, {}, None, list(dealt), deck)


def _pretrump_guided(view: SeatView, rng: random.Random, prefer: Locations) -> World | None:
    """:func:`_pretrump` leaning towards ``prefer``: the unseen cards matched to the others' hands and the stock."""
    s, d = int(view.seat), int(view.dealer)
    table = view.rules.seating
    m = _Model(prefer)
    held = {p: m.slot(f"H{p}", table.dealt, holder=p) for p in range(table.players) if p != s}
    stock = m.slot("stock", table.stock)
    m.items(deck_mask(view.rules.decks) & ~int(view.hand), list(held.values()) + [stock])
    groups = m.solve(rng)
    if groups is None:
        return None
    dealt = [groups[held[p]] if p != s else int(view.hand) for p in range(table.players)]
    stock_cards = _shuffled(groups[stock], rng)
    deck = _deck(table, d, dealt, stock_cards, rng)
    return World(d, dealt, stock_cards, None, {}, None, list(dealt), deck)


# ---- no draw: nine tricks with the dealt hands ------------------------------------------

def _no_draw(view: SeatView, rng: random.Random, prefer: Locations | None = None) -> World | None:
    s, d = int(view.seat), int(view.dealer)
    table = view.rules.seating
    n = table.players
    played = view.played_by()
    void = voids(view)
    m = _Model(prefer)
    held = [-1] * n
    for p in range(n):
        if p != s:
            held[p] = m.slot(f"H{p}", view.hand_sizes[p] + played[p].bit_count(), holder=p)
    stock = m.slot("stock", table.stock)
    known = int(view.hand)
    for p in range(n):
        known |= played[p]
        if p != s:
            m.items(played[p], [held[p]])
    hidden = deck_mask(table.decks) & ~known
    _hidden_items(m, hidden, [[held[p]] if p != s else [] for p in range(n)], void, s, [stock])
    groups = m.solve(rng)
    if groups is None:
        return None
    dealt = [0] * n
    hands = [0] * n
    for p in range(n):
        if p == s:
            dealt[p] = int(view.hand) | played[p]
            hands[p] = int(view.hand)
        else:
            dealt[p] = groups[held[p]]
            hands[p] = dealt[p] & ~played[p]
    stock16 = _shuffled(groups[stock], rng)
    deck = _deck(table, d, dealt, stock16, rng)
    return World(d, dealt, stock16, None, {}, None, hands, deck)


def _hidden_items(m: _Model, hidden: int, hand_slots: list[list[int]], void: list[int], seat: int,
                  elsewhere: list[int]) -> None:
    """Add the hidden cards: each may go to another seat's hand (unless void) or elsewhere."""
    # Cards with the same void pattern share their slot list.
    groups: dict[tuple[int, ...], int] = {}
    for c in bit_list(hidden):
        key = tuple(p for p in range(len(void)) if p != seat and not void[p] >> c & 1)
        groups[key] = groups.get(key, 0) | 1 << c
    for key, cards in groups.items():
        slots = [k for p in key for k in hand_slots[p]] + elsewhere
        m.items(cards, slots)


# ---- the discard: trumps named, nobody has drawn yet ----------------------------------------

def _trump_facts(view: SeatView) -> tuple[Rules, int, int, Seating, int, int, int, bool]:
    """Where every sampler after the trump starts: the rules, the seat, the dealer, the table, the
    deck's cards, the trumps, the plain cards, and whether trumps must be kept (not a free choice)."""
    rules = view.rules
    t = rules.trump_tables[view.trump]  # type: ignore[index]
    table = rules.seating
    full = deck_mask(table.decks)
    free = rules.discard is not Discard.CHOOSE_CONCEALED
    return rules, int(view.seat), int(view.dealer), table, full, t.trumps, full & ~t.trumps, free


def _before_draw(view: SeatView, rng: random.Random, prefer: Locations | None = None) -> World | None:
    rules, s, d, table, full, trumps, plain, free = _trump_facts(view)
    n_seats, dealt_size, hand = table.players, table.dealt, table.hand
    turns = _turns(d, n_seats)
    # The dealer discards last, unless he keeps his hand to rob (hand-and-stock, at four to six players).
    order = turns if rules.dealer_discards else turns[:-1]
    actor = int(view.to_act) if view.phase is Phase.DISCARD and view.to_act is not None else None
    ai = order.index(actor) if actor in order else len(order)
    shown = [int(x) for x in view.shown_trumps]
    face_up = [int(x) for x in view.face_up_discards]
    own = int(view.own_discards)
    known = int(view.hand) | own
    for p in range(n_seats):
        known |= shown[p] | face_up[p]
    hidden = full & ~known
    n_trumps = (hidden & trumps).bit_count()
    n_plain = hidden.bit_count() - n_trumps

    m = _Model(prefer)
    kept_slot = [-1] * n_seats
    thrown_slot = [-1] * n_seats
    held_slots: list[list[int]] = [[] for _ in range(n_seats)]
    for p in range(n_seats):
        if p == s:
            continue
        size = view.hand_sizes[p]
        if p not in order:  # the dealer under hand-and-stock keeps his nine until he robs
            held_slots[p] = [m.slot(f"H{p}", size, holder=p)]
            continue
        i = order.index(p)
        if size < dealt_size or i < ai:  # has discarded
            only_trumps = free or shown[p] or i > ai or size > hand
            kept_slot[p] = m.slot(f"K{p}", size, trumps if only_trumps else ANY, holder=p)
            thrown_slot[p] = m.slot(f"Z{p}", dealt_size - size - shown[p].bit_count() - face_up[p].bit_count(), plain)
            held_slots[p] = [kept_slot[p]]
        else:  # still to discard: a hand that leaves a choice
            counts = [n for n in range(dealt_size + 1) if not discard_is_forced(rules, n)]
            if p != actor and discard_is_forced(rules, dealt_size):
                counts.append(dealt_size)
            counts = [n for n in counts if n <= n_trumps and dealt_size - n <= n_plain]
            if not counts:
                return None
            n = _weighted(counts, [comb(n_trumps, k) * comb(n_plain, dealt_size - k) for k in counts], rng)
            held_slots[p] = [m.slot(f"T{p}", n, trumps, holder=p), m.slot(f"N{p}", dealt_size - n, plain, holder=p)]
    stock = m.slot("stock", table.stock)
    slots = [k for p in range(n_seats) for k in held_slots[p]] + [k for k in thrown_slot if k >= 0] + [stock]
    m.items(hidden, slots)
    groups = m.solve(rng)
    if groups is None:
        return None
    dealt = [0] * n_seats
    hands = [0] * n_seats
    keeps: dict[int, int] = {}
    for p in range(n_seats):
        if p == s:
            dealt[p] = int(view.hand) | own
            hands[p] = int(view.hand)
            if own or view.hand_sizes[p] < dealt_size or (p in order and order.index(p) < ai):
                keeps[p] = int(view.hand)
            continue
        held = 0
        for k in held_slots[p]:
            held |= groups[k]
        hands[p] = held
        dealt[p] = held | shown[p] | face_up[p]
        if thrown_slot[p] >= 0:
            dealt[p] |= groups[thrown_slot[p]]
            keeps[p] = held
    stock16 = _shuffled(groups[stock], rng)
    deck = _deck(table, d, dealt, stock16, rng)
    return World(d, dealt, stock16, None, keeps, None, hands, deck)


# ---- after the draw: the rob and the play ------------------------------------------------

def _draw_plan(rules: Rules, dealer: int, kept: list[int], pool: int) -> tuple[list[int], bool, int]:
    """Who draws each card of the stock, in order (the engine's refill), whether a new stock
    was made of the discards, and the length of the stock with it."""
    table = rules.seating
    turns = _turns(dealer, table.players)
    needs = [max(0, table.hand - kept[p]) for p in turns]
    length = table.stock
    restocked = False
    if sum(needs) > length and rules.stock_out is StockOut.RESHUFFLE:
        length += pool
        restocked = True
    owners: list[int] = []
    if sum(needs) <= length:
        drawers = len(turns) - 1 if table.dealer_robs else len(turns)  # a dealer who robs takes his later
        for p, n in zip(turns[:drawers], needs[:drawers]):
            owners += [p] * n
    else:
        short = list(needs)
        left = length
        while left:
            for i, p in enumerate(turns):
                if short[i] and left:
                    owners.append(p)
                    short[i] -= 1
                    left -= 1
    return owners, restocked, length


def _after_draw(view: SeatView, rng: random.Random, prefer: Locations | None = None) -> World | None:
    plan = _after_draw_plan(view, prefer)
    # The rob's constraints on the dealer's hand and on what he left in the stock: a list of
    # alternatives (dealer's hand all trumps, stock left without trumps), tried in random order.
    cases = list(plan.cases)
    if plan.shuffle_cases:
        shuffle(rng, cases)
    if plan.dealer_plain:
        cases = [c for c in cases if not c[0]] or [(False, True)]
    if plan.late_error is not None:
        raise _Inconsistent(plan.late_error)
    # How many of the dealer's taken cards came from the new stock (likelier counts first).
    js, weights = list(plan.js), list(plan.weights)
    j_order: list[int] = []
    while js and len(j_order) < 3:
        j = _weighted(js, weights, rng)
        i = js.index(j)
        del js[i], weights[i]
        j_order.append(j)
    built = None
    for dealer_all_trumps, stock_no_trumps in cases:
        for j_pool in j_order:
            built = plan.solve(j_pool, dealer_all_trumps, stock_no_trumps, rng)
            if built is not None:
                break
        if built is not None:
            break
    if built is None:
        return None
    groups, (a_slot, s0_slot, rs_slot, hand_slots, tk0, tkp, sl0, slp, rtn, z_slot) = built
    table = view.rules.seating
    s, d, dd, robs, robbing = plan.fixed.s, plan.fixed.d, plan.fixed.dd, plan.fixed.robs, plan.fixed.robbing
    played, shown, face_up, own = plan.fixed.played, plan.fixed.shown, plan.fixed.face_up, plan.fixed.own
    thrown, discarders, restocked = plan.fixed.thrown, plan.fixed.discarders, plan.fixed.restocked
    owners, length, shown_rob = plan.owners, plan.length, plan.shown_rob
    n_seats, dealt_size, stock_size = table.players, table.dealt, table.stock
    full = deck_mask(table.decks)
    seats = range(n_seats)

    # The deal that leads here.
    dealt = [0] * n_seats
    hands = [0] * n_seats
    for p in seats:
        dealt[p] = groups[a_slot[p]] | shown[p]
        if p == s:
            dealt[p] |= own
            hands[p] = int(view.hand)
        else:
            h = 0
            for k in hand_slots[p]:
                h |= groups[k]
            hands[p] = h & ~played[p]
            if not restocked or (p == d and not dd):  # a new stock took the discards, not the rob's
                dealt[p] |= face_up[p]
                if z_slot[p] >= 0:
                    dealt[p] |= groups[z_slot[p]]
    if rtn >= 0:
        dealt[d] |= groups[rtn]
    if restocked:
        pool_cards = groups[tkp] | groups[slp]
        for p in seats:
            pool_cards |= groups[rs_slot[p]]
        cards = _shuffled(pool_cards, rng)
        for p in discarders:
            for c in cards[:thrown[p]]:
                dealt[p] |= 1 << c
            del cards[:thrown[p]]
        if cards:
            raise _Inconsistent("the new stock does not match the discards")
    all_dealt = 0
    for p in seats:
        if dealt[p].bit_count() != dealt_size or all_dealt & dealt[p]:
            return None  # the seat's own discards do not fit this world's counts
        all_dealt |= dealt[p]
    stock = [0] * length
    queues = {}
    for p in seats:
        queues[(p, 0)] = _shuffled(groups[s0_slot[p]], rng)
        queues[(p, 1)] = _shuffled(groups[rs_slot[p]], rng)
    rest0 = _shuffled(groups[tk0] | groups[sl0], rng)
    restp = _shuffled(groups[tkp] | groups[slp], rng)
    for i in range(length):
        if i < len(owners):
            stock[i] = queues[(owners[i], int(i >= stock_size))].pop()
        else:
            stock[i] = (rest0 if i < stock_size else restp).pop()
    stock16 = stock[:stock_size]
    undealt = full & ~all_dealt
    check = 0
    for c in stock16:
        check |= 1 << c
    if check != undealt:
        raise _Inconsistent("the stock is not the undealt cards")
    keeps: dict[int, int] = {}
    for p in discarders:
        keeps[p] = groups[a_slot[p]]
    if dd:
        extra = bit_list(shown[d])
        shuffle(rng, extra)
        for c in extra[:shown_rob]:
            keeps[d] |= 1 << c
    rob_hand = None
    if robs and not robbing:
        rob_hand = 0
        for k in hand_slots[d]:
            rob_hand |= groups[k]
        if table.decks == 2:
            before = (keeps[d] if dd else dealt[d]) | groups[s0_slot[d]] | groups[rs_slot[d]]
            if _robs_a_twin(before, rob_hand):
                return None
    deck = _deck(table, d, dealt, stock16, rng)
    return World(d, dealt, stock16, stock[stock_size:] if restocked else None, keeps, rob_hand, hands, deck)


# An after-draw world's slots by name: A, S0, RS and the hand's (by seat), TK0, TKP, SL0, SLP, RTN, Z (by seat).
_Layout = tuple[list[int], list[int], list[int], list[list[int]], int, int, int, int, int, list[int]]
_Slots = tuple["_Model", _Layout, int, int]  # the model, its layout, SL0 and SLN (the stock's plain part, or -1)


@dataclass
class _AfterDrawPlan:
    """What :func:`_after_draw` draws from for one view, worked out once (no random draw in it): every
    world of a search's decision reuses it, and the slot models of each case it built."""

    fixed: _Fixed  # its view and preferences are the plan's
    cases: list[tuple[bool, bool]]
    shuffle_cases: bool
    dealer_plain: bool  # the dealer has shown a plain card: his hand is not all trumps
    late_error: str | None  # found after the cases' shuffle: raised after it, so the draws stay the same
    js: list[int]
    weights: list[int]
    owners: list[int]
    length: int
    shown_rob: int
    models: dict[tuple[int, bool, bool], _Slots] = field(default_factory=dict)

    def solve(self, j_pool: int, dealer_all_trumps: bool, stock_no_trumps: bool,
              rng: random.Random) -> tuple[list[int], _Layout] | None:
        """The slots' cards of one world for this case (None: no assignment fits)."""
        key = (j_pool, dealer_all_trumps, stock_no_trumps)
        model = self.models.get(key)
        if model is None:
            model = _after_draw_slots(self.fixed, j_pool, dealer_all_trumps, stock_no_trumps, rng)
            if model is None:
                return None
            if self.fixed.stock_trumps_max is None:  # otherwise the slots drew a count: built anew each world
                self.models[key] = model
        m, layout, sl0, sln = model
        groups = m.solve(rng)
        if groups is None:
            return None
        if sln >= 0:
            groups[sl0] |= groups[sln]
        return groups, layout


_LAST_PLAN: list[_AfterDrawPlan] = []  # the latest view's plan (a search draws its worlds one view at a time)


def _after_draw_plan(view: SeatView, prefer: Locations | None) -> _AfterDrawPlan:
    if _LAST_PLAN:
        last = _LAST_PLAN[0]
        if last.fixed.view is view and last.fixed.prefer is prefer:
            return last
    plan = _make_after_draw_plan(view, prefer)
    _LAST_PLAN[:] = [plan]
    return plan


def _make_after_draw_plan(view: SeatView, prefer: Locations | None) -> _AfterDrawPlan:
    rules, s, d, table, full, trumps, plain, free = _trump_facts(view)
    n_seats, dealt_size, stock_size, hand = table.players, table.dealt, table.stock, table.hand
    robs = table.dealer_robs  # at two or three players nobody robs: the dealer discards and draws like the others
    dd = rules.dealer_discards
    robbing = view.phase is Phase.ROB  # the dealer has not robbed yet
    played = view.played_by()
    void = voids(view)
    shown = [int(x) for x in view.shown_trumps]
    face_up = [int(x) for x in view.face_up_discards]
    own = int(view.own_discards)
    own_drawn = int(view.own_drawn)
    drawn = view.drawn_counts
    seats = range(n_seats)
    held = [view.hand_sizes[p] + played[p].bit_count() for p in seats]
    a = [held[p] - drawn[p] for p in seats]  # dealt cards each seat still holds (or played)

    # What each seat kept at the discard, which is what it needed at the refill.
    kept = list(a)
    shown_at_discard = [x.bit_count() for x in shown]
    if not dd:
        kept[d], shown_at_discard[d] = dealt_size, 0
    elif robs and not robbing:
        n = a[d] + shown[d].bit_count()  # dealt trumps: still held, or shown
        if rules.above_six is AboveSix.KEEP_SIX and n > hand:
            kept[d], shown_at_discard[d] = hand, n - hand
        else:
            kept[d], shown_at_discard[d] = n, 0
    discarders = [p for p in seats if p != d or dd]
    thrown = [dealt_size - kept[p] - shown_at_discard[p] if p in discarders else 0 for p in seats]
    pool = sum(thrown)
    owners, restocked, length = _draw_plan(rules, d, kept, pool)
    count = [owners.count(p) for p in seats]
    for p in seats:
        if (p != d or not robs) and count[p] != drawn[p]:
            raise _Inconsistent(f"{table.seats[p]} drew {drawn[p]}, the refill gives {count[p]}")
    taken = drawn[d] - count[d]  # what the dealer took when robbing
    if taken < 0 or (robbing and taken):
        raise _Inconsistent("the dealer's draws do not fit the refill")
    s0 = [0] * n_seats
    rs = [0] * n_seats
    for i, p in enumerate(owners):
        if i < stock_size:
            s0[p] += 1
        else:
            rs[p] += 1
    q_s0 = stock_size - min(len(owners), stock_size)
    q_pool = length - stock_size - max(0, len(owners) - stock_size) if restocked else 0
    shown_rob = shown[d].bit_count() - shown_at_discard[d] if not robbing else 0

    rob = rules.rob
    cases = [(False, False)]
    shuffle_cases = dealer_plain = False
    if robs and not robbing:
        if rob is Rob.ALL_TRUMPS and rules.above_six is AboveSix.BURIED:
            cases = [(held[d] > hand, True)]
        elif rob in (Rob.ALL_TRUMPS, Rob.TRUMPS_FIRST):
            cases = [(True, False)] if shown_rob else [(True, False), (False, True)]
            shuffle_cases = True
        dealer_plain = bool(played[d] & plain or (s == d and int(view.hand) & plain))
    lo, hi = max(0, taken - q_s0), min(taken, q_pool)
    late_error = "the dealer took more than the stock held" if lo > hi else None
    js = list(range(lo, hi + 1))
    weights = [comb(q_pool, j) * comb(q_s0, taken - j) for j in js]
    # In the rob itself (all-trumps, buried excess, the dealer's kept cards all trumps), a choice
    # is left only when the dealer and the stock hold fewer than six trumps between them.
    stock_trumps_max = None
    if robbing and s != d and rob is Rob.ALL_TRUMPS and rules.above_six is AboveSix.BURIED and free:
        stock_trumps_max = hand - 1 - a[d]
    fixed = _Fixed(view, s, d, trumps, plain, free, dd, robbing, played, void, shown, face_up, own, own_drawn,
                   a, s0, rs, taken, q_s0, q_pool, shown_at_discard, thrown, discarders, restocked,
                   stock_trumps_max, robs, hand=hand, prefer=prefer)
    return _AfterDrawPlan(fixed, cases, shuffle_cases, dealer_plain, late_error, js, weights, owners,
                          length, shown_rob)


def _robs_a_twin(before: int, after: int) -> bool:
    """Two decks: whether a rob from the hand ``before`` to ``after`` throws a card from the hand and
    takes its twin from the stock.  A keep names cards by their text and the deal keeps the copy in
    the hand, so no dealer ever does: such a world would draw one card fewer than the view shows.

    >>> ah = int(CardSet.parse("AH"))
    >>> _robs_a_twin(ah, ah << DECK_SIZE), _robs_a_twin(ah, ah | ah << DECK_SIZE)
    (True, False)
    """
    taken, thrown = after & ~before, before & ~after
    return bool(fold(taken) & fold(thrown))


@dataclass
class _Fixed:
    """What the after-draw model needs, computed once per view (:class:`_AfterDrawPlan`)."""

    view: SeatView
    s: int
    d: int
    trumps: int
    plain: int
    free: bool
    dd: bool
    robbing: bool
    played: list[int]
    void: list[int]
    shown: list[int]
    face_up: list[int]
    own: int
    own_drawn: int
    a: list[int]
    s0: list[int]
    rs: list[int]
    taken: int
    q_s0: int
    q_pool: int
    shown_at_discard: list[int]
    thrown: list[int]
    discarders: list[int]
    restocked: bool
    stock_trumps_max: int | None
    robs: bool = True  # the dealer robs (four to six players)
    hand: int = 6  # cards held after the draw (twelve with two decks)
    hidden: int = 0
    prefer: Locations | None = None  # where the cards are likely to be (:data:`Locations`)

    def __post_init__(self):
        seen = int(self.view.stock_seen) & ~self.own_drawn
        known = int(self.view.hand) | self.own | seen
        for p in range(len(self.played)):
            known |= self.played[p] | self.shown[p] | self.face_up[p]
        self.hidden = deck_mask(self.view.rules.decks) & ~known


def _after_draw_slots(f: _Fixed, j_pool: int, dealer_all_trumps: bool, stock_no_trumps: bool,
                      rng: random.Random) -> _Slots | None:
    """The slot model of one case of the after-draw world, its slots' numbers, and the two stock slots."""
    view, s, d, trumps, plain, free, dd = f.view, f.s, f.d, f.trumps, f.plain, f.free, f.dd
    robbing, played, void, shown, face_up, own_drawn = (
        f.robbing, f.played, f.void, f.shown, f.face_up, f.own_drawn)
    a, s0, rs, taken, q_s0, q_pool = f.a, f.s0, f.rs, f.taken, f.q_s0, f.q_pool
    shown_at_discard, thrown, discarders, restocked = f.shown_at_discard, f.thrown, f.discarders, f.restocked
    m = _Model(f.prefer)
    n_seats = len(played)
    hand_slots: list[list[int]] = [[] for _ in range(n_seats)]
    a_slot = [-1] * n_seats
    s0_slot = [-1] * n_seats
    rs_slot = [-1] * n_seats
    forced_kept: bool | int  # a truth value
    for p in range(n_seats):
        if p == d and f.robs:
            forced_kept = dd and (free or shown_at_discard[d] > 0)
        else:
            forced_kept = free or shown[p] or a[p] > f.hand
        a_slot[p] = m.slot(f"A{p}", a[p], trumps if forced_kept else ANY, holder=p)
        s0_slot[p] = m.slot(f"S{p}", s0[p], holder=p)
        rs_slot[p] = m.slot(f"R{p}", rs[p], plain, holder=p)
        hand_slots[p] = [a_slot[p], s0_slot[p], rs_slot[p]]
    tk0 = m.slot("TK0", taken - j_pool, holder=d)
    tkp = m.slot("TKP", j_pool, plain, holder=d)
    hand_slots[d] += [tk0, tkp]
    sln = -1
    if f.stock_trumps_max is None:
        sl0 = m.slot("SL0", q_s0 - (taken - j_pool), plain if stock_no_trumps else ANY)
    else:  # the stock holds few enough trumps to leave the dealer a choice
        n_t = (f.hidden & trumps).bit_count()
        n_p = f.hidden.bit_count() - n_t
        counts = list(range(0, min(f.stock_trumps_max, q_s0) + 1))
        if not counts:
            return None
        t = _weighted(counts, [comb(n_t, k) * comb(n_p, q_s0 - k) for k in counts], rng)
        sl0 = m.slot("SL0", t, trumps)
        sln = m.slot("SLN", q_s0 - t, plain)
    slp = m.slot("SLP", q_pool - j_pool, plain)
    if dealer_all_trumps:
        for k in hand_slots[d]:
            m.restrict(k, trumps)
    rtn = -1
    if not robbing and not dd and s != d:  # hand-and-stock: the dealer's nine, less his six, face down
        rtn = m.slot("RTN", view.rules.seating.dealt - a[d] - shown[d].bit_count() - face_up[d].bit_count(), plain)
    z_slot = [-1] * n_seats
    if not restocked:
        for p in discarders:
            if p != s:
                z_slot[p] = m.slot(f"Z{p}", thrown[p] - face_up[p].bit_count(), plain)

    # Items: the seat's own cards, the cards others played, the stock it saw, the hidden rest.
    mine = int(view.hand) | played[s]
    m.items(mine & ~own_drawn, [a_slot[s]])
    m.items(mine & own_drawn, [s0_slot[s], rs_slot[s]] + ([tk0, tkp] if s == d else []))
    seen = int(view.stock_seen) & ~own_drawn
    if seen:
        m.items(seen, [sl0, slp])
    for p in range(n_seats):
        if p != s:
            m.items(played[p], hand_slots[p])
    hidden = f.hidden
    elsewhere = [sl0, slp] + ([sln] if sln >= 0 else []) + ([rtn] if rtn >= 0 else []) + [k for k in z_slot if k >= 0]
    _hidden_items(m, hidden, [hand_slots[p] if p != s else [] for p in range(n_seats)], void, s, elsewhere)
    return m, (a_slot, s0_slot, rs_slot, hand_slots, tk0, tkp, sl0, slp, rtn, z_slot), sl0, sln
