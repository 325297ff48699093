"""The arena's "Pedros captured" under all-hands Pedro (``bowers``): the 5-point cards, that is the right
Pedro and the left bower, which replaces the left Pedro (the other five is a plain card and scores nothing)."""

from __future__ import annotations

from pathlib import Path

from cinch import Rules, Team
from cinch.arena import DealStat, run_duplicate
from cinch.record import loads, replay
from cinch.scoring import PointTable

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
