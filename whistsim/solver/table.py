"""A Whist deal's open-hand table: the tricks each side takes for each trump suit and each
first leader (16 values), like a bridge double-dummy table.

The trump is a suit here, not the turned card: the deal's hands are kept and the trump
suit and the seat to lead the first trick are set directly in the engine's state (a
record's own trump card and dealer give one of the 16 cells). The cards played in a
record are not consulted: the table is of the deal.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numba
import numpy as np

from ..core.cards import SUITS
from ..games.dealt import records as dealt_records
from ..games.dealt import search as se
from ..harness.replay import RecordError
from .position import RULES, Position

SEATS = "NESW"  # seat 0 is North; sides N-S (0) and E-W (1)
TRUMPS = "SHDC"  # the bridge order of the suits


def table_rows(record: dict | str, threads: int | None = None) -> list[dict[str, Any]]:
    """The 16 cells of a Whist deal's table, trumps in the order S H D C and leaders N E S W:
    ``{"trump": "S", "leader": "N", "tricks": [N-S, E-W]}`` each. ``record`` is a Whist
    record or a deal in the text notation. The four trump suits are solved on up to
    ``threads`` threads at once (all Numba threads when None: the search releases the GIL).
    RecordError for another game or a bad deal."""

    from . import as_record

    record = as_record(record)
    if record.get("game") != "whist":
        raise RecordError(f"the open-hand table is for Whist deals, not {record.get('game')!r}")
    d = dealt_records.load("whist", RULES["whist"], {**record, "moves": []})
    p = d.rules.players

    def under(trump: str) -> list[dict[str, Any]]:
        # one search table per trump suit serves its four leaders (their keys hold the leader);
        # kept across trump suits it fills with entries that serve no other (a third more time)
        tt = se.new_table()
        rows: list[dict[str, Any]] = []
        for leader in range(p):
            buf = d.buf.copy()
            # the dealer sits before the leader; any card of the suit sets the trump
            first = np.int64((leader - 1) % p)
            dealt_records.start(buf, first, np.int64(SUITS.index(trump) * 13), np.int64(-1))
            pos = Position(d.rules, buf, tt)
            # the last leader's value is a closer guess than a play-out (5% less time on 12 deals)
            v = pos.value(rows[-1]["tricks"][0] if rows else None)
            rows.append({"trump": trump, "leader": SEATS[leader], "tricks": [v, pos.tricks_left - v]})
        return rows

    first = under(TRUMPS[0])  # in this thread first: loads the solver's kernels once
    workers = min(len(TRUMPS) - 1, threads or numba.get_num_threads())
    if workers <= 1:
        rest = [under(t) for t in TRUMPS[1:]]
    else:
        pool = ThreadPoolExecutor(workers)
        try:
            rest = list(pool.map(under, TRUMPS[1:]))
        finally:
            pool.shutdown(cancel_futures=True)
    return first + [row for rows in rest for row in rows]


def dd_table(deal: dict | str):
    """A Whist deal's open-hand table as a pandas DataFrame: one row per trump suit (S H D C)
    and first leader (N E S W), with the tricks N-S and E-W take.

    >>> from whistsim.solver import dd_table
    >>> t = dd_table("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")
    >>> by_leader = t.pivot(index="leader", columns="trump", values="tricks_ns")
    >>> by_leader.loc[list("NESW"), list("SHDC")]  # doctest: +NORMALIZE_WHITESPACE
    trump    S  H   D  C
    leader
    N       13  0  13  0
    E       13  0  13  0
    S       13  0  13  0
    W       13  0  13  0
    """
    import pandas as pd

    rows = table_rows(deal)
    return pd.DataFrame(
        [
            {
                "trump": r["trump"],
                "leader": r["leader"],
                "tricks_ns": r["tricks"][0],
                "tricks_ew": r["tricks"][1],
            }
            for r in rows
        ]  # fmt: skip
    )


def grid(rows: list[dict[str, Any]]) -> list[str]:
    """The table as text: a row per leader, a column per trump suit, N-S's tricks."""
    from ..core.cards import SUIT_SYMBOLS

    by = {(r["leader"], r["trump"]): r["tricks"][0] for r in rows}
    labels = [f"  {seat} (seat {q}) leads" for q, seat in enumerate(SEATS)]
    out = [" " * len(labels[0]) + "".join(f"{SUIT_SYMBOLS[SUITS.index(t)]:>4}" for t in TRUMPS)]
    for label, seat in zip(labels, SEATS, strict=True):
        out.append(label + "".join(f"{by[seat, t]:>4}" for t in TRUMPS))
    return out


__all__ = ["table_rows", "dd_table", "grid", "SEATS", "TRUMPS"]
