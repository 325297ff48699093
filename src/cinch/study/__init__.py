"""Study tools over the engine and the bots: the bid advisor, game analysis, puzzles, variant
statistics and datasets for learning.  Each asks the expert (or the solver) for its judgement;
none changes a rule."""
