"""French Whist against Scotch Whist on the same deals: points, cards' share, game length, who wins.

A study of the ``french`` preset paired with ``scotch`` (experiments/french.toml): it
reads ``deal_points`` and ``cards_share`` (ratios of means), ``deals``,
``first_leader_won``, ``countout_upset`` and ``pos_won[k]`` (the first dealer's side
is the last position).
"""

from __future__ import annotations

from ...core.stats import holm, p_two_sided
from ..charts import from_run
from ..results import Analysis, Chart, ExperimentResult, fmt_num
from ..spec import fmt_value
from ..tools import axis_values
from ._scotch import cells_where, line, pct, pts, share

GAME, PLAYERS = "rules.preset", "rules.players"


def _pp(e, what: str = "games") -> str:
    return f"{100 * e.mean:+.1f} percentage points (95% CI {100 * e.low:+.1f} to {100 * e.high:+.1f}, n={e.n:,} {what})"


def analyse(result: ExperimentResult) -> Analysis:
    spec = result.spec
    if GAME not in spec.axes or GAME not in spec.baseline or PLAYERS not in spec.axes:
        return Analysis(
            ["(the french analysis needs rules.preset and rules.players sweeps with a baseline)"], [], []
        )
    base = fmt_value(spec.baseline[GAME][0])
    variant = next(fmt_value(v) for v in axis_values(spec, GAME) if fmt_value(v) != base)
    counts = sorted(axis_values(spec, PLAYERS))
    pairs = []
    for p in counts:
        a = cells_where(result, rules__preset=base, rules__players=p)
        b = cells_where(result, rules__preset=variant, rules__players=p)
        if a and b:
            pairs.append((p, a[0], b[0]))
    if not pairs:
        return Analysis(["(no cell pairs to read)"], [], [])
    four = next((t for t in pairs if t[0] == 4), pairs[0])
    p4, s4, f4 = four
    findings: list[str] = []

    def diff(cell, figure):
        d = result.difference(cell.index, figure, GAME)
        return d[0] if d is not None else None

    # 1. Game length (Holm over the player counts).
    dl = [(p, diff(f, "deals")) for p, _, f in pairs]
    adj = holm([p_two_sided(e) for _, e in dl])
    shorter = sum(e.mean < 0 and a < 0.05 for (_, e), a in zip(dl, adj, strict=True))
    e4 = dict(dl)[p4]
    longer = sum(e.mean > 0 and a < 0.05 for (_, e), a in zip(dl, adj, strict=True))
    verdict = ("are shorter at every player count" if shorter == len(dl) else "are longer at every player count"
               if longer == len(dl) else f"are shorter at {shorter} and longer at {longer} of {len(dl)} player counts")  # fmt: skip
    findings.append(
        f"French Whist games to {s4.rules.target} {verdict}: with {p4} players a game lasts "
        f"{fmt_num(result.estimate(f4.index, 'deals').mean)} deals against "
        f"{fmt_num(result.estimate(s4.index, 'deals').mean)} in Scotch Whist, a change of "
        f"{pts(e4, 'deals', 'games', signed=True)} on the same deals (each count adjusted for the {len(dl)} "
        "comparisons of French with Scotch Whist, one per player count)."
    )
    # 2. Points per deal.
    ps, pf = result.estimate(s4.index, "deal_points"), result.estimate(f4.index, "deal_points")
    findings.append(
        f"The ten of diamonds adds about {fmt_num(pf.mean - ps.mean)} points per deal: {pts(pf, 'points', 'games')} "
        f"in French Whist against {pts(ps, 'points', 'games')} in Scotch Whist ({p4} players)."
    )
    # 3. Cards' share of points.
    cs, cf = result.estimate(s4.index, "cards_share"), result.estimate(f4.index, "cards_share")
    findings.append(
        f"Cards' share of all points {'falls' if cf.mean < cs.mean else 'rises'} from {pct(cs, 'games')} to "
        f"{pct(cf, 'games')} ({p4} players); by the rules the ten of diamonds scores as an honour, and cards "
        "are scored as before."
    )
    # 4. Who wins: the side ahead after the first deal.
    lw = [(p, diff(f, "first_leader_won")) for p, _, f in pairs]
    adj_l = holm([p_two_sided(e) for _, e in lw])
    changed = sum(a < 0.05 for a in adj_l)
    l4 = dict(lw)[p4]
    findings.append(
        f"The side ahead after the first deal wins {pct(share(result, f4, 'first_leader_won'), 'games')} of French "
        f"games against {fmt_num(100 * result.estimate(s4.index, 'first_leader_won').mean)}% of Scotch ones "
        f"({p4} players, a change of {_pp(l4)}); the change is told apart from 0 at {changed} of {len(lw)} player "
        f"counts (each adjusted for the {len(lw)} comparisons, one per player count)."
    )
    # 5. The count-out and the first dealer.
    u4 = diff(f4, "countout_upset")
    ds = share(result, s4, f"pos_won[{p4 - 1}]")
    df = share(result, f4, f"pos_won[{p4 - 1}]")
    findings.append(
        f"A side wins on the count-out order with fewer points than a rival in "
        f"{pct(share(result, f4, 'countout_upset'), 'games')} of French games ({p4} players; change {_pp(u4)}); "
        f"the first dealer's side wins {fmt_num(100 * df.mean)}% of French and {fmt_num(100 * ds.mean)}% of "
        f"Scotch games."
    )
    # Charts.
    xs = [p for p, _, _ in pairs]
    charts = [
        Chart(
            "deals-per-game",
            f"French Whist games are shorter: {fmt_num(result.estimate(f4.index, 'deals').mean)} deals against "
            f"{fmt_num(result.estimate(s4.index, 'deals').mean)} with {p4} players",
            "players",
            "deals per game to 41 (95% CI; smaller than the marks)",
            [
                line(
                    base.capitalize() + " Whist", xs, [result.estimate(s.index, "deals") for _, s, _ in pairs]
                ),
                line(
                    variant.capitalize() + " Whist",
                    xs,
                    [result.estimate(f.index, "deals") for _, _, f in pairs],
                ),
            ],
        ),
        Chart(
            "cards-share",
            f"Cards' share of the points falls from {100 * cs.mean:.0f}% to {100 * cf.mean:.0f}% ({p4} players)",
            "players",
            "points for cards: % of all points (95% CI, within the marks)",
            [
                line(
                    base.capitalize() + " Whist",
                    xs,
                    [result.estimate(s.index, "cards_share") for _, s, _ in pairs],
                    100,
                ),
                line(
                    variant.capitalize() + " Whist",
                    xs,
                    [result.estimate(f.index, "cards_share") for _, _, f in pairs],
                    100,
                ),
            ],
        ),
        Chart(
            "first-leader-change",
            f"The ten of diamonds changes how often the side ahead after the first deal wins by "
            f"{100 * l4.mean:+.1f} percentage points ({p4} players)",
            "players",
            "change: percentage points of games (95% CI)",
            [line("French minus Scotch, same deals", xs, [e for _, e in lw], 100)],
            zero_line=True,
        ),
    ]
    return Analysis(findings, from_run(result, charts), [])
