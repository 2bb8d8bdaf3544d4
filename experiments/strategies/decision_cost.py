"""Measure what one decision costs each Welsh Whist strategy, in the compiled kernel.

    .venv/bin/python experiments/strategies/decision_cost.py [--games 20] [--pimc-budget 100]

Plays a few games (three ``counter`` players by default, parlett rules), keeps the state at
every decision a player is asked to make (not the forced ones: a pass with
nothing to follow, a draw with an empty hand), then times each strategy
deciding from those states on one
thread (fast players 200 times each state; ``pimc`` once each, also timed one by
one for its slowest decisions).
Also times whole games of each strategy against itself: games per second and
nanoseconds per decision, the engine included.
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np

from whistsim.core.strategy import parse_spec
from whistsim.games import seating
from whistsim.games.welsh import kernels
from whistsim.games.welsh import players as roster
from whistsim.games.welsh.engine import (
    OVER,
    S_PHASE,
    S_SEAT,
    STATE_DTYPE,
    apply,
    forced,
    new_state,
    reset,
    seat_view,
)
from whistsim.games.welsh.kernels import deal_stock, play_batch
from whistsim.games.welsh.rules import WelshRules
from whistsim.harness import decide, template
from whistsim.harness.build import kernel


@template
def _snapshots(buf, base_deck, seed, games, out):
    """Play ``games`` games from ``buf[0]``'s players; copy the state before every real choice."""
    g = buf[0]
    n = 0
    for game in range(games):
        deal_stock(g, base_deck, seed, game)
        reset(g, base_deck.shape[0], game % g.table.rules[0])
        s = g.table.s
        while s[S_PHASE] != OVER:
            a = forced(g)
            if a < 0:
                if n < out.shape[0]:
                    out[n] = g
                    n += 1
                seat = s[S_SEAT]
                a = decide(g.seats[seat].strategy, seat_view(g, seat))
            apply(g, a)
    return n


@template
def _decide_all(snaps, lo, hi, reps):
    """Decide ``reps`` times from each state ``lo .. hi - 1`` (deciding moves only the seat's stream)."""
    acc = 0
    for i in range(lo, hi):
        g = snaps[i]
        seat = g.table.s[S_SEAT]
        for _ in range(reps):
            acc += decide(g.seats[seat].strategy, seat_view(g, seat))
    return acc


def decision_costs(
    specs: list[str], games: int = 20, seed: int = 1, players: str = "counter"
) -> list[tuple[str, float, float, float]]:
    """(spec, mean ns per decision, 99th percentile and max µs over the states) per strategy."""
    rules = WelshRules.make("parlett", 3)
    buf = new_state(rules.to_array())
    ids, params = seating("welsh", [parse_spec(players)], 3)
    buf[0]["seats"]["strategy"][:3] = ids
    buf[0]["seats"]["params"][:3] = params
    out = np.zeros(games * 400, STATE_DTYPE)
    k = kernel(kernels, roster, range(len(roster.PLAYERS)), templates=(_snapshots, _decide_all))
    n = k._snapshots(buf, rules.deck(), np.int64(seed), games, out)
    rows = []
    for text in specs:
        ids, params = seating("welsh", [parse_spec(text)] * 3, 3)
        snaps = out[:n].copy()
        snaps["seats"]["strategy"][:, :3] = ids
        snaps["seats"]["params"][:, :3] = params
        k._decide_all(snaps, 0, 2, 1)  # compile
        slow = "pimc" in text
        reps = 1 if slow else 200
        t0 = time.perf_counter()
        k._decide_all(snaps, 0, n, reps)
        per = (time.perf_counter() - t0) / (n * reps)
        each = []
        if slow:
            for i in range(n):
                a = time.perf_counter()
                k._decide_all(snaps, i, i + 1, 1)
                each.append(time.perf_counter() - a)
        each = np.array(each or [per])
        rows.append((text, per * 1e9, float(np.percentile(each, 99)) * 1e6, float(each.max()) * 1e6))
    return rows


def game_rates(specs: list[str], n: int = 50_000, seed: int = 1) -> list[tuple[str, float, float]]:
    """(spec, games per second, ns per decision) for three players of one strategy, one thread."""
    rules = WelshRules.make("parlett", 3)
    rows = []
    numba.set_num_threads(1)
    for text in specs:
        ids, params = seating("welsh", [parse_spec(text)], 3)
        play_batch(rules, ids, params, seed=seed, n=64)
        t0 = time.perf_counter()
        b = play_batch(rules, ids, params, seed=seed, n=n)
        dt = time.perf_counter() - t0
        rows.append((text, n / dt, dt / b.game["moves"].sum() * 1e9))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="games whose states are decided from")
    ap.add_argument("--players", default="counter", help="the strategy whose games give the states")
    ap.add_argument("--pimc-budget", type=int, default=100)
    ap.add_argument("--n", type=int, default=50_000, help="games per strategy for the whole-game rates")
    a = ap.parse_args()
    fast = ["random", "greedy", "hunter", "hoarder", "counter", "cheater"]
    print("strategy            ns/decision   99th pct µs   max µs  (deciding from saved states)")
    for text, ns, p99, worst in decision_costs(
        fast + [f"pimc:budget={a.pimc_budget}"], a.games, players=a.players
    ):
        tail = f"{p99:>13,.1f} {worst:>8,.1f}" if "pimc" in text else ""
        print(f"{text:<20}{ns:>11,.0f} {tail}")
    print("\nstrategy x3          games/s   ns/decision  (whole games, engine included, one thread)")
    for text, rate, ns in game_rates(fast, a.n):
        print(f"{text:<20}{rate:>9,.0f} {ns:>12,.1f}")


if __name__ == "__main__":
    main()
