"""The options on which the five rule texts disagree, and the five presets.

A :class:`Rules` value is immutable.  Start from a preset and override what
your table plays differently; a combination that makes no sense is refused.

>>> r = Rules.preset("additive").with_options(target=42, follow="strict")
>>> r.target, r.follow.value, r.settlement.value
(42, 'strict', 'additive')
>>> Rules.preset("pagat").to_json()
'pagat'
>>> r
Rules.preset('additive').with_options(target=42, follow='strict')
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any, Final, TypedDict

from cinch.cards import TrumpTables, trump_tables
from cinch.constants import HAND
from cinch.errors import RulesError, cut, quoted
from cinch.seating import MAX_PLAYERS, MIN_PLAYERS, Seating, seating


class AllPass(StrEnum):
    """What happens when all four players pass."""

    STUCK_DEALER = "stuck-dealer"  # the dealer must bid the minimum (000)
    THROW_IN = "throw-in"  # no score, the next dealer deals (001)


class Bidding(StrEnum):
    ONE_CIRCUIT = "one-circuit"  # each player bids once, dealer last (all texts)
    AUCTION = "auction"  # bidders may raise again until the others pass (002 "Auction Cinch")


class Discard(StrEnum):
    ALL_CONCEALED = "all-concealed"  # every non-trump, face down (000, 003, 004)
    ALL_FACE_UP = "all-face-up"  # every non-trump, face up (001)
    CHOOSE_CONCEALED = "choose-concealed"  # the non-trumps the player chooses, face down (002)


class AboveSix(StrEnum):
    """A player left with more than six trumps after the discard."""

    BURIED = "buried"  # keep them all; the excess is buried under trick 1 (000)
    KEEP_SIX = "keep-six"  # keep six, show the trumps thrown; they are dead (001, 003)


class Rob(StrEnum):
    """How the dealer robs the pack."""

    ALL_TRUMPS = "all-trumps"  # every trump in the stock, non-trumps to six, may end above six (000)
    ANY_SIX = "any-six"  # after his discard, any six of his cards and the stock (001)
    HAND_AND_STOCK = "hand-and-stock"  # no discard; any six of his nine and the stock (003, 002)
    TRUMPS_FIRST = "trumps-first"  # after his discard, trumps first, then any cards, to six (004)


class StockOut(StrEnum):
    """The stock runs out before every hand is refilled."""

    RESHUFFLE = "reshuffle"  # the non-trump discards become a new stock (000)
    SHARE = "share"  # what is left is shared out one at a time, in turn (002)


class Follow(StrEnum):
    ALL_FOURS = "all-fours"  # on a plain lead, follow suit or trump as you like (all texts)
    STRICT = "strict"  # follow suit if able, trump only when void (002's step 2, read literally)


class High(StrEnum):
    ACE = "ace"  # the ace of trumps (000, 001, 002)
    HIGHEST = "highest"  # the highest trump in play (003, 004)


class Low(StrEnum):
    TWO_HOLDER = "two-holder"  # the 2 of trumps, to the side that held it (000)
    TWO_CAPTURER = "two-capturer"  # the 2 of trumps, to its capturer (001)
    LOWEST_CAPTURER = "lowest-capturer"  # the lowest trump in play, to its capturer (002, 003, 004)


class Settlement(StrEnum):
    ADDITIVE = "additive"  # each side adds what it took; set makers lose the bid (000, 002)
    DIFFERENCE = "difference"  # the side that took more scores the difference (001, 003, 004)


class Irregularities(StrEnum):
    """Whose rulings the honour-rule table applies to a misdeal, a revoke, a bid, a lead or a play out of turn."""

    BY_SCORING = "by-scoring"  # 002 under additive scoring, 003 under difference scoring (as the scorekeeper)
    TEXT_002 = "002"  # misdeal: same dealer; revoke: 14 to the other side, offending makers set
    TEXT_003 = "003"  # misdeal: dealer loses the deal; revoke: offenders score nothing; bid and lead out of turn


class ThrownPoints(StrEnum):
    """Point cards among the trumps a player throws (keep-six rule)."""

    DEAD = "dead"  # score for nobody (001)
    DEFENDERS_TO_MAKERS = "defenders-to-makers"  # a defender's thrown point card counts for the makers (003)


PRESET_NAMES = ("pagat", "difference", "additive", "official", "double-pedro")
BASE_POINTS = 14
SANCHO_POINTS = 9
MAX_POINTS: Final = 1000
"""The most points a count of the rules may name: the target at most this, a negative floor or a
bidder-goes-out threshold no further below zero. The texts play to 62 (124 with two decks); the bound
keeps every score a match can reach far inside what a record, a database or a JSON encoder holds."""
DOM_POINTS = 3


@dataclass(frozen=True, repr=False)
class Rules:
    """Every option of the rulebook.  Build one with :meth:`preset`."""

    preset_name: str
    target: int
    min_bid: int
    max_bid: int | None  # None: as many points as the deal holds (14, or more with Sancho)
    all_pass: AllPass
    bidding: Bidding
    discard: Discard
    above_six: AboveSix
    rob: Rob
    stock_out: StockOut
    follow: Follow
    high: High
    low: Low
    settlement: Settlement
    makers_count_first: bool
    bidder_goes_out: int | None  # both sides at this score or more before a deal: makers who make it win
    negative_floor: int | None  # a side at or below this score loses
    sancho: bool  # 9 of trumps scores 9 (002 "Pedro Sancho")
    dom_pedro: bool  # 3 of trumps scores 3 (002 "Dom Pedro")
    no_draw: bool  # nine tricks with the dealt hands, no discard (002 "Simple Cinch")
    bowers: bool  # the Jacks of the trump colour are the top trumps; the left bower replaces the left Pedro (002)
    thrown_points: ThrownPoints
    honour_rule: bool  # irregularities may be committed and claimed, as at a real table (002, 003)
    irregularities: Irregularities
    players: int  # 4 in two partnerships; 2, 3, 5 or 6 cut-throat, each for himself (002's variations)
    heasly: bool  # six cut-throat to a higher target (002 "Heasly")
    decks: int  # 1, or 2 for two-deck Cinch (002): larger hands, twice the points (docs/rule-readings.md)
    overrides: tuple[str, ...] = field(default=(), compare=False)

    # ---- construction -------------------------------------------------
    @classmethod
    def preset(cls, name: str) -> Rules:
        """One of the five presets: pagat, difference, additive, official, double-pedro."""
        key = name.strip().lower()
        if key not in _PRESETS:
            raise RulesError(f"unknown preset {quoted(name)}; the presets are {', '.join(PRESET_NAMES)}")
        return _PRESETS[key]

    def with_options(self, **options: Any) -> Rules:
        """A copy with some options changed; values may be given as text ("42", "true", "none")."""
        values = {}
        for raw_key, raw_value in options.items():
            key = _option_key(raw_key)
            values[key] = _coerce(key, raw_value)
        given = tuple(values)
        decks = values.get("decks", self.decks)
        if decks == TWO_DECKS and self.decks != TWO_DECKS:
            # Two packs hold twice the points: every count of points doubles, unless given with them.
            # (Not an override: a later option, as Heasly's target, may still set it.)
            for key in DOUBLED_BY_DECKS:
                value = getattr(self, key)
                if key not in given and value is not None:
                    values[key] = value * TWO_DECKS
        if values.get("heasly"):  # Heasly is six players, cut-throat, to a higher target
            values.setdefault("players", HEASLY_PLAYERS)
            if "target" not in given and "target" not in self.overrides:
                values["target"] = HEASLY_TARGET * decks
                given += ("target",)
        merged = tuple(dict.fromkeys(self.overrides + given + (("players",) if values.get("heasly") else ())))
        rules = dataclasses.replace(self, **values, overrides=merged)
        rules._check()
        return rules

    @classmethod
    def from_json(cls, spec: Any) -> Rules:
        """A preset name, or ``{"preset": NAME, option: value, ...}`` as in a record.

        In a record every value has its JSON type (``true``, ``42``, ``"strict"``, ``null``):
        the text forms of the command line (``"yes"``, ``"42"``) are refused.
        """
        if isinstance(spec, str):
            return cls.preset(spec)
        if isinstance(spec, Mapping):
            if "preset" not in spec:
                raise RulesError('a rules object needs a "preset" key naming the preset it changes')
            if not isinstance(spec["preset"], str):
                raise RulesError('"preset" must be a preset name')
            rest = {k: v for k, v in spec.items() if k != "preset"}
            for key, value in rest.items():
                _check_json_value(_option_key(key), value)
            return cls.preset(spec["preset"]).with_options(**rest)
        raise RulesError("rules must be a preset name or an object with a \"preset\" key")

    @classmethod
    def from_text(cls, preset: str, options: list[str] | tuple[str, ...] = ()) -> Rules:
        """From the command line: a preset and ``KEY=VALUE`` overrides."""
        rules = cls.preset(preset)
        pairs = {}
        for item in options:
            if "=" not in item:
                raise RulesError(f"option {quoted(item)} must be written KEY=VALUE, for example target=42")
            key, value = item.split("=", 1)
            pairs[key.strip()] = value.strip()
        return rules.with_options(**pairs) if pairs else rules

    def to_json(self) -> str | dict[str, Any]:
        """The record form: the preset name, plus the options that differ from it."""
        base = _PRESETS[self.preset_name]
        diff = {}
        for f in fields(self):
            if f.name in ("preset_name", "overrides"):
                continue
            value = getattr(self, f.name)
            # Heasly brings its own target: another one is written even when it is the preset's.
            heasly_target = f.name == "target" and self.heasly and value != HEASLY_TARGET
            # With two decks the counts of points are written even when they are the preset's own,
            # which reading a record would double.
            doubled = self.decks == TWO_DECKS and f.name in DOUBLED_BY_DECKS and value is not None
            if value != getattr(base, f.name) or heasly_target or doubled:
                diff[f.name] = value.value if isinstance(value, StrEnum) else value
        if not diff:
            return self.preset_name
        return {"preset": self.preset_name, **diff}

    def __repr__(self) -> str:
        """Python that builds the same rules: ``Rules.preset('additive').with_options(target=42)``."""
        spec = self.to_json()
        if isinstance(spec, str):
            return f"Rules.preset({spec!r})"
        options = ", ".join(f"{key}={value!r}" for key, value in spec.items() if key != "preset")
        return f"Rules.preset({self.preset_name!r}).with_options({options})"

    # ---- derived values -----------------------------------------------
    @property
    def total_points(self) -> int:
        """Points held by the point cards of one deal: 14, 23 with Sancho, 26 with Dom Pedro too."""
        return (BASE_POINTS + SANCHO_POINTS * self.sancho + DOM_POINTS * self.dom_pedro) * self.decks

    @property
    def highest_bid(self) -> int:
        return self.total_points if self.max_bid is None else self.max_bid

    @property
    def dealer_discards(self) -> bool:
        """Whether the dealer discards with the others: before robbing (not under 003's rob), and always
        at two or three players, where nobody robs."""
        return self.rob is not Rob.HAND_AND_STOCK or not self.seating.dealer_robs

    @property
    def tricks(self) -> int:
        """Six (twelve with two decks), or without the draw as many as each player is dealt (nine, six at
        five or six players; twice as many with two decks)."""
        return self.seating.dealt if self.no_draw else self.seating.hand

    @property
    def seating(self) -> Seating:
        """The seats and sides: four in partnerships, or 2, 3, 5 or 6 cut-throat."""
        return seating(self.players, self.decks)

    @property
    def cut_throat(self) -> bool:
        """Each player for himself (any table but four)."""
        return not self.seating.partnership

    @property
    def trump_tables(self) -> tuple[TrumpTables, ...]:
        """The trump tables by suit under these rules: the bowers' set under all-hands Pedro.

        >>> from cinch.cards import CARDS
        >>> str(CARDS[Rules.preset("pagat").with_options(bowers=True).trump_tables[0].order[1]])
        'JC'
        """
        return trump_tables(self.bowers, self.decks)

    @property
    def name(self) -> str:
        """The preset's name, marked when options are changed: ``additive+``."""
        return self.preset_name if self.to_json() == self.preset_name else self.preset_name + "+"

    # ---- validation ---------------------------------------------------
    def _check(self) -> None:
        """Refuse impossible values and clashing options, saying which override resolves each.

        The hints use the command line's spelling (``-o KEY=VALUE``), where overrides come from;
        a record writes the same values as JSON (``none`` is ``null`` there).
        """
        total = self.total_points
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise RulesError(f"players {self.players}: Cinch is played by 2 to 6; add -o players=N with N from 2 to 6")
        if self.decks not in (1, TWO_DECKS):
            raise RulesError(f"decks {self.decks}: Cinch is played with one pack, or two (002's two-deck Cinch); "
                             "add -o decks=1 or -o decks=2")
        if self.heasly and self.players != HEASLY_PLAYERS:
            raise RulesError(f"heasly clashes with players {self.players}: Heasly is played by six; "
                             "add -o players=6, or leave out heasly")
        if self.honour_rule and self.cut_throat:
            raise RulesError(f"honour_rule clashes with players {self.players}: the rulings on irregularities "
                             "(002, 003) name partnerships, so the honour rule is played by four; "
                             "add -o players=4, or leave out honour_rule")
        if self.target < 1:
            raise RulesError(f"target {self.target} must be at least 1; the presets play to 51 or 62")
        if self.target > MAX_POINTS:
            raise RulesError(f"target {_points_text(self.target)} is past the highest, {MAX_POINTS}; add -o target=N "
                             f"with N from 1 to {MAX_POINTS} (the presets play to 51 or 62)")
        if not 1 <= self.min_bid <= total:
            raise RulesError(
                f"min_bid {self.min_bid} must be between 1 and the {total} points in a deal; "
                f"add -o min_bid=N with N from 1 to {total}"
                + (", or -o sancho=true (23 points in a deal)"
                   if not self.sancho and total < self.min_bid <= total + SANCHO_POINTS else "")
            )
        if self.max_bid is not None:
            if self.max_bid > total:
                raise RulesError(
                    f"max_bid {self.max_bid} clashes with the points in a deal: only {total} can be taken"
                    + ("" if self.sancho else " (Sancho raises it to 23)")
                    + "; add -o max_bid=none (null in a record) to bid up to the points a deal holds, "
                    f"-o max_bid=N with N up to {total}" + ("" if self.sancho else ", or -o sancho=true")
                )
            if self.max_bid < self.min_bid:
                raise RulesError(
                    f"max_bid {self.max_bid} clashes with min_bid {self.min_bid}: no bid would be legal; "
                    f"add -o max_bid=N with N at least {self.min_bid}, or -o min_bid=N with N at most "
                    f"{self.max_bid}"
                )
        if self.bidder_goes_out is not None:
            if self.bidder_goes_out >= self.target:
                raise RulesError(
                    f"bidder_goes_out at {self.bidder_goes_out} clashes with target {self.target}: "
                    f"the threshold must be below the target; add -o bidder_goes_out=none (null in a record), "
                    f"or a value below {self.target}"
                )
            if self.makers_count_first:
                raise RulesError(
                    "bidder_goes_out clashes with makers_count_first: both settle a deal that takes both "
                    "sides past the target, in different ways; turn one off: add -o bidder_goes_out=none "
                    "(null in a record) or -o makers_count_first=false"
                )
        for key in ("bidder_goes_out", "negative_floor"):
            value = getattr(self, key)
            if value is not None and value < -MAX_POINTS:
                raise RulesError(f"{key} {_points_text(value)} is further below zero than -{MAX_POINTS}, the lowest; "
                                 f"add -o {key}=N with N at least -{MAX_POINTS}, or -o {key}=none (null in a record)")
        if self.negative_floor is not None and self.negative_floor >= 0:
            raise RulesError(
                f"negative_floor {self.negative_floor} must be below zero; add -o negative_floor=N with N "
                "below zero (002's house rule plays -30), or -o negative_floor=none (null in a record) for no floor"
            )
        if self.no_draw:
            draw_options = {"discard", "above_six", "rob", "stock_out", "thrown_points"} & set(self.overrides)
            if draw_options:
                names = sorted(draw_options)
                raise RulesError(
                    f"no_draw clashes with {', '.join(names)}: without the draw there is no "
                    f"discard, refill or rob; leave out {' and '.join(names)}, or no_draw"
                )

    # ---- plain words ----------------------------------------------------
    def describe(self) -> list[str]:
        """The active options in plain words, one line each (for help screens)."""
        lines = []
        lo, hi = self.min_bid, self.highest_bid
        lines.append(f"Bids from {lo} to {hi}; each bid must beat the one before.")
        if self.bidding is Bidding.AUCTION:
            lines.append("Auction: bidders may raise again when their turn comes round, until the others pass.")
        else:
            lines.append("One bidding circuit from the dealer's left; the dealer bids last; a pass is final.")
        if self.cut_throat:
            lines.append(self._table_text())
        if self.decks == TWO_DECKS:
            lines.append(_TWO_DECK_TEXT.format(dealt=self.seating.dealt, stock=self.seating.stock))
        if self.all_pass is AllPass.STUCK_DEALER:
            lines.append(f"If {self.seating.others_text} pass, the dealer is stuck and must bid {lo}.")
        else:
            lines.append(f"If {self.seating.all_text} pass, the deal is thrown in and the next dealer deals.")
        if self.bowers:
            lines.append(
                "The maker names trumps; the Jack of trumps (right bower) and the other Jack of the same colour"
                " (left bower) are the two highest trumps, above the ace; the other five is a plain card."
            )
        else:
            lines.append("The maker names trumps; the other five of the same colour (left Pedro) is a trump too.")
        if self.no_draw:
            dealt = _NUMBER_WORDS[self.seating.dealt]
            lines.append(f"No draw: everyone plays the {dealt} cards dealt, {dealt} tricks.")
        else:
            draw = _DRAW_TEXT[self.discard][0]
            if not self.dealer_discards:
                draw = draw.replace("Everyone throws", "Everyone but the dealer throws")
            rob = _ROB_TEXT[self.rob] if self.seating.dealer_robs else [_NO_ROB_TEXT]
            if self.seating.dealt != 9:
                rob = [line.replace("of his nine cards", f"of his {self.seating.dealt} cards") for line in rob]
            draw_lines = [draw] + _ABOVE_SIX_TEXT[self.above_six] + rob
            lines.extend(for_hands_of(line, self.seating.hand) for line in draw_lines)
            lines.append(_STOCK_OUT_TEXT[self.stock_out])
        lines.append(_FOLLOW_TEXT[self.follow])
        high = _HIGH_TEXT[self.high]
        if self.bowers:
            high = high[:-1] + (" (below the bowers)." if self.high is High.ACE else " (the right bower when in play).")
        lines.append(high + " " + _LOW_TEXT[self.low])
        extras = []
        if self.sancho:
            extras.append("the 9 of trumps (Sancho) scores 9")
        if self.dom_pedro:
            extras.append("the 3 of trumps (Dom) scores 3")
        lines.append(
            ("Points: High, Low, Jack (the right bower) and Game 1 each, the Pedro and the left bower 5 each"
             if self.bowers else "Points: High, Low, Jack and Game 1 each, each Pedro 5")
            + (", " + ", ".join(extras) if extras else "")
            + (", for every copy in play" if self.decks == TWO_DECKS else "")
            + f": {self.total_points} in all."
        )
        if self.thrown_points is ThrownPoints.DEFENDERS_TO_MAKERS:
            lines.append("A Jack, Ten, Pedro or left bower a defender throws out counts for the makers." if self.bowers
                         else "A Jack, Ten or Pedro a defender throws out counts for the makers.")
        if self.cut_throat and self.players > 2:  # two players settle as two sides, by the preset's settlement
            lines.append(_CUT_THROAT_SETTLEMENT)
        else:
            lines.append(_SETTLEMENT_TEXT[self.settlement].format(total=self.total_points))
        end = f"First {'player' if self.cut_throat else 'side'} to {self.target} wins."
        if self.makers_count_first:
            end += (" If several players pass it on one deal, the maker counts first." if self.cut_throat
                    else " If both sides pass it on one deal, the makers count first.")
        if self.bidder_goes_out is not None:
            everyone = "every player stands" if self.cut_throat else "both sides stand"
            end += (
                f" Bidder goes out: when {everyone} at {self.bidder_goes_out} or more, makers who make"
                " their bid win outright."
            )
        if self.negative_floor is not None:
            end += f" A side at {self.negative_floor} or below loses."
        lines.append(end)
        if self.honour_rule:
            text = ("002 or 003 by the scoring" if self.irregularities is Irregularities.BY_SCORING
                    else self.irregularities.value)
            lines.append("Honour rule: a revoke, a bid, a lead or a play out of turn is possible, and the other side "
                         f"may claim it; the ruling follows text {text}.")
        return lines

    def _table_text(self) -> str:
        n = self.players
        dealt = self.seating.dealt
        text = f"{n} players, each for himself, seats 1 to {n}; each is dealt {dealt}"
        if not self.seating.dealer_robs and not self.no_draw:
            text += "; the dealer does not rob the pack but discards and draws like the others"
        text += "; the maker plays alone against all the others"
        if self.heasly:
            text += " (Heasly)"
        return text + "."


_NUMBER_WORDS: Final = {6: "six", 9: "nine", 12: "twelve", 18: "eighteen"}


def for_hands_of(text: str, hand: int) -> str:
    """``text``, written of hands of six, said of hands of ``hand`` cards (twelve with two decks).

    >>> for_hands_of("keeps exactly six cards", 12)
    'keeps exactly twelve cards'
    """
    return text if hand == HAND else text.replace("six", _NUMBER_WORDS[hand])
_TWO_DECK_TEXT: Final = ("Two decks (104 cards): each player is dealt {dealt}, {stock} stay in the stock, hands are "
                         "refilled to twelve and twelve tricks are played; of two identical cards in a trick the "
                         "first played wins, and every point card scores for each copy.")
_CUT_THROAT_SETTLEMENT = ("Each player scores the points he took; a maker short of his bid loses the bid instead "
                          "(cut-throat, docs/rule-readings.md).")
TWO_DECKS: Final = 2
DOUBLED_BY_DECKS: Final = ("target", "min_bid", "max_bid", "bidder_goes_out", "negative_floor")
"""The counts of points that two decks double (twice the point cards, twice the points), unless given."""
HEASLY_PLAYERS: Final = 6
HEASLY_TARGET: Final = 62
"""002 says only that Heasly's target is higher than the partnership game's: 62, the highest any of
the five texts plays to (000), read in docs/rule-readings.md."""

_DRAW_TEXT = {
    Discard.ALL_CONCEALED: ["Everyone throws every non-trump face down and is refilled to six from the stock."],
    Discard.ALL_FACE_UP: ["Everyone throws every non-trump face up and is refilled to six from the stock."],
    Discard.CHOOSE_CONCEALED: [
        "Everyone throws face down the non-trumps they choose (keeping at most six cards) and is refilled to six."
    ],
}
_ABOVE_SIX_TEXT = {
    AboveSix.BURIED: ["More than six trumps: keep them all; the extras are buried under your first card."],
    AboveSix.KEEP_SIX: ["More than six trumps: keep six and show the ones you throw; they are dead."],
}
_ROB_TEXT = {
    Rob.ALL_TRUMPS: ["The dealer robs the pack: every trump left in it, then non-trumps of his choice to six."],
    Rob.ANY_SIX: ["The dealer robs the pack: he keeps any six of his cards and the stock."],
    Rob.HAND_AND_STOCK: ["The dealer does not discard; he keeps any six of his nine cards and the stock."],
    Rob.TRUMPS_FIRST: ["The dealer throws his non-trumps, then takes trumps from the stock, then any cards, to six."],
}
_NO_ROB_TEXT = "Nobody robs the pack: the dealer discards and is refilled like the others, last."
_STOCK_OUT_TEXT = {
    StockOut.RESHUFFLE: "If the stock runs out, the non-trump discards are shuffled into a new stock.",
    StockOut.SHARE: "If the stock runs short, what is left is shared out one card at a time, in turn.",
}
_FOLLOW_TEXT = {
    Follow.ALL_FOURS: "On a trump lead you must play a trump if you can; on a plain lead, follow suit or trump.",
    Follow.STRICT: "You must follow suit if you can; trump only when void in the suit led.",
}
_HIGH_TEXT = {
    High.ACE: "High is the ace of trumps.",
    High.HIGHEST: "High is the highest trump in play.",
}
_LOW_TEXT = {
    Low.TWO_HOLDER: "Low is the 2 of trumps and scores for the side that held it.",
    Low.TWO_CAPTURER: "Low is the 2 of trumps and scores for whoever captures it.",
    Low.LOWEST_CAPTURER: "Low is the lowest trump in play and scores for whoever captures it.",
}
_SETTLEMENT_TEXT = {
    Settlement.ADDITIVE: "Defenders add what they take; makers add theirs if they reach the bid, else lose the bid.",
    Settlement.DIFFERENCE: (
        "If the makers reach the bid, the side that took more scores the difference;"
        " if not, the defenders score {total} plus the shortfall."
    ),
}

_ENUMS = {
    "all_pass": AllPass, "bidding": Bidding, "discard": Discard, "above_six": AboveSix, "rob": Rob,
    "stock_out": StockOut, "follow": Follow, "high": High, "low": Low, "settlement": Settlement,
    "thrown_points": ThrownPoints, "irregularities": Irregularities,
}
_INTS = {"target", "min_bid", "players", "decks"}
_OPTIONAL_INTS = {"max_bid", "bidder_goes_out", "negative_floor"}
_BOOLS = {"makers_count_first", "sancho", "dom_pedro", "no_draw", "bowers", "honour_rule", "heasly"}
OPTION_NAMES = tuple(sorted(_INTS | _OPTIONAL_INTS | _BOOLS | set(_ENUMS)))

RULE_TEXTS = {"000": "pagat", "001": "difference", "002": "additive", "003": "official", "004": "double-pedro"}
"""The five rule texts (``shared/rule-texts``) by number, and the preset each one gives."""

OPTION_HELP: dict[str, tuple[str, str]] = {
    # option: (what it decides, which rule texts say what), for `cinch rules`
    "target": ("The score that wins the match.", "62 (000); 51 (001, 002, 003); 42 and 61 also named (001, 002)"),
    "min_bid": ("The lowest bid.", "7 (000); 1 (001, 002, 004; 003 names no minimum)"),
    "max_bid": ("The highest bid; none: as many points as a deal holds (14, more with sancho or dom_pedro).",
                "14 in every text (003 names only this maximum)"),
    "all_pass": ("When all four pass: the dealer is stuck and must bid, or the deal is thrown in.",
                 "stuck-dealer (000; a variation in 001); throw-in (001)"),
    "bidding": ("One circuit, each player bidding once, dealer last; or an auction, raising until the others pass.",
                "one-circuit (all texts); auction (002 \"Auction Cinch\")"),
    "discard": ("What the players throw before the draw, and whether it is shown.",
                "all-concealed: every non-trump, face down (000, 003, 004); all-face-up (001); "
                "choose-concealed: the non-trumps the player chooses (002)"),
    "above_six": ("A player left with more than six trumps: keeps them all and buries the excess under his card "
                  "to trick 1, or keeps six and shows the rest, which are dead.",
                  "buried (000); keep-six (001, 003)"),
    "rob": ("How the dealer robs the pack after the draw.",
            "all-trumps: every trump in the stock, non-trumps to six (000); any-six: any six of his cards and "
            "the stock (001); hand-and-stock: no discard, any six of his nine and the stock (003, 002); "
            "trumps-first: trumps, then any cards, to six (004)"),
    "stock_out": ("The stock runs out before every hand is refilled: the discards become a new stock, or what "
                  "is left is shared out in turn.", "reshuffle (000); share (002)"),
    "follow": ("On a plain-suit lead: follow suit or trump as you like, or follow suit if you can and trump "
               "only when void.", "all-fours (all texts); strict (002's step 2, read literally)"),
    "high": ("Which trump scores High.", "ace: the ace of trumps (000, 001, 002); highest: the highest trump in "
             "play (003, 004)"),
    "low": ("Which trump scores Low, and for whom.", "two-holder: the 2, for the side that held it (000); "
            "two-capturer: the 2, for its capturer (001); lowest-capturer: the lowest trump in play, for its "
            "capturer (002, 003, 004)"),
    "settlement": ("How a deal is scored: each side adds what it took and makers short of the bid lose it, or "
                   "the side that took more scores the difference.", "additive (000, 002); difference (001, 003, "
                   "004)"),
    "makers_count_first": ("When both sides pass the target on one deal, the makers win if they made their bid.",
                           "on (001, 002); off (000, 003, 004)"),
    "bidder_goes_out": ("When both sides stand at this score or more before a deal, makers who make their bid "
                        "win outright; none: off.", "55 (000); off (001 to 004)"),
    "negative_floor": ("A side at this score or below loses; none: off.",
                       "-30 (002, a house rule); off in every preset"),
    "sancho": ("The 9 of trumps (Pedro Sancho) scores 9: 23 points in a deal.",
               "a variation in 002 (\"Pedro Sancho\"); off in every preset"),
    "dom_pedro": ("The 3 of trumps (Dom Pedro) scores 3.", "a variation in 002 (\"Dom Pedro\"); off in every preset"),
    "no_draw": ("No discard and no draw: the nine cards dealt are played out, nine tricks.",
                "a variation in 002 (\"Simple Cinch\"); off in every preset"),
    "bowers": ("All-hands Pedro: the Jack of trumps (right bower) and the Jack of the same colour (left bower) "
               "rank above the ace; the left bower replaces the left Pedro as a trump and as a 5-point card, and "
               "the other five is a plain card. 14 points in a deal, as without.",
               "a variation in 002 (\"All-hands Pedro\"), which leaves the ranks and points open: our reading is "
               "in docs/rule-readings.md; off in every preset"),
    "thrown_points": ("A point card among the trumps a player throws (keep-six): dead, or, thrown by a defender, "
                      "counted for the makers.", "dead (001); defenders-to-makers (003)"),
    "honour_rule": ("The honour rule, as at a real table: a player may revoke, or bid, lead or play out of turn, "
                    "and the other side may claim it; off: illegal actions are impossible.",
                    "irregularities and their penalties (002, 003); off in every preset"),
    "irregularities": ("Whose rulings apply to a misdeal, a revoke, a bid, a lead or a play out of turn: by-scoring "
                       "(002 under additive scoring, 003 under difference scoring), 002 or 003.",
                       "misdeal and revoke (002); misdeal, revoke, bid, lead and play out of turn (003)"),
    "players": ("How many play: 4 in two partnerships; 2, 3, 5 or 6 cut-throat, each for himself (five or six "
                "are dealt six cards; with two or three the dealer does not rob but draws like the others; the "
                "maker plays alone against all the others).",
                "4 in every text; 002 names two-, three-, five- and six-player individual variants, read from "
                "Foster (1897) in docs/rule-readings.md"),
    "heasly": ("Heasly: six players cut-throat, each scoring for himself, to a higher target (62 unless set).",
               "a variation in 002 (\"Heasly\"); off in every preset"),
    "decks": ("Two-deck Cinch with 2: two packs, every hand and deal twice the size (twelve cards held, twelve "
              "tricks), every point card twice, so twice the points; the target, the bids and the other counts "
              "of points double unless given. Of two identical cards in a trick the first played wins.",
              "1 in every text; 002 names two-deck Cinch, read in docs/rule-readings.md"),
}
assert set(OPTION_HELP) == set(OPTION_NAMES)


def _points_text(value: int) -> str:
    """A count of points for a message: as it is, or, past nine digits, only how long it is.

    >>> _points_text(-30), _points_text(10**30)
    ('-30', 'of 31 digits')
    """
    return str(value) if abs(value) < 10**9 else f"of {len(str(abs(value)))} digits"


def option_help(key: str) -> tuple[str, str]:
    """(what the option decides, what the rule texts say) in words.

    >>> option_help("dom-pedro")[0]
    'The 3 of trumps (Dom Pedro) scores 3.'
    """
    return OPTION_HELP[_option_key(key)]


def option_values(key: str) -> str:
    """What an option accepts, in words (for help and error messages)."""
    if key in _ENUMS:
        return " | ".join(v.value for v in _ENUMS[key])
    if key in _BOOLS:
        return "true | false"
    if key in _OPTIONAL_INTS:
        return "a whole number | none"
    return "a whole number"


def json_values(key: str) -> str:
    """What an option takes in a record, where values carry their JSON type."""
    if key in _ENUMS:
        return "a string, one of " + ", ".join(json.dumps(v.value) for v in _ENUMS[key])
    if key in _BOOLS:
        return "true or false (JSON booleans, without quotes)"
    if key in _OPTIONAL_INTS:
        return "a whole number as a JSON number (as 42, without quotes), or null for off"
    return "a whole number as a JSON number (as 42, without quotes)"


def _check_json_value(key: str, value: Any) -> None:
    """Refuse a record's option value of the wrong JSON type (the text forms belong to ``-o KEY=VALUE``)."""
    if key in _ENUMS:
        fits = isinstance(value, str)
    elif key in _BOOLS:
        fits = isinstance(value, bool)
    else:
        fits = (isinstance(value, int) and not isinstance(value, bool)) or (value is None and key in _OPTIONAL_INTS)
    if not fits:
        try:
            shown = quoted(value) if isinstance(value, str) else cut(json.dumps(value))
        except (TypeError, ValueError):
            shown = quoted(value)
        raise RulesError(f"{key} cannot be {shown} in a record; it takes {json_values(key)}")


def _option_key(raw: str) -> str:
    key = str(raw).strip().lower().replace("-", "_")
    if key not in OPTION_NAMES:
        raise RulesError(f"unknown option {quoted(raw)}; the options are {', '.join(OPTION_NAMES)}")
    return key


def _coerce(key: str, value: Any) -> Any:
    if key in _ENUMS:
        enum = _ENUMS[key]
        try:
            return enum(str(value).strip().lower())
        except ValueError:
            raise RulesError(f"{key} cannot be {quoted(value)}; it takes {option_values(key)}") from None
    if key in _BOOLS:
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("true", "yes", "on", "1"):
            return True
        if text in ("false", "no", "off", "0"):
            return False
        raise RulesError(f"{key} cannot be {quoted(value)}; it takes true or false")
    if key in _OPTIONAL_INTS and (value is None or str(value).strip().lower() in ("none", "off", "null")):
        return None
    if isinstance(value, bool):
        raise RulesError(f"{key} cannot be {quoted(value)}; it takes {option_values(key)}")
    if isinstance(value, int):
        return value
    try:
        return int(str(value).strip())
    except ValueError:
        raise RulesError(f"{key} cannot be {quoted(value)}; it takes {option_values(key)}") from None


class _Common(TypedDict):
    """The options every preset shares (a TypedDict so that ``**_COMMON`` is checked option by option)."""

    bidding: Bidding
    follow: Follow
    negative_floor: int | None
    sancho: bool
    dom_pedro: bool
    no_draw: bool
    bowers: bool
    max_bid: int | None
    honour_rule: bool
    irregularities: Irregularities
    players: int
    heasly: bool
    decks: int


_COMMON = _Common(
    bidding=Bidding.ONE_CIRCUIT, follow=Follow.ALL_FOURS, negative_floor=None, sancho=False,
    dom_pedro=False, no_draw=False, bowers=False, max_bid=None,
    honour_rule=False, irregularities=Irregularities.BY_SCORING, players=4, heasly=False, decks=1,
)
_PRESETS = {
    "pagat": Rules(  # text 000
        preset_name="pagat", target=62, min_bid=7, all_pass=AllPass.STUCK_DEALER,
        discard=Discard.ALL_CONCEALED, above_six=AboveSix.BURIED, rob=Rob.ALL_TRUMPS,
        stock_out=StockOut.RESHUFFLE, high=High.ACE, low=Low.TWO_HOLDER, settlement=Settlement.ADDITIVE,
        makers_count_first=False, bidder_goes_out=55, thrown_points=ThrownPoints.DEAD, **_COMMON,
    ),
    "difference": Rules(  # text 001
        preset_name="difference", target=51, min_bid=1, all_pass=AllPass.THROW_IN,
        discard=Discard.ALL_FACE_UP, above_six=AboveSix.KEEP_SIX, rob=Rob.ANY_SIX,
        stock_out=StockOut.RESHUFFLE, high=High.ACE, low=Low.TWO_CAPTURER, settlement=Settlement.DIFFERENCE,
        makers_count_first=True, bidder_goes_out=None, thrown_points=ThrownPoints.DEAD, **_COMMON,
    ),
    "additive": Rules(  # text 002
        preset_name="additive", target=51, min_bid=1, all_pass=AllPass.THROW_IN,
        discard=Discard.CHOOSE_CONCEALED, above_six=AboveSix.KEEP_SIX, rob=Rob.HAND_AND_STOCK,
        stock_out=StockOut.SHARE, high=High.ACE, low=Low.LOWEST_CAPTURER, settlement=Settlement.ADDITIVE,
        makers_count_first=True, bidder_goes_out=None, thrown_points=ThrownPoints.DEAD, **_COMMON,
    ),
    "official": Rules(  # text 003
        preset_name="official", target=51, min_bid=1, all_pass=AllPass.THROW_IN,
        discard=Discard.ALL_CONCEALED, above_six=AboveSix.KEEP_SIX, rob=Rob.HAND_AND_STOCK,
        stock_out=StockOut.RESHUFFLE, high=High.HIGHEST, low=Low.LOWEST_CAPTURER,
        settlement=Settlement.DIFFERENCE, makers_count_first=False, bidder_goes_out=None,
        thrown_points=ThrownPoints.DEFENDERS_TO_MAKERS, **_COMMON,
    ),
    "double-pedro": Rules(  # text 004
        preset_name="double-pedro", target=51, min_bid=1, all_pass=AllPass.THROW_IN,
        discard=Discard.ALL_CONCEALED, above_six=AboveSix.KEEP_SIX, rob=Rob.TRUMPS_FIRST,
        stock_out=StockOut.RESHUFFLE, high=High.HIGHEST, low=Low.LOWEST_CAPTURER,
        settlement=Settlement.DIFFERENCE, makers_count_first=False, bidder_goes_out=None,
        thrown_points=ThrownPoints.DEAD, **_COMMON,
    ),
}
