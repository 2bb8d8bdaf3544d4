"""How much does better play win? A ladder of strategies, each step one partnership against the last.

A study of the partnership games (experiments/skill_whist.toml,
skill_scotch.toml). Each step seats the stronger strategy on side 0 (seats 0
and 2, ``seats.side0``) against the weaker on side 1, and its baseline seats
the weaker strategy everywhere, on the same deals. With the first seat
rotating, side 0 of the all-weaker table wins half the games in expectation, so
the stronger side's win rate on paired deals is 50% plus its paired gain over
that table; its plain share of games won, with Wilson's interval, is given too.
It names the figure it reads: ``side_won[0]``.
"""

from __future__ import annotations

from ..charts import from_run
from ..results import Analysis, Chart, ChartSeries, ExperimentResult
from ..tools import find_axis, player_words
from ._whist import pct, share

WIN = "side_won[0]"


def analyse(result: ExperimentResult) -> Analysis:
    """Each step's win rate: plain (Wilson) and on paired deals (50% + the gain over the weaker table)."""
    spec = result.spec
    axis = find_axis(spec, lambda a: a.startswith("seats.side"))
    if axis is None:
        return Analysis(["(the skill study needs a swept seats.sideN player with a baseline)"], [], [])
    steps = []
    for j, p in enumerate(spec.pairs):
        if p.axis != axis:
            continue
        strong = spec.cells[p.cell].value(axis)
        weak = spec.cells[p.base].value(axis)
        gain = result.tally.paired[j].estimate(WIN)
        steps.append((player_words(str(weak)), player_words(str(strong)), share(result, p.cell, WIN), gain))
    if not steps:
        return Analysis(["(no step of the ladder has a baseline on the same deals)"], [], [])
    game = "Whist" if spec.game == "whist" else "Scotch Whist"
    findings = []
    for weak, strong, plain, gain in steps:
        w = 0.5 + gain.mean
        lo, hi = 0.5 + gain.low, 0.5 + gain.high
        verb = "beats" if lo > 0.5 else "loses to" if hi < 0.5 else "is not told apart from"
        findings.append(
            f"At {game} a {strong} partnership {verb} a {weak} one, winning {100 * w:.1f}% of games on paired deals "
            f"(95% CI {100 * lo:.1f}–{100 * hi:.1f}%, CI width {100 * (hi - lo):.1f} points, n={gain.n:,} games); "
            f"its plain share of games won is {pct(plain)}, CI width {100 * (plain.high - plain.low):.1f} points."
        )
    top = max(steps, key=lambda s: 0.5 + s[3].mean)
    s_dup = ChartSeries("on paired deals: 50% + gain over the weaker table", [], [], [], [])
    s_plain = ChartSeries("share of games won", [], [], [], [])
    for weak, strong, plain, gain in steps:
        x = f"{strong} vs {weak}"
        s_dup.x.append(x)
        s_dup.y.append(100 * (0.5 + gain.mean))
        s_dup.low.append(100 * (0.5 + gain.low))
        s_dup.high.append(100 * (0.5 + gain.high))
        s_plain.x.append(x)
        s_plain.y.append(100 * plain.mean)
        s_plain.low.append(100 * plain.low)
        s_plain.high.append(100 * plain.high)
    chart = Chart(
        "ladder",
        f"{game}: "
        + ("every step up the ladder wins more than half its games"
           if all(0.5 + g.low > 0.5 for *_, g in steps) else "not every step up the ladder clearly wins")
        + f"; {top[1]} over {top[0]} wins {100 * (0.5 + top[3].mean):.0f}% (n={top[3].n:,} games a step)",
        "step: stronger partnership vs weaker", "games won by the stronger side: % (95% CI)",
        [s_dup, s_plain], kind="bars", categorical=True,
    )  # fmt: skip
    return Analysis(findings, from_run(result, [chart]), [])
