"""Does cheating pay? The cheater's gain by cheat rate, per challenge rule and challenge policy.

A study of Welsh Whist's false passes (experiments/cheating.toml): it names
the Welsh figures it reads: the cheater's ``points``, ``false_passes``,
``challenges_won`` and ``catch_rate``.
"""

from __future__ import annotations

import math

import pandas as pd

from .. import verdicts as V
from ..reading import axis_values, find_axis, is_num, points, series, signed
from ..results import Analysis, Chart, ExperimentResult, fmt_est, fmt_num, md_table
from ..spec import CHEAT_PARAMS, Cell, Spec, fmt_value

SCORE = "points"  # per seat: the cheater's gain is its points against honest play on the same deals


def xlabel(spec: Spec, axis: str) -> str:
    return f"{spec.label(axis)}: share of follows passed falsely"


def analyse(result: ExperimentResult) -> Analysis:
    """The cheater's gain by cheat rate, per challenge rule and challenge policy."""
    spec = result.spec
    cheat = find_axis(spec, lambda a: a.startswith("seats.") and a.split(".")[-1] in CHEAT_PARAMS)
    rule = find_axis(spec, lambda a: a == "rules.challenge")
    policy = find_axis(spec, lambda a: a.startswith("seats.") and a.endswith(".challenge"))
    if cheat is None or cheat not in spec.baseline:
        return Analysis(["(the cheating analysis needs a swept cheat rate with a baseline)"], [], [])
    seat = (
        int(cheat.split(".")[1]) if (cheat.split(".")[1].isascii() and cheat.split(".")[1].isdigit()) else 0
    )
    pts = f"{SCORE}[{seat}]"
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
        caught = result.estimate(most.index, "challenges_won")
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
    categorical = not all(is_num(v) for v in axis_values(spec, cheat))
    for r in axis_values(spec, rule) if rule else [None]:
        cells = [c for c in spec.cells if rule is None or fmt_value(c.value(rule)) == fmt_value(r)]
        ss = series(result, pts, cheat, paired=True, cells=cells, skip={rule} if rule else set())
        if not ss:
            continue
        top = max(points(ss), key=lambda t: t[2])
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
        charts.append(Chart(f"gain-{fmt_value(r) if rule else 'all'}", title, xlabel(spec, cheat),
                            "cheater's gain over honest play: points per game (95% CI)", ss,
                            zero_line=True, categorical=categorical))  # fmt: skip
        if fmt_value(r) != "none":
            cs = series(result, "catch_rate", cheat, cells=cells, skip={rule} if rule else set())
            if cs:
                hi = max(((s.label, y) for s in cs for y in s.y), key=lambda t: t[1])
                charts.append(Chart(f"caught-{fmt_value(r)}",
                                    f"challenge={fmt_value(r)}: up to {fmt_num(100 * hi[1])}% of false passes are caught ({hi[0]})",
                                    xlabel(spec, cheat), "revokes caught per false pass (95% CI)", cs,
                                    categorical=categorical))  # fmt: skip
    tables = (
        [("The best cheat rate against each challenge policy", md_table(pd.DataFrame(table)))]
        if table
        else []
    )
    return Analysis(findings, charts, tables)
