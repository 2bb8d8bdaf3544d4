"""When does a revoke pay at Whist? The revoker's side's gain by penalty, chance of notice and scoring.

A study of Whist (experiments/whist_revokes.toml): seat 0 revokes on purpose
(heuristic ``revoke``: it trumps a trick it cannot win by following), against
honest play on the same deals. It names the Whist figures it reads:
``side_won[0]`` (the revoker's side wins), ``revokes``, ``penalty[0]`` and
``deals``. "Pays" and "costs" are decided over the whole family of cells with
Holm's adjustment.
"""

from __future__ import annotations

import pandas as pd

from ...core.stats import Estimate, holm, p_two_sided
from ..charts import from_run
from ..results import Analysis, Chart, ChartSeries, ExperimentResult, md_table
from ..spec import fmt_value
from ..tools import find_axis
from ._whist import num, share

WIN = "side_won[0]"
CLAIM, PENALTY, SCORE = "rules.claim", "rules.revoke_penalty", "rules.revoke_score"


def pp(e: Estimate) -> str:
    """A change in a share, in percentage points with its CI."""
    return (
        f"{100 * e.mean:+.1f} percentage points (95% CI {100 * e.low:+.1f} to {100 * e.high:+.1f}, "
        f"n={e.n:,} paired games)"
    )


def negated(e: Estimate) -> Estimate:
    return Estimate(-e.mean, e.sd, e.n)


def break_even(points: list[tuple[float, float]]) -> float | None:
    """The chance of notice at which the gain first falls to 0 (linear between swept values)."""
    points = sorted(points)
    for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
        if y0 > 0 >= y1:
            return x0 + (x1 - x0) * y0 / (y0 - y1)
    return None


def analyse(result: ExperimentResult) -> Analysis:
    """The revoker's side's gain in games won, by penalty, chance of notice and how the penalty scores."""
    spec = result.spec
    axis = find_axis(spec, lambda a: a.startswith("seats.") and a.endswith(".revoke"))
    if axis is None or axis not in spec.baseline:
        return Analysis(["(the revokes study needs a swept revoke rate with a baseline)"], [], [])
    honest = spec.baseline[axis][0]
    gains = []  # (cell, estimate)
    for c in spec.cells:
        if fmt_value(c.value(axis)) == fmt_value(honest):
            continue
        d = result.difference(c.index, WIN, axis)
        if d is not None:
            gains.append((c, d[0]))
    if not gains:
        return Analysis(["(no revoking cell has an honest partner on the same deals)"], [], [])
    ps = [p_two_sided(e) for _, e in gains]
    adj = holm(ps)
    verdict = {
        c.index: ("pays" if e.mean > 0 else "costs") if a < 0.05 else "undecided"
        for (c, e), a in zip(gains, adj, strict=True)
    }
    findings: list[str] = []
    free = [(c, e) for c, e in gains if c.value(CLAIM) == 0]
    if free:
        c, e = max(free, key=lambda ce: ce[1].n)
        base = result.difference(c.index, WIN, axis)[1]  # type: ignore[index]
        v = verdict[c.index]
        head = "pay" if v == "pays" else "cost" if v == "costs" else "are not told apart from honest play"
        moves = "raises" if e.mean > 0 else "lowers"
        findings.append(
            f"Unnoticed, deliberate revokes {head}: trumping every trick it cannot win by following {moves} its "
            f"side's share of games won from {100 * share(result, base.index, WIN).mean:.1f}% to "
            f"{100 * share(result, c.index, WIN).mean:.1f}%, {pp(e)}, with "
            f"{num(result.estimate(c.index, 'revokes'), 'revokes per game')}."
        )
    today = [
        (c, e) for c, e in gains if c.value(CLAIM) == 1 and c.value(PENALTY) == 3 and c.value(SCORE) == "add"
    ]
    if today:
        c, e = today[0]
        findings.append(
            "Under the page's rule (3 points to the other side, every revoke noticed) the same revokes "
            f"change the revoker's side's share of games won by {pp(e)}."
        )
    table = []
    evens = []
    for score in sorted({c.value(SCORE) for c, _ in gains}, key=str):
        for pen in sorted({c.value(PENALTY) for c, _ in gains}):
            pts = [
                (c.value(CLAIM), e.mean)
                for c, e in gains
                if c.value(SCORE) == score and c.value(PENALTY) == pen
            ]
            if not pts:
                continue
            be = break_even(pts)
            pays = sorted(c.value(CLAIM) for c, _ in gains
                          if c.value(SCORE) == score and c.value(PENALTY) == pen and verdict[c.index] == "pays")  # fmt: skip
            costs = sorted(c.value(CLAIM) for c, _ in gains
                           if c.value(SCORE) == score and c.value(PENALTY) == pen and verdict[c.index] == "costs")  # fmt: skip
            evens.append((score, pen, be))
            table.append({
                "penalty": pen, "scored": score,
                "break-even chance of notice": "above 1" if be is None and pts and min(y for _, y in pts) > 0
                else ("below the first" if be is None else f"{be:.2f}"),
                "pays at": ", ".join(fmt_value(x) for x in pays) or "–",
                "costs at": ", ".join(fmt_value(x) for x in costs) or "–",
            })  # fmt: skip
    said = []
    for score in ("add", "deduct"):
        items = [(pen, be) for s2, pen, be in evens if s2 == score and be is not None]
        if items:
            how = "added to the other side" if score == "add" else "deducted from the revokers"
            said.append(
                f"penalty {how}: "
                + ", ".join(f"{be:.2f} at {pen} point{'s' * (pen != 1)}" for pen, be in items)
            )
    if said:
        sure = ""
        page = [(c, e) for c, e in gains if c.value(PENALTY) == 3 and c.value(SCORE) == "add"]
        pays = [c.value(CLAIM) for c, _ in page if verdict[c.index] == "pays"]
        costs = [c.value(CLAIM) for c, _ in page if verdict[c.index] == "costs"]
        if pays and costs:
            sure = (
                f"; at 3 points added it clearly pays at a chance of {fmt_value(max(pays))} or less and clearly "
                f"costs from {fmt_value(min(costs))} on (each adjusted for the {len(gains)} comparisons of revoking with "
                f"honest play, one per setting; n={result.games:,} paired games each)"
            )
        findings.append(
            "Revoking stops paying once the chance that a revoke is noticed passes about "
            + "; ".join(said) + " (linear between the swept chances)" + sure + "."
        )  # fmt: skip
    n_pay = sum(v == "pays" for v in verdict.values())
    n_cost = sum(v == "costs" for v in verdict.values())
    pairs = {}
    for c, e in gains:
        if c.value(CLAIM) == 1 and c.value(PENALTY) == 3:
            pairs[c.value(SCORE)] = (c, e)
    if "add" in pairs and "deduct" in pairs:
        (ca, ea), (cd, ed) = pairs["add"], pairs["deduct"]
        findings.append(
            "Deducting 3 from the revokers instead of adding 3 to the other side (every revoke noticed) makes "
            f"the revoker's side's change in games won {pp(ed)} instead of {100 * ea.mean:+.1f}, and "
            f"{'lengthens' if result.estimate(cd.index, 'deals').mean > result.estimate(ca.index, 'deals').mean else 'shortens'} "
            f"the game to {num(result.estimate(cd.index, 'deals'), 'deals')} against "
            f"{result.estimate(ca.index, 'deals').mean:.2f}, the revokers losing "
            f"{num(negated(result.estimate(cd.index, 'penalty[0]')), 'points per game')} to deductions."
        )
    charts = []
    for score in sorted({c.value(SCORE) for c, _ in gains}, key=str):
        ss = []
        for pen in sorted({c.value(PENALTY) for c, _ in gains}):
            s = ChartSeries(f"penalty {pen} point{'s' * (pen != 1)}", [], [], [], [])
            for c, e in sorted(((c, e) for c, e in gains if c.value(SCORE) == score and c.value(PENALTY) == pen),
                               key=lambda ce: ce[0].value(CLAIM)):  # fmt: skip
                s.x.append(c.value(CLAIM))
                s.y.append(100 * e.mean)
                s.low.append(100 * e.low)
                s.high.append(100 * e.high)
            if s.x:
                ss.append(s)
        be = [(pen, b) for s2, pen, b in evens if s2 == score and b is not None]
        where = (
            "revoking pays while fewer than "
            + ", ".join(f"{100 * b:.0f}%" for _, b in be)
            + " of revokes are noticed (penalty "
            + ", ".join(str(pen) for pen, _ in be)
            + " points)"
            if be
            else "revoking pays at every chance of notice tested"
        )
        how = "added to the other side" if score == "add" else "deducted from the revokers"
        charts.append(Chart(
            f"gain-{score}", f"Penalty {how}: {where}",
            "chance that a revoke is noticed and claimed (0 to 1)",
            "revoker's side: change in games won, percentage points (95% CI)", ss, zero_line=True,
        ))  # fmt: skip
    heading = (
        f"Where revoking pays, each setting adjusted for the {len(gains)} comparisons made: it clearly pays in {n_pay}, "
        f"clearly costs in {n_cost} and is undecided in {len(gains) - n_pay - n_cost} (n={result.games:,} paired "
        "games each)"
    )
    tables = [(heading, md_table(pd.DataFrame(table)))]
    return Analysis(findings, from_run(result, charts), tables)
