"""Variant statistics (``cinch.study.variants``, ``cinch study``): the figures add up, the run repeats, the report."""

from __future__ import annotations

import json
import math

import pytest
from click.testing import CliRunner

from cinch import Rules, Seat
from cinch.bots import make_bot
from cinch.cli import main
from cinch.deal import Deal
from cinch.errors import CinchError
from cinch.study.variants import (
    PLOTS,
    POSITIONS,
    StudyResult,
    award_seat,
    parse_rule_set,
    render_html,
    report_blocks,
    rule_set_label,
    run_study,
    write_report,
)

RULE_SETS = ("pagat", "pagat,all_pass=throw-in", "difference,sancho=true")
DEALS = 30
RUN_DEPENDENT = ("elapsed_s", "workers", "backend")


def outcome(study: StudyResult) -> dict:
    data = study.to_json()
    for key in RUN_DEPENDENT:
        data.pop(key)
    return data


@pytest.fixture(scope="module")
def study() -> StudyResult:
    return run_study([parse_rule_set(r) for r in RULE_SETS], deals=DEALS, seed=5, workers=1)


# ---------------------------------------------------------------------------
# The figures add up
# ---------------------------------------------------------------------------
def test_each_rule_set_plays_the_shortest_run_of_whole_matches_that_reaches_the_deals(study):
    for f in study.figures:
        assert [m.index for m in f.matches] == list(range(len(f.matches)))
        assert f.deals >= DEALS
        assert f.deals - len(f.matches[-1].deals) < DEALS  # one match fewer would not have been enough
        for m in f.matches:
            assert m.winner is not None
            # The match's score is the sum of its deals' score changes.
            assert tuple(sum(d.change[side] for d in m.deals) for side in (0, 1)) == m.score
            assert [d.dealer for d in m.deals] == [(m.index + k) % 4 for k in range(len(m.deals))]


def test_rates_lie_between_0_and_1_and_the_counts_add_up(study):
    for f in study.figures:
        data = f.to_json()
        c = data["contracts"]
        assert 0.0 <= c["make_rate"] <= 1.0
        assert c["contracts"] + data["throw_in"]["count"] == data["deals"]
        assert sum(b["of"] for b in c["by_bid"]) == c["contracts"]
        assert sum(b["count"] for b in c["by_bid"]) == c["made"]
        for b in c["by_bid"]:
            assert 0.0 <= b["ci95"][0] <= b["rate"] <= b["ci95"][1] <= 1.0
        low, high = c["winning_bid"]["ci95"]
        assert low <= c["winning_bid"]["mean"] <= high
        assert f.rules.min_bid <= c["winning_bid"]["mean"] <= f.rules.highest_bid
        seats = data["seats"]
        assert sum(s["won_the_bid"]["count"] for s in seats.values()) == c["contracts"]
        assert sum(s["made"]["count"] for s in seats.values()) == c["made"]


def test_every_point_is_explained_by_a_point_card(study):
    for f in study.figures:
        data = f.to_json()
        contracts = data["contracts"]["contracts"]
        cards = data["point_cards"]
        for name, card in cards.items():
            # Each point card scored for one seat, or for nobody, in every deal with a contract.
            assert card["scored"] + card["not_scored"] == contracts, name
            assert sum(card["by_position"].values()) == card["scored"] == card["makers"] + card["defenders"]
        scored = sum(card["scored"] * card["points"] for card in cards.values())
        unscored = sum(card["not_scored"] * card["points"] for card in cards.values())
        assert scored + unscored == contracts * f.rules.total_points
        taken = data["points_per_deal"]["taken"]
        assert math.isclose(taken["all"]["mean"] * contracts, scored)
        assert math.isclose((taken["makers"]["mean"] + taken["defenders"]["mean"]) * contracts, scored)
        per_seat = sum(s["card_points_per_deal"]["mean"] for s in data["seats"].values())
        assert math.isclose(per_seat * contracts, scored)


def test_the_dealers_side_net_is_the_seats_score_changes(study):
    for f in study.figures:
        net = sum(d.change[d.dealer & 1] - d.change[(d.dealer & 1) ^ 1] for d in f.all_deals)
        assert math.isclose(f.dealer_figures()["net_per_deal"]["mean"] * f.deals, net)


def test_sancho_and_throw_ins_show_where_they_should(study):
    pagat, throw_in, sancho = (f.to_json() for f in study.figures)
    assert pagat["throw_in"]["count"] == 0  # the stuck dealer bids
    assert throw_in["throw_in"]["count"] > 0
    assert "Sancho" in sancho["point_cards"] and "Sancho" not in pagat["point_cards"]
    assert sancho["points_per_deal"]["points_in_a_deal"] == 23


def test_match_length(study):
    for f in study.figures:
        m = f.match_figures()
        hist = {int(k): v for k, v in m["histogram"].items()}
        assert sum(hist.values()) == m["finished"] == len(f.matches)
        assert math.isclose(sum(k * v for k, v in hist.items()) / m["finished"], m["deals"]["mean"])
        assert m["min"] <= m["median"] <= m["max"]


def test_a_point_card_scores_for_the_seat_that_took_it():
    for rules in (Rules.preset("pagat"), Rules.preset("official")):
        for dealer in Seat:
            deal = Deal.shuffled(rules, dealer, rng=int(dealer))
            bot = make_bot("heuristic", seed=1)
            while not deal.is_over:
                deal.apply(bot.choose(deal.view(deal.to_act)))
            assert deal.result is not None
            for award in deal.result.awards:
                seat = award_seat(deal, award)
                assert seat.team == award.team
                if award.how == "captured":
                    assert any(t.winner == seat and award.card in t.cards for t in deal.tricks)


# ---------------------------------------------------------------------------
# The same seed, the same figures
# ---------------------------------------------------------------------------
def test_same_figures_on_any_number_of_workers(study):
    again = run_study([parse_rule_set(r) for r in RULE_SETS], deals=DEALS, seed=5, workers=2)
    assert outcome(again) == outcome(study)


def test_another_seed_deals_other_cards(study):
    other = run_study([parse_rule_set(RULE_SETS[0])], deals=DEALS, seed=6, workers=1)
    assert other.figures[0].to_json() != study.figures[0].to_json()


def test_exact_number_of_matches():
    study = run_study(["pagat"], deals=None, matches=2, seed=5, workers=1)
    assert len(study.figures[0].matches) == 2
    assert "--matches 2" in study.command


# ---------------------------------------------------------------------------
# Rule sets
# ---------------------------------------------------------------------------
def test_rule_sets_from_the_command_line():
    rules = parse_rule_set("difference, target=62 ,sancho=true", ["follow=strict"])
    assert (rules.preset_name, rules.target, rules.sancho, rules.follow.value) == ("difference", 62, True, "strict")
    assert parse_rule_set(rule_set_label(rules)) == rules
    assert rule_set_label(Rules.preset("pagat")) == "pagat"


@pytest.mark.parametrize("text, message", [
    ("", "start with a preset"),
    ("pagat,,target=60", "empty option"),
    ("pagat,target", "KEY=VALUE"),
    ("nosuch", "unknown preset"),
])
def test_bad_rule_sets_are_refused(text, message):
    with pytest.raises(CinchError, match=message):
        parse_rule_set(text)


def test_a_rule_set_given_twice_is_refused():
    with pytest.raises(CinchError, match="given twice"):
        run_study(["pagat", Rules.preset("pagat")], deals=5, workers=1)


# ---------------------------------------------------------------------------
# The report and the command
# ---------------------------------------------------------------------------
def test_report_files(study, tmp_path):
    path = write_report(study, tmp_path / "md")
    text = path.read_text(encoding="utf-8")
    for label in RULE_SETS:
        assert f"| {label} " in text or f"**{label}**" in text
    for plot in PLOTS:
        assert f"]({plot})" in text
        assert (tmp_path / "md" / plot).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert json.loads((tmp_path / "md" / "figures.json").read_text())["format"] == "cinch-study/1"
    html = render_html(report_blocks(study))  # the same blocks as the Markdown (the command writes it: below)
    assert html.startswith("<!doctype html>") and html.count("<table>") >= 4 and 'src="seats.png"' in html
    assert "<script" not in render_html([("p", "<script>x</script>")])


def test_cli_json(tmp_path):
    result = CliRunner().invoke(main, ["study", "--rules", "pagat", "--rules", "difference,target=62", "--deals",
                                       "12", "--seed", "3", "--workers", "1", "--out", str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["format"] == "cinch-study/1" and data["seed"] == 3 and data["bot"] == "heuristic"
    assert [r["label"] for r in data["rule_sets"]] == ["pagat", "difference,target=62"]
    first = data["rule_sets"][0]
    assert set(first) >= {"throw_in", "contracts", "points_per_deal", "point_cards", "seats", "dealer",
                          "match_length"}
    assert set(first["seats"]) == set(POSITIONS)
    assert (tmp_path / "report.md").exists() and (tmp_path / "bidding.png").exists()
    assert data["command"].startswith("cinch study --rules pagat --rules difference,target=62 --deals 12")


def test_cli_markdown_and_html(tmp_path):
    runner = CliRunner()
    md = runner.invoke(main, ["study", "--deals", "5", "--seed", "1", "--workers", "1", "--out", str(tmp_path / "a"),
                              "--bot", "basic"])
    assert md.exit_code == 0, md.output
    assert md.stdout.startswith("# Variant statistics: 1 rule set, basic self-play")
    html = runner.invoke(main, ["study", "--deals", "5", "--seed", "1", "--workers", "1", "--out",
                                str(tmp_path / "b"), "--bot", "basic", "--format", "html"])
    assert html.exit_code == 0, html.output
    assert html.stdout == "" and (tmp_path / "b" / "report.html").exists()


@pytest.mark.parametrize("args, message", [
    (["--rules", "pagat,target=x"], "target"),
    (["--rules", "pagat", "--rules", "pagat,target=62"], "given twice"),
    (["--deals", "0"], "at least 1"),
    (["--deals", "5", "--matches", "2"], "give one"),
    (["--bot", "nosuch"], "unknown bot"),
    (["--bot-option", "simulations=3"], "does not take"),
    (["--workers", "0"], "at least 1"),
    (["--address", "auto", "--backend", "process"], "--backend ray"),
    (["--backend", "spark"], "'spark' is not one of"),
])
def test_cli_errors_are_one_line(tmp_path, args, message):
    result = CliRunner().invoke(main, ["study", "--out", str(tmp_path), *args])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cinch: ") and message in lines[0], result.stderr
