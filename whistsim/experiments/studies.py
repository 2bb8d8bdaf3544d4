"""Findings and charts: a generic reading of any experiment, and the studies' own.

Each analysis reads a finished :class:`ExperimentResult` and returns sentences
(every figure with its 95% CI and n), charts described as data, and extra
tables. ``analysis = "NAME"`` in a spec picks one; the generic reading is
always added after it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ..stats import Estimate
from . import verdicts as V
from .figures import RATIOS, figure_unit
from .report import Analysis, Chart, ChartSeries, ExperimentResult, fmt_est, fmt_num, md_table
from .spec import CHEAT_PARAMS, Cell, Spec, fmt_value

MAX_SERIES = 10
LITTLE = 0.05  # "little advantage": under 5% of a player's fair share of the points


def signed(e: Estimate, unit: str = "") -> str:
    s = fmt_est(e, unit)
    return ("+" + s) if e.mean > 0 else s


def _axis_values(spec: Spec, axis: str) -> list[Any]:
    out: list[Any] = []
    for c in spec.cells:
        v = c.value(axis)
        if v is not None and all(fmt_value(v) != fmt_value(x) for x in out):
            out.append(v)
    return out


def _is_num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def main_axis(spec: Spec) -> str | None:
    """The x axis of charts: the numeric axis with the most values, else the first axis with several."""
    multi = [a for a in spec.axes if len(_axis_values(spec, a)) > 1]
    numeric = [a for a in multi if all(_is_num(v) for v in _axis_values(spec, a))]
    if numeric:
        return max(numeric, key=lambda a: len(_axis_values(spec, a)))
    return multi[0] if multi else None


def _group_label(spec: Spec, cell: Cell, skip: set[str]) -> str:
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
            e = result.estimate(c.index, figure)
        if not math.isfinite(e.mean):
            continue
        key = _group_label(spec, c, skip)
        s = groups.setdefault(key, ChartSeries(key, [], [], [], []))
        s.x.append(x)
        s.y.append(e.mean)
        s.low.append(e.low if e.n >= 2 else e.mean)
        s.high.append(e.high if e.n >= 2 else e.mean)
    return list(groups.values())[:MAX_SERIES]


# ---- the generic reading -------------------------------------------------------


def generic(result: ExperimentResult) -> Analysis:
    spec = result.spec
    findings: list[str] = []
    charts: list[Chart] = []
    for f in spec.headline:
        unit = figure_unit(f)
        ests = [(c, result.estimate(c.index, f)) for c in spec.cells]
        ests = [(c, e) for c, e in ests if math.isfinite(e.mean)]
        if not ests:
            continue
        if len(ests) == 1:
            findings.append(f"`{f}`: {fmt_est(ests[0][1], unit)}.")
            continue
        hi = max(ests, key=lambda ce: ce[1].mean)
        lo = min(ests, key=lambda ce: ce[1].mean)
        findings.append(
            f"`{f}` is highest for {spec.cell_label(hi[0])}: {fmt_est(hi[1], unit)}; "
            f"lowest for {spec.cell_label(lo[0])}: {fmt_est(lo[1], unit)}."
        )
    for f in [h for h in spec.headline if h not in RATIOS]:
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
                f"{signed(e, figure_unit(f))} against {spec.cell_label(spec.cells[p.base])}."
            )
        findings.append(
            f"{len(sig)} of {len(diffs)} paired differences in `{f}` have 95% CIs that exclude 0."
        )
    x = main_axis(spec)
    if x is not None:
        for f in spec.headline:
            ss = series(result, f, x)
            if not ss:
                continue
            best = max(_points(ss), key=lambda t: t[2])
            where = f"{spec.label(x)}={fmt_value(best[1])}" + (f" ({best[0]})" if len(ss) > 1 else "")
            charts.append(Chart(
                f"{_slug(f)}-by-{_slug(spec.label(x))}",
                f"{f} by {spec.label(x)}: highest at {where}, {fmt_num(best[2])} {figure_unit(f)}",
                _xlabel(spec, x), f"{f}: {figure_unit(f)} (95% CI)", ss,
                categorical=not all(_is_num(v) for v in _axis_values(spec, x)),
            ))  # fmt: skip
        if spec.pairs:
            b = next(iter(spec.baseline))
            base = spec.baseline[b][0]
            for f in [h for h in spec.headline if h not in RATIOS][:2]:
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
                    f"paired-{_slug(f)}-by-{_slug(spec.label(x))}",
                    f"{f} against {spec.label(b)}={fmt_value(base)} on the same deals: largest change "
                    f"{'+' if big[1].mean > 0 else ''}{fmt_num(big[1].mean)} ({spec.cell_label(spec.cells[big[0].cell])}); "
                    f"{sig} of {len(ests)} changes exclude 0",
                    _xlabel(spec, x), f"difference in {f}: {figure_unit(f)} (95% CI)", ss, zero_line=True,
                    categorical=not all(_is_num(v) for v in _axis_values(spec, x)),
                ))  # fmt: skip
    return Analysis(findings, charts, [])


def _points(ss: list[ChartSeries]) -> list[tuple[str, Any, float]]:
    """(series label, x, y) of every point of some series."""
    return [(s.label, x, y) for s in ss for x, y in zip(s.x, s.y, strict=True)]


def _slug(s: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in s).strip("-").replace("--", "-")


def _xlabel(spec: Spec, axis: str) -> str:
    units = {"rules.players": "players", "rules.taffy_rank": "Taffy rank (10.5: above a Ten; 10: equal)"}
    if axis in units:
        return units[axis]
    if axis.split(".")[-1] in CHEAT_PARAMS:
        return f"{spec.label(axis)}: share of follows passed falsely"
    return spec.label(axis)


# ---- cheating ----------------------------------------------------------------------


def _find_axis(spec: Spec, pred: Callable[[str], bool]) -> str | None:
    return next((a for a in spec.axes if pred(a)), None)


def cheating(result: ExperimentResult) -> Analysis:
    """The cheater's gain by cheat rate, per challenge rule and challenge policy."""
    spec = result.spec
    cheat = _find_axis(spec, lambda a: a.startswith("seats.") and a.split(".")[-1] in CHEAT_PARAMS)
    rule = _find_axis(spec, lambda a: a == "rules.challenge")
    policy = _find_axis(spec, lambda a: a.startswith("seats.") and a.endswith(".challenge"))
    if cheat is None or cheat not in spec.baseline:
        return Analysis(["(the cheating analysis needs a swept cheat rate with a baseline)"], [], [])
    seat = int(cheat.split(".")[1]) if cheat.split(".")[1].isdigit() else 0
    pts = f"points[{seat}]"
    honest = spec.baseline[cheat][0]
    groups: dict[tuple[str, str], list[Cell]] = {}
    for c in spec.cells:
        key = (fmt_value(c.value(rule)) if rule else "-", fmt_value(c.value(policy)) if policy else "-")
        groups.setdefault(key, []).append(c)
    findings: list[str] = []
    table = []
    honesty_by_rule: dict[str, list[tuple[str, str]]] = {}
    for (r, pol), cells in groups.items():
        gains = []
        for c in cells:
            if fmt_value(c.value(cheat)) == fmt_value(honest):
                continue
            d = result.difference(c.index, pts, cheat)
            if d is not None:
                gains.append((c, d[0]))
        if not gains:
            continue
        best_c, best_e = max(gains, key=lambda ce: ce[1].mean)
        verdict = V.combine([V.not_positive(e) for _, e in gains])
        honesty_by_rule.setdefault(r, []).append((pol, verdict))
        where = f"challenge={r}" + (
            f", {spec.label(policy)}={pol}" if policy and r != "none" and pol != "-" else ""
        )
        best_rate = fmt_value(best_c.value(cheat))
        if verdict == V.UNDECIDED:
            text = (
                f"{where}: the best cheat rate, {best_rate}, changes the cheater's points by "
                f"{signed(best_e, 'points per game')}: not clearly different from honest play at this n"
            )
        elif best_e.mean <= 0:
            text = (
                f"{where}: every cheat rate tested scores less than honest play (the least costly, "
                f"rate {best_rate}, changes the cheater's points by {signed(best_e, 'points per game')})"
            )
        else:
            text = f"{where}: the best cheat rate is {best_rate}, gaining {signed(best_e, 'points per game')} over honest play on the same deals"
        most = max((c for c, _ in gains), key=lambda c: result.estimate(c.index, "false_passes").mean)
        caught = result.estimate(most.index, "caught")
        rate = result.estimate(most.index, "catch_rate")
        extra = ""
        if r != "none" and caught.n and math.isfinite(rate.mean):
            extra = (
                f"; cheating at rate {fmt_value(most.value(cheat))} is caught {fmt_est(caught, 'times per game')}, "
                f"{fmt_num(100 * rate.mean)}% of its false passes"
            )
        findings.append(text + extra + ".")
        table.append({
            "challenge": r, "policy": pol, "best cheat rate": best_rate if best_e.mean > 0 else fmt_value(honest),
            "gain at best rate": f"{fmt_num(best_e.mean)} [{fmt_num(best_e.low)}, {fmt_num(best_e.high)}]",
            "honesty best?": {V.HOLDS: "yes", V.FAILS: "no", V.UNDECIDED: "undecided"}[verdict],
        })  # fmt: skip
    head = []
    none = honesty_by_rule.get("none")
    if none:
        head.append(
            "Without a challenge rule cheating "
            + ("pays" if none[0][1] == V.FAILS else "does not clearly pay")
            + "."
        )
    for r, items in honesty_by_rule.items():
        if r == "none":
            continue
        yes = [p for p, v in items if v == V.HOLDS]
        no = [p for p, v in items if v == V.FAILS]
        unsure = [p for p, v in items if v == V.UNDECIDED]
        if yes:
            text = f"Under challenge={r}, honesty is the best policy when the others challenge with: {', '.join(yes)}"
        else:
            text = f"Under challenge={r}, honesty is not clearly the best policy against any challenge policy tested"
        if no:
            text += f"; cheating pays against: {', '.join(no)}"
        if unsure:
            text += f"; undecided at this n against: {', '.join(unsure)}"
        head.append(text + ".")
    findings = head + findings
    charts: list[Chart] = []
    categorical = not all(_is_num(v) for v in _axis_values(spec, cheat))
    for r in _axis_values(spec, rule) if rule else [None]:
        cells = [c for c in spec.cells if rule is None or fmt_value(c.value(rule)) == fmt_value(r)]
        ss = series(result, pts, cheat, paired=True, cells=cells, skip={rule} if rule else set())
        if not ss:
            continue
        top = max(_points(ss), key=lambda t: t[2])
        items = honesty_by_rule.get(fmt_value(r) if rule else "-", [])
        yes = [p for p, v in items if v == V.HOLDS]
        no = [p for p, v in items if v == V.FAILS]
        if fmt_value(r) == "none" or not policy:
            verdict_text = (f"cheating pays, most at rate {fmt_value(top[1])} (+{fmt_num(top[2])} points per game)"
                            if top[2] > 0 else "honest play scores best")  # fmt: skip
        else:
            verdict_text = "; ".join(
                t for t in (f"honesty is best against {', '.join(yes)} challengers" if yes else "",
                            f"cheating pays against {', '.join(no)}" if no else "") if t
            ) or "no clear winner at this n"  # fmt: skip
        title = (f"challenge={fmt_value(r)}: " if rule else "") + verdict_text
        for s in ss:
            s.label = s.label.replace("all cells", "others honest") if s.label else s.label
        charts.append(Chart(f"gain-{fmt_value(r) if rule else 'all'}", title, _xlabel(spec, cheat),
                            "cheater's gain over honest play: points per game (95% CI)", ss,
                            zero_line=True, categorical=categorical))  # fmt: skip
        if fmt_value(r) != "none":
            cs = series(result, "catch_rate", cheat, cells=cells, skip={rule} if rule else set())
            if cs:
                hi = max(((s.label, y) for s in cs for y in s.y), key=lambda t: t[1])
                charts.append(Chart(f"caught-{fmt_value(r)}",
                                    f"challenge={fmt_value(r)}: up to {fmt_num(100 * hi[1])}% of false passes are caught ({hi[0]})",
                                    _xlabel(spec, cheat), "revokes caught per false pass (95% CI)", cs,
                                    categorical=categorical))  # fmt: skip
    import pandas as pd

    tables = (
        [("The best cheat rate against each challenge policy", md_table(pd.DataFrame(table)))]
        if table
        else []
    )
    return Analysis(findings, charts, tables)


# ---- scoring (five_penalty) -------------------------------------------------------------


def scoring(result: ExperimentResult) -> Analysis:
    """Totals, spread and who wins under each scoring rule."""
    spec = result.spec
    axis = "rules.scoring"
    if axis not in spec.axes:
        return Analysis(["(the scoring analysis needs a sweep over rules.scoring)"], [], [])
    findings: list[str] = []
    charts: list[Chart] = []
    others = [a for a in spec.axes if a != axis]
    base = spec.baseline.get(axis, ["standard"])[0]
    for sv in _axis_values(spec, axis):
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
                f"({_group_label(spec, lo[0], {axis})}) to {fmt_est(hi[1], 'points')} ({_group_label(spec, hi[0], {axis})}){rng}."
            )
    what = {
        "rel_spread": "the spread of players' points (sd within a game over a fair share)",
        "rel_margin": "the winning margin over a fair share",
        "most_cards_wins": "the share of games won by a player with the most cards",
        "most_tt_wins": "the share of games won by a player with the most Tens and Taffies",
    }
    for sv in _axis_values(spec, axis):
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
            span = (f"{signed(lo[1])} ({_group_label(spec, lo[0], {axis})}) to {signed(hi[1])} "
                    f"({_group_label(spec, hi[0], {axis})})") if len(diffs) > 1 else signed(lo[1])  # fmt: skip
            findings.append(
                f"{fmt_value(sv)} against {fmt_value(base)} on the same deals changes {words} by {span}; "
                f"{sig} of {len(diffs)} paired 95% CIs exclude 0."
            )
    first = [
        c
        for c in spec.cells
        if all(fmt_value(c.value(a)) == fmt_value(_axis_values(spec, a)[0]) for a in others)
    ]
    if first:
        tag = _group_label(spec, first[0], {axis})
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
        top = max(_points(ss), key=lambda t: t[2])
        charts.append(Chart(f"{_slug(f)}-by-scoring", f"{f}: highest under {top[0]} at {spec.label(x)}={fmt_value(top[1])} ({fmt_num(top[2])})",
                            _xlabel(spec, x), f"{ylabel} (95% CI)", ss, kind="lines" if x != axis else "bars",
                            categorical=x == axis))  # fmt: skip
    for h in spec.histograms:
        first_other = {a: _axis_values(spec, a)[0] for a in others}
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
            charts.append(Chart(f"distribution-{_slug(h)}", f"Distribution of {h} ({where}): widest under {widest.label}",
                                figure_unit(h), f"share of games (n={result.games:,} per scoring)", ss, kind="hist"))  # fmt: skip
    return Analysis(findings, charts, [])


# ---- player count -------------------------------------------------------------------------


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


# (figure or "seat_gap", what it measures, lower is better)
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


def player_count(result: ExperimentResult) -> Analysis:
    spec = result.spec
    if "rules.players" not in spec.axes:
        return Analysis(["(the player_count analysis needs a sweep over rules.players)"], [], [])
    preset_axis = "rules.preset" if "rules.preset" in spec.axes else None
    presets = _axis_values(spec, preset_axis) if preset_axis else [None]
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
        lowest = min(_points(ss), key=lambda t: t[2])
        highest = max(_points(ss), key=lambda t: t[2])
        charts.append(Chart(f"{_slug(f)}-by-players",
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
    fairest = min(_points(gap_series), key=lambda t: t[2])
    charts.append(Chart("seat-gap-by-players", f"Seat advantage is smallest with {fairest[1]} players ({fairest[0]})",
                        "players", "largest turn-order edge / fair share (95% CI)", gap_series))  # fmt: skip
    import pandas as pd

    return Analysis(
        findings, charts, [('"Three players is best": measure by measure', md_table(pd.DataFrame(rows)))]
    )


# ---- seat advantage ---------------------------------------------------------------------


def seat_advantage(result: ExperimentResult) -> Analysis:
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
    group_values = _axis_values(spec, others[0]) if others else [None]
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
        top = max(_points(ss), key=lambda t: t[2])
        tag = f"{spec.label(others[0])}={fmt_value(gv)}: " if others else ""
        charts.append(Chart(f"position-edge{'-' + _slug(fmt_value(gv)) if others else ''}",
                            f"{tag}the best turn position is {top[1]} with {top[0]} (+{fmt_num(top[2])} points per game)",
                            "turn position (1 = moves first)", "points per game above the table average (95% CI)",
                            ss[:MAX_SERIES], zero_line=True))  # fmt: skip
    return Analysis(findings, charts, [])


# ---- leading (Akagiri 1995) -----------------------------------------------------------------


def leading(result: ExperimentResult) -> Analysis:
    """Akagiri 1995's two views: leading high while the stock lasts catches Tens and jokers; little advantage in leading.

    The leading player is the swept seat's first value (the hunter); every baseline value is compared
    with it on the same deals; "little advantage" compares it with the first baseline (the non-leader).
    """
    spec = result.spec
    axis = _find_axis(spec, lambda a: a.startswith("seats.") and len(a.split(".")) == 2)
    if axis is None or axis not in spec.baseline:
        return Analysis(["(the leading analysis needs a swept seat player with a baseline)"], [], [])
    seat = int(axis.split(".")[1]) if axis.split(".")[1].isdigit() else 0
    leader = _axis_values(spec, axis)[0]
    findings: list[str] = []
    head: list[str] = []
    for c in spec.cells:
        if fmt_value(c.value(axis)) != fmt_value(leader):
            continue
        rest = _group_label(spec, c, {axis})
        catches, little = [], None
        parts = []
        for b in spec.baseline[axis]:
            tt = result.difference(c.index, f"tt[{seat}]", axis, b)
            pts = result.difference(c.index, f"points[{seat}]", axis, b)
            if tt is None or pts is None:
                continue
            catches.append(V.positive(tt[0]))
            parts.append(
                f"against {b}: {signed(tt[0], 'Tens and Taffies')} and {signed(pts[0], 'points per game')}"
            )
            if little is None:
                fair = result.estimate(c.index, "points_per_player").mean
                margin = LITTLE * fair
                little = (V.at_most(pts[0], margin), pts[0], margin, b)
        if not parts:
            continue
        findings.append(
            f"{rest}: seat {seat} as {leader}, paired on the same deals, " + "; ".join(parts) + "."
        )
        head.append(
            f'{rest}: "leading high while the stock lasts catches Tens and jokers" {V.combine(catches)} '
            f"(the {leader} against {', '.join(map(str, spec.baseline[axis]))})."
        )
        if little is not None:
            v, e, margin, b = little
            head.append(
                f'{rest}: "little advantage in leading" {v}: leading high changes seat {seat}\'s points by '
                f"{signed(e, 'points per game')} against the {b} (little: under {fmt_num(margin)}, 5% of a fair share)."
            )
    return Analysis(head + findings, [], [])


# ---- a rule variant against the baseline rule ------------------------------------------


def variant(result: ExperimentResult) -> Analysis:
    """How much a rule variant moves each headline figure, relative to the figure's level under the baseline."""
    spec = result.spec
    if not spec.pairs:
        return Analysis(["(the variant analysis needs a baseline)"], [], [])
    findings: list[str] = []
    worst = 0.0
    for f in [h for h in spec.headline if h not in RATIOS]:
        rows = []
        for j, p in enumerate(spec.pairs):
            e = result.tally.paired[j].estimate(f)
            # An edge is near 0 by design: measure it against a fair share of the points instead.
            level = result.estimate(p.base, "points_per_player" if "edge" in f else f).mean
            rel = abs(e.mean) / abs(level) if level else math.inf
            rows.append((p, e, rel))
        if not rows:
            continue
        p, e, rel = max(rows, key=lambda t: abs(t[1].mean))
        sig = sum(V.positive(x) != V.UNDECIDED for _, x, _ in rows)
        worst = max(worst, rel if math.isfinite(rel) else 0.0)
        findings.append(
            f"`{f}`: the largest paired change is {signed(e, figure_unit(f))} "
            f"({fmt_num(100 * rel)}% of {'a fair share' if 'edge' in f else 'its level'}) "
            f"for {spec.cell_label(spec.cells[p.cell])}; "
            f"{sig} of {len(rows)} changes have 95% CIs that exclude 0."
        )
    b = next(iter(spec.baseline))
    findings.insert(0, f"Against {spec.label(b)}={fmt_value(spec.baseline[b][0])} on the same deals, no headline figure "
                       f"moves by more than {fmt_num(100 * worst)}% of its level (edges: of a fair share of the points).")  # fmt: skip
    return Analysis(findings, [], [])


ANALYSES: dict[str, Callable[[ExperimentResult], Analysis]] = {
    "variant": variant,
    "cheating": cheating,
    "scoring": scoring,
    "player_count": player_count,
    "seat_advantage": seat_advantage,
    "leading": leading,
}


def analyse(result: ExperimentResult) -> Analysis:
    """The spec's own analysis (if any) first, then the generic reading; its own charts, else the generic ones."""
    g = generic(result)
    name = result.spec.analysis
    if name is None:
        return g
    own = ANALYSES[name](result)
    return Analysis(own.findings + g.findings, own.charts or g.charts, own.tables)
