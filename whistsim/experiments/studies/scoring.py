"""Scoring rules (experiments/five_penalty.toml): totals, spread and who wins under each.

A study of Welsh Whist's scoring: it names the Welsh figures it reads
(``total_points``, ``most_cards_wins``, ``most_tt_wins``) and the spread and
margin every game with points has.
"""

from __future__ import annotations

import math

from .. import verdicts as V
from ..reading import axis_values, group_label, points, series, signed, slug, unit
from ..results import Analysis, Chart, ChartSeries, ExperimentResult, fmt_est, fmt_num
from ..spec import fmt_value


def analyse(result: ExperimentResult) -> Analysis:
    """Totals, spread and who wins under each scoring rule."""
    spec = result.spec
    axis = "rules.scoring"
    if axis not in spec.axes:
        return Analysis(["(the scoring analysis needs a sweep over rules.scoring)"], [], [])
    findings: list[str] = []
    charts: list[Chart] = []
    others = [a for a in spec.axes if a != axis]
    base = spec.baseline.get(axis, ["standard"])[0]
    for sv in axis_values(spec, axis):
        cells = [c for c in spec.cells if fmt_value(c.value(axis)) == fmt_value(sv)]
        ests = [(c, result.estimate(c.index, "total_points")) for c in cells]
        exact = {e.mean for _, e in ests if e.n >= 2 and e.sd == 0}
        if len(exact) == 1 and all(e.sd == 0 for _, e in ests):
            findings.append(f"{spec.label(axis)}={fmt_value(sv)}: the total is {fmt_num(exact.pop())} points in every game "
                            f"({len(cells)} cell(s), n={result.games:,} each).")  # fmt: skip
        else:
            lo, hi = ests[0], ests[-1]
            h = result.tally.hists[hi[0].index].get("total_points")
            rng = f"; single games range from {min(h)} to {max(h)}" if h else ""
            findings.append(
                f"{spec.label(axis)}={fmt_value(sv)}: the total varies from game to game: {fmt_est(lo[1], 'points')} "
                f"({group_label(spec, lo[0], {axis})}) to {fmt_est(hi[1], 'points')} ({group_label(spec, hi[0], {axis})}){rng}."
            )
    what = {
        "rel_spread": "the spread of players' points (sd within a game over a fair share)",
        "rel_margin": "the winning margin over a fair share",
        "most_cards_wins": "the share of games won by a player with the most cards",
        "most_tt_wins": "the share of games won by a player with the most Tens and Taffies",
    }
    for sv in axis_values(spec, axis):
        if fmt_value(sv) == fmt_value(base):
            continue
        for f, words in what.items():
            diffs = []
            for c in spec.cells:
                if fmt_value(c.value(axis)) != fmt_value(sv):
                    continue
                d = result.difference(c.index, f, axis)
                if d is not None:
                    diffs.append((c, d[0]))
            if not diffs:
                continue
            sig = sum(V.positive(e) != V.UNDECIDED for _, e in diffs)
            lo = min(diffs, key=lambda ce: ce[1].mean)
            hi = max(diffs, key=lambda ce: ce[1].mean)
            span = (f"{signed(lo[1])} ({group_label(spec, lo[0], {axis})}) to {signed(hi[1])} "
                    f"({group_label(spec, hi[0], {axis})})") if len(diffs) > 1 else signed(lo[1])  # fmt: skip
            findings.append(
                f"{fmt_value(sv)} against {fmt_value(base)} on the same deals changes {words} by {span}; "
                f"{sig} of {len(diffs)} paired 95% CIs exclude 0."
            )
    first = [
        c
        for c in spec.cells
        if all(fmt_value(c.value(a)) == fmt_value(axis_values(spec, a)[0]) for a in others)
    ]
    if first:
        tag = group_label(spec, first[0], {axis})
        parts = [
            f"{fmt_value(c.value(axis))}: {fmt_num(100 * result.estimate(c.index, 'most_cards_wins').mean)}% "
            f"(most cards), {fmt_num(100 * result.estimate(c.index, 'most_tt_wins').mean)}% (most Tens and Taffies)"
            for c in first
        ]
        findings.append(f"Who wins ({tag}, n={result.games:,} per cell): " + "; ".join(parts) + ".")
    x = others[0] if others else axis
    for f, ylabel in (("rel_spread", "sd of points within a game / points per player"),
                      ("rel_margin", "winning margin / points per player"),
                      ("most_cards_wins", "share of games a player with most cards wins"),
                      ("most_tt_wins", "share of games a player with most Tens+Taffies wins")):  # fmt: skip
        ss = series(result, f, x) if x != axis else series(result, f, axis)
        if not ss:
            continue
        top = max(points(ss), key=lambda t: t[2])
        charts.append(Chart(f"{slug(f)}-by-scoring", f"{f}: highest under {top[0]} at {spec.label(x)}={fmt_value(top[1])} ({fmt_num(top[2])})",
                            spec.label(x), f"{ylabel} (95% CI)", ss, kind="lines" if x != axis else "bars",
                            categorical=x == axis))  # fmt: skip
    for h in spec.histograms:
        first_other = {a: axis_values(spec, a)[0] for a in others}
        cells = [
            c
            for c in spec.cells
            if all(fmt_value(c.value(a)) == fmt_value(v) for a, v in first_other.items())
        ]
        ss = []
        for c in cells:
            counts = result.tally.hists[c.index].get(h, {})
            total = sum(counts.values())
            if not total:
                continue
            xs = sorted(counts)
            ss.append(ChartSeries(f"{spec.label(axis)}={fmt_value(c.value(axis))}", xs, [counts[v] / total for v in xs],
                                  [math.nan] * len(xs), [math.nan] * len(xs)))  # fmt: skip
        if ss:
            where = ", ".join(f"{spec.label(a)}={fmt_value(v)}" for a, v in first_other.items())
            widest = max(ss, key=lambda s: max(s.x) - min(s.x))
            charts.append(Chart(f"distribution-{slug(h)}", f"Distribution of {h} ({where}): widest under {widest.label}",
                                unit(result, h), f"share of games (n={result.games:,} per scoring)", ss, kind="hist"))  # fmt: skip
    return Analysis(findings, charts, [])
