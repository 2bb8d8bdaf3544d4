"""Does it matter who moves first? (experiments/seat_advantage.toml)

Each turn position's points above the table's average (``pos_edge``), for
every cell. The first player's edge is one position at every table size, so it
compares across sizes; the best-placed position is a maximum over the positions
(more positions, more chances of a large one), so it is told per table size only.
"""

from __future__ import annotations

from ...core.stats import Estimate
from .. import verdicts as V
from ..charts import from_run
from ..results import Analysis, Chart, ChartSeries, ExperimentResult, fmt_num
from ..spec import Cell, fmt_value
from ..tools import MAX_SERIES, axis_values, group_label, points, signed, slug


def _share(result: ExperimentResult, c: Cell, e: Estimate) -> str:
    ppp = result.estimate(c.index, "points_per_player").mean
    return f"{100 * e.mean / ppp:.1f}% of a fair share" if ppp else ""


def _where(result: ExperimentResult, c: Cell) -> str:
    """``8 greedy players`` (the strategy swept for every seat), else the cell in plain words."""
    spec = result.spec
    if set(spec.axes) == {"rules.players", "seats.all"}:
        return f"{len(c.players)} {fmt_value(c.value('seats.all'))} players"
    return group_label(spec, c, set())


def analyse(result: ExperimentResult) -> Analysis:
    spec = result.spec
    others = [a for a in spec.axes if a != "rules.players"]
    group_values = axis_values(spec, others[0]) if others else [None]
    findings: list[str] = []
    first = [(c, result.estimate(c.index, "pos_edge[0]")) for c in spec.cells]
    clear = sum(V.positive(e) == V.HOLDS for _, e in first)
    c, e = max(first, key=lambda ce: ce[1].mean)
    verdict = ("Moving first helps in every setting" if clear == len(first) else "Moving first helps in some settings"
               if clear else "Moving first is not clearly an advantage")  # fmt: skip
    findings.append(
        f"{verdict}: the first player's points are clearly above the table's average in "
        f"{clear} of {len(first)} settings, by at most {signed(e, 'points per game')}, which is "
        f"{_share(result, c, e)}, with {_where(result, c)}."
    )
    for gv in group_values:
        cells = [(c, e) for c, e in first if not others or fmt_value(c.value(others[0])) == fmt_value(gv)]
        if not cells:
            continue
        tag = f"With {fmt_value(gv)} players" if others else "Here"
        lo = min(cells, key=lambda ce: ce[1].mean)
        hi = max(cells, key=lambda ce: ce[1].mean)
        n_clear = sum(V.positive(e) == V.HOLDS for _, e in cells)
        findings.append(
            f"{tag} the first player's edge over the table's average ranges from {signed(lo[1], 'points per game')} "
            f"with {lo[0].rules.players} at the table to {signed(hi[1], 'points per game')} with "
            f"{hi[0].rules.players}, clearly above 0 in {n_clear} of {len(cells)} table sizes."
        )
    # Where the first position is not the best placed: told per table size (a maximum over positions).
    moved = []
    for c in spec.cells:
        p = len(c.players)
        ests = [result.estimate(c.index, f"pos_edge[{k}]") for k in range(p)]
        best = max(range(p), key=lambda k: ests[k].mean)
        if best != 0 and V.positive(ests[best]) == V.HOLDS:
            moved.append((c, best, ests[best]))
    if moved:
        c, k, e = max(moved, key=lambda t: t[2].mean)
        findings.append(
            f"The best-placed turn position is not always the first: in {len(moved)} of {len(spec.cells)} settings "
            f"it is a later one, most with {_where(result, c)}, where position {k + 1} takes "
            f"{signed(e, 'points per game')} above the table's average (the best of {len(c.players)} positions, "
            "so not compared across table sizes)."
        )
    charts: list[Chart] = []
    for gv in group_values:
        ss = []
        tops = []
        for c in spec.cells:
            if others and fmt_value(c.value(others[0])) != fmt_value(gv):
                continue
            p = len(c.players)
            s = ChartSeries(f"{p} players", [], [], [], [])
            for k in range(p):
                e = result.estimate(c.index, f"pos_edge[{k}]")
                s.x.append(k + 1)
                s.y.append(e.mean)
                s.low.append(e.low)
                s.high.append(e.high)
            ss.append(s)
            tops.append((c, result.estimate(c.index, "pos_edge[0]")))
        if not ss:
            continue
        c, e = max(tops, key=lambda ce: ce[1].mean)
        top = max(points(ss), key=lambda t: t[2])
        tag = f"With {fmt_value(gv)} players, the" if others else "The"
        charts.append(Chart(f"position-edge{'-' + slug(fmt_value(gv)) if others else ''}",
                            f"{tag} first player gains at most {fmt_num(e.mean)} points per game "
                            f"({_share(result, c, e)}, {len(c.players)} at the table)"
                            + (f"; a later position up to {fmt_num(top[2])}" if top[2] > e.mean else ""),
                            "turn position (1 = moves first)", "points per game above the table's average",
                            ss[:MAX_SERIES], zero_line=True,
                            caption=f"Error bars: 95% confidence intervals; n={result.games:,} games per point."))  # fmt: skip
    return Analysis(findings, from_run(result, charts), [])
