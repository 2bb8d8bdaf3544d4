"""How many players is best? (experiments/player_count.toml; Akagiri 1995: "three is best")

Two measures that mean the same at every table size, each with the player
count that does best on it: closeness (``rel_margin``, the winning margin over
a fair share) and the end (Welsh ``last_keeps``). The largest turn-position
edge (``seat_gap``) is a maximum over the positions: a table with more
positions has more chances of a large one, so it is told per table size and
never ranked across sizes. The first player's edge over a fair share is one
position at every size, and is charted by player count.
"""

from __future__ import annotations

import pandas as pd

from ...core.stats import Estimate
from .. import verdicts as V
from ..charts import direction, from_run, n_of
from ..results import Analysis, Chart, ChartSeries, ExperimentResult, fmt_est, fmt_num, md_table
from ..spec import Cell, fmt_value
from ..tools import axis_values, fmt_share, points, seat_gap, series, slug
from .leading import rules_words

MEASURES = (
    ("rel_margin", "closeness: the winning margin over a fair share (lower is closer)", True),
    (
        "last_keeps",
        "the end: how often the last player keeps unplayed cards (lower leaves less to luck)",
        True,
    ),
)


def measure(result: ExperimentResult, cell: Cell, name: str) -> Estimate:
    if name == "seat_gap":
        return seat_gap(result, cell)[1]
    return result.reported(cell.index, name)


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


def _tell(result: ExperimentResult, name: str, e: Estimate) -> str:
    return fmt_share(e) if name == "last_keeps" else fmt_est(e, "of a fair share")


def analyse(result: ExperimentResult) -> Analysis:
    spec = result.spec
    if "rules.players" not in spec.axes:
        return Analysis(["(the player_count analysis needs a sweep over rules.players)"], [], [])
    preset_axis = "rules.preset" if "rules.preset" in spec.axes else None
    presets = axis_values(spec, preset_axis) if preset_axis else [None]

    def cells_of(pr) -> list[Cell]:
        return [
            c for c in spec.cells if preset_axis is None or fmt_value(c.value(preset_axis)) == fmt_value(pr)
        ]

    def where(pr) -> str:
        return f"under {rules_words(fmt_value(pr))}" if pr is not None else "here"

    rows = []
    verdicts = []
    per_measure: dict[str, list[str]] = {}
    for pr in presets:
        cells = cells_of(pr)
        for name, what, lower in MEASURES:
            best, v = best_count(result, cells, name, lower)
            e3 = next((measure(result, c, name) for c in cells if c.rules.players == 3), None)
            eb = measure(result, best, name)
            verdicts.append(v)
            part = f"{where(pr)} with {best.rules.players} players, {_tell(result, name, eb)}"
            if e3 is not None and best.rules.players != 3:
                part += f", against {_tell(result, name, e3)} with three"
            per_measure.setdefault(name, []).append(part)
            rows.append({"rules": rules_words(fmt_value(pr)) if pr is not None else "–", "measure": what,
                         "best player count": best.rules.players,
                         "at best [95% CI]": f"{fmt_num(eb.mean)} [{fmt_num(eb.low)}, {fmt_num(eb.high)}]",
                         "three players [95% CI]": f"{fmt_num(e3.mean)} [{fmt_num(e3.low)}, {fmt_num(e3.high)}]" if e3 else "–",
                         '"three is best"': v})  # fmt: skip
    holds = sum(v == V.HOLDS for v in verdicts)
    fails = sum(v == V.FAILS for v in verdicts)
    overall = V.HOLDS if holds > len(verdicts) / 2 else V.FAILS if fails > len(verdicts) / 2 else V.UNDECIDED
    findings = [
        f'"Three players is best" (Akagiri 1995) {overall} on closeness and the end: three players is '
        f"clearly best on {holds}, and clearly not on {fails}, of {len(verdicts)} measure and rules pairs "
        f"(n={result.games:,} games per table size)."
    ]
    if "rel_margin" in per_measure:
        findings.append(
            "Games are closest (the smallest winning margin, as a share of a fair share of the points) "
            + "; ".join(per_measure["rel_margin"])
            + "."
        )
    if "last_keeps" in per_measure:
        findings.append(
            "The last player is left holding unplayed cards least often "
            + "; ".join(per_measure["last_keeps"])
            + "."
        )
    for pr in presets[:1]:
        three = next((c for c in cells_of(pr) if c.rules.players == 3), None)
        if three is not None:
            k, g = seat_gap(result, three)
            findings.append(
                f"With three players {where(pr)} the largest turn-position edge is position {k + 1}'s, "
                f"{100 * g.mean:.2f}% of a fair share (95% CI {100 * g.low:.2f}–{100 * g.high:.2f}%, n={g.n:,}); "
                "it is the largest of "
                "the positions' edges, so it is given for one table size and not compared across sizes."
            )
        cs = cells_of(pr)
        lo, hi = min(cs, key=lambda c: c.rules.players), max(cs, key=lambda c: c.rules.players)
        findings.append(
            f"A game {where(pr)} lasts {fmt_est(result.estimate(lo.index, 'turns'), 'turns')} with "
            f"{lo.rules.players} players and {fmt_est(result.estimate(hi.index, 'turns'), 'turns')} with "
            f"{hi.rules.players}."
        )
    charts = _charts(result, presets, cells_of)
    return Analysis(findings, charts,
                    [('"Three players is best": measure by measure', md_table(pd.DataFrame(rows)))])  # fmt: skip


def _charts(result: ExperimentResult, presets: list, cells_of) -> list[Chart]:
    n = n_of(result)
    charts: list[Chart] = []
    for f, what, ylabel in (
        ("rel_margin", "The winning margin over a fair share", "winning margin over a fair share of the points (ratio)"),
        ("last_keeps", "The share of games in which the last player keeps unplayed cards", "share of games the last player keeps cards"),
        ("rel_spread", "The spread of the players' points over a fair share", "sd of the players' points within a game over a fair share (ratio)"),
        ("turns", "Turns per game", "turns per game"),
        ("points_per_player", "Points per player", "points per player per game"),
    ):  # fmt: skip
        ss = series(result, f, "rules.players")
        if not ss:
            continue
        for s in ss:
            s.label = rules_words(s.label)
        lo = min(points(ss), key=lambda t: t[2])
        hi = max(points(ss), key=lambda t: t[2])
        pct = f == "last_keeps"
        v = (lambda y: f"{100 * y:.1f}%") if pct else fmt_num
        way = direction(ss)
        how = (
            f"{way} with more players"
            if way
            else f"is largest with {hi[1]} players and smallest with {lo[1]}"
        )
        charts.append(Chart(f"{slug(f)}-by-players",
                            f"{what} {how}: {v(hi[2])} with {hi[1]} players ({hi[0]}), {v(lo[2])} with "
                            f"{lo[1]} ({lo[0]})",
                            "players at the table", ylabel, ss,
                            caption="Error bars: 95% confidence intervals.", n=n))  # fmt: skip
    first = []
    for pr in presets:
        s = ChartSeries(rules_words(fmt_value(pr)) if pr is not None else "all", [], [], [], [])
        for c in cells_of(pr):
            ppp = result.estimate(c.index, "points_per_player").mean
            e = result.estimate(c.index, "pos_edge[0]")
            if not ppp:
                continue
            s.x.append(c.rules.players)
            s.y.append(100 * e.mean / ppp)
            s.low.append(100 * e.low / ppp)
            s.high.append(100 * e.high / ppp)
        if s.x:
            first.append(s)
    if first:
        top = max(points(first), key=lambda t: t[2])
        charts.append(Chart("first-player-edge-by-players",
                            f"The first player's edge is at most {top[2]:.1f}% of a fair share of the points "
                            f"({top[1]} players, {top[0]})",
                            "players at the table", "first player's points above the table's average (% of a fair share)",
                            first, zero_line=True,
                            caption="One turn position at every table size, so the sizes compare; error bars: 95% "
                                    "confidence intervals.", n=n))  # fmt: skip
    return from_run(result, charts)
