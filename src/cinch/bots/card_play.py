"""The heuristic's card play: one decision at the table, the trick, the cards out, what each card is worth.

:class:`CardPlay` is built afresh for every card the heuristic bot (:mod:`cinch.bots.heuristic`) plays,
and for every earlier choice the expert's inference from the cards played asks it about, so it runs
compiled with the engine (:mod:`cinch.native`): it is most of the heuristic's time in the play.
Its weights are the heuristic's parameters (``PARAMS`` there).

>>> from cinch import Deal, Rules, Seat, parse_action
>>> from cinch.bots.heuristic import PARAMS
>>> from cinch.deal import EXAMPLE_DECK
>>> d = Deal(Rules.preset("pagat"), Seat.W, EXAMPLE_DECK)
>>> for a in ["bid 7", "pass", "pass", "pass", "trump H", "keep 5H 2H 3H 7H 4H AD"]:
...     d.apply(parse_action(a))
>>> view = d.view(d.to_act)
>>> card = CardPlay(view, PARAMS).choose(sorted(int(a.card) for a in view.legal))
>>> any(int(a.card) == card for a in view.legal)
True
"""

from __future__ import annotations

from cinch.bots.knowledge import Knowledge, chance_of_none, float_product, float_sum, seat_order_after
from cinch.cards import bit_list
from cinch.rules import High
from cinch.view import SeatView

__all__ = ["CardPlay"]


class CardPlay:
    """One play decision: the trick, the cards out, and what each card is worth."""

    def __init__(self, view: SeatView, params: dict[str, float]):
        k = Knowledge(view)
        self.k = k
        self.view = view
        self.p = params
        t = k.t
        self.t = t
        self.rules = view.rules
        self.decks = view.rules.decks
        values = k.trick_values()
        if view.rules.high is High.ACE:
            values[t.order[0]] = 0  # the ace wins its own trick: its point is never at stake
        self.values = values
        self.hand = int(view.hand)
        self.seat = view.seat
        self.trick = view.current_trick
        self.later = seat_order_after(view)
        self.makers = view.maker is not None and view.maker.team == view.seat.team
        # Allies: the seats whose tricks count as this seat's.  At four, the partner.  Cut-throat, the
        # maker has none, and the defenders hold the tricks together against him: a trick another
        # defender takes is one the maker does not (the maker is short of his bid more often, and then
        # loses it), but its points go to a rival, so they count for ``ally_share`` of their worth.
        partnership = view.rules.seating.partnership
        self.allies: list[int]
        if partnership:
            self.allies = [int(view.seat.partner)]
        elif self.makers or view.maker is None:
            self.allies = []
        else:
            self.allies = [s for s in k.others if s != view.maker]
        self.share = 1.0 if partnership else params["ally_share"]
        self.opps = [s for s in k.others if s not in self.allies]
        # Who may take a point card kept in hand: the opponents, and cut-throat the allies too (a rival's gain).
        self.threats = self.opps if partnership else list(k.others)
        if self.trick:
            led = t.effective_suit[self.trick[0].card]
            self.led = led
            strength = t.strength[led]
            self.strength = strength
            best = max(self.trick, key=lambda p: strength[p.card])
            self.best_card, self.winner = int(best.card), best.seat
            self.pts = sum(values[p.card] for p in self.trick)
        else:
            self.led = -1
            self.pts = 0
            order = []
            s = view.seat.left
            while s != view.seat:
                if view.hand_sizes[s]:
                    order.append(s)
                s = s.left
            self.lead_order = order
        # The point cards this seat cannot see, and the chance each other player holds each.
        self.unseen_points = [(c, values[c]) for c in bit_list(k.unseen & t.trumps) if values[c]]
        self.points_out = sum(v for _, v in self.unseen_points)
        self.p_point = {s: [(c, v, k.p_holds_any(s, 1 << c)) for c, v in self.unseen_points] for s in k.others}

    # ---- what a card is worth in hand ------------------------------------------------------
    def hold_worth(self, card: int) -> float:
        """The trick-taking worth of keeping ``card`` (its own points apart)."""
        t, k = self.t, self.k
        power = t.power[card]
        if power:
            higher = k.higher_trumps(card).bit_count()
            lower = sum(1 for c in bit_list(k.unseen_trumps) if t.power[c] < power)
            n = higher + lower
            share = lower / n if n else 1.0
            boss = 1.0 if higher == 0 else 0.0
            scale = min(1.0, 0.3 + self.points_out / (8 * self.decks))  # two decks: twice the points out
            return (self.p["trump_base"] + self.p["trump_share"] * share + self.p["trump_boss"] * boss) * scale
        rank = card % 13
        suit_left = k.unseen & t.follow_masks[t.effective_suit[card]]
        if not suit_left:
            return 0.05
        return {0: self.p["plain_ace"], 1: 0.2, 2: 0.1}.get(rank, 0.02 * (13 - rank) / 13)

    def safety(self, card: int) -> float:
        """The chance that a point card kept in hand ends in this side's tricks."""
        t, k = self.t, self.k
        if not t.power[card]:
            return 0.5
        higher = k.higher_trumps(card)
        if not higher:
            return 1.0
        p_opp = 1 - float_product(1 - k.p_holds_any(o, higher) for o in self.threats)
        my_higher = sum(1 for c in bit_list(self.hand & t.trumps) if t.power[c] > t.power[card])
        cover = self.p["cover_base"] + self.p["cover_step"] * min(my_higher, 3)
        return max(0.05, 1 - p_opp * (1 - min(cover, 0.95)))

    def future(self, card: int) -> float:
        """What keeping ``card`` is worth: its trick-taking, and its points where they would end."""
        v = self.values[card]
        return self.hold_worth(card) + ((2 * self.safety(card) - 1) * v if v else 0.0)

    def keep_score(self, card: int) -> float:
        """What a card is worth keeping (burying the least): its trick-taking, its points, its rank."""
        return self.hold_worth(card) + 3 * self.values[card] + 0.01 * (self.t.power[card] or 13 - card % 13)

    # ---- leading ---------------------------------------------------------------------------
    def lead(self, cards: list[int]) -> int:
        t, k = self.t, self.k
        power = t.power
        values = self.values
        trumps = [c for c in cards if power[c]]
        plain = [c for c in cards if not power[c]]
        trumps.sort(key=lambda c: -power[c])
        outstanding = k.unseen_trumps
        p_opp_trump = 1 - float_product(1 - k.p_has_trump(o) for o in self.opps)
        p_partner_trump = 1 - float_product(1 - k.p_has_trump(a) for a in self.allies)
        bosses = [c for c in trumps if k.is_boss(c)]
        if bosses and outstanding and (p_opp_trump > 0.1 or (self.points_out and p_partner_trump > 0.3)):
            return bosses[0]  # draw trumps with the top one
        # A point card that no trump can beat any more: cash it.
        safe_points = [c for c in trumps if values[c] and k.is_boss(c)]
        if safe_points:
            return max(safe_points, key=lambda c: values[c])
        if bosses and not plain:
            return bosses[-1]
        if self.p["lead_draw"] and self.makers and p_opp_trump > 0.5:
            # No boss: lead the highest trump that holds no point, to pull the opponents' trumps.
            plain_trumps = [c for c in trumps if not values[c]
                            and k.higher_trumps(c).bit_count() <= self.p["lead_draw_above"]]
            if len(trumps) >= self.p["lead_draw"] and plain_trumps:
                return plain_trumps[0]
        if plain:
            # A side ace where the suit is still out, when the opponents may be out of trumps.
            aces = [c for c in plain if c % 13 == 0 and k.unseen & t.follow_masks[t.effective_suit[c]]]
            if aces and p_opp_trump < 0.5:
                return aces[0]
            return min(plain, key=lambda c: (self.hold_worth(c), -(c % 13)))
        # Only trumps, none the boss: the least at risk.
        return min(trumps, key=lambda c: (values[c], power[c]))

    # ---- following ---------------------------------------------------------------------------
    def follow(self, cards: list[int]) -> int:
        k = self.k
        strength = self.strength
        led = self.led
        best = strength[self.best_card]
        ally_wins = self.winner in self.allies
        values = self.values
        later_opps = [s for s in self.later if s in self.opps]
        later_allies = [s for s in self.later if s in self.allies]
        # The points the later players must add, whoever wins (a partner's only trump a Pedro).
        weight = self.p["later_points"]
        forced = weight * float_sum(self.forced_points(s) for s in self.later) if weight else 0.0
        scored = []
        for c in cards:
            # The chances that this seat takes the trick, and that an ally does.
            p_mine = p_ally = 0.0
            if strength[c] > best:
                p_mine = 1 - k.p_any_beats(later_opps, c, led)
            elif ally_wins:
                p_ally = 1 - k.p_any_beats(later_opps, self.best_card, led)
            elif later_allies:
                first = later_allies[0]
                p_beats = (k.p_beats(first, self.best_card, led) if len(later_allies) == 1
                           else k.p_any_beats(later_allies, self.best_card, led))
                p_ally = self.p["partner_rescue"] * p_beats
                others = [s for s in later_opps if self.later.index(s) > self.later.index(first)]
                if others and p_ally:
                    p_ally *= 0.8
            p_ours = p_mine + p_ally
            v = values[c]
            # The trick's worth to this seat: all of it taken, an ally's share of it (all at four), lost to
            # the opponents.  At four this is (2 p_ours - 1) x the points.
            ev = (p_mine + self.share * p_ally - (1 - p_ours)) * (self.pts + v + forced) - self.future(c)
            scored.append((ev, -v, c, p_ours))
        scored.sort(reverse=True)
        choice = scored[0]
        # Never drop a point card where it is likely lost when anything else will do.
        if values[choice[2]] and choice[3] < 0.5:
            rest = [s for s in scored if not values[s[2]]]
            if rest:
                choice = rest[0]
        return choice[2]

    def forced_points(self, seat: int) -> float:
        """The points ``seat`` must add to this trick whoever wins it: on a trump lead, a point trump
        it holds with no plain trump to play instead (it follows with the least valuable)."""
        if self.led != self.t.suit or not self.unseen_points:
            return 0.0
        k = self.k
        n_ut = k.n_unseen_trumps
        plain_trumps = n_ut - len(self.unseen_points)
        others = max(0.0, k.exp_trumps[seat] - 1)  # the trumps it holds besides the point card
        p_only_points = chance_of_none(n_ut - 1, plain_trumps, others)
        if not p_only_points:
            return 0.0
        return p_only_points * float_sum(v * p for _, v, p in self.p_point[seat])

    def _may_trump(self, seat: int, led: int) -> float:
        """The chance ``seat`` may play a trump to a trick led in ``led`` (strict following: only when void)."""
        if led == self.t.suit or self.rules.follow.value != "strict":
            return 1.0
        return 1 - self.k.p_holds_any(seat, self.k.unseen & self.t.follow_masks[led])

    def choose(self, cards: list[int]) -> int:
        return self.lead(cards) if not self.trick else self.follow(cards)
