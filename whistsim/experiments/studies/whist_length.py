"""How long a game of Whist lasts, and how often the side ahead after the first deal wins.

A study of Whist (experiments/whist_length.toml): games to 5, 7 and 10, with
and without honours, by heuristic and by random players on the same deals. It
names the Whist figures it reads: ``deals`` (with its histogram) and
``first_leader_won``.
"""

from __future__ import annotations

import math

from ...core.stats import Estimate, wilson
from ..charts import from_run, n_of
from ..results import Analysis, Chart, ChartSeries, ExperimentResult
from ._whist import find, num, pct, share

TARGET, HONOURS, PLAYERS = "rules.target", "rules.honours", "seats.all"


def quantile(hist: dict[int, int], q: float) -> int:
    """The smallest value with at least a share ``q`` of games at or below it."""
    total = sum(hist.values())
    run = 0
    for v in sorted(hist):
        run += hist[v]
        if run >= q * total:
            return v
    return max(hist)


def _series(label: str, points: list[tuple[int, Estimate]], scale: float = 1.0) -> ChartSeries:
    s = ChartSeries(label, [], [], [], [])
    for x, e in points:
        s.x.append(x)
        s.y.append(scale * e.mean)
        s.low.append(scale * e.low)
        s.high.append(scale * e.high)
    return s


def _change_verb(ds: list[Estimate]) -> str:
    """The verb for paired changes: lengthens only when every 95% interval is above 0, shortens when below."""
    if all(d.low > 0 for d in ds):
        return "lengthens"
    if all(d.high < 0 for d in ds):
        return "shortens"
    return "changes the length of"


def analyse(result: ExperimentResult) -> Analysis:
    """Deals per game and the first deal's leader's wins, by target, honours and players."""
    spec = result.spec
    targets = sorted({c.value(TARGET) for c in spec.cells if c.value(TARGET) is not None})
    players = [p for p in ("heuristic", "random") if any(c.value(PLAYERS) == p for c in spec.cells)]
    main = players[0] if players else None

    def cell(t, h, p):
        coords = {TARGET: t, HONOURS: h}
        if p is not None:
            coords[PLAYERS] = p
        return find(result, coords)

    findings: list[str] = []
    charts: list[Chart] = []
    long_, short = cell(10, True, main), cell(5, False, main)
    if long_ is not None and short is not None:
        findings.append(
            f"With {main} players a game of long whist (10 points, honours) lasts "
            f"{num(result.estimate(long_.index, 'deals'), 'deals')}, and short whist (5, no honours) "
            f"{num(result.estimate(short.index, 'deals'), 'deals')}."
        )
    leader = []
    for t in targets:
        c = cell(t, True, main)
        if c is not None:
            leader.append((t, share(result, c.index, "first_leader_won")))
    if leader:
        findings.append(
            f"The side ahead after the first deal wins (honours scored, {main} players; a level first deal counts half) "
            + ", ".join(pct(e, f"of games to {t}") for t, e in reversed(leader))
            + "."
        )  # fmt: skip
    spread = []
    for t in targets:
        c = cell(t, True, main)
        h = result.tally.hists[c.index].get("deals") if c is not None else None
        if h:
            spread.append(
                f"to {t}, half of games end within {quantile(h, 0.5)} deals and 90% within {quantile(h, 0.9)}"
            )
    if spread:
        findings.append(
            f"With honours and {main} players, " + "; ".join(spread) + f" (n={result.games:,} games each)."
        )
    honours, signs = [], []
    for t in targets:
        off = cell(t, False, main)
        d = result.difference(off.index, "deals", HONOURS) if off is not None else None
        if d is not None:
            honours.append(f"{num(d[0], 'deals')} to {t}")
            signs.append(d[0])
    if honours:
        findings.append(
            f"Leaving honours out {_change_verb(signs)} a game, on the same deals ({main} players), by "
            + ", ".join(reversed(honours)) + "."
        )  # fmt: skip
    if len(players) > 1:
        other = players[1]
        a, b = cell(10, True, main), cell(10, True, other)
        if a is not None and b is not None:
            findings.append(
                f"With {other} players on the same deals a game to 10 with honours lasts "
                f"{num(result.estimate(b.index, 'deals'), 'deals')}, and the first deal's leader wins "
                f"{pct(share(result, b.index, 'first_leader_won'), 'of them')}."
            )
    ss, ls = [], []
    for p in players or [None]:
        for h in (True, False):
            pts = [
                (t, result.estimate(c.index, "deals")) for t in targets if (c := cell(t, h, p)) is not None
            ]
            lab = f"{p} players, honours {'on' if h else 'off'}" if p else f"honours {'on' if h else 'off'}"
            if pts:
                ss.append(_series(lab, pts))
            lw = [
                (t, share(result, c.index, "first_leader_won"))
                for t in targets
                if (c := cell(t, h, p)) is not None
            ]
            if lw:
                ls.append(_series(lab, lw, 100.0))
    if ss and long_ is not None and short is not None:
        charts.append(Chart(
            "deals-per-game",
            f"Long whist (to 10 points, honours scored) lasts {result.estimate(long_.index, 'deals').mean:.1f} "
            f"deals, short whist (to 5, no honours) {result.estimate(short.index, 'deals').mean:.1f}; "
            + _honours_words(result, targets, cell, main),
            "game: points to win", "deals per game (95% CI, smaller than the marks)", ss,
        ))  # fmt: skip
    if ls and leader:
        charts.append(Chart(
            "first-deal-leader-wins",
            f"The side ahead after the first deal wins {100 * leader[-1][1].mean:.0f}% of games to {leader[-1][0]} "
            f"points and {100 * leader[0][1].mean:.0f}% to {leader[0][0]}",
            "game: points to win", "games won by the first deal's leader: % (95% CI)", ls,
        ))  # fmt: skip
    hs = []
    for t in targets:
        c = cell(t, True, main)
        h = result.tally.hists[c.index].get("deals") if c is not None else None
        if h:
            total = sum(h.values())
            xs = list(range(min(h), max(h) + 1))
            ci = [wilson(h.get(x, 0) / total, total) for x in xs]
            hs.append(ChartSeries(f"to {t} points", xs, [100 * h.get(x, 0) / total for x in xs],
                                  [100 * a for a, _ in ci], [100 * b for _, b in ci]))  # fmt: skip
    if len(hs) > 1:
        sd = [_sd(s) for s in hs]
        wide = "more" if sd[-1] > sd[0] else "fewer"
        charts.append(Chart(
            "deals-distribution",
            f"Games {hs[-1].label} spread over {wide} deals than games {hs[0].label} (standard deviation "
            f"{sd[-1]:.1f} deals against {sd[0]:.1f}; honours on)",
            "deals in the game", "% of games (95% CI, shaded)", hs, kind="hist", n=n_of(result, "a line"),
        ))  # fmt: skip
    return Analysis(findings, from_run(result, charts), [])


def _sd(s: ChartSeries) -> float:
    """The standard deviation of a distribution drawn as shares of games at each value."""
    total = sum(s.y) or 1.0
    mean = sum(x * y for x, y in zip(s.x, s.y, strict=True)) / total
    return math.sqrt(sum(y * (x - mean) ** 2 for x, y in zip(s.x, s.y, strict=True)) / total)


def _honours_words(result: ExperimentResult, targets: list, cell, main) -> str:
    """Whether leaving honours out lengthens the game at every target, from the cells drawn."""
    longer = [
        t for t in targets
        if (a := cell(t, False, main)) and (b := cell(t, True, main))
        and result.estimate(a.index, "deals").low > result.estimate(b.index, "deals").high
    ]  # fmt: skip
    if len(longer) == len(targets):
        return "without honours every game lasts longer"
    return f"without honours a game lasts longer at {len(longer)} of {len(targets)} targets"
