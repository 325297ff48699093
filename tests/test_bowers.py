"""All-hands Pedro, the ``bowers`` option (002's variation, read in docs/rule-readings.md).

The Jack of trumps (right bower) and the Jack of the same colour (left bower) are the two highest
trumps, above the ace; the left bower takes the left Pedro's place as a trump and a 5-point card,
and the 5 of the same colour is a plain card. High, Low, Jack (the right bower), Game and the
right Pedro score as without bowers: 14 points in a deal.
"""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

from cinch import PRESET_NAMES, Card, CardSet, Deal, Phase, Play, Rules, Seat, Suit, Team
from cinch.bots import make_bot
from cinch.cards import BOWER_TABLES, CARDS, TRUMP_TABLES
from cinch.cli import main
from cinch.errors import IllegalAction, RulesError
from cinch.rules import OPTION_NAMES
from cinch.scoring import PointTable, settle
from cinch.solver import Position, par, solve
from helpers import deal, table

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
H = Suit.HEARTS


def bowers(preset: str = "official", **options) -> Rules:
    return Rules.preset(preset).with_options(bowers=True, **options)


def names(mask: int) -> list[str]:
    return [str(CARDS[c]) for c in CardSet(mask)]


# ---- the trump order ----------------------------------------------------------------------------
@pytest.mark.parametrize("suit", list(Suit))
def test_the_bowers_top_the_trumps_and_the_other_five_is_plain(suit):
    t = BOWER_TABLES[suit]
    jack, other_jack = Card.of("J", suit), Card.of("J", suit.partner)
    assert [CARDS[c] for c in t.order] == [jack, other_jack] + [Card.of(r, suit) for r in "AKQT98765432"]
    assert t.trumps == int(CardSet(t.order)) and len(CardSet(t.trumps)) == 14
    assert not t.is_trump(Card.of("5", suit.partner)) and t.is_trump(other_jack)
    assert t.effective_suit[other_jack] == suit and t.effective_suit[Card.of("5", suit.partner)] == suit.partner
    assert t.power[jack] == 14 and t.power[other_jack] == 13 and t.power[Card.of("A", suit)] == 12
    # the ordinary tables are untouched
    assert CARDS[TRUMP_TABLES[suit].order[0]] == Card.of("A", suit)


def test_a_trick_goes_to_the_highest_trump_in_bower_order():
    t = BOWER_TABLES[H]
    strength = t.strength[Suit.DIAMONDS]  # a diamond led
    ranked = sorted(CardSet.parse("AH JD JH AD 5D KD"), key=lambda c: -strength[c])
    assert [str(c) for c in ranked] == ["JH", "JD", "AH", "AD", "KD", "5D"]


def test_highest_and_lowest_trump_follow_the_bower_order():
    t = BOWER_TABLES[H]
    rng = random.Random(3)
    for _ in range(2000):
        m = rng.getrandbits(52) & rng.getrandbits(52)
        trumps = [c for c in t.order if m >> c & 1]
        assert t.highest(m) == (trumps[0] if trumps else -1)
        assert t.lowest(m) == (trumps[-1] if trumps else -1)


# ---- the follow rule ----------------------------------------------------------------------------
def test_the_left_bower_follows_trumps_not_its_printed_suit():
    t = BOWER_TABLES[H]
    hand = int(CardSet.parse("JD 5D 9S"))
    # a trump led: the left bower is his only trump, so he must play it
    assert names(t.follow_rule(H).playable(hand)) == ["JD"]
    # a diamond led: the 5 follows; the left bower may go as a trump (all-fours), not as a diamond
    assert names(t.follow_rule(Suit.DIAMONDS).playable(hand)) == ["JD", "5D"]
    assert names(t.follow_rule(Suit.DIAMONDS, strict=True).playable(hand)) == ["5D"]
    # holding the left bower but no other diamond: void in diamonds, anything goes
    assert names(t.follow_rule(Suit.DIAMONDS, strict=True).playable(int(CardSet.parse("JD 9S")))) == ["9S", "JD"]
    # the other five is no trump: with it and no trump, a trump lead leaves him free
    assert names(t.follow_rule(H).playable(int(CardSet.parse("5D 9S")))) == ["9S", "5D"]


RECORD_DECK = ("JH AH 2H JD KH 5H AD KD QD AS KS QH 9C 8C 7C QS JS TS 5D 4D 3D 9H 8H AC 6C 4C 3C 9S 8S 7S "
               "TH 3H 6S KC QC JC 5S 4S 3S 2S 7H 6H 4H TD 9D 8D 7D 6D 2D TC 5C 2C")
RECORD_START = ("bid 6", "pass", "pass", "pass", "trump H", "play JH", "play KH", "play 3H", "play 8H", "play AH")


def test_the_left_bower_answers_a_trump_lead_only_with_bowers():
    # tests/records/official-bowers.json: S holds JD 5H (and spades) when E leads the AH in trick 2.
    d = deal(bowers(no_draw=True), N, RECORD_DECK, *RECORD_START)
    assert {str(a) for a in d.legal_actions()} == {"play JD", "play 5H"}
    # the same deal without bowers, E leading the AH at once: S's JD is a plain diamond
    plain = deal(Rules.preset("official").with_options(no_draw=True), N, RECORD_DECK, *RECORD_START[:5], "play AH")
    assert {str(a) for a in plain.legal_actions()} == {"play KH", "play 5H"}
    with pytest.raises(IllegalAction, match="must play a trump"):
        plain.apply(Play(Card.parse("JD")))


# ---- the points ---------------------------------------------------------------------------------
def test_the_point_cards_with_bowers():
    table_ = PointTable.of(bowers("pagat"), H)
    assert [(n, str(CARDS[c]), p) for n, c, p in table_.captured_cards] == [
        ("High", "AH", 1), ("Jack", "JH", 1), ("Game", "TH", 1), ("Right Pedro", "5H", 5), ("Left Bower", "JD", 5)]
    assert table_.value[Card.parse("5D")] == 0
    assert bowers("pagat").total_points == 14 and bowers("additive", sancho=True, dom_pedro=True).total_points == 26


def test_relative_high_is_the_right_bower_when_in_play():
    table_ = PointTable.of(bowers("official"), H)
    in_play = int(CardSet.parse("JH JD AH 2H 5D"))
    ns, ew = int(CardSet.parse("JH 2H")), int(CardSet.parse("JD AH 5D"))
    claims = {(name, str(CARDS[card]), side) for name, card, side, _, _ in table_.claims((ns, ew), in_play, None, 0, 0)}
    assert claims == {("High", "JH", 0), ("Jack", "JH", 0), ("Low", "2H", 0), ("Left Bower", "JD", 1)}
    assert table_.totals((ns, ew), in_play, None, 0, 0) == (3, 5)
    # only the left bower in play among the trumps: it is both High and Low
    lone = int(CardSet.parse("JD 5D"))
    assert {(n, str(CARDS[c])) for n, c, *_ in table_.claims((lone, 0), lone, None, 0, 0)} == {
        ("High", "JD"), ("Low", "JD"), ("Left Bower", "JD")}


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_settlement_is_the_presets_own_over_the_same_fourteen_points(preset):
    plain, with_bowers = Rules.preset(preset), Rules.preset(preset).with_options(bowers=True)
    for bid, points in ((6, (2, 12)), (8, (9, 5)), (14, (14, 0))):
        assert settle(with_bowers, Team.NS, bid, points) == settle(plain, Team.NS, bid, points)


def test_the_golden_record_scores_as_worked_by_hand():
    d = deal(bowers(no_draw=True), N, RECORD_DECK, *RECORD_START, "play JD", "play TH", "play 9H")
    assert d.tricks[-1].winner == S  # the left bower beat the ace
    result = CliRunner().invoke(main, ["replay", "--json", "tests/records/official-bowers.json"])
    assert result.exit_code == 0 and '"points": {"NS": 12, "EW": 2}' in result.output


# ---- the option -----------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_preset_takes_bowers_and_the_record_names_it(preset):
    r = Rules.preset(preset).with_options(bowers="yes")
    assert r.bowers and r.to_json() == {"preset": preset, "bowers": True}
    assert Rules.from_json(r.to_json()) == r
    assert Rules.preset(preset).bowers is False and Rules.preset(preset).trump_tables is TRUMP_TABLES
    assert r.trump_tables is BOWER_TABLES
    assert any("right bower" in line for line in r.describe())


def test_bad_values_are_refused_with_what_is_allowed():
    assert "bowers" in OPTION_NAMES
    with pytest.raises(RulesError, match="bowers cannot be 'maybe'; it takes true or false"):
        Rules.preset("pagat").with_options(bowers="maybe")
    with pytest.raises(RulesError, match="bowers cannot be 'yes' in a record; it takes true or false"):
        Rules.from_json({"preset": "pagat", "bowers": "yes"})


def test_cinch_rules_explains_the_option():
    result = CliRunner().invoke(main, ["rules", "official", "-o", "bowers=true"])
    assert result.exit_code == 0, result.output
    assert "right bower" in result.output and "left bower" in result.output


# ---- a whole deal, the solver and the bots --------------------------------------------------------
def random_deal(rules: Rules, rng: random.Random, cards_left: int = 0) -> Deal:
    """A deal played by random legal actions to its end, or until at most ``cards_left`` cards are in
    hands in the play (a deal thrown in or over before that is dealt again)."""
    while True:
        d = Deal.shuffled(rules, Seat(rng.randrange(4)), rng)
        while not d.is_over and not (d.phase is Phase.PLAY and sum(h.bit_count() for h in d.hands) <= cards_left):
            d.apply(rng.choice(d.legal_actions()))
        if not cards_left or not d.is_over:
            return d


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_whole_deals_follow_the_bower_order_and_conserve_the_points(preset):
    rng = random.Random(preset)
    r = bowers(preset)
    for _ in range(6):
        d = random_deal(r, rng)
        if d.result.thrown_in:
            continue
        t = BOWER_TABLES[d.trump]
        for trick in d.tricks:
            led = t.effective_suit[trick.plays[0].card]
            assert trick.winner == max(trick.plays, key=lambda p: t.strength[led][p.card]).seat
        assert sum(d.result.points) <= 14
        awarded = {a.name for a in d.result.awards}
        assert "Left Pedro" not in awarded
        if CardSet(d.in_play) & CardSet([t.left_bower]):
            assert "Left Bower" in awarded


def brute(d: Deal) -> int:
    """NS minus EW points with best play by both sides: every legal card tried."""
    if d.phase is Phase.DONE:
        return d.result.points[0] - d.result.points[1]
    values = []
    for action in d.legal_actions():
        child = d.copy()
        child.apply(action)
        values.append(brute(child))
    return max(values) if d.to_act.team is Team.NS else min(values)


@pytest.mark.parametrize("preset", ["pagat", "official"])
def test_the_solvers_par_is_the_brute_force_on_small_endings(preset):
    rng = random.Random(7 + PRESET_NAMES.index(preset))
    checked = 0
    while checked < 6:
        d = random_deal(bowers(preset), rng, cards_left=rng.choice([6, 8, 10]))
        if d.phase is not Phase.PLAY:
            continue
        pos = Position.from_deal(d)
        assert par(pos) == solve(pos).value == brute(d), pos.describe()
        checked += 1


@pytest.mark.parametrize("name", ["heuristic", "expert"])
def test_the_bots_play_whole_deals_with_bowers_legally(name):
    rng = random.Random(name)
    options = {"worlds": 1, "playouts": 2, "max_seconds": 60.0} if name == "expert" else {}
    for i, preset in enumerate(("pagat", "official")):
        r = bowers(preset)
        d = Deal.shuffled(r, Seat(i), rng)
        bots = [make_bot(name, seed=i * 4 + s, **options) for s in range(4)]
        while not d.is_over:
            seat = d.to_act
            action = bots[seat].choose(d.view(seat, score=(0, 0), target=r.target))
            assert d.is_legal(action), (preset, str(action))
            d.apply(action)


# Hearts trumps with bowers, no draw: E (maker) leads the left bower; S, holding the right bower, is
# the only player who can take it, and should (5 points, and High and Jack stay his side's).
BOWER_DECK = table("N", E="JD 9D 8D AS KS QS 9C 8C 7C", S="JH 4H 3H 2S 3S 4S 2C 3C 4C",
                   W="AH KH QH TH 9H 5S 6S 7S 8S", N="8H 7H 6H 5H AD KD QD TD 2D")
BOWER_START = ("bid 5", "pass", "pass", "pass", "trump H", "play JD")


@pytest.mark.parametrize("name", ["heuristic", "expert"])
def test_the_bots_take_the_left_bower_with_the_right_one(name):
    d = deal(bowers("difference", no_draw=True), N, BOWER_DECK, *BOWER_START)
    assert d.to_act == S and {str(a) for a in d.legal_actions()} == {"play JH", "play 4H", "play 3H"}
    options = {"worlds": 4, "playouts": 4, "max_seconds": 60.0} if name == "expert" else {}
    assert make_bot(name, seed=1, **options).choose(d.view(S)) == Play(Card.parse("JH"))
