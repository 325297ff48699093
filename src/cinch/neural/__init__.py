"""Learned models of the game: the features of a seat's view, and networks run in plain NumPy.

:mod:`cinch.neural.features` turns a :class:`~cinch.view.SeatView` into numbers (seat- and
suit-relative); :mod:`cinch.neural.models` reads the shipped weights and runs the networks: a
policy for each kind of decision, the value of the position and where the unseen cards lie.
docs/learning.md tells how they are made (``cinch train``) and how strong they are.
"""
