"""What decisions while the stock lasts are worth (experiments/draw_phase.toml, draw_phase_pimc.toml).

A study of Welsh Whist: one seat's player is swept (its decisions while the stock lasts), the
others fixed, on the same deals; it names the Welsh figures it reads, the seat's ``points``,
``tt`` (Tens and Taffies won) and ``win``. Each policy is compared with the baseline (drawing
throughout) deal by deal; the verdicts on points rest on Holm's correction over every
(policy, table) comparison.
"""

from __future__ import annotations

import pandas as pd

from ...core.stats import Estimate, holm, p_two_sided
from ...core.strategy import parse_spec
from ..charts import from_run
from ..results import Analysis, Chart, ChartSeries, ExperimentResult, fmt_num, md_table
from ..spec import Cell, fmt_value
from ..tools import find_axis, group_label
from ._tools import est, fmt_p

ALPHA = 0.05


def policy_name(text: str) -> str:
    """A player spec in words: what the seat does while the stock lasts."""
    s = parse_spec(text)
    lead = str(s.params.get("lead", "never"))
    if s.name == "hoarder":
        return {
            "never": "drawing throughout",
            "sure": "leading only sure winners",
            "aces_kings": "leading Aces and Kings",
            "high": f"leading high cards (rank {fmt_value(s.params.get('rank', 9))} or better)"
            if "rank" in s.params
            else "leading high cards (Jack or better)",
        }.get(lead, text)
    if s.name == "pimc":
        what = "its turns while the stock lasts" if s.params.get("search") == "stock" else "every decision"
        return f"searching {what} ({fmt_value(s.params.get('budget', 100))} sampled play-outs a decision)"
    return {"counter": "leading only sure winners (counter)", "hunter": "leading high (hunter)",
            "greedy": "leading Aces and Kings (greedy)"}.get(s.name, text)  # fmt: skip


def short_name(text: str) -> str:
    """The policy for a chart's axis."""
    name = policy_name(text).replace("leading ", "").replace(" (Jack or better)", " (J+)")
    name = name.replace("searching its turns while the stock lasts", "search: stock turns only")
    return name.replace("searching every decision", "search: every decision").split(" (")[0]


def analyse(result: ExperimentResult) -> Analysis:
    """Each lead policy against drawing throughout on the same deals: points, Tens and Taffies, wins."""
    spec = result.spec
    axis = find_axis(spec, lambda a: a.startswith("seats.") and a.count(".") == 1)
    if axis is None or axis not in spec.baseline:
        return Analysis(["(the draw_phase analysis needs a swept seat player with a baseline)"], [], [])
    key = axis.split(".")[1]
    seat = int(key) if key.isascii() and key.isdigit() else 0
    base = spec.baseline[axis][0]
    base_name = policy_name(str(base))
    pts, tt, win = f"points[{seat}]", f"tt[{seat}]", f"win[{seat}]"

    rows: list[dict] = []
    for c in spec.cells:
        if fmt_value(c.value(axis)) == fmt_value(base):
            continue
        d = result.difference(c.index, pts, axis, base)
        if d is None:
            continue
        rows.append({"cell": c, "group": group_label(spec, c, {axis}), "policy": str(c.value(axis)),
                     "points": d[0], "tt": _diff(result, c, tt, axis, base),
                     "win": _diff(result, c, win, axis, base), "p": p_two_sided(d[0])})  # fmt: skip
    if not rows:
        return Analysis(["(no policy has a baseline partner on the same deals)"], [], [])
    for r, adj in zip(rows, holm([r["p"] for r in rows]), strict=True):
        r["holm"] = adj
    groups = list(dict.fromkeys(r["group"] for r in rows))
    policies = list(dict.fromkeys(r["policy"] for r in rows))
    loses = [r for r in rows if r["holm"] < ALPHA and r["points"].mean < 0]
    gains = [r for r in rows if r["holm"] < ALPHA and r["points"].mean > 0]

    def where(r: dict) -> str:
        return "" if r["group"] == "all cells" else f" {_table(r['group'])}"

    findings: list[str] = []
    # The verdict on the draw phase rests on the policies that differ from the baseline only there.
    stock = [r for r in rows if not _everywhere(r["policy"])]
    st_loses = [r for r in stock if r in loses]
    st_gains = [r for r in stock if r in gains]
    adjusted = f"each adjusted for the {len(rows)} comparisons with {base_name}"
    ev = [r for r in rows if _everywhere(r["policy"])]
    if stock:
        # The headline speaks of every compared cell, each with its sign: the draw-phase policies, then
        # any player that also changes play after the stock (its own clause).
        verdict = _count_verdict(len(stock), len(st_loses), len(st_gains), "policies that change only play while "
                                 "the stock lasts")  # fmt: skip
        if ev:
            verdict += ", while " + _count_verdict(len(ev), len([r for r in ev if r in loses]),
                                                   len([r for r in ev if r in gains]), "players that search "
                                                   "every decision (after the stock too)")  # fmt: skip
        if st_gains:
            g = max(st_gains, key=lambda r: r["points"].mean)
            tail = (f"the best, {policy_name(g['policy'])}{where(g)}, changes seat {seat}'s points by "
                    f"{est(g['points'], '+points per game', 'paired deals')}")  # fmt: skip
        else:
            least = max(stock, key=lambda r: r["points"].mean)
            tail = (f"the least costly of the first, {policy_name(least['policy'])}{where(least)}, changes seat "
                    f"{seat}'s points by {est(least['points'], '+points per game', 'paired deals')}")  # fmt: skip
        findings.append(f"Against {base_name}, {verdict} ({adjusted}); {tail}.")
    told: set[str] = set()
    for r in (r for r in rows if _everywhere(r["policy"])):
        text = (f"{_cap(policy_name(r['policy']))} changes seat {seat}'s points by "
                f"{est(r['points'], '+points per game', 'paired deals')}{where(r)}")  # fmt: skip
        only = [o for o in stock if parse_spec(o["policy"]).name == parse_spec(r["policy"]).name]
        if only:
            told.add(only[0]["policy"])
            o = only[0]
            text += (f", while {policy_name(o['policy'])} changes them by {fmt_num(o['points'].mean)} "
                     f"(95% CI {fmt_num(o['points'].low)} to {fmt_num(o['points'].high)})")  # fmt: skip
            # Said only when measured so: search gains overall and not in the draw phase alone.
            if r in gains and o not in gains:
                text += ": what search gains, it gains in answering and after the stock"
        findings.append(text + ".")
    by_policy = sorted(policies, key=lambda p: -max(r["points"].mean for r in rows if r["policy"] == p))
    for p in by_policy:
        if _everywhere(p) or p in told:
            continue
        mine = [r for r in rows if r["policy"] == p]
        first, rest = mine[0], mine[1:]
        text = (f"{_cap(policy_name(p))}{_while(p)} changes seat {seat}'s points by "
                f"{est(first['points'], '+points per game', 'paired deals')}{where(first)}")  # fmt: skip
        for r in rest:
            text += f", and by {fmt_num(r['points'].mean)} (95% CI {fmt_num(r['points'].low)} to {fmt_num(r['points'].high)}){where(r)}"
        clear = sum(r["holm"] < ALPHA for r in mine)
        told_apart = ("told apart from 0" if len(mine) == 1 and clear else "not told apart from 0" if len(mine) == 1
                      else f"{clear} of {len(mine)} told apart from 0")  # fmt: skip
        findings.append(text + f" ({told_apart}, {adjusted}).")
    worst = min(rows, key=lambda r: r["points"].mean)
    findings.append(
        f"With the largest loss of points, {policy_name(worst['policy'])}{where(worst)}, seat {seat} wins "
        f"{'fewer' if worst['tt'].mean < 0 else 'more'} Tens and Taffies, "
        f"{est(worst['tt'], '+per game', 'paired deals')}, and its share of wins changes by "
        f"{fmt_num(100 * worst['win'].mean)} percentage points (95% CI {fmt_num(100 * worst['win'].low)} to "
        f"{fmt_num(100 * worst['win'].high)})."
    )
    findings = findings[:6]

    base_cells = {
        group_label(spec, c, {axis}): c for c in spec.cells if fmt_value(c.value(axis)) == fmt_value(base)
    }
    level = {g: result.estimate(c.index, pts) for g, c in base_cells.items()}
    head = findings[0].split(";")[0].split(" (Holm")[0]
    charts = [
        _bars(rows, groups, policies, "points", f"points-{seat}",
              _title(head, worst, "points per game", where), f"seat {seat} plays while the stock lasts",
              f"change in seat {seat}'s points: points per game (95% CI)"),
        _bars(rows, groups, policies, "tt", f"tt-{seat}",
              f"Leading while the stock lasts changes the Tens and Taffies seat {seat} wins by up to "
              f"{fmt_num(worst['tt'].mean if abs(worst['tt'].mean) > 0 else 0)} per game "
              f"(against {base_name})", f"seat {seat} plays while the stock lasts",
              "change in Tens and Taffies won: cards per game (95% CI)"),
        _bars(rows, groups, policies, "win", f"win-{seat}",
              _win_title(rows, seat, base_name),
              f"seat {seat} plays while the stock lasts", "change in share of games won: percentage points (95% CI)",
              scale=100),
    ]  # fmt: skip
    table = pd.DataFrame([
        {"policy": policy_name(r["policy"]), "table": r["group"],
         "points per game (baseline)": f"{fmt_num(level[r['group']].mean)}" if r["group"] in level else "–",
         "change in points": f"{fmt_num(r['points'].mean)} [{fmt_num(r['points'].low)}, {fmt_num(r['points'].high)}]",
         "change in Tens and Taffies": f"{fmt_num(r['tt'].mean)} [{fmt_num(r['tt'].low)}, {fmt_num(r['tt'].high)}]",
         "change in wins (pp)": f"{fmt_num(100 * r['win'].mean)} [{fmt_num(100 * r['win'].low)}, {fmt_num(100 * r['win'].high)}]",
         f"chance by luck alone, adjusted for the {len(rows)} comparisons": fmt_p(r["holm"]),
         "n (paired deals)": r["points"].n}
        for r in rows
    ])  # fmt: skip
    return Analysis(
        findings,
        from_run(result, charts),
        [(f"Each policy against {base_name} on the same deals (95% intervals, not adjusted for the "
          f"{len(rows)} comparisons)", md_table(table))],
    )  # fmt: skip


def _count_verdict(n: int, lose: int, gain: int, what: str) -> str:
    """How many of ``n`` compared policies lose and gain points, every one counted with its sign."""
    und = n - lose - gain
    if n == 1:
        verb = (
            "loses points"
            if lose
            else "gains points"
            if gain
            else "is not told apart from drawing throughout"
        )
        one = what.replace("policies that change", "policy that changes").replace(
            "players that search", "player that searches"
        )
        return f"the one {one} {verb}"
    every = "both" if n == 2 else f"all {n}"
    if lose == n:
        return f"{every} {what} lose points"
    if gain == n:
        return f"{every} {what} gain points"
    parts = [
        f"{k} {v}"
        for k, v in (
            (lose, "lose points" if lose > 1 else "loses points"),
            (gain, "gain" if gain > 1 else "gains"),
            (und, "are not told apart from 0" if und > 1 else "is not told apart from 0"),
        )
        if k
    ]
    return f"of the {n} {what}, " + (
        ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]
    )


def _win_title(rows: list[dict], seat: int, base_name: str) -> str:
    """How many of the comparisons drawn win more or fewer games than the baseline (by their 95% CIs)."""
    fewer = sum(r["win"].high < 0 for r in rows)
    more = sum(r["win"].low > 0 for r in rows)
    big = max(rows, key=lambda r: abs(r["win"].mean))["win"].mean
    return (f"Against {base_name}, seat {seat} wins fewer games in {fewer} and more in {more} of the {len(rows)} "
            f"comparisons drawn; the largest change is {100 * big:+.1f} percentage points of games won")  # fmt: skip


def _everywhere(text: str) -> bool:
    """A player that searches every decision, not only the draw phase's."""
    s = parse_spec(text)
    return s.name == "pimc" and s.params.get("search") != "stock"


def _while(text: str) -> str:
    return "" if parse_spec(text).name == "pimc" else " while the stock lasts"


def _table(group: str) -> str:
    """The table a comparison was made at, after a sentence: ``3 players`` -> ``with 3 players``."""
    words = group.replace("players=", "").strip()
    if "," not in words and words.removesuffix(" players").isdigit():
        return f"with {words.removesuffix(' players')} players"
    return f"({group})"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _diff(result: ExperimentResult, c: Cell, figure: str, axis: str, base) -> Estimate:
    d = result.difference(c.index, figure, axis, base)
    return d[0] if d is not None else Estimate(float("nan"), float("nan"), 0)


def _title(head: str, worst: dict, unit: str, where) -> str:
    return f"{head}; largest loss {fmt_num(worst['points'].mean)} {unit} ({policy_name(worst['policy'])}{where(worst)})"


def _bars(rows, groups, policies, what, name, title, xlabel, ylabel, scale: float = 1.0) -> Chart:
    series = []
    for g in groups:
        mine = [r for r in rows if r["group"] == g]
        mine.sort(key=lambda r: policies.index(r["policy"]))
        series.append(ChartSeries(
            _table(g).removeprefix("with ") if g != "all cells" else "", [short_name(r["policy"]) for r in mine],
            [scale * r[what].mean for r in mine], [scale * r[what].low for r in mine],
            [scale * r[what].high for r in mine],
        ))  # fmt: skip
    caption = (
        "Each bar: the policy's change against the baseline, game by game on the same deals; "
        "error bars: 95% CIs."
    )
    return Chart(name, title, xlabel, ylabel, series, kind="bars", zero_line=True, categorical=True,
                 caption=caption)  # fmt: skip
