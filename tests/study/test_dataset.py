"""``cinch export-dataset``: one row per decision, the seat's view only, the true result; JSONL and Parquet alike."""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cinch import Deal, Rules, Seat
from cinch.actions import Keep
from cinch.adapters._core import PIECES, obs_size
from cinch.cards import Card, CardSet
from cinch.cli import main
from cinch.library import Library
from cinch.record import dumps, loads, replay, to_record
from cinch.study.dataset import (
    COLUMNS,
    VECTOR_SIZE,
    DatasetError,
    SelfPlay,
    arrow_schema,
    decision_rows,
    export,
    match_rows,
    parse_bots,
    play_self,
    read_rows,
    record_rows,
    self_play_rows,
    vector_layout,
)
from helpers import one_line_error as one_error
from helpers import run_cinch as cinch

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "datasets.md"
RECORDS = ROOT / "tests" / "records"

# Three presets that between them have concealed and face-up discards, shown trumps, buried excess,
# keeps of more legal hands than are listed, and a new stock made from the discards.
SPECS = [
    SelfPlay(rules=Rules.preset("pagat"), bots=("heuristic",) * 4, count=3, seed=3),
    SelfPlay(rules=Rules.preset("difference"), bots=("basic", "random", "heuristic", "random"), count=3, seed=5),
    SelfPlay(rules=Rules.preset("additive"), bots=("random",) * 4, count=3, seed=11),
]




def states(deal: Deal):
    """The true deal before each of its decisions (the engine's state, hidden cards and all)."""
    again = Deal(deal.rules, deal.dealer, deal.deck, restock=deal.restock)
    for action in deal.history:
        yield again
        again = again.copy()
        again.apply(action)


def card_texts(row: dict) -> dict[str, set[str]]:
    """Every card the row's view columns name, by column (legal actions and the keep rule included)."""
    found: dict[str, set[str]] = {}

    def add(column: str, cards) -> None:
        found.setdefault(column, set()).update(cards)

    for column in ("hand", "own_discards", "own_drawn", "stock_seen"):
        add(column, row[column])
    for column in ("face_up_discards", "shown_trumps"):
        for cards in row[column]:
            add(column, cards)
    plays = [p for t in row["tricks"] for p in t["plays"]] + row["current_trick"]
    add("plays", [p["card"] for p in plays] + [c for p in plays for c in p["buried"]])
    if row["keep"] is not None:
        add("keep", row["keep"]["pool"] + row["keep"]["must"])
    for action in (row["legal"] or []) + [row["choice"]]:
        add("legal", [w for w in action.split() if len(w) == 2 and w[0] in "AKQJT98765432"])
    return found


@pytest.fixture(scope="module")
def games():
    """Each spec's games, played once, with their rows."""
    out = []
    for spec in SPECS:
        matches = [play_self(spec, i) for i in range(spec.count)]
        out.append((spec, matches, list(self_play_rows(spec))))
    return out


def test_one_row_per_decision_and_the_choice_is_legal(games):
    for spec, matches, rows in games:
        expected = [(f"self-play/{spec.seed}/{i}", 1, k, str(action), deal.actors[k].name)
                    for i, m in enumerate(matches) for deal in m.deals for k, action in enumerate(deal.history)]
        assert [(r["game"], r["deal"], r["decision"], r["choice"], r["seat"]) for r in rows] == expected
        for row in rows:
            assert list(row) == list(COLUMNS)  # the order the docs give
            assert row["legal_count"] >= 1 and row["forced"] == (row["legal_count"] == 1)
            assert row["choice_ids"][0] in row["legal_ids"]
            if row["legal"] is not None:
                assert len(row["legal"]) == row["legal_count"]
                assert row["legal"][row["choice_index"]] == row["choice"]
            else:  # a keep of many hands: the choice obeys the rule the row gives
                keep = row["keep"]
                kept = set(row["choice"].split()[1:])
                assert row["legal_count"] > 64 and row["phase"] in ("discard", "rob")
                assert set(keep["must"]) <= kept <= set(keep["pool"])
                assert keep["size_min"] <= len(kept) <= keep["size_max"]
    phases = {r["phase"] for _, _, rows in games for r in rows}
    assert phases == {"bidding", "trump", "discard", "rob", "play"}
    assert any(r["legal"] is None for _, _, rows in games for r in rows)  # the additive rob lists no hands


def hidden_cards_named(rows, deals) -> int:
    """Check that no row names a card another seat holds unseen; returns how many hidden cards were checked.

    ``deals`` maps (game, deal number) to the true deal, played to its end.
    """
    pieces = {name: (start, shape) for name, start, shape in vector_layout()}
    by_decision = {(r["game"], r["deal"], r["decision"]): r for r in rows}
    checked = 0
    for (game, number), deal in deals.items():
        for k, state in enumerate(states(deal)):
            row = by_decision[(game, number, k)]
            me = Seat[row["seat"]]
            assert row["hand_mask"] == state.hand(me) and set(row["hand"]) == {str(c) for c in state.hand(me)}
            named = card_texts(row)
            for other in Seat:
                if other == me:
                    continue
                held = {str(c) for c in state.hand(other)}
                shown = set(row["shown_trumps"][other])  # trumps it had to show: public
                for column, cards in named.items():
                    if column != "shown_trumps":
                        assert not (cards & held) - shown, (game, number, k, column, other)
                hidden = held - shown
                checked += len(hidden)
                if "vector" not in row:
                    continue
                for name, (start, shape) in pieces.items():
                    if name in ("shown_trumps", "trump_cards") or shape[-1] != 52:
                        continue  # shown trumps are public; trump_cards marks the trump suit's cards, no holder
                    for r in range(shape[0] if len(shape) == 2 else 1):
                        for card in hidden:
                            assert row["vector"][start + 52 * r + Card.parse(card)] == 0, (game, number, k, name)
    return checked


def test_the_view_never_holds_another_seats_hidden_cards(games):
    checked = 0
    for spec, matches, rows in games:
        deals = {(f"self-play/{spec.seed}/{i}", 1): m.deals[0] for i, m in enumerate(matches)}
        checked += hidden_cards_named(rows, deals)
    assert checked > 1000


def test_nor_in_recorded_games_with_shown_trumps_face_up_discards_and_new_stocks():
    rows, deals = [], {}
    for path in sorted(RECORDS.glob("*.json")):
        if path.name.endswith(".expected.json"):
            continue
        match = replay(loads(path.read_text(encoding="utf-8"))).match
        if match.rules.honour_rule or match.rules.cut_throat or match.rules.decks != 1:  # refused in one line
            continue
        rows += list(match_rows(match, source="record", game=path.name, vector=False))
        deals.update({(path.name, n): d for n, d in enumerate(match.deals, start=1) if d.is_over})
    assert any(any(r["shown_trumps"]) for r in rows) and any(any(r["face_up_discards"]) for r in rows)
    assert any(d.restock is not None for d in deals.values())
    assert len(rows) == sum(len(d.history) for d in deals.values())
    assert hidden_cards_named(rows, deals) > 1000


def test_honour_rule_games_are_refused_in_one_line():
    path = RECORDS / "official-honour-revoke-003-maker.json"
    with pytest.raises(DatasetError, match="honour rule"):
        list(record_rows(path))


def test_the_vector_is_the_adapters_observation(games):
    _spec, _matches, rows = games[0]
    layout = vector_layout()
    assert [name for name, _, _ in layout] == [name for name, _ in PIECES]
    start, _ = next((s, shape) for name, s, shape in layout if name == "hand")
    seat_start = next(s for name, s, _ in layout if name == "seat")
    for row in rows:
        assert len(row["vector"]) == VECTOR_SIZE
        hand = [i for i in range(52) if row["vector"][start + i]]
        assert CardSet(sum(1 << i for i in hand)) == row["hand_mask"]
        assert row["vector"][seat_start:seat_start + 4] == [int(s == row["seat"]) for s in "NESW"]


def test_the_result_is_the_deals(games):
    for _spec, matches, rows in games:
        results = {f"self-play/{_spec.seed}/{i}": m.deals[0].result for i, m in enumerate(matches)}
        for row in rows:
            result = results[row["game"]]
            team = Seat[row["seat"]].team
            assert row["thrown_in"] == result.thrown_in
            assert row["score_change_us"] == result.score_change[team]
            assert row["score_change_them"] == result.score_change[team.other]
            if not result.thrown_in:
                assert (row["points_us"], row["points_them"]) == (result.points[team], result.points[team.other])
                assert row["makers_us"] == (result.makers == team) and row["made"] == result.made
            assert row["match_winner"] is None and row["match_won"] is None  # single deals: no match


def test_whole_matches_carry_the_winner_and_the_running_score():
    spec = SelfPlay(rules=Rules.preset("official").with_options(target=11), bots=("basic",) * 4, count=2, seed=2,
                    matches=True)
    for i in range(spec.count):
        match = play_self(spec, i)
        assert match.is_over
        rows = list(match_rows(match, source="self-play", game="m", vector=False))
        assert {r["deal"] for r in rows} == set(range(1, len(match.deals) + 1))
        for row in rows:
            team = Seat[row["seat"]].team
            assert row["match_winner"] == match.winner.name and row["match_won"] == (match.winner == team)
            before = match.summaries[row["deal"] - 2].score if row["deal"] > 1 else (0, 0)
            assert (row["score_us"], row["score_them"]) == (before[team], before[team.other])


def test_parquet_gzip_and_jsonl_hold_the_same_rows(tmp_path):
    args = ["--self-play", "2", "--rules", "difference", "--bots", "basic", "--seed", "4"]
    for name in ("d.jsonl", "d.jsonl.gz", "d.parquet"):
        result = cinch("export-dataset", str(tmp_path / name), *args)
        assert result.exit_code == 0, result.stderr
        assert f"written to {tmp_path / name} as {'parquet' if name.endswith('parquet') else 'jsonl'}" in result.stderr
    plain = read_rows(str(tmp_path / "d.jsonl"))
    assert plain and read_rows(str(tmp_path / "d.jsonl.gz")) == plain
    assert read_rows(str(tmp_path / "d.parquet")) == plain
    with gzip.open(tmp_path / "d.jsonl.gz", "rb") as f:
        assert f.read() == (tmp_path / "d.jsonl").read_bytes()
    assert not list(tmp_path.glob("*.partial"))


def test_the_same_seed_writes_the_same_rows_and_skip_forced_drops_only_forced_ones(tmp_path):
    a, b, c, f = (str(tmp_path / n) for n in ("a.jsonl", "b.jsonl", "c.jsonl", "f.jsonl"))
    base = ["--self-play", "2", "--bots", "random,basic,random,basic", "--no-vector"]
    cinch("export-dataset", a, *base, "--seed", "9")
    cinch("export-dataset", b, *base, "--seed", "9")
    cinch("export-dataset", c, *base, "--seed", "10")
    cinch("export-dataset", f, *base, "--seed", "9", "--skip-forced")
    assert Path(a).read_bytes() == Path(b).read_bytes() != Path(c).read_bytes()
    rows = read_rows(a)
    assert "vector" not in rows[0]
    assert read_rows(f) == [r for r in rows if not r["forced"]] != rows


def test_standard_output(tmp_path):
    result = cinch("export-dataset", "-", "--self-play", "1", "--seed", "1", "--bots", "random", "--no-vector")
    assert result.exit_code == 0
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert rows and rows[0]["decision"] == 0 and "1 deals of 1 games" in result.stderr


def test_library_and_record_exports_give_the_games_rows(tmp_path):
    spec = SelfPlay(rules=Rules.preset("pagat"), bots=("basic",) * 4, count=1, seed=6)
    played = play_self(spec, 0)
    expected = list(self_play_rows(spec))
    db = str(tmp_path / "games.sqlite3")
    with Library.open(db) as lib:
        done = lib.new_match(played, human_seat=None, seed=6, frontend="plain")
        lib.save(done, played)
        # An unfinished match: one finished deal, then a deal stopped after two bids.
        going = play_self(spec, 0)
        going.start_deal(deck=[str(c) for c in reversed(going.deals[0].deck)])
        going.apply(going.current.legal_actions()[0])
        going.apply(going.current.legal_actions()[0])
        unfinished = lib.new_match(going, human_seat=Seat.S, seed=6, frontend="plain")
        lib.save(unfinished, going)
    record = tmp_path / "game.json"
    record.write_text(dumps(to_record(played)), encoding="utf-8")

    def same(rows, source, game):
        assert [r["source"] for r in rows] == [source] * len(rows)
        assert [r["game"] for r in rows] == [game] * len(rows)
        keep = [k for k in COLUMNS if k not in ("source", "game")]
        assert [[r[k] for k in keep] for r in rows] == [[r[k] for k in keep] for r in expected]

    out = str(tmp_path / "lib.jsonl")
    assert cinch("export-dataset", out, "--library", str(done), "--db", db).exit_code == 0
    same(read_rows(out), "library", f"library/{done}")
    assert cinch("export-dataset", out, "--record", str(record)).exit_code == 0
    same(read_rows(out), "record", f"record/{record}")
    assert cinch("export-dataset", out, "--library", "all", "--db", db).exit_code == 0
    rows = read_rows(out)
    assert {r["game"] for r in rows} == {f"library/{done}", f"library/{unfinished}"}
    partial = [r for r in rows if r["game"] == f"library/{unfinished}"]
    assert {r["deal"] for r in partial} == {1}  # the stopped deal has no result: no rows
    assert {r["match_winner"] for r in partial} == {None}


@pytest.mark.parametrize("args, words", [
    ([], "nothing to export: give --self-play N"),
    (["--library", "all", "--rules", "official"], "--rules is for --self-play"),
    (["--record", "x.json", "--seed", "3", "--bots", "basic"], "--bots, --seed are for --self-play"),
    (["--self-play", "1", "--db", "g.sqlite3"], "--db names the game library for --library"),
    (["--self-play", "0"], "--self-play must be at least 1"),
    (["--self-play", "1", "--bots", "basic,basic"], "give one bot for every seat (as heuristic) or four"),
    (["--self-play", "1", "--bots", "wizard"], "unknown bot 'wizard'; the bots are"),
    (["--self-play", "1", "--bot-option", "simulations=3"], "bot option 'simulations' is taken by none"),
    (["--self-play", "1", "--rules", "pagat", "-o", "target=0"], "target"),
    (["--library", "3,x"], "'x' is not a match id"),
    (["--library", "99", "--db", "{tmp}/g.sqlite3"], "no game library"),
    (["--record", "{tmp}/missing.json"], "missing.json: cannot read the record"),
    (["--record", "{tmp}/bad.json"], 'bad.json: "format" must be "cinch/1"'),
    (["--self-play", "1", "--format", "parquet"], "Parquet compresses its own columns"),
])
def test_bad_arguments_are_one_line(tmp_path, args, words):
    (tmp_path / "bad.json").write_text('{"format": "cinch/0", "rules": "pagat", "deals": []}', encoding="utf-8")
    out = str(tmp_path / "out.jsonl.gz")
    result = cinch("export-dataset", out, *[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert words in one_error(result)
    assert not list(tmp_path.glob("out*"))


def test_an_unknown_library_match_and_unwritable_output(tmp_path):
    db = str(tmp_path / "games.sqlite3")
    with Library.open(db):
        pass
    assert "no match 42" in one_error(cinch("export-dataset", str(tmp_path / "o.jsonl"), "--library", "42",
                                            "--db", db))
    line = one_error(cinch("export-dataset", str(tmp_path / "no" / "o.jsonl"), "--self-play", "1", "--seed", "1"))
    assert "cannot write" in line and "o.jsonl" in line


def test_parquet_without_pyarrow_says_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # import pyarrow now raises ImportError
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    line = one_error(cinch("export-dataset", str(tmp_path / "d.parquet"), "--self-play", "1", "--seed", "1"))
    assert "pip install 'cinch[rl]'" in line
    assert not list(tmp_path.iterdir())


def test_every_column_is_documented_with_a_parquet_type():
    text = DOCS.read_text(encoding="utf-8")
    schema = arrow_schema()
    assert schema.names == list(COLUMNS)
    assert arrow_schema(vector=False).names == [c for c in COLUMNS if c != "vector"]
    for column in COLUMNS:
        assert f"| `{column}` |" in text, f"docs/datasets.md does not describe {column}"


def test_a_keep_is_numbered_as_the_adapters_number_it(games):
    from cinch.adapters._core import KEEP_BASE, KEEP_DONE

    keeps = [r for _, _, rows in games for r in rows if r["choice"].startswith("keep")]
    assert keeps
    for row in keeps:
        kept = Keep(CardSet.parse(" ".join(row["choice"].split()[1:])))
        picked = [Card(i - KEEP_BASE) for i in row["choice_ids"] if i != KEEP_DONE]
        must = {Card.parse(c) for c in row["keep"]["must"]}
        assert set(picked) | must == set(kept.cards) and not set(picked) & must


# ---------------------------------------------------------------------------
# Cut-throat tables (2, 3, 5, 6 players): seats and sides 1 to n, per-seat columns and the vector sized
# for the table, and still nothing another seat holds unseen
# ---------------------------------------------------------------------------
def official(players: int) -> Rules:
    return Rules.preset("official").with_options(players=players)


CUT_THROAT_SPECS = [
    SelfPlay(rules=official(3), bots=("heuristic", "random", "basic"), count=2, seed=4),
    SelfPlay(rules=official(6), bots=("random",), count=2, seed=9),
]


@pytest.fixture(scope="module")
def cut_throat_games():
    """A three- and a six-player spec's games, played once, with their rows."""
    out = []
    for spec in CUT_THROAT_SPECS:
        matches = [play_self(spec, i) for i in range(spec.count)]
        out.append((spec, matches, list(self_play_rows(spec))))
    return out


def test_rows_name_the_tables_seats_and_size_every_per_seat_column(cut_throat_games):
    for spec, matches, rows in cut_throat_games:
        table = spec.rules.seating
        n = table.players
        expected = [(f"self-play/{spec.seed}/{i}", k, str(action), str(deal.actors[k]))
                    for i, m in enumerate(matches) for deal in m.deals for k, action in enumerate(deal.history)]
        assert [(r["game"], r["decision"], r["choice"], r["seat"]) for r in rows] == expected
        for row in rows:
            assert list(row) == list(COLUMNS)
            assert row["side"] == row["seat"] and row["seat"] in table.names  # each player his own side
            for column in ("hand_sizes", "face_up_discards", "shown_trumps", "drawn_counts"):
                assert len(row[column]) == n, column
            assert len(row["vector"]) == obs_size(n)
            seat = table.names.index(row["seat"])
            assert row["dealer_position"] == (table.names.index(row["dealer"]) - seat) % n
            assert row["choice_ids"][0] in row["legal_ids"]
        assert {row["player"] for row in rows} >= set(spec.bots)


def test_no_row_names_a_card_another_seat_holds_unseen(cut_throat_games):
    checked = 0
    for spec, matches, rows in cut_throat_games:
        table = spec.rules.seating
        layout = [(name, start, shape) for name, start, shape in vector_layout(table.players)
                  if shape[-1] == 52 and name not in ("shown_trumps", "trump_cards")]  # public, or no holder
        by_decision = {(r["game"], r["decision"]): r for r in rows}
        for i, match in enumerate(matches):
            for k, state in enumerate(states(match.deals[0])):
                row = by_decision[(f"self-play/{spec.seed}/{i}", k)]
                me = table.parse_seat(row["seat"])
                assert row["hand_mask"] == state.hand(me)
                named = card_texts(row)
                for other in table.seats:
                    if other == me:
                        continue
                    shown = set(row["shown_trumps"][other])
                    hidden = {str(c) for c in state.hand(other)} - shown
                    for column, cards in named.items():
                        assert not cards & hidden, (spec.seed, i, k, column, str(other))
                    for name, start, shape in layout:
                        for r in range(shape[0] if len(shape) == 2 else 1):
                            for card in hidden:
                                assert row["vector"][start + 52 * r + Card.parse(card)] == 0, (name, k)
                    checked += len(hidden)
    assert checked > 300


def test_the_result_columns_count_every_other_player_together(cut_throat_games):
    for spec, matches, rows in cut_throat_games:
        table = spec.rules.seating
        results = {f"self-play/{spec.seed}/{i}": m.deals[0].result for i, m in enumerate(matches)}
        for row in rows:
            result = results[row["game"]]
            side = table.side_of[table.parse_seat(row["seat"])]
            change = result.score_change
            assert (row["score_change_us"], row["score_change_them"]) == (change[side], sum(change) - change[side])
            if not result.thrown_in:
                assert row["points_us"] == result.points[side]
                assert row["points_them"] == sum(result.points) - result.points[side]
                assert row["makers_us"] == (table.side_of[result.maker] == side)


def test_whole_cut_throat_matches_name_the_winning_player():
    spec = SelfPlay(rules=official(3).with_options(target=7), bots=("basic",), count=1, seed=2, matches=True)
    match = play_self(spec, 0)
    assert match.is_over
    rows = list(match_rows(match, source="self-play", game="m", vector=False))
    assert {r["match_winner"] for r in rows} == {str(match.winner)}
    assert all(r["match_won"] == (r["seat"] == str(match.winner)) for r in rows)
    first = rows[0]
    assert (first["score_us"], first["score_them"]) == (0, 0)


@pytest.mark.parametrize("suffix", ["jsonl", "parquet"])
def test_a_file_holds_one_table_size_and_reads_back(tmp_path, suffix):
    if suffix == "parquet":
        pytest.importorskip("pyarrow")
    three = SelfPlay(rules=official(3), bots=("random",), count=1, seed=1)
    path = str(tmp_path / f"three.{suffix}")
    summary = export(self_play_rows(three), path)
    back = read_rows(path)
    assert summary.rows == len(back) > 0 and len(back[0]["vector"]) == obs_size(3)
    assert back[0]["seat"] in ("1", "2", "3")
    four = SelfPlay(rules=Rules.preset("official"), bots=("random",), count=1, seed=1)
    mixed = str(tmp_path / f"mixed.{suffix}")
    with pytest.raises(DatasetError, match="4-player game but .* already holds 3-player games"):
        export(decision_rows([self_play_rows(three, vector=False), self_play_rows(four, vector=False)]), mixed,
               vector=False)
    assert not (tmp_path / f"mixed.{suffix}").exists() and not (tmp_path / f"mixed.{suffix}.partial").exists()


def test_bots_are_one_or_one_per_seat_of_the_table():
    assert parse_bots("basic", 3) == ("basic",) * 3
    with pytest.raises(DatasetError, match="or three, for seats 1 to 3"):
        parse_bots("basic,random", 3)
    with pytest.raises(DatasetError, match="one for each of the 6 seats"):
        SelfPlay(rules=official(6), bots=("basic", "random"))


def test_the_command_exports_a_cut_throat_table(tmp_path):
    out = tmp_path / "six.jsonl"
    result = CliRunner().invoke(main, ["export-dataset", str(out), "--self-play", "1", "--rules", "official",
                                       "-o", "players=6", "--bots", "random", "--seed", "3", "--no-vector"])
    assert result.exit_code == 0, result.stderr
    rows = read_rows(str(out))
    assert {r["seat"] for r in rows} <= {"1", "2", "3", "4", "5", "6"} and "vector" not in rows[0]
    honour = CliRunner().invoke(main, ["export-dataset", str(tmp_path / "x.jsonl"), "--self-play", "1",
                                       "--rules", "official", "-o", "players=3", "-o", "honour_rule=true"])
    assert honour.exit_code == 2 and len(honour.stderr.splitlines()) == 1
