"""``cinch train``: a tiny model trained end to end in seconds, from data valued by a cheap expert to a bot that plays.

The strength of the shipped weights is measured by the benchmarks (docs/strength.md), not here.
"""

from __future__ import annotations

import gzip
import json
import sqlite3
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from cinch import Deal, Rules, Seat
from cinch.actions import parse_action
from cinch.bots import make_bot
from cinch.neural import models
from cinch.neural.features import KINDS, PRESETS, encode
from cinch.study.dataset import (
    SelfPlay,
    match_rows,
    play_self,
    read_rows,
    row_view,
    self_play_rows,
    view_columns,
)
from cinch.study.learning import (
    MEMBERS,
    DataPlan,
    FitConfig,
    LearningError,
    fit,
    load_samples,
    make_data,
)
from helpers import one_line_error as one_error
from helpers import run_cinch as cinch

ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT / "tests" / "records"
TINY = FitConfig(hidden=tuple((kind, (16,)) for kind in KINDS), epochs=2, seed=1, slot_head=(("play", 4), ("keep", 4)),
                 members=(("play", 2),))
PLAN = DataPlan(deals=5, seed=1, worlds=1, playouts=2)  # one deal a preset, valued by a cheap expert




@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """The tiny pipeline, once: the data of five deals, a fit of two epochs, the weights and the report."""
    out = tmp_path_factory.mktemp("train")
    summary = make_data(out, PLAN, workers=1)
    report = fit(out, out / "weights", TINY, workers=1, command="cinch train (test)")
    return out, summary, report


def test_a_tiny_model_trained_end_to_end_plays_a_legal_deal(trained):
    out, summary, report = trained
    assert summary.deals == 5 and summary.rows > 50
    for name in ("curves.png", "summary.md", "summary.json"):
        assert (out / "report" / name).stat().st_size > 0
    bots = [make_bot("neural", seed=i, weights=str(out / "weights")) for i in range(4)]
    for preset in ("pagat", "official"):
        deal = Deal.shuffled(Rules.preset(preset), Seat.E, rng=7)
        while not deal.is_over:
            seat = deal.to_act
            deal.apply(bots[seat].choose(deal.view(seat)))  # an illegal action would raise
        assert deal.result is not None and all(b.fallback is None for b in bots)


def test_the_rows_carry_the_expert_values_and_every_hand(trained):
    out, _, _ = trained
    rows = [r for f in sorted((out / "data").glob("*.jsonl.gz")) for r in read_rows(str(f))]
    assert {r["phase"] for r in rows} >= {"bidding", "trump", "play"}
    assert {json.loads(r["rules"]) if r["rules"].startswith("{") else r["rules"] for r in rows} == set(PRESETS)
    searched = [r for r in rows if r["candidates"]]
    assert searched and not any(r["forced"] for r in rows)
    for row in rows:
        view = row_view(row)
        assert parse_action(row["expert_choice"]) in view.legal
        assert len(row["values"]) == len(row["candidates"]) and row["value_unit"] in ("points", "%")
        assert row["hidden_hands"][Seat[row["seat"]]] == row["hand"]
        if row["player"] == "expert":  # the labelling expert played its own choice
            assert row["choice"] == row["expert_choice"]


def test_the_same_plan_writes_the_same_bytes_and_a_stopped_run_goes_on(tmp_path):
    plan = DataPlan(deals=2, seed=4, worlds=1, playouts=2, chunk=1)
    make_data(tmp_path / "a", plan, workers=1)
    first = {f.name: f.read_bytes() for f in (tmp_path / "a" / "data").glob("*.jsonl.gz")}
    assert len(first) == 2
    gone = sorted(first)[0]
    (tmp_path / "a" / "data" / gone).unlink()
    again = make_data(tmp_path / "a", plan, workers=1)
    assert again.reused == 1 and again.deals == 2
    assert {f.name: f.read_bytes() for f in (tmp_path / "a" / "data").glob("*.jsonl.gz")} == first
    with pytest.raises(LearningError, match="another plan"):
        make_data(tmp_path / "a", DataPlan(deals=2, seed=5, worlds=1, playouts=2, chunk=1), workers=1)


def test_the_first_rounds_decks_are_those_the_shipped_weights_learned_from():
    plan = DataPlan(deals=5, seed=26)
    assert plan.spec("official", "expert", 1).seed == 8135625113873475076
    assert plan.spec("official", "heuristic", 1).seed == 6212074673662253115
    assert DataPlan.from_json({"deals": 5, "seed": 26}) == plan  # a plan written before rounds reads the same


def test_a_later_round_is_the_neural_bots_own_play_labelled_by_the_expert(trained, tmp_path):
    out, _, _ = trained
    later = DataPlan(deals=5, seed=1, worlds=1, playouts=2, round=2, weights=str(out / "weights"))
    assert later.folder == "data-2" and {bots for _, bots, _ in later.counts()} == {"neural"}
    assert later.spec("pagat", "neural", 1).seed != PLAN.spec("pagat", "expert", 1).seed
    for name in ("data", "weights"):  # the first round's data, and its fit as the players
        (tmp_path / name).symlink_to(out / name)
    summary = make_data(tmp_path, later, workers=1)
    assert summary.deals == 5
    rows = [r for f in sorted((tmp_path / "data-2").glob("*.jsonl.gz")) for r in read_rows(str(f))]
    assert rows and {r["player"] for r in rows} == {"neural"}
    assert all(parse_action(r["expert_choice"]) in row_view(r).legal for r in rows)
    assert any(r["choice"] != r["expert_choice"] for r in rows)  # the labels are the expert's, not the player's
    report = fit(tmp_path, tmp_path / "both", TINY, rounds=2, workers=1, report=False)
    alone = fit(tmp_path, tmp_path / "first", TINY, rounds=1, workers=1, report=False)
    assert sum(report.samples.values()) > sum(alone.samples.values())
    manifest = json.loads((tmp_path / "both" / models.MANIFEST).read_text(encoding="utf-8"))
    assert [r["round"] for r in manifest["data"]["rounds"]] == [2]
    assert not (tmp_path / "report").exists()


def test_a_rebuilt_view_is_the_view_the_row_was_written_from():
    for path in sorted(RECORDS.glob("*.json")):
        if path.name.endswith(".expected.json"):
            continue
        from cinch.record import loads, replay

        match = replay(loads(path.read_text(encoding="utf-8"))).match
        if match.rules.honour_rule or match.rules.decks != 1 or match.rules.cut_throat:
            continue  # a cut-throat row keeps only two of the scores
        for row in match_rows(match, source="record", game=path.name, vector=False):
            assert view_columns(row_view(row), vector=False) == {k: row[k] for k in view_columns(row_view(row),
                                                                                                   vector=False)}


def test_no_hidden_card_enters_the_features():
    """The dataset's own check that no row names a card another seat holds unseen, then: the features
    made from the row alone are those made from the table's view (so they hold nothing more)."""
    from study.test_dataset import hidden_cards_named

    spec = SelfPlay(rules=Rules.preset("official"), bots=("heuristic",) * 4, count=2, seed=9)
    rows = list(self_play_rows(spec, vector=False))
    matches = [play_self(spec, i) for i in range(spec.count)]
    deals = {(f"self-play/{spec.seed}/{i}", 1): m.deals[0] for i, m in enumerate(matches)}
    assert hidden_cards_named(rows, deals) > 100
    by_decision = {(r["game"], r["decision"]): r for r in rows}
    checked = 0
    for (game, _), deal in deals.items():
        again = Deal(deal.rules, deal.dealer, list(deal.deck), restock=deal.restock)
        for k, action in enumerate(deal.history):
            view = again.view(again.to_act)
            if len(view.legal) > 1:
                assert np.array_equal(encode(view).x, encode(row_view(by_decision[(game, k)])).x)
                checked += 1
            again.apply(action)
    assert checked > 30


def test_inference_matches_the_trainers_forward_pass(trained):
    out, _, _ = trained
    loaded = models.Models.load(out / "weights")
    samples = load_samples(sorted((out / "data").glob("*.jsonl.gz")), workers=1)
    for kind in KINDS:
        net = loaded.networks[kind]
        x = samples[kind].x[:20].astype(np.float32)
        _, policy, value, location = net.layers(x)
        p, v, loc = net.forward(x)
        assert np.allclose(policy, p, atol=1e-5) and np.allclose(value, v, atol=1e-5)
        assert np.allclose(location, loc, atol=1e-5)
    view = row_view(read_rows(str(sorted((out / "data").glob("*.jsonl.gz"))[0]))[0])
    e, scores, _, _ = loaded.evaluate(view)
    assert np.allclose(scores, loaded.networks[e.kind].layers(e.x[None, :])[1][0], atol=1e-5)
    where = loaded.card_locations(view)
    unseen = [c for c in range(52) if where[c].sum() > 0]
    assert np.allclose(where[unseen].sum(axis=1), 1) and not where[:, int(view.seat)].any()


def test_a_committee_answers_the_mean_of_its_members(trained):
    out, _, _ = trained
    loaded = models.Models.load(out / "weights")
    samples = load_samples(sorted((out / "data").glob("*.jsonl.gz")), workers=1)
    assert [len(loaded.networks[kind].members) for kind in KINDS] == [1, 1, 1, 2]
    play = loaded.networks["play"]
    x = samples["play"].x[:20].astype(np.float32)
    alone = [m.forward(x) for m in play.members]
    assert not np.allclose(alone[0][0], alone[1][0])  # fitted from different seeds
    for i, together in enumerate(play.forward(x)):
        assert np.allclose(together, (alone[0][i] + alone[1][i]) / 2, atol=1e-6)
    view = row_view(next(r for r in read_rows(str(sorted((out / "data").glob("*.jsonl.gz"))[0]))
                         if r["phase"] == "play" and r["legal_count"] > 1))
    e, scores, _, _ = loaded.evaluate(view)
    assert np.allclose(scores, np.mean([m.forward(e.x[None, :])[0][0] for m in play.members], axis=0), atol=1e-6)


def test_a_committees_first_member_is_the_lone_network(trained):
    from cinch.study.learning import fit_kind

    out, _, _ = trained
    s = load_samples(sorted((out / "data").glob("*.jsonl.gz")), workers=1)["play"]
    lone, _ = fit_kind(s, replace(TINY, members=()))
    committee, curve = fit_kind(s, TINY)
    assert isinstance(lone, models.Network) and isinstance(committee, models.Committee)
    first = committee.members[0].arrays()
    assert all(np.array_equal(first[k], v) for k, v in lone.arrays().items())
    assert curve.figures["members"] == 2 and len(curve.figures["member_lost"]) == 2


def test_the_fits_make_the_same_weights_on_any_number_of_workers(trained):
    from cinch.study.learning import fit_kinds

    out, _, _ = trained
    samples = load_samples(sorted((out / "data").glob("*.jsonl.gz")), workers=1)
    alone, _ = fit_kinds(samples, TINY, workers=1)
    forked, curves = fit_kinds(samples, TINY, workers=2)
    for kind in KINDS:
        a, b = alone[kind].arrays(), forked[kind].arrays()
        assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a), kind
    assert curves["play"].figures["members"] == 2


def manifest_is_complete(manifest: dict) -> None:
    assert manifest["format"] == models.FORMAT and manifest["signature"] == models.signature()
    for key in ("seed", "deals", "worlds", "decisions"):
        assert key in manifest["data"], key
    assert manifest["commit"] and manifest["command"].startswith("cinch train") and manifest["trained"]
    for kind in KINDS:
        figures = manifest["validation"][kind]
        assert manifest["parameters"][kind] > 0 and manifest["data"]["decisions"][kind] > 0
        if figures:
            assert {"agreement", "value_rmse", "location"} <= set(figures)


def test_the_weights_manifest_is_complete(trained):
    out, _, _ = trained
    manifest_is_complete(json.loads((out / "weights" / models.MANIFEST).read_text(encoding="utf-8")))


def test_the_shipped_weights_are_small_complete_and_of_these_features():
    folder = models.WEIGHTS_DIR
    assert (folder / models.WEIGHTS).stat().st_size <= 5_000_000
    manifest = json.loads((folder / models.MANIFEST).read_text(encoding="utf-8"))
    manifest_is_complete(manifest)
    assert all(manifest["validation"][kind] for kind in KINDS)
    view = Deal.shuffled(Rules.preset("pagat"), Seat.W, rng=1).view(Seat.N)
    assert models.Models.load().choose(view) in view.legal


def test_weights_of_other_features_are_refused_in_one_line(trained, tmp_path):
    out, _, _ = trained
    for name in (models.WEIGHTS, models.MANIFEST):
        (tmp_path / name).write_bytes((out / "weights" / name).read_bytes())
    manifest = json.loads((tmp_path / models.MANIFEST).read_text(encoding="utf-8"))
    manifest["signature"] = "0" * 16
    (tmp_path / models.MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(models.WeightsError, match="other features"):
        models.Models.load(tmp_path)
    with pytest.raises(models.WeightsError, match="no trained weights"):
        models.Models.load(tmp_path / "none")


def test_the_fallback_is_said_once(trained, capsys, monkeypatch):
    from cinch.bots import neural

    monkeypatch.setattr(neural, "_SAID", set())
    out, _, _ = trained
    three = Rules.preset("official").with_options(players=3)
    heuristic = make_bot("heuristic", seed=0)
    for seed in range(2):
        bot = make_bot("neural", seed=0, weights=str(out / "weights"))
        deal = Deal.shuffled(three, 0, rng=seed)
        while not deal.is_over:
            view = deal.view(deal.to_act)
            action = bot.choose(view)
            assert action == heuristic.choose(view) and bot.fallback is not None
            deal.apply(action)
    lines = capsys.readouterr().err.splitlines()
    assert lines == ["cinch: the neural bot does not cover three players (the models know four); the heuristic "
                     "plays its seats"]


def test_cinch_train_makes_weights_and_refuses_to_overwrite_them(tmp_path):
    out = tmp_path / "out"
    result = cinch("train", str(out), "--deals", "5", "--seed", "2", "--worlds", "1", "--playouts", "2",
                   "--rounds", "2", "--round-deals", "5", "--epochs", "1", "--workers", "1")
    assert result.exit_code == 0, result.stderr
    weights = out / "weights" / models.WEIGHTS
    before = weights.read_bytes()
    assert "picks the expert's choice" in result.stdout and "weights in" in result.stderr
    assert (out / "weights-1" / models.WEIGHTS).exists() and len(list((out / "data-2").glob("*.jsonl.gz"))) == 5
    assert "data 2: 5 deals" in result.stderr
    # the round's players are lone networks; the shipped kind of weights has the play's committee
    assert len(models.Models.load(out / "weights-1").networks["play"].members) == 1
    assert len(models.Models.load(out / "weights").networks["play"].members) == MEMBERS["play"]
    line = one_error(cinch("train", str(out), "--stage", "fit", "--epochs", "1", "--workers", "1"))
    assert "already holds weights" in line and "--force" in line
    assert weights.read_bytes() == before
    again = cinch("train", str(out), "--stage", "fit", "--rounds", "1", "--epochs", "1", "--workers", "1", "--force")
    assert again.exit_code == 0, again.stderr


def test_cinch_train_never_writes_over_the_game_library(tmp_path, monkeypatch):
    library = tmp_path / "lib" / models.WEIGHTS
    library.parent.mkdir()
    sqlite3.connect(library).execute("create table t (x)").connection.commit()
    monkeypatch.setenv("CINCH_DB", str(library))
    before = library.read_bytes()
    line = one_error(cinch("train", str(tmp_path / "out"), "--stage", "fit", "--weights", str(library.parent),
                           "--force"))
    assert "will not write" in line and library.read_bytes() == before
    data = tmp_path / "lib2" / "data"  # a library where the data folder would go
    data.parent.mkdir()
    data.write_bytes(before)
    monkeypatch.setenv("CINCH_DB", str(data))
    line = one_error(cinch("train", str(data.parent), "--deals", "1"))
    assert "will not write" in line and data.read_bytes() == before


@pytest.mark.parametrize("args, words", [
    (["--deals", "0"], "--deals must be at least 1"),
    (["--workers", "0"], "--workers must be at least 1"),
    (["--epochs", "0"], "--epochs must be at least 1"),
    (["--worlds", "0"], "--worlds must be at least 1"),
    (["--stage", "fit"], "holds no training data"),
    (["--rounds", "0"], "--rounds must be at least 1"),
    (["--round-deals", "0"], "--round-deals must be at least 1"),
])
def test_bad_arguments_are_one_line(tmp_path, args, words):
    assert words in one_error(cinch("train", str(tmp_path / "out"), *args))


def test_data_files_read_back_gzipped(trained):
    out, _, _ = trained
    first = sorted((out / "data").glob("*.jsonl.gz"))[0]
    with gzip.open(first, "rb") as f:
        assert json.loads(f.readline())["source"] == "self-play"


def test_the_fits_gradients_are_those_of_its_loss(trained):
    """The hand-written backward pass against finite differences of the loss, in float64, for every kind,
    with and without the shared slot head."""
    from cinch.study.learning import _batch, _params, new_network

    out, _, _ = trained
    samples = load_samples(sorted((out / "data").glob("*.jsonl.gz")), workers=1)
    rng = np.random.default_rng(0)
    for kind, units in [(kind, units) for kind in KINDS for units in (0, 5)]:
        s = samples[kind].take(np.arange(min(6, len(samples[kind]))))
        net = new_network(kind, (8, 6), rng, units)
        net.trunk = [(w.astype(np.float64), b.astype(np.float64)) for w, b in net.trunk]
        for head in ("policy", "value", "location"):
            setattr(net, head, tuple(a.astype(np.float64) for a in getattr(net, head)))
        net.skip = net.skip.astype(np.float64)
        if net.slot_head is not None:  # its output starts small and its places at zero: give both some weight
            arrays = {k: a.astype(np.float64) for k, a in net.slot_head.arrays().items()}
            arrays["out"] = rng.standard_normal(units)
            arrays["place"] = rng.standard_normal(arrays["place"].shape) * 0.3
            net.slot_head = models.SlotHead(**arrays)
        grads = _batch(net, s, TINY, grads=True).grads
        assert grads is not None
        for p, g in zip(_params(net), grads):
            for _ in range(3):
                i = tuple(int(rng.integers(0, d)) for d in p.shape)
                old = p[i]
                p[i] = old + 1e-6
                up = _batch(net, s, TINY, grads=False).loss
                p[i] = old - 1e-6
                down = _batch(net, s, TINY, grads=False).loss
                p[i] = old
                numeric = (up - down) / 2e-6
                assert abs(numeric - g[i]) <= 1e-4 * max(1.0, abs(numeric)), (kind, p.shape, i, numeric, g[i])


def test_a_later_rounds_data_is_read_without_loading_its_players(trained, tmp_path):
    """The weights a later round was played with may be gone or of older features: its data still reads."""
    from cinch.study.learning import PLAN_FILE, data_files

    out, _, _ = trained
    playable = DataPlan(deals=5, seed=1, worlds=1, playouts=2, round=2, weights=str(out / "weights"))
    assert playable.chunk_files() == [name for *_, name in playable.chunks()]
    gone = DataPlan(deals=5, seed=1, worlds=1, playouts=2, round=2, weights=str(tmp_path / "gone"))
    folder = tmp_path / "data-2"
    folder.mkdir()
    (folder / PLAN_FILE).write_text(json.dumps(gone.to_json()), encoding="utf-8")
    for name in gone.chunk_files():
        (folder / name).write_bytes(b"")
    plan, files = data_files(tmp_path, 2)
    assert plan == gone and [f.name for f in files] == playable.chunk_files()
