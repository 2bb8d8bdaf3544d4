"""A position solved: a record at a move, a deal as text, a file of records or PBN deals, one
line each (the ``solve`` command's work)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


def solve_record(record: Any, moves: bool = False) -> dict[str, Any]:
    """The open-hand value of a record's position: ``{"tricks": [t0, t1]}`` (Whist) or
    ``{"points": [p0, p1], "margin": p0 - p1}`` (Scotch Whist); with ``moves``, also the
    seat to play, each legal card's value and the best cards.

    Raises RecordError / MoveError for a bad record, as replay does.
    """
    from ..core.cards import card_name
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


def _cut(record: Any, n: int, where: str) -> Any:
    """The record with its first ``n`` moves; a one-line WhistsimError when it has fewer."""
    from ..core.options import WhistsimError

    if n < 0:
        raise WhistsimError(f"{where}: expected a move number of 0 or more, not {n}")
    moves = record.get("moves") if isinstance(record, dict) else None
    if not isinstance(moves, list):
        return record  # replay says what is wrong with it
    if n > len(moves):
        raise WhistsimError(f"{where}: the record has only {len(moves)} moves")
    return {**record, "moves": moves[:n]}


def solve_at(record: Any, n: int | None = None, moves: bool = False) -> dict[str, Any]:
    """:func:`solve_record` of the position after the first ``n`` moves of ``record`` (all of
    them when None). ``record`` may be a deal in the text notation (no moves: ``n`` 0).
    WhistsimError when the record has fewer than ``n`` moves.

    >>> import whistsim
    >>> from whistsim.solver import solve_at
    >>> record = whistsim.simulate("whist", n=1, seed=1, records=1).records[0]
    >>> solve_at(record, 20)
    {'tricks': [5, 3]}
    >>> solve_at(record, 20, moves=True)["best"]
    ['3S', '6S']
    """
    from . import as_record

    record = as_record(record)
    if n is not None:
        record = _cut(record, n, f"at move {n}")
    return solve_record(record, moves)


WHAT = ("value", "each", "table")


def solve_source(
    source: str | None = None,
    *,
    deal: str | None = None,
    what: str = "value",
    at: int | None = None,
    moves: bool = False,
) -> Iterator[dict[str, Any]]:
    """One object per deal of a source, labelled where it came from: ``{"line": L}`` (a JSON
    Lines file of records, or ``-``), ``{"deal": D}`` (a ``.pbn`` file: its D-th deal, from 1)
    or nothing (``deal``: one deal in the text notation, in place of ``source``).

    ``what``: ``"value"`` (:func:`solve_record`, after the first ``at`` moves, all when None),
    ``"each"`` (:func:`whistsim.solver.costs.card_costs`) or ``"table"`` (``{"table":
    [...]}``, :func:`whistsim.solver.table.table_rows`). A record refused as replay refuses
    it gives replay's error object ``{..., "move": M or None, "error": ...}``; a source that
    cannot be read, a bad deal text or PBN file, or ``at`` past a record's moves, a
    WhistsimError."""
    from ..api import REFUSALS, refusal
    from ..core.options import WhistsimError
    from .costs import card_costs
    from .table import table_rows

    if what not in WHAT:
        raise WhistsimError(f"solve: {what!r} is not one of {', '.join(WHAT)}")
    for label, record, error in _records(source, deal):
        if error is not None:
            yield {**label, "move": None, "error": error}
            continue
        if at is not None:
            where = ", ".join(f"{k} {v}" for k, v in label.items()) or "the deal"
            record = _cut(record, at, f"{where}: --at {at}")
        try:
            # a fresh table per deal: one kept from deal to deal fills its buckets with entries
            # of the same hand lengths that serve no other deal (2.5 times the time on 120 positions)
            if what == "value":
                body = solve_record(record, moves)
            elif what == "each":
                body = card_costs(record)
            else:
                body = {"table": table_rows(record)}
        except REFUSALS as e:
            move, error = refusal(e)
            yield {**label, "move": move, "error": error}
            continue
        yield {**label, **body}


def _records(source: str | None, deal: str | None) -> Iterator[tuple[dict[str, int], Any, str | None]]:
    """(label, record, None) or (label, None, why the line is not a record) for each deal."""
    from ..api import record_of_line
    from ..core.io import read_lines
    from ..core.options import WhistsimError

    if (source is None) == (deal is None):
        raise WhistsimError("solve: give a file of records or of PBN deals, or a deal with --deal, not both")
    if deal is not None:
        from . import as_record

        yield {}, as_record(deal), None
        return
    assert source is not None
    try:
        if is_pbn(source):
            from ..deals import read_pbn

            for k, record in enumerate(read_pbn(source), 1):
                yield {"deal": k}, record, None
            return
        for i, text in read_lines(source):
            if text is not None and not text.strip():
                continue
            try:
                yield {"line": i}, record_of_line(text), None
            except ValueError as e:
                yield {"line": i}, None, str(e)
    except OSError as e:
        raise WhistsimError(f"cannot read {source}: {e.strerror}") from None


def is_pbn(source: str) -> bool:
    """Is ``source`` a PBN file (by its name)?"""
    return source.lower().endswith(".pbn")


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
        return {"line": line, **solve_record(record, moves)}
    except REFUSALS as e:
        move, error = refusal(e)
        return {"line": line, "move": move, "error": error}


def solve_file(source: str, moves: bool = False) -> Iterator[dict[str, Any]]:
    """:func:`solve_line` for every non-blank line of a JSON Lines file (``-``: standard input)."""
    return solve_source(source, moves=moves)
