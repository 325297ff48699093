"""The scorekeeper (cinch.scorekeeper, `cinch score`): matches played with real cards.

Rule source: RULEBOOK (settlement, going out, irregularities) and docs/rule-readings.md; the
worked deals are the rule texts' own (000's "bid 10, took 9", 003's "bid 6, 6 against 8" and
"bid 8, 7 against 7").  The strongest check replays whole random matches dealt by the engine
and enters each deal as a scorekeeper would: the sheet must score them exactly as the match did.
"""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from cinch import Rules, Seat, Suit, Team
from cinch.bots import make_bot
from cinch.cli import main
from cinch.deal import Deal
from cinch.errors import RecordError
from cinch.library import Library
from cinch.match import Match
from cinch.record import dumps, loads, replay, sheet_record, sheet_text
from cinch.scorekeeper import (
    DealEntry,
    EntryError,
    IncorrectHand,
    Irregularity,
    ScoreSheet,
    check_points,
    every_card_scores,
    point_cards,
    possible_points,
)
from cinch.view import Phase

ALL_NS = {"High": "NS", "Low": "NS", "Jack": "NS", "Game": "NS", "Right Pedro": "NS", "Left Pedro": "NS"}


def sheet_of(preset: str, **options) -> ScoreSheet:
    rules = Rules.preset(preset)
    return ScoreSheet(rules.with_options(**options) if options else rules)


def refused(sheet: ScoreSheet, entry: DealEntry) -> str:
    with pytest.raises(EntryError) as info:
        sheet.add(entry)
    return str(info.value)


def play(sheet: ScoreSheet, maker: str, bid: int, points: tuple[int, int], **kw):
    dealer = sheet.next_dealer or Seat.N
    return sheet.add(DealEntry.of(dealer, maker=maker, bid=bid, points=points, **kw))


# ---- each preset's settlement of a worked deal ---------------------------------------------------------
def test_pagat_makers_set_back_lose_their_bid_and_the_defenders_add_theirs():
    sheet = sheet_of("pagat")
    done = sheet.add(DealEntry.of("W", calls="p 10 p p", trump="H", points=(5, 9)))  # 000: bid 10, took 9
    assert (done.entry.maker, done.entry.bid, done.made, done.score_change) == (Seat.E, 10, False, (5, -10))
    assert done.ruling[:2] == (
        "E bid 10 in hearts: EW took 9, NS 5: set.",
        "Additive scoring: makers who fall short lose their bid, and the defenders add the points they took: "
        "EW -10, NS +5.",
    )
    assert sheet.score == (5, -10)


def test_official_difference_scoring_and_a_set():
    sheet = sheet_of("official")
    made = sheet.add(DealEntry.of("W", maker="N", bid=6, points=(6, 8)))  # 003: defenders score 2
    assert made.score_change == (0, 2)
    assert made.ruling[1] == "Difference scoring: the side that took more scores the difference, 8 - 6: EW +2."
    setback = sheet.add(DealEntry.of("N", maker="E", bid=8, points=(7, 7)))  # 003: defenders score 15
    assert setback.score_change == (15, 0) and sheet.score == (15, 2)
    assert setback.ruling[1] == ("Difference scoring: the defenders score the deal's 14 points plus the 1 the makers "
                                 "fell short: NS +15.")
    even = sheet.add(DealEntry.of("E", maker="S", bid=5, points=(7, 7)))
    assert even.score_change == (0, 0) and "7 against 7, no difference: no score" in even.ruling[1]


def test_double_pedro_set_with_sancho_scores_the_deal_s_points_plus_the_shortfall():
    sheet = sheet_of("double-pedro", sancho=True)  # 23 points in a deal
    done = sheet.add(DealEntry.of("S", maker="W", bid=12, points=(13, 9)))
    assert done.score_change == (23 + 3, 0)


def test_difference_one_side_scores_a_deal_so_the_first_to_the_target_wins():
    sheet = sheet_of("difference")
    for _ in range(3):
        play(sheet, "N", 14, (14, 0))  # NS 42
    play(sheet, "E", 14, (0, 14))
    play(sheet, "E", 14, (0, 14))
    play(sheet, "E", 14, (0, 14))  # EW 42
    play(sheet, "N", 8, (9, 0))  # NS 51: over alone, NS win
    assert sheet.winner is Team.NS
    assert sheet.deals[-1].ruling[-1] == "NS reach 51, the target: NS win the match, 51 to 42."


def test_additive_makers_count_first_even_when_the_defenders_end_higher():
    sheet = sheet_of("additive")
    for points in ((9, 5), (9, 5), (9, 5), (9, 5), (9, 5)):
        play(sheet, "N", 7, points)  # NS 45, EW 25
    for _ in range(3):
        play(sheet, "E", 7, (0, 8))  # EW 49
    assert sheet.score == (45, 49) and sheet.winner is None
    last = play(sheet, "N", 5, (6, 8))  # NS 51, EW 57: both over, NS made their bid
    assert sheet.winner is Team.NS and last.made
    assert last.ruling[-1] == ("Both sides reach 51 on this deal: the makers count first, and NS made their bid: "
                               "NS win the match, 51 to 57.")


def test_pagat_bidder_goes_out_and_the_tie_that_calls_for_it():
    sheet = sheet_of("pagat")
    for _ in range(8):
        play(sheet, "N", 7, (7, 7))  # both at 56: bidder goes out from the next deal
    assert sheet.bidder_goes_out_applies()
    assert "Bidder goes out from the next deal" in sheet.deals[-1].ruling[-1]
    set_deal = play(sheet, "E", 10, (5, 9))  # set under bidder goes out: scored as usual
    assert set_deal.bidder_goes_out and sheet.winner is None and sheet.score == (61, 46)
    assert set_deal.ruling[3] == "Bidder goes out applied, but EW were set: the deal scores as usual."
    sheet.undo()
    won = play(sheet, "E", 8, (5, 9))  # made: EW win outright although neither side reached 62
    assert sheet.winner is Team.EW and sheet.score == (61, 65) and won.ruling[-1].startswith("Bidder goes out:")

    tied = ScoreSheet(Rules.preset("pagat"))
    for _ in range(4):
        play(tied, "N", 7, (7, 7))  # 28 all
    for _ in range(4):
        play(tied, "N", 7, (8, 6))  # NS 60, EW 52: below 55 for EW, no bidder goes out yet
    assert not tied.bidder_goes_out_applies()
    both = play(tied, "E", 10, (4, 10))  # NS 64, EW 62: both reach 62 together, no decider rule yet
    assert both.winner is None and both.decider_pending and "bidder-goes-out deals follow" in both.ruling[-1]
    assert tied.bidder_goes_out_applies()


def test_negative_floor_under_the_house_rule():
    sheet = sheet_of("additive", negative_floor=-30)
    for _ in range(3):
        play(sheet, "E", 11, (4, 10))
    assert sheet.winner is Team.NS and "at or below the floor of -30" in sheet.deals[-1].ruling[-1]


# ---- who took each point card ----------------------------------------------------------------------------
def test_cards_entered_one_by_one_by_side_or_player():
    sheet = sheet_of("official")
    done = sheet.add(DealEntry.of("N", maker="E", bid=5, trump="D", took={
        "High": "E", "Low": "NS", "Jack": "nobody", "Game": "W", "Right Pedro": "EW", "Left Pedro": "S"}))
    assert done.points == (6, 7) and done.made and done.score_change == (0, 1)
    assert done.entry.taker("Jack") is None and done.entry.taker("High") is Seat.E


def test_nobody_is_refused_where_every_trump_is_in_play():
    assert every_card_scores(Rules.preset("pagat")) and not every_card_scores(Rules.preset("difference"))
    message = refused(sheet_of("pagat"), DealEntry.of("N", maker="E", bid=7, took={**ALL_NS, "Jack": "nobody"}))
    assert message.startswith("Jack cannot go to nobody under pagat: there every trump is in play")
    assert not every_card_scores(Rules.preset("pagat").with_options(sancho=True))  # a point card may be buried


def test_relative_high_and_low_go_to_nobody_only_when_no_trump_was_played():
    sheet = sheet_of("double-pedro")
    message = refused(sheet, DealEntry.of("N", maker="E", bid=1, took={**ALL_NS, "Low": "nobody"}))
    assert message == ("under double-pedro Low is the lowest trump in play, to its capturer: if nobody took it no "
                       "trump was played, yet High, Jack, Game, Right Pedro and Left Pedro went to a side; say who "
                       "took Low")
    nothing = sheet.add(DealEntry.of("N", maker="E", bid=1, took={name: "nobody" for name in ALL_NS}))
    assert nothing.points == (0, 0) and not nothing.made  # 1 short: NS score 14 + 1


def test_a_card_given_twice_a_card_missing_and_a_card_the_rules_do_not_score():
    sheet = sheet_of("official")
    twice = DealEntry.of("N", maker="E", bid=5, took=[("High", "NS"), ("High", "EW")])
    assert refused(sheet, twice) == "High is given twice (to NS and to EW): a point card scores for one side only"
    missing = DealEntry.of("N", maker="E", bid=5, took={"High": "NS", "Low": "EW"})
    assert refused(sheet, missing) == ("say who took Jack, Game, Right Pedro and Left Pedro: a side (NS, EW), a "
                                       "player (N E S W) or nobody")
    sancho = DealEntry.of("N", maker="E", bid=5, took={**ALL_NS, "Sancho": "EW"})
    assert "(-o sancho=true makes the nine of trumps Sancho, 9 points)" in refused(sheet, sancho)
    with_sancho = sheet_of("official", sancho=True, dom_pedro=True)
    done = with_sancho.add(DealEntry.of("N", maker="E", bid=5, took={**ALL_NS, "sancho": "E", "dom": "-"}))
    assert done.points == (14, 9)
    assert [c.name for c in point_cards(with_sancho.rules)][-2:] == ["Sancho", "Dom"]


def test_points_that_do_not_add_up_are_refused_with_the_reason():
    pagat, official = Rules.preset("pagat"), Rules.preset("official")
    with pytest.raises(EntryError, match="the point cards hold only 14 under pagat"):
        check_points(pagat, (9, 9))
    with pytest.raises(EntryError, match="every point card scores for a side: the points add up to 14"):
        check_points(pagat, (9, 4))
    with pytest.raises(EntryError, match="no share of them gives NS 4 and EW 4"):
        check_points(official, (4, 4))  # four 1s to NS leave EW only the Pedros
    with pytest.raises(EntryError, match="no share of them gives NS 1 and EW 0"):
        check_points(official, (1, 0))  # a trump played gives a High and a Low: 2 points at least
    with pytest.raises(EntryError, match="cannot be negative"):
        check_points(official, (-1, 9))
    check_points(official, (13, 0))  # every card to NS but a dead Jack
    assert (0, 0) in possible_points(official) and (0, 0) not in possible_points(pagat)
    assert refused(sheet_of("official"), DealEntry.of("N", maker="E", bid=5, points=(4, 4))).startswith(
        "NS 4 and EW 4 cannot be taken together")


# ---- the bidding, the dealer, the end of the match ---------------------------------------------------------
def test_a_bid_out_of_range_a_maker_who_did_not_bid_highest_and_an_unfinished_auction():
    sheet = sheet_of("pagat")
    assert refused(sheet, DealEntry.of("N", maker="E", bid=6, points=(5, 9))) == (
        "a bid of 6 is out of range: bids run from 7 to 14 under pagat")
    assert refused(sheet, DealEntry.of("N", calls="p 8 9 p", maker="E", points=(5, 9))) == (
        "E did not bid highest: the calls make W the maker with a bid of 9")
    assert refused(sheet, DealEntry.of("N", calls="8 7", points=(5, 9))).startswith(
        "call 2 (S's), bid 7, is illegal: each bid must beat the one before (E bid 8)")
    assert refused(sheet, DealEntry.of("N", calls="p 15", points=(5, 9))).startswith(
        "call 2 (S's), bid 15, is illegal: bids run from 7 to 14 under pagat")
    assert refused(sheet, DealEntry.of("N", calls="p 8 9", points=(5, 9))) == (
        "the auction is not over after 3 calls: N is still to call (each player calls once, from the dealer's "
        "left, the dealer last)")
    assert refused(sheet, DealEntry.of("N", calls="p p p p")).startswith(
        "call 4 (N's), pass, is illegal: the first three passed, so the dealer is stuck and must bid 7")
    assert refused(sheet, DealEntry.of("N", maker="E", points=(5, 9))) == "say what E bid: from 7 to 14 under pagat"
    assert refused(sheet, DealEntry.of("N", maker="E", bid=7)).startswith("say who took the points")
    assert sheet.deals == ()  # nothing refused was kept


def test_a_thrown_in_deal_passes_the_deal_and_is_refused_where_the_dealer_is_stuck():
    sheet = sheet_of("difference")
    done = sheet.add(DealEntry.of("E", calls="p p p p"))
    assert done.entry.maker is None and done.score == (0, 0) and sheet.next_dealer is Seat.S
    assert done.ruling[0] == "All passed: the deal is thrown in, no score. S deals next."
    assert refused(sheet_of("pagat"), DealEntry.of("E")).startswith(
        "under pagat a deal is never thrown in: when the first three pass the dealer is stuck and must bid 7")


def test_a_dealer_out_of_turn_and_entries_after_the_match_are_refused():
    sheet = sheet_of("official")
    play(sheet, "N", 14, (14, 0))
    assert refused(sheet, DealEntry.of("S", maker="N", bid=7, points=(9, 5))) == (
        "S cannot deal deal 2: the deal passes to the left, and E deals now")
    for _ in range(3):
        play(sheet, "N", 14, (14, 0))
    assert sheet.winner is Team.NS and sheet.score == (56, 0)
    assert refused(sheet, DealEntry.of(sheet.next_dealer, maker="N", bid=7, points=(9, 5))) == (
        "the match is over: NS won, 56 to 0; undo takes back the last deal")
    sheet.undo()
    assert sheet.winner is None and sheet.score == (42, 0)


# ---- irregularities ---------------------------------------------------------------------------------------
def test_a_misdeal_keeps_the_dealer_under_002_and_loses_the_deal_under_003():
    additive = sheet_of("additive")
    done = additive.add(DealEntry.of("W", irregularity=Irregularity.misdeal()))
    assert done.entry.irregularity.text == "002" and additive.next_dealer is Seat.W
    assert refused(additive, DealEntry.of("N", maker="N", bid=7, points=(9, 5))) == (
        "N cannot deal deal 2: after a misdeal under 002 the same dealer deals again, and W deals now")
    official = sheet_of("official")
    official.add(DealEntry.of("W", irregularity=Irregularity.misdeal()))
    assert official.next_dealer is Seat.N and official.score == (0, 0)
    official.add(DealEntry.of("N", irregularity=Irregularity.misdeal("002")))  # the text may be chosen
    assert official.next_dealer is Seat.N


def test_a_revoke_under_002_and_under_003():
    sheet = sheet_of("additive")  # 002: the other side scores 14; revoking makers lose their bid
    by_makers = sheet.add(DealEntry.of("N", maker="E", bid=8, irregularity=Irregularity.revoke("W")))
    assert by_makers.score_change == (14, -8) and by_makers.made is False and by_makers.points is None
    by_defenders = sheet.add(DealEntry.of("E", maker="E", bid=8, irregularity=Irregularity.revoke("NS")))
    assert by_defenders.score_change == (0, 14) and by_defenders.made is True

    official = sheet_of("official")  # 003: settled as played; the offenders score nothing
    cannot_be_set = official.add(DealEntry.of("N", maker="E", bid=9, points=(6, 8),
                                              irregularity=Irregularity.revoke("S")))
    assert cannot_be_set.made and cannot_be_set.score_change == (0, 2)
    assert "A defender revoked, so EW cannot be set" in cannot_be_set.ruling[2]
    offenders_score_nothing = official.add(DealEntry.of("E", maker="E", bid=5, points=(8, 6),
                                                        irregularity=Irregularity.revoke("EW")))
    assert offenders_score_nothing.score_change == (2, 0)
    makers_gain_nothing = official.add(DealEntry.of("S", maker="E", bid=5, points=(4, 10),
                                                    irregularity=Irregularity.revoke("E")))
    assert makers_gain_nothing.score_change == (0, 0) and makers_gain_nothing.made
    assert refused(official, DealEntry.of("W", maker="E", bid=5, irregularity=Irregularity.revoke("E"))).startswith(
        "say who took the points")


# ---- the engine's own matches, entered as a scorekeeper would ----------------------------------------------
def entered(deal: Deal, rules: Rules) -> DealEntry:
    """What a table would enter for a deal the engine played: the calls, trumps and who scored each card."""
    calls = tuple(action for _, action in deal.auction)
    result = deal.result
    assert result is not None
    if result.thrown_in:
        return DealEntry(deal.dealer, calls)
    took = {card.name: None for card in point_cards(rules)}
    for award in result.awards:
        took[award.name] = award.team
    return DealEntry(deal.dealer, calls, trump=result.trump, took=tuple(took.items()))


def chooser(seed: int):
    """Bids and trumps by a bot, so that matches end; the rest at random, so that point cards die too."""
    bot, rng = make_bot("basic", seed=seed), random.Random(seed)
    return lambda view: bot.choose(view) if view.phase in (Phase.BIDDING, Phase.TRUMP) else rng.choice(view.legal)


@pytest.mark.parametrize("preset, options", [
    ("pagat", {}), ("difference", {}), ("additive", {}), ("official", {}), ("double-pedro", {}),
    ("additive", {"sancho": True, "dom_pedro": True, "no_draw": True, "bidding": "auction"}),
    ("pagat", {"target": 30, "bidder_goes_out": 20}), ("additive", {"negative_floor": -20, "target": 30}),
])
def test_the_sheet_scores_the_engine_s_own_matches_exactly(preset, options):
    rules = Rules.preset(preset).with_options(**options) if options else Rules.preset(preset)
    for seed in range(4):
        match = Match(rules, first_dealer=Seat(seed), rng=seed)
        match.play_out(chooser(seed))
        sheet = ScoreSheet(rules)
        for deal, summary in zip(match.deals, match.summaries, strict=True):
            done = sheet.add(entered(deal, rules))
            assert (done.score, done.made, done.bidder_goes_out) == (summary.score, summary.result.made,
                                                                     summary.bidder_goes_out)
        assert sheet.winner == match.winner and sheet.score == match.score


# ---- records and the library ------------------------------------------------------------------------------
def a_sheet() -> ScoreSheet:
    sheet = ScoreSheet(Rules.preset("official"), players={Seat.N: "Ann", Seat.S: "Cy"})
    sheet.add(DealEntry.of("W", calls="p 6 p p", trump="S", took={"High": "NS", "Low": "E", "Jack": "-",
                                                                   "Game": "EW", "Right Pedro": "S",
                                                                   "Left Pedro": "W"}))
    sheet.add(DealEntry.of("N", irregularity=Irregularity.misdeal()))
    sheet.add(DealEntry.of("E", maker="E", bid=8, points=(7, 7), irregularity=Irregularity.revoke("N", "002")))
    return sheet


def test_a_sheet_is_written_as_a_record_and_replays_to_the_same_deals():
    sheet = a_sheet()
    record = loads(sheet_text(sheet))
    assert record["deals"][0] == {
        "dealer": "W",
        "real_cards": {"calls": ["pass", "bid 6", "pass", "pass"], "maker": "E", "bid": 6, "trump": "S",
                       "took": {"High": "NS", "Low": "E", "Jack": None, "Game": "EW", "Right Pedro": "S",
                                "Left Pedro": "W"}},
        "result": {"points": {"NS": 6, "EW": 7}, "made": True, "score_change": {"NS": 0, "EW": 1},
                   "score": {"NS": 0, "EW": 1}},
    }
    again = replay(record)
    assert again.sheet is not None and again.sheet.deals == sheet.deals and again.sheet.players == sheet.players
    out = again.to_json()
    assert out["real_cards"] is True and out["score"] == {"NS": 0, "EW": 15} and out["next"] is None
    assert [d["irregularity"] for d in out["deals"]] == [
        None, {"kind": "misdeal", "text": "003"}, {"kind": "revoke", "by": "N", "text": "002"}]
    text = again.describe()
    assert "  2. N dealt: misdeal (003), no score.  Score NS 0, EW 1" in text
    assert "  3. E dealt: E bid 8; took NS 7, EW 7; revoke by N (002): EW +14.  Score NS 0, EW 15" in text
    assert text.endswith("Score: NS 0, EW 15; the match goes on.\nNext: a new deal, dealt by S.")
    with pytest.raises(RecordError, match="no cards to play through"):
        again.match  # noqa: B018


@pytest.mark.parametrize("change, message", [
    (lambda r: r["deals"][0]["result"].update(score={"NS": 1, "EW": 1}),
     'deal 1: "result": score is written {"NS": 1, "EW": 1}, but the rules settle the deal to {"NS": 0, "EW": 1}'),
    (lambda r: r["deals"][1].update(dealer="E"),
     "deal 2: E cannot deal deal 2: the deal passes to the left, and N deals now"),
    (lambda r: r["deals"][0]["real_cards"].update(bid=20),
     "deal 1: the bid is given as 20, but the calls end with E's bid of 6"),
    (lambda r: r["deals"][0]["real_cards"]["took"].update(Sancho="NS"),
     "deal 1: Sancho is not a point card under official; the point cards are High, Low, Jack, Game, Right Pedro "
     "and Left Pedro (-o sancho=true makes the nine of trumps Sancho, 9 points)"),
    (lambda r: r["deals"][0]["real_cards"].update(trump=7),
     'deal 1: "real_cards": "trump" must be a suit letter (S H D C), not a number'),
    (lambda r: r["deals"][0].update(deck="AS"),
     "deal 1: unknown field 'deck'; a deal played with real cards has dealer, real_cards and result"),
    (lambda r: r["deals"].append({"dealer": "S", "deck": "AS", "actions": []}),
     'deal 4: the deal has no "real_cards", but other deals of the record were played with real cards'),
])
def test_a_record_of_real_cards_that_does_not_settle_is_refused(change, message):
    record = json.loads(dumps(sheet_record(a_sheet())))
    change(record)
    with pytest.raises(RecordError) as info:
        replay(record)
    assert str(info.value).startswith(message)


# ---- `cinch score`: going on with a stored sheet; entries as JSON ------------------------------------------
def test_score_resumes_a_stored_sheet_and_refuses_what_would_change_it(tmp_path):
    db = str(tmp_path / "games.sqlite3")
    first = CliRunner().invoke(main, ["score", "--plain", "--rules", "pagat", "--dealer", "W", "--db", db],
                               input="N 7\nh\nNS 13\n")
    assert first.exit_code == 0 and "End of input; every deal entered is saved." in first.output
    again = CliRunner().invoke(main, ["score", "--plain", "--db", db, "--resume", "1"], input="W 8\n\n9 5\nsheet\n")
    assert again.exit_code == 0, again.output
    assert "Going on after deal 1: score NS 13, EW 1." in again.output
    assert "Score: NS 22, EW -7. E deals next." in again.output
    clash = CliRunner().invoke(main, ["score", "--plain", "--db", db, "--resume", "1", "--rules", "official"])
    assert clash.exit_code == 2 and "--resume goes on with the stored match" in clash.output
    card_table = CliRunner().invoke(main, ["resume", "--db", db, "1"])
    assert card_table.exit_code == 2 and "`cinch score --resume 1` goes on with it" in card_table.output
    bad = CliRunner().invoke(main, ["score", "--plain", "--db", db, "--player", "X=Bo"])
    assert bad.exit_code == 2 and "write SEAT=NAME with a seat N E S W" in bad.output


def test_every_score_sheet_entry_is_json_that_reads_back():
    sheet = a_sheet()
    for deal in sheet.deals:
        entry = DealEntry.from_json(deal.dealer, json.loads(json.dumps(deal.entry.to_json())))
        assert entry == deal.entry
    assert DealEntry.of("N", trump=Suit.HEARTS).trump is Suit.HEARTS


def test_the_record_format_s_example_of_real_cards_is_the_program_s_own():
    from pathlib import Path

    doc = (Path(__file__).parent.parent / "docs" / "record-format.md").read_text(encoding="utf-8")
    section = doc[doc.index("## Deals played with real cards"):]
    example = section[section.index("```json") + len("```json"):section.index("```\n", section.index("```json"))]
    assert json.loads(example) == sheet_record(a_sheet())
    assert replay(json.loads(example)).sheet.score == (0, 15)


# ---- 003's incorrect hand ----------------------------------------------------------------------------------
INCORRECT_INPUT = "\n".join([
    "W", "N 7", "H", "incorrect E +2", "incorrect hand S 1 too few", "NS 9 EW 5",  # deal 1: noted, settled as entered
    "E 8", "", "incorrect W 2", "incorrect W 2 too many", "incorrect W -1", "NS 4 EW 10",  # deal 2
    "quit", ""])


def test_an_incorrect_hand_is_noted_ruled_on_saved_and_replayed(tmp_path):
    db, path = str(tmp_path / "games.sqlite3"), tmp_path / "sheet.json"
    result = CliRunner().invoke(main, ["score", "--plain", "--rules", "official", "--db", db, "--save", str(path)],
                                input=INCORRECT_INPUT)
    assert result.exit_code == 0, result.output
    out = result.output
    too_many = ("E held 2 cards too many (003): an opponent drew the excess face down and it went back to the pack; "
                "play went on, and the score is not changed by it.")
    too_few = "S held 1 card too few (003): play went on with the short hand, and the score is not changed by it."
    assert f"Noted: {too_many} Now who took the points?" in out
    assert "(noted: incorrect hand E 2 too many; incorrect hand S 1 too few)" in out
    assert f"  {too_many}\n  {too_few}\n  Difference scoring: the side that took more scores the difference, 9 - 5: " \
           "NS +4." in out  # the deal scores as entered
    assert "Say whether W held too many or too few, as 'incorrect E +2'" in out
    assert "W's incorrect hand is noted already; 'back' clears the notes." in out

    record = json.loads(path.read_text())
    assert record["deals"][0]["real_cards"]["incorrect_hands"] == [{"seat": "E", "too_many": 2, "text": "003"},
                                                                   {"seat": "S", "too_few": 1, "text": "003"}]
    assert record["deals"][1]["real_cards"]["incorrect_hands"] == [{"seat": "W", "too_many": 2, "text": "003"}]
    again = replay(record)
    assert again.sheet.score == (4, 6) and again.sheet.deals[0].ruling[1:3] == (too_many, too_few)
    with Library.open(db, readonly=True) as lib:
        (stored,) = lib.list()
    shown = CliRunner().invoke(main, ["replay", "--db", db, str(stored.id)])
    assert shown.exit_code == 0, shown.output
    assert f"  1. W dealt: N bid 7 in hearts; took NS 9, EW 5; NS bid 7, took 9: made; NS add 4. {too_many} " \
           f"{too_few}  Score NS 4, EW 0" in shown.output
    as_json = json.loads(CliRunner().invoke(main, ["replay", "--json", str(path)]).output)
    assert as_json["deals"][1]["incorrect_hands"] == [{"seat": "W", "too_many": 2, "text": "003"}]
    assert "W held 2 cards too many (003)" in as_json["deals"][1]["ruling"][1]


def test_under_002_an_incorrect_hand_has_no_ruling_and_the_deal_is_settled_as_entered():
    sheet = sheet_of("additive")
    done = sheet.add(DealEntry.of("W", maker="N", bid=7, points=(9, 5), incorrect_hands=[IncorrectHand.of("N", -1)]))
    assert done.ruling[1] == "N held 1 card too few: 002 has no ruling on an incorrect hand, so the deal is settled " \
                             "as entered."
    assert done.score == (9, 5) and done.entry.incorrect_hands[0].text == "002"
    chosen = sheet.add(DealEntry.of("N", maker="E", bid=7, points=(5, 9),
                                    incorrect_hands=[IncorrectHand.of("E", 1, "003")]))
    assert chosen.ruling[1].startswith("E held 1 card too many (003): an opponent drew the excess")


@pytest.mark.parametrize("entry, message", [
    (DealEntry.of("W", maker="N", bid=7, points=(9, 5), incorrect_hands=[IncorrectHand("E", 1)]),  # type: ignore
     "say whose hand was wrong"),
    (DealEntry.of("W", maker="N", bid=7, points=(9, 5), incorrect_hands=[IncorrectHand(Seat.E, 0)]),
     "an incorrect hand holds 1 to 9 cards too many or too few, not 0"),
    (DealEntry.of("W", maker="N", bid=7, points=(9, 5),
                  incorrect_hands=[IncorrectHand(Seat.E, 1), IncorrectHand(Seat.E, -1)]),
     "E's incorrect hand is given twice"),
    (DealEntry.of("W", irregularity=Irregularity.misdeal(), incorrect_hands=[IncorrectHand(Seat.E, 1)]),
     "a misdeal is dealt again: it has no bidding, trumps, points or incorrect hand to enter"),
    (DealEntry.of("W", calls="p p p p", incorrect_hands=[IncorrectHand(Seat.E, 1)]),
     "an incorrect hand is ruled on in play, and all passed"),
])
def test_an_incorrect_hand_the_sheet_cannot_take_is_refused(entry, message):
    assert message in refused(sheet_of("official"), entry)


@pytest.mark.parametrize("hands, message", [
    ({"seat": "E"}, '"incorrect_hands" must be a list'),
    ([{"seat": "X", "too_many": 1}], 'an incorrect hand\'s "seat" must be one of "N" "E" "S" "W"'),
    ([{"seat": "E", "too_many": 1, "too_few": 1}], "an incorrect hand gives one of too_many and too_few"),
    ([{"seat": "E", "too_many": "2"}], 'an incorrect hand\'s "too_many" must be a whole number'),
    ([{"seat": "E", "too_few": 12}], "an incorrect hand holds 1 to 9 cards too many or too few, not -12"),
    ([{"seat": "E", "too_few": 1, "text": "001"}], "penalties come from text 002 or 003, not '001'"),
    ([{"seat": "E", "too_few": 1, "by": "E"}], "an incorrect hand has an unknown field 'by'"),
])
def test_a_record_s_incorrect_hand_that_is_wrong_names_the_field(hands, message):
    with pytest.raises(EntryError, match=None) as caught:
        DealEntry.from_json(Seat.W, {"maker": "N", "bid": 7, "points": {"NS": 9, "EW": 5}, "incorrect_hands": hands})
    assert message in str(caught.value)


# ---- cut-throat tables: two, three, five and six players, each for himself --------------------------------
def table_sheet(preset: str, players: int, **options) -> ScoreSheet:
    return ScoreSheet(Rules.preset(preset).with_options(players=players, **options))


@pytest.mark.parametrize("players, preset, options", [
    (2, "official", {}), (2, "pagat", {"bidder_goes_out": None}), (3, "pagat", {"bidder_goes_out": 20}),
    (3, "official", {}),
    (5, "additive", {"sancho": True}), (6, "difference", {}), (6, "official", {"heasly": True}),
])
def test_the_sheet_scores_the_engine_s_own_cut_throat_matches_exactly(players, preset, options):
    rules = Rules.preset(preset).with_options(players=players, target=25, **options)
    for seed in range(3):
        match = Match(rules, first_dealer=rules.seating.seats[seed % players], rng=seed)
        match.play_out(chooser(seed))
        sheet = ScoreSheet(rules)
        for index, (deal, summary) in enumerate(zip(match.deals, match.summaries, strict=True)):
            entry = entered(deal, rules)
            if index % 2 and entry.took is not None:  # every other deal by each player's points only
                entry = DealEntry(entry.dealer, entry.calls, trump=entry.trump, points=summary.result.points)
            done = sheet.add(entry)
            assert (done.score, done.made, done.bidder_goes_out) == (summary.score, summary.result.made,
                                                                     summary.bidder_goes_out)
        assert sheet.winner == match.winner and sheet.score == match.score


def test_a_cut_throat_deal_is_settled_player_by_player_and_explained():
    three = table_sheet("official", 3)  # difference scoring at four; cut-throat: every player adds his points
    made = three.add(DealEntry.of("1", calls="6 p p", trump="S", points=(5, 7, 2), table=three.table))
    assert made.ruling[:3] == (
        "2 bid 6 in spades: 2 took 7, 3 2, 1 5: made.",
        "Cut-throat scoring: every player adds the points he took: 2 +7, 3 +2, 1 +5.",
        "Score: 1: 5, 2: 7, 3: 2 (first to 51 wins).")
    set_back = three.add(DealEntry.of("2", maker="3", bid=9, took={"High": "1", "Low": "3", "Jack": "nobody",
                                                                   "Game": "3", "Right Pedro": "1",
                                                                   "Left Pedro": "2"}, table=three.table))
    assert set_back.points == (6, 5, 2) and set_back.score_change == (6, 5, -9) and three.score == (11, 12, -7)
    assert set_back.summary() == ("2 dealt: 3 bid 9; points 1: 6, 2: 5, 3: 2; 3 bid 9, took 2: set; 3 loses 9; "
                                  "1 adds 6; 2 adds 5.")
    assert three.next_dealer is three.table.seats[2]

    two = table_sheet("official", 2)  # two players settle by the preset's own (difference) scoring
    done = two.add(DealEntry.of("1", maker="2", bid=6, points=(8, 6), table=two.table))
    assert done.score_change == (2, 0) and done.ruling[1] == (
        "Difference scoring: the player who took more scores the difference, 8 - 6: 1 +2.")


def test_going_out_at_a_cut_throat_table():
    first = table_sheet("additive", 3, target=10)  # makers count first: 2 made his bid, so he wins over 1
    first.add(DealEntry.of("1", maker="2", bid=5, points=(7, 6, 1), table=first.table))
    won = first.add(DealEntry.of("2", maker="2", bid=5, points=(6, 5, 3), table=first.table))
    assert won.winner is first.table.seats[1]
    assert won.ruling[-1] == ("1 and 2 reach 10 on this deal: the maker counts first, and 2 made his bid: 2 wins the "
                              "match with 11 (1: 13, 2: 11, 3: 4).")
    assert "the match is over: 2 won with 11 (1: 13, 2: 11, 3: 4)" in refused(
        first, DealEntry.of("2", maker="3", bid=5, points=(0, 0, 14), table=first.table))

    floor = table_sheet("additive", 3, negative_floor=-10, target=40)
    floor.add(DealEntry.of("1", maker="2", bid=5, points=(6, 0, 8), table=floor.table))
    out = floor.add(DealEntry.of("2", maker="3", bid=12, points=(4, 0, 10), table=floor.table))
    assert floor.score == (10, -5, -4) and out.winner is None
    last = floor.add(DealEntry.of("3", maker="2", bid=7, points=(5, 0, 9), table=floor.table))
    assert last.winner is floor.table.seats[0] and last.ruling[-1] == (
        "2 stands at or below the floor of -10: the best of the others wins: 1 wins the match with 15 "
        "(1: 15, 2: -12, 3: 5).")


@pytest.mark.parametrize("players, preset, points, message", [
    (3, "official", (4, 4, 4), "1: 4, 2: 4 and 3: 4 cannot be taken together: the point cards are High, Low, Jack "
                               "and Game 1 each, Right Pedro and Left Pedro 5 each: 14 in all, and no share of them"),
    (3, "official", (10, 5, 5), "1: 10, 2: 5 and 3: 5 make 20, but the point cards hold only 14 under official+"),
    (5, "pagat", (4, 0, 0, 5, 1), "make 10, but under pagat+ at 5 players every point card scores for a player: "
                                  "the points add up to 14"),
    (6, "official", (1, 0, 0, 0, 0, 0), "1: 1, 2: 0, 3: 0, 4: 0, 5: 0 and 6: 0 cannot be taken together"),
    (3, "official", (-1, 8, 7), "the points taken cannot be negative (1: -1, 2: 8 and 3: 7)"),
])
def test_points_that_do_not_add_up_at_a_cut_throat_table_are_refused(players, preset, points, message):
    sheet = table_sheet(preset, players)
    assert message in refused(sheet, DealEntry.of("1", maker="2", bid=7, points=points, table=sheet.table))
    assert sheet.deals == ()


def test_pagat_s_every_card_scores_only_where_the_dealer_robs():
    assert [every_card_scores(Rules.preset("pagat").with_options(players=n)) for n in (2, 3, 4, 5, 6)] == [
        False, False, True, True, True]  # at two and three the dealer draws like the others: trumps stay in stock
    three = table_sheet("pagat", 3)
    assert three.add(DealEntry.of("1", maker="2", bid=7, points=(0, 8, 1), table=three.table)).made


def test_a_seat_not_at_the_table_and_an_irregularity_at_cut_throat_are_refused():
    three = table_sheet("official", 3)
    table = three.table
    with pytest.raises(EntryError, match="'4' is not a seat at this table; the seats are 1 2 3"):
        DealEntry.of("4", maker="1", bid=5, points=(4, 0, 10), table=table)
    with pytest.raises(EntryError, match="'5' is not a player at this table or nobody; write one of 1 2 3"):
        DealEntry.of("1", maker="2", bid=5, took={"High": "5"}, table=table)
    with pytest.raises(EntryError, match=r"points are 3 whole numbers, one for each player from 1 to 3, as \(4, 0"):
        DealEntry.of("1", maker="2", bid=5, points=(9, 5), table=table)
    assert refused(three, DealEntry.of("N", maker="E", bid=5, points=(9, 5))) == (
        "the dealer, N, is not a seat at this table; the seats are 1 2 3")
    honour = "misdeals, revokes and incorrect hands are ruled on only at four players in partnerships"
    for entry in (DealEntry(table.seats[0], irregularity=Irregularity.misdeal()),
                  DealEntry(table.seats[0], maker=table.seats[1], bid=5, points=(4, 0, 10),
                            incorrect_hands=(IncorrectHand.of("N", 1),))):
        assert refused(three, entry).startswith(honour)
    with pytest.raises(EntryError, match=honour):
        DealEntry.from_json(table.seats[0], {"maker": "2", "bid": 5, "points": {"1": 4, "2": 0, "3": 10},
                                             "irregularity": {"kind": "revoke", "by": "1"}})
    with pytest.raises(EntryError, match="N is not a seat at this table"):
        ScoreSheet(Rules.preset("official").with_options(players=3), players={Seat.N: "Ann"})
    assert three.deals == ()


def test_the_cut_throat_share_of_points_agrees_with_every_share_of_the_cards():
    """``can_share`` (a search) accepts exactly the totals of every way :func:`check_took` takes the cards."""
    from itertools import product

    from cinch.scorekeeper import can_share, check_took

    for rules in (Rules.preset("official").with_options(players=3),
                  Rules.preset("pagat").with_options(players=5, target=51, bidder_goes_out=None)):
        names = [c.name for c in point_cards(rules)]
        takers = (*rules.seating.seats[:3], None)  # three players are enough to meet every share of six cards
        shares = set()
        for who in product(takers, repeat=len(names)):
            try:
                shares.add(check_took(rules, list(zip(names, who))))
            except EntryError:
                continue
        n = rules.seating.players
        for points in product(range(0, 15), repeat=3):
            full = (*points, *(0,) * (n - 3))
            assert can_share(rules, full) == (full in shares), full


def test_a_five_player_sheet_is_a_record_that_replays_and_the_library_keeps(tmp_path):
    rules = Rules.preset("additive").with_options(players=5)
    table = rules.seating
    sheet = ScoreSheet(rules, players={table.seats[0]: "Ann", table.seats[2]: "Cy"}, first_dealer=table.seats[0])
    sheet.add(DealEntry.of("1", calls="p p 6 p p", trump="H", took={"High": "1", "Low": "5", "Jack": "3",
                                                                      "Game": "1", "Right Pedro": "5",
                                                                      "Left Pedro": "3"}, table=table))
    sheet.add(DealEntry.of("2", calls="p p p p p", table=table))
    sheet.add(DealEntry.of("3", maker="4", bid=8, points=(1, 0, 0, 5, 8), table=table))
    record = loads(sheet_text(sheet))
    assert record["rules"] == {"preset": "additive", "players": 5} and record["players"] == {"1": "Ann", "3": "Cy"}
    assert record["deals"][2] == {
        "dealer": "3", "real_cards": {"maker": "4", "bid": 8, "points": {"1": 1, "2": 0, "3": 0, "4": 5, "5": 8}},
        "result": {"points": {"1": 1, "2": 0, "3": 0, "4": 5, "5": 8}, "made": False,
                   "score_change": {"1": 1, "2": 0, "3": 0, "4": -8, "5": 8},
                   "score": {"1": 3, "2": 0, "3": 6, "4": -14, "5": 14}}}
    back = replay(record)
    assert back.sheet is not None and back.sheet.deals == sheet.deals and back.sheet.players == sheet.players
    assert back.to_json()["score"] == {"1": 3, "2": 0, "3": 6, "4": -14, "5": 14}
    assert back.describe().splitlines()[-2:] == ["Score: 1: 3, 2: 0, 3: 6, 4: -14, 5: 14; the match goes on.",
                                                 "Next: a new deal, dealt by 4."]
    path = tmp_path / "five.json"
    path.write_text(dumps(record))
    shown = CliRunner().invoke(main, ["replay", str(path)])
    assert shown.exit_code == 0, shown.output
    assert "  1. 1 dealt: 4 bid 6 in hearts; points 1: 2, 2: 0, 3: 6, 4: 0, 5: 6; 4 bid 6, took 0: set; 4 loses 6;" \
        in shown.output

    changed = json.loads(json.dumps(record))
    changed["deals"][2]["real_cards"]["points"] = {"1": 1, "2": 0, "3": 0, "4": 5, "6": 8}
    with pytest.raises(RecordError, match=r'"points" must be \{"1": n, "2": n, "3": n, "4": n, "5": n\}'):
        replay(changed)

    with Library.open(tmp_path / "games.sqlite3") as lib:
        match_id = lib.new_sheet(sheet)
        stored = lib.get(match_id)
        assert stored.score == (3, 0, 6, -14, 14) and stored.players == sheet.players
        again = lib.sheet(match_id)
        assert again.deals == sheet.deals and again.next_dealer is table.seats[3]


def test_the_record_format_s_cut_throat_example_is_the_program_s_own():
    from pathlib import Path

    doc = (Path(__file__).parent.parent / "docs" / "record-format.md").read_text(encoding="utf-8")
    section = doc[doc.index("At a cut-throat table (`\"rules\""):]
    example = json.loads(section[section.index("```json") + len("```json"):section.index("```\n",
                                                                                        section.index("```json"))])
    sheet = replay(example).sheet
    assert sheet is not None and sheet.score == (22, -7, 5) and sheet_record(sheet) == example


# ---- two packs (-o decks=2): every point card twice, each copy entered -----------------------------------------
def entered_by_copy(deal: Deal, rules: Rules) -> DealEntry:
    """:func:`entered` with two packs: whoever took each copy of each point card (nobody for a copy that
    did not score)."""
    result = deal.result
    assert result is not None
    calls = tuple(action for _, action in deal.auction)
    if result.thrown_in:
        return DealEntry(deal.dealer, calls)
    takers: dict[str, list] = {card.name: [] for card in point_cards(rules)}
    for award in result.awards:
        takers[award.name].append(award.team)
    took = tuple((card.name, who) for card in point_cards(rules)
                 for who in (takers[card.name] + [None] * card.copies)[:card.copies])
    return DealEntry(deal.dealer, calls, trump=result.trump, took=took)


@pytest.mark.parametrize("preset, options", [
    ("official", {}), ("pagat", {}), ("additive", {"sancho": True}), ("double-pedro", {"bowers": True}),
    ("pagat", {"players": 2}), ("official", {"players": 3}), ("official", {"players": 5}),
])
def test_the_sheet_scores_the_engine_s_own_two_deck_deals_exactly(preset, options):
    """Two-deck deals the engine played, entered copy by copy (and every other deal by the points only),
    settle on the sheet exactly as in the match."""
    rules = Rules.preset(preset).with_options(decks=2, **options)
    for seed in range(2):
        bot, rng = make_bot("basic", seed=seed), random.Random(seed)
        match = Match(rules, first_dealer=rules.seating.seats[seed % rules.players], rng=seed)
        sheet = ScoreSheet(rules)
        while not match.is_over and len(match.deals) < 6:  # (random play may never end a match)
            deal = match.start_deal()
            for seat in match.turns():
                view = match.view(seat)
                match.apply(bot.choose(view) if view.phase in (Phase.BIDDING, Phase.TRUMP)
                            else rng.choice(view.legal), seat)
            summary = match.summaries[-1]
            entry = entered_by_copy(deal, rules)
            if len(match.deals) % 2 and entry.took is not None:
                entry = DealEntry(entry.dealer, entry.calls, trump=entry.trump, points=summary.result.points)
            done = sheet.add(entry)
            assert (done.score, done.made) == (summary.score, summary.result.made), done.ruling
        assert sheet.score == match.score


def test_two_packs_double_the_point_cards_and_refuse_what_one_deal_cannot_hold():
    sheet = sheet_of("official", decks=2)
    assert [(c.name, c.points, c.copies) for c in point_cards(sheet.rules)][:3] == [
        ("High", 1, 2), ("Low", 1, 2), ("Jack", 1, 2)]
    both = {name: ["NS", "EW"] for name in ALL_NS}
    assert refused(sheet, DealEntry.of("W", maker="N", bid=14, points=(29, 0))).startswith(
        "NS 29 and EW 0 make 29, but the point cards hold only 28 under official")
    assert refused(sheet, DealEntry.of("W", maker="N", bid=14, took={**both, "Jack": ["NS", "EW", "NS"]})) == (
        "Jack is given three times (to NS, EW and NS): two packs hold two, and each copy scores for one side only")
    assert refused(sheet, DealEntry.of("W", maker="N", bid=14, took={**both, "Jack": "NS", "High": []})) == (
        "say who took both Highs and the other Jack: a side (NS, EW), a player (N E S W) or nobody (two packs: "
        "each copy of a point card is given)")
    # Relative High: one copy may be out of play, but if nobody took either copy no trump was played.
    one_high = sheet.add(DealEntry.of("W", maker="N", bid=14, trump="S", took={**both, "High": ["NS", None]}))
    assert one_high.points == (14, 13) and one_high.ruling[0] == "N bid 14 in spades: NS took 14, EW 13: made."
    assert refused(sheet, DealEntry.of("N", maker="E", bid=8, took={**both, "High": [None, None]})).startswith(
        "under official+ High is the highest trump in play: if nobody took either copy of it no trump was played")
    check_points(sheet.rules, (27, 0))  # a copy of High and of Low in play, everything else to NS
    with pytest.raises(EntryError, match="no share of them gives NS 0 and EW 1"):
        check_points(sheet.rules, (0, 1))  # once anything is taken, a High and a Low are taken too
    with pytest.raises(EntryError, match="every point card scores for a side: the points add up to 28"):
        check_points(Rules.preset("pagat").with_options(decks=2), (14, 13))


def test_a_two_deck_cut_throat_share_of_points():
    from cinch.scorekeeper import can_share

    three = Rules.preset("official").with_options(players=3, decks=2)
    assert can_share(three, (10, 10, 8)) and can_share(three, (2, 0, 0)) and can_share(three, (20, 0, 8))
    assert not can_share(three, (1, 0, 0))  # one point: a High, yet then a Low was taken too
    assert not can_share(three, (3, 3, 3))  # nine points without a Pedro (a five), from eight 1-point copies


def test_a_two_deck_entry_is_json_that_reads_back_and_a_bad_copy_list_names_the_field():
    entry = DealEntry.of("W", maker="N", bid=16, trump="H",
                         took={name: ("NS", None) for name in ALL_NS})
    written = entry.to_json()
    assert written["took"]["Jack"] == ["NS", None]
    assert DealEntry.from_json(Seat.W, json.loads(json.dumps(written))) == entry
    with pytest.raises(EntryError, match=r'"took": Jack must go to "NS", "EW", a seat or null \(with two packs'):
        DealEntry.from_json(Seat.W, {"maker": "N", "bid": 16, "took": {"Jack": ["NS", 3]}})


def test_the_phone_page_asks_who_took_each_copy():
    from cinch.server.scoresheet import new_sheet, read_entry, rules_json, settled_json

    sheet = new_sheet({"rules": "official", "options": {"decks": "2"}, "first_dealer": "W"})
    described = rules_json(sheet.rules)
    assert described["decks"] == 2 and described["total_points"] == 28 and described["target"] == 102
    assert {c["name"]: c["copies"] for c in described["point_cards"]}["Left Pedro"] == 2
    entry, _ = read_entry({"number": 1, "dealer": "W", "maker": "N", "bid": 14, "trump": "D",
                           "took": {name: ["NS", "EW"] for name in ALL_NS}})
    settled = settled_json(sheet.add(entry))
    assert settled["points"] == {"NS": 14, "EW": 14} and settled["entry"]["took"]["High"] == ["NS", "EW"]
