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

The search itself is in :mod:`whistsim.games.dealt.search`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


def solve_record(record: Any, moves: bool = False) -> dict[str, Any]:
    """The open-hand value of a record's position: ``{"tricks": [t0, t1]}`` (Whist) or
    ``{"points": [p0, p1], "margin": p0 - p1}`` (Scotch Whist); with ``moves``, also the
    seat to play, each legal card's value and the best cards.

    Raises RecordError / MoveError for a bad record, as replay does.
    """
    from ..cards import card_name
    from .position import position_of

    pos = position_of(record)
    scotch = pos.rules.kind == 0
    left = pos.tricks_left

    def shown(v: int) -> dict[str, Any]:
        if scotch:
            return {"margin": v}
        return {"tricks": [v, left - v]}

    out: dict[str, Any] = {}
    if moves and not pos.over:
        best, vals = pos.best()
        out["seat"] = pos.seat
        out["moves"] = [{"card": card_name(c), **shown(v)} for c, v in sorted(vals.items())]
        out["best"] = [card_name(c) for c in best]
    v = pos.value()
    if scotch:
        points = pos.line_points()
        out = {"points": points, "margin": points[0] - points[1], **out}
        if points[0] - points[1] != v:  # the line played out must score the solved value
            raise RuntimeError(f"solver: line scores {points} but the value is {v}")
    else:
        out = {"tricks": [v, left - v], **out}
    return out


def solve_line(line: int, text: str | None, moves: bool = False) -> dict[str, Any]:
    """One JSON Lines record's value, ``{"line": L, ...}``, or replay's error object
    ``{"line": L, "move": M or None, "error": ...}`` for a bad record: each line is judged on
    its own as replay judges it (``text`` None: a line over ``io.MAX_LINE``)."""
    from ..api import REFUSALS, record_of_line, refusal

    try:
        record = record_of_line(text)
    except ValueError as e:
        return {"line": line, "move": None, "error": str(e)}
    try:
        # a fresh table: one kept from deal to deal fills its buckets with entries of the
        # same hand lengths that serve no other deal (2.5 times the time on 120 positions)
        return {"line": line, **solve_record(record, moves)}
    except REFUSALS as e:
        move, error = refusal(e)
        return {"line": line, "move": move, "error": error}


def solve_file(source: str, moves: bool = False) -> Iterator[dict[str, Any]]:
    """:func:`solve_line` for every non-blank line of a JSON Lines file (``-``: standard input)."""
    from ..io import read_lines
    from ..options import WhistsimError

    try:
        for i, text in read_lines(source):
            if text is None or text.strip():
                yield solve_line(i, text, moves)
    except OSError as e:
        raise WhistsimError(f"cannot read {source}: {e.strerror}") from None


__all__ = ["solve_record", "solve_line", "solve_file"]
