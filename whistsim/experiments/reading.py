"""Findings and charts: the generic reading any spec gets, and what the studies' readings share.

A reading takes a finished :class:`ExperimentResult` and returns sentences
(every figure with its 95% CI and n), charts described as data, and extra
tables. ``analysis = "NAME"`` in a spec adds the study's own reading, the
module ``whistsim.experiments.studies.NAME`` (a function ``analyse``), loaded
by name; the generic reading is always added after it. Figures' units, shares
and ratios come from the game's declarations: nothing here knows a figure by
its name, except the derived points figures every game with per-seat points
shares (``pos_edge``, ``points_per_player``: whistsim.figures.points_declared).
"""

from __future__ import annotations

import importlib
import math
from typing import Any

from ..options import near
from ..stats import Estimate
from . import verdicts as V
from .figures import figure_unit, is_ratio
from .results import Analysis, Chart, ChartSeries, ExperimentResult, fmt_est, fmt_num
from .spec import Cell, Spec, SpecError, fmt_value, study_names

MAX_SERIES = 10
STUDIES = __package__ + ".studies"


def analyse(result: ExperimentResult) -> Analysis:
    """The spec's own study (if any) first, then the generic reading; its own charts, else the generic ones."""
    g = generic(result)
    name = result.spec.analysis
    if name is None:
        return g
    own = study(name).analyse(result)
    return Analysis(own.findings + g.findings, own.charts or g.charts, own.tables)


def study(name: str) -> Any:
    """The module of a study's own reading, by its name in a spec."""
    if name not in study_names():
        raise SpecError(
            f"analysis={name!r}: unknown{near(name, study_names())} (known: {', '.join(study_names())})"
        )
    return importlib.import_module(f"{STUDIES}.{name}")


# ---- tools the readings share ---------------------------------------------------------


def signed(e: Estimate, unit: str = "") -> str:
    s = fmt_est(e, unit)
    return ("+" + s) if e.mean > 0 else s


def unit(result: ExperimentResult, figure: str) -> str:
    return figure_unit(result.spec.game, figure)


def differenced(spec: Spec) -> list[str]:
    """The headline figures with per-game paired differences (a ratio of means has none)."""
    return [f for f in spec.headline if not is_ratio(spec.game, f)]


def axis_values(spec: Spec, axis: str) -> list[Any]:
    out: list[Any] = []
    for c in spec.cells:
        v = c.value(axis)
        if v is not None and all(fmt_value(v) != fmt_value(x) for x in out):
            out.append(v)
    return out


def is_num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def find_axis(spec: Spec, pred: Any) -> str | None:
    return next((a for a in spec.axes if pred(a)), None)


def main_axis(spec: Spec) -> str | None:
    """The x axis of charts: the numeric axis with the most values, else the first axis with several."""
    multi = [a for a in spec.axes if len(axis_values(spec, a)) > 1]
    numeric = [a for a in multi if all(is_num(v) for v in axis_values(spec, a))]
    if numeric:
        return max(numeric, key=lambda a: len(axis_values(spec, a)))
    return multi[0] if multi else None


def group_label(spec: Spec, cell: Cell, skip: set[str]) -> str:
    parts = [f"{spec.label(a)}={fmt_value(v)}" for a, v in cell.coords if a not in skip and v is not None]
    return ", ".join(parts) or "all cells"


def series(
    result: ExperimentResult, figure: str, x_axis: str, *, paired: bool = False, cells: list[Cell] | None = None,
    skip: set[str] | None = None, pair_axis: str | None = None,
) -> list[ChartSeries]:  # fmt: skip
    """One series per combination of the other axes; x is ``x_axis``'s value.

    ``paired``: y is the difference against the first baseline of ``pair_axis`` (default ``x_axis``);
    on the x axis itself the baseline is drawn at 0.
    """
    spec = result.spec
    skip = {x_axis} | (skip or set())
    pair_axis = pair_axis or x_axis
    groups: dict[str, ChartSeries] = {}
    for c in cells if cells is not None else spec.cells:
        x = c.value(x_axis)
        if x is None:
            continue
        if paired:
            base = spec.baseline.get(pair_axis, [None])[0]
            if base is not None and fmt_value(c.value(pair_axis)) == fmt_value(base):
                if pair_axis != x_axis:
                    continue
                e = Estimate(0.0, 0.0, result.games)
            else:
                d = result.difference(c.index, figure, pair_axis, base)
                if d is None:
                    continue
                e = d[0]
        else:
            e = result.reported(c.index, figure)
        if not math.isfinite(e.mean):
            continue
        key = group_label(spec, c, skip)
        s = groups.setdefault(key, ChartSeries(key, [], [], [], []))
        s.x.append(x)
        s.y.append(e.mean)
        s.low.append(e.low if e.n >= 2 else e.mean)
        s.high.append(e.high if e.n >= 2 else e.mean)
    return list(groups.values())[:MAX_SERIES]


def points(ss: list[ChartSeries]) -> list[tuple[str, Any, float]]:
    """(series label, x, y) of every point of some series."""
    return [(s.label, x, y) for s in ss for x, y in zip(s.x, s.y, strict=True)]


def slug(s: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in s).strip("-").replace("--", "-")


def seat_gap(result: ExperimentResult, cell: Cell) -> tuple[int, Estimate]:
    """The turn position whose edge over the table average is largest in size, relative to a fair share."""
    p = len(cell.players)
    ppp = result.estimate(cell.index, "points_per_player").mean
    best = None
    for k in range(p):
        e = result.estimate(cell.index, f"pos_edge[{k}]")
        if best is None or abs(e.mean) > abs(best[1].mean):
            best = (k, e)
    k, e = best  # type: ignore[misc]
    scale = ppp if ppp else 1.0
    return k, Estimate(abs(e.mean) / scale, e.sd / abs(scale), e.n)


# ---- the generic reading -------------------------------------------------------


def generic(result: ExperimentResult) -> Analysis:
    spec = result.spec
    findings: list[str] = []
    charts: list[Chart] = []
    for f in spec.headline:
        u = unit(result, f)
        ests = [(c, result.reported(c.index, f)) for c in spec.cells]
        ests = [(c, e) for c, e in ests if math.isfinite(e.mean)]
        if not ests:
            continue
        if len(ests) == 1:
            findings.append(f"`{f}`: {fmt_est(ests[0][1], u)}.")
            continue
        hi = max(ests, key=lambda ce: ce[1].mean)
        lo = min(ests, key=lambda ce: ce[1].mean)
        findings.append(
            f"`{f}` is highest for {spec.cell_label(hi[0])}: {fmt_est(hi[1], u)}; "
            f"lowest for {spec.cell_label(lo[0])}: {fmt_est(lo[1], u)}."
        )
    for f in differenced(spec):
        diffs = []
        for j, p in enumerate(spec.pairs):
            e = result.tally.paired[j].estimate(f)
            if e.n:
                diffs.append((p, e))
        if not diffs:
            continue
        sig = [(p, e) for p, e in diffs if V.positive(e) != V.UNDECIDED]
        sig.sort(key=lambda pe: -abs(pe[1].mean))
        for p, e in sig[:3]:
            findings.append(
                f"Paired on the same deals, {spec.cell_label(spec.cells[p.cell])} changes `{f}` by "
                f"{signed(e, unit(result, f))} against {spec.cell_label(spec.cells[p.base])}."
            )
        findings.append(
            f"{len(sig)} of {len(diffs)} paired differences in `{f}` have 95% CIs that exclude 0."
        )
    x = main_axis(spec)
    if x is not None:
        categorical = not all(is_num(v) for v in axis_values(spec, x))
        for f in spec.headline:
            ss = series(result, f, x)
            if not ss:
                continue
            best = max(points(ss), key=lambda t: t[2])
            where = f"{spec.label(x)}={fmt_value(best[1])}" + (f" ({best[0]})" if len(ss) > 1 else "")
            charts.append(Chart(
                f"{slug(f)}-by-{slug(spec.label(x))}",
                f"{f} by {spec.label(x)}: highest at {where}, {fmt_num(best[2])} {unit(result, f)}",
                spec.label(x), f"{f}: {unit(result, f)} (95% CI)", ss, categorical=categorical,
            ))  # fmt: skip
        if spec.pairs:
            b = next(iter(spec.baseline))
            base = spec.baseline[b][0]
            for f in differenced(spec)[:2]:
                ss = series(result, f, x, paired=True, pair_axis=b)
                if not ss:
                    continue
                ests = [
                    (p, result.tally.paired[j].estimate(f))
                    for j, p in enumerate(spec.pairs)
                    if p.axis == b and fmt_value(spec.cells[p.base].value(b)) == fmt_value(base)
                ]
                sig = sum(V.positive(e) != V.UNDECIDED for _, e in ests)
                big = max(ests, key=lambda pe: abs(pe[1].mean))
                charts.append(Chart(
                    f"paired-{slug(f)}-by-{slug(spec.label(x))}",
                    f"{f} against {spec.label(b)}={fmt_value(base)} on the same deals: largest change "
                    f"{'+' if big[1].mean > 0 else ''}{fmt_num(big[1].mean)} ({spec.cell_label(spec.cells[big[0].cell])}); "
                    f"{sig} of {len(ests)} changes exclude 0",
                    spec.label(x), f"difference in {f}: {unit(result, f)} (95% CI)", ss, zero_line=True,
                    categorical=categorical,
                ))  # fmt: skip
    return Analysis(findings, charts, [])
