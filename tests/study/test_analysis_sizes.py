"""Game analysis at cut-throat tables: the golden three- and five-player records judged with small searches.

The loss is in the expert's cut-throat terms: the player's own score change less the average
of the others'.  Two to six worlds a decision keep the file to a few seconds.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from click.testing import CliRunner

from cinch.cli import main
from cinch.server import replays
from cinch.study.analysis import (
    Mark,
    Settings,
    analyze,
    deal_specs,
    deal_value,
    decision_steps,
    judge,
    load_match,
    summarise,
)

RECORDS = Path(__file__).parent.parent / "records"
THREE = RECORDS / "official-three-players.json"
FIVE = RECORDS / "additive-five-players.json"


def record(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def test_every_player_of_a_three_player_game_gets_his_figures():
    match = load_match(record(THREE))
    analysis = analyze(match, Settings(worlds=2))
    summaries = analysis.summaries()
    assert [(str(s.seat), s.name) for s in summaries] == [("1", "Ann"), ("2", "basic"), ("3", "Cy")]
    judged = analysis.judgements
    assert len(judged) == sum(len(decision_steps(spec)) for spec in deal_specs(match))
    for s in summaries:
        mine = [j for j in judged if j.seat == s.seat and j.searched]
        assert s.decisions == len(mine) > 0 and s.accuracy is not None and 0 < s.accuracy <= 100
    data = analysis.to_json()
    assert list(data["seats"]) == ["1", "2", "3"] and data["players"] == {"1": "Ann", "2": "basic", "3": "Cy"}
    assert data["deals"][0]["dealer"] == "3" and {j["seat"] for j in data["deals"][0]["judgements"]} == {"1", "2", "3"}


def test_the_par_of_a_cut_throat_card_is_in_the_player_s_points_against_the_others():
    # Deal 1: 2 bids 7 in hearts and takes 2 (set: -7); 1 takes 12 and 3 nothing. On trick 3, 1 leads the
    # K♥, which takes the left Pedro from 3; the 9♥ would let the maker's 10♥ win it, and the maker make his bid.
    data = record(THREE)
    deal = data["deals"][0]
    before = deal["actions"][:10]
    blunder = {**data, "deals": [{**deal, "actions": [*before, "play 9H"]}]}
    judged = judge(deal_specs(load_match(blunder))[0], 11, Settings(worlds=2))
    assert judged.par is not None and judged.par.best_cards == ("KH",)
    assert judged.par.best - judged.par.played == 20  # his 12 less the others' average of -3.5, or 7 less 7
    assert judged.par.best == 14.5 and "double-dummy -5.5, the best +14.5 with K♥*" in judged.text()
    # The last card with a choice is worth, double-dummy, what the deal's settlement gave (the rest was forced).
    spec = deal_specs(load_match(data))[0]
    last = judge(spec, decision_steps(spec)[-1], Settings(worlds=2))
    table = spec.table
    points = (12, 2, 0)  # by player, as the record's result says
    assert last.par is not None
    assert last.par.played == deal_value(spec.game_rules, last.seat, table.parse_seat("2"), 7, points)


def test_a_five_player_maker_naming_the_wrong_trump_is_marked_a_blunder():
    # 3 holds Q♥ J♥ 5♥ A♦ K♦ Q♦ and names hearts: in diamonds the 5♥ is his too (the left Pedro).
    spec = deal_specs(load_match(record(FIVE)))[0]
    judged = judge(spec, 6, Settings(worlds=6))
    assert str(judged.seat) == "3" and judged.phase == "trump" and judged.mark is Mark.BLUNDER
    assert str(judged.best) == "trump D" and "better: diamonds as trumps" in judged.text()
    figures = summarise(judged.seat, "", [judged])
    assert figures.marks[Mark.BLUNDER] == 1 and figures.accuracy is not None and figures.accuracy < 20


def test_a_five_player_card_has_a_par_only_in_the_last_four_tricks():
    spec = deal_specs(load_match(record(FIVE)))[0]
    table = spec.table
    assert [str(s) for s in table.seats] == ["1", "2", "3", "4", "5"]
    # The first card with a choice on trick 2 (five tricks left) and on trick 3 (four left).
    firsts = {}
    for step, deal, _ in spec.positions():
        if deal.tricks and len(deal.legal_actions()) > 1:
            firsts.setdefault(len(deal.tricks) + 1, step)
    early, late = (judge(spec, firsts[trick], Settings(worlds=2)) for trick in (2, 3))
    assert (early.trick, late.trick) == (2, 3) and early.par is None and late.par is not None


def test_the_command_and_the_replay_viewer_analyse_a_three_player_game(tmp_path):
    result = CliRunner().invoke(main, ["analyze", str(THREE), "--worlds", "2", "--workers", "1", "--deal", "2"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "your own score change less the average of the others'" in out and "Deal 2: 1 dealt." in out
    rows = [line.split() for line in out.splitlines() if line.startswith("│")]
    assert [row[1:4:2] for row in rows] == [["1", "Ann"], ["2", "basic"], ["3", "Cy"]]
    spec = replays.analysis_spec(record(THREE), 2)  # the viewer's "Analyse this deal" (deal 2: three calls)
    data = asyncio.run(replays.analyse(spec, None, Settings(worlds=2)))
    assert data["status"] == "done" and data["dealer"] == "1" and len(data["judgements"]) == 3
    assert {seat: figures["name"] for seat, figures in data["seats"].items()} == {"1": "Ann", "2": "basic", "3": "Cy"}
