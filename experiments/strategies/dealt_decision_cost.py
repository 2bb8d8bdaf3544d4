"""Measure what one decision costs the players of the dealt games, ``dd`` among them.

    .venv/bin/python experiments/strategies/dealt_decision_cost.py [--deals 4]

Plays a few single deals with ``heuristic`` players, keeps the state at every
decision with more than one legal card, and times each strategy deciding from
those states, one at a time, in the compiled kernel (``decide_in``): median,
mean and 95th percentile per decision, and the same for the opening lead alone.
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np

import whistsim
from whistsim.core.strategy import parse_spec
from whistsim.games import seating
from whistsim.games.dealt import records as R
from whistsim.games.dealt.engine import S_LED, S_SEAT
from whistsim.games.dealt.kernels import decide_now as decide_in
from whistsim.games.scotch.rules import ScotchRules
from whistsim.games.whist.rules import WhistRules

CASES = [
    ("scotch", ScotchRules, ["heuristic", "pimc", "dd"]),
    ("whist", WhistRules, ["heuristic", "pimc", "dd:tricks=8", "dd"]),
]


def states(game: str, rules_cls, deals: int, seed: int) -> list[tuple[np.ndarray, int]]:
    """(engine state, move index) at every decision with a choice, in ``deals`` single deals."""
    sim = whistsim.simulate(
        game, deals, seed, rules={"unit": "deal"}, strategies=["heuristic"], records=deals
    )
    out = []
    for rec in sim.records[:deals]:
        for cut in range(len(rec["moves"])):
            d = R.load(game, rules_cls, dict(rec, moves=rec["moves"][:cut]))
            R.start(d.buf, np.int64(d.dealer), np.int64(d.turnup), np.int64(d.aside))
            for card in d.cards:
                R.step(d.buf, int(card))
            core = d.buf[0]["core"]
            s = core["table"]["s"]
            bits = core["seats"][int(s[S_SEAT])]["bits"]
            led = int(s[S_LED])
            legal = bits[led] if led >= 0 and bits[led] else bits
            if sum(bin(int(m)).count("1") for m in np.atleast_1d(legal)) > 1:
                out.append((d.buf, cut))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    numba.set_num_threads(1)
    for game, rules_cls, specs in CASES:
        found = states(game, rules_cls, args.deals, args.seed)
        p = 4
        decide_in(found[0][0].copy())  # load the kernel before timing
        for spec in specs:
            ids, params = seating(game, [parse_spec(spec)], p)
            times, opening = [], []
            for buf, cut in found:
                b = buf.copy()
                core = b[0]["core"]
                core["seats"]["strategy"][:p] = ids
                core["seats"]["params"][:p] = params
                core["seats"]["rng"][:p, 0] = 1 + cut
                t0 = time.perf_counter()
                decide_in(b)
                dt = time.perf_counter() - t0
                times.append(dt)
                if cut == 0:
                    opening.append(dt)
            t = np.array(times) * 1e3
            print(
                f"{game:<7} {spec:<12} {len(t):>4} decisions: median {np.median(t):9.2f} ms  mean {t.mean():9.2f} ms"
                f"  p95 {np.percentile(t, 95):9.2f} ms; opening lead median {np.median(opening) * 1e3:9.1f} ms"
            )


if __name__ == "__main__":
    main()
