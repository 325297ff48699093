"""The cinch/1 game record (cinch.record): load, replay, write, and refuse bad records.

Rule source: RECORD.md (the format, `cinch replay`), with RULEBOOK for what the
actions mean.  Full records with hand-worked expected replays are in
tests/records and tests/test_golden_records.py.
"""

import json
import pathlib
import random
import re

import pytest

from cinch import Phase, Rules, Seat, parse_action
from cinch.errors import RecordError
from cinch.match import Match
from cinch.record import dumps, loads, replay, to_record
from cinch.shuffle import Shuffle
from helpers import RECORD_EXAMPLE_DECK, RESTOCK, STUCK_N, TABLE_SHORT, scripted


def record(*deals, rules="pagat", **extra):
    return {"format": "cinch/1", "rules": rules, **extra, "deals": list(deals)}


def entry(dealer, deck, actions, **extra):
    return {"dealer": dealer, "deck": deck, **extra, "actions": list(actions)}


def scripted_entry(preset, dealer, kind, bid=7):
    deck, actions = scripted(preset, dealer, kind, bid)
    return entry(dealer, deck, actions)


def refused(rec) -> str:
    with pytest.raises(RecordError) as info:
        replay(rec)
    return str(info.value)


# ---- replay ---------------------------------------------------------------------
def test_replay_reports_each_deal_and_the_running_score():
    # RECORD.md `cinch replay --json`: points, score_change, score after each deal; winner; next.
    out = replay(record(scripted_entry("pagat", "W", "split"), scripted_entry("pagat", "N", "sweep"))).to_json()
    assert out["rules"] == "pagat" and out["winner"] is None and out["next"] is None
    assert out["score"] == {"NS": 7, "EW": 21}
    assert out["deals"] == [
        {"dealer": "W", "thrown_in": False, "maker": "N", "bid": 7, "trump": "H", "points": {"NS": 7, "EW": 7},
         "made": True, "score_change": {"NS": 7, "EW": 7}, "score": {"NS": 7, "EW": 7}},
        {"dealer": "N", "thrown_in": False, "maker": "E", "bid": 7, "trump": "H", "points": {"NS": 0, "EW": 14},
         "made": True, "score_change": {"NS": 0, "EW": 14}, "score": {"NS": 7, "EW": 21}},
    ]


def test_a_thrown_in_deal_is_its_own_deal_with_four_passes():
    # RECORD.md: "a thrown-in deal stands as its own deal with its four passes"; its json has
    # thrown_in true, maker, bid, trump, points and made null, and a score change of 0 to 0.
    out = replay(record(entry("N", RECORD_EXAMPLE_DECK, ["pass"] * 4), rules="difference")).to_json()
    assert out["deals"] == [{"dealer": "N", "thrown_in": True, "maker": None, "bid": None, "trump": None,
                             "points": None, "made": None, "score_change": {"NS": 0, "EW": 0},
                             "score": {"NS": 0, "EW": 0}}]
    assert out["next"] is None


@pytest.mark.parametrize("actions, phase, seat, legal", [
    ([], "bidding", "N", ["pass"] + [f"bid {n}" for n in range(7, 15)]),
    (["pass", "pass", "pass"], "bidding", "W", ["bid 7"]),
    (["pass", "pass", "pass", "bid 7"], "trump", "W", ["trump S", "trump H", "trump D", "trump C"]),
])
def test_next_names_the_seat_the_phase_and_the_legal_actions(actions, phase, seat, legal):
    # RECORD.md: "next: ... for one that stops inside a deal, the seat to act, the phase, and its legal
    # actions in the notation above".
    out = replay(record(entry("W", RECORD_EXAMPLE_DECK, actions))).to_json()
    assert out["next"] == {"seat": seat, "phase": phase, "legal": legal}
    assert out["deals"] == []


def test_card_input_is_lenient_and_output_canonical():
    # RECORD.md: "Input may also use 10, lower case, or the symbols; output is always the canonical form."
    deck, actions = scripted("pagat", "W", "split")
    lenient = deck.lower().replace("th", "10♥").replace("5d", "5♦")
    rec = record(entry("w", lenient, [a.replace("TH", "10h") for a in actions[:-1]]))
    out = replay(rec).to_json()
    assert out["next"]["legal"] == ["play TC"]
    assert out["next"]["seat"] == "S" and out["next"]["phase"] == "play"


def test_a_record_round_trips_through_to_record_and_dumps():
    m = Match(Rules.preset("official").with_options(target=42), first_dealer=Seat.E, players={Seat.N: "Ann"})
    for dealer, kind in (("E", "sweep"), ("S", "set")):
        deck, actions = scripted(m.rules, dealer, kind)
        m.start_deal(deck)
        for text in actions:
            m.apply(parse_action(text))
    text = dumps(to_record(m, comment="two deals"))
    data = loads(text)
    assert data["rules"] == {"preset": "official", "target": 42} and data["players"] == {"N": "Ann"}
    assert data["comment"] == "two deals"
    assert replay(data).to_json() == {
        "rules": {"preset": "official", "target": 42}, "score": {"NS": 14 + 21, "EW": 0}, "winner": None,
        "deals": [s.to_json() for s in m.summaries], "next": None,
    }


def test_a_program_that_forms_a_new_stock_writes_it_as_restock():
    # RECORD.md: "restock (optional): ... the order of that new stock, top first. A program that
    # shuffles one writes it."
    m = Match(Rules.preset("pagat"), first_dealer=Seat.N)
    d = m.start_deal(TABLE_SHORT)
    for text in STUCK_N:
        m.apply(parse_action(text))
    order = [str(c) for c in d.restock_pool]
    random.Random(3).shuffle(order)
    d.apply_restock(order)
    rec = to_record(m)
    assert rec["deals"][0]["restock"] == " ".join(order)
    again = replay(json.loads(dumps(rec))).match.deals[0]
    assert again.hand(Seat.W) == d.hand(Seat.W) and again.restock == d.restock


# ---- refusing bad records -------------------------------------------------------
def test_a_record_must_be_a_cinch_1_object():
    with pytest.raises(RecordError, match="not valid JSON"):
        loads("{")
    with pytest.raises(RecordError, match="JSON object"):
        loads("[1, 2]")
    assert '"format" must be "cinch/1"' in refused({"format": "cinch/0", "rules": "pagat", "deals": []})
    assert 'no "rules"' in refused({"format": "cinch/1", "deals": []})
    assert "rules: unknown preset 'pitch'" in refused(record(rules="pitch"))
    assert "rules: unknown option" in refused(record(rules={"preset": "pagat", "colour": "red"}))
    assert '"deals" must be a list' in refused({"format": "cinch/1", "rules": "pagat", "deals": {}})
    assert '"players" has' in refused(record(players={"X": "Ann"}))


def test_a_bad_deal_entry_names_the_deal():
    deck = RECORD_EXAMPLE_DECK
    assert refused(record("deal")) == "deal 1: a deal must be an object with dealer, deck and actions"
    assert refused(record(scripted_entry("pagat", "W", "split"), {"dealer": "N", "deck": deck})) == (
        'deal 2: the deal has no "actions"')
    assert "deal 1: unknown field 'trump'" in refused(record(entry("W", deck, [], trump="H")))
    assert refused(record(entry("Q", deck, []))).startswith('deal 1: "dealer" must be one of N E S W')
    assert refused(record(entry("W", deck.replace("TD", "AH"), []))) == 'deal 1: "deck": the deck holds AH twice'
    assert "a deck holds 52 cards, this one 51" in refused(record(entry("W", deck.rsplit(" ", 1)[0], [])))
    assert '"deck": \'1H\' is not a card' in refused(record(entry("W", deck.replace("AH", "1H"), [])))


def test_the_dealer_of_each_deal_must_pass_to_the_left():
    rec = record(entry("W", RECORD_EXAMPLE_DECK, ["pass"] * 4), entry("E", RECORD_EXAMPLE_DECK, []),
                 rules="difference")
    assert refused(rec).startswith("deal 2: ") and "the deal passes to the left: N deals now" in refused(rec)


def test_an_illegal_action_names_the_deal_the_action_the_rule_and_what_was_legal():
    # RECORD.md: "one message ... that names the file, the deal and action number, what was wrong, and
    # what was legal there."
    rec = record(entry("W", RECORD_EXAMPLE_DECK, ["pass"] * 4))
    assert refused(rec) == (
        "deal 1, action 4: 'pass' is illegal: the first three passed, so the dealer is stuck and must bid 7. "
        "Legal there: bid 7")
    rec = record(entry("W", RECORD_EXAMPLE_DECK, ["bid 7", "bid 6"]))
    assert refused(rec).startswith("deal 1, action 2: 'bid 6' is illegal: bids run from 7 to 14 under pagat. "
                                   "Legal there: pass, bid 8, bid 9")
    rec = record(entry("W", RECORD_EXAMPLE_DECK, ["bid 7", "raise"]))
    assert refused(rec).startswith("deal 1, action 2: 'raise' is not an action; actions are pass, bid N")
    assert refused(rec).endswith("Legal there: pass, bid 8, bid 9, bid 10, bid 11, bid 12, bid 13, bid 14")


def test_a_long_choice_is_described_not_listed():
    deck, actions = scripted("official", "W", "split")
    rob = actions.index("keep TH 9H 7H 3H 2H 5D")
    rec = record(entry("W", deck, actions[:rob] + ["keep AH"]), rules="official")
    message = refused(rec)
    assert message.startswith(f"deal 1, action {rob + 1}: 'keep AH' is illegal: ")
    assert message.endswith("Legal there: keep 6 of 7S 6S 5S 4S TH 9H 7H 3H 2H 5D AC KC QC JC 5C")


def test_actions_after_the_end_and_deals_after_the_match_are_refused():
    deck, actions = scripted("difference", "W", "split")
    rec = record(entry("W", deck, actions + ["play AH"]), rules="difference")
    assert refused(rec).startswith(f"deal 1, action {len(actions) + 1}: 'play AH' comes after the deal is over")
    to_14 = Rules.from_json({"preset": "difference", "target": 14})
    win = record(scripted_entry(to_14, "W", "sweep"), scripted_entry(to_14, "N", "sweep"), rules=to_14.to_json())
    assert refused(win).startswith("deal 2: the match was already won by NS")


def test_an_unfinished_deal_must_be_the_last():
    rec = record(entry("W", RECORD_EXAMPLE_DECK, ["pass"]), entry("N", RECORD_EXAMPLE_DECK, []))
    assert "deal 1" in refused(rec) and "the deal stops before its end, but another deal follows" in refused(rec)


def test_a_stock_out_needs_a_restock_and_a_restock_needs_a_stock_out():
    message = refused(record(entry("N", TABLE_SHORT, STUCK_N)))
    assert message.startswith("deal 1") and 'the deal has no "restock"' in message
    ok = replay(record(entry("N", TABLE_SHORT, STUCK_N, restock=RESTOCK)))
    assert ok.to_json()["next"]["seat"] == "N"
    wrong = record(entry("N", TABLE_SHORT, STUCK_N, restock=RESTOCK.rsplit(" ", 1)[0]))
    assert "the new stock is made of exactly the non-trump discards" in refused(wrong)
    deck, actions = scripted("pagat", "W", "split")
    assert refused(record(entry("W", deck, actions, restock="AS"))).startswith(
        'deal 1: "restock" is given but the stock never ran out')


def test_rules_as_an_object_with_overrides():
    # RECORD.md: rules is "a preset name, or an object {"preset": NAME, ...} whose other keys override".
    rec = record(entry("W", RECORD_EXAMPLE_DECK, []), rules={"preset": "additive", "target": 42, "follow": "strict"})
    out = replay(rec).to_json()
    assert out["rules"] == {"preset": "additive", "target": 42, "follow": "strict"}
    assert out["next"]["legal"][:3] == ["pass", "bid 1", "bid 2"]


# ---- decisions on lenient input (docs/record-format.md) ------------------------------
def test_unknown_top_level_keys_are_metadata_and_replay():
    # "Any other top-level key is metadata: a reader keeps it and ignores it" (cinch arena writes "arena").
    rec = record(entry("W", RECORD_EXAMPLE_DECK, ["bid 7"]), arena={"pair": 3, "a_seats": "NS"}, comment="x")
    assert replay(rec).to_json()["next"]["seat"] == "E"


def test_unknown_keys_inside_a_deal_are_refused():
    # "Any key other than these four is refused inside a deal, because it could change how the deal replays."
    message = refused(record(entry("W", RECORD_EXAMPLE_DECK, ["bid 7"], score={"NS": 3})))
    assert message == "deal 1: unknown field 'score'; a deal has dealer, deck, restock, shuffle and actions"


@pytest.mark.parametrize("field", ["deck", "restock"])
def test_a_deck_or_restock_given_as_a_list_is_refused(field):
    # "deck and restock must be a single string; a JSON list of cards is refused with a message asking for one".
    deck = TABLE_SHORT.split() if field == "deck" else TABLE_SHORT
    restock = RESTOCK.split() if field == "restock" else RESTOCK
    message = refused(record(entry("N", deck, STUCK_N, restock=restock)))
    assert message.startswith(f'deal 1: "{field}" must be cards in one string, separated by spaces')
    assert message.endswith("not a list")


def test_a_byte_order_mark_before_a_record_is_ignored():
    text = "\ufeff" + dumps(record(entry("W", RECORD_EXAMPLE_DECK, ["bid 7"])))
    assert replay(loads(text)).to_json()["next"]["seat"] == "E"


@pytest.mark.parametrize("option, value, words", [
    ("sancho", "yes", "sancho cannot be 'yes' in a record; it takes true or false"),
    ("sancho", 1, "sancho cannot be 1 in a record; it takes true or false"),
    ("target", "42", "target cannot be '42' in a record; it takes a whole number as a JSON number"),
    ("target", True, "target cannot be true in a record"),
    ("target", 42.5, "target cannot be 42.5 in a record"),
    ("max_bid", "none", "max_bid cannot be 'none' in a record; it takes a whole number as a JSON number (as 42, "
                        "without quotes), or null for off"),
    ("follow", 1, 'follow cannot be 1 in a record; it takes a string, one of "all-fours", "strict"'),
])
def test_rules_options_in_a_record_carry_their_json_type(option, value, words):
    # "In a record, option values carry their JSON type ... Text forms ... are refused in a record".
    message = refused(record(rules={"preset": "additive", option: value}))
    assert message == f"rules: {words}" or message.startswith(f"rules: {words}")


def test_rules_options_of_the_right_json_type_replay():
    rules = {"preset": "additive", "sancho": True, "target": 42, "max_bid": None, "follow": "strict"}
    assert replay(record(rules=rules)).match.rules == Rules.from_text(
        "additive", ["sancho=yes", "target=42", "max_bid=none", "follow=strict"])


def test_an_unfinished_deal_is_described_with_its_bids_trump_and_tricks():
    deck, actions = scripted("pagat", "W", "split")
    first_play = next(i for i, a in enumerate(actions) if a.startswith("play"))
    rec = record(entry("W", deck, actions[:first_play + 5]))  # one trick done, one card of the next
    text = replay(rec).describe()
    lines = text.splitlines()
    assert lines[0] == "Rules: pagat (target 62)"
    assert lines[1] == "  1. W dealt, in progress:"
    assert lines[2] == "     Bids: N bid 7, E pass, S pass, W pass."
    assert lines[3] == "     Trumps: hearts, named by N, who bid 7."
    assert re.fullmatch(r"     Trick 1: N \w\w, E \w\w, S \w\w, W \w\w; [NESW] won it\.", lines[4]), lines[4]
    assert re.fullmatch(r"     Trick 2, so far: [NESW] \w\w\.", lines[5]), lines[5]
    assert lines[6] == "Score: NS 0, EW 0; the match goes on."
    assert lines[7].startswith("Next: ")
    # in the bidding, only the bids so far
    text = replay(record(entry("W", deck, actions[:2]))).describe()
    assert "     Bids: N bid 7, E pass." in text and "Trumps" not in text and "Trick" not in text


# ---- verifiable shuffles ----------------------------------------------------------------
# Under pagat, N dealing and every seat taking its first legal action, the first deal of shuffled_match
# from this salt runs out of stock after five actions (three passes, the stuck dealer's bid 7, trump S):
# its record carries a "restock".
RESTOCK_SALT = f"{11:032x}"


def shuffled_match(salts, preset="pagat", stop=None) -> Match:
    """A match whose deals come from shuffles of these salts, every seat taking its first legal action;
    the last deal stops at phase ``stop`` (or plays to its end)."""
    m = Match(Rules.preset(preset), first_dealer=Seat.N, players={Seat.S: "Ann"})
    for number, salt in enumerate(salts, start=1):
        deal = m.start_deal(shuffle=Shuffle(salt, ("", f"{number:02x}", "", "c0ffee"), number))
        while not deal.is_over and not (number == len(salts) and deal.phase is stop):
            if deal.phase is Phase.RESTOCK:
                m.resolve_chance()
                continue
            m.apply(next(iter(deal.legal_actions())))
    return m


def test_a_match_dealt_from_shuffles_round_trips_keeping_them():
    m = shuffled_match([f"{k:032x}" for k in (1, 2, 3)], stop=Phase.PLAY)
    rec = to_record(m)
    for i, entry in enumerate(rec["deals"]):
        assert entry["shuffle"] == m.shuffles[i].to_json()
        keys = list(entry)
        assert keys.index("shuffle") == keys.index("actions") - 1  # after deck (and restock), before actions
    text = dumps(rec)
    again = replay(loads(text))
    assert again.match.shuffles == m.shuffles
    assert dumps(to_record(again.match)) == text
    assert again.to_json()["next"] == replay(to_record(m)).to_json()["next"]
    assert "Fair shuffle: 3 deals' commitments verified." in again.describe().splitlines()


def test_a_record_without_shuffles_is_written_and_described_as_before():
    deck, actions = scripted("pagat", "W", "split")
    rec = record(entry("W", deck, actions))
    result = replay(rec)
    assert "shuffle" not in to_record(result.match)["deals"][0]
    assert "Fair shuffle" not in result.describe()
    one = replay(to_record(shuffled_match([f"{1:032x}"])))
    assert "Fair shuffle: 1 deal's commitment verified." in one.describe()


def test_a_shuffled_deal_with_a_new_stock_round_trips_and_its_restock_is_verified():
    m = shuffled_match([RESTOCK_SALT])
    deal = m.deals[0]
    assert deal.restock is not None and deal.is_over
    rec = to_record(m)
    assert list(rec["deals"][0]) == ["dealer", "deck", "restock", "shuffle", "actions"]
    again = replay(json.loads(dumps(rec))).match
    assert again.deals[0].restock == deal.restock and again.shuffles == m.shuffles
    # The restock in another order: the shuffle does not form it.
    order = rec["deals"][0]["restock"].split()
    order[0], order[1] = order[1], order[0]
    bad = {**rec, "deals": [{**rec["deals"][0], "restock": " ".join(order)}]}
    message = refused(bad)
    assert message.startswith('deal 1: "restock" is not the new stock its shuffle forms from those cards: card 1 is')


def test_a_shuffled_record_stopping_when_a_new_stock_is_due_takes_the_shuffles():
    m = shuffled_match([RESTOCK_SALT], stop=Phase.RESTOCK)
    deal = m.deals[0]
    assert deal.phase is Phase.RESTOCK
    rec = to_record(m)
    assert "restock" not in rec["deals"][0]
    again = replay(rec)  # resuming it: the new stock is the one the shuffle forms
    resumed = again.match.deals[0]
    assert resumed.restock == m.shuffles[0].restock(deal.restock_pool)
    assert again.to_json()["next"]["phase"] == "rob"  # the dealer robs what the new stock left him


def tampered(change) -> str:
    rec = to_record(shuffled_match([f"{k:032x}" for k in (1, 2)]))
    change(rec["deals"][1])
    return refused(json.loads(dumps(rec)))


def swap_two_cards(entry):
    deck = entry["deck"].split()
    deck[40], deck[50] = deck[50], deck[40]  # two cards of the stock: the deal may still replay
    entry["deck"] = " ".join(deck)


def test_a_deck_changed_after_its_commitment_is_refused():
    message = tampered(swap_two_cards)
    assert message.startswith("deal 2: the deck is not the one its shuffle commitment promises: card 41 is ")
    assert "(1 more card differs)" in message


def test_a_changed_salt_or_commitment_or_entropy_is_refused():
    message = tampered(lambda e: e["shuffle"].update(salt="ab" * 16))
    assert message.startswith("deal 2: the deck is not the one its shuffle commitment promises: the commitment "
                              "written is ")
    message = tampered(lambda e: e["shuffle"].update(commitment="0" * 64))
    assert message.startswith("deal 2: the shuffle's commitment does not match")
    # The commitment still fits the deck and salt, but a seat's entropy was changed (or ignored): the salt and
    # entropy do not deal that deck.
    message = tampered(lambda e: e["shuffle"]["entropy"].update(N="01"))
    assert message.startswith("deal 2: the deck is not the one its shuffle's salt and entropy deal: card 1 is ")


def test_a_shuffle_of_another_deal_number_is_refused():
    rec = to_record(shuffled_match([f"{k:032x}" for k in (1, 2)]))
    first, second = rec["deals"]
    second["deck"], second["shuffle"] = first["deck"], first["shuffle"]  # deal 1's deck and shuffle, moved on
    assert refused(rec).startswith("deal 2: the deck is not the one its shuffle's salt and entropy deal")


def test_a_malformed_shuffle_is_refused_naming_the_deal_and_the_field():
    message = tampered(lambda e: e["shuffle"].update(salt="XYZ"))
    assert message.startswith('deal 2: "shuffle": "salt" must be 32 lower-case hex digits (0-9, a-f)')
    message = tampered(lambda e: e.update(shuffle="0123"))
    assert message == 'deal 2: "shuffle": a shuffle is an object with commitment, salt and entropy, not a string'


def test_record_text_writes_what_dumps_of_to_record_writes_as_the_match_goes_on():
    from cinch.record import record_text
    from cinch.shuffle import Shuffle

    m = Match(Rules.preset("additive"), players={s: s.name.lower() for s in Seat}, rng=5)
    m.metadata["server"] = {"room": "ABC234"}
    rng = random.Random(2)
    seen = 0
    while not m.is_over and len(m.deals) < 6:
        if m.current is None:
            m.start_deal(shuffle=Shuffle.new(("", "aa", "", "bb"), len(m.deals) + 1))
        elif m.current.to_act is None:
            m.resolve_chance()
        else:
            m.apply(rng.choice(m.current.legal_actions()))
        assert record_text(m) == dumps(to_record(m))
        seen += 1
    assert seen > 100 and record_text(m) == record_text(m)


# ---- other table sizes: seats 1 to n (docs/record-format.md, "Seats, cards and actions") ----------
def cut_throat_match(n: int, deals: int, seed: int) -> Match:
    """A match of ``n`` players (official rules) stopped inside deal ``deals``, shuffled as the table goes."""
    r = Rules.preset("official").with_options(players=n)
    table = r.seating
    m = Match(r, first_dealer=table.seats[n - 1], players={table.seats[0]: "Ann", table.seats[n - 1]: "basic"},
              rng=seed)
    rng = random.Random(seed)
    while len(m.deals) < deals or m.current is None:
        if m.current is None:
            number = len(m.deals) + 1  # a fixed salt: the same decks every run
            m.start_deal(shuffle=Shuffle(f"{seed * 100 + number:032x}", ("",) * n, number))
        elif m.current.to_act is None:
            m.resolve_chance()  # a new stock, from the deal's shuffle
        else:
            m.apply(rng.choice(m.current.legal_actions()))
        if len(m.deals) == deals and m.current is not None and len(m.current.history) >= 2 * n:
            break
    return m


@pytest.mark.parametrize("n", [2, 3, 5, 6])
def test_a_cut_throat_match_round_trips_with_seats_named_1_to_n(n):
    m = cut_throat_match(n, 3, seed=n)
    rec = to_record(m)
    assert rec["rules"] == {"preset": "official", "players": n}
    assert rec["players"] == {"1": "Ann", str(n): "basic"}
    assert [d["dealer"] for d in rec["deals"]] == [str(n), "1", "2"]
    assert set(rec["deals"][0]["shuffle"]["entropy"]) == {str(i) for i in range(1, n + 1)}
    again = replay(loads(dumps(rec))).to_json()
    assert again["score"] == {str(i): v for i, v in enumerate(m.score, start=1)}
    assert [d["dealer"] for d in again["deals"]] == [str(n), "1"]
    assert again["next"]["seat"] == str(m.current.to_act)
    assert {str(a) for a in m.current.legal_actions()} == set(again["next"]["legal"])


def test_a_seat_of_another_table_size_is_refused_naming_the_seats_there():
    three = {"preset": "official", "players": 3}
    assert refused(record(entry("N", RECORD_EXAMPLE_DECK, []), rules=three)) == (
        """deal 1: "dealer" must be one of 1 2 3, not 'N'""")
    assert refused(record(entry("3", RECORD_EXAMPLE_DECK, []), rules="official")) == (
        """deal 1: "dealer" must be one of N E S W, not '3'""")
    assert refused(record(entry("4", RECORD_EXAMPLE_DECK, []), rules=three)) == (
        """deal 1: "dealer" must be one of 1 2 3, not '4'""")
    assert refused(record(rules=three, players={"N": "Ann"})) == """"players" has 'N', which is not a seat (1 2 3)"""


@pytest.mark.parametrize(("rules", "message"), [
    ({"preset": "official", "players": "3"},
     "rules: players cannot be '3' in a record; it takes a whole number as a JSON number (as 42, without quotes)"),
    ({"preset": "official", "players": 7}, "rules: players 7: Cinch is played by 2 to 6"),
    ({"preset": "official", "players": 3, "honour_rule": True}, "rules: honour_rule clashes with players 3"),
    ({"preset": "official", "heasly": True, "players": 5}, "rules: heasly clashes with players 5"),
    ({"preset": "official", "heasly": "yes"}, "rules: heasly cannot be 'yes' in a record"),
])
def test_a_table_size_the_rules_refuse_is_refused_in_a_record(rules, message):
    assert refused(record(rules=rules)).startswith(message)


def test_heasly_in_a_record_is_six_players_to_62():
    out = replay(record(rules={"preset": "official", "heasly": True})).to_json()
    assert out["rules"] == {"preset": "official", "target": 62, "players": 6, "heasly": True}
    assert out["score"] == {str(i): 0 for i in range(1, 7)}


def test_players_keyed_by_lower_case_seat_letters_still_read():
    # Records written before table sizes were read with Seat.parse: "n" names North as "N" does.
    path = pathlib.Path(__file__).parent / "records" / "official-bowers.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    record["players"] = {"n": "Ann", "E": "Bo"}
    assert {str(s): n for s, n in replay(record).match.players.items()} == {"N": "Ann", "E": "Bo"}


# ---- two decks: what comes next, and a card played and buried ------------------------------------------------
GOLDEN = pathlib.Path(__file__).parent / "records"


def golden(name: str) -> dict:
    return json.loads((GOLDEN / f"{name}.json").read_text())


def test_next_gives_a_keep_of_millions_of_hands_as_its_rule_and_a_count():
    # 003's dealer at two decks keeps any twelve of 28 cards: 12,629,623 hands, each once as it reads; "next"
    # gives the rule, as the server gives a keep, not the list.
    out = replay(golden("official-two-decks-rob-by-rule")).to_json()["next"]
    assert out["seat"] == "W" and out["phase"] == "rob" and out["legal"] == []
    keep = out["keep"]
    assert keep["count"] == 12_629_623 and (keep["fewest"], keep["most"], keep["must"]) == (12, 12, [])
    assert len(keep["pool"]) == 28 and keep["pool"].count("KC") == 2
    assert keep["rule"] == "keep 12 of " + " ".join(keep["pool"])
    text = replay(golden("official-two-decks-rob-by-rule")).describe()
    assert text.endswith(f"Next: W to act (rob): {keep['rule']} (12,629,623 hands)")


def test_next_lists_a_keep_of_fewer_hands_one_by_one_each_once():
    out = replay(golden("pagat-two-decks-rob-each-hand-once")).to_json()["next"]
    assert "keep" not in out and len(out["legal"]) == len(set(out["legal"])) == 11


def test_a_two_deck_record_plays_one_copy_and_buries_the_other_and_one_pack_refuses_it():
    rec = golden("pagat-two-decks-bury-twin")
    assert replay(rec).to_json()["next"]["seat"] == "E"
    one_pack = record(entry("W", RECORD_EXAMPLE_DECK, ["bid 7", "pass", "pass", "pass", "trump H",
                                                      "keep 5H 2H 3H 7H 4H AD", "play AH bury AH"]))
    with pytest.raises(RecordError, match="action 7: 'play AH bury AH' is illegal: AH named twice: one pack holds "
                                          "one of each card"):
        replay(one_pack)
