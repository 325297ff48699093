"""``cinch score``: keep the score of a match played with real cards, at a line prompt.

The questions and answers are :class:`~cinch.table.score_dialogue.ScoreDialogue`'s, which the
Textual screen (:mod:`cinch.tui.score`) shares; this is the plain front end: it prints the
dialogue's lines and reads one answer a line.

>>> import io
>>> from cinch import Rules
>>> from cinch.scorekeeper import ScoreSheet
>>> from cinch.table.score_dialogue import ScoreDialogue
>>> out = io.StringIO()
>>> talk = ScoreDialogue(ScoreSheet(Rules.preset("pagat")))
>>> run_plain(talk, io.StringIO("W\\nN 7\\nH\\nNS 13 EW 1\\nquit\\n"), out)
'quit'
>>> [line for line in out.getvalue().splitlines() if line.startswith("  Score")]
['  Score: NS 13, EW 1 (first to 62 wins).']

At a cut-throat table the seats are ``1`` to ``n`` and the points are each player's:

>>> out = io.StringIO()
>>> talk = ScoreDialogue(ScoreSheet(Rules.preset("official").with_options(players=3)))
>>> run_plain(talk, io.StringIO("3\\n2 bid 7\\nH\\n12 2 0\\nquit\\n"), out)
'quit'
>>> [line for line in out.getvalue().splitlines() if line.startswith("  Score")]
['  Score: 1: 12, 2: -7, 3: 0 (first to 51 wins).']

With two packs (``-o decks=2``) each point card is there twice: a card is named once for each copy,
``NS jack jack`` when one side took both Jacks.

>>> out = io.StringIO()
>>> talk = ScoreDialogue(ScoreSheet(Rules.preset("official").with_options(decks=2)))
>>> run_plain(talk, io.StringIO("W\\nN 16\\nH\\nNS high high jack jack pedros pedros, EW rest\\nquit\\n"), out)
'quit'
>>> [line for line in out.getvalue().splitlines() if line.startswith("  N bid")]
['  N bid 16 in hearts: NS took 24, EW 4: made.']
"""

from __future__ import annotations

from typing import TextIO

from cinch.errors import CinchError
from cinch.play_plain import _isatty, is_interactive, read_line
from cinch.table.score_dialogue import Quit, ScoreDialogue, sentence


def run_plain(dialogue: ScoreDialogue, inp: TextIO, out: TextIO, *, echo: bool | None = None,
              intro: list[str] | None = None) -> str:
    """Ask and answer at a line prompt until quit or the end of input: ``"quit"`` or ``"eof"``.

    Every line typed is echoed when the input is not a terminal, so a transcript reads as a session.
    """
    echo = not _isatty(inp) if echo is None else echo

    def say(*lines: str) -> None:
        for line in lines:
            out.write(line + "\n")
        out.flush()

    say(*(intro or []), *dialogue.opening(), "", dialogue.question())
    interactive = is_interactive(inp, out)
    while True:
        line = read_line(inp, out, dialogue.prompt(), interactive=interactive, echo=echo)
        if line is None:
            say("End of input; every deal entered is saved.")
            return "eof"
        try:
            reply = dialogue.answer(line)
        except Quit:
            say("Stopped; every deal entered is saved.")
            return "quit"
        except CinchError as e:  # a rule the engine refused in a way the dialogue did not expect: one line
            say(sentence(str(e)))
            continue
        say(*reply.lines)
        if reply.asked:
            say("", dialogue.question())



__all__ = ["run_plain"]
