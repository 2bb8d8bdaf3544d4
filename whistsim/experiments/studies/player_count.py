"""How many players is best? (experiments/player_count.toml; Akagiri 1995: "three is best")

Three measures, each with the player count that does best on it: closeness
(``rel_margin``), seat fairness (the largest turn-order edge) and the end
(Welsh ``last_keeps``). The claims reuse :data:`MEASURES` and :func:`best_count`.
"""

from __future__ import annotations

import pandas as pd

from ...stats import Estimate
from .. import verdicts as V
from ..reading import axis_values, points, seat_gap, series, slug
from ..results import Analysis, Chart, ChartSeries, ExperimentResult, fmt_est, fmt_num, md_table
from ..spec import Cell, fmt_value

MEASURES = (
    ("rel_margin", "closeness: the winning margin over a fair share (lower is closer)", True),
    ("seat_gap", "seat fairness: the largest turn-order edge over a fair share (lower is fairer)", True),
    (
        "last_keeps",
        "the end: how often the last player keeps unplayed cards (lower leaves less to luck)",
        True,
    ),
)


def measure(result: ExperimentResult, cell: Cell, name: str) -> Estimate:
    if name == "seat_gap":
        return seat_gap(result, cell)[1]
    return result.estimate(cell.index, name)


def best_count(
    result: ExperimentResult, cells: list[Cell], name: str, lower: bool, target: int = 3
) -> tuple[Cell, str]:
    """The best cell on a measure, and whether the ``target`` player count is best (tied best: CIs overlap)."""
    ests = [(c, measure(result, c, name)) for c in cells]
    best_c, best_e = (min if lower else max)(ests, key=lambda ce: ce[1].mean)
    t = [(c, e) for c, e in ests if c.rules.players == target]
    if not t:
        return best_c, V.UNDECIDED
    tc, te = t[0]
    if tc is best_c:
        others = [e for c, e in ests if c is not best_c]
        clear = all((e.low > te.high) if lower else (e.high < te.low) for e in others)
        return best_c, V.HOLDS if clear else V.UNDECIDED
    overlap = te.low <= best_e.high and best_e.low <= te.high
    return best_c, V.UNDECIDED if overlap else V.FAILS


def analyse(result: ExperimentResult) -> Analysis:
    spec = result.spec
    if "rules.players" not in spec.axes:
        return Analysis(["(the player_count analysis needs a sweep over rules.players)"], [], [])
    preset_axis = "rules.preset" if "rules.preset" in spec.axes else None
    presets = axis_values(spec, preset_axis) if preset_axis else [None]
    findings: list[str] = []
    rows = []
    all_verdicts = []
    for pr in presets:
        cells = [
            c for c in spec.cells if preset_axis is None or fmt_value(c.value(preset_axis)) == fmt_value(pr)
        ]
        tag = f"{pr}: " if pr else ""
        for name, what, lower in MEASURES:
            best, v = best_count(result, cells, name, lower)
            e3 = next((measure(result, c, name) for c in cells if c.rules.players == 3), None)
            eb = measure(result, best, name)
            all_verdicts.append(v)
            findings.append(
                f"{tag}{what}: best with {best.rules.players} players ({fmt_est(eb)})"
                + (f"; three players {fmt_est(e3)}" if e3 is not None and best.rules.players != 3 else "")
                + f' — "three is best" {v} on this measure.'
            )
            rows.append({"preset": pr or "-", "measure": name, "best players": best.rules.players,
                         "at best": f"{fmt_num(eb.mean)} [{fmt_num(eb.low)}, {fmt_num(eb.high)}]",
                         "three players": f"{fmt_num(e3.mean)} [{fmt_num(e3.low)}, {fmt_num(e3.high)}]" if e3 else "–",
                         "three is best": v})  # fmt: skip
        for c in cells:
            k, g = seat_gap(result, c)
            if c.rules.players in (2, 3, 8):
                findings.append(
                    f"{tag}{c.rules.players} players: games last {fmt_est(result.estimate(c.index, 'turns'), 'turns')}; "
                    f"{fmt_est(result.estimate(c.index, 'points_per_player'), 'points per player')}; "
                    f"the last player keeps cards in {fmt_num(100 * result.estimate(c.index, 'last_keeps').mean)}% of games; "
                    f"the largest seat edge is position {k + 1}'s, {fmt_num(100 * g.mean)}% of a fair share."
                )
    holds = sum(v == V.HOLDS for v in all_verdicts)
    fails = sum(v == V.FAILS for v in all_verdicts)
    overall = (
        V.HOLDS
        if holds > len(all_verdicts) / 2
        else V.FAILS
        if fails > len(all_verdicts) / 2
        else V.UNDECIDED
    )
    findings.insert(0, f"Verdict on \"three players is best\" (Akagiri 1995) by closeness, seat fairness and the end: {overall} "
                       f"(three is clearly best on {holds}, clearly not on {fails}, of {len(all_verdicts)} measure-preset pairs).")  # fmt: skip
    charts: list[Chart] = []
    for f, ylabel in (("turns", "turns per game"), ("points_per_player", "points per player per game"),
                      ("rel_spread", "sd of points within a game / fair share"), ("rel_margin", "winning margin / fair share"),
                      ("last_keeps", "share of games the last player keeps cards")):  # fmt: skip
        ss = series(result, f, "rules.players")
        if not ss:
            continue
        lowest = min(points(ss), key=lambda t: t[2])
        highest = max(points(ss), key=lambda t: t[2])
        charts.append(Chart(f"{slug(f)}-by-players",
                            f"{f}: from {fmt_num(lowest[2])} ({lowest[1]} players, {lowest[0]}) to {fmt_num(highest[2])} ({highest[1]} players, {highest[0]})",
                            "players", f"{ylabel} (95% CI)", ss))  # fmt: skip
    gap_series = []
    for pr in presets:
        cells = [
            c for c in spec.cells if preset_axis is None or fmt_value(c.value(preset_axis)) == fmt_value(pr)
        ]
        s = ChartSeries(f"preset={pr}" if pr else "all", [], [], [], [])
        for c in cells:
            _, g = seat_gap(result, c)
            s.x.append(c.rules.players)
            s.y.append(g.mean)
            s.low.append(g.low)
            s.high.append(g.high)
        gap_series.append(s)
    fairest = min(points(gap_series), key=lambda t: t[2])
    charts.append(Chart("seat-gap-by-players", f"Seat advantage is smallest with {fairest[1]} players ({fairest[0]})",
                        "players", "largest turn-order edge / fair share (95% CI)", gap_series))  # fmt: skip

    return Analysis(
        findings, charts, [('"Three players is best": measure by measure', md_table(pd.DataFrame(rows)))]
    )
