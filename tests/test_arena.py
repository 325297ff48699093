"""The duplicate arena (``cinch.arena``, ``cinch arena``): statistics, determinism, symmetry, broken bots, the CLI."""

from __future__ import annotations

import json
import math
import multiprocessing
import random
import statistics
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from cinch import CARDS, PRESET_NAMES, Bid, Pass, Play, Rules, Seat, Team
from cinch.arena import (
    ArenaResult,
    DealStat,
    PairOutcome,
    bot_accepts,
    bot_class,
    bot_options,
    check_start_score,
    derive_seed,
    match_win_interval,
    parse_option_value,
    parse_score,
    ratio_interval,
    record_path,
    run_duplicate,
    run_matches,
    split_bot_options,
    t975,
    wilson_interval,
)
from cinch.bots import BOTS, Bot, register
from cinch.cli import main
from cinch.errors import CinchError
from cinch.record import loads, replay
from cinch.scoring import PointTable
from cinch.view import Phase

PAIRS = 8
RUN_DEPENDENT = ("think_time_ms", "elapsed_s", "workers", "out_dir")  # the only fields that may differ between runs


def without_records(pairs: list[PairOutcome]) -> list[PairOutcome]:
    return [replace(p, legs=tuple(replace(leg, record=None) for leg in p.legs)) for p in pairs]


def outcome(result: ArenaResult) -> dict:
    data = result.to_json()
    for key in RUN_DEPENDENT:
        data.pop(key)
    return data


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> tuple[ArenaResult, Path]:
    out = tmp_path_factory.mktemp("arena")
    return run_duplicate("basic", "random", "pagat", deals=PAIRS, seed=11, workers=1, out_dir=out), out


# ---------------------------------------------------------------------------
# The statistics, checked against the saved records
# ---------------------------------------------------------------------------
def replayed(out: Path) -> list[tuple[dict, object]]:
    files = sorted((out / "records").rglob("*.json"))
    return [(rec, replay(rec)) for rec in (loads(f.read_text(encoding="utf-8")) for f in files)]


def test_records_replay_to_the_reported_net(saved):
    result, out = saved
    games = replayed(out)
    assert len(games) == 2 * PAIRS
    per_pair: dict[int, list[int]] = {}
    for rec, rep in games:
        a_team = Team[rec["arena"]["a_seats"]]
        (summary,) = rep.match.summaries  # one deal per record
        change = summary.result.score_change
        per_pair.setdefault(rec["arena"]["pair"], []).append(change[a_team] - change[a_team.other])
    assert sorted(per_pair) == list(range(PAIRS)) and all(len(v) == 2 for v in per_pair.values())
    pair_means = [sum(v) / 2 for v in per_pair.values()]
    assert result.net_points_per_deal == pytest.approx(statistics.fmean(pair_means))
    assert result.deals == 2 * PAIRS
    low, high = result.ci95
    assert low <= result.net_points_per_deal <= high
    half = 1.96 * statistics.stdev(pair_means) / math.sqrt(PAIRS)
    assert high - low >= 2 * half  # a t interval is a little wider than the normal one
    assert (high - low) / 2 == pytest.approx(t975(PAIRS - 1) * statistics.stdev(pair_means) / math.sqrt(PAIRS))


def test_each_pair_plays_one_deck_from_both_sides(saved):
    result, out = saved
    for p in result.pairs:
        ns, ew = (loads((out / leg.record).read_text(encoding="utf-8")) for leg in p.legs)
        assert [leg.a_seats for leg in p.legs] == ["NS", "EW"]
        assert ns["deals"][0]["deck"] == ew["deals"][0]["deck"]
        assert ns["deals"][0]["dealer"] == ew["deals"][0]["dealer"] == Seat(p.index % 4).name
        assert ns["players"]["N"] == "basic (A)" and ew["players"]["N"] == "random (B)"
        assert p.legs[0].record == record_path(p.index, "NS")
    decks = {loads((out / p.legs[0].record).read_text())["deals"][0]["deck"] for p in result.pairs}
    assert len(decks) == PAIRS


def test_contracts_pedros_and_throw_ins_add_up(saved):
    result, out = saved
    data = result.to_json()
    c = data["contracts"]
    made_set = c["a"]["made"] + c["a"]["set"] + c["b"]["made"] + c["b"]["set"]
    assert made_set == data["deals"] - data["thrown_in"]
    captured = lost = 0
    made = {"a": 0, "b": 0}
    bids = {"a": [], "b": []}
    for rec, rep in replayed(out):
        a_team = Team[rec["arena"]["a_seats"]]
        r = rep.match.summaries[0].result
        if r.thrown_in:
            continue
        side = "a" if r.makers == a_team else "b"
        made[side] += bool(r.made)
        bids[side].append(r.bid)
        for award in r.awards:
            if "Pedro" in award.name:
                captured += award.team == a_team
                lost += award.team != a_team
    assert data["pedros"] == {"captured_by_a": captured, "lost_by_a": lost}
    assert captured + lost <= 2 * data["deals"]
    assert {s: c[s]["made"] for s in "ab"} == made
    for s in "ab":
        assert c[s]["average_bid"] == (pytest.approx(statistics.fmean(bids[s])) if bids[s] else None)
    assert data["problems"] == {"a": {"illegal": 0, "crashed": 0}, "b": {"illegal": 0, "crashed": 0}}
    assert data["score_change_per_deal"]["a"] - data["score_change_per_deal"]["b"] == pytest.approx(
        data["net_points_per_deal"])


def test_summary_files(saved):
    result, out = saved
    summary = json.loads((out / "summary.json").read_text())
    assert summary == json.loads(json.dumps(result.to_json()))
    lines = (out / "pairs.jsonl").read_text().splitlines()
    assert [json.loads(line)["pair"] for line in lines] == list(range(PAIRS))
    assert (out / "summary.md").read_text() == result.to_markdown()
    assert not (out / "problems.jsonl").exists()


def test_think_times_are_measured(saved):
    result, _ = saved
    tt = result.to_json()["think_time_ms"]
    for side in "ab":
        assert tt[side]["decisions"] > 0
        assert 0 <= tt[side]["p50"] <= tt[side]["p95"] <= tt[side]["p99"] <= tt[side]["max"]


# ---------------------------------------------------------------------------
# Determinism and duplicate symmetry
# ---------------------------------------------------------------------------
def test_same_results_on_any_number_of_workers(saved):
    result, _ = saved
    two = run_duplicate("basic", "random", "pagat", deals=PAIRS, seed=11, workers=2, chunk_size=3)
    one_by_one = run_duplicate("basic", "random", "pagat", deals=PAIRS, seed=11, workers=2, chunk_size=1)
    for other in (two, one_by_one):
        assert other.pairs == without_records(result.pairs)
        assert outcome(other) == outcome(result)
    assert two.workers == 2


def test_another_seed_gives_other_deals():
    a = run_duplicate("basic", "random", "pagat", deals=4, seed=1, workers=1)
    b = run_duplicate("basic", "random", "pagat", deals=4, seed=2, workers=1)
    assert [p.legs for p in a.pairs] != [p.legs for p in b.pairs]


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("bot", ["basic", "random"])
def test_a_bot_against_itself_nets_exactly_zero(preset, bot):
    result = run_duplicate(bot, bot, preset, deals=6, seed=3, workers=1)
    assert all(p.net == 0 for p in result.pairs)
    assert result.net_points_per_deal == 0.0
    assert result.ci95 == (0.0, 0.0)
    c = result.contracts()
    assert c["a"] == c["b"]


def test_seeds_do_not_drift():
    # Decks and bot seeds come from this function: changing it changes every published figure.
    assert derive_seed(0, "deal", "deck", 0) == derive_seed(0, "deal", "deck", 0)
    assert derive_seed(0, "deal", "deck", 0) != derive_seed(0, "deal", "deck", 1)
    assert derive_seed(7, "deal", "deck", 3) == 5900315336670863810
    assert 0 <= derive_seed(123, "x") < 2**63


# ---------------------------------------------------------------------------
# Matches
# ---------------------------------------------------------------------------
def test_matches_are_duplicated_and_counted(tmp_path):
    result = run_duplicate("basic", "random", "difference", deals=3, seed=2, workers=1, matches=True,
                           out_dir=tmp_path)
    m = result.to_json()["matches"]
    assert m["played"] == 6 and m["a_wins"] + m["b_wins"] + m["unfinished"] == 6
    assert 0 <= m["ci95"][0] <= m["win_rate_a"] <= m["ci95"][1] <= 1
    for p in result.pairs:
        legs = [loads((tmp_path / leg.record).read_text()) for leg in p.legs]
        n = min(len(rec["deals"]) for rec in legs)
        assert [d["deck"] for d in legs[0]["deals"][:n]] == [d["deck"] for d in legs[1]["deals"][:n]]
        for leg, rec in zip(p.legs, legs):
            rep = replay(rec)
            assert len(rep.match.summaries) == len(leg.deals)
            a_team = Team[leg.a_seats]
            assert leg.winner == ("a" if rep.match.winner == a_team else "b")
    assert "Match win rate for basic" in result.to_markdown()
    total = sum(p.net for p in result.pairs)
    assert result.net_points_per_deal == pytest.approx(total / result.deals)


def test_matches_self_play_is_zero():
    result = run_duplicate("basic", "basic", "pagat", deals=2, seed=9, workers=1, matches=True)
    assert result.net_points_per_deal == 0.0
    assert result.match_figures()["win_rate_a"] == 0.5


def test_run_matches_counts_wins_and_match_length(tmp_path):
    result = run_matches("basic", "random", "difference", matches=3, seed=2, workers=1, out_dir=tmp_path)
    assert result.mode == "matches" and len(result.pairs) == 3
    m = result.match_figures()
    assert m["pairs"] == 3 and m["played"] == 6 and m["ci95_method"] == "wilson"
    # The figures are those of the records: who won each match, and how many deals it took.
    wins = {"a": 0, "b": 0}
    lengths = []
    for p in result.pairs:
        for leg in p.legs:
            match = replay(loads((tmp_path / leg.record).read_text())).match
            a_team = Team[leg.a_seats]
            wins["a" if match.winner == a_team else "b"] += 1
            lengths.append(len(match.summaries))
    assert (m["a_wins"], m["b_wins"], m["unfinished"]) == (wins["a"], wins["b"], 0)
    assert m["average_deals"] == pytest.approx(statistics.fmean(lengths))
    assert m["win_rate_a"] == wins["a"] / 6
    swept = sum(1 for p in result.pairs if all(leg.winner == "a" for leg in p.legs))
    assert m["pairs_swept"]["a"] == swept
    low, high = m["ci95"]
    assert low < m["win_rate_a"] <= high <= 1  # never a point, even at 100%
    assert result.command.endswith("--matches 3 --seed 2")
    text = result.to_markdown()
    assert f"Matches won: basic (A) **{wins['a']}**, random (B) **{wins['b']}**" in text
    assert "95% Wilson interval" in text


def test_matches_same_results_on_any_number_of_workers():
    one = run_matches("basic", "random", "official", matches=3, seed=4, workers=1)
    two = run_matches("basic", "random", "official", matches=3, seed=4, workers=2)
    assert two.pairs == one.pairs and outcome(two) == outcome(one)


def test_wilson_interval():
    # Wilson's interval for 8 of 10 (Newcombe 1998, method 3): 0.490 to 0.943.
    low, high = wilson_interval(0.8, 10)
    assert (round(low, 3), round(high, 3)) == (0.49, 0.943)
    assert wilson_interval(0.0, 10)[0] == 0.0 and 0 < wilson_interval(0.0, 10)[1] < 0.31
    assert wilson_interval(1.0, 20) == (pytest.approx(20 / (20 + 1.959964**2)), 1.0)
    with pytest.raises(ValueError):
        wilson_interval(0.5, 0)


def test_match_win_interval_counts_the_pairs_not_the_matches():
    # Independent-looking pairs: every match counts.
    assert match_win_interval([0.5] * 8)[2] == 16
    assert match_win_interval([1.0] * 8)[1][0] == pytest.approx(wilson_interval(1.0, 16)[0])
    # Pairs that always sweep (both matches alike) carry half the information of 2m independent matches.
    rate, (low, high), n = match_win_interval([1.0, 0.0] * 10)
    assert rate == 0.5 and n == pytest.approx(19.0)  # 0.25 / (sd^2 / m), with sd^2 = 0.25 * 20 / 19
    assert high - low > wilson_interval(0.5, 40)[1] - wilson_interval(0.5, 40)[0]


@pytest.mark.parametrize("correlation", [-0.6, 0.0, 0.9])
def test_match_win_interval_covers_the_true_rate(correlation):
    """95% intervals over simulated duplicate pairs (legs correlated as the shared decks make them) cover
    the true rate about 95% of the time, where the naive interval over the matches would not."""
    rng = random.Random(7)
    p, pairs, runs = 0.6, 25, 1500
    # P(A wins both) for the two legs' correlation: p^2 + correlation * p * (1 - p).
    both = p * p + correlation * p * (1 - p)
    one = p - both  # A wins the first only (and, as often, the second only)
    covered = naive = 0
    for _ in range(runs):
        scores = []
        for _ in range(pairs):
            r = rng.random()
            scores.append(1.0 if r < both else 0.5 if r < both + 2 * one else 0.0)
        rate, (low, high), _ = match_win_interval(scores)
        covered += low <= p <= high
        n_low, n_high = wilson_interval(rate, 2 * pairs)
        naive += n_low <= p <= n_high
    assert covered / runs >= 0.93
    if correlation > 0.5:  # the pairs' matches agree: counting them as independent overstates the evidence
        assert naive / runs < 0.9


# ---------------------------------------------------------------------------
# Deals at a given score
# ---------------------------------------------------------------------------
class ScoreReader(Bot):
    """Notes what every view says of the match, and plays the first legal action."""

    seen: list[tuple[str, object, object, bool, object]] = []

    def choose(self, view):
        ScoreReader.seen.append((view.seat.name, view.score, view.target, view.bidder_goes_out, view.deal_number))
        return view.legal[0]


@pytest.fixture
def score_reader():
    register("test-score-reader")(ScoreReader)
    ScoreReader.seen = []
    yield ScoreReader.seen
    BOTS.pop("test-score-reader", None)


@pytest.mark.usefixtures("score_reader")
def test_the_bots_see_the_start_score_by_seat_in_both_legs(score_reader):
    # pagat: target 62, bidder goes out once both sides have 55.
    run_duplicate("test-score-reader", "basic", "pagat", deals=2, seed=1, workers=1, score=(56, 58))
    assert score_reader and {s[1:] for s in score_reader} == {((56, 58), 62, True, 1)}
    assert {s[0] for s in score_reader} == {"N", "E", "S", "W"}  # A's seats in one leg, B's in the other
    score_reader.clear()
    run_duplicate("test-score-reader", "basic", "pagat", deals=2, seed=1, workers=1, score=(30, 48))
    assert {s[1:] for s in score_reader} == {((30, 48), 62, False, 1)}


def test_deals_at_a_score_end_the_match_as_the_rules_say(tmp_path):
    # pagat, 58-40: N-S need 4 points for 62; E-W cannot reach it in one deal (14 points in all).
    result = run_duplicate("heuristic", "basic", "pagat", deals=12, seed=3, workers=1, out_dir=tmp_path,
                           score=(58, 40))
    ended = {"a": 0, "b": 0}
    for p in result.pairs:
        for k, leg in enumerate(p.legs):
            rec = loads((tmp_path / leg.record).read_text())
            assert rec["arena"]["start_score"] == {"NS": 58, "EW": 40}
            (summary,) = replay(rec).match.summaries
            ns_wins = summary.result.score_change[Team.NS] >= 4
            a_is_ns = leg.a_seats == "NS"
            expected = None if not ns_wins else "a" if a_is_ns else "b"
            assert leg.winner == expected, (p.index, k)
            if expected:
                ended[expected] += 1
    sf = result.to_json()["match_ends"]
    assert sf["ended"] == ended["a"] + ended["b"] > 0
    assert (sf["a_wins"], sf["b_wins"]) == (ended["a"], ended["b"])
    first, twin = sf["by_start"]
    assert (first["a_score"], first["b_score"], twin["a_score"], twin["b_score"]) == (58, 40, 40, 58)
    assert first["a_wins"] == sum(1 for p in result.pairs if p.legs[0].winner == "a")
    assert first["b_wins"] == twin["a_wins"] == 0  # from 40 no side goes out in one deal
    assert result.to_json()["start_score"] == [58, 40] and sf["bidder_goes_out"] is False
    assert result.command.endswith("--deals 12 --seed 3 --score 58-40")
    text = result.to_markdown()
    assert "pairs at 58\u201340" in text and f"| all | 24 | **{ended['a']}** | **{ended['b']}** |" in text
    assert f"| 58\u201340 | 12 | {first['a_wins']} | 0 |" in text
    assert "score_change_per_deal" in result.to_json() and result.deals == 24  # still points per deal


def test_a_bot_against_itself_meets_the_same_situations_at_a_score():
    result = run_duplicate("heuristic", "heuristic", "difference", deals=10, seed=5, workers=1, score=(45, 20))
    assert all(p.net == 0 for p in result.pairs)
    first, twin = result.score_figures()["by_start"]
    # A from 45 in the first deal is B from 45 in the twin, with the same cards.
    assert first["a_wins"] == twin["b_wins"] and first["b_wins"] == twin["a_wins"]
    assert first["a_wins"] > 0  # 6 points of 51 are there to be made


def test_the_same_seed_deals_the_same_decks_at_any_score(tmp_path):
    plain = run_duplicate("basic", "random", "official", deals=3, seed=8, workers=1, out_dir=tmp_path / "0")
    at = run_duplicate("basic", "random", "official", deals=3, seed=8, workers=2, out_dir=tmp_path / "s",
                       score=(40, 12))
    for p, q in zip(plain.pairs, at.pairs):
        for leg, other in zip(p.legs, q.legs):
            decks = [loads((tmp_path / d / x.record).read_text())["deals"][0]["deck"]
                     for d, x in (("0", leg), ("s", other))]
            assert decks[0] == decks[1]
    zero = run_duplicate("basic", "random", "official", deals=3, seed=8, workers=1, score=(0, 0))
    assert without_records(zero.pairs) == without_records(plain.pairs)


def test_start_scores_are_checked():
    assert parse_score("48-30") == (48, 30) and parse_score(" -5 : 10 ") == (-5, 10)
    assert parse_score("-5--10") == (-5, -10)
    for bad in ("48", "48-", "a-b", "1-2-3"):
        with pytest.raises(CinchError, match="A-B"):
            parse_score(bad)
    pagat = Rules.preset("pagat")
    check_start_score(pagat, (61, -40))
    with pytest.raises(CinchError, match="reached the target"):
        check_start_score(pagat, (10, 62))
    floored = pagat.with_options(negative_floor=-20)
    check_start_score(floored, (-25, -30))  # both below the floor: the match goes on
    with pytest.raises(CinchError, match="floor"):
        check_start_score(floored, (-20, 5))
    with pytest.raises(CinchError, match="single deals"):
        run_duplicate("basic", "basic", "pagat", deals=1, workers=1, matches=True, score=(1, 2))
    with pytest.raises(CinchError, match="target"):
        run_duplicate("basic", "basic", "pagat", deals=1, workers=1, score=(70, 2))


# ---------------------------------------------------------------------------
# Broken bots
# ---------------------------------------------------------------------------
class Crasher(Bot):
    """Raises on the second trick's decisions; plays the first legal action otherwise."""

    def choose(self, view):
        if view.phase is Phase.PLAY and len(view.tricks) == 1:
            raise RuntimeError("boom")
        return view.legal[0]


class Cheater(Bot):
    """Bids beyond the limit and plays a card it does not hold."""

    def choose(self, view):
        if view.phase is Phase.BIDDING:
            return Bid(99)
        if view.phase is Phase.PLAY and len(view.tricks) == 2:
            return Play(next(c for c in CARDS if c not in view.hand))
        if view.phase is Phase.TRUMP:
            return "trump H"  # not an Action at all
        return view.legal[0]


class Shy(Bot):
    """Passes four times in five; otherwise any legal action, at random."""

    def choose(self, view):
        if view.phase is Phase.BIDDING and self.rng.random() < 0.8 and Pass() in view.legal:
            return Pass()
        return self.rng.choice(view.legal)


class Budgeted(Bot):
    def __init__(self, seed=None, time_budget=None, simulations=10):
        super().__init__(seed)
        if not isinstance(simulations, int) or simulations < 1:
            raise ValueError("simulations must be a positive whole number")
        self.time_budget, self.simulations = time_budget, simulations

    def choose(self, view):
        return view.legal[0]


@pytest.fixture
def test_bots():
    names = {"test-crasher": Crasher, "test-cheater": Cheater, "test-budgeted": Budgeted, "test-shy": Shy}
    for name, cls in names.items():
        register(name)(cls)
    yield
    for name in names:
        BOTS.pop(name, None)


@pytest.mark.usefixtures("test_bots")
@pytest.mark.parametrize("workers", [1, 2])
def test_broken_bots_are_counted_and_the_run_goes_on(tmp_path, workers):
    if workers > 1 and multiprocessing.get_start_method() != "fork":
        pytest.skip("bots registered in a test reach worker processes only when they are forked")
    result = run_duplicate("test-crasher", "test-cheater", "pagat", deals=4, seed=1, workers=workers,
                           chunk_size=2, out_dir=tmp_path)
    counts = result.counts
    assert counts["a"]["crashed"] > 0 and counts["a"]["illegal"] == 0
    assert counts["b"]["illegal"] > 0 and counts["b"]["crashed"] == 0
    assert result.deals == 8 and len(result.pairs) == 4
    kinds = {(p.bot, p.kind) for p in result.problems}
    assert kinds == {("test-crasher", "crashed"), ("test-cheater", "illegal")}
    assert len(result.problems) == counts["a"]["crashed"] + counts["b"]["illegal"]
    details = " ".join(p.detail for p in result.problems)
    assert "RuntimeError: boom" in details and "'bid 99'" in details and "'trump H'" in details
    logged = (tmp_path / "problems.jsonl").read_text().splitlines()
    assert len(logged) == len(result.problems)
    for rec, _ in replayed(tmp_path):  # the random legal stand-ins made legal records
        assert rec["format"] == "cinch/1"
    data = result.to_json()
    assert data["problems"]["a"]["crashed"] == counts["a"]["crashed"]
    assert "Illegal / crashed decisions" in result.to_markdown()


@pytest.mark.usefixtures("test_bots")
def test_broken_bot_against_itself_still_nets_zero():
    result = run_duplicate("test-cheater", "test-cheater", "official", deals=4, seed=4, workers=1)
    assert result.net_points_per_deal == 0.0
    assert result.counts["a"]["illegal"] == result.counts["b"]["illegal"] > 0


@pytest.mark.usefixtures("test_bots")
def test_throw_ins_and_new_stocks(tmp_path):
    # Stock-outs (the discards reshuffled into a new stock) and thrown-in deals, in self-play and against basic.
    same = run_duplicate("test-shy", "test-shy", "difference", deals=40, seed=5, workers=1, out_dir=tmp_path)
    assert same.net_points_per_deal == 0.0 and all(p.net == 0 for p in same.pairs)
    assert 0 < same.thrown_in() < same.deals
    assert any('"restock"' in f.read_text() for f in (tmp_path / "records").rglob("*.json"))
    other = run_duplicate("test-shy", "basic", "difference", deals=40, seed=5, workers=1)
    c = other.contracts()
    assert other.thrown_in() == 0  # basic always bids
    assert sum(c[s]["made"] + c[s]["set"] for s in "ab") == other.deals
    c = same.contracts()
    assert sum(c[s]["made"] + c[s]["set"] for s in "ab") == same.deals - same.thrown_in()


# ---------------------------------------------------------------------------
# Bot options
# ---------------------------------------------------------------------------
@pytest.mark.usefixtures("test_bots")
def test_bot_options_go_to_the_bots_that_take_them():
    assert bot_accepts(Budgeted, "time_budget") and not bot_accepts(bot_class("basic"), "time_budget")
    a, b, notes = split_bot_options("test-budgeted", "basic", {"simulations": 5}, time_budget=0.5)
    assert a == {"simulations": 5, "time_budget": 0.5} and b == {}
    assert notes == ["--bot-option simulations=5 goes to test-budgeted (A); basic (B) does not take it and plays "
                     "without it",
                     "--time-per-decision 0.5 goes to test-budgeted (A); basic (B) does not take it and plays "
                     "without it"]
    assert split_bot_options("test-budgeted", "test-budgeted", {"simulations": 5})[2] == []  # both take it
    a, b, notes = split_bot_options("basic", "random", {}, time_budget=0.5)
    assert a == b == {} and "time budget" in notes[0]
    with pytest.raises(CinchError, match="accepted by neither"):
        split_bot_options("basic", "random", {"simulations": 5})
    result = run_duplicate("test-budgeted", "basic", "pagat", deals=2, seed=1, workers=1,
                           options_a={"simulations": 5})
    assert result.to_json()["bot_options"] == {"a": {"simulations": 5}, "b": {}}
    assert "--bot-option simulations=5" in result.command
    with pytest.raises(CinchError, match="cannot be made"):
        run_duplicate("test-budgeted", "basic", "pagat", deals=1, workers=1, options_a={"simulations": 0})


def test_a_catch_all_constructor_takes_only_the_options_it_declares():
    # The heuristic takes **params, checked against its PARAMS: it does not take every option.
    from cinch.bots.heuristic import PARAMS

    heuristic = bot_class("heuristic")
    assert set(bot_options(heuristic)) == set(PARAMS)
    assert bot_accepts(heuristic, "trump_base") and not bot_accepts(heuristic, "time_budget")
    a, b, notes = split_bot_options("expert", "heuristic", {"worlds": 8}, time_budget=0.05)
    assert a == {"worlds": 8, "time_budget": 0.05} and b == {}
    assert notes == [
        "--bot-option worlds=8 goes to expert (A); heuristic (B) does not take it and plays without it",
        "--time-per-decision 0.05 goes to expert (A); heuristic (B) does not take it and plays without it"]
    a, b, notes = split_bot_options("basic", "heuristic", {"trump_base": 0.7})
    assert a == {} and b == {"trump_base": 0.7} and "goes to heuristic (B); basic (A)" in notes[0]
    with pytest.raises(CinchError, match="accepted by neither basic nor heuristic .*heuristic takes trump_base"):
        split_bot_options("basic", "heuristic", {"worlds": 8})


@pytest.mark.usefixtures("test_bots")
@pytest.mark.parametrize("a, b, options, message", [
    ("expert", "basic", {"time_budget": "abc"}, "bot option time_budget=abc: expert takes a number or none for "
                                                "time_budget"),
    ("expert", "heuristic", {"worlds": 8.5}, "bot option worlds=8.5: expert takes a whole number or none for worlds"),
    ("expert", "basic", {"search": True}, "bot option search=true: expert takes text for search"),
    ("basic", "heuristic", {"trump_base": "high"}, "bot option trump_base=high: heuristic takes a number for "
                                                   "trump_base"),
    ("test-budgeted", "basic", {"simulations": "many"}, "bot option simulations=many: test-budgeted takes a whole "
                                                        "number for simulations"),
    ("expert", "basic", {"seed": 3}, "bot option seed: the arena seeds every bot from --seed"),
])
def test_bot_option_values_are_checked_against_the_constructor(a, b, options, message):
    with pytest.raises(CinchError) as info:
        split_bot_options(a, b, options)
    assert str(info.value) == message or str(info.value).startswith(message)
    assert "TypeError" not in str(info.value) and "not supported between" not in str(info.value)


def test_bot_spec_check_refuses_options_the_bot_does_not_declare():
    with pytest.raises(CinchError, match="bot 'heuristic' does not take the option 'time_budget'"):
        run_duplicate("heuristic", "basic", "pagat", deals=1, workers=1, options_a={"time_budget": 0.1})
    with pytest.raises(CinchError, match="expert takes a number or none for time_budget"):
        run_duplicate("expert", "basic", "pagat", deals=1, workers=1, options_a={"time_budget": "abc"})


def test_a_missing_optional_dependency_names_the_extra_to_install(monkeypatch):
    # Without the rl extra, the OpenSpiel bot's module fails to import numpy.
    monkeypatch.delitem(BOTS, "openspiel-ismcts", raising=False)
    monkeypatch.delitem(sys.modules, "cinch.adapters.ismcts_bot", raising=False)
    monkeypatch.setitem(sys.modules, "numpy", None)  # import numpy now raises ImportError
    message = "bot 'openspiel-ismcts' needs a package that is not installed (numpy); pip install 'cinch[rl]'"
    with pytest.raises(CinchError) as info:
        bot_class("openspiel-ismcts")
    assert str(info.value) == message
    res = run_cli("openspiel-ismcts", "basic", "--deals", "1", "--workers", "1")
    assert res.exit_code == 2 and res.stderr.strip() == f"cinch: {message}"


def test_option_values():
    assert parse_option_value("200") == 200
    assert parse_option_value("0.25") == 0.25
    assert parse_option_value("true") is True and parse_option_value("None") is None
    assert parse_option_value("uct") == "uct"


def test_statistics_helpers():
    assert t975(1) == 12.706 and t975(30) == 2.042
    assert t975(31) == pytest.approx(2.0395, abs=2e-3) and t975(120) == pytest.approx(1.9799, abs=1e-3)
    assert t975(10**6) == pytest.approx(1.96, abs=1e-3)
    totals, counts = [4, -2, 6, 0, 2], [2] * 5
    mean, (low, high) = ratio_interval(totals, counts)
    means = [x / 2 for x in totals]
    assert mean == statistics.fmean(means)
    assert high - mean == pytest.approx(t975(4) * statistics.stdev(means) / math.sqrt(5))
    assert ratio_interval([3], [2]) == (1.5, (None, None))


# ---------------------------------------------------------------------------
# The command
# ---------------------------------------------------------------------------
def run_cli(*args: str):
    return CliRunner().invoke(main, ["arena", *args], catch_exceptions=False)


def test_cli_json(tmp_path):
    res = run_cli("basic", "random", "--rules", "difference", "--deals", "3", "--seed", "5", "--workers", "1",
                  "--out", str(tmp_path), "--json")
    assert res.exit_code == 0, res.stderr
    assert res.stdout.count("\n") == 1
    data = json.loads(res.stdout)
    assert isinstance(data["net_points_per_deal"], float)
    assert isinstance(data["ci95"], list) and len(data["ci95"]) == 2
    for key in ("contracts", "pedros", "thrown_in", "think_time_ms", "problems", "seed", "deals", "pairs",
                "bot_a", "bot_b", "rules", "matches"):
        assert key in data
    assert data["pairs"] == 3 and data["deals"] == 6 and data["rules"] == "difference"
    assert set(data["think_time_ms"]["a"]) >= {"p50", "p95", "max"}
    assert str(tmp_path) in res.stderr
    assert len(list((tmp_path / "records").rglob("*.json"))) == 6
    assert json.loads((tmp_path / "summary.json").read_text())["net_points_per_deal"] == data[
        "net_points_per_deal"]


def test_cli_markdown_and_self_play(tmp_path):
    res = run_cli("basic", "basic", "--deals", "4", "--seed", "1", "--workers", "2", "--out", str(tmp_path),
                  "--rules", "difference", "-o", "target=42", "--no-records")
    assert res.exit_code == 0, res.stderr
    text = res.stdout
    assert "| --- | ---: | ---: |" in text and "**0.00**" in text
    assert "`cinch arena basic basic --rules difference -o target=42 --deals 4 --seed 1`" in text
    assert not (tmp_path / "records").exists() and (tmp_path / "summary.json").exists()
    res = run_cli("basic", "basic", "--deals", "4", "--seed", "1", "--workers", "1", "--out", str(tmp_path),
                  "--json", "--time-per-decision", "0.1")
    assert json.loads(res.stdout)["net_points_per_deal"] == 0.0
    assert "time budget" in res.stderr


def test_cli_options_go_to_the_bot_that_declares_them_with_a_note(tmp_path):
    res = run_cli("expert", "heuristic", "--deals", "1", "--workers", "1", "--seed", "2", "--json",
                  "--time-per-decision", "0.01", "--bot-option", "worlds=2", "--out", str(tmp_path))
    assert res.exit_code == 0, res.stderr
    assert json.loads(res.stdout)["bot_options"] == {"a": {"worlds": 2, "time_budget": 0.01}, "b": {}}
    notes = [line for line in res.stderr.splitlines() if line.startswith("cinch: note: ")]
    assert notes == [
        "cinch: note: --bot-option worlds=2 goes to expert (A); heuristic (B) does not take it and plays without it",
        "cinch: note: --time-per-decision 0.01 goes to expert (A); heuristic (B) does not take it and plays "
        "without it"]


def test_cli_default_out_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = run_cli("random", "basic", "--deals", "1", "--workers", "1", "--json")
    assert res.exit_code == 0, res.stderr
    (folder,) = (tmp_path / "arena-out").iterdir()
    assert folder.name.endswith("-random-vs-basic")
    assert json.loads(res.stdout)["ci95"] == [None, None]  # one pair: no interval
    assert isinstance(json.loads(res.stdout)["seed"], int)


def test_cli_matches_n(tmp_path):
    res = run_cli("basic", "random", "--rules", "difference", "--matches", "2", "--seed", "3", "--workers", "1",
                  "--out", str(tmp_path), "--json")
    assert res.exit_code == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["mode"] == "matches" and data["pairs"] == 2
    m = data["matches"]
    assert m["played"] == 4 and m["a_wins"] + m["b_wins"] + m["unfinished"] == 4
    assert m["ci95_method"] == "wilson" and 0 <= m["ci95"][0] <= m["win_rate_a"] <= m["ci95"][1] <= 1
    assert m["average_deals"] == pytest.approx(data["deals"] / 4)
    assert data["command"].endswith("--matches 2 --seed 3")
    assert len(list((tmp_path / "records").rglob("*.json"))) == 4
    # The same seed repeats the run; --matches alone (as before it took a number) counts the pairs from --deals.
    again = run_cli("basic", "random", "--rules", "difference", "--deals", "2", "--matches", "--seed", "3",
                    "--workers", "2", "--out", str(tmp_path / "again"), "--json")
    assert again.exit_code == 0, again.stderr
    assert json.loads(again.stdout)["matches"] == m
    text = run_cli("basic", "random", "--rules", "difference", "--matches", "2", "--seed", "3", "--workers", "1",
                   "--out", str(tmp_path / "md"), "--no-records").stdout
    assert "Match win rate for basic" in text and "95% Wilson interval" in text


def test_cli_score(tmp_path):
    res = run_cli("heuristic", "basic", "--deals", "3", "--seed", "2", "--workers", "1", "--score", "58-40",
                  "--out", str(tmp_path), "--json")
    assert res.exit_code == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["start_score"] == [58, 40] and data["mode"] == "deals" and data["deals"] == 6
    assert data["match_ends"]["ended"] == data["match_ends"]["a_wins"] + data["match_ends"]["b_wins"]
    assert "--score 58-40" in data["command"]
    md = run_cli("heuristic", "basic", "--deals", "3", "--seed", "2", "--workers", "1", "--score", "58:40",
                 "--out", str(tmp_path / "md"), "--no-records")
    assert "at 58\u201340" in md.stdout and "ended the match in" in md.stdout


@pytest.mark.parametrize("args, message", [
    (["basic", "random", "--matches", "ten"], "--matches takes the number of match pairs, as in --matches 50, not "
                                              "'ten'"),
    (["basic", "random", "--matches", "0"], "--matches must be at least 1, not 0"),
    (["basic", "random", "--deals", "5", "--matches", "3"], "--deals 5 and --matches 3 both say how many pairs"),
    (["--matches", "basic", "random"], "--matches takes the number of match pairs"),
    (["basic", "random", "--score", "48"], "--score '48': write the two sides' scores as A-B"),
    (["basic", "random", "--score", "62-0"], "score 62-0: A's side has reached the target (62)"),
    (["basic", "random", "--rules", "difference", "--score", "3-51"], "B's side has reached the target (51)"),
    (["basic", "random", "--score", "3-4", "--matches", "2"], "--score is for single deals"),
])
def test_cli_new_options_refuse_bad_input_in_one_line(tmp_path, args, message):
    res = run_cli(*args, "--out", str(tmp_path / "out"))
    assert res.exit_code == 2 and res.stdout == ""
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cinch: ") and message in lines[0]
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("args, message", [
    (["nobot", "random"], "unknown bot 'nobot'"),
    (["basic", "random", "--rules", "bridge"], "unknown preset 'bridge'"),
    (["basic", "random", "-o", "target=abc"], "target"),
    (["basic", "random", "-o", "colour=red"], "colour"),
    (["basic", "random", "--deals", "0"], "--deals must be at least 1"),
    (["basic", "random", "--deals", "ten"], "'ten' is not a valid integer"),
    (["basic", "random", "--workers", "0"], "--workers must be at least 1"),
    (["basic", "random", "--bot-option", "simulations"], "KEY=VALUE"),
    (["basic", "random", "--bot-option", "simulations=20"], "accepted by neither"),
    (["basic", "random", "--time-per-decision", "0"], "positive"),
    (["expert", "basic", "--deals", "1", "--bot-option", "time_budget=abc"],
     "cinch: bot option time_budget=abc: expert takes a number or none for time_budget"),
    (["expert", "heuristic", "--deals", "1", "--workers", "1", "--time-per-decision", "0.01", "--bot-option",
      "trump_base=x"], "heuristic takes a number for trump_base"),
    (["expert", "heuristic", "--deals", "1", "--workers", "1", "--bot-option", "no_such=3"],
     "bot option 'no_such' is accepted by neither expert nor heuristic (expert takes time_budget, worlds"),
    (["basic"], "Missing argument"),
])
def test_cli_errors_are_one_line(tmp_path, args, message):
    res = run_cli(*args, "--out", str(tmp_path / "out"))
    assert res.exit_code == 2
    assert res.stdout == ""
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cinch: ") and message in lines[0]
    assert not (tmp_path / "out").exists()


RECORDS = Path(__file__).parent / "records"


def test_the_left_bower_counts_as_a_pedro():
    # tests/records/official-bowers.json: NS take the left bower (trick 2) and the right Pedro (trick 5).
    game = replay(loads((RECORDS / "official-bowers.json").read_text(encoding="utf-8")))
    result = game.match.summaries[0].result
    assert {a.name for a in result.awards if a.points == 5} == {"Right Pedro", "Left Bower"}
    ns, ew = DealStat.of(result, Team.NS), DealStat.of(result, Team.EW)
    assert (ns.pedros_a, ns.pedros_b) == (2, 0) and (ew.pedros_a, ew.pedros_b) == (0, 2)


def test_the_arena_counts_every_five_point_card_under_bowers(tmp_path):
    rules = Rules.preset("pagat").with_options(bowers=True)
    result = run_duplicate("basic", "random", rules, deals=4, seed=5, workers=1, out_dir=tmp_path)
    captured = lost = bowers = 0
    for path in sorted((tmp_path / "records").rglob("*.json")):
        record = loads(path.read_text(encoding="utf-8"))
        a_team = Team[record["arena"]["a_seats"]]
        r = replay(record).match.summaries[0].result
        if r.thrown_in:
            continue
        # the 5-point cards of the deal, by the rules' own point table (not by their names)
        fives = {c for _, c, points in PointTable.of(rules, r.trump).captured_cards if points == 5}
        bowers += sum(1 for a in r.awards if a.name == "Left Bower")
        for award in r.awards:
            if award.card in fives:
                captured += award.team == a_team
                lost += award.team != a_team
    assert result.to_json()["pedros"] == {"captured_by_a": captured, "lost_by_a": lost}
    assert bowers > 0  # (the count would differ if the left bower were left out)


# ---------------------------------------------------------------------------
# Cut-throat tables: A in one seat, B in all the others, the deck replayed with A in every seat
# ---------------------------------------------------------------------------
def cut_throat(players: int, preset: str = "difference") -> Rules:
    return Rules.preset(preset).with_options(players=players)


def test_the_rotation_gives_each_bot_each_seat_at_a_cut_throat_table(tmp_path):
    result = run_duplicate("basic", "random", cut_throat(3), deals=3, seed=4, workers=1, out_dir=tmp_path)
    for p in result.pairs:
        assert [leg.a_seats for leg in p.legs] == ["1", "2", "3"]
        records = [loads((tmp_path / leg.record).read_text(encoding="utf-8")) for leg in p.legs]
        assert len({rec["deals"][0]["deck"] for rec in records}) == 1  # one deck, played three times
        assert {rec["deals"][0]["dealer"] for rec in records} == {str(p.index % 3 + 1)}
        for seat, rec in zip("123", records):
            # A sits in the leg's seat, B in both others: over the set each bot sits in every seat.
            assert rec["players"] == {s: "basic (A)" if s == seat else "random (B)" for s in "123"}
    assert result.deals == 9


def test_the_cut_throat_net_is_a_against_the_mean_of_the_others(tmp_path):
    result = run_duplicate("heuristic", "random", cut_throat(3), deals=2, seed=7, workers=1, out_dir=tmp_path)
    net = 0.0
    for p in result.pairs:
        for leg in p.legs:
            rec = loads((tmp_path / leg.record).read_text(encoding="utf-8"))
            change = replay(rec).match.deals[0].result.score_change
            a = int(leg.a_seats) - 1
            net += change[a] - sum(c for s, c in enumerate(change) if s != a) / 2
    assert result.net_points_per_deal == pytest.approx(net / 6)


@pytest.mark.parametrize("players", [2, 3, 5, 6])
def test_a_bot_against_itself_nets_exactly_zero_at_every_table(players):
    result = run_duplicate("heuristic", "heuristic", cut_throat(players, "pagat"), deals=3, seed=5, workers=1)
    assert result.net_points_per_deal == 0.0 and all(p.net == 0 for p in result.pairs)
    assert all(len(p.legs) == players for p in result.pairs)


def test_cut_throat_matches_are_played_in_every_seat():
    result = run_matches("heuristic", "random", cut_throat(3, "pagat"), matches=1, seed=2, workers=1)
    m = result.match_figures()
    assert m is not None and m["played"] == 3 and m["a_wins"] + m["b_wins"] + m["unfinished"] == 3
    assert m["effective_matches"] <= 3
    assert "fair share of 33.3%" in result.to_markdown()


def test_cli_plays_a_cut_throat_table_and_refuses_a_start_score_there(tmp_path):
    res = run_cli("heuristic", "basic", "-o", "players=3", "--deals", "2", "--seed", "3", "--workers", "1",
                  "--out", str(tmp_path), "--json")
    assert res.exit_code == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["deals"] == 6 and data["pairs"] == 2
    assert "-o players=3" in data["command"]
    res = run_cli("heuristic", "basic", "-o", "players=5", "--score", "10-3", "--deals", "2", "--out", str(tmp_path))
    assert res.exit_code == 2 and res.stderr.count("\n") == 1
    assert "start score is for two sides" in res.stderr
