"""Does cheating pay? The cheater's gain by cheat rate, per challenge rule and challenge policy.

A study of Welsh Whist's false passes (experiments/cheating.toml): it names
the Welsh figures it reads: the cheater's ``points``, ``false_passes``,
``challenges_won`` and ``catch_rate`` (a share of false passes: Wilson's interval).
"""

from __future__ import annotations

import math

import pandas as pd

from ...stats import Estimate
from .. import verdicts as V
from ..reading import axis_values, find_axis, fmt_share, is_num, series, signed
from ..results import Analysis, Chart, ExperimentResult, RatioShare, fmt_num, md_table
from ..spec import CHEAT_PARAMS, Cell, Spec, fmt_value

SCORE = "points"  # per seat: the cheater's gain is its points against honest play on the same deals
SHARES = frozenset({"catch_rate"})  # challenges won over false passes: a share of false passes
RULES = {
    "none": "no challenge rule",
    "parlett": "Parlett's challenge rule",
    "akagiri": "Akagiri 1995's challenge rule",
}
POLICIES = {"never": "never challenge", "always": "always challenge", "0.5": "challenge half the time",
            "smart": "challenge when it pays ('smart')", "-": "play on"}  # fmt: skip


def rule_words(r: str) -> str:
    return RULES.get(r, f"the challenge rule '{r}'")


def policy_words(p: str) -> str:
    return POLICIES.get(p, f"challenge at rate {p}")


def rate_words(r: str) -> str:
    if r == "smart":
        return "only when following would give away a Ten or a Taffy ('smart')"
    if r == "1":
        return "at every chance"
    return f"at rate {r}"


def xlabel(spec: Spec, axis: str) -> str:
    return (
        "cheat rate: share of the cheater's follows passed falsely ('smart': only to keep a Ten or a Taffy)"
    )


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
    table = []
    # Per rule: (policy, verdict "honesty is best", the best rate's cell and gain, the full-time cheater's cell)
    by_rule: dict[str, list[tuple[str, str, Cell, Estimate, Cell]]] = {}
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
        most = max((c for c, _ in gains), key=lambda c: result.estimate(c.index, "false_passes").mean)
        by_rule.setdefault(r, []).append((pol, verdict, best_c, best_e, most))
        caught = RatioShare.of(result.estimate(most.index, "catch_rate"))
        table.append({
            "challenge rule": rule_words(r), "the others": policy_words(pol) if r != "none" else "–",
            "best cheat rate": fmt_value(best_c.value(cheat)) if best_e.mean > 0 else f"{fmt_value(honest)} (honest)",
            "gain at that rate (points per game) [95% CI]":
                f"{fmt_num(best_e.mean)} [{fmt_num(best_e.low)}, {fmt_num(best_e.high)}]",
            "false passes caught at the highest rate (%) [95% CI]":
                f"{100 * caught.mean:.1f} [{100 * caught.low:.1f}, {100 * caught.high:.1f}]"
                if r != "none" and math.isfinite(caught.mean) else "–",
            "honesty best?": {V.HOLDS: "yes", V.FAILS: "no", V.UNDECIDED: "undecided"}[verdict],
        })  # fmt: skip
    n = f"n={result.games:,} games per cell"
    findings: list[str] = []
    none = by_rule.get("none")
    if none:
        pol, verdict, c, e, _ = none[0]
        if verdict == V.FAILS:
            findings.append(
                f"With no challenge rule cheating pays: passing falsely {rate_words(fmt_value(c.value(cheat)))} "
                f"gains the cheater {signed(e, 'points per game')} over playing the same deals honestly."
            )
        else:
            findings.append(
                f"With no challenge rule cheating does not clearly pay: the best cheat rate, "
                f"{fmt_value(c.value(cheat))}, changes the cheater's points by {signed(e, 'points per game')} "
                "against honest play on the same deals."
            )
    for r, items in by_rule.items():
        if r == "none":
            continue
        yes = [(p, c, e) for p, v, c, e, _ in items if v == V.HOLDS]
        no = [(p, c, e) for p, v, c, e, _ in items if v == V.FAILS]
        unsure = [p for p, v, _, _, _ in items if v == V.UNDECIDED]
        if yes:
            # The weakest case for honesty: the policy where the best cheat rate costs least.
            p, c, e = max(yes, key=lambda t: t[2].mean)
            text = (
                f"Under {rule_words(r)} honest play scores best when the others "
                + " or ".join(policy_words(q) for q, _, _ in yes)
                + f": even when they {policy_words(p)}, the least costly cheat rate changes the cheater's points "
                f"by {signed(e, 'points per game')}"
            )
        else:
            text = f"Under {rule_words(r)} honesty is not clearly the best policy against any challenge policy tested"
        if no:
            text += "; cheating pays when they " + " or ".join(policy_words(q) for q, _, _ in no)
        if unsure:
            text += "; undecided at this n when they " + " or ".join(policy_words(q) for q in unsure)
        findings.append(text + ".")
    catches = []
    for r, items in by_rule.items():
        if r == "none":
            continue
        for pol, _, _, _, most in items:
            e = RatioShare.of(result.estimate(most.index, "catch_rate"))
            if math.isfinite(e.mean):
                catches.append((r, pol, most, e))
    if catches:
        r, pol, most, e = max(catches, key=lambda t: t[3].mean)
        findings.append(
            f"Against a cheater who passes falsely {rate_words(fmt_value(most.value(cheat)))}, players who "
            f"{policy_words(pol)} under {rule_words(r)} catch {fmt_share(e)} of his false passes, the most of "
            "any rule and policy tested."
        )
    charts = _charts(result, cheat, rule, policy, pts, by_rule)
    tables = (
        [("The best cheat rate against each challenge policy", md_table(pd.DataFrame(table)))]
        if table
        else []
    )
    return Analysis(findings, charts, tables, [f"Every paired gain is taken on the same deals; {n}."], SHARES)


def _charts(result: ExperimentResult, cheat: str, rule: str | None, policy: str | None, pts: str,
            by_rule: dict) -> list[Chart]:  # fmt: skip
    spec = result.spec
    charts: list[Chart] = []
    # Cheat rates on a numeric axis; a word among them ("smart") is drawn to its right.
    categorical = sum(is_num(v) for v in axis_values(spec, cheat)) < 2
    for r in axis_values(spec, rule) if rule else [None]:
        rv = fmt_value(r) if rule else "-"
        cells = [c for c in spec.cells if rule is None or fmt_value(c.value(rule)) == rv]
        skip = {rule} if rule else set()
        ss = series(result, pts, cheat, paired=True, cells=cells, skip=skip)
        if not ss:
            continue
        for s in ss:
            s.label = _series_label(spec, policy, s.label)
        items = by_rule.get(rv, [])
        yes = [p for p, v, *_ in items if v == V.HOLDS]
        no = [p for p, v, *_ in items if v == V.FAILS]
        if rv == "none" or not policy:
            top = max(((x, y) for s in ss for x, y in zip(s.x, s.y, strict=True)), key=lambda t: t[1])
            verdict_text = (f"cheating pays, most when passing falsely {rate_words(fmt_value(top[0]))} "
                            f"(+{fmt_num(top[1])} points per game)"
                            if top[1] > 0 else "honest play scores best")  # fmt: skip
        else:
            verdict_text = "; ".join(
                t for t in (f"honest play is best when the others {' or '.join(policy_words(p) for p in yes)}" if yes else "",
                            f"cheating pays when they {' or '.join(policy_words(p) for p in no)}" if no else "") if t
            ) or "no clear winner at this n"  # fmt: skip
        title = f"{rule_words(rv)[0].upper()}{rule_words(rv)[1:]}: {verdict_text}"
        charts.append(Chart(f"gain-{rv if rule else 'all'}", title, xlabel(spec, cheat),
                            "cheater's gain over honest play on the same deals (points per game)", ss,
                            zero_line=True, categorical=categorical,
                            caption="Each point is a paired difference on the same deals; error bars: 95% "
                                    f"confidence intervals; n={result.games:,} games per point."))  # fmt: skip
        if rv != "none":
            cs = series(result, "catch_rate", cheat, cells=cells, skip=skip, shares=SHARES)
            if cs:
                for s in cs:
                    s.label = _series_label(spec, policy, s.label)
                hi = max(((s.label, y) for s in cs for y in s.y), key=lambda t: t[1])
                charts.append(Chart(f"caught-{rv}",
                                    f"{rule_words(rv)[0].upper()}{rule_words(rv)[1:]}: up to {100 * hi[1]:.1f}% of "
                                    f"the cheater's false passes are caught ({hi[0]})",
                                    xlabel(spec, cheat), "share of the cheater's false passes caught", cs,
                                    categorical=categorical,
                                    caption="Error bars: 95% confidence intervals (Wilson's, at the effective "
                                            f"number of false passes); n={result.games:,} games per point. "
                                            "No point at rate 0: an honest player makes no false pass."))  # fmt: skip
    return charts


def _series_label(spec: Spec, policy: str | None, label: str) -> str:
    """``every seat's challenge always`` -> ``the others always challenge``."""
    if not policy or label == "all cells":
        return "the others play on"
    prefix = f"{spec.labels.get(policy, '')} "
    for p in POLICIES:
        if label in (f"{prefix}{p}".strip(), p) or label.endswith(f" {p}"):
            return f"the others {policy_words(p)}"
    return label
