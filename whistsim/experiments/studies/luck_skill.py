"""Luck against skill: how much of a deal's margin the cards decide, how much the play.

A study of single deals of Whist and Scotch Whist with 4 players
(experiments/luck_skill.toml: a ``game`` axis, each game with its rule
variants, every player strength). Its own measure (``measure = "luck_skill"``)
gives four figures a deal: ``par``, side 0's open-hand margin in the deal's
points, both sides playing the cards open and best (whistsim.solver.luck);
``actual``, the margin scored; ``play`` = actual - par; ``abs_play``, its
size. Par is solved once per deal in a process (the same deal under every
strength, and in Whist under both variants: its tricks are the cards' alone).

The share of the margin's variance that par explains (R², the squared
correlation) is read from the exact sums of par, actual and play: the sum of
products is (Σpar² + Σactual² - Σplay²) / 2, so no co-moment is kept apart.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from ..results import Analysis, Chart, ChartSeries, ExperimentResult, md_table
from ..spec import Cell, Spec

RECORDS = True  # the measure reads every game's record (the solver takes a deal as a record)
FIGURES = ("par", "actual", "play", "abs_play")
# Each figure's meaning and unit, for the report's list of figures.
FIGURE_WORDS = {
    "par": ("side 0's margin when every hand is open and both sides play their best", "points a deal"),
    "actual": ("side 0's margin as played (its points in the deal less side 1's)", "points a deal"),
    "play": ("the margin as played less its open-hand value", "points a deal"),
    "abs_play": ("the size of that difference, either way", "points a deal"),
}
_SOLVED: dict[str, dict] = {}  # the solver's answers in this process, by deal (whistsim.solver.luck._key)
_KEEP = 100_000  # deals kept at most: a run's chunks need only their own


def measure(spec: Spec, cell: Cell, batch: Any, records: list[dict] | None) -> dict[str, np.ndarray]:
    """Per deal: par, the margin scored, the play (their difference) and its size."""
    from ...solver.luck import _margin, pars

    recs = records or []
    if len(_SOLVED) > _KEEP:
        _SOLVED.clear()
    par = np.asarray(pars(recs, _SOLVED), np.int64)
    actual = np.asarray([_margin(r["result"]) for r in recs], np.int64)
    play = actual - par
    return {"par": par, "actual": actual, "play": play, "abs_play": np.abs(play)}


# ---- the cells in words ------------------------------------------------------------------

STRENGTHS = ("random", "heuristic", "pimc", "pimc (side 0) vs heuristic")
VARIANTS = {"whist": ("honours", "no honours"), "scotch": ("scotch", "french")}
GAME_NAMES = {"whist": "Whist", "scotch": "Scotch Whist"}
VARIANT_NAMES = {"honours": "honours scored", "no honours": "no honours", "scotch": "Scotch rules",
                 "french": "French (ten of diamonds)"}  # fmt: skip
SHORT_NAMES = {"honours": "Whist, honours", "no honours": "Whist, no honours", "scotch": "Scotch",
               "french": "Scotch, French"}  # fmt: skip
# The players of a cell in the findings' words (docs/reports.md#how-to-read-this).
PLAYER_PHRASES = {"random": "four random players", "heuristic": "four rule-based players (heuristic)",
                  "pimc": "four players who search sampled deals"}  # fmt: skip
STRENGTH_WORDS = {"random": "random", "heuristic": "rule-based (heuristic)", "pimc": "sampling search",
                  "pimc (side 0) vs heuristic": "sampling search (side 0) against rule-based"}  # fmt: skip
PLAYERS_WORDS = ("random players, rule-based players (heuristic) and players who search sampled deals, the same "
                 "strength at every seat except in the last bar (one side of each)")  # fmt: skip
OPEN_HAND = (
    "the open-hand value of their cards (what the deal is worth to a side when every hand is open and both "
    "sides play their best)"
)


def variant(spec: Spec, cell: Cell) -> str:
    """The cell's rule variant: Whist with or without honours, Scotch or French rules."""
    if spec.game_of(cell) == "whist":
        return "honours" if cell.rules.honours else "no honours"
    return "french" if cell.rules.french else "scotch"


def strength(cell: Cell) -> str:
    """The players: one strength at every seat, or side 0's against side 1's."""
    seats = list(cell.players)
    if len(set(seats)) == 1:
        return seats[0]
    return f"{seats[0]} (side 0) vs {seats[1]}"


# ---- the split ---------------------------------------------------------------------------


def split(result: ExperimentResult, cell: int) -> dict[str, Any]:
    """The luck/skill split of a cell, each figure with its 95% CI: the cards' share of the margin's
    variance (R², Fisher's z interval), the play's, and the means of par, actual, play and its size."""
    m = result.tally.cells[cell]
    n = m.n["par"]
    out: dict[str, Any] = {"n": n}
    sp, spp, sa, saa, sdd = (Fraction(x) for x in (m.s1["par"], m.s2["par"], m.s1["actual"], m.s2["actual"],
                                                    m.s2["play"]))  # fmt: skip
    spa = (spp + saa - sdd) / 2
    cpp, caa, cpa = spp - sp * sp / n, saa - sa * sa / n, spa - sp * sa / n
    r = float(cpa) / math.sqrt(float(cpp) * float(caa)) if n > 3 and cpp > 0 and caa > 0 else math.nan
    if math.isfinite(r) and abs(r) < 1 - 1e-12:
        z, se = math.atanh(r), 1 / math.sqrt(n - 3)
        lo, hi = math.tanh(z - 1.96 * se), math.tanh(z + 1.96 * se)
        r2 = (r * r, 0.0 if lo < 0 < hi else min(lo * lo, hi * hi), max(lo * lo, hi * hi))
    elif math.isfinite(r):  # an exact line: the cards decide all of it
        r2 = (1.0, 1.0, 1.0)
    else:
        r2 = (r * r, math.nan, math.nan)
    out["cards_share"] = r2
    out["play_share"] = (1 - r2[0], 1 - r2[2], 1 - r2[1])
    for name in FIGURES:
        e = result.estimate(cell, name)
        out[name] = (e.mean, e.low, e.high)
    out["sd_par"] = result.estimate(cell, "par").sd
    out["sd_play"] = result.estimate(cell, "play").sd
    return out


def table(result: ExperimentResult) -> dict[tuple[str, str, str], dict[str, Any]]:
    """Every cell's split by (game, variant, players)."""
    spec = result.spec
    rows = {(spec.game_of(c), variant(spec, c), strength(c)): split(result, c.index) for c in spec.cells}
    order = [(g, v, s) for g, vs in VARIANTS.items() for v in vs for s in STRENGTHS]
    return dict(sorted(rows.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else len(order)))


def _fmt(t: tuple[float, float, float], pct: bool = False) -> str:
    if pct:
        return f"{100 * t[0]:.1f}% [{100 * t[1]:.1f}, {100 * t[2]:.1f}]"
    return f"{t[0]:+.2f} [{t[1]:+.2f}, {t[2]:+.2f}]"


def _pct(t: tuple[float, float, float]) -> str:
    return f"{100 * t[0]:.1f}% (95% CI {100 * t[1]:.1f}–{100 * t[2]:.1f}%"


def _pts(t: tuple[float, float, float]) -> str:
    return f"{t[0]:+.2f} points a deal (95% CI {t[1]:+.2f} to {t[2]:+.2f}"


def _than(a: dict, b: dict) -> str:
    """``a``'s cards' share against ``b``'s in words: more or less only when their 95% CIs do not
    overlap (a conservative test of the difference)."""
    x, y = a["cards_share"], b["cards_share"]
    word = "more than" if x[1] > y[2] else "less than" if x[2] < y[1] else "not clearly different from"
    return f"{word} the {100 * y[0]:.1f}% (95% CI {100 * y[1]:.1f}–{100 * y[2]:.1f}%)"


def _beside(rows: list[dict]) -> str:
    """How the play's mean stands to the open-hand value in every row at once: more or less only when each
    row's 95% CI lies wholly on that side of 0."""
    if all(r["play"][1] > 0 for r in rows):
        return "more than"
    if all(r["play"][2] < 0 for r in rows):
        return "less than"
    return "not clearly more or less than"


def findings(t: dict) -> list[str]:
    """At most six sentences, most important first, each with its figure, 95% CI and n."""
    out = []
    for game, var in (("whist", "honours"), ("scotch", "scotch")):
        r = t[(game, var, "heuristic")]
        out.append(
            f"In {GAME_NAMES[game]} ({VARIANT_NAMES[var]}) between {PLAYER_PHRASES['heuristic']} the cards "
            f"explain {_pct(r['cards_share'])}, n={r['n']:,} deals) of the variation in a deal's margin (side "
            f"0's points less side 1's); the play explains the rest."
        )
    w0, w1 = t[("whist", "honours", "heuristic")], t[("whist", "no honours", "heuristic")]
    out.append(
        f"Without honours (which are dealt, not played for) the cards explain {_pct(w1['cards_share'])}, "
        f"n={w1['n']:,} deals) of the variation in a Whist deal's margin between {PLAYER_PHRASES['heuristic']}: "
        f"{_than(w1, w0)} with them."
    )
    s0, s1 = t[("scotch", "scotch", "pimc")], t[("scotch", "french", "pimc")]
    out.append(
        f"With the French ten of diamonds (won in play) the cards explain {_pct(s1['cards_share'])}, "
        f"n={s1['n']:,} deals) of the variation in a Scotch Whist deal's margin between "
        f"{PLAYER_PHRASES['pimc']}: {_than(s1, s0)} under Scotch rules."
    )
    rw, hw = t[("whist", "honours", "random")], t[("whist", "honours", "heuristic")]
    out.append(
        f"Between {PLAYER_PHRASES['random']} the cards explain {_pct(rw['cards_share'])}, n={rw['n']:,} deals) "
        f"of the variation in a Whist deal's margin (honours scored): {_than(rw, hw)} between "
        f"{PLAYER_PHRASES['heuristic']}."
    )
    pw = t[("whist", "honours", "pimc (side 0) vs heuristic")]
    ps = t[("scotch", "scotch", "pimc (side 0) vs heuristic")]
    out.append(
        f"Players who search sampled deals, against rule-based players (heuristic), score {_beside([pw, ps])} "
        f"{OPEN_HAND}: {_pts(pw['play'])}, n={pw['n']:,} deals) in Whist and {_pts(ps['play'])}, "
        f"n={ps['n']:,} deals) in Scotch Whist."
    )
    return out


def split_table(t: dict) -> str:
    """The split as a table in words (95% CIs in brackets)."""
    import pandas as pd

    rows = []
    for (game, var, players), r in t.items():
        rows.append({
            "game": GAME_NAMES[game], "rules": VARIANT_NAMES[var], "players": STRENGTH_WORDS[players],
            "n (deals)": r["n"], "share of the margin's variation the cards explain": _fmt(r["cards_share"], True),
            "share left to the play": _fmt(r["play_share"], True),
            "side 0's margin above its open-hand value (points a deal)": _fmt(r["play"]),
            "size of that difference, either way (points a deal)": _fmt(r["abs_play"]),
            "spread of the open-hand value (SD, points)": f"{r['sd_par']:.2f}",
            "spread of the play (SD, points)": f"{r['sd_play']:.2f}",
        })  # fmt: skip
    return md_table(pd.DataFrame(rows))


def charts(t: dict) -> list[Chart]:
    """The study's charts, as data; each title computed from what it shows."""
    out = []
    for game, variants in VARIANTS.items():
        series = []
        for var in variants:
            rows = [t[(game, var, s)] for s in STRENGTHS]
            series.append(ChartSeries(
                label=VARIANT_NAMES[var], x=[STRENGTH_WORDS[s] for s in STRENGTHS],
                y=[100 * r["cards_share"][0] for r in rows], low=[100 * r["cards_share"][1] for r in rows],
                high=[100 * r["cards_share"][2] for r in rows]))  # fmt: skip
        cells = [(y, s.label, x) for s in series for x, y in zip(s.x, s.y, strict=True)]
        lo, hi = min(cells), max(cells)
        n = t[(game, variants[0], STRENGTHS[0])]["n"]
        out.append(Chart(
            name=f"cards-share-{game}",
            title=f"{GAME_NAMES[game]}, 4 players: the cards decide most of a deal's margin between "
                  f"{hi[2]} players ({hi[0]:.0f}%, {hi[1]}) and least between {lo[2]} players ({lo[0]:.0f}%, "
                  f"{lo[1]})",
            xlabel="players (every seat; or side 0 against side 1)",
            ylabel="share of the variation in a deal's margin that the cards decide (%)",
            series=series, kind="bars", categorical=True, n=f"n={n:,} deals a bar", players=PLAYERS_WORDS,
            caption="Error bars: 95% CIs."))  # fmt: skip
    xs, ys, lows, highs, ns = [], [], [], [], []
    for game, variants in VARIANTS.items():
        for var in variants:
            r = t[(game, var, "pimc (side 0) vs heuristic")]
            ns.append(int(r["n"]))
            xs.append(SHORT_NAMES[var])
            ys.append(r["play"][0])
            lows.append(r["play"][1])
            highs.append(r["play"][2])
    above = sum(lo > 0 for lo in lows)
    n = min(ns)
    out.append(Chart(
        name="play-over-open-hand-value",
        title=f"Searching sampled deals against rule-based players, side 0 scores above its open-hand value in "
              f"{above} of {len(xs)} games and rules, by up to {max(ys):+.1f} points a deal",
        xlabel="game and rules", ylabel="side 0's margin less its open-hand value (points a deal)",
        series=[ChartSeries(label="sampling search (side 0) against rule-based", x=xs, y=ys, low=lows,
                            high=highs)],
        kind="bars", zero_line=True, categorical=True,
        n=f"n={n:,} deals a bar" if n == max(ns) else f"n={n:,} deals or more a bar",
        players="players who search sampled deals (side 0) against rule-based players (heuristic, side 1)",
        caption="Error bars: 95% CIs."))  # fmt: skip
    return out


METHOD = (
    "Each figure with its 95% CI in brackets. Side 0's margin: its points in the deal less side 1's; its "
    "open-hand value: that margin when every hand is open and both sides play their best (Whist: the "
    "open-hand tricks' trick points plus honours as dealt; Scotch Whist: honours won and cards taken). The "
    "share the cards explain is the squared correlation of the margin with its open-hand value, over the "
    "deals; the rest is left to the play. The players: the same strength at every seat, or side 0 searching "
    "sampled deals against rule-based players. The game's target plays no part: a deal's points do not "
    "depend on it (only when a game ends does)."
)


def analyse(result: ExperimentResult) -> Analysis:
    """The split of every cell: findings, the table and the charts."""
    t = table(result)
    need = {(g, v, s) for g, vs in VARIANTS.items() for v in vs for s in STRENGTHS}
    if not need <= set(t):
        return Analysis(["(the luck study needs every game, rule variant and strength of its spec)"], [], [])
    return Analysis(findings(t), charts(t),
                    [("The split per player strength and rule variant", METHOD + "\n\n" + split_table(t))])  # fmt: skip
