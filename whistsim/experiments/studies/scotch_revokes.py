"""When revoking pays in Scotch Whist: the revoker's gain against the chance that a revoke is claimed.

A study of Scotch Whist with revokes allowed (experiments/scotch_revokes.toml): seat 0
revokes at a swept rate (``seats.0.revoke``), the chance of a claim is swept
(``rules.claim``), and each rate is paired with honest play (rate 0) on the same
deals. It reads ``seat_won[0]`` (the revoker's side won the game),
``points_per_deal[0]``, ``revoke_ends`` and ``revokes``.
"""

from __future__ import annotations

from ...core.stats import holm, p_two_sided
from ..charts import from_run
from ..results import Analysis, Chart, ExperimentResult, fmt_num
from ..spec import fmt_value
from ..tools import axis_values
from ._scotch import cells_where, line, pct, pts

PLAYERS, CLAIM, RATE = "rules.players", "rules.claim", "seats.0.revoke"
WON, POINTS = "seat_won[0]", "points_per_deal[0]"
NEAR = 0.1  # charts show claim chances up to this


def _pp(e) -> str:
    return f"{100 * e.mean:+.1f} percentage points (95% CI {100 * e.low:+.1f} to {100 * e.high:+.1f}, n={e.n:,} games)"


def analyse(result: ExperimentResult) -> Analysis:
    spec = result.spec
    if not all(a in spec.axes for a in (PLAYERS, CLAIM, RATE)) or RATE not in spec.baseline:
        return Analysis(
            ["(the scotch_revokes analysis needs players, claim and revoke-rate sweeps with a baseline)"],
            [],
            [],
        )
    counts = sorted(axis_values(spec, PLAYERS))
    claims = sorted(axis_values(spec, CLAIM))
    honest = spec.baseline[RATE][0]
    rates = [r for r in sorted(axis_values(spec, RATE)) if fmt_value(r) != fmt_value(honest)]
    gains = {}  # (players, rate, claim) -> paired change in the revoker's side's games won
    for p in counts:
        for r in rates:
            for k in claims:
                c = cells_where(result, rules__players=p, rules__claim=k, seats__0__revoke=r)
                if not c:
                    continue
                d = result.difference(c[0].index, WON, RATE)
                if d is not None:
                    gains[(p, r, k)] = (c[0], d[0])
    if not gains:
        return Analysis(["(no paired comparisons to read)"], [], [])
    keys = list(gains)
    adj = dict(zip(keys, holm([p_two_sided(gains[key][1]) for key in keys]), strict=True))
    pays = [key for key in keys if gains[key][1].mean > 0 and adj[key] < 0.05]
    costs = [key for key in keys if gains[key][1].mean < 0 and adj[key] < 0.05]
    findings: list[str] = []
    # 1. With no claims at all.
    free = [(key, gains[key][1]) for key in keys if key[2] == min(claims)]
    best_key, best = max(free, key=lambda t: t[1].mean)
    findings.append(
        f"When a revoke is never claimed (claim chance {fmt_value(min(claims))}), revoking at rate "
        f"{fmt_value(best_key[1])} changes the revoker's side's chance of winning the game by {_pp(best)} "
        f"with {best_key[0]} players, against honest play on the same deals."
    )
    # 2. Where it stops paying.
    lines_ = []
    for p in counts:
        for r in rates:
            row = [(k, gains[(p, r, k)][1]) for k in claims if (p, r, k) in gains]
            paying = [k for k, _ in row if (p, r, k) in pays]
            losing = [k for k, _ in row if (p, r, k) in costs]
            lines_.append((p, r, paying, losing, row))
    some_pay = [t for t in lines_ if t[2]]
    if some_pay:
        kmax = max(max(t[2]) for t in some_pay)
        top = max((t for t in some_pay if kmax in t[2]), key=lambda t: gains[(t[0], t[1], kmax)][1].mean)
        e = gains[(top[0], top[1], max(top[2]))][1]
        above = [k for k in claims if k > max(top[2]) and (top[0], top[1], k) in gains]
        nxt = (
            f"; at claim chance {fmt_value(above[0])} the same revoking changes them by "
            f"{_pp(gains[(top[0], top[1], above[0])][1])}"
            if above
            else ""
        )
        findings.append(
            f"Revoking pays only while claims are rarer than the next chance tested: the highest claim chance at "
            f"which it still gains is {fmt_value(max(top[2]))} ({top[0]} players, rate {fmt_value(top[1])}: {_pp(e)})"
            f"{nxt}; it pays in {len(pays)} and costs in {len(costs)} of the {len(keys)} settings (each adjusted "
            f"for the {len(keys)} comparisons of revoking with honest play, one per player count, rate and claim "
            "chance)."
        )
    else:
        top_key = max(keys, key=lambda key: gains[key][1].mean)
        findings.append(
            f"Revoking never clearly pays at any claim chance tested: its best case, rate {fmt_value(top_key[1])} "
            f"at claim chance {fmt_value(top_key[2])} with {top_key[0]} players, changes the side's wins by "
            f"{_pp(gains[top_key][1])}; it costs in {len(costs)} of the {len(keys)} settings (each adjusted "
            f"for the {len(keys)} comparisons of revoking with honest play, one per player count, rate and claim "
            "chance)."
        )
    # 3. At the rules' own claim chance (always claimed).
    k1 = max(claims)
    worst_key = min((key for key in keys if key[2] == k1), key=lambda key: gains[key][1].mean)
    c, e = gains[worst_key]
    findings.append(
        f"When every revoke is claimed (claim chance {fmt_value(k1)}), revoking at rate {fmt_value(worst_key[1])} "
        f"loses {pct(result.reported(c.index, 'revoke_ends'), 'games')} of games by a claim and changes the "
        f"side's chance of winning by {_pp(e)} ({worst_key[0]} players)."
    )
    # 4. The mechanism: points per deal with no claims.
    pk = max(((p, r) for p in counts for r in rates), key=lambda t: t[1])
    cells = cells_where(result, rules__players=pk[0], rules__claim=min(claims), seats__0__revoke=pk[1])
    if cells:
        d = result.difference(cells[0].index, POINTS, RATE)
        rv = result.estimate(cells[0].index, "revokes")
        if d is not None:
            findings.append(
                f"Unclaimed, revoking at rate {fmt_value(pk[1])} ({fmt_num(rv.mean)} revokes per game) changes the "
                f"revoker's side's points per deal by {pts(d[0], 'points', 'games', signed=True)} ({pk[0]} players)."
            )
    # Charts: one per table size, near 0 where revoking stops paying (beyond, it only costs more).
    near = [k for k in claims if k <= NEAR]
    charts = []
    for p in counts:
        ss = [
            line(
                f"revoke rate {fmt_value(r)}",
                [k for k, _ in row if k in near],
                [e for k, e in row if k in near],
                100,
            )
            for p2, r, _, _, row in lines_
            if p2 == p
        ]
        low = min((gains[(p, r, k)][1].mean for r in rates for k in near if (p, r, k) in gains), default=0.0)
        charts.append(
            Chart(
                f"revoke-gain-by-claim-{p}",
                f"{p} players: never claimed, revoking changes games won by at most "
                f"{100 * max(e.mean for (p2, _, k), (_, e) in gains.items() if p2 == p):+.1f} percentage points; "
                f"once {100 * max(near):g}% of revokes are claimed it costs up to {abs(100 * low):.0f} percentage "
                "points of games won",
                "chance that a revoke is claimed",
                "change in games won: percentage points (95% CI)",
                ss,
                zero_line=True,
            )
        )
    ss = []
    for p in counts:
        row = []
        for r in rates:
            c = cells_where(result, rules__players=p, rules__claim=min(claims), seats__0__revoke=r)
            d = result.difference(c[0].index, POINTS, RATE) if c else None
            if d is not None:
                row.append((r, d[0]))
        if row:
            ss.append(line(f"{p} players", [r for r, _ in row], [e for _, e in row]))
    if ss:
        charts.append(
            Chart(
                "revoke-points-unclaimed",
                f"Unclaimed, revoking adds at most {fmt_num(max(y for x in ss for y in x.y))} points per deal to the "
                "revoker's side, against honest play on the same deals",
                "revoke rate (share of the chances to revoke taken)",
                "change in the side's points per deal (95% CI)",
                ss,
                zero_line=True,
            )
        )
    return Analysis(findings, from_run(result, charts), [])
