"""Scoring rules (experiments/five_penalty.toml): totals, spread and who wins under each.

A study of Welsh Whist's scoring: it names the Welsh figures it reads
(``total_points``, ``most_cards_wins``, ``most_tt_wins``) and the spread and
margin every game with points has.
"""

from __future__ import annotations

import math

from ...core.stats import wilson
from .. import verdicts as V
from ..charts import from_run, n_of
from ..results import Analysis, Chart, ChartSeries, ExperimentResult, fmt_est, fmt_num
from ..spec import fmt_value
from ..tools import axis_values, fmt_share, group_label, points, series, signed, slug

WORDS = {"standard": "standard scoring", "five_penalty": "the five-penalty", "piles": "pile scoring"}


def words(v: object) -> str:
    s = fmt_value(v)
    return WORDS.get(s, f"scoring '{s}'")


def analyse(result: ExperimentResult) -> Analysis:
    """Totals, spread and who wins under each scoring rule."""
    spec = result.spec
    axis = "rules.scoring"
    if axis not in spec.axes:
        return Analysis(["(the scoring analysis needs a sweep over rules.scoring)"], [], [])
    findings: list[str] = []
    others = [a for a in spec.axes if a != axis]
    base = spec.baseline.get(axis, ["standard"])[0]
    n = f"n={result.games:,} games per cell"
    exact, varying = [], []
    for sv in axis_values(spec, axis):
        cells = [c for c in spec.cells if fmt_value(c.value(axis)) == fmt_value(sv)]
        ests = [(c, result.estimate(c.index, "total_points")) for c in cells]
        values = {e.mean for _, e in ests if e.n >= 2 and e.sd == 0}
        if len(values) == 1 and all(e.sd == 0 for _, e in ests):
            exact.append(f"{fmt_num(values.pop())} points under {words(sv)}")
        else:
            lo = min(ests, key=lambda ce: ce[1].mean)
            hi = max(ests, key=lambda ce: ce[1].mean)
            varying.append(
                f"under {words(sv)} it varies from game to game, from {fmt_est(lo[1], 'points')} with "
                f"{group_label(spec, lo[0], {axis})} to {fmt_est(hi[1], 'points')} with {group_label(spec, hi[0], {axis})}"
            )
    if exact or varying:
        text = f"Every game totals {' and '.join(exact)}, at every table size ({n})" if exact else ""
        text += ("; " if text else "The total ") + "; ".join(varying) if varying else ""
        findings.append(text[:1].upper() + text[1:] + ".")
    what = {
        "rel_spread": "the spread of the players' points (their sd within a game over a fair share)",
        "rel_margin": "the winning margin (over a fair share)",
    }
    for f, wd in what.items():
        parts = []
        for sv in axis_values(spec, axis):
            if fmt_value(sv) == fmt_value(base):
                continue
            diffs = []
            for c in spec.cells:
                if fmt_value(c.value(axis)) == fmt_value(sv):
                    d = result.difference(c.index, f, axis)
                    if d is not None:
                        diffs.append((c, d[0]))
            if not diffs:
                continue
            c, e = max(diffs, key=lambda ce: abs(ce[1].mean))
            sig = sum(V.positive(x) != V.UNDECIDED for _, x in diffs)
            clear = (
                "every change clear of 0"
                if sig == len(diffs)
                else f"{sig} of {len(diffs)} changes clear of 0"
            )
            parts.append(
                f"by up to {signed(e)} under {words(sv)} with {group_label(spec, c, {axis})} ({clear})"
            )
        if parts:
            findings.append(f"Against {words(base)} on the same deals, {wd} changes {' and '.join(parts)}.")
    first = [
        c
        for c in spec.cells
        if all(fmt_value(c.value(a)) == fmt_value(axis_values(spec, a)[0]) for a in others)
    ]
    if first:
        tag = group_label(spec, first[0], {axis})
        for f, who in (("most_cards_wins", "the most cards"), ("most_tt_wins", "the most Tens and Taffies")):
            parts = [f"{fmt_share(result.reported(c.index, f))} under {words(c.value(axis))}" for c in first]
            findings.append(
                f"With {tag}, a player with {who} is among the winners in " + ", ".join(parts) + "."
            )
    return Analysis(findings[:6], _charts(result, axis, others), [], findings[6:])


def _charts(result: ExperimentResult, axis: str, others: list[str]) -> list[Chart]:
    spec = result.spec
    charts: list[Chart] = []
    n = n_of(result)
    x = others[0] if others else axis
    for f, what, ylabel in (
        ("rel_spread", "the spread of the players' points", "sd of the players' points within a game over a fair share (ratio)"),
        ("rel_margin", "the winning margin", "winning margin over a fair share of the points (ratio)"),
        ("most_cards_wins", "how often a player with the most cards wins", "share of games a player with the most cards wins"),
        ("most_tt_wins", "how often a player with the most Tens and Taffies wins", "share of games a player with the most Tens and Taffies wins"),
    ):  # fmt: skip
        ss = series(result, f, x)
        if not ss:
            continue
        for s in ss:
            s.label = next((w for k, w in WORDS.items() if s.label.endswith(k)), s.label)
        top = max(points(ss), key=lambda t: t[2])
        low = min(points(ss), key=lambda t: t[2])
        share = f.startswith("most")
        v = (lambda y: f"{100 * y:.1f}%") if share else fmt_num
        where = (lambda t: f"{t[0]}, {t[1]} players") if x != axis else (lambda t: f"{t[1]}")
        title = f"{what[:1].upper()}{what[1:]}: highest under {where(top)} ({v(top[2])}), lowest under {where(low)} ({v(low[2])})"
        charts.append(Chart(f"{slug(f)}-by-scoring", title, "players at the table" if x != axis else "scoring",
                            ylabel, ss, kind="lines" if x != axis else "bars", categorical=x == axis,
                            caption="Error bars: 95% confidence intervals.", n=n))  # fmt: skip
    first_other = {a: axis_values(spec, a)[0] for a in others}
    cells = [
        c for c in spec.cells if all(fmt_value(c.value(a)) == fmt_value(v) for a, v in first_other.items())
    ]
    where = ", ".join(group_label(spec, c, {axis}) for c in cells[:1])
    for h in spec.histograms:
        ss, constant = [], []
        for c in cells:
            counts = result.tally.hists[c.index].get(h, {})
            total = sum(counts.values())
            if not total:
                continue
            if len(counts) == 1:  # one value in every game: a line, not a distribution; told in the caption
                constant.append(f"{words(c.value(axis))} always {fmt_num(next(iter(counts)))}")
                continue
            xs = sorted(counts)
            ci = [wilson(counts[v] / total, total) for v in xs]
            ss.append(ChartSeries(words(c.value(axis)), xs, [counts[v] / total for v in xs],
                                  [a for a, _ in ci], [b for _, b in ci]))  # fmt: skip
        if not ss:
            continue
        name = "all players' points together" if h == "total_points" else "the first seat's points"
        sd = {s.label: _sd(s) for s in ss}
        widest = max(ss, key=lambda s: sd[s.label])
        mode = max(zip(widest.y, widest.x, strict=True))[1]
        title = f"{name[:1].upper()}{name[1:]} in a game ({where}) vary most under {widest.label}"
        if len(ss) > 1:
            least = min(ss, key=lambda s: sd[s.label])
            title += (f" (standard deviation {fmt_num(sd[widest.label])} points) and least under {least.label} "
                      f"({fmt_num(sd[least.label])} points)")  # fmt: skip
        caption = "Shaded: 95% confidence intervals of each value's share."
        if constant:
            caption += " Not drawn, being the same in every game: " + "; ".join(constant) + "."
        if not math.isfinite(mode):
            continue
        charts.append(Chart(f"distribution-{slug(h)}", title, f"{name} (points per game)", "share of games", ss,
                            kind="hist", caption=caption, n=n_of(result, "a line")))  # fmt: skip
    return from_run(result, charts)


def _sd(s: ChartSeries) -> float:
    """The standard deviation of a distribution drawn as shares of games at each value."""
    total = sum(s.y) or 1.0
    mean = sum(x * y for x, y in zip(s.x, s.y, strict=True)) / total
    return math.sqrt(sum(y * (x - mean) ** 2 for x, y in zip(s.x, s.y, strict=True)) / total)
