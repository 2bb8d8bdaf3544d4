"""Where the Taffy's rank acts (experiments/taffy_rank.toml): tricks in which a Taffy and a Ten meet,
who takes them at 10 1/2 (Parlett) and at 10 (Akagiri 1995), and what the rank does to the points.

A study of Welsh Whist: it names the Welsh figures it reads: ``taffy_ten`` (tricks where a Taffy
and a Ten met), ``taffy_ten_taffy`` / ``taffy_ten_ten`` (won by a Taffy / a Ten) and their shares,
``taffy_ten_any``, and the points figures ``rel_spread``, ``margin``, ``pos_edge[0]``. The verdicts
on points rest on Holm's correction over every (figure, table) paired comparison.
"""

from __future__ import annotations

import math

import pandas as pd

from ...core.stats import Estimate, Share, holm, p_two_sided
from ..charts import from_run
from ..results import Analysis, Chart, ChartSeries, ExperimentResult, RatioShare, fmt_num, md_table
from ..spec import Cell, fmt_value
from ..tools import find_axis, group_label
from ._tools import est, fmt_p, pct

RANK = "rules.taffy_rank"
POINTS = {  # the points figures compared deal by deal, in words
    "rel_spread": "the spread of points (as a share of a player's fair share)",
    "margin": "the winning margin",
    "pos_edge[0]": "the first player's edge",
}
TRICK_WORTH = 20  # a trick holding a Ten and a Taffy is worth at least 20 points
SHARES = frozenset({"taffy_ten_taffy_share", "taffy_ten_ten_share"})  # ratios that are shares: Wilson


def rank_name(v) -> str:
    return "10 1/2" if float(v) == 10.5 else fmt_value(v)


def analyse(result: ExperimentResult) -> Analysis:
    """Meetings of a Taffy and a Ten: how often, who wins them under each rank, and what moves in the points."""
    spec = result.spec
    if RANK not in spec.baseline:
        return Analysis(["(the taffy_rank analysis needs rules.taffy_rank swept with a baseline)"], [], [])
    x = find_axis(spec, lambda a: a == "rules.players")
    high = spec.baseline[RANK][0]
    up = [c for c in spec.cells if fmt_value(c.value(RANK)) == fmt_value(high)]
    level = [c for c in spec.cells if fmt_value(c.value(RANK)) != fmt_value(high)]
    if not up or not level:
        return Analysis(["(the taffy_rank analysis needs a second Taffy rank)"], [], [])
    eq = level[0].value(RANK)

    def where(c: Cell) -> str:
        return f"{fmt_value(c.value(x))} players" if x else group_label(spec, c, {RANK})

    mid_up = up[len(up) // 2]
    mid_eq = _partner(spec, mid_up, eq)

    met = {c.index: result.estimate(c.index, "taffy_ten") for c in spec.cells}
    any_ = {c.index: Share.of(result.estimate(c.index, "taffy_ten_any")) for c in spec.cells}
    t_sh = {c.index: RatioShare.of(result.estimate(c.index, "taffy_ten_taffy_share")) for c in spec.cells}
    n_sh = {c.index: RatioShare.of(result.estimate(c.index, "taffy_ten_ten_share")) for c in spec.cells}
    ten_wins = {c.index: result.estimate(c.index, "taffy_ten_ten") for c in spec.cells}

    findings: list[str] = []
    lo, hi = min(up, key=lambda c: met[c.index].mean), max(up, key=lambda c: met[c.index].mean)
    findings.append(
        f"At 10 1/2 a Taffy and a Ten meet in {est(met[mid_up.index], 'tricks per game')} with {where(mid_up)} "
        f"(from {fmt_num(met[lo.index].mean)} with {where(lo)} to {fmt_num(met[hi.index].mean)} with {where(hi)}); "
        f"they meet at least once in {pct(any_[mid_up.index])}."
    )
    if mid_eq is not None:
        findings.append(
            f"Equal to a Ten ({rank_name(eq)}), the Ten takes {_pct_ratio(n_sh[mid_eq.index])} of the tricks where the two "
            f"meet with {where(mid_eq)}, and the Taffy {_pct_ratio(t_sh[mid_eq.index])}; at 10 1/2 the Taffy takes "
            f"{_pct_ratio(t_sh[mid_up.index])} and the Ten {_pct_ratio(n_sh[mid_up.index])} (a Jack or better takes "
            "the rest)."
        )
        w = ten_wins[mid_eq.index]
        ppp = result.estimate(mid_eq.index, "points_per_player").mean
        findings.append(
            f"So under Akagiri 1995's rank a Ten takes a Taffy in {est(w, 'tricks per game')} with {where(mid_eq)}; "
            f"each such trick is worth at least {TRICK_WORTH} points, so at least {fmt_num(TRICK_WORTH * w.mean)} points "
            f"per game ({fmt_num(100 * TRICK_WORTH * w.mean / ppp)}% of a player's {fmt_num(ppp)}) are won with a Ten "
            f"against a Taffy, against {fmt_num(ten_wins[mid_up.index].mean)} such tricks per game at 10 1/2 with "
            f"{where(mid_up)}."
        )
    rows = []
    for c in level:
        for f, words in POINTS.items():
            d = result.difference(c.index, f, RANK, high)
            if d is None or d[0].n < 2:
                continue
            base = result.estimate(d[1].index, "points_per_player" if f.startswith("pos_edge") else f).mean
            rows.append({"cell": c, "figure": f, "words": words, "d": d[0], "p": p_two_sided(d[0]),
                         "level": base})  # fmt: skip
    if rows:
        for r, a in zip(rows, holm([r["p"] for r in rows]), strict=True):
            r["holm"] = a
        sig = [r for r in rows if r["holm"] < 0.05]
        big = max(rows, key=lambda r: abs(r["d"].mean) / abs(r["level"]) if r["level"] else 0.0)
        rel = abs(big["d"].mean) / abs(big["level"]) if big["level"] else math.nan
        findings.append(
            f"What that does to the points, paired on the same deals: {len(sig)} of {len(rows)} changes in the spread, "
            f"the margin and the first player's edge are told apart from 0 (each adjusted for the {len(rows)} "
            f"comparisons with 10 1/2 on the same deals); the largest "
            f"relative change is {big['words']} with {where(big['cell'])}, "
            f"{est(big['d'], '+' + _unit(big['figure']), 'paired deals')}, {fmt_num(100 * rel)}% of "
            f"{'a fair share' if big['figure'].startswith('pos_edge') else 'its level'}."
        )
        d_met = result.difference(mid_eq.index, "taffy_ten", RANK, high) if mid_eq is not None else None
        if d_met is not None:
            findings.append(
                f"The rank also changes how often the two meet: "
                f"{est(d_met[0], '+tricks per game', 'paired deals')} with {where(mid_eq)} at {rank_name(eq)} "
                f"against 10 1/2."
            )

    charts = []
    groups = [("the Taffy wins, 10 1/2", up, t_sh), (f"the Taffy wins, {rank_name(eq)}", level, t_sh),
              (f"the Ten wins, {rank_name(eq)}", level, n_sh)]  # fmt: skip
    if x is not None:
        charts.append(Chart(
            "who-takes-it",
            f"Where a Taffy meets a Ten: at 10 1/2 the Taffy takes {100 * t_sh[mid_up.index].mean:.1f}% of "
            f"those tricks; equal to a Ten, the Ten takes {100 * n_sh[mid_eq.index].mean if mid_eq else math.nan:.1f}% "
            f"({where(mid_up)}; a Jack or better takes the rest)",
            "number of players", "tricks where a Taffy and a Ten met: % won (95% CI)",
            [_series(lbl, cs, sh, x, 100.0) for lbl, cs, sh in groups],
            caption="Of the tricks in which a Taffy and a Ten met, the share each won; error bars: 95% CIs "
                    "(at the effective number of tricks). At 10 1/2 a Ten never wins one.",
        ))  # fmt: skip
        charts.append(Chart(
            "meetings",
            f"At 10 1/2 a Taffy and a Ten meet most often with {where(hi)} ({fmt_num(met[hi.index].mean)} tricks "
            f"per game) and least with {where(lo)} ({fmt_num(met[lo.index].mean)})",
            "number of players", "tricks where a Taffy and a Ten met: tricks per game (95% CI)",
            [_series(f"Taffy {rank_name(v)}", cs, met, x, 1.0) for v, cs in ((high, up), (eq, level))],
            caption="Tricks holding at least one Taffy and one Ten, per game; error bars: 95% CIs.",
        ))  # fmt: skip
        if rows:
            series = []
            for f, words in POINTS.items():
                mine = [r for r in rows if r["figure"] == f and r["level"]]
                if not mine:
                    continue
                k = [100 / abs(r["level"]) for r in mine]
                series.append(ChartSeries(
                    words.split(" (")[0], [r["cell"].value(x) for r in mine],
                    [q * r["d"].mean for q, r in zip(k, mine, strict=True)],
                    [q * r["d"].low for q, r in zip(k, mine, strict=True)],
                    [q * r["d"].high for q, r in zip(k, mine, strict=True)],
                ))  # fmt: skip
            top = max(abs(y) for s in series for y in s.y)
            charts.append(Chart(
                "points",
                f"The Taffy's rank moves the spread of points, the margin and the first player's edge by at most "
                f"{top:.1f}% (edge: of a fair share of the points)",
                "number of players", f"change at {rank_name(eq)} against 10 1/2: % of the level at 10 1/2 (95% CI)",
                series, zero_line=True,
                caption="Each point: the change at the Taffy's lower rank, game by game on the same deals, over the "
                        "figure's level at 10 1/2 (the first player's edge: over a fair share of the points); error "
                        "bars: 95% CIs.",
            ))  # fmt: skip
    table = pd.DataFrame([
        {"Taffy rank": rank_name(c.value(RANK)), "table": where(c),
         "meetings per game": f"{fmt_num(met[c.index].mean)} [{fmt_num(met[c.index].low)}, {fmt_num(met[c.index].high)}]",
         "won by the Taffy": _bracket(t_sh[c.index]), "won by the Ten": _bracket(n_sh[c.index]),
         "games with a meeting": f"{100 * any_[c.index].mean:.1f}%", "n": met[c.index].n}
        for c in spec.cells
    ])  # fmt: skip
    tables = [("Meetings of a Taffy and a Ten (95% CIs)", md_table(table))]
    if rows:
        tables.append(("Paired changes in the points, against 10 1/2 on the same deals (95% intervals, not "
                       "adjusted for the several comparisons)", md_table(pd.DataFrame([
            {"table": where(r["cell"]), "figure": r["words"], "change": f"{fmt_num(r['d'].mean)} [{fmt_num(r['d'].low)}, "
             f"{fmt_num(r['d'].high)}]", "level at 10 1/2": fmt_num(r["level"]),
             f"chance by luck alone, adjusted for the {len(rows)} comparisons": fmt_p(r["holm"]), "n": r["d"].n}
            for r in rows
        ]))))  # fmt: skip
    return Analysis(findings[:6], from_run(result, charts), tables, shares=SHARES)


def _partner(spec, c: Cell, value) -> Cell | None:
    for o in spec.cells:
        if fmt_value(o.value(RANK)) == fmt_value(value) and all(
            fmt_value(v) == fmt_value(o.value(a)) for a, v in c.coords if a != RANK
        ):
            return o
    return None


def _pct_ratio(e: Estimate) -> str:
    low, high = max(0.0, e.low), min(1.0, e.high)
    return f"{100 * e.mean:.1f}% (95% CI {100 * low:.1f}–{100 * high:.1f}%, n={e.n:,} games)"


def _bracket(e: Estimate) -> str:
    if not math.isfinite(e.mean):
        return "–"
    return f"{100 * e.mean:.1f}% [{100 * max(0.0, e.low):.1f}, {100 * min(1.0, e.high):.1f}]"


def _unit(figure: str) -> str:
    return "share of points per player" if figure == "rel_spread" else "points per game"


def _series(label: str, cells: list[Cell], values: dict, x: str, scale: float) -> ChartSeries:
    s = ChartSeries(label, [], [], [], [])
    for c in cells:
        e = values[c.index]
        s.x.append(c.value(x))
        s.y.append(scale * e.mean)
        s.low.append(scale * max(0.0, e.low) if scale == 100.0 else scale * e.low)
        s.high.append(scale * min(1.0, e.high) if scale == 100.0 else scale * e.high)
    return s
