"""``cinch study`` at cut-throat tables: a rule set with ``players=N`` is studied by player, beside the
partnership game, and the report says so."""

from __future__ import annotations

import json
import math
import re
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from cinch.cli import main
from cinch.study.variants import (
    StudyResult,
    parse_rule_set,
    position_words,
    positions,
    render_markdown,
    report_blocks,
    run_study,
    write_plots,
    write_report,
)


@pytest.fixture(scope="module")
def study() -> StudyResult:
    rule_sets = [parse_rule_set("official,players=3"), parse_rule_set("official")]
    return run_study(rule_sets, deals=None, matches=2, seed=4, bot="basic", workers=1)


def test_a_three_player_rule_set_counts_its_three_seats_from_the_dealer(study):
    three, four = study.figures
    assert three.positions == ("dealer", "left", "right") and four.positions == ("dealer", "left", "partner", "right")
    assert list(three.seat_figures()) == ["dealer", "left", "right"]
    for d in three.all_deals:
        assert d.players == 3 and len(d.points) == len(d.change) == 3
    contracts = three.contract_figures()["contracts"]
    won = sum(s["won_the_bid"]["count"] for s in three.seat_figures().values())
    assert won == contracts > 0  # every contract was won by one of the three seats


def test_point_cards_score_for_the_maker_alone_or_a_defender(study):
    three = study.figures[0]
    for name, card in three.card_figures().items():
        assert card["makers"] + card["defenders"] == card["scored"] == sum(card["by_position"].values()), name
        assert set(card["by_position"]) == {"dealer", "left", "right"}


def test_defenders_are_counted_per_defender_and_the_dealer_against_the_others_mean(study):
    three = study.figures[0]
    deals = [d for d in three.contracts]
    assert deals
    expected = math.fsum(d.defenders_mean(d.points) for d in deals) / len(deals)
    assert three.point_figures()["taken"]["defenders"]["mean"] == pytest.approx(expected)
    for d in deals:
        maker = d.maker_side
        others = [p for i, p in enumerate(d.points) if i != maker]
        assert d.defenders_mean(d.points) == pytest.approx(sum(others) / 2)
    nets = [d.change[d.dealer] - (sum(d.change) - d.change[d.dealer]) / 2 for d in three.all_deals]
    assert three.dealer_figures()["net_per_deal"]["mean"] == pytest.approx(math.fsum(nets) / len(nets))
    winners = [m.winner for m in three.matches]
    assert all(w in (0, 1, 2) for w in winners)  # a player, not a partnership


def test_the_report_speaks_of_players_only_when_a_table_is_cut_throat(study, tmp_path):
    text = render_markdown(report_blocks(study))
    assert "every seat" in text and "each player is his own side" in text
    # The defenders' figure is the pair's in the four-player column and per defender in the three-player one.
    assert "defenders (the pair's at four players, per defender at the others) |" in text
    assert "defenders (per defender)" not in text
    three_only = render_markdown(report_blocks(replace(study, figures=study.figures[:1])))
    assert "points taken per contract: defenders (per defender) |" in three_only
    three_table = text.split("**official,players=3**")[1].split("**official**")[0]
    assert "dealer's right" in three_table and "partner" not in three_table
    four_only = run_study([parse_rule_set("official")], deals=None, matches=1, seed=4, bot="basic", workers=1)
    plain = render_markdown(report_blocks(four_only))
    assert "all four seats" in plain and "per defender" not in plain and "his own side" not in plain
    path = write_report(study, tmp_path)
    assert path.exists() and (tmp_path / "seats.png").stat().st_size > 0


def test_the_bidding_plot_marks_whole_bids_only(study, tmp_path, monkeypatch):
    from matplotlib.figure import Figure

    drawn: dict[str, Figure] = {}
    save = Figure.savefig

    def keep(fig, path, *args, **kwargs):
        drawn[Path(path).name] = fig
        return save(fig, path, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", keep)
    write_plots(study, tmp_path)
    for ax in drawn["bidding.png"].axes:  # the winning bids and the make rate per bid: once 1.5, 2.5 ...
        labels = [t.get_text() for t in ax.get_xticklabels()]
        assert labels and all(re.fullmatch(r"\d+", label) for label in labels), labels


def test_the_command_compares_three_and_four_players(tmp_path):
    result = CliRunner().invoke(main, ["study", "--rules", "official,players=3", "--rules", "official", "--matches",
                                       "1", "--bot", "basic", "--seed", "2", "--workers", "1", "--out",
                                       str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [r["label"] for r in data["rule_sets"]] == ["official,players=3", "official"]
    assert list(data["rule_sets"][0]["seats"]) == ["dealer", "left", "right"]
    assert data["command"].startswith("cinch study --rules official,players=3 --rules official --matches 1")


def test_positions_at_every_table_size():
    assert positions(2) == ("dealer", "left")
    assert positions(5) == ("dealer", "left", "left2", "left3", "right")
    assert position_words("left2") == "2nd to the dealer's left" and position_words("partner") == "dealer's partner"
