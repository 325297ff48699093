"""Study tools over the engine and the bots: the bid advisor, game analysis, puzzles, variant
statistics and datasets for learning.  Each asks the expert (or the solver) for its judgement;
none changes a rule."""

from cinch.errors import CinchError
from cinch.rules import Rules


def partnership_only(rules: Rules, what: str) -> None:
    """Refuse a cut-throat table (2, 3, 5 or 6 players) in a study tool that keeps the partnership game.

    >>> try:
    ...     partnership_only(Rules.preset("official").with_options(players=3), "the bid advisor")
    ... except CinchError as e:
    ...     print(str(e)[:61])
    these rules seat 3 players, each for himself: the bid advisor
    """
    if rules.cut_throat:
        option = "heasly" if rules.heasly else f"players={rules.players}"
        raise CinchError(f"these rules seat {rules.players} players, each for himself: {what} keeps partnership "
                         f"(four-player) games for now (leave out {option})")


def one_pack_only(rules: Rules, what: str) -> None:
    """Refuse two-deck Cinch (``decks=2``) in a study tool that keeps one-pack games.

    >>> try:
    ...     one_pack_only(Rules.preset("official").with_options(decks=2), "the puzzle miner")
    ... except CinchError as e:
    ...     print(str(e)[:61])
    these rules play two packs (two-deck Cinch): the puzzle miner
    """
    if rules.decks != 1:
        raise CinchError(f"these rules play two packs (two-deck Cinch): {what} keeps one-pack games for now "
                         "(leave out decks=2)")
