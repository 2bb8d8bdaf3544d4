"""An open-hand (double-dummy) solver for Whist and Scotch Whist with two sides.

Every hand is visible and both sides play their best from the position after a
record's moves (which may stop anywhere, mid-trick included):

- Whist: the tricks each side takes from the trick in progress (counted) to the
  end of the deal.
- Scotch Whist (4 players, 6 in threes, 8 in fours): the sides play for the
  margin between them in the deal's final points (honours won and cards taken
  above those dealt). The cards part is not additive per side, so the solver's
  value is the margin; ``points`` are the deal's final totals per side (points
  already taken included) along one best line: every player plays the lowest
  card code among its best cards. Their difference is the margin.

A position may be given by a record and a move number (:func:`solve_at`), and a deal by
the text notation (``whistsim.deals``) or a PBN file; :mod:`.costs` judges every card
of a played deal, :mod:`.table` gives a Whist deal's table per trump suit and leader.
The search itself is in :mod:`whistsim.games.dealt.search`.
"""

from typing import Any

from .solve import is_pbn, solve_at, solve_file, solve_line, solve_record, solve_source

__all__ = ["solve_record", "solve_at", "card_costs", "dd_table", "solve_source", "solve_line", "solve_file",
           "as_record", "is_pbn"]  # fmt: skip


def as_record(deal: Any) -> Any:
    """A record as it is; a deal in the text notation (``whistsim.deals``) as its record,
    no card played yet."""
    if isinstance(deal, str):
        from ..deals import parse_deal

        return parse_deal(deal)
    return deal


def __getattr__(name: str):
    """card_costs and dd_table, imported on first use: the solver's kernels load with them."""
    if name == "card_costs":
        from .costs import card_costs as value
    elif name == "dd_table":
        from .table import dd_table as value
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value
