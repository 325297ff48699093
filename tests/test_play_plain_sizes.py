"""`cinch play --plain` at every table size: two, three, five and six players each for himself, and Heasly."""

from __future__ import annotations

import io

import pytest
from click.testing import CliRunner

from cinch import Rules
from cinch.cli import main
from cinch.play_plain import new_game
from cinch.seating import seating


class Always:
    """Input that answers every prompt with the same line, up to a limit, then ends."""

    def __init__(self, line: str = "1", limit: int = 3000):
        self.line, self.left = line, limit

    def readline(self) -> str:
        if self.left <= 0:
            return ""
        self.left -= 1
        return self.line + "\n"


def cut_throat(players: int, **options) -> Rules:
    return Rules.preset("official").with_options(players=players, target=21, **options)


@pytest.mark.parametrize("players", [2, 3, 5, 6])
def test_a_whole_cut_throat_match_at_the_prompt(players):
    out = io.StringIO()
    game = new_game(cut_throat(players), bots="random", seed=players, inp=Always(), out=out, symbols=False)
    assert game.run() == "over"
    text = out.getvalue()
    table = seating(players)
    others = " and ".join(table.names[1:]) if players < 4 else ", ".join(table.names[1:-1]) + f" and {players}"
    assert f"You are 1, each for himself; {others} " in text
    assert "1 (you) " in text and "partner" not in text
    match = game.match
    assert match.is_over and max(match.score) >= 21
    assert f"*** {match.winner} wins the match: {table.score_text(match.score)}." in text
    assert f"Score: {table.score_text(match.summaries[0].score)}; target 21." in text  # the score by player
    if players > 2:
        assert "alone against all the others" in text


def test_three_players_draw_without_the_dealer_robbing_and_the_score_command_names_every_player():
    out = io.StringIO()
    game = new_game(cut_throat(3), bots="random", seed=4, inp=Always("score", 1), out=out, symbols=False)
    game.run()
    text = out.getvalue()
    assert "Score: 1: 0, 2: 0, 3: 0; target 21; this is deal 1. You are 1." in text
    assert "robs the pack" not in text


def test_six_players_deal_six_cards_and_the_dealer_robs():
    out = io.StringIO()
    game = new_game(Rules.preset("official").with_options(heasly=True), bots="random", seed=2, inp=Always(limit=40),
                    out=out, symbols=False)
    game.run()
    text = out.getvalue()
    assert "first player to 62 wins" in text
    assert "You are 1, each for himself; 2, 3, 4, 5 and 6 are played by the random bot." in text
    if "The draw from the stock:" in text:
        assert "robs the pack" in text


def play(*args: str, lines: str = "quit\n"):
    result = CliRunner().invoke(main, ["play", "--plain", "--no-library", "--seed", "3", *args], input=lines)
    assert "Traceback" not in result.output
    return result


def test_the_seat_is_one_of_the_table_s():
    result = play("--rules", "official", "-o", "players=5", "--seat", "4", "--bots", "random")
    assert "You are 4, each for himself; 1, 2, 3 and 5 are played by the random bot." in result.output
    wrong = play("--rules", "official", "-o", "players=3", "--seat", "S")
    assert wrong.exit_code == 2
    assert "--seat S: the seats at this table are 1 2 3 (3 players, each for himself)" in wrong.output
    four = play("--rules", "official", "--seat", "5")
    assert four.exit_code == 2 and "the seats at this table are N E S W" in four.output


def test_nobody_has_a_partner_at_a_cut_throat_table():
    result = play("--rules", "official", "-o", "players=3", "--partner", "expert")
    assert result.exit_code == 2
    assert "--partner: at a table of 3 each plays for himself, nobody is your partner" in result.output
    opponents = play("--rules", "official", "-o", "players=3", "--opponents", "random")
    assert "2 and 3 are played by the random bot" in opponents.output
