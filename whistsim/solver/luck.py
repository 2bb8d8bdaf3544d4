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

The study over players and rules is an experiment (experiments/luck_skill.toml,
whistsim.experiments.studies.luck_skill), whose measure calls :func:`pars`;
``whistsim simulate --solve`` gives the split of the deals it recorded.
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

from ..core.stats import estimate
from .solve import solve_record

SOLVED_GAMES = ("whist", "scotch")  # the games the solver takes


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


def check_game(game: str, preset: str | None, players: int | None, rules: dict[str, Any]) -> None:
    """A one-line error unless the solver takes the game and rules."""
    from ..core.options import WhistsimError
    from ..games import get_game
    from .position import check_solvable

    if game not in SOLVED_GAMES:
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
