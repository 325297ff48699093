"""The scorekeeper's questions and answers (cinch.table.score_dialogue), shared by `cinch score`'s plain
prompt and its Textual screen: reading points and cards, saving the sheet, and every refusal in one line
that fits the table it is said at."""

from __future__ import annotations

import re

import pytest

from cinch import Rules, Seat, Team
from cinch.library import IN_PROGRESS, Library, LibraryError
from cinch.record import loads, replay
from cinch.scorekeeper import DealEntry, EntryError, ScoreSheet
from cinch.table.score_dialogue import ScoreDialogue, SheetSaver, parse_points, parse_took


def test_the_library_keeps_a_sheet_after_every_deal_and_gives_it_back(tmp_path):
    with Library.open(tmp_path / "games.sqlite3") as lib:
        sheet = ScoreSheet(Rules.preset("pagat"), first_dealer=Seat.E)
        saver = SheetSaver(lib, tmp_path / "match.json")
        assert saver.start(sheet) == []
        match_id = saver.match_id
        assert lib.get(match_id).status == IN_PROGRESS and lib.sheet(match_id).next_dealer is Seat.E
        sheet.add(DealEntry.of("E", maker="S", bid=7, points=(13, 1)))
        assert saver.save(sheet) == []
        stored = lib.get(match_id)
        assert (stored.frontend, stored.score, stored.deals) == ("score", (13, 1), 1)
        back = lib.sheet(match_id)
        assert back.deals == sheet.deals and back.next_dealer is Seat.S
        assert replay(loads((tmp_path / "match.json").read_text())).sheet.deals == sheet.deals
        assert lib.unfinished() == [] and [m.id for m in lib.unfinished_sheets()] == [match_id]
        with pytest.raises(LibraryError, match="played with real cards and kept by `cinch score`"):
            lib.resume(match_id)


def test_points_and_cards_are_read_in_the_short_forms():
    pagat, official = Rules.preset("pagat"), Rules.preset("official")
    assert parse_points("9 5", pagat) == (9, 5) and parse_points("EW 5 NS 9", pagat) == (9, 5)
    assert parse_points("NS 9", pagat) == (9, 5)
    with pytest.raises(EntryError, match="give both sides' points"):
        parse_points("NS 9", official)
    assert dict(parse_took("N: high, low; EW jack game pedros", pagat)) == {
        "High": Seat.N, "Low": Seat.N, "Jack": Team.EW, "Game": Team.EW, "Right Pedro": Team.EW,
        "Left Pedro": Team.EW}
    assert dict(parse_took("ns right pedro, - left pedro, ew rest", official))["Left Pedro"] is None
    with pytest.raises(EntryError, match="say whose the cards are first"):
        parse_took("high NS", pagat)


def test_a_failed_save_is_told_and_loses_nothing(tmp_path):
    sheet = ScoreSheet(Rules.preset("pagat"))
    saver = SheetSaver(None, tmp_path / "no-such-folder" / "match.json")
    talk = ScoreDialogue(sheet, on_change=saver.save)
    reply = [talk.answer(line) for line in ("W", "N 7", "", "13 1")][-1]
    assert reply.lines[-1].startswith(f"Could not write {tmp_path / 'no-such-folder' / 'match.json'}")
    assert sheet.score == (13, 1)


def test_a_misdeal_found_after_the_bidding_drops_what_was_entered_of_the_deal():
    talk = ScoreDialogue(ScoreSheet(Rules.preset("additive"), first_dealer=Seat.S))
    assert talk.answer("NS 7").lines == [
        "Name the maker by seat, as N 7 (the side follows from the seat), or give the calls, as p 7 p p."]
    talk.answer("p 7 p p")
    reply = talk.answer("misdeal")
    assert reply.settled is not None and reply.settled.entry.maker is None
    assert "  Misdeal: the same dealer deals again (002); no score. S deals again." in reply.lines
    assert talk.question().startswith("Deal 2, S deals.")


# ---- every refusal and every example fits the table it is said at ----------------------------------------------
TABLES = {
    "four": Rules.preset("official"),
    "two": Rules.preset("official").with_options(players=2),
    "three": Rules.preset("official").with_options(players=3),
    "five": Rules.preset("pagat").with_options(players=5),
    "six": Rules.preset("additive").with_options(players=6),
    "heasly": Rules.preset("official").with_options(heasly=True),
    "two decks": Rules.preset("pagat").with_options(decks=2),
    "three, two decks": Rules.preset("official").with_options(players=3, decks=2),
    "five, two decks": Rules.preset("pagat").with_options(players=5, decks=2),
}


def dialogue_at(rules: Rules, step: str) -> ScoreDialogue:
    """A dialogue at the bidding of deal 1 (dealer: the first seat), or at its points question after the
    example maker and bid the bidding question itself shows, trumps hearts."""
    talk = ScoreDialogue(ScoreSheet(rules, first_dealer=rules.seating.seats[0]))
    if step == "points":
        for answer in (maker_example(talk), "H"):
            assert talk.answer(answer).lines == [], answer
    return talk


def maker_example(talk: ScoreDialogue) -> str:
    return re.search(r"or the maker and bid \((.+?)\)", talk.question())[1]


def seats_words(rules: Rules) -> str:
    return " ".join(rules.seating.names)


@pytest.mark.parametrize("name", list(TABLES))
def test_an_unknown_maker_is_not_a_seat_at_every_table_size(name):
    rules = TABLES[name]
    wrong = ("X 7", "x bid 7", "north 7") if rules.seating.partnership else ("9 bid 7", "x bid 7", "N: 7")
    for answer in wrong:
        talk = dialogue_at(rules, "bids")
        word = re.match(r"\w+", answer)[0]
        assert talk.answer(answer).lines == [
            f"'{word}' is not a seat at this table; the seats are {seats_words(rules)}."], answer
        assert talk.draft.maker is None


@pytest.mark.parametrize("name", [n for n, rules in TABLES.items() if not rules.seating.partnership])
def test_points_given_to_an_unknown_seat_name_that_seat_and_the_seats_there_are(name):
    rules = TABLES[name]
    seats = seats_words(rules)
    for answer, word in (("1:4 n:4", "n"), ("x:4", "x"), ("9:4", "9"), ("9 high, 1 rest", "9"),
                         ("1 high, 9 rest", "9")):
        talk = dialogue_at(rules, "points")
        assert talk.answer(answer).lines == [f"'{word}' is not a seat at this table; the seats are {seats}."], answer
    talk = dialogue_at(rules, "points")
    assert talk.answer("n high, 1 rest").lines == [
        f"'n' is not a seat at this table; the seats are {seats}; say whose the cards are first, as 1 high jack, "
        "2 rest."]
    assert talk.sheet.deals == ()


@pytest.mark.parametrize("name", ["four", "two decks"])
def test_a_taker_revoker_or_incorrect_hand_that_is_no_seat_names_the_seats_at_four(name):
    talk = dialogue_at(TABLES[name], "points")
    assert talk.answer("x high, NS rest").lines == [
        "'x' is not a side or a seat at this table; the sides are NS EW, the seats N E S W; say whose the cards "
        "are first, as NS high jack, EW rest."]
    assert talk.answer("revoke X").lines == [  # not parse_taker's "or nobody": nobody never revokes
        "'X' is not a side or a seat; say who revoked: a side (NS, EW) or a player (N E S W)."]
    assert talk.answer("incorrect 4 +2").lines == [
        "'4' is not a seat at this table; the seats are N E S W; say whose hand was wrong, as 'incorrect E +2' "
        "(two cards too many) or 'incorrect N -1' (one too few)."]
    assert talk.draft.irregularity is None and talk.draft.incorrect_hands == []


def quoted_answers(lines: list[str]) -> list[str]:
    """The whole answers a help shows in quotes: those with a number (not 'p' or 'rest' alone), leaving out the
    irregularities (they note something and ask again), the texts' numbers, and how two packs name each copy."""
    return [q for line in lines if not line.lstrip().startswith("Two packs")
            for q in re.findall(r"(?<!\w)'([^']*\d[^']*)'(?!\w)", line)
            if not q.startswith(("misdeal", "revoke", "incorrect")) and q not in ("002", "003")]


@pytest.mark.parametrize("name", list(TABLES))
def test_every_example_the_dialogue_shows_is_an_answer_it_takes(name):
    rules = TABLES[name]
    talk = dialogue_at(rules, "bids")
    calls, maker = re.search(r"the calls \((.+?)\), or the maker and bid \((.+?)\)", talk.question()).groups()
    bids = [calls, maker, *quoted_answers(talk.forms())]
    assert len(bids) >= 4
    for answer in bids:
        assert dialogue_at(rules, "bids").answer(answer).lines == [], answer

    talk = dialogue_at(rules, "points")
    question = talk.question()
    if rules.seating.partnership:
        shown = re.findall(r"(NS \d+ EW \d+|NS high[a-z ]*, EW rest)", question)
    else:
        shown = list(re.search(r"Each player's, ([\d ]+) \(seat 1 first\) or (\S+ \S+), or by card.*: (.+)\.$",
                               question).groups())
    points = [*shown, *quoted_answers(talk.forms())]
    assert len(points) >= 3
    for answer in points:
        assert dialogue_at(rules, "points").answer(answer).lines[0] == "Deal 1:", answer
