"""Does it matter who moves first? (experiments/seat_advantage.toml)

Each turn position's points above the table's average (``pos_edge``), for
every cell.
"""

from __future__ import annotations

from .. import verdicts as V
from ..reading import MAX_SERIES, axis_values, points, seat_gap, signed, slug
from ..results import Analysis, Chart, ChartSeries, ExperimentResult, fmt_num
from ..spec import fmt_value


def analyse(result: ExperimentResult) -> Analysis:
    spec = result.spec
    findings: list[str] = []
    charts: list[Chart] = []
    for c in spec.cells:
        p = len(c.players)
        ests = [result.estimate(c.index, f"pos_edge[{k}]") for k in range(p)]
        best = max(range(p), key=lambda k: ests[k].mean)
        worst = min(range(p), key=lambda k: ests[k].mean)
        findings.append(
            f"{spec.cell_label(c)}: the first player's edge over the table average is {signed(ests[0], 'points per game')}; "
            f"best placed is position {best + 1} ({fmt_num(ests[best].mean)}), worst position {worst + 1} ({fmt_num(ests[worst].mean)})."
        )
    gaps = [(c, *seat_gap(result, c)) for c in spec.cells]
    c, k, g = max(gaps, key=lambda t: t[2].mean)
    e = result.estimate(c.index, f"pos_edge[{k}]")
    findings.insert(0, (
        f"The largest turn-position effect is position {k + 1} with {spec.cell_label(c)}: {signed(e, 'points per game')}, "
        f"{fmt_num(100 * g.mean)}% of a fair share of the points; "
        f"{sum(V.positive(result.estimate(c2.index, 'pos_edge[0]')) == V.HOLDS for c2 in spec.cells)} of {len(spec.cells)} "
        "cells give the first player a clear edge."
    ))  # fmt: skip
    others = [a for a in spec.axes if a != "rules.players"]
    group_values = axis_values(spec, others[0]) if others else [None]
    for gv in group_values:
        ss = []
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
        if not ss:
            continue
        top = max(points(ss), key=lambda t: t[2])
        tag = f"{spec.label(others[0])}={fmt_value(gv)}: " if others else ""
        charts.append(Chart(f"position-edge{'-' + slug(fmt_value(gv)) if others else ''}",
                            f"{tag}the best turn position is {top[1]} with {top[0]} (+{fmt_num(top[2])} points per game)",
                            "turn position (1 = moves first)", "points per game above the table average (95% CI)",
                            ss[:MAX_SERIES], zero_line=True))  # fmt: skip
    return Analysis(findings, charts, [])
