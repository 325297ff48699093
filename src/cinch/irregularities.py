"""Irregularities and their rulings (002, 003): the one home of the penalties.

The scorekeeper (a match played with real cards, :mod:`cinch.scorekeeper`) and the engine's
honour-rule table (:class:`~cinch.deal.Deal` with ``honour_rule=true``) both settle a misdeal or
a revoke here, in the same words.

- misdeal: the same dealer deals again (002), or the dealer loses the deal (003);
- revoke: the other side scores the deal's points, the offenders nothing, and offending makers
  lose their bid as a set (002); or play goes on, the offenders score nothing for the deal, and
  a defender's revoke means the makers cannot be set (003);
- bid out of turn (003): the offending side may not bid again that deal; earlier bids stand;
- lead out of turn (003): the card is taken back; when the offender led in his partner's turn,
  the claimant may require or forbid a trump lead;
- play out of turn (003): a card to a trick already led, before the offender's turn: the card is
  taken back, and the player whose turn it was plays;
- incorrect hand (003, the scorekeeper only: the engine always deals right): too few cards, play goes
  on; too many, an opponent draws the excess face down and it returns to the pack.  No score changes.

>>> from cinch.rules import Rules
>>> revoke_ruling(Rules.preset("additive"), Team.NS, 8, None, Team.NS, "002")[:2]
(False, (-8, 14))
>>> misdeal_ruling(Seat.W, "003")
(Seat.N, 'Misdeal: the dealer loses the deal (003); no score. N deals next.')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from cinch.cards import Card, Seat, Team
from cinch.rules import Irregularities, Rules, Settlement
from cinch.scoring import settle

PENALTY_TEXTS = ("002", "003")
"""The rule texts whose penalties apply to an irregularity."""

MISDEAL = "misdeal"
REVOKE = "revoke"
BID_OUT_OF_TURN = "bid out of turn"
LEAD_OUT_OF_TURN = "lead out of turn"
PLAY_OUT_OF_TURN = "play out of turn"
INCORRECT_HAND = "incorrect hand"


def default_penalty_text(rules: Rules) -> str:
    """Whose penalties a misdeal or a revoke takes when the entry does not say: 002 under additive
    scoring (000, 002), 003 under difference scoring (001, 003, 004).

    Only 002 and 003 give penalties; each fits the scoring of its own text (002's revoke takes
    the makers' bid as a set, 003's leaves the settlement to the points), so a preset takes the
    penalties of the text that scores as it does.
    """
    return "002" if rules.settlement is Settlement.ADDITIVE else "003"


def penalty_text(rules: Rules) -> str:
    """The text whose rulings the engine's honour-rule table applies: the ``irregularities`` option, or
    by the scoring (:func:`default_penalty_text`).

    >>> official = Rules.preset("official")
    >>> penalty_text(official), penalty_text(official.with_options(irregularities="002"))
    ('003', '002')
    """
    chosen = rules.irregularities
    return default_penalty_text(rules) if chosen is Irregularities.BY_SCORING else chosen.value


def changes_text(change: tuple[int, ...]) -> str:
    """``NS +14, EW -8``: what a deal adds to each side, in the rulings' words (``no score`` for none)."""
    parts = [f"{team} {'+' if change[team] >= 0 else ''}{change[team]}" for team in Team if change[team]]
    return ", ".join(parts) if parts else "no score"


def misdeal_ruling(dealer: Seat, text: str) -> tuple[Seat, str]:
    """Who deals next after a misdeal, and the ruling in words."""
    if text == "002":
        return dealer, f"Misdeal: the same dealer deals again (002); no score. {dealer} deals again."
    return dealer.left, f"Misdeal: the dealer loses the deal (003); no score. {dealer.left} deals next."


def revoke_ruling(rules: Rules, makers: Team, bid: int, points: tuple[int, ...] | None, offenders: Team,
                  text: str | None) -> tuple[bool, tuple[int, ...], list[str]]:
    """A revoke's settlement: (made, change, the words).  002: the other side scores the deal's points,
    the offenders nothing, and offending makers lose their bid as a set.  003: play went on; the deal is
    settled as usual, the offenders score nothing, and the makers cannot be set by a defender's revoke."""
    total = rules.total_points
    others = offenders.other
    if text == "002":
        change = [0, 0]
        change[others] = total
        made = offenders != makers
        if not made:
            change[makers] = -bid
        words = [f"{offenders} revoked (002): the other side scores the deal's {total} points and {offenders} "
                 "score nothing" + (f"; {offenders} were the makers, so they lose their bid of {bid} as a set."
                                     if not made else ".")]
        return made, (change[0], change[1]), words + [f"Revoke: {changes_text((change[0], change[1]))}."]
    assert points is not None
    made, settled = settle(rules, makers, bid, points)
    words = [f"{offenders} revoked (003): play went on, and {offenders} score nothing for the deal."]
    if not made and offenders != makers:
        # A defender's revoke: the makers cannot be set; they score as makers who made their bid.
        made, settled = settle(rules, makers, points[makers], points)
        words.append(f"A defender revoked, so {makers} cannot be set: they took {points[makers]} of their bid of "
                     f"{bid} and score as if they had made it.")
    change = list(settled)
    change[offenders] = min(change[offenders], 0)  # nothing gained; a set's loss still stands
    words.append(f"Settled: {changes_text((change[0], change[1]))} ({'made' if made else 'set'}).")
    return made, (change[0], change[1]), words


def revokes_ruling(rules: Rules, makers: Team, bid: int, points: tuple[int, ...] | None,
                   offenders: Iterable[Team], text: str = "003") -> tuple[bool, tuple[int, ...], list[str]]:
    """The ruling when revokes of one side or of both were claimed in a deal (``text`` 002 or 003): each
    offending side scores nothing, and offending makers are not spared.  002 (``points`` None: the claim
    ended the play): the side that did not revoke scores the deal's points; with both sides revoking,
    neither scores and the makers lose their bid as a set.  003: only a revoke by the defenders alone
    keeps the makers from being set."""
    sides = sorted(set(offenders))
    if len(sides) == 1:
        return revoke_ruling(rules, makers, bid, points, sides[0], text)
    if text == "002":
        lost = (-bid, 0) if makers == Team.NS else (0, -bid)
        words = [f"Both sides revoked (002): neither side scores the deal's points, and {makers}, the makers, lose "
                 f"their bid of {bid} as a set.", f"Revoke: {changes_text(lost)}."]
        return False, lost, words
    assert points is not None
    made, settled = settle(rules, makers, bid, points)
    words = ["Both sides revoked (003): play went on, and neither side scores for the deal; "
             "the makers revoked too, so they may still be set."]
    change = (min(settled[0], 0), min(settled[1], 0))
    words.append(f"Settled: {changes_text(change)} ({'made' if made else 'set'}).")
    return made, change, words


# ---- the honour-rule table: irregularities committed in the engine ------------------------------------------
@dataclass
class Offence:
    """An irregularity committed at the honour-rule table.

    ``bound``: for a revoke, the cards the revoker held that obliged him (the cards of the suit
    led, or trumps on a trump lead); ``shown``: the other side can see it (a revoke is shown when
    the revoker later plays or buries one of those cards); ``outcome``: "" while open, then
    "claimed" or "waived".
    """

    kind: str
    seat: Seat
    trick: int = 0
    card: Card | None = None
    bound: int = 0
    shown: bool = False
    outcome: str = ""

    def describe(self) -> str:
        """``E revoked on trick 3 (played 9C)``: the offence in words, as every seat sees it once shown."""
        if self.kind == REVOKE:
            what = f"{self.seat} revoked on trick {self.trick + 1} (played {self.card})"
        elif self.kind == BID_OUT_OF_TURN:
            what = f"{self.seat} bid out of turn"
        elif self.kind == LEAD_OUT_OF_TURN:
            what = f"{self.seat} led {self.card} out of turn to trick {self.trick + 1}"
        elif self.kind == PLAY_OUT_OF_TURN:
            what = f"{self.seat} played {self.card} out of turn to trick {self.trick + 1}"
        else:
            what = "misdeal"
        return what + (f": {self.outcome}" if self.outcome else "")


@dataclass
class HonourState:
    """What a deal under the honour rule keeps of its irregularities (see :mod:`cinch.deal`).

    ``pending``: the offence the other side is asked about now (claim or waive), ``resume``: who
    was to act before it, ``slow``: the deal's slow-path flag before the claim took it over;
    ``barred``: a bit per side barred from bidding (003); ``required``: a lead restriction after a
    lead out of turn in the partner's turn ("trumps" or "no-trumps"); ``revokers``: the sides whose
    revokes were claimed (003: settled at the end); ``ruling``: the rulings in words so far.
    """

    text: str
    offences: list[Offence] = field(default_factory=list)
    pending: Offence | None = None
    resume: Seat | None = None
    slow: bool = False
    barred: int = 0
    required: str = ""
    taken_back: tuple[int, Team | None, Seat] | None = None  # a lead out of turn: (card, Low's holder, leader)
    # A play out of turn: (card, Low's holder, the seat whose turn it was, the trick's best strength and winner).
    play_back: tuple[int, Team | None, Seat, int, int] | None = None
    around: bool = False  # a waived play out of turn stands in the trick: the seats that played are skipped
    revokers: list[Team] = field(default_factory=list)
    ruling: list[str] = field(default_factory=list)
    next_dealer: Seat | None = None

    @property
    def penalty_003(self) -> bool:
        """Whether 003's rulings apply (it alone rules on bids, leads and plays out of turn)."""
        return self.text == "003"

    def copy(self) -> HonourState:
        """An independent copy (a deal's copy for search)."""
        offences = [replace(o) for o in self.offences]
        pending = None if self.pending is None else offences[self.offences.index(self.pending)]
        return replace(self, offences=offences, pending=pending, revokers=self.revokers[:], ruling=self.ruling[:])

    def public(self) -> tuple[str, ...]:
        """The irregularities every seat knows of, in words, with the rulings so far."""
        return tuple(o.describe() + "." for o in self.offences if o.kind != REVOKE or o.shown) + tuple(self.ruling)


def bid_out_of_turn_words(offenders: Team) -> str:
    return (f"Bid out of turn (003): the bid is void, earlier bids stand, and {offenders} may not bid again "
            "this deal.")


def lead_out_of_turn_words(card: Card, leader: Seat, required: str) -> str:
    extra = {"trumps": f"; {leader} must lead a trump if he can",
             "no-trumps": f"; {leader} may not lead a trump if he holds another card"}.get(required, "")
    return f"Lead out of turn (003): {card} is taken back, and {leader} leads{extra}."


def play_out_of_turn_words(card: Card, player: Seat) -> str:
    return f"Play out of turn (003): {card} is taken back, and {player} plays."


def incorrect_hand_ruling(seat: Seat, cards: int, text: str) -> str:
    """An incorrect hand found in play (003), in words: ``cards`` too many (above 0) or too few (below 0).
    It changes no score: the deal is settled from what was taken.  002 has no such ruling.

    >>> incorrect_hand_ruling(Seat.E, 2, "003")[:75]
    'E held 2 cards too many (003): an opponent drew the excess face down and it'
    >>> incorrect_hand_ruling(Seat.N, -1, "002")
    'N held 1 card too few: 002 has no ruling on an incorrect hand, so the deal is settled as entered.'
    """
    count = abs(cards)
    held = f"{seat} held {count} card{'s' if count != 1 else ''} too {'many' if cards > 0 else 'few'}"
    if text == "002":
        return f"{held}: 002 has no ruling on an incorrect hand, so the deal is settled as entered."
    if cards > 0:
        return (f"{held} (003): an opponent drew the excess face down and it went back to the pack; play went on, "
                "and the score is not changed by it.")
    return f"{held} (003): play went on with the short hand, and the score is not changed by it."
