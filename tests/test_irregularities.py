"""The honour-rule table (002, 003): irregularities committed in the engine, claims and rulings.

The figures are worked from the texts: 002's revoke gives the other side the deal's 14 points
and takes a reneging maker side's bid as a set; 003's leaves the offenders nothing, and a
defender's revoke keeps the makers from being set; 003 bars a side that bid out of turn and
takes back a lead out of turn; a misdeal is redealt by the same dealer (002) or passes the
deal (003).
"""

from __future__ import annotations

import json
import pickle
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cinch import (
    CARDS,
    CardSet,
    Deal,
    IllegalAction,
    Rules,
    RulesError,
    Seat,
    Team,
    irregularities,
    parse_action,
    scorekeeper,
)
from cinch.actions import WAIVE, Bid, Claim, OutOfTurn, Play
from cinch.bots.base import bot_names, claim_seen, make_bot
from cinch.deal import EXAMPLE_DECK
from cinch.errors import NotationError, RecordError
from cinch.match import Match
from cinch.record import replay
from cinch.scoring import settle

FULL = (1 << 52) - 1
RECORDS = Path(__file__).parent / "records"


def honour(preset: str = "official", text: str | None = None) -> Rules:
    rules = Rules.preset(preset).with_options(honour_rule=True)
    return rules.with_options(irregularities=text) if text else rules


def played_to(rules: Rules, actions: list[str]) -> Deal:
    return Deal.from_actions(rules, Seat.W, EXAMPLE_DECK, actions)


def to_first_revoke(rules: Rules, bid: int = 2, seed: int = 0) -> Deal:
    """N bids ``bid``, the others pass; the first legal action each turn until a revoke is possible."""
    rng = random.Random(seed)
    deck = list(CARDS)
    rng.shuffle(deck)
    deal = Deal(rules, Seat.W, deck)
    deal.apply(Bid(bid))
    while deal.phase.value != "play" or not deal.irregular_actions():
        deal.apply(deal.legal_actions()[0])
    return deal


def check_places(deal: Deal) -> None:
    """Every card in exactly one place: hands, discards, stock, the trick, the tricks."""
    masks = [*deal.hands, *deal.discards, int(deal.stock)]
    masks.append(sum(1 << p.card | p.buried for p in deal.trick))
    masks += [int(t.cards) for t in deal.tricks]
    seen = 0
    for m in masks:
        assert not seen & m, f"{CardSet(seen & m)} are in two places"
        seen |= m
    assert seen == FULL, f"{CardSet(FULL & ~seen)} are nowhere"


# ---- the option ------------------------------------------------------------------------------------------
def test_the_option_is_off_by_default_and_nothing_changes():
    rules = Rules.preset("official")
    assert not rules.honour_rule and rules.to_json() == "official"
    deal = played_to(rules, ["bid 2", "pass", "pass", "pass", "trump H"])
    on = played_to(honour(), ["bid 2", "pass", "pass", "pass", "trump H"])
    assert [str(a) for a in deal.legal_actions()] == [str(a) for a in on.legal_actions()]
    assert deal.irregular_actions(Seat.S) == [] and deal.claims() == [] and deal.irregularities == ()
    with pytest.raises(IllegalAction, match="it is W's turn, not S's"):
        deal.apply(Play(CARDS[0]), Seat.S)
    with pytest.raises(IllegalAction):
        deal.apply(Claim("revoke"))


def test_the_option_in_records_and_on_the_command_line():
    rules = Rules.from_json({"preset": "additive", "honour_rule": True, "irregularities": "003"})
    assert rules.to_json() == {"preset": "additive", "honour_rule": True, "irregularities": "003"}
    assert irregularities.penalty_text(Rules.preset("additive")) == "002"
    assert irregularities.penalty_text(rules) == "003"
    assert irregularities.penalty_text(Rules.preset("pagat").with_options(settlement="difference")) == "003"
    with pytest.raises(RulesError, match="irregularities cannot be '001'; it takes by-scoring | 002 | 003"):
        Rules.preset("official").with_options(irregularities="001")
    with pytest.raises(RulesError, match="honour_rule cannot be 'true' in a record"):
        Rules.from_json({"preset": "official", "honour_rule": "true"})


def test_the_scorekeeper_settles_with_the_same_rulings():
    assert scorekeeper.default_penalty_text is irregularities.default_penalty_text
    assert scorekeeper.PENALTY_TEXTS == irregularities.PENALTY_TEXTS == ("002", "003")
    sheet = scorekeeper.ScoreSheet(Rules.preset("additive"))
    done = sheet.add(scorekeeper.DealEntry.of("W", maker="N", bid=7, irregularity=scorekeeper.Irregularity.revoke("S")))
    made, change, words = irregularities.revoke_ruling(Rules.preset("additive"), Team.NS, 7, None, Team.NS, "002")
    assert (done.made, done.score_change) == (made, change) == (False, (-7, 14))
    assert words[0] in done.ruling


def test_notation_of_claims_and_actions_out_of_turn():
    for text in ["claim revoke", "claim bid", "claim lead", "claim lead trumps", "claim lead no-trumps",
                 "claim misdeal", "waive", "E out of turn: bid 8", "N out of turn: play KC"]:
        assert str(parse_action(text)) == text
    assert parse_action("s out of turn: bid 5") == OutOfTurn(Seat.S, Bid(5))
    for bad, why in [("claim trumps", "a claim names revoke, bid, lead, play, misdeal"),
                     ("claim revoke trumps", "only a lead claim adds trumps or no-trumps"),
                     ("E out of turn: pass", "only a bid or a play is made out of turn")]:
        with pytest.raises(NotationError, match=why):
            parse_action(bad)


# ---- revokes ----------------------------------------------------------------------------------------------
def test_a_revoke_is_offered_apart_from_the_legal_plays_and_claimed_once_it_shows():
    deal = to_first_revoke(honour("official"))
    revoker = deal.to_act
    revokes = deal.irregular_actions()
    assert revokes and not set(revokes) & set(deal.legal_actions())
    assert not deal.is_legal(revokes[0])
    bound = deal.hands[revoker] & ~deal.legal_play_mask()  # what remains to show the revoke later
    deal.apply(revokes[0])
    # Not shown yet: the other side sees nothing, and no claim is open.
    assert deal.irregularities == () and deal.view(revoker.left).legal != ()
    assert all(not deal.claims(s) for s in Seat)
    while not deal.irregularities:
        deal.apply(deal.legal_actions()[0])
    asked = deal.to_act
    assert asked == revoker.left and asked.team != revoker.team
    assert list(deal.legal_actions()) == [Claim("revoke"), WAIVE] == [*deal.claims(), WAIVE]
    assert deal.irregularities[0].startswith(f"{revoker} revoked on trick")
    assert any(int(t.cards) & bound for t in deal.tricks[1:]) or deal.phase.value == "play"
    with pytest.raises(IllegalAction, match="must first claim it or waive"):
        deal.apply(Play(CARDS[0]))


@pytest.mark.parametrize("bid,claim", [(2, True), (2, False)])
def test_a_revoke_under_002_ends_the_deal_with_its_penalty_or_is_waived(bid, claim):
    rules = honour("additive")
    deal = to_first_revoke(rules, bid)
    offenders = deal.to_act.team
    deal.apply(deal.irregular_actions()[0])
    while deal.legal_actions() and deal.legal_actions()[-1] != WAIVE:
        deal.apply(deal.legal_actions()[0])
    deal.apply(Claim("revoke") if claim else WAIVE)
    if claim:
        assert deal.is_over and deal.result.points is None
        change = [0, 0]
        change[offenders.other] = 14
        change[offenders] = -bid if offenders == Team.NS else 0  # N bid: NS are the makers
        assert deal.result.score_change == tuple(change)
        assert deal.result.describe().startswith(f"{offenders} revoked (002)")
    else:
        while not deal.is_over:
            deal.apply(deal.legal_actions()[0])
        r = deal.result
        assert r.score_change == settle(rules, Team.NS, bid, r.points)[1]  # waived: the usual settlement


def test_a_defenders_revoke_under_003_keeps_the_makers_from_being_set():
    rules = honour("official", "003")
    deal = to_first_revoke(rules, bid=14)
    while deal.to_act.team == Team.NS:  # a defender revokes
        deal.apply(deal.legal_actions()[0])
        while not deal.irregular_actions():
            deal.apply(deal.legal_actions()[0])
    deal.apply(deal.irregular_actions()[0])
    while not deal.is_over:
        legal = deal.legal_actions()
        deal.apply(legal[0])  # the claim comes first when asked
    r = deal.result
    assert r.points[Team.NS] < 14 and r.made  # short of 14, yet not set
    assert r.score_change[Team.EW] == 0
    assert r.score_change == settle(rules, Team.NS, r.points[Team.NS], r.points)[1][:1] + (0,)
    assert any("cannot be set" in line for line in r.ruling)


def golden_deal(name: str, answers: int = 0) -> Deal:
    """The deal of a golden record (tests/records/NAME.json) without its last ``answers`` actions."""
    entry = json.loads((RECORDS / f"{name}.json").read_text())
    rules = Rules.from_json(entry["rules"])
    (d,) = entry["deals"]
    actions = d["actions"][: len(d["actions"]) - answers]
    return Deal.from_actions(rules, Seat.parse(d["dealer"]), d["deck"], [parse_action(a) for a in actions])


def test_every_revoke_that_shows_after_the_last_trick_is_asked_about():
    # docs/rule-readings.md: the claim is offered "at the latest after the last trick".  N and S (defenders) both
    # revoked on trick 1 and both show on the last trick: W is asked about S's, then E about N's.
    deal = golden_deal("additive-honour-two-revokes-002", answers=2)
    assert len(deal.tricks) == 6 and deal.to_act is Seat.W
    assert list(deal.legal_actions()) == [Claim("revoke"), WAIVE]
    deal.apply(WAIVE)
    assert not deal.is_over and deal.to_act is Seat.E and deal.claims() == [Claim("revoke")]
    assert deal.irregularities[-1] == "N revoked on trick 1 (played 6C)."
    deal.apply(Claim("revoke"))
    assert deal.is_over and deal.result.score_change == (0, 14) and deal.result.points is None
    with pytest.raises(IllegalAction, match="the deal is over"):
        deal.apply(Claim("revoke"))


def test_under_003_each_revoke_is_asked_about_after_the_last_trick_too():
    deal = golden_deal("additive-honour-both-sides-revoke-003", answers=2)
    assert deal.to_act is Seat.N  # on W's left: W's revoke came first
    deal.apply(Claim("revoke"))
    assert deal.to_act is Seat.E and not deal.is_over  # then N's, on E's left
    deal.apply(WAIVE)
    assert deal.is_over and deal.result.ruling[0].startswith("EW revoked (003)")


def test_under_002_a_claim_ends_the_play_and_the_other_sides_revoke_is_asked_about_too():
    deal = golden_deal("additive-honour-both-sides-revoke-002", answers=2)
    deal.apply(Claim("revoke"))  # N claims W's revoke: EW's penalty, and the play is over
    assert deal.to_act is Seat.E and deal.legal_actions() == [Claim("revoke"), WAIVE]
    deal.apply(Claim("revoke"))
    r = deal.result
    assert deal.is_over and not r.made and r.score_change == (0, -1)  # EW bid 1
    assert r.ruling[-2].startswith("Both sides revoked (002): neither side scores")


def test_a_mid_deal_claim_under_002_puts_the_other_sides_revoke_too():
    # Revokes by both sides, the first claimed before the last trick: the play ends there, the tricks are
    # examined, and the other side is asked about its opponents' revoke, shown or not yet.
    rules = honour("additive", "002")
    for seed in range(100):
        deal = to_first_revoke(rules, seed=seed)
        first = deal.to_act
        deal.apply(deal.irregular_actions()[0])
        second = None
        while not deal.is_over and deal.legal_actions()[-1] != WAIVE:  # until someone is asked
            irregular = deal.irregular_actions()
            if irregular and second is None and deal.to_act.team != first.team:
                second = deal.to_act
                deal.apply(irregular[0])
            else:
                deal.apply(deal.legal_actions()[0])
        if second is None or deal.is_over or len(deal.tricks) == 6:
            continue
        deal.apply(Claim("revoke"))
        assert not deal.is_over and deal.legal_actions() == [Claim("revoke"), WAIVE]  # the other revoke
        deal.apply(Claim("revoke"))
        r = deal.result
        assert deal.is_over and r.ruling[-2].startswith("Both sides revoked (002)")
        assert r.score_change == (-2, 0)  # N bid 2: the makers lose it, and EW score nothing
        return
    pytest.fail("no seed gave revokes by both sides and a claim before the last trick")


def test_both_sides_revoking_under_002_score_nothing_and_makers_lose_their_bid():
    rules = Rules.preset("additive")
    made, change, words = irregularities.revokes_ruling(rules, Team.EW, 9, None, [Team.NS, Team.EW, Team.NS], "002")
    assert (made, change) == (False, (0, -9)) and words[-1] == "Revoke: EW -9."
    assert irregularities.revokes_ruling(rules, Team.EW, 9, None, [Team.NS, Team.NS], "002")[:2] == (True, (0, 14))


# ---- bids and leads out of turn (003) ----------------------------------------------------------------------
def test_a_bid_out_of_turn_bars_the_side_and_earlier_bids_stand():
    deal = played_to(honour(), ["bid 2"])
    assert OutOfTurn(Seat.S, Bid(5)) in deal.irregular_actions(Seat.S)
    deal.apply(Bid(5), Seat.S)  # E is to act: S bids out of turn
    assert str(deal.history[-1]) == "S out of turn: bid 5" and deal.to_act == Seat.W
    assert list(deal.legal_actions()) == [Claim("bid"), WAIVE]
    deal.apply(Claim("bid"))
    assert deal.to_act == Seat.E and deal.high_bid == 2 and deal.maker == Seat.N
    deal.apply(Bid(3))
    assert list(deal.legal_actions()) == [parse_action("pass")]
    with pytest.raises(IllegalAction, match="NS bid out of turn and may not bid again this deal"):
        deal.apply(Bid(4))


def test_a_waived_bid_out_of_turn_is_void_without_a_bar():
    deal = played_to(honour(), ["bid 2", "S out of turn: bid 5", "waive"])
    assert deal.to_act == Seat.E and deal.high_bid == 2
    deal.apply(Bid(3))
    assert Bid(4) in deal.legal_actions()


def test_under_002_only_a_revoke_or_a_misdeal_is_ruled():
    deal = played_to(honour("official", "002"), ["bid 2"])
    assert deal.irregular_actions(Seat.S) == []
    with pytest.raises(IllegalAction, match="a bid, a lead or a play out of turn has a ruling only under 003"):
        deal.apply(Bid(5), Seat.S)


LED = ["bid 2", "pass", "pass", "pass", "trump H", "keep AS KS 6S 5S AD KD"]


def test_a_lead_out_of_turn_is_taken_back_and_a_trump_lead_may_be_forbidden():
    deal = played_to(honour(), [*LED, "S out of turn: play 5C"])
    assert deal.to_act == Seat.W and [str(a) for a in deal.trick] != []
    assert list(deal.legal_actions()) == [Claim("lead"), Claim("lead", "trumps"), Claim("lead", "no-trumps"), WAIVE]
    deal.apply(Claim("lead", "no-trumps"))
    assert deal.trick == [] and deal.hand(Seat.S) >> CARDS.index(parse_action("play 5C").card) & 1
    assert deal.to_act == Seat.N and [str(a) for a in deal.legal_actions()] == ["play 2D", "play KC", "play 9C"]
    with pytest.raises(IllegalAction, match="after the lead out of turn was claimed, N may not lead a trump"):
        deal.apply(parse_action("play AH"))
    check_places(deal)


def test_a_waived_lead_out_of_turn_stands_and_the_offender_leads():
    deal = played_to(honour(), [*LED, "E out of turn: play AC"])
    assert list(deal.legal_actions()) == [Claim("lead"), WAIVE]  # not the partner's turn: no trump choice
    deal.apply(WAIVE)
    assert deal.to_act == Seat.S
    while deal.trick:
        deal.apply(deal.legal_actions()[0])
    assert deal.tricks[0].leader == Seat.E and deal.tricks[0].plays[0].card == parse_action("play AC").card


PLAYED = [*LED, "play AH"]  # N leads AH; E is to play; S holds 9H 8H 6H JD 4D 5C


def test_a_play_out_of_turn_is_offered_to_the_seats_yet_to_play_and_must_follow():
    deal = played_to(honour(), PLAYED)
    assert [str(a) for a in deal.irregular_actions(Seat.S)] == [
        "S out of turn: play 9H", "S out of turn: play 8H", "S out of turn: play 6H"]
    assert deal.irregular_actions(Seat.N) == []  # N led: he has played to this trick
    with pytest.raises(IllegalAction, match="5C would also revoke: even out of turn a card follows the rule"):
        deal.apply(parse_action("S out of turn: play 5C"), Seat.S)
    with pytest.raises(IllegalAction, match="N has already played to this trick"):
        deal.apply(parse_action("N out of turn: play KH"), Seat.N)
    assert played_to(honour("official", "002"), PLAYED).irregular_actions(Seat.S) == []


def test_a_play_out_of_turn_is_taken_back_and_the_right_seat_plays():
    deal = played_to(honour(), [*PLAYED, "S out of turn: play 9H"])
    assert deal.to_act == Seat.W and list(deal.legal_actions()) == [Claim("play"), WAIVE]
    assert [p.seat for p in deal.view(Seat.E).current_trick] == [Seat.N, Seat.S]  # the card was seen on the table
    assert deal.view(Seat.E).asked == "play out of turn"  # every seat sees that W is asked about it
    deal.apply(Claim("play"))
    assert deal.view(Seat.E).asked == ""
    assert [p.seat for p in deal.trick] == [Seat.N] and str(deal.hand(Seat.S)).count("9H") == 1
    assert deal.to_act == Seat.E and deal.irregularities[-1] == "Play out of turn (003): 9H is taken back, and E plays."
    for card in ["JH", "9H", "AS"]:
        deal.apply(parse_action(f"play {card}"))
    trick = deal.tricks[0]
    assert trick.winner == Seat.N and [p.seat for p in trick.plays] == [Seat.N, Seat.E, Seat.S, Seat.W]
    check_places(deal)


def test_a_waived_play_out_of_turn_stands_and_the_skipped_seat_plays_before_the_turn_passes_over_it():
    deal = played_to(honour(), [*PLAYED, "S out of turn: play 9H", "waive"])
    assert deal.to_act == Seat.E and [str(a) for a in deal.legal_actions()] == ["play JH", "play TH", "play 5D"]
    deal.apply(parse_action("play JH"))
    assert deal.to_act == Seat.W  # S has played: the turn passes over him
    with pytest.raises(IllegalAction, match="S has already played to this trick"):
        deal.apply(parse_action("S out of turn: play 8H"), Seat.S)
    deal.apply(parse_action("play AS"))
    trick = deal.tricks[0]
    assert [p.seat for p in trick.plays] == [Seat.N, Seat.S, Seat.E, Seat.W] and trick.winner == Seat.N
    assert deal.to_act == Seat.N and [str(a) for a in deal.legal_actions()][:1] == ["play KH"]
    check_places(deal)


@pytest.mark.parametrize("answer", [[], ["waive"], ["claim play"], ["waive", "play JH"]])
def test_the_world_sampler_replays_a_play_out_of_turn(answer):
    from cinch.worlds import same_view, sample_deal

    deal = played_to(honour(), [*PLAYED, "S out of turn: play 9H", *answer])
    for seat in Seat:
        view = deal.view(seat)
        sampled = sample_deal(view, random.Random(3), attempts=60)
        assert same_view(sampled.view(seat), view)


# ---- misdeals ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("preset,dealer", [("additive", Seat.W), ("official", Seat.N)])
def test_a_misdeal_is_redealt_by_the_text(preset, dealer):
    match = Match(honour(preset), first_dealer=Seat.W, rng=1)
    deal = match.start_deal()
    assert deal.claims(Seat.S) == [Claim("misdeal")]
    match.apply(Claim("misdeal"), Seat.S)
    assert deal.is_over and match.score == (0, 0) and match.next_dealer == dealer
    assert deal.result.describe().startswith("Misdeal: ")
    nxt = match.start_deal()
    nxt.apply(nxt.legal_actions()[1])
    with pytest.raises(IllegalAction, match="a misdeal is claimed when the cards are dealt, before the first call"):
        nxt.apply(Claim("misdeal"), Seat.S)


# ---- what bots do ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", [n for n in bot_names() if not n.startswith("openspiel")])
def test_every_bot_claims_what_it_is_asked_about_and_commits_nothing(name):
    deal = played_to(honour(), [*LED, "S out of turn: play 5C"])
    view = deal.view(Seat.W)
    bot = make_bot(name, seed=1)
    assert claim_seen(view) == Claim("lead") == bot.choose(view)
    deal.apply(Claim("lead"))
    action = bot.choose(deal.view(Seat.N)) if name != "expert" else deal.legal_actions()[0]
    assert action in deal.legal_actions()


# ---- records, copies --------------------------------------------------------------------------------------------
def test_a_record_without_the_option_refuses_an_irregularity():
    record = {"format": "cinch/1", "rules": "official",
              "deals": [{"dealer": "W", "deck": EXAMPLE_DECK, "actions": ["bid 2", "S out of turn: bid 5"]}]}
    with pytest.raises(RecordError, match="deal 1, action 2: 'S out of turn: bid 5' is illegal"):
        replay(record)
    record["rules"] = {"preset": "official", "honour_rule": True}
    assert replay(record).next()["legal"] == ["claim bid", "waive"]


def test_copies_and_pickles_keep_the_irregularities_apart():
    deal = played_to(honour(), ["bid 2", "S out of turn: bid 5"])
    copy = deal.copy()
    copy.apply(Claim("bid"))
    assert deal.to_act == Seat.W and list(deal.legal_actions()) == [Claim("bid"), WAIVE]
    back = pickle.loads(pickle.dumps(copy))
    assert back.irregularities == copy.irregularities and back.legal_actions() == copy.legal_actions()


# ---- properties --------------------------------------------------------------------------------------------------
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), preset=st.sampled_from(["pagat", "additive", "official", "double-pedro"]),
       text=st.sampled_from(["002", "003"]))
def test_random_irregularities_keep_every_card_in_one_place_and_score_as_ruled(seed, preset, text):
    rules = honour(preset, text)
    rng = random.Random(seed)
    deal = Deal.shuffled(rules, rng.randrange(4), rng)
    while not deal.is_over:
        seat = Seat(rng.randrange(4))
        irregular = deal.irregular_actions(seat) if rng.random() < 0.25 else []
        if irregular:
            deal.apply(rng.choice(irregular), seat)
        else:
            legal = deal.legal_actions()
            deal.apply(legal[rng.randrange(len(legal))])
        check_places(deal)
        for trick in deal.tricks:  # a waived play out of turn keeps the trick one card a seat
            assert len({p.seat for p in trick.plays}) == len(trick.plays)
    r = deal.result
    claimed = [line for line in deal.irregularities if "revoked on trick" in line and line.endswith("claimed.")]
    # Every revoke that shows is asked about, at the latest after the last trick (under 002 none more of a side
    # whose revoke was claimed: it has its penalty).
    for line in deal.irregularities:
        if "revoked on trick" in line and not line.endswith(("claimed.", "waived.")):
            assert text == "002" and any(c[0] in (line[0], Seat.parse(line[0]).partner.name) for c in claimed)
    if r.thrown_in or not claimed:
        return
    makers = r.maker.team
    offenders = {Seat.parse(line[0]).team for line in claimed}
    total = rules.total_points
    if text == "002":  # a claim ends the play: 14 to the other side, nothing (or the bid) to the offenders
        if len(offenders) == 2:  # the other side's revoke was claimed too: neither scores, makers lose the bid
            assert r.score_change[makers] == -r.bid and r.score_change[makers.other] == 0 and not r.made
            return
        (side,) = offenders
        assert r.score_change[side.other] == total
        assert r.score_change[side] == (-r.bid if side == makers else 0)
        return
    assert sum(r.points) <= total
    for side in offenders:
        assert r.score_change[side] <= 0  # the offending side scores nothing
    made, usual = settle(rules, makers, r.bid, r.points)
    if offenders == {makers.other} and not made:  # a defender's revoke: the makers cannot be set
        assert r.made and r.score_change[makers] == settle(rules, makers, r.points[makers], r.points)[1][makers]
    else:
        assert r.made == made
        for side in (Team.NS, Team.EW):
            assert r.score_change[side] == (min(usual[side], 0) if side in offenders else usual[side])
