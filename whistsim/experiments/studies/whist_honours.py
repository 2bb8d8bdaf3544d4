"""Honours in Whist: their share of the points, how often they score, how often they decide the game.

A study of Whist (experiments/whist_honours.toml): the same deals are played
to 5, 7 and 10 with honours scored and not. Because the players never look at
the score, every deal is played alike under both rules, so the games differ only
in their scores: the share of games whose winner changes when honours are
turned off is the share that honours decided. It names the Whist figures it
reads: ``side_won[0]``, ``honours_share``, ``honours_scored``,
``won_on_honours`` and ``deals``.
"""

from __future__ import annotations

from math import comb

from ..charts import from_run
from ..results import Analysis, Chart, ExperimentResult
from ._whist import changed, find, num, pct, pct_series, share, span

TARGET, HONOURS = "rules.target", "rules.honours"


def dealt_honours() -> float:
    """The chance that a side is dealt three or four of the four honours (either side scores)."""
    one = (comb(4, 3) * comb(48, 23) + comb(48, 22)) / comb(52, 26)
    return 2 * one


def analyse(result: ExperimentResult) -> Analysis:
    """The winner changed by honours, their share of the points and how often they score, per target."""
    spec = result.spec
    targets = sorted({c.value(TARGET) for c in spec.cells if c.value(TARGET) is not None})
    rows = []
    for t in targets:
        on, off = find(result, {TARGET: t, HONOURS: True}), find(result, {TARGET: t, HONOURS: False})
        if on is None or off is None:
            continue
        rows.append((t, on, off, changed(result, off.index, "side_won[0]")))
    if not rows:
        return Analysis(["(the honours study needs cells with honours on and off at each target)"], [], [])
    findings: list[str] = []
    decided = [(t, ch) for t, _, _, ch in rows if ch is not None]
    if decided:
        parts = [
            pct(ch, f"of games to {t}" if k == 0 else f"to {t}")
            for k, (t, ch) in enumerate(reversed(decided))
        ]
        findings.append(
            "Honours decide the winner of "
            + ", ".join(parts)
            + ": on the same deals, played alike, the other side wins when honours are not scored."
        )  # fmt: skip
    needed = [(t, share(result, on.index, "won_on_honours")) for t, on, _, _ in rows]
    findings.append(
        "The winners needed their honours to reach the target when they did in "
        + ", ".join(pct(e, f"of games to {t}") for t, e in reversed(needed))
        + " (their score less their honours fell short)."
    )  # fmt: skip
    hs = [(t, result.estimate(on.index, "honours_share")) for t, on, _, _ in rows]
    findings.append(
        "Honours make up "
        + ", ".join(pct(e, f"of the points of a game to {t}") for t, e in reversed(hs))
        + " (each game's honours over its points, averaged over games)."
    )  # fmt: skip
    scored = [(t, share(result, on.index, "honours_scored")) for t, on, _, _ in rows]
    findings.append(
        f"A side is dealt three or four honours, and scores them, in {100 * dealt_honours():.1f}% of deals "
        "(exact, by counting the deals); over a whole game some side scores honours in "
        + ", ".join(pct(e, f"of games to {t}") for t, e in reversed(scored))
        + "."
    )
    length, ds = [], []
    for t, _on, off, _ in rows:
        d = result.difference(off.index, "deals", HONOURS)
        if d is not None:
            length.append(f"{num(d[0], 'deals more')} to {t}")
            ds.append(d[0])
    if length:
        # "longer" only when every paired change is clearly above 0.
        how = ("lasts longer" if all(d.low > 0 for d in ds) else "is shorter" if all(d.high < 0 for d in ds)
               else "changes in length")  # fmt: skip
        findings.append(
            f"Without honours a game {how} on the same deals: " + ", ".join(reversed(length)) + "."
        )
    charts = []
    if decided:
        charts.append(Chart(
            "honours-decide-the-winner",
            f"Honours decide the winner of {span([e.mean for _, e in decided])} of games "
            f"(n={decided[0][1].n:,} paired games per target"
            + ("; CIs as small as the bars' caps)" if max(e.half_width for _, e in decided) < 0.005 else ")"),
            "game: points to win", "games whose winner changes without honours: % (95% CI)",
            [pct_series("honours on against off, same deals", decided)], kind="bars", categorical=True,
        ))  # fmt: skip
    both = [pct_series("won on honours (score less honours short of the target)", needed),
            pct_series("honours' share of all points", hs)]  # fmt: skip
    charts.append(Chart(
        "honours-share-and-need",
        f"Honours are {span([e.mean for _, e in hs])} of the points, and the winners needed them to reach the target "
        f"when they did in {span([e.mean for _, e in needed])} of games",
        "game: points to win", "% (95% CI)", both, kind="bars", categorical=True,
    ))  # fmt: skip
    return Analysis(findings, from_run(result, charts), [])
