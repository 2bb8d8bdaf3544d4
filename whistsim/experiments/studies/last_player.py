"""The last player's windfall (experiments/last_player.toml): the points of the cards kept at the end,
and how often they decide the winner, by number of players and preset.

A study of Welsh Whist: it names the Welsh figures it reads: ``windfall`` (points the kept cards
added), ``windfall_decides`` (without them another seat would have scored more), ``last_keeps``,
``kept``, ``windfall_per_keep`` and the derived ``points_per_player``.
"""

from __future__ import annotations

import pandas as pd

from ...core.stats import Estimate, Share
from ..charts import from_run
from ..results import Analysis, Chart, ChartSeries, ExperimentResult, fmt_num, md_table
from ..spec import Cell, fmt_value
from ..tools import find_axis, group_label
from ._tools import est, pct


def analyse(result: ExperimentResult) -> Analysis:
    """How often the kept cards decide the winner, and what they are worth, per table size and preset."""
    spec = result.spec
    x = find_axis(spec, lambda a: a == "rules.players")
    if x is None:
        return Analysis(["(the last_player analysis needs a sweep of rules.players)"], [], [])
    cells = spec.cells
    share = {c.index: Share.of(result.estimate(c.index, "windfall_decides")) for c in cells}
    top = max(cells, key=lambda c: share[c.index].mean)
    low = min(cells, key=lambda c: share[c.index].mean)

    def where(c: Cell) -> str:
        g = group_label(spec, c, {x})
        return f"{fmt_value(c.value(x))} players" + (f" ({_equipment(g)})" if g != "all cells" else "")

    def windfall(c: Cell) -> Estimate:
        return result.estimate(c.index, "windfall")

    groups = list(dict.fromkeys(group_label(spec, c, {x}) for c in cells))
    findings = [
        f"The last player's kept cards decide the winner in up to {pct(share[top.index])} with {where(top)}, "
        f"and in as few as {pct(share[low.index])} with {where(low)}: without the kept cards' points another "
        f"seat would have scored more.",
    ]
    three = [c for c in cells if c.value(x) == 3]
    if three:
        findings.append(
            "With 3 players the kept cards decide the winner in "
            + " and ".join(
                f"{pct(share[c.index])} under {_equipment(group_label(spec, c, {x}))}" for c in three
            )
            + "."
        )
    w_top = max(cells, key=lambda c: windfall(c).mean)
    ppp = result.estimate(w_top.index, "points_per_player").mean
    wk = result.estimate(w_top.index, "windfall_per_keep")
    findings.append(
        f"The windfall is largest with {where(w_top)}: {est(windfall(w_top), 'points per game')}, "
        f"{fmt_num(100 * windfall(w_top).mean / ppp)}% of a player's fair share of the points; in the games "
        f"where cards are kept it is {fmt_num(wk.mean)} points (95% CI {fmt_num(wk.low)} to {fmt_num(wk.high)})."
    )
    most = max(c.value(x) for c in cells)
    big = [c for c in cells if c.value(x) == most]
    if len(big) > 1:
        findings.append(
            f"With {most} players the windfall is "
            + " against ".join(
                f"{est(windfall(c), 'points per game')} under {_equipment(group_label(spec, c, {x}))}"
                for c in big
            )  # fmt: skip
            + f", out of {' and '.join(fmt_num(result.estimate(c.index, 'points_per_player').mean) for c in big)} "
            "points per player."
        )
    keeps = {c.index: Share.of(result.estimate(c.index, "last_keeps")) for c in cells}
    k_top = max(cells, key=lambda c: keeps[c.index].mean)
    k_low = min(cells, key=lambda c: keeps[c.index].mean)
    findings.append(
        f"Someone is left holding cards in {pct(keeps[k_top.index])} with {where(k_top)}, "
        f"and in {pct(keeps[k_low.index])} with {where(k_low)}."
    )

    charts = [
        _lines(result, x, groups, "windfall_decides", "decides",
               f"The kept cards decide the winner most often with {where(top)} "
               f"({100 * share[top.index].mean:.1f}% of games) and least with {where(low)} "
               f"({100 * share[low.index].mean:.1f}%)",
               "kept cards decided the winner: % of games (95% CI)", 100.0, share=True),
        _lines(result, x, groups, "windfall", "windfall",
               f"The last player's windfall: up to {fmt_num(windfall(w_top).mean)} points "
               f"per game ({where(w_top)})", "points the kept cards added: points per game (95% CI)", 1.0),
        _lines(result, x, groups, "last_keeps", "keeps",
               f"Someone keeps cards at the end of at least {100 * keeps[k_low.index].mean:.1f}% of games, with "
               f"{where(k_low)}, and of {100 * keeps[k_top.index].mean:.1f}% with {where(k_top)}",
               "games ending with cards kept: % of games (95% CI)",
               100.0, share=True),
    ]  # fmt: skip
    rows = []
    for c in cells:
        w = result.estimate(c.index, "windfall")
        rows.append({"players": c.value(x), "equipment": _equipment(group_label(spec, c, {x})),
                     "cards kept": fmt_num(result.estimate(c.index, "kept").mean),
                     "windfall (points)": f"{fmt_num(w.mean)} [{fmt_num(w.low)}, {fmt_num(w.high)}]",
                     "points per player": fmt_num(result.estimate(c.index, "points_per_player").mean),
                     "decides the winner": f"{100 * share[c.index].mean:.1f}% [{100 * share[c.index].low:.1f}, "
                                           f"{100 * share[c.index].high:.1f}]",
                     "n": w.n})  # fmt: skip
    return Analysis(
        findings[:6],
        from_run(result, charts),
        [("Per table (95% intervals)", md_table(pd.DataFrame(rows)))],
    )


def _lines(result, x, groups, figure, name, title, ylabel, scale, share=False) -> Chart:
    spec = result.spec
    series = []
    for g in groups:
        s = ChartSeries(_equipment(g) if g != "all cells" else "", [], [], [], [])
        for c in spec.cells:
            if group_label(spec, c, {x}) != g:
                continue
            e = result.estimate(c.index, figure)
            e = Share.of(e) if share else e
            s.x.append(c.value(x))
            s.y.append(scale * e.mean)
            s.low.append(scale * e.low)
            s.high.append(scale * e.high)
        series.append(s)
    caption = "Error bars: 95% CIs" + (" (for a share of games)." if share else ".")
    return Chart(name, title, "number of players", ylabel, series, caption=caption)


def _equipment(group: str) -> str:
    """The preset a cell was played under, as its equipment: ``preset parlett`` -> ``Parlett's equipment``."""
    words = group.replace("=", " ").split()
    if words[:1] == ["preset"] and len(words) == 2:
        return {"parlett": "Parlett's equipment", "akagiri": "Akagiri 1995's equipment"}.get(words[1], group)
    return group
