"""The open-hand search: alpha-beta with a transposition table over a compact position.

Every hand is visible and both sides play their best. The value searched is
additive over tricks, from the trick in progress (counted) to the end of the
deal, for side 0 (side 1 plays to make it small):

- Whist: the tricks side 0 takes.
- Scotch Whist with two sides: the margin of side 0 over side 1 in points:
  each trick adds ``+/- (p/2 + points of its counting cards)`` for a trick of
  ``p`` cards. With two sides dealt the same number of cards, the cards part
  (cards taken above those dealt, at least 0) of the winner less the loser's is
  half the difference in cards taken, so the margin is additive though each
  side's cards part is not.

The position (one array, ``X``: :mod:`.encoding`) is per-seat per-suit *power*
masks (the engine's ``to_power_mask``: the Scotch trump Jack is bit 13), the
trick so far and a few scalars. Cards adjacent in power within one hand, or made
adjacent by the cards gone in finished tricks, are one move (:mod:`.moves`: the
highest stands for them); in Scotch Whist a counting card is a move of its own.
The root is searched by MTD(f): null-window searches that close in on the value
(:mod:`.alphabeta`). Positions at the start of a trick go into a transposition
table (:mod:`.memo`) by partition search: a bound is stored with the owners of
the cards that decided it, and serves every position with the same hand lengths
whose such cards have the same owners. :mod:`.bounds` ends nodes by the tricks a
side is sure of; :mod:`.intrinsics` holds the Numba pieces it is all built from.

The names below are what the ``dd`` player and :mod:`whistsim.solver` call.
"""

from .alphabeta import move_values, mtdf, playout
from .encoding import (
    INF,
    MAX_DEPTH,
    MOVE_SLOTS,
    N_X,
    OTEAM,
    SLEFT,
    SNODES,
    STRICKS,
    card_points,
    legal_bits,
    load,
    play,
    seat_to_play,
)
from .memo import TT_COLS, clear_table, new_table

__all__ = ["INF", "MAX_DEPTH", "MOVE_SLOTS", "N_X", "OTEAM", "SLEFT", "SNODES", "STRICKS", "TT_COLS", "card_points",
           "clear_table", "legal_bits", "load", "move_values", "mtdf", "new_table", "play", "playout", "seat_to_play"]  # fmt: skip
