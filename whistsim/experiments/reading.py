"""Findings and charts: the generic reading any spec gets, and the loader of the studies' own.

A reading takes a finished :class:`ExperimentResult` and returns sentences
(every figure with its 95% CI and n), charts described as data, and extra
tables. ``analysis = "NAME"`` in a spec names the study's own reading, the
module ``whistsim.experiments.studies.NAME`` (a function ``analyse``), loaded
by name; without one, the generic reading picks at most six findings. Either
way a report follows docs/reports.md: at most six findings in plain words,
most important first; at most six charts; figures named by their declared
meaning and unit, never by a column's code name. Figures' units, shares and
ratios come from the game's declarations: nothing here knows a figure by its
name, except the derived points figures every game with per-seat points
shares (``pos_edge``, ``points_per_player``: whistsim.core.figures.points_declared).

What the readings share is in whistsim.experiments.tools: a study imports it,
never this module, which loads the studies by name.
"""

from __future__ import annotations

import importlib
import math
from typing import Any

from ..core.options import near
from . import verdicts as V
from .figures import is_share
from .results import MAX_CHARTS, MAX_FINDINGS, Analysis, Chart, ExperimentResult, fmt_num
from .spec import SpecError, fmt_value, study_names
from .tools import (
    axis_name,
    axis_values,
    cap,
    cell_text,
    differenced,
    is_num,
    label,
    main_axis,
    name,
    points,
    series,
    signed,
    slug,
    tell,
    unit,
    value_text,
    value_words,
)

STUDIES = __package__ + ".studies"
# Named here for report.py, which writes the cells and figures in the same words.
__all__ = ["STUDIES", "analyse", "study", "generic", "generic_charts", "axis_name", "cell_text", "differenced",
           "value_words"]  # fmt: skip


def analyse(result: ExperimentResult) -> Analysis:
    """The spec's own study if it has one, else the generic reading; at most six findings and charts.

    A study's findings beyond six go to the appendix; its charts, or the generic ones when it draws none.
    """
    name = result.spec.analysis
    g = generic(result)
    if name is None:
        return g
    own = study(name).analyse(result)
    charts = own.charts or g.charts
    return Analysis(own.findings[:MAX_FINDINGS], charts[:MAX_CHARTS], own.tables,
                    own.findings[MAX_FINDINGS:] + own.appendix, own.shares, own.files, own.method)  # fmt: skip


def study(name: str) -> Any:
    """The module of a study's own reading, by its name in a spec."""
    if name not in study_names():
        raise SpecError(
            f"analysis={name!r}: unknown{near(name, study_names())} (known: {', '.join(study_names())})"
        )
    return importlib.import_module(f"{STUDIES}.{name}")


# ---- the generic reading -------------------------------------------------------


def generic(result: ExperimentResult) -> Analysis:
    """At most six findings in plain words: the largest paired change of each compared figure, then each
    headline figure's highest and lowest cell; charts of the headline figures along the main axis."""
    spec = result.spec
    paired: list[str] = []
    levels: list[str] = []
    for f in spec.headline:
        ests = [(c, result.reported(c.index, f)) for c in spec.cells]
        ests = [(c, e) for c, e in ests if math.isfinite(e.mean)]
        if not ests:
            continue
        nm = name(result, f)
        if len(ests) == 1:
            levels.append(f"{cap(nm)}: {tell(result, f, ests[0][1])}.")
            continue
        hi = max(ests, key=lambda ce: ce[1].mean)
        lo = min(ests, key=lambda ce: ce[1].mean)
        levels.append(
            f"{cap(nm)} is highest with {cell_text(spec, hi[0])}, {tell(result, f, hi[1])}, and lowest with "
            f"{cell_text(spec, lo[0])}, {tell(result, f, lo[1])}."
        )
    for f in differenced(spec):
        diffs = [(p, result.tally.paired[j].estimate(f)) for j, p in enumerate(spec.pairs)]
        diffs = [(p, e) for p, e in diffs if e.n]
        if not diffs:
            continue
        sig = sum(V.positive(e) != V.UNDECIDED for _, e in diffs)
        p, e = max(diffs, key=lambda pe: abs(pe[1].mean))
        paired.append(
            f"On the same deals, {cell_text(spec, spec.cells[p.cell])} against "
            f"{cell_text(spec, spec.cells[p.base])} changes {name(result, f)} most, by {signed(e, unit(result, f))}; "
            f"{sig} of {len(diffs)} paired changes have 95% CIs that exclude 0."
        )
    ordered = paired[:3] + levels + paired[3:]
    findings, rest = ordered[:MAX_FINDINGS], ordered[MAX_FINDINGS:]
    return Analysis(findings, generic_charts(result), [], rest)


def generic_charts(result: ExperimentResult) -> list[Chart]:
    """Each headline figure along the main axis, then (with a baseline) the first two paired changes."""
    spec = result.spec
    x = main_axis(spec)
    if x is None:
        return []
    xname = axis_name(spec, x)
    categorical = not all(is_num(v) for v in axis_values(spec, x))
    levels: list[Chart] = []
    changes: list[Chart] = []
    for f in spec.headline:
        ss = series(result, f, x)
        if not ss:
            continue
        hi = max(points(ss), key=lambda t: t[2])
        lo = min(points(ss), key=lambda t: t[2])
        where = f"{value_text(spec, x, hi[1])}" + (f" ({hi[0]})" if len(ss) > 1 else "")
        levels.append(Chart(
            f"{slug(f)}-by-{slug(xname)}",
            f"{cap(name(result, f))}: highest with {where}, {fmt_num(hi[2])}; lowest {fmt_num(lo[2])} "
            f"({unit(result, f)})",
            xname, label(result, f), ss, categorical=categorical,
            caption="Error bars: 95% confidence intervals" + (" (for a share, kept inside 0-100%)" if is_share(spec.game, f) else "")
                    + f"; n={result.games:,} games per point.",
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
            if not ests:
                continue
            sig = sum(V.positive(e) != V.UNDECIDED for _, e in ests)
            big = max(ests, key=lambda pe: abs(pe[1].mean))
            changes.append(Chart(
                f"paired-{slug(f)}-by-{slug(xname)}",
                f"Against {value_text(spec, b, base)} on the same deals, {name(result, f)} changes by up to "
                f"{'+' if big[1].mean > 0 else ''}{fmt_num(big[1].mean)} {unit(result, f)} "
                f"({cell_text(spec, spec.cells[big[0].cell])}); {sig} of {len(ests)} changes exclude 0",
                xname, f"change in {label(result, f)}", ss, zero_line=True, categorical=categorical,
                caption="Each point is a paired difference on the same deals; error bars: 95% confidence intervals; "
                        f"n={result.games:,} games per point.",
            ))  # fmt: skip
    keep = MAX_CHARTS - min(len(changes), 2)
    return levels[:keep] + changes[: MAX_CHARTS - min(len(levels), keep)]
