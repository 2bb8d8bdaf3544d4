"""The dealer's and every seat's advantage in Scotch Whist, per deal and per game, and the count-out.

A study of Scotch Whist games to the target (experiments/scotch_seats.toml): it reads
``deal_edge[k]`` (the points the side of turn position k scored in the game's first
deal above the average side's; position 0 is the elder hand, the last the dealer),
``pos_won[k]`` (that side won the game), ``counted_out`` and ``countout_upset``.
A side's fair share of games is one over the number of sides.
"""

from __future__ import annotations

from ...core.stats import Estimate, holm, p_two_sided
from ..charts import from_run, players_of
from ..results import Analysis, Chart, ExperimentResult, fmt_num
from ..tools import axis_values, player_words
from ._scotch import cells_where, line, pct, pts, share

PLAYERS, SEATS = "rules.players", "seats.all"
BOOK = "heuristic"


class _Shifted(Estimate):
    """A share minus a constant (a fair share), with the share's Wilson bounds shifted."""

    def __init__(self, e: Estimate, by: float):
        super().__init__(e.mean - by, e.sd, e.n)
        self._e, self._by = e, by

    @property
    def low(self) -> float:
        return self._e.low - self._by

    @property
    def high(self) -> float:
        return self._e.high - self._by


def _cell(result: ExperimentResult, p: int, s: str):
    found = cells_where(result, rules__players=p, seats__all=s)
    return found[0] if found else None


def _sides(cell) -> int:
    return cell.rules.n_teams


def analyse(result: ExperimentResult) -> Analysis:
    spec = result.spec
    if PLAYERS not in spec.axes:
        return Analysis(["(the scotch_seats analysis needs a sweep over rules.players)"], [], [])
    counts = sorted(axis_values(spec, PLAYERS))
    strategies = [str(s) for s in axis_values(spec, SEATS)] if SEATS in spec.axes else [""]
    main = BOOK if BOOK in strategies else strategies[-1]
    findings: list[str] = []
    charts: list[Chart] = []
    cells = [(p, c) for p in counts if (c := _cell(result, p, main))]

    # 1. The dealer per deal (Holm over the player counts).
    dealer = [(p, c, result.estimate(c.index, f"deal_edge[{p - 1}]")) for p, c in cells]
    adj = holm([p_two_sided(e) for _, _, e in dealer])
    ahead = [p for (p, _, e), a in zip(dealer, adj, strict=True) if e.mean > 0 and a < 0.05]
    behind = [p for (p, _, e), a in zip(dealer, adj, strict=True) if e.mean < 0 and a < 0.05]
    four = next((t for t in dealer if t[0] == 4), dealer[0])
    per_side = result.estimate(four[1].index, "deal_points").mean / _sides(four[1])
    findings.append(
        f"Per deal the dealer's side scores {pts(four[2], 'points', signed=True)} above the average side with "
        f"{four[0]} {main} players ({fmt_num(100 * four[2].mean / per_side)}% of an average side's "
        f"{fmt_num(per_side)} points); the dealer's side is ahead at {len(ahead)} and behind at {len(behind)} of "
        f"{len(dealer)} player counts (each adjusted for the {len(dealer)} comparisons of the dealer's side with "
        "the average side, one per player count)."
    )
    # 2. Every seat per deal: the best and worst position at each count.
    best_rows = []
    for p, c in cells:
        ests = [result.estimate(c.index, f"deal_edge[{k}]") for k in range(p)]
        best_rows.append(
            (p, max(range(p), key=lambda k: ests[k].mean), min(range(p), key=lambda k: ests[k].mean), ests)
        )
    # Partners score alike: the dealer's seat is best when no seat's side scores more (ties included).
    dealer_best = sum(ests[p - 1].mean >= ests[b].mean - 1e-9 for p, b, _, ests in best_rows)
    elder_worst = sum(ests[0].mean <= ests[w].mean + 1e-9 for p, _, w, ests in best_rows)
    big = max(dealer, key=lambda t: t[2].mean)
    findings.append(
        f"By the average points per deal, the dealer's seat is the best placed (with its partners) at {dealer_best} of {len(best_rows)} "
        f"player counts and the elder hand's the worst at {elder_worst}; the dealer's edge is largest with {big[0]} players, "
        f"{pts(big[2], 'points per deal', signed=True)}."
    )
    # 3. Per game to the target: the side of the first deal's dealer (Holm over the counts).
    games = []
    for p, c in cells:
        fair = 1 / _sides(c)
        e = share(result, c, f"pos_won[{p - 1}]")
        games.append((p, c, _Shifted(e, fair), e, fair))
    adj_g = holm([p_two_sided(e, fair) for _, _, _, e, fair in games])
    more = [p for (p, _, d, _, _), a in zip(games, adj_g, strict=True) if d.mean > 0 and a < 0.05]
    g4 = next((t for t in games if t[0] == 4), games[0])
    findings.append(
        f"Over a whole game to {four[1].rules.target}, the side that deals first wins {pct(g4[3], 'games')} with "
        f"{g4[0]} {main} players against a fair {fmt_num(100 * g4[4])}%; it wins clearly more than its fair share "
        f"at {len(more)} of {len(games)} player counts (each adjusted for the {len(games)} comparisons of the first "
        "dealer's side with its fair share, one per player count)."
    )
    # 4. The count-out.
    ups = [(p, share(result, c, "countout_upset"), share(result, c, "counted_out")) for p, c in cells]
    u4 = next((t for t in ups if t[0] == 4), ups[0])
    hi = max(ups, key=lambda t: t[1].mean)
    findings.append(
        f"The count-out order gives the game to a side that finishes with fewer points than a rival in "
        f"{pct(u4[1], 'games')} with {u4[0]} players ({fmt_num(100 * u4[2].mean)}% of games end with two sides "
        f"past the target), and in {pct(hi[1], 'games')} with {hi[0]} players, the most."
    )
    # 5. Random play, for the size of the structural edge.
    other = [s for s in strategies if s != main]
    if other:
        rnd = [(p, c) for p in counts if (c := _cell(result, p, other[0]))]
        r4 = next(((p, c) for p, c in rnd if p == 4), rnd[0])
        e = result.estimate(r4[1].index, f"deal_edge[{r4[0] - 1}]")
        where = "ahead" if e.low > 0 else "behind" if e.high < 0 else "not told apart from the average side"
        findings.append(
            f"With {other[0]} players the dealer's side edge per deal is {pts(e, 'points', signed=True)} "
            f"({r4[0]} players): with every card played at random the dealer's side is {where}."
        )
    # Charts.
    who = players_of([s for _, c in cells for s in c.players]) + " at every seat"
    ss = []
    for s in strategies:
        rows = [
            (p, result.estimate(c.index, f"deal_edge[{p - 1}]")) for p in counts if (c := _cell(result, p, s))
        ]
        ss.append(line(f"{player_words(s)} players", [p for p, _ in rows], [e for _, e in rows]))
    charts.append(Chart(
        "dealer-edge-per-deal",
        f"The dealer's side scores up to {fmt_num(big[2].mean)} points per deal above the average side "
        f"({player_words(main)} players, {big[0]} at the table)",
        "players", "dealer's side: points per deal above average (95% CI)", ss, zero_line=True,
    ))  # fmt: skip
    ss = [line(f"{p} players", list(range(1, p + 1)), ests) for p, _, _, ests in best_rows]
    charts.append(Chart(
        "seat-edge-per-deal",
        f"Per deal the dealer's seat is best placed at {dealer_best} of {len(best_rows)} player counts "
        f"({player_words(main)} players)",
        "turn position in the deal (1 = elder hand; the last is the dealer)",
        "side's points per deal above the average side (95% CI)", ss, zero_line=True, panels=True,
        players=who,
    ))  # fmt: skip
    ss = []
    for p, c in cells:
        fair = 1 / _sides(c)
        ss.append(line(f"{p} players", list(range(1, p + 1)),
                       [_Shifted(share(result, c, f"pos_won[{k}]"), fair) for k in range(p)], 100))  # fmt: skip
    tp, tk, te = max(
        (
            (p, k, _Shifted(share(result, c, f"pos_won[{k}]"), 1 / _sides(c)))
            for p, c in cells
            for k in range(p)
        ),
        key=lambda t: t[2].mean,
    )
    charts.append(Chart(
        "seat-wins-per-game",
        f"Over a game to 41 the best placed seat of all (largest over seats and player counts) wins "
        f"{100 * te.mean:.1f} percentage points above its fair share (position {tk + 1}, {tp} "
        f"{player_words(main)} players)",
        "turn position in the game's first deal (1 = elder hand; the last is the dealer)",
        "games won minus a fair share: percentage points (95% CI)", ss, zero_line=True, panels=True,
        players=who,
    ))  # fmt: skip
    ss = [
        line("winner had fewer points than a rival", [p for p, _, _ in ups], [u for _, u, _ in ups], 100),
        line(
            "two sides past the target in the last deal", [p for p, _, _ in ups], [c for _, _, c in ups], 100
        ),
    ]
    charts.append(Chart(
        "count-out",
        f"The count-out order overturns the final totals in up to {100 * hi[1].mean:.1f}% of games "
        f"({hi[0]} {player_words(main)} players)",
        "players", "% of games (95% CI, within the marks)", ss,
        players=who,
    ))  # fmt: skip
    return Analysis(findings, from_run(result, charts), [])
