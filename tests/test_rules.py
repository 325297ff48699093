"""The options and the five presets (cinch.rules), checked against the RULEBOOK tables.

Rule sources: RULEBOOK "Options" and "Presets" tables; docs/rule-readings.md.
"""

import pytest

from cinch import PRESET_NAMES, Rules
from cinch.errors import RulesError
from cinch.rules import AboveSix, AllPass, Bidding, Discard, Follow, High, Low, Rob, Settlement, StockOut, ThrownPoints

# RULEBOOK "Presets": one row per text.
PRESET_TABLE = {
    "pagat": dict(  # 000
        min_bid=7, highest_bid=14, all_pass=AllPass.STUCK_DEALER, bidding=Bidding.ONE_CIRCUIT,
        discard=Discard.ALL_CONCEALED, above_six=AboveSix.BURIED, rob=Rob.ALL_TRUMPS, stock_out=StockOut.RESHUFFLE,
        follow=Follow.ALL_FOURS, high=High.ACE, low=Low.TWO_HOLDER, settlement=Settlement.ADDITIVE, target=62,
        makers_count_first=False, bidder_goes_out=55, thrown_points=ThrownPoints.DEAD,
    ),
    "difference": dict(  # 001
        min_bid=1, highest_bid=14, all_pass=AllPass.THROW_IN, bidding=Bidding.ONE_CIRCUIT,
        discard=Discard.ALL_FACE_UP, above_six=AboveSix.KEEP_SIX, rob=Rob.ANY_SIX, stock_out=StockOut.RESHUFFLE,
        follow=Follow.ALL_FOURS, high=High.ACE, low=Low.TWO_CAPTURER, settlement=Settlement.DIFFERENCE, target=51,
        makers_count_first=True, bidder_goes_out=None, thrown_points=ThrownPoints.DEAD,
    ),
    "additive": dict(  # 002
        min_bid=1, highest_bid=14, all_pass=AllPass.THROW_IN, bidding=Bidding.ONE_CIRCUIT,
        discard=Discard.CHOOSE_CONCEALED, above_six=AboveSix.KEEP_SIX, rob=Rob.HAND_AND_STOCK,
        stock_out=StockOut.SHARE, follow=Follow.ALL_FOURS, high=High.ACE, low=Low.LOWEST_CAPTURER,
        settlement=Settlement.ADDITIVE, target=51, makers_count_first=True, bidder_goes_out=None,
        thrown_points=ThrownPoints.DEAD,
    ),
    "official": dict(  # 003
        min_bid=1, highest_bid=14, all_pass=AllPass.THROW_IN, bidding=Bidding.ONE_CIRCUIT,
        discard=Discard.ALL_CONCEALED, above_six=AboveSix.KEEP_SIX, rob=Rob.HAND_AND_STOCK,
        stock_out=StockOut.RESHUFFLE, follow=Follow.ALL_FOURS, high=High.HIGHEST, low=Low.LOWEST_CAPTURER,
        settlement=Settlement.DIFFERENCE, target=51, makers_count_first=False, bidder_goes_out=None,
        thrown_points=ThrownPoints.DEFENDERS_TO_MAKERS,
    ),
    "double-pedro": dict(  # 004
        min_bid=1, highest_bid=14, all_pass=AllPass.THROW_IN, bidding=Bidding.ONE_CIRCUIT,
        discard=Discard.ALL_CONCEALED, above_six=AboveSix.KEEP_SIX, rob=Rob.TRUMPS_FIRST,
        stock_out=StockOut.RESHUFFLE, follow=Follow.ALL_FOURS, high=High.HIGHEST, low=Low.LOWEST_CAPTURER,
        settlement=Settlement.DIFFERENCE, target=51, makers_count_first=False, bidder_goes_out=None,
        thrown_points=ThrownPoints.DEAD,
    ),
}


def test_there_is_one_preset_per_rule_text():
    assert PRESET_NAMES == ("pagat", "difference", "additive", "official", "double-pedro")
    assert set(PRESET_TABLE) == set(PRESET_NAMES)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_each_preset_holds_the_values_of_the_rulebook_table(name):
    rules = Rules.preset(name)
    for option, value in PRESET_TABLE[name].items():
        assert getattr(rules, option) == value, option
    # Options the rulebook gives no text as a default: off in every preset.
    assert not rules.sancho and not rules.dom_pedro and not rules.no_draw and rules.negative_floor is None
    assert rules.total_points == 14 and rules.tricks == 6
    assert rules.to_json() == name and rules.name == name


def test_dealer_discards_except_under_the_hand_and_stock_rob():
    # 003 "All players (except the dealer) must discard"; readings: hand-and-stock is used for 002 too.
    assert Rules.preset("pagat").dealer_discards and Rules.preset("difference").dealer_discards
    assert Rules.preset("double-pedro").dealer_discards
    assert not Rules.preset("official").dealer_discards and not Rules.preset("additive").dealer_discards


def test_unknown_preset_is_refused_with_the_list():
    with pytest.raises(RulesError, match="pagat, difference, additive, official, double-pedro"):
        Rules.preset("pitch")


# RULEBOOK: "Every option is also settable on its own on top of a preset (target 42 with
# additive, strict follow, auction bidding, Sancho, and so on)."
def test_options_set_on_top_of_a_preset():
    r = Rules.preset("additive").with_options(target=42, follow="strict", bidding="auction")
    assert (r.target, r.follow, r.bidding) == (42, Follow.STRICT, Bidding.AUCTION)
    assert r.settlement is Settlement.ADDITIVE  # the rest of the preset is untouched
    assert r.to_json() == {"preset": "additive", "target": 42, "bidding": "auction", "follow": "strict"}
    assert r.name == "additive+"
    assert Rules.from_json(r.to_json()) == r


def test_options_are_read_from_text_as_on_the_command_line():
    r = Rules.from_text("difference", ["target=61", "all-pass=stuck-dealer", "negative_floor=-30", "sancho=yes"])
    assert (r.target, r.all_pass, r.negative_floor, r.sancho) == (61, AllPass.STUCK_DEALER, -30, True)
    assert Rules.from_text("pagat", ["bidder_goes_out=none", "target=51"]).bidder_goes_out is None


def test_sancho_and_dom_pedro_raise_the_points_and_the_highest_bid():
    # 002 "Pedro Sancho ... total per deal becomes 23"; "Dom Pedro ... the 3 of trumps for 3".
    # Readings: independent options; the highest bid defaults to the points a deal holds.
    base = Rules.preset("additive")
    assert base.with_options(sancho=True).total_points == 23
    assert base.with_options(sancho=True).highest_bid == 23
    assert base.with_options(dom_pedro=True).total_points == 17
    assert base.with_options(sancho=True, dom_pedro=True).highest_bid == 26


def test_no_draw_plays_nine_tricks():
    # 002 "Simple Cinch (no draw): ... play the original 9-card hand throughout."
    assert Rules.preset("additive").with_options(no_draw=True).tricks == 9


@pytest.mark.parametrize("preset, options, words", [
    # Both settle a deal that takes both sides past the target, in different ways.
    ("pagat", {"makers_count_first": True}, "bidder_goes_out clashes with makers_count_first"),
    # Pagat's bidder goes out at 55 makes no sense with a target of 51.
    ("pagat", {"target": 51}, "bidder_goes_out at 55 clashes with target 51"),
    ("difference", {"max_bid": 15}, "max_bid 15 clashes with the points in a deal"),
    ("difference", {"min_bid": 9, "max_bid": 8}, "no bid would be legal"),
    ("difference", {"min_bid": 15}, "min_bid 15 must be between 1 and the 14 points"),
    ("additive", {"negative_floor": 0}, "negative_floor 0 must be below zero"),
    ("additive", {"no_draw": True, "discard": "all-face-up"}, "no_draw clashes with discard"),
    ("pagat", {"no_draw": True, "rob": "any-six"}, "no_draw clashes with rob"),
    ("official", {"target": 0}, "target 0 must be at least 1"),
])
def test_clashing_or_impossible_options_are_refused(preset, options, words):
    with pytest.raises(RulesError, match=words):
        Rules.preset(preset).with_options(**options)


def test_bad_option_names_and_values_are_refused_with_what_is_accepted():
    with pytest.raises(RulesError, match="unknown option 'trumps'"):
        Rules.preset("pagat").with_options(trumps="hearts")
    with pytest.raises(RulesError, match="strict"):
        Rules.preset("pagat").with_options(follow="loose")
    with pytest.raises(RulesError, match="true or false"):
        Rules.preset("pagat").with_options(sancho="maybe")
    with pytest.raises(RulesError, match="a whole number"):
        Rules.preset("pagat").with_options(target="sixty")
    with pytest.raises(RulesError, match="KEY=VALUE"):
        Rules.from_text("pagat", ["target"])
    with pytest.raises(RulesError, match='"preset"'):
        Rules.from_json({"target": 42})


def test_a_preset_can_be_raised_to_sancho_bids_only_with_sancho():
    assert Rules.preset("additive").with_options(sancho=True, max_bid=20).highest_bid == 20
    with pytest.raises(RulesError, match="Sancho raises it to 23"):
        Rules.preset("additive").with_options(max_bid=20)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_describe_states_each_preset_in_plain_words(name):
    text = "\n".join(Rules.preset(name).describe())
    target = PRESET_TABLE[name]["target"]
    assert f"First side to {target} wins." in text
    if name == "pagat":
        assert "must bid 7" in text and "buried" in text and "Bidder goes out" in text
    else:
        assert "thrown in" in text


# Each clash says which override resolves it, and that override does.
@pytest.mark.parametrize("preset, options, hint, fixed", [
    ("pagat", ["target=42", "follow=strict"],
     "bidder_goes_out at 55 clashes with target 42: the threshold must be below the target; "
     "add -o bidder_goes_out=none (null in a record), or a value below 42", ["bidder_goes_out=none"]),
    ("pagat", ["makers_count_first=true"], "add -o bidder_goes_out=none (null in a record) or "
     "-o makers_count_first=false", ["bidder_goes_out=none"]),
    ("difference", ["max_bid=20"], "add -o max_bid=none (null in a record) to bid up to the points a deal "
     "holds, -o max_bid=N with N up to 14, or -o sancho=true", ["sancho=true"]),
    ("difference", ["min_bid=9", "max_bid=8"], "add -o max_bid=N with N at least 9, or -o min_bid=N with N at "
     "most 8", ["max_bid=9"]),
    ("difference", ["min_bid=15"], "add -o min_bid=N with N from 1 to 14, or -o sancho=true", ["sancho=true"]),
    ("additive", ["negative_floor=5"], "add -o negative_floor=N with N below zero", ["negative_floor=-30"]),
    ("additive", ["no_draw=true", "discard=all-face-up"], "leave out discard, or no_draw", []),
])
def test_a_clash_says_which_override_resolves_it(preset, options, hint, fixed):
    with pytest.raises(RulesError) as info:
        Rules.from_text(preset, options)
    assert hint in str(info.value)
    if fixed:
        Rules.from_text(preset, options + fixed)  # what the hint says works


def test_the_documented_example_on_the_default_preset_says_what_to_add():
    # `cinch play -o target=42 -o follow=strict` (pagat, bidder goes out at 55)
    with pytest.raises(RulesError, match=r"add -o bidder_goes_out=none .* or a value below 42"):
        Rules.from_text("pagat", ["target=42", "follow=strict"])
    rules = Rules.from_text("pagat", ["target=42", "follow=strict", "bidder_goes_out=40"])
    assert (rules.target, rules.bidder_goes_out) == (42, 40)


@pytest.mark.parametrize("option, value", [
    ("sancho", "yes"), ("sancho", "true"), ("sancho", 1), ("no_draw", 0), ("target", "42"), ("target", True),
    ("target", 42.0), ("min_bid", None), ("max_bid", "none"), ("bidder_goes_out", "off"), ("follow", 1),
    ("follow", None),
])
def test_a_record_gives_options_in_their_json_type(option, value):
    with pytest.raises(RulesError, match=f"{option} cannot be .* in a record; it takes "):
        Rules.from_json({"preset": "additive", option: value})


def test_json_types_are_accepted_in_a_record_and_text_on_the_command_line():
    spec = {"preset": "pagat", "sancho": True, "target": 42, "bidder_goes_out": None, "follow": "strict",
            "negative_floor": -30}
    from_record = Rules.from_json(spec)
    from_command_line = Rules.from_text("pagat", ["sancho=yes", "target=42", "bidder_goes_out=none",
                                                  "follow=strict", "negative_floor=-30"])
    assert from_record == from_command_line
    assert Rules.from_json(from_record.to_json()) == from_record


def test_every_option_is_explained_with_the_rule_texts_it_comes_from():
    from cinch.rules import OPTION_HELP, OPTION_NAMES, RULE_TEXTS, option_help

    assert RULE_TEXTS == {"000": "pagat", "001": "difference", "002": "additive", "003": "official",
                          "004": "double-pedro"}
    assert set(OPTION_HELP) == set(OPTION_NAMES)
    for key in OPTION_NAMES:
        meaning, texts = option_help(key)
        assert meaning.endswith(".") and len(meaning) >= 15, key
        assert any(number in texts for number in RULE_TEXTS) or "every text" in texts, key
    assert "002" in option_help("sancho")[1] and "000" in option_help("bidder_goes_out")[1]


# ---- table sizes: players and heasly (docs/rule-readings.md, "Cut-throat") -------------------------
@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_preset_is_played_by_four_in_partnerships_unless_told(name):
    r = Rules.preset(name)
    assert r.players == 4 and not r.cut_throat and not r.heasly and r.seating.partnership


@pytest.mark.parametrize("n", [2, 3, 5, 6])
def test_players_sets_the_table_and_is_written_in_the_record_form(n):
    r = Rules.from_text("official", [f"players={n}"])
    assert r.players == n and r.cut_throat and r.seating.players == n
    assert r.to_json() == {"preset": "official", "players": n} and r.name == "official+"
    assert Rules.from_json(r.to_json()) == r


def test_without_a_draw_five_or_six_play_the_six_cards_dealt():
    assert Rules.preset("official").with_options(players=5, no_draw=True).tricks == 6
    assert Rules.preset("official").with_options(players=3, no_draw=True).tricks == 9


def test_heasly_is_six_players_to_62_unless_the_target_is_given():
    # 002 "Heasly: A Midwestern 6-player cut-throat variant; every player scores individually and the
    # target is higher" -- no number: 62, the highest among the texts (000), docs/rule-readings.md.
    r = Rules.preset("official").with_options(heasly=True)
    assert (r.players, r.target, r.cut_throat) == (6, 62, True)
    assert r.to_json() == {"preset": "official", "target": 62, "players": 6, "heasly": True}
    assert Rules.preset("official").with_options(heasly=True, target=75).target == 75
    assert Rules.preset("official").with_options(target=75).with_options(heasly=True).target == 75
    assert Rules.from_json({"preset": "additive", "heasly": True}).target == 62


@pytest.mark.parametrize(("options", "words"), [
    ({"players": 1}, "players 1: Cinch is played by 2 to 6; add -o players=N with N from 2 to 6"),
    ({"players": 7}, "players 7: Cinch is played by 2 to 6"),
    ({"players": "three"}, "players cannot be 'three'; it takes a whole number"),
    ({"heasly": True, "players": 5}, "heasly clashes with players 5: Heasly is played by six; add -o players=6"),
    ({"honour_rule": True, "players": 3}, "honour_rule clashes with players 3: the rulings on irregularities "
                                          "(002, 003) name partnerships, so the honour rule is played by four"),
    ({"honour_rule": True, "heasly": True}, "honour_rule clashes with players 6"),
])
def test_a_table_size_that_cannot_be_played_is_refused_saying_what_to_change(options, words):
    with pytest.raises(RulesError) as info:
        Rules.preset("official").with_options(**options)
    assert str(info.value).startswith(words)


@pytest.mark.parametrize(("n", "words"), [
    (2, "2 players, each for himself, seats 1 to 2; each is dealt 9; the dealer does not rob the pack but "
        "discards and draws like the others; the maker plays alone against all the others."),
    (3, "3 players, each for himself, seats 1 to 3; each is dealt 9; the dealer does not rob the pack but "
        "discards and draws like the others; the maker plays alone against all the others."),
    (5, "5 players, each for himself, seats 1 to 5; each is dealt 6; the maker plays alone against all the others."),
])
def test_describe_says_who_plays_and_how_a_cut_throat_deal_is_settled(n, words):
    lines = Rules.preset("pagat").with_options(players=n).describe()
    assert words in lines
    assert "If all the others pass, the dealer is stuck and must bid 7." in lines
    settled = [line for line in lines if line.startswith(("Each player scores", "Defenders add"))]
    if n == 2:  # two sides: the preset's own settlement
        assert settled == ["Defenders add what they take; makers add theirs if they reach the bid, else lose the bid."]
    else:
        assert settled == ["Each player scores the points he took; a maker short of his bid loses the bid instead "
                           "(cut-throat, docs/rule-readings.md)."]
    assert lines[-1].startswith("First player to 62 wins.")


@pytest.mark.parametrize(("preset", "target"), [("official", 51), ("official", 62), ("official", 100),
                                                ("pagat", 62), ("pagat", 100)])
def test_heasly_with_any_target_round_trips_through_the_record_form(preset, target):
    # Heasly brings its own target (62): a record must say so when the table plays to another,
    # even the preset's own (found by the property test of save and replay).
    rules = Rules.preset(preset).with_options(heasly=True, target=target)
    again = Rules.from_json(rules.to_json())
    assert again == rules and again.target == target


# ---- two decks (002 "Two-deck Cinch"; docs/rule-readings.md "Two decks") ----------------------------
def test_two_decks_double_every_count_of_points_unless_given():
    r = Rules.preset("pagat").with_options(decks=2)
    assert (r.total_points, r.target, r.min_bid, r.bidder_goes_out, r.tricks) == (28, 124, 14, 110, 12)
    assert (r.seating.dealt, r.seating.stock, r.seating.hand) == (18, 32, 12)
    given = Rules.preset("official").with_options(decks=2, target=51)
    assert given.target == 51 and given.min_bid == 2
    assert Rules.from_json(given.to_json()) == given  # the given target survives a record
    assert Rules.from_json(r.to_json()) == r


def test_two_decks_at_five_players_deal_twelve_each():
    r = Rules.preset("official").with_options(decks=2, players=5)
    assert (r.seating.dealt, r.seating.stock, r.seating.batches) == (12, 44, 20)


def test_a_third_deck_is_refused_saying_what_is_played():
    with pytest.raises(RulesError, match="one pack, or two"):
        Rules.preset("official").with_options(decks=3)


def test_the_rules_in_words_tell_the_two_deck_deal():
    text = " ".join(Rules.preset("official").with_options(decks=2).describe())
    assert "Two decks (104 cards)" in text and "first played wins" in text and "28 in all" in text
    assert "refilled to twelve" in text
