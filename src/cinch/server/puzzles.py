"""The puzzle page of the browser: a puzzle's position, a card to click, then the verdict and why.

:func:`add_puzzle_routes` adds the page (``GET /puzzles``) and its JSON API over a puzzle set
(by default the one bundled with cinch, :mod:`cinch.study.puzzles`):

- ``GET /api/puzzles``: the list (id, preset, level, trick, seat), never an answer;
- ``GET /api/puzzles/{id}``: the puzzle seat's view, the story of the deal so far in words and
  the cards it may play, never the answer, its figures or the bots' cards;
- ``POST /api/puzzles/{id}/guess`` with ``{"card": "5H"}``: the verdict, the answer and the
  explanation.  A guess that is not a legal card is refused (400) with one line saying why
  and which cards may be played.

>>> from cinch.study.puzzles import load_puzzles
>>> puzzle = load_puzzles()[0]
>>> question = question_json(puzzle)
>>> "answer" in question or "explanation" in question, question["legal"] == [str(c) for c in puzzle.legal_cards]
(False, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from cinch.errors import CinchError
from cinch.server.pages import BadBody, error_json, page_routes, read_json
from cinch.study.puzzles import Puzzle, PuzzleError, find, load_puzzles
from cinch.table.narrate import Narrator, rule_words, view_trump

STATIC = Path(__file__).parent / "static" / "puzzles"
MAX_GUESS = 1024  # bytes: a guess is one card


def story(puzzle: Puzzle) -> list[str]:
    """The deal before the play in the table's words, from the puzzle seat's view (the tricks are drawn)."""
    told = Narrator(puzzle.view.seat).update(puzzle.view)
    end = next((i for i, line in enumerate(told) if line.startswith("The play:")), len(told))
    return [line for line in told[:end] if line]


def question_json(puzzle: Puzzle) -> dict[str, Any]:
    """What the page shows before a guess: the puzzle's question (the view, the legal cards) and the story."""
    return {**puzzle.question_json(), "story": story(puzzle), "rules_words": puzzle.rules.describe(),
            "bowers": puzzle.rules.bowers}  # all-hands Pedro: the page stars the left bower as a trump


def verdict_json(puzzle: Puzzle, card_text: str) -> dict[str, Any]:
    """The verdict on a guess, with the explanation in symbols (raises PuzzleError for a card that is not legal)."""
    verdict = puzzle.verdict(puzzle.read_guess(card_text))
    trump = view_trump(puzzle.view)
    return {**verdict.to_json(), "id": puzzle.id, "level": puzzle.level,
            "explanation": [rule_words(line, trump) for line in verdict.lines],
            "figures": {str(c): f.to_json() for c, f in puzzle.figures.items()},
            "bots": {name: str(card) for name, card in puzzle.bots.items()}}


def add_puzzle_routes(routes: list[Any], puzzles: Sequence[Puzzle] | None = None) -> None:
    """Add the puzzle page and its API to ``routes`` (the app's route list); ``puzzles`` by default the bundled set,
    read on the first request."""
    loaded: list[Sequence[Puzzle]] = [] if puzzles is None else [puzzles]

    def the_set() -> Sequence[Puzzle]:
        if not loaded:
            loaded.append(load_puzzles())
        return loaded[0]


    def named(request: Request) -> Puzzle | Response:
        try:
            return find(the_set(), request.path_params["id"])
        except PuzzleError as e:
            return error_json("unknown-puzzle", str(e), 404)

    async def listing(request: Request) -> Response:
        try:
            found = the_set()
        except PuzzleError as e:
            return error_json("puzzle-file", str(e), 500)
        return JSONResponse({"puzzles": [{"id": p.id, "preset": p.rules.preset_name, "rules": p.rules.name,
                                          "level": p.level, "trick": p.trick_number, "seat": p.view.seat.name}
                                         for p in found]})

    async def question(request: Request) -> Response:
        puzzle = named(request)
        if isinstance(puzzle, Response):
            return puzzle
        return JSONResponse(question_json(puzzle))

    async def guess(request: Request) -> Response:
        puzzle = named(request)
        if isinstance(puzzle, Response):
            return puzzle
        try:
            data = await read_json(request, MAX_GUESS, 'one card, as {"card": "5H"}')
        except BadBody as e:  # (bad-json or too-large, as every route that reads a body answers)
            return e.response()
        card = data.get("card") if isinstance(data, dict) else None
        if not isinstance(card, str):
            return error_json("bad-guess", 'the guess must name a card, as {"card": "5H"}', 400)
        try:
            return JSONResponse(verdict_json(puzzle, card))
        except CinchError as e:
            return error_json("bad-guess", rule_words(str(e), view_trump(puzzle.view)), 400)

    routes.extend([
        *page_routes("/puzzles", STATIC, "puzzles.js", "puzzles.css"),
        Route("/api/puzzles", listing),
        Route("/api/puzzles/{id}", question),
        Route("/api/puzzles/{id}/guess", guess, methods=["POST"]),
    ])


__all__ = ["add_puzzle_routes", "question_json", "story", "verdict_json"]
