"""The double-dummy solver (cinch.solver) and ``cinch solve`` (cinch.cli.solve).

The solver is checked against a plain, obviously correct minimax written here on the Deal's
own API (``copy``, ``legal_actions``, ``apply``, ``result``): on small endings from random
deals under every preset and under strict following, in every place of a trick, with uneven
hands, with Sancho and Dom Pedro; per card; and by playing the solver's own line out to the
end of full deals, where the Deal's result must be the par the solver announced.
"""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from cinch import CARDS, PRESET_NAMES, TRUMP_TABLES, Card, CardSet, Deal, Phase, Play, Rules, Seat, Suit, Team
from cinch.cli import main
from cinch.solver import Position, can_reach, makers_can_make, par, solve, window
from helpers import deal, rules, table

FOLLOWS = ["all-fours", "strict"]


# ---- the reference: plain minimax on the Deal ----------------------------------------------
def brute(deal: Deal) -> tuple[int, tuple[int, int]]:
    """Final NS-EW points with best play by both sides, by trying every legal action, and the
    points (NS, EW) of the line found."""
    if deal.phase is Phase.DONE:
        p = deal.result.points
        return p[0] - p[1], p
    best = None
    ns = deal.to_act.team is Team.NS
    for action in deal.legal_actions():
        child = deal.copy()
        child.apply(action)
        got = brute(child)
        if best is None or (got[0] > best[0] if ns else got[0] < best[0]):
            best = got
    return best


def brute_children(deal: Deal) -> dict[str, tuple[int, tuple[int, int]]]:
    """The minimax value and points after each legal action (record notation)."""
    out = {}
    for action in deal.legal_actions():
        child = deal.copy()
        child.apply(action)
        out[str(action)] = brute(child)
    return out


def to_play(rule_set: Rules, rng: random.Random, keep=None) -> Deal:
    """A deal brought to the play by random legal bids, discards and robs."""
    while True:
        d = Deal.shuffled(rule_set, Seat(rng.randrange(4)), rng)
        while d.phase not in (Phase.PLAY, Phase.DONE):
            legal = d.legal_actions()
            if keep is not None and d.phase in (Phase.TRUMP, Phase.DISCARD, Phase.ROB):
                d.apply(keep(d, legal))
            else:
                d.apply(rng.choice(legal))
        if d.phase is Phase.PLAY:
            return d


def ending(rule_set: Rules, rng: random.Random, cards_left: int, keep=None) -> Deal:
    """A deal in the play with at most ``cards_left`` cards in hands, reached by random play."""
    while True:
        d = to_play(rule_set, rng, keep)
        while d.phase is Phase.PLAY and sum(h.bit_count() for h in d.hands) > cards_left:
            d.apply(rng.choice(d.legal_actions()))
        if d.phase is Phase.PLAY:
            return d


def check_exact(d: Deal) -> None:
    """The solver's par, per-card values and points against the brute force."""
    pos = Position.from_deal(d)
    res = solve(pos)
    children = brute_children(d)
    pick = max if d.to_act.team is Team.NS else min
    best, points = pick(children.values(), key=lambda vp: vp[0])
    where = pos.describe()
    assert res.value == best, where
    assert par(pos) == best, where
    assert res.points == points, where
    assert res.value == res.points[0] - res.points[1]
    actions = d.legal_actions()
    assert {str(a.card) for a in actions} == {str(c) for c in res.card_values}
    for action in actions:
        value, pts = children[str(action)]
        assert res.card_values[action.card] == value, (where, str(action))
        assert res.points_after(action.card) == pts, (where, str(action))
    assert set(res.best_cards) == {c for c, v in res.card_values.items() if v == best}


# ---- exactness on endings ---------------------------------------------------------------------
@pytest.mark.parametrize("follow", FOLLOWS)
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_endings_match_brute_force(preset, follow):
    rng = random.Random(10 * PRESET_NAMES.index(preset) + FOLLOWS.index(follow))
    rule_set = rules(preset, follow=follow)
    for _ in range(30):
        d = ending(rule_set, rng, cards_left=rng.choice([5, 6, 7, 8, 9, 10, 11, 12, 13, 14]))
        check_exact(d)


@pytest.mark.parametrize("in_trick", [0, 1, 2, 3])
def test_every_place_in_the_trick(in_trick):
    """Positions with 0 to 3 cards already in the current trick."""
    rng = random.Random(100 + in_trick)
    found = 0
    while found < 20:
        preset = rng.choice(PRESET_NAMES)
        d = ending(rules(preset), rng, cards_left=11)
        while d.phase is Phase.PLAY and len(d.trick) != in_trick:
            d.apply(rng.choice(d.legal_actions()))
        if d.phase is not Phase.PLAY:
            continue
        check_exact(d)
        found += 1


@pytest.mark.parametrize("options", [{"sancho": True}, {"sancho": True, "dom_pedro": True}, {"dom_pedro": True}])
@pytest.mark.parametrize("preset", ["additive", "official", "pagat"])
def test_sancho_and_dom_pedro(preset, options):
    rng = random.Random(7)
    rule_set = rules(preset, **options)
    for _ in range(10):
        check_exact(ending(rule_set, rng, cards_left=rng.choice([6, 8, 10, 12])))


def test_relative_high_and_low_with_other_settings():
    """High = highest in play, Low = lowest in play or 2 to holder, mixed across presets."""
    rng = random.Random(11)
    for preset, options in [("pagat", {"high": "highest"}), ("difference", {"low": "lowest-capturer"}),
                            ("official", {"low": "two-holder"}), ("double-pedro", {"high": "ace"})]:
        rule_set = rules(preset, **options)
        for _ in range(10):
            check_exact(ending(rule_set, rng, cards_left=rng.choice([7, 9, 11, 12])))


def short_stock_deal(rng: random.Random) -> Deal:
    """Additive (002): N holds nine trumps, the others none; they keep nothing, so the stock
    (16 cards) is shared out among them: E gets six cards, S and W five."""
    trumps = [c for c in CARDS if TRUMP_TABLES[Suit.HEARTS].is_trump(c)]
    plain = [c for c in CARDS if not TRUMP_TABLES[Suit.HEARTS].is_trump(c)]
    rng.shuffle(trumps)
    rng.shuffle(plain)
    hands = {"N": trumps[:9], "E": plain[:9], "S": plain[9:18], "W": plain[18:27]}
    stock = trumps[9:] + plain[27:]
    rng.shuffle(stock)
    deck = table("N", **{k: " ".join(str(c) for c in v) for k, v in hands.items()},
                 stock=" ".join(str(c) for c in stock))
    d = deal("additive", "N", deck, "pass", "pass", "pass", "bid 1", "trump H", "keep", "keep", "keep")
    d.apply(rng.choice(d.legal_actions()))  # the dealer keeps six of his nine
    return d


def test_uneven_hands_after_the_stock_is_shared():
    """Additive (002): the stock shared out leaves short hands; empty hands are skipped and
    the lead passes left from an empty-handed winner."""
    rng = random.Random(5)
    for _ in range(6):
        d = short_stock_deal(rng)
        assert [h.bit_count() for h in d.hands] == [6, 6, 5, 5]
        while d.phase is Phase.PLAY and sum(h.bit_count() for h in d.hands) > rng.choice([6, 8, 10]):
            d.apply(rng.choice(d.legal_actions()))
        check_exact(d)


def test_uneven_hands_built_explicitly():
    """Position.build with a hand emptied early: the lead passes left from an empty hand."""
    rule_set = rules("additive")
    hands = [CardSet.parse("AH 2H"), CardSet.parse("KH"), CardSet.parse("5D 3C"), CardSet.parse("")]
    pos = Position.build(rule_set, "H", Seat.S, hands, leader=Seat.W)
    assert pos.to_act == Seat.N
    res = solve(pos)
    # N leads AH (E must play KH) then 2H: NS take everything in play
    assert res.card_values[Card.parse("AH")] == res.value


def test_official_defender_thrown_points_count_for_the_makers():
    """003: a defender above six trumps throws a Jack and a Pedro; they score for the makers,
    a constant the solver carries to the end."""
    deck = table(
        "N",
        N="4H 3H 2H 2S 3S 4S 5S 6S 7S",
        E="AH KH QH JH TH 9H 8H 5D 2C",
        S="7H 6H 5H AS KS QS JS TS 9S",
        W="8S 2D 3D 4D 6D 7D 8D 9D TD",
        stock="3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC JD QD KD AD",
    )
    d = deal("official", "N", deck, "pass", "bid 7", "pass", "pass", "trump H", "keep AH KH QH 9H 8H TH")
    while d.phase is not Phase.PLAY:
        d.apply(d.legal_actions()[0])
    pos = Position.from_deal(d)
    assert pos.thrown & CardSet.parse("JH 5D") == CardSet.parse("JH 5D")
    res = solve(pos)
    assert res.points[0] >= 6  # the thrown Jack and left Pedro are NS's already
    play_solver_line(d)
    assert d.result.points == res.points
    assert any(a.how == "thrown by a defender" and str(a.card) == "5D" for a in d.result.awards)
    # and an ending of the same deal, checked against the brute force
    d = deal("official", "N", deck, "pass", "bid 7", "pass", "pass", "trump H", "keep AH KH QH 9H 8H TH")
    while d.phase is not Phase.PLAY:
        d.apply(d.legal_actions()[0])
    rng = random.Random(2)
    while sum(h.bit_count() for h in d.hands) > 10:
        d.apply(rng.choice(d.legal_actions()))
    check_exact(d)


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_four_trick_endings_match_brute_force(preset):
    rng = random.Random(40 + PRESET_NAMES.index(preset))
    for _ in range(2):
        check_exact(ending(rules(preset), rng, cards_left=15))


# ---- playing the solver's line out -----------------------------------------------------------
def play_solver_line(d: Deal) -> None:
    """Play to the end taking the first best card each time (and its best burial)."""
    while d.phase is Phase.PLAY:
        res = solve(Position.from_deal(d))
        card = res.best_cards[0]
        d.apply(Play(card, res.buries.get(card, CardSet(0))))


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_full_deal_played_out_gives_the_par(preset):
    rng = random.Random(21)
    for _ in range(2):
        d = to_play(rules(preset), rng)
        res = solve(Position.from_deal(d))
        play_solver_line(d)
        assert d.result.points == res.points
        assert (d.result.made, d.result.score_change) == (res.made, res.score_change)


def test_par_holds_along_the_line():
    rng = random.Random(4)
    d = to_play(rules("double-pedro", follow="strict"), rng)
    value = solve(Position.from_deal(d)).value
    while d.phase is Phase.PLAY:
        res = solve(Position.from_deal(d))
        assert res.value == value
        d.apply(Play(res.best_cards[-1]))
    assert d.result.points[0] - d.result.points[1] == value


# ---- trick 1 with burials (000's buried excess) ------------------------------------------------
def bury_deal(rule_set: Rules, rng: random.Random) -> Deal:
    """A deal where someone holds more than six cards at the start of the play."""
    while True:
        d = to_play(rule_set, rng)
        if Position.from_deal(d).bury_pending():
            return d


def trick_one_value(d: Deal) -> int:
    """Minimax over the rest of trick 1 with the Deal's actions, then the solver from trick 2.

    The solver's ordinary search is checked against brute force above; this checks the burial
    layer on top of it: legality, the buried cards' points and who holds what.
    """
    if d.phase is Phase.DONE:
        return d.result.points[0] - d.result.points[1]
    if d.tricks:
        return solve(Position.from_deal(d), card_values=False).value
    values = []
    for action in d.legal_actions():
        child = d.copy()
        child.apply(action)
        values.append(trick_one_value(child))
    return max(values) if d.to_act.team is Team.NS else min(values)


@pytest.mark.parametrize("options", [{}, {"high": "highest"}, {"low": "lowest-capturer"}, {"sancho": True}])
def test_burials_on_trick_one(options):
    rng = random.Random(3)
    rule_set = rules("pagat", **options)
    checked = 0
    while checked < 2:
        d = bury_deal(rule_set, rng)
        # play on until the burier is among the last two to play to trick 1
        while d.phase is Phase.PLAY and not d.tricks and len(d.trick) < 2:
            d.apply(rng.choice(d.legal_actions()))
        pos = Position.from_deal(d)
        if d.tricks or not pos.bury_pending():
            continue
        res = solve(pos)
        children = {}
        for action in d.legal_actions():
            child = d.copy()
            child.apply(action)
            v = trick_one_value(child)
            card = action.card
            better = max if d.to_act.team is Team.NS else min
            children[card] = v if card not in children else better(children[card], v)
        best = (max if d.to_act.team is Team.NS else min)(children.values())
        assert res.value == best, pos.describe()
        assert res.card_values == children, pos.describe()
        # the line the solver picks, burials included, gives its points
        play_solver_line(d)
        assert d.result.points == res.points
        checked += 1


def test_position_with_cards_already_buried():
    """A burier has played: the buried cards ride with the trick to its winner."""
    rng = random.Random(8)
    while True:
        d = bury_deal(rules("pagat"), rng)
        while d.phase is Phase.PLAY and not d.tricks and not any(p.buried for p in d.trick):
            d.apply(rng.choice(d.legal_actions()))
        if d.tricks or Position.from_deal(d).bury_pending():
            continue
        break
    pos = Position.from_deal(d)
    assert pos.trick_buried
    res = solve(pos)
    assert res.value == trick_one_value(d)
    play_solver_line(d)
    assert d.result.points == res.points


# ---- other queries ---------------------------------------------------------------------------------
def test_window_and_thresholds_agree_with_the_par():
    rng = random.Random(9)
    for preset in PRESET_NAMES:
        d = ending(rules(preset), rng, cards_left=16)
        pos = Position.from_deal(d)
        res = solve(pos, card_values=False)
        v = res.value
        assert window(pos, v - 1, v + 1) == v
        assert window(pos, v, v + 5) <= v
        assert window(pos, v - 5, v) >= v
        for team in (Team.NS, Team.EW):
            got = res.points[team]
            assert can_reach(pos, team, got)
            assert not can_reach(pos, team, got + 1)
        assert makers_can_make(pos) == res.made
        assert makers_can_make(pos, 1) == (res.points[pos.makers] >= 1)


def test_position_from_view_matches_from_deal():
    rng = random.Random(12)
    for preset in PRESET_NAMES:
        d = ending(rules(preset), rng, cards_left=rng.choice([9, 14, 19]))
        view = d.view(d.to_act)
        a = Position.from_deal(d)
        b = Position.from_view(view, d.hands)
        assert a == b
        assert solve(a).value == solve(b).value


def test_solved_position_needs_a_player_to_act():
    pos = Position.build(rules("pagat"), "H", Seat.N, [0, 0, 0, 0])
    with pytest.raises(ValueError):
        solve(pos)


# ---- cinch solve ------------------------------------------------------------------------------
def _record(preset: str, seed: int, stop) -> dict:
    from cinch.match import Match
    from cinch.record import to_record

    rng = random.Random(seed)
    m = Match(rules(preset), first_dealer=Seat.N, rng=rng)
    d = m.start_deal()
    while not stop(d):
        m.apply(rng.choice(d.legal_actions()))
        if d.is_over:
            break
    return to_record(m)


def _write(tmp_path, record: dict) -> str:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return str(path)


def test_cli_solve_in_the_play(tmp_path):
    record = _record("official", 3, lambda d: d.phase is Phase.PLAY and len(d.history) > 0 and len(d.trick) == 1)
    path = _write(tmp_path, record)
    out = CliRunner().invoke(main, ["solve", path])
    assert out.exit_code == 0, out.output
    assert "Par with best play: NS" in out.output and "Best for " in out.output
    data = json.loads(CliRunner().invoke(main, ["solve", path, "--json"]).output)
    assert data["par"]["NS"] - data["par"]["EW"] == data["difference"]
    assert set(data["best"]) <= {c["card"] for c in data["cards"]}
    assert data["made"] == (data["par"][data["makers"]] >= data["bid"])
    # the numbers are the solver's on the replayed deal
    from cinch.record import replay

    deal = replay(record).match.current
    res = solve(Position.from_deal(deal))
    assert data["difference"] == res.value and data["par"] == {"NS": res.points[0], "EW": res.points[1]}


@pytest.mark.parametrize("stop, words", [
    (lambda d: d.phase is Phase.BIDDING and len(d.history) == 1, "stops in the bidding of deal 1"),
    (lambda d: d.phase is Phase.DONE, "between deals"),
])
def test_cli_solve_outside_the_play(tmp_path, stop, words):
    path = _write(tmp_path, _record("difference", 5, stop))
    out = CliRunner().invoke(main, ["solve", path])
    assert out.exit_code == 2
    assert words in out.stderr and not out.stdout
    assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("content, words", [
    ("{not json", "not valid JSON"),
    ('{"format": "cinch/1", "rules": "pagat", "deals": []}', "has no deals"),
    ('{"format": "cinch/1", "rules": "nope", "deals": []}', "unknown preset"),
])
def test_cli_solve_bad_records(tmp_path, content, words):
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    out = CliRunner().invoke(main, ["solve", str(path)])
    assert out.exit_code == 2
    assert words in out.output and "Traceback" not in out.output


def test_cli_solve_missing_file(tmp_path):
    out = CliRunner().invoke(main, ["solve", str(tmp_path / "none.json")])
    assert out.exit_code == 2 and "cannot read the file" in out.output


# ---- cut-throat tables: the maker against all the others ----------------------------------------

def _maker_margin(deal: Deal) -> int:
    """A finished cut-throat deal: the maker's points less the others' together."""
    points = deal.result.points
    maker = int(deal.maker)
    return points[maker] - (sum(points) - points[maker])


def _minimax(deal: Deal) -> int:
    """Brute force over every legal card: the maker maximises his margin, every other player minimises it."""
    if deal.phase is Phase.DONE:
        return _maker_margin(deal)
    values = []
    for action in deal.legal_actions():
        child = deal.copy()
        child.apply(action)
        values.append(_minimax(child))
    return max(values) if deal.to_act == deal.maker else min(values)


def _cut_throat_play(players: int, preset: str, seed: int, cards_left: int) -> Deal | None:
    """A deal at a cut-throat table played at random until each hand holds at most ``cards_left``."""
    rules = Rules.preset(preset).with_options(players=players)
    rng = random.Random(seed)
    d = Deal.shuffled(rules, seed % players, rng=seed)
    while d.phase is not Phase.PLAY and d.phase is not Phase.DONE:
        if d.phase is Phase.RESTOCK:
            order = list(d.restock_pool)
            rng.shuffle(order)
            d.apply_restock(order)
            continue
        d.apply(rng.choice(d.legal_actions()))
    while d.phase is Phase.PLAY and (max(h.bit_count() for h in d.hands) > cards_left or rng.random() < 0.3):
        d.apply(rng.choice(d.legal_actions()))
    return d if d.phase is Phase.PLAY else None


@pytest.mark.parametrize("players,cards_left", [(2, 4), (3, 3), (5, 2), (6, 2)])
@pytest.mark.parametrize("preset", ["official", "pagat", "additive"])
def test_cut_throat_endings_match_brute_force(players, cards_left, preset):
    """Every card's value and the par equal a brute-force minimax of the maker against the
    others together, and the par's points by player add up to it."""
    solved = 0
    for seed in range(6):
        d = _cut_throat_play(players, preset, seed, cards_left)
        if d is None:
            continue
        res = solve(Position.from_deal(d))
        expected = {}
        for action in d.legal_actions():
            child = d.copy()
            child.apply(action)
            expected[action.card] = _minimax(child)
        assert res.card_values == dict(sorted(expected.items())), d
        assert res.value == (max if d.to_act == d.maker else min)(expected.values())
        maker = int(d.maker)
        assert len(res.points) == players
        assert res.points[maker] - (sum(res.points) - res.points[maker]) == res.value
        assert res.made == (res.points[maker] >= d.high_bid)
        solved += 1
    assert solved >= 3


@pytest.mark.parametrize("players", [2, 3, 5, 6])
def test_the_solver_plays_a_cut_throat_deal_to_its_par(players):
    """Best cards all round give the par's points by player, and a legal card at every turn
    (at five or six the last four tricks: a whole deal of thirty cards is for the expert's playouts)."""
    d = _cut_throat_play(players, "official", 4, 9 if players < 5 else 4)
    assert d is not None
    res = solve(Position.from_deal(d))
    while d.phase is Phase.PLAY:
        best = solve(Position.from_deal(d)).best_cards[0]
        assert Play(best) in d.legal_actions()
        d.apply(Play(best))
    assert _maker_margin(d) == res.value


def _alone_minimax(deal: Deal, seat: int) -> int:
    """Brute force with ``seat`` alone: he maximises his points less everyone else's, all the others minimise."""
    if deal.phase is Phase.DONE:
        points = deal.result.points
        return points[seat] - (sum(points) - points[seat])
    values = []
    for action in deal.legal_actions():
        child = deal.copy()
        child.apply(action)
        values.append(_alone_minimax(child, seat))
    return max(values) if deal.to_act == seat else min(values)


@pytest.mark.parametrize("players,cards_left", [(3, 3), (6, 2)])
def test_a_defender_searched_alone_against_everyone_else(players, cards_left):
    """``alone=seat``: a defender's own points when the maker and the other defenders all play
    against him, card by card as a brute force finds them, and they are his points in the result."""
    solved = 0
    for seed in range(6):
        d = _cut_throat_play(players, "official", seed, cards_left)
        if d is None:
            continue
        defender = (int(d.maker) + 1) % players
        res = solve(Position.from_deal(d), alone=defender)
        expected = {}
        for action in d.legal_actions():
            child = d.copy()
            child.apply(action)
            expected[action.card] = _alone_minimax(child, defender)
        assert res.card_values == dict(sorted(expected.items())), d
        assert res.points[defender] - (sum(res.points) - res.points[defender]) == res.value
        for card, value in res.card_values.items():
            mine, theirs = res.points_after(card)
            assert mine - theirs == value
        solved += 1
    assert solved >= 3


def test_alone_is_refused_at_four_players():
    d = ending(Rules.preset("official"), random.Random(1), 3)
    with pytest.raises(ValueError, match="cut-throat"):
        solve(Position.from_deal(d), alone=1)


def test_cut_throat_thresholds_agree_with_the_par():
    d = _cut_throat_play(3, "official", 2, 4)
    assert d is not None
    pos = Position.from_deal(d)
    res = solve(pos, card_values=False)
    maker = int(d.maker)
    mine = res.points[maker]
    assert can_reach(pos, maker, mine) and not can_reach(pos, maker, mine + 1)
    others = sum(res.points) - mine
    defender = (maker + 1) % 3
    assert can_reach(pos, defender, others) and not can_reach(pos, defender, others + 1)
    assert par(pos) == res.value


def test_position_from_a_cut_throat_view_matches_from_deal():
    d = _cut_throat_play(5, "official", 1, 4)
    assert d is not None
    view = d.view(d.maker)
    built = Position.from_view(view, d.hands)
    assert solve(built).value == solve(Position.from_deal(d)).value
    assert built.makers == d.maker.team


def test_cli_solve_at_a_three_player_table(tmp_path):
    """``cinch solve`` on a three-player record: the par by player, the maker against the others."""
    from cinch.match import Match
    from cinch.record import to_record

    rng = random.Random(5)
    m = Match(Rules.preset("official").with_options(players=3), first_dealer=0, rng=rng)
    d = m.start_deal()
    while not (d.phase is Phase.PLAY and len(d.tricks) == 3):
        m.apply(rng.choice(d.legal_actions()))
        assert not d.is_over
    path = _write(tmp_path, to_record(m))
    result = CliRunner().invoke(main, ["solve", path, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data["par"]) == {"1", "2", "3"} and data["players"] == 3
    assert all(set(c["points"]) == {"maker", "others"} for c in data["cards"])
    assert data["difference"] == solve(Position.from_deal(d)).value
    words = CliRunner().invoke(main, ["solve", path])
    assert "against the others together" in words.output and "Best for " in words.output


def test_cut_throat_burials_on_trick_one():
    """Pagat at three players: a hand of more than six trumps buries the excess on trick 1; the
    solver's cards and burials, played out, give its par."""
    rules = Rules.preset("pagat").with_options(players=3)
    rng = random.Random(13)
    d = Deal.shuffled(rules, 13 % 3, rng=13)
    while d.phase is not Phase.PLAY:
        d.apply(rng.choice(d.legal_actions()))
    pos = Position.from_deal(d)
    assert pos.bury_pending()
    par_result = solve(pos)
    while d.phase is Phase.PLAY:
        res = solve(Position.from_deal(d))
        card = res.best_cards[0]
        bury = res.buries.get(card, CardSet(0))
        d.apply(next(a for a in d.legal_actions() if a.card == card and a.bury == bury))
    assert _maker_margin(d) == par_result.value
    assert d.result.points == par_result.points


# ---- two decks: a card and its twin are equal, the first played wins -------------------------------
TWO_DECK_OPTIONS = [{}, {"follow": "strict"}, {"low": "two-holder"}, {"bowers": True},
                    {"sancho": True, "dom_pedro": True}]


@pytest.mark.parametrize("options", TWO_DECK_OPTIONS, ids=lambda o: "-".join(o) or "plain")
@pytest.mark.parametrize("preset", ["official", "pagat", "additive"])
def test_two_deck_endings_match_brute_force(preset, options):
    """Two packs at four players: the par, every card's value and the points equal a brute force on
    the Deal, and the cards valued are the legal ones, one per card as it reads (of two copies in the
    hand, the first pack's, as ``legal_actions`` names it)."""
    rng = random.Random(PRESET_NAMES.index(preset) * 10 + TWO_DECK_OPTIONS.index(options))
    rule_set = rules(preset, decks=2, **options)
    for _ in range(6):
        d = ending(rule_set, rng, cards_left=rng.choice([7, 9, 11, 12, 13]))
        check_exact(d)
        res = solve(Position.from_deal(d))
        assert sorted(res.card_values) == sorted(a.card for a in d.legal_actions())


@pytest.mark.parametrize("players,cards_left", [(2, 4), (3, 3), (5, 2), (6, 2)])
def test_two_deck_cut_throat_endings_match_brute_force(players, cards_left):
    """Two packs at a cut-throat table: the maker against the others, and a defender alone."""
    for seed in range(3):
        rule_set = Rules.preset("official").with_options(decks=2, players=players)
        rng = random.Random(seed)
        d = Deal.shuffled(rule_set, seed % players, rng=seed)
        while d.phase is not Phase.PLAY and d.phase is not Phase.DONE:
            if d.phase is Phase.RESTOCK:
                d.apply_restock(list(d.restock_pool))
                continue
            d.apply(rng.choice(d.legal_actions()))
        while d.phase is Phase.PLAY and max(h.bit_count() for h in d.hands) > cards_left:
            d.apply(rng.choice(d.legal_actions()))
        if d.phase is not Phase.PLAY:
            continue
        defender = (int(d.maker) + 1) % players
        res, alone = solve(Position.from_deal(d)), solve(Position.from_deal(d), alone=defender)
        for action in d.legal_actions():
            child = d.copy()
            child.apply(action)
            assert res.card_values[action.card] == _minimax(child), Position.from_deal(d).describe()
            assert alone.card_values[action.card] == _alone_minimax(child, defender)


@pytest.mark.parametrize("twin_led", [False, True])
@pytest.mark.parametrize("first", [Seat.N, Seat.E])
def test_the_first_played_of_two_equal_cards_wins_the_trick(first, twin_led):
    """The last trick, hearts trumps: a Jack of trumps led, the other copy played on it.  The leader's
    copy takes both Jacks (and High and Low, each copy of the only trumps in play) for his side."""
    rules_ = Rules.preset("official").with_options(decks=2)
    jack, twin = Card.parse("JH"), Card.parse("JH").twin
    if twin_led:
        jack, twin = twin, jack
    second = first.left
    hands = [0, 0, 0, 0]
    hands[second] = 1 << twin
    hands[second.left] = int(CardSet.parse("3C"))
    hands[first.left.left.left] = int(CardSet.parse("4C"))
    pos = Position.build(rules_, "H", first, hands, trick=[(first, jack)])
    res = solve(pos)
    leaders = res.points[first.team]
    assert leaders == 6 and res.points[first.team.other] == 0  # two Jacks, two High, two Low
    assert res.card_values == {twin: leaders if first.team is Team.NS else -leaders}
