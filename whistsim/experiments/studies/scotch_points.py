"""Cards against honours in Scotch Whist: what share of the points comes from cards, by number of players.

A study of Scotch Whist played one deal at a time (experiments/scotch_points.toml): it
reads ``cards_share`` (points for cards over all points, a ratio of means),
``card_points`` and ``honour_points``, and the distribution of ``cards_top`` (the most
one side scored for cards in the deal) for how often a side scores 10 or more.
"""

from __future__ import annotations

from ...core.stats import Estimate, Share, holm, p_two_sided
from ..charts import from_run
from ..results import Analysis, Chart, ExperimentResult, fmt_num
from ..tools import axis_values
from ._scotch import cells_where, line, pct, pts

PLAYERS, SEATS = "rules.players", "seats.all"
BOOK = "heuristic"
HIGH = 10  # as much as the Ten is worth


def _cell(result: ExperimentResult, p: int, s: str):
    found = cells_where(result, rules__players=p, seats__all=s)
    return found[0] if found else None


def _high(result: ExperimentResult, cell) -> Share:
    """The share of deals in which one side scores HIGH or more for cards (from the histogram)."""
    h = result.tally.hists[cell.index].get("cards_top", {})
    n = sum(h.values())
    k = sum(c for v, c in h.items() if v >= HIGH)
    m = k / n if n else float("nan")
    return Share(m, (m * (1 - m)) ** 0.5 if n else float("nan"), n)


def analyse(result: ExperimentResult) -> Analysis:
    spec = result.spec
    if PLAYERS not in spec.axes:
        return Analysis(["(the scotch_points analysis needs a sweep over rules.players)"], [], [])
    counts = sorted(axis_values(spec, PLAYERS))
    strategies = [str(s) for s in axis_values(spec, SEATS)] if SEATS in spec.axes else [""]
    main = BOOK if BOOK in strategies else strategies[-1]
    cells = [(p, c) for p in counts if (c := _cell(result, p, main))]
    findings: list[str] = []
    shares = [(p, c, result.estimate(c.index, "cards_share")) for p, c in cells]
    four = next((t for t in shares if t[0] == 4), shares[0])
    lo = min(shares, key=lambda t: t[2].mean)
    hi = max(shares, key=lambda t: t[2].mean)
    findings.append(
        f"Cards give {pct(four[2])} of all points with {four[0]} {main} players; the rest are the honours' 30. "
        f"The share is smallest with {lo[0]} players, {pct(lo[2])}, and largest with {hi[0]}, {pct(hi[2])}."
    )
    highs = [(p, c, _high(result, c)) for p, c in cells]
    h4 = next((t for t in highs if t[0] == 4), highs[0])
    hh = max(highs, key=lambda t: t[2].mean)
    findings.append(
        f"One side scores {HIGH} or more for cards, as much as the Ten, in {pct(h4[2])} with {h4[0]} players and "
        f"in {pct(hh[2])} with {hh[0]} players, the most."
    )
    cp = result.estimate(four[1].index, "card_points")
    hp = result.estimate(four[1].index, "honour_points")
    findings.append(
        f"Per deal all sides together score {pts(cp, 'points for cards')} and {fmt_num(hp.mean)} for honours "
        f"({four[0]} players)."
    )
    # Does the share change from one player count to the next? Holm over the steps.
    steps = []
    for (p1, _, a), (p2, _, b) in zip(shares, shares[1:], strict=False):
        d = Estimate(b.mean - a.mean, ((a.sd**2 + b.sd**2) ** 0.5), min(a.n, b.n))  # independent cells
        steps.append((p1, p2, d))
    if steps:
        adj = holm([p_two_sided(d) for _, _, d in steps])
        ups = [f"{p1}→{p2}" for (p1, p2, d), a in zip(steps, adj, strict=True) if d.mean > 0 and a < 0.05]
        downs = [f"{p1}→{p2}" for (p1, p2, d), a in zip(steps, adj, strict=True) if d.mean < 0 and a < 0.05]
        p1, p2, d = max(steps, key=lambda t: abs(t[2].mean))
        # "It follows the sides" only when every step from 3 players on goes clearly the sides' way.
        solo = {p for p, c, _ in shares if c.rules.n_teams == p}
        sided = [(a_, b_) for a_, b_, _ in steps if a_ >= 3 and (a_ in solo) != (b_ in solo)]
        follows = (
            bool(sided)
            and len(sided) == sum(1 for a_, _, _ in steps if a_ >= 3)
            and all((f"{a_}→{b_}" in downs) if a_ in solo else (f"{a_}→{b_}" in ups) for a_, b_ in sided)
        )
        alone = ", ".join(str(p) for p in sorted(solo) if p >= 3)
        pairs_ = ", ".join(str(p) for p, _, _ in shares if p >= 3 and p not in solo)
        tail = (f": from 3 players on it follows the sides, higher when each plays alone ({alone}) than in "
                f"partnerships ({pairs_})" if follows else "")  # fmt: skip
        findings.append(
            f"The largest step is from {p1} to {p2} players, {100 * d.mean:+.1f} percentage points (95% CI "
            f"{100 * d.low:+.1f} to {100 * d.high:+.1f}, not adjusted, n={d.n:,} deals each); cards' share rises "
            f"at {len(ups)} steps ({', '.join(ups) or 'none'}) and falls at {len(downs)} "
            f"({', '.join(downs) or 'none'}) of {len(steps)} (each adjusted for the {len(steps)} comparisons of "
            f"one player count with the next){tail}."
        )
    other = [s for s in strategies if s != main]
    if other:
        c = _cell(result, four[0], other[0])
        if c is not None:
            findings.append(
                f"With {other[0]} players cards give {pct(result.estimate(c.index, 'cards_share'))} of the points "
                f"({four[0]} players)."
            )
    charts = []
    ss = []
    for s in strategies:
        rows = [(p, result.estimate(c.index, "cards_share")) for p in counts if (c := _cell(result, p, s))]
        ss.append(line(f"{s} players", [p for p, _ in rows], [e for _, e in rows], 100))
    charts.append(
        Chart(
            "cards-share",
            f"Cards give the largest share of the points with {hi[0]} players ({100 * hi[2].mean:.0f}%) and the "
            f"smallest with {lo[0]} ({100 * lo[2].mean:.0f}%), {main} players; honours the rest",
            "players",
            "points for cards: % of all points (95% CI, within the marks)",
            ss,
        )
    )
    ss = []
    for s in strategies:
        rows = [(p, _high(result, c)) for p in counts if (c := _cell(result, p, s))]
        ss.append(line(f"{s} players", [p for p, _ in rows], [e for _, e in rows], 100))
    charts.append(
        Chart(
            "cards-ten-or-more",
            f"A side scores {HIGH} or more for cards in up to {100 * hh[2].mean:.0f}% of deals ({hh[0]} {main} players)",
            "players",
            f"% of deals in which one side scores {HIGH}+ for cards (95% CI)",
            ss,
        )
    )
    return Analysis(findings, from_run(result, charts), [])
