"""Luck against skill: each deal's open-hand value (the cards' verdict) beside its score.

For every deal, the side-0 margin in the deal's points is set beside its *par*,
the same margin when both sides play the cards open and best (the solver):

- Whist: points are trick points (tricks above six) plus honours (held, so the
  cards' alone); par takes the open-hand tricks, the deal's honours as dealt.
- Scotch Whist (two sides): points are honours won plus cards above those dealt;
  par is the solver's margin.

``play = actual - par`` is what the play added to side 0's margin. How much of
a side's result the cards decide is the share of the variance of the actual
margin that par explains (R², the squared correlation), the rest being the play
(and its interaction with the cards); each with its 95% confidence interval
over deals. The deals are the same (paired) under every strategy: a deal is a
function of (seed, index) alone, so par is solved once per deal.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numba
import numpy as np
import pandas as pd

from ..stats import estimate
from . import solve_record

# Player strengths: one spec per seat (a single spec: every seat).
STRENGTHS: dict[str, list[str]] = {
    "random": ["random"],
    "heuristic": ["heuristic"],
    "pimc": ["pimc"],
    "pimc (side 0) vs heuristic": ["pimc", "heuristic", "pimc", "heuristic"],
}
VARIANTS: dict[str, dict[str, dict[str, Any]]] = {
    "whist": {"honours": {"honours": True}, "no honours": {"honours": False}},
    "scotch": {"scotch": {}, "french": {"french": True}},
}


def _margin(result: dict) -> int:
    return int(result["points"][0]) - int(result["points"][1])


def _key(record: dict) -> str:
    """The solver's answer depends on the deal alone (Whist: on the cards; its tricks do not
    depend on the rule options)."""
    whist = record["game"] == "whist"
    return json.dumps([record["game"], None if whist else record["rules"], record["dealer"], record["hands"],
                       record["trump"]])  # fmt: skip


def _par(record: dict, solved: dict) -> int:
    if record["game"] == "whist":
        t0, t1 = solved["tricks"]
        h = record["result"]["honours"]
        return max(0, t0 - 6) - max(0, t1 - 6) + int(h[0]) - int(h[1])
    return int(solved["margin"])


def par_of(record: dict, cache: dict | None = None) -> int:
    """Side 0's open-hand margin in the deal's points, both sides playing the cards open.
    ``cache`` keeps the solver's answers by deal."""
    return pars([record], cache, threads=1)[0]


def pars(
    records: list[dict],
    cache: dict | None = None,
    threads: int | None = None,
    tick: Callable[[], None] | None = None,
) -> list[int]:
    """:func:`par_of` of every record. The deals not in ``cache`` are solved on ``threads``
    threads at once (all Numba threads when None): the search releases the GIL. Each deal
    gets a fresh transposition table: one kept for many deals fills its buckets with entries
    that serve none of the others (twice the CPU time). ``tick()`` is called as each deal is
    solved (from the worker threads)."""
    cache = {} if cache is None else cache
    keys = [_key(rec) for rec in records]
    todo: dict[str, dict] = {}
    for k, rec in zip(keys, records, strict=True):
        if k not in cache:
            todo.setdefault(k, rec)
    if todo:
        jobs = list(todo.items())

        def solve(job: tuple[str, dict]) -> tuple[str, dict]:
            out = job[0], solve_record({**job[1], "moves": []})
            if tick is not None:
                tick()
            return out

        k, solved = solve(jobs[0])  # in this thread first: compiles or loads the kernels once
        cache[k] = solved
        workers = min(len(jobs) - 1, threads or numba.get_num_threads())
        if workers > 0:
            pool = ThreadPoolExecutor(workers)
            try:
                cache.update(pool.map(solve, jobs[1:]))
            finally:  # Ctrl-C: the deals not yet begun are dropped, not solved before it stops
                pool.shutdown(cancel_futures=True)
    return [_par(rec, cache[k]) for k, rec in zip(keys, records, strict=True)]


def _per_deal(
    records: list[dict], cache: dict | None = None, tick: Callable[[], None] | None = None
) -> pd.DataFrame:
    """Per record: its par, the margin actually scored and their difference (what the play added)."""
    return _frame(pars(records, cache, tick=tick), [_margin(rec["result"]) for rec in records])


def _frame(par: Sequence[int], actual: Sequence[int]) -> pd.DataFrame:
    """Per deal: its par, the margin actually scored and ``play``, their difference."""
    p, a = np.asarray(par, np.int64), np.asarray(actual, np.int64)
    return pd.DataFrame({"deal": np.arange(len(p)), "par": p, "actual": a, "play": a - p})


def deals(
    game: str,
    n: int,
    seed: int,
    strategies: list[str],
    rules: dict[str, Any] | None = None,
    players: int | None = None,
    cache: dict | None = None,
    tick: Callable[[], None] | None = None,
) -> pd.DataFrame:
    """Per deal of ``n`` single-deal games: side 0's par, actual margin and their difference
    (``tick()``: called as each deal is solved)."""
    from ..api import simulate

    sim = simulate(game, n, seed, players=players, rules={**(rules or {}), "unit": "deal"},
                   strategies=strategies, records=n)  # fmt: skip
    return _per_deal(sim.records[:n], cache, tick)


def split(df: pd.DataFrame) -> dict[str, Any]:
    """The luck/skill split of a set of deals, each figure with its 95% CI."""
    n = len(df)
    par = df["par"].to_numpy(float)
    act = df["actual"].to_numpy(float)
    play = df["play"].to_numpy(float)
    out: dict[str, Any] = {"n": n}
    r = float(np.corrcoef(par, act)[0, 1]) if n > 3 and par.std() > 0 and act.std() > 0 else float("nan")
    if math.isfinite(r) and abs(r) < 1 - 1e-12:
        z, se = math.atanh(r), 1 / math.sqrt(n - 3)
        lo, hi = math.tanh(z - 1.96 * se), math.tanh(z + 1.96 * se)
        r2 = (r * r, 0.0 if lo < 0 < hi else min(lo * lo, hi * hi), max(lo * lo, hi * hi))
    elif math.isfinite(r):  # an exact line: the cards decide all of it
        r2 = (1.0, 1.0, 1.0)
    else:
        r2 = (r * r, float("nan"), float("nan"))
    out["cards_share"] = r2  # share of the margin's variance the cards decide (R²)
    out["play_share"] = (1 - r2[0], 1 - r2[2], 1 - r2[1])
    for name, x in (("par", par), ("actual", act), ("play", play), ("abs_play", np.abs(play))):
        e = estimate(x)
        out[name] = (e.mean, e.low, e.high)
    out["sd_par"] = float(par.std(ddof=1)) if n > 1 else float("nan")
    out["sd_play"] = float(play.std(ddof=1)) if n > 1 else float("nan")
    return out


def _fmt(t: tuple[float, float, float], pct: bool = False) -> str:
    if pct:
        return f"{100 * t[0]:.1f}% [{100 * t[1]:.1f}, {100 * t[2]:.1f}]"
    return f"{t[0]:+.2f} [{t[1]:+.2f}, {t[2]:+.2f}]"


def study(
    n: dict[str, int], seed: int = 2026, *, announce: bool = False, progress: bool = False
) -> pd.DataFrame:
    """The luck/skill split for Whist and Scotch Whist (4 players), per player strength and
    rule variant; ``n`` deals per cell, per game. The solver takes nearly all the time: with
    ``announce``, a study expected to take over a minute says so first (from its first deals
    solved); with ``progress``, a bar over the deals to solve."""
    from ..eta import Watch

    # Deals to solve: the same deals in every cell of a game; Whist's par is the same under both
    # its variants (the cards alone), Scotch Whist's is solved per variant.
    total = n["whist"] + len(VARIANTS["scotch"]) * n["scotch"]
    watch = Watch(total, "deal", announce=announce, progress=progress)
    rows = []
    try:
        for game, variants in VARIANTS.items():
            cache: dict = {}
            for variant, rules in variants.items():
                for strength, specs in STRENGTHS.items():
                    s = split(deals(game, n[game], seed, specs, rules, 4, cache, watch.tick))
                    rows.append({"game": game, "variant": variant, "players": strength, **s})
    finally:
        watch.close()
    return pd.DataFrame(rows)


def markdown(table: pd.DataFrame) -> str:
    """The split as a table in words (95% CIs in brackets)."""
    lines = [
        "| game | rules | players | n (deals) | share of the margin's variation the cards explain "
        "| share left to the play | side 0's margin above its open-hand value (points a deal) "
        "| size of that difference, either way (points a deal) | spread of the open-hand value (SD, points) "
        "| spread of the play (SD, points) |",
        "|---|---|---|---:|---|---|---|---|---:|---:|",
    ]
    for _, r in table.iterrows():
        lines.append(
            f"| {GAME_NAMES[r['game']]} | {VARIANT_NAMES[r['variant']]} | {STRENGTH_WORDS[r['players']]} "
            f"| {r['n']:,} | {_fmt(r['cards_share'], True)} | {_fmt(r['play_share'], True)} | {_fmt(r['play'])} "
            f"| {_fmt(r['abs_play'])} | {r['sd_par']:.2f} | {r['sd_play']:.2f} |"
        )
    return "\n".join(lines)


def check_game(game: str, preset: str | None, players: int | None, rules: dict[str, Any]) -> None:
    """A one-line error unless the solver takes the game and rules."""
    from ..games import get_game
    from ..options import WhistsimError
    from .position import check_solvable

    if game not in VARIANTS:
        raise WhistsimError(f"--solve: the solver takes whist and scotch, not {game!r}")
    try:
        check_solvable(get_game(game).make_rules(preset, players, dict(rules)))
    except Exception as e:  # RecordError: say it as an option's error
        raise WhistsimError(f"--solve: {e}") from None


def summary_lines(records: Iterable[dict], batch: int = 256) -> list[str]:
    """``simulate --solve``: the luck/skill split over the recorded deals, for people. The
    records (any iterable: a file read line by line) are solved ``batch`` at a time and only
    two numbers per deal are kept, so memory stays flat in the number of deals."""
    from array import array
    from itertools import islice

    par, actual = array("q"), array("q")
    it = iter(records)
    while chunk := list(islice(it, batch)):
        par.extend(pars(chunk))
        actual.extend(_margin(rec["result"]) for rec in chunk)
    if not par:
        return ["solve: no deals recorded"]
    s = split(_frame(par, actual))
    return [
        f"open-hand par over {s['n']:,} recorded deals (side 0's margin in the deal's points; 95% CI):",
        f"  par (the cards' verdict)     {_fmt(s['par'])}",
        f"  actual                       {_fmt(s['actual'])}",
        f"  play (actual - par)          {_fmt(s['play'])}",
        f"  mean |play|                  {_fmt(s['abs_play'])}",
        f"  share the cards decide (R²)  {_fmt(s['cards_share'], True)}",
        f"  share left to the play       {_fmt(s['play_share'], True)}",
    ]


# ---- the study's report: findings, charts (PNG with a JSON sidecar each), tables ----------

GAME_NAMES = {"whist": "Whist", "scotch": "Scotch Whist"}
VARIANT_NAMES = {"honours": "honours scored", "no honours": "no honours", "scotch": "Scotch rules",
                 "french": "French (ten of diamonds)"}  # fmt: skip


SHORT_NAMES = {"honours": "Whist, honours", "no honours": "Whist, no honours", "scotch": "Scotch",
               "french": "Scotch, French"}  # fmt: skip


def _cell(table: pd.DataFrame, game: str, variant: str, players: str) -> pd.Series:
    return table[
        (table["game"] == game) & (table["variant"] == variant) & (table["players"] == players)
    ].iloc[0]


def _pct(t: tuple[float, float, float]) -> str:
    return f"{100 * t[0]:.1f}% (95% CI {100 * t[1]:.1f}–{100 * t[2]:.1f}%"


def _pts(t: tuple[float, float, float]) -> str:
    return f"{t[0]:+.2f} points a deal (95% CI {t[1]:+.2f} to {t[2]:+.2f}"


def _than(a: pd.Series, b: pd.Series) -> str:
    """``a``'s cards' share against ``b``'s in words: more or less only when their 95% CIs do not
    overlap (a conservative test of the difference)."""
    x, y = a["cards_share"], b["cards_share"]
    if x[1] > y[2]:
        word = "more than"
    elif x[2] < y[1]:
        word = "less than"
    else:
        word = "not clearly different from"
    return f"{word} the {100 * y[0]:.1f}% (95% CI {100 * y[1]:.1f}–{100 * y[2]:.1f}%)"


# The players of a cell in the findings' words (docs/reports.md#how-to-read-this).
PLAYER_PHRASES = {"random": "four random players", "heuristic": "four rule-based players (heuristic)",
                  "pimc": "four players who search sampled deals"}  # fmt: skip
OPEN_HAND = (
    "the open-hand value of their cards (what the deal is worth to a side when every hand is open and both "
    "sides play their best)"
)


def _beside(rows: list[pd.Series]) -> str:
    """How the play's mean stands to the open-hand value in every row at once: more or less only when each
    row's 95% CI lies wholly on that side of 0."""
    if all(r["play"][1] > 0 for r in rows):
        return "more than"
    if all(r["play"][2] < 0 for r in rows):
        return "less than"
    return "not clearly more or less than"


def findings(table: pd.DataFrame) -> list[str]:
    """At most six sentences, most important first, each with its figure, 95% CI and n."""
    out = []
    for game, variant in (("whist", "honours"), ("scotch", "scotch")):
        r = _cell(table, game, variant, "heuristic")
        out.append(
            f"In {GAME_NAMES[game]} ({VARIANT_NAMES[variant]}) between {PLAYER_PHRASES['heuristic']} the cards "
            f"explain {_pct(r['cards_share'])}, n={r['n']:,} deals) of the variation in a deal's margin (side "
            f"0's points less side 1's); the play explains the rest."
        )
    w0, w1 = _cell(table, "whist", "honours", "heuristic"), _cell(table, "whist", "no honours", "heuristic")
    out.append(
        f"Without honours (which are dealt, not played for) the cards explain {_pct(w1['cards_share'])}, "
        f"n={w1['n']:,} deals) of the variation in a Whist deal's margin between {PLAYER_PHRASES['heuristic']}: "
        f"{_than(w1, w0)} with them."
    )
    s0, s1 = _cell(table, "scotch", "scotch", "pimc"), _cell(table, "scotch", "french", "pimc")
    out.append(
        f"With the French ten of diamonds (won in play) the cards explain {_pct(s1['cards_share'])}, "
        f"n={s1['n']:,} deals) of the variation in a Scotch Whist deal's margin between "
        f"{PLAYER_PHRASES['pimc']}: {_than(s1, s0)} under Scotch rules."
    )
    rw, hw = _cell(table, "whist", "honours", "random"), _cell(table, "whist", "honours", "heuristic")
    out.append(
        f"Between {PLAYER_PHRASES['random']} the cards explain {_pct(rw['cards_share'])}, n={rw['n']:,} deals) "
        f"of the variation in a Whist deal's margin (honours scored): {_than(rw, hw)} between "
        f"{PLAYER_PHRASES['heuristic']}."
    )
    pw = _cell(table, "whist", "honours", "pimc (side 0) vs heuristic")
    ps = _cell(table, "scotch", "scotch", "pimc (side 0) vs heuristic")
    out.append(
        f"Players who search sampled deals, against rule-based players (heuristic), score {_beside([pw, ps])} "
        f"{OPEN_HAND}: {_pts(pw['play'])}, n={pw['n']:,} deals) in Whist and {_pts(ps['play'])}, "
        f"n={ps['n']:,} deals) in Scotch Whist."
    )
    return out


# The strengths in words a card player reads, on the charts' axes and legends.
STRENGTH_WORDS = {"random": "random", "heuristic": "rule-based (heuristic)", "pimc": "sampling search",
                  "pimc (side 0) vs heuristic": "sampling search (side 0) against rule-based"}  # fmt: skip
PLAYERS_WORDS = ("random players, rule-based players (heuristic) and players who search sampled deals, the same "
                 "strength at every seat except in the last bar (one side of each)")  # fmt: skip


def charts(table: pd.DataFrame) -> list:
    """The study's charts, as data (``experiments.results.Chart``); each title computed from what it shows."""
    from ..experiments.results import Chart, ChartSeries

    out = []
    for game in VARIANTS:
        series = []
        for variant in VARIANTS[game]:
            rows = [_cell(table, game, variant, s) for s in STRENGTHS]
            series.append(ChartSeries(
                label=VARIANT_NAMES[variant], x=[STRENGTH_WORDS[s] for s in STRENGTHS],
                y=[100 * r["cards_share"][0] for r in rows], low=[100 * r["cards_share"][1] for r in rows],
                high=[100 * r["cards_share"][2] for r in rows]))  # fmt: skip
        cells = [(y, s.label, x) for s in series for x, y in zip(s.x, s.y, strict=True)]
        lo, hi = min(cells), max(cells)
        n = int(table[table["game"] == game]["n"].iloc[0])
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
    for game in VARIANTS:
        for variant in VARIANTS[game]:
            r = _cell(table, game, variant, "pimc (side 0) vs heuristic")
            ns.append(int(r["n"]))
            xs.append(SHORT_NAMES[variant])
            ys.append(r["play"][0])
            lows.append(r["play"][1])
            highs.append(r["play"][2])
    above = sum(lo > 0 for lo in lows)
    n = min(ns)
    out.append(Chart(
        name="play-over-par",
        title=f"Searching sampled deals against rule-based players, side 0 scores above its open-hand value in "
              f"{above} of {len(xs)} games and rules, by up to {max(ys):+.1f} points a deal",
        xlabel="game and rules", ylabel="side 0's margin less its open-hand value (points a deal)",
        series=[ChartSeries(label="sampling search (side 0) against rule-based", x=xs, y=ys, low=lows,
                            high=highs)],
        kind="bars", zero_line=True, categorical=True, n=f"n={n:,} deals a bar" if n == max(ns) else f"n={n:,} deals or more a bar",
        players="players who search sampled deals (side 0) against rule-based players (heuristic, side 1)",
        caption="Error bars: 95% CIs."))  # fmt: skip
    return out


# What each chart shows, in words (by its name; a chart not named here is listed by its title).
CHART_WORDS = {
    "cards-share-whist": "the share of a Whist deal's margin the cards explain, by players and rules",
    "cards-share-scotch": "the share of a Scotch Whist deal's margin the cards explain, by players and rules",
    "play-over-par": "side 0's margin above its open-hand value when it searches sampled deals against "
    "rule-based players, by game and rules",
}


def write_chart(chart, folder) -> None:
    """A chart's PNG and, beside it, its data (the experiments' drawing writes both)."""
    from pathlib import Path

    from ..experiments.charts import draw

    draw(chart, Path(folder) / f"{chart.name}.png")


def report(table: pd.DataFrame, n: dict[str, int], seed: int) -> str:
    """The study's report.md: findings first, then what was run, the table and the charts."""
    from ..experiments.report import HOW_TO_READ

    lines = ["# Luck against skill", "", HOW_TO_READ, "", "## Findings", ""]
    lines += [f"- {s}" for s in findings(table)]
    lines += [
        "",
        "## What was run",
        "",
        f"`whistsim luck-skill --n-whist {n['whist']} --n-scotch {n['scotch']} --seed {seed} "
        "--out results/luck_skill` (in `make experiments`). Single deals of Whist and Scotch Whist with "
        "4 players; the same deals (a deal is a function of seed and index) under every player strength "
        "and rule variant. For each deal, side 0's margin in the deal's points is set beside its "
        "open-hand value (*par*): every hand open and both sides playing best (the solver; Whist: the open-hand "
        "tricks' trick points plus honours as dealt; Scotch Whist: the solver's margin in honours won and "
        "cards taken). The share of the margin's variance that par explains (R², 95% CI by Fisher's z) "
        "is what the cards decide; the rest is the play. `play` = actual - par (mean, 95% CI).",
        "",
        "The game's target is not a variant here: the split is per deal, and a deal's points do not "
        "depend on the target (only when a game ends does).",
        "",
        "## The split per player strength and rule variant",
        "",
        "Each figure with its 95% CI in brackets. Side 0's margin: its points in the deal less side 1's; its "
        "open-hand value: that margin when every hand is open and both sides play their best. The players: "
        "the same strength at every seat, or side 0 searching sampled deals against rule-based players.",
        "",
        markdown(table),
        "",
        "## Charts",
        "",
        "In `charts/`, each with its data in a JSON file beside it:",
        "",
        *[f"- `{c.name}.png`: {CHART_WORDS.get(c.name, c.title)}" for c in charts(table)],
        "",
    ]
    return "\n".join(lines)


def write_study(table: pd.DataFrame, out_dir, n: dict[str, int], seed: int) -> None:
    """report.md, split.csv and charts/ into ``out_dir``."""
    from pathlib import Path

    from ..io import atomic_write

    out = Path(out_dir)
    (out / "charts").mkdir(parents=True, exist_ok=True)
    flat = table.copy()
    for col in ("cards_share", "play_share", "par", "actual", "play", "abs_play"):
        flat[[col, f"{col}_low", f"{col}_high"]] = pd.DataFrame(flat[col].tolist(), index=flat.index)
    with atomic_write(out / "split.csv") as f:
        flat.to_csv(f, index=False)
    for c in charts(table):
        write_chart(c, out / "charts")
    with atomic_write(out / "report.md") as f:
        f.write(report(table, n, seed))
