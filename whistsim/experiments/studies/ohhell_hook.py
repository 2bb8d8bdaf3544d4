"""What the hook costs the dealer at Oh Hell (experiments/ohhell_hook.toml, ohhell_hook_pimc.toml).

A study of Oh Hell: ``rules.hook`` is swept with ``false`` its baseline, so each setting of the
other axes (players, scoring) is played with and without the hook on the same deals. It names the
Oh Hell figures it reads: ``dealer_points`` and ``dealer_edge`` (points per round), ``rounds``,
the shares of rounds ``bids_over``, ``bids_under``, ``bids_exact`` and the share of bids made
``made_all``. The verdicts on the dealer's cost rest on Holm's correction over every (players,
scoring) comparison.
"""

from __future__ import annotations

import pandas as pd

from ...core.stats import holm, p_two_sided
from ..charts import from_run
from ..results import Analysis, Chart, ExperimentResult, fmt_num, md_table
from ..spec import fmt_value
from ._ohhell import pct, pp, pts, round_share, scaled, scoring_short, scoring_words
from ._scotch import line
from ._tools import fmt_p

HOOK, PLAYERS, SCORING = "rules.hook", "rules.players", "rules.scoring"
ALPHA = 0.05
BIDS = ("bids_over", "bids_under", "bids_exact")


def _rows(result: ExperimentResult) -> list[dict]:
    """One row per (players, scoring): the hook's paired changes, and both cells' figures."""
    spec = result.spec
    rows = []
    for c in spec.cells:
        if fmt_value(c.value(HOOK)) != "true":
            continue
        d = result.difference(c.index, "dealer_points", HOOK)
        if d is None:
            continue
        base = d[1]
        r = {
            "cell": c, "base": base, "players": c.rules.players, "scoring": c.rules.scoring,
            "rounds": result.estimate(c.index, "rounds").mean,
            "cost": d[0], "edge_change": result.difference(c.index, "dealer_edge", HOOK)[0],  # type: ignore[index]
            "made_change": result.difference(c.index, "made_all", HOOK)[0],  # type: ignore[index]
            "edge_on": result.estimate(c.index, "dealer_edge"),
            "edge_off": result.estimate(base.index, "dealer_edge"),
            "made_on": round_share(result.estimate(c.index, "made_all")),
            "made_off": round_share(result.estimate(base.index, "made_all")),
        }  # fmt: skip
        for b in BIDS:
            r[f"{b}_on"] = round_share(result.estimate(c.index, b))
            r[f"{b}_off"] = round_share(result.estimate(base.index, b))
            r[f"{b}_change"] = result.difference(c.index, b, HOOK)[0]  # type: ignore[index]
        rows.append(r)
    for key in ("cost", "edge_change", "made_change"):
        for r, a in zip(rows, holm([p_two_sided(r[key]) for r in rows]), strict=True):
            r[f"{key}_adj"] = a
    return rows


def _fam(rows: list[dict]) -> str:
    """The family of comparisons in words, for "adjusted for the N comparisons, one per ..."."""
    per = []
    if len({r["players"] for r in rows}) > 1:
        per.append("player count")
    if len({r["scoring"] for r in rows}) > 1:
        per.append("scoring")
    one = f", one per {' and '.join(per)}" if per else ""
    return f"adjusted for the {len(rows)} comparison{'s' if len(rows) > 1 else ''} of the hook with none{one}"


def _count(rows: list[dict], key: str, sign: int) -> int:
    return sum(r[f"{key}_adj"] < ALPHA and sign * r[key].mean > 0 for r in rows)


def analyse(result: ExperimentResult) -> Analysis:
    """The dealer's cost per round and per game, against the table, and how the bids add up."""
    spec = result.spec
    if HOOK not in spec.axes or HOOK not in spec.baseline:
        return Analysis(["(the ohhell_hook analysis needs a rules.hook sweep with a baseline)"], [], [])
    rows = _rows(result)
    if not rows:
        return Analysis(["(no setting is played both with and without the hook on the same deals)"], [], [])
    counts = sorted({r["players"] for r in rows})
    scorings = list(dict.fromkeys(r["scoring"] for r in rows))
    p0 = 4 if 4 in counts else counts[0]
    s0 = "ten_plus_bid" if "ten_plus_bid" in scorings else scorings[0]
    ref = next(r for r in rows if r["players"] == p0 and r["scoring"] == s0)
    fam = _fam(rows)
    n = len(rows)
    findings: list[str] = []

    # 1. The verdict: does the hook cost the dealer?
    lose, gain = _count(rows, "cost", -1), _count(rows, "cost", 1)
    verdict = (
        "costs the dealer points in every setting played" if lose == n
        else f"costs the dealer points in {lose} of {n} settings and gains in {gain}"
    )  # fmt: skip
    rr = ref["rounds"]
    findings.append(
        f"The hook {verdict} ({fam}): with {p0} players under {scoring_words(s0)}, the dealer scores "
        f"{pts(ref['cost'], 'points per round', signed=True)} on the same deals, "
        f"{fmt_num(ref['cost'].mean * rr)} points over a game's {fmt_num(rr)} rounds "
        f"(95% CI {fmt_num(scaled(ref['cost'], rr).low)} to {fmt_num(scaled(ref['cost'], rr).high)}), "
        f"shared by the players as each deals in turn."
    )
    # 2. Against the table, by the number of players.
    below = _count(rows, "edge_change", -1)
    by_p = [r for r in rows if r["scoring"] == s0]
    lo = min(by_p, key=lambda r: abs(r["edge_change"].mean))
    hi = max(by_p, key=lambda r: abs(r["edge_change"].mean))
    grows = len(by_p) > 1 and all(
        a["edge_change"].mean > b["edge_change"].mean for a, b in zip(by_p, by_p[1:], strict=False)
    )
    shape = "grows with the number of players" if grows else "varies with the number of players"
    text = (
        f"Against the average player at the table, the dealer's score per round falls in {below} of {n} "
        f"settings ({fam}); with the hook the dealer scores {pts(ref['edge_on'], 'points per round')} "
        f"against the average player with {p0} players, and {pts(ref['edge_off'], 'points per round')} without it."
    )
    if len(by_p) > 1:
        text = (
            f"The dealer's loss against the average player {shape}: under {scoring_words(s0)} it is "
            f"{pts(hi['edge_change'], 'points per round', signed=True)} with {hi['players']} players and "
            f"{pts(lo['edge_change'], 'points per round', signed=True)} with {lo['players']}; it is told "
            f"apart from 0 in {below} of {n} settings ({fam})."
        )
    findings.append(text)
    # 3. By scoring.
    if len(scorings) > 1:
        at = [r for r in rows if r["players"] == p0]
        big = max(at, key=lambda r: abs(r["cost"].mean))
        small = min(at, key=lambda r: abs(r["cost"].mean))
        by_s = abs(big["cost"].mean) - abs(small["cost"].mean)
        by_n = max(abs(r["cost"].mean) for r in by_p) - min(abs(r["cost"].mean) for r in by_p)
        than = "less" if by_s < by_n else "more"
        findings.append(
            f"The scoring matters {than} than the number of players: with {p0} players the cost is largest "
            f"under {scoring_words(big['scoring'])}, {pts(big['cost'], 'points per round', signed=True)}, and "
            f"smallest under {scoring_words(small['scoring'])}, {pts(small['cost'], 'points per round', signed=True)}"
            f" (a gap of {fmt_num(by_s)} points per round, against {fmt_num(by_n)} between the player counts "
            f"under {scoring_words(s0)})."
        )
    # 4. How the bids add up.
    ex = [r for r in rows if r["scoring"] == s0]
    ex_lo = min(ex, key=lambda r: r["bids_exact_off"].mean)
    ex_hi = max(ex, key=lambda r: r["bids_exact_off"].mean)
    w = f"games of {fmt_num(rr)} rounds"

    def of(r):
        return f"games of {fmt_num(r['rounds'])} rounds"

    span = "".join(
        f"; {most} with {r['players']} players, {pct(r['bids_exact_off'], of(r))}"
        for most, r in (("the fewest", ex_lo), ("the most", ex_hi))
        if len(ex) > 1 and r is not ref
    )
    findings.append(
        f"Without the hook the bids add up exactly to the tricks in {pct(ref['bids_exact_off'], w)} of rounds "
        f"with {p0} players{span}; the hook makes that never, by rule, and with {p0} players the rounds whose "
        f"bids add up to more than the tricks go from {pct(ref['bids_over_off'], w)} to "
        f"{pct(ref['bids_over_on'], w)}, fewer than the tricks from {pct(ref['bids_under_off'], w)} to "
        f"{pct(ref['bids_under_on'], w)}."
    )
    # 5. Bids made.
    fewer = _count(rows, "made_change", -1)
    findings.append(
        f"With the hook {pct(ref['made_on'], w)} of all bids are made against {pct(ref['made_off'], w)} without "
        f"it ({p0} players), a change of {pp(ref['made_change'])}; fewer bids are made in {fewer} of {n} "
        f"settings ({fam})."
    )
    # 6. Whether the scoring changes the bids at all (rule-based players do not look at it).
    if len(scorings) > 1:
        same = all(
            len({round(r[f"{b}_on"].mean, 12) for r in rows if r["players"] == p}) == 1
            for p in counts
            for b in BIDS
        )
        if same:
            findings.append(
                f"These players bid and play the same whatever the scoring, so the bids add up the same way "
                f"under all {len(scorings)} scorings (shares above, n={ref['cost'].n:,} games each); the "
                "scoring changes only what a made or missed bid is worth."
            )
    return Analysis(
        findings[:6], _charts(result, rows, p0, s0, counts, scorings), [_table(rows)], findings[6:]
    )


def _table(rows: list[dict]) -> tuple[str, str]:
    df = pd.DataFrame(
        [
            {
                "players": r["players"],
                "scoring": scoring_words(r["scoring"]),
                "rounds per game": r["rounds"],
                "change in the dealer's points, hook minus none (points per round) [95% CI]":
                    f"{fmt_num(r['cost'].mean)} [{fmt_num(r['cost'].low)}, {fmt_num(r['cost'].high)}]",
                "over a game (points per game) [95% CI]":
                    f"{fmt_num(r['cost'].mean * r['rounds'])} [{fmt_num(scaled(r['cost'], r['rounds']).low)}, "
                    f"{fmt_num(scaled(r['cost'], r['rounds']).high)}]",
                "change against the average player (points per round) [95% CI]":
                    f"{fmt_num(r['edge_change'].mean)} [{fmt_num(r['edge_change'].low)}, "
                    f"{fmt_num(r['edge_change'].high)}]",
                f"chance by luck alone, adjusted for the {len(rows)} comparisons": fmt_p(r["cost_adj"]),
                "bids exactly the tricks, no hook (% of rounds)": f"{100 * r['bids_exact_off'].mean:.1f}",
                "bids over, no hook / hook (% of rounds)":
                    f"{100 * r['bids_over_off'].mean:.1f} / {100 * r['bids_over_on'].mean:.1f}",
                "n (games)": r["cost"].n,
            }
            for r in rows
        ]
    )  # fmt: skip
    return ("The hook's cost to the dealer, every setting (on the same deals)", md_table(df))


def _charts(result, rows, p0, s0, counts, scorings) -> list[Chart]:
    charts: list[Chart] = []
    x_many = len(counts) > 1
    worst = max(rows, key=lambda r: abs(r["cost"].mean))
    least = min(rows, key=lambda r: abs(r["cost"].mean))

    def where(r):
        return f"{r['players']} players" + (f", {scoring_short(r['scoring'])}" if len(scorings) > 1 else "")

    if x_many:
        ss = [
            line(scoring_short(s), [r["players"] for r in rows if r["scoring"] == s],
                 [r["cost"] for r in rows if r["scoring"] == s])
            for s in scorings
        ]  # fmt: skip
        charts.append(Chart(
            "dealer-cost",
            f"The hook costs the dealer most with {where(worst)} ({fmt_num(worst['cost'].mean)} points a round)"
            f" and least with {where(least)} ({fmt_num(least['cost'].mean)} points)",
            "players at the table", "change in the dealer's points: hook minus none (points per round)",
            ss, zero_line=True, caption="Error bars: 95% confidence intervals, on the same deals.",
        ))  # fmt: skip
        at = [r for r in rows if r["scoring"] == s0]
        xs = [r["players"] for r in at]
        ref = next(r for r in at if r["players"] == p0)
        charts.append(Chart(
            "dealer-against-table",
            f"With the hook the dealer scores {fmt_num(ref['edge_on'].mean)} points a round against the "
            f"average player ({p0} players); without it {fmt_num(ref['edge_off'].mean)} points",
            "players at the table", "the dealer's points less the average player's (points per round)",
            [line("with the hook", xs, [r["edge_on"] for r in at]),
             line("without the hook", xs, [r["edge_off"] for r in at])],
            zero_line=True, caption=f"Under {scoring_words(s0)}. Error bars: 95% confidence intervals.",
        ))  # fmt: skip
        charts.append(Chart(
            "bids-add-up",
            f"Without the hook the bids add up exactly in {100 * ref['bids_exact_off'].mean:.0f}% of rounds "
            f"({p0} players); with it the bids are over the tricks in {100 * ref['bids_over_on'].mean:.0f}% "
            f"of rounds ({100 * ref['bids_over_off'].mean:.0f}% without)",
            "players at the table", "share of rounds (%)",
            [line("over the tricks, no hook", xs, [r["bids_over_off"] for r in at], 100),
             line("over the tricks, hook", xs, [r["bids_over_on"] for r in at], 100),
             line("exactly the tricks, no hook", xs, [r["bids_exact_off"] for r in at], 100)],
            caption=f"Under {scoring_words(s0)}. Error bars: 95% confidence intervals.",
        ))  # fmt: skip
    else:
        xs = [scoring_short(r["scoring"]) for r in rows]
        charts.append(Chart(
            "dealer-cost",
            f"The hook costs the dealer most under {scoring_short(worst['scoring'])} "
            f"({fmt_num(worst['cost'].mean)} points a round, {p0} players) and least under "
            f"{scoring_short(least['scoring'])} ({fmt_num(least['cost'].mean)} points)",
            "scoring", "change in the dealer's points: hook minus none (points per round)",
            [line("hook minus none, same deals", xs, [r["cost"] for r in rows])],
            kind="bars", categorical=True, zero_line=True, caption="Error bars: 95% confidence intervals.",
        ))  # fmt: skip
    return from_run(result, charts)
