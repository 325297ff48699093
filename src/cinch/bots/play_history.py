"""The earlier choices of the play, as the players who made them saw them, in a world of the hidden hands.

:func:`play_choices` rebuilds, for each card another player chose so far (where he had a choice), the
view he had then, with the hand a sampled world gives him.  The inference from the cards played
(:class:`~cinch.bots.inference.PlayLikelihood`, the guided expert's policy likelihood) asks a model of
the players what it would have played in each: some ten views a world, for every world a search
draws, so this module runs compiled with the engine (:mod:`cinch.native`).

>>> from cinch import Deal, Rules, Seat, parse_action
>>> from cinch.deal import EXAMPLE_DECK
>>> d = Deal(Rules.preset("pagat"), Seat.W, EXAMPLE_DECK)
>>> for a in ["bid 7", "pass", "pass", "pass", "trump H", "keep 5H 2H 3H 7H 4H AD"]:
...     d.apply(parse_action(a))
>>> while len(d.view(d.to_act).tricks) < 1:
...     d.apply(d.legal_actions()[0])
>>> view = d.view(d.to_act)
>>> hands = [int(d.hand(s)) for s in range(4)]
>>> all(int(v.hand) >> card & 1 and v.seat != view.seat for v, card in play_choices(view, hands))
True
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from cinch.actions import PLAYS, Play
from cinch.cards import DECK_SIZE, CardSet, Seat, bit_list, fold
from cinch.rules import AboveSix, Follow
from cinch.view import Phase, PlayedCard, SeatView

__all__ = ["play_choices"]

_EMPTY = CardSet(0)


def play_choices(view: SeatView, hands: Sequence[int], latest: int = 0) -> Iterator[tuple[SeatView, int]]:
    """Each card another player chose so far where he had a choice: the view he had then, as far as a
    world with ``hands`` (every hand now, by seat) tells it, and the card he played (``latest``: only the
    latest so many of them, the others' views not built).

    The view is approximate: the world does not say what the player threw face down or, for the
    dealer, what the stock held.  Skipped: the seat's own plays, burials, and a trick-1 play of
    the buried-excess rule with cards to bury (a burial to choose as well).
    """
    if view.trump is None:
        return
    rules = view.rules
    t = view.rules.trump_tables[view.trump]
    strict = rules.follow is Follow.STRICT
    tricks = list(view.tricks)
    sequences: list[tuple[Seat | None, tuple[PlayedCard, ...]]] = [(tr.leader, tr.plays) for tr in tricks]
    if view.current_trick:
        sequences.append((view.trick_leader, view.current_trick))
    # The cards each seat plays from each point of the play on (walking backwards).
    n = len(view.hand_sizes)
    seats = view.seats
    later = [0] * n
    steps = []
    for ti, (_, plays) in enumerate(sequences):
        for pi, p in enumerate(plays):
            steps.append((ti, pi, p))
    n_steps = len(steps)
    after: list[tuple[int, ...]] = [()] * n_steps
    for k in range(n_steps - 1, -1, -1):
        p = steps[k][2]
        later[p.seat] |= 1 << p.card | int(p.buried)
        after[k] = tuple(later)
    buried_rule = rules.above_six is AboveSix.BURIED
    chosen: list[tuple[int, int, int, PlayedCard, int, tuple[Play, ...]]] = []
    for k, (ti, pi, p) in enumerate(steps):
        seat = p.seat
        if seat == view.seat or p.buried:
            continue
        held = after[k]
        hand = int(hands[seat]) | held[seat]
        if buried_rule and ti == 0 and hand.bit_count() > rules.tricks:
            continue  # a burial to choose as well: not modelled
        plays = sequences[ti][1][:pi]
        if plays:
            legal_mask = t.follow_rule(t.effective_suit[plays[0].card], strict).playable(hand)
        else:
            legal_mask = hand
        if rules.decks == 2:
            # Two decks: a card and its twin are one choice, offered as the copy held (as the deal does).
            printed = fold(legal_mask)
            if printed & (printed - 1) == 0:
                continue  # no choice: no information
            legal = tuple(PLAYS[c] if legal_mask >> c & 1 else PLAYS[c + DECK_SIZE] for c in bit_list(printed))
        elif legal_mask & (legal_mask - 1) == 0:
            continue  # no choice: no information
        else:
            legal = tuple(PLAYS[c] for c in bit_list(legal_mask))
        chosen.append((k, ti, pi, p, hand, legal))
    for k, ti, pi, p, hand, legal in chosen[-latest:] if latest else chosen:
        seat = p.seat
        held = after[k]
        plays = sequences[ti][1][:pi]
        sizes = tuple(int(hands[s]).bit_count() + held[s].bit_count() for s in range(n))
        past = tuple(tricks[:ti])
        v = SeatView(
            seat=seats[seat], rules=rules, dealer=view.dealer, phase=Phase.PLAY, to_act=seats[seat],
            hand=CardSet(hand), hand_sizes=sizes, auction=view.auction, maker=view.maker, bid=view.bid,
            trump=view.trump, own_discards=CardSet(int(view.face_up_discards[seat]) | int(view.shown_trumps[seat])),
            face_up_discards=view.face_up_discards, shown_trumps=view.shown_trumps,
            drawn_counts=view.drawn_counts, own_drawn=_EMPTY, stock_seen=_EMPTY, tricks=past,
            trick_leader=sequences[ti][0], current_trick=tuple(plays), legal=legal,
        )
        yield v, p.card
