"""CPU time per decision of Welsh Whist players, measured on the same positions.

Plays a few games with a mix of players (3 players, Parlett's rules), keeps every third
position where a choice is owed (not a forced pass or draw), then times each player deciding
every kept position for the seat that owes it (time.process_time, one thread), the players
alternating, three rounds each. Used for docs/welsh_search.md:

    python -m whistsim.bench.decisions "pimc;pimc2" 8 "pimc2,pimc,pimc;pimc,pimc2,pimc2"

Arguments: the players to time (';'-separated specs), the number of games, and the mix that
plays them (';'-separated seatings, one per game in turn).
"""

from __future__ import annotations

import sys
import time

import numpy as np
from numba import njit

from ..core.strategy import parse_spec
from ..games import seating
from ..games.welsh import engine as E
from ..games.welsh.kernels import deal_stock, decide_now
from ..games.welsh.records import start, step
from ..games.welsh.rules import WelshRules

ROUNDS = 3


@njit(cache=True)
def _deal(buf, base, seed, game):
    deal_stock(buf[0], base, seed, game)


@njit(cache=True)
def _forced(buf):
    return E.forced(buf[0])


def positions(rules: WelshRules, mix: list[list[str]], games: int, every: int = 3, seed: int = 7) -> list:
    """Every ``every``-th position owing a choice, in ``games`` games of the seatings ``mix``."""
    out = []
    for game in range(games):
        buf = E.new_state(rules.to_array())
        ids, params = seating("welsh", [parse_spec(s) for s in mix[game % len(mix)]], rules.players)
        buf[0]["seats"]["strategy"][: rules.players] = ids
        buf[0]["seats"]["params"][: rules.players] = params
        _deal(buf, rules.deck(), np.int64(seed), np.int64(game))
        start(buf, buf[0]["deck"][: rules.stock_size].copy(), game % rules.players)
        i = 0
        while buf[0]["table"]["s"][E.S_PHASE] != E.OVER:
            if _forced(buf) < 0:
                if i % every == 0:
                    out.append(buf.copy())
                i += 1
            assert step(buf, decide_now(buf)) == E.OK
    return out


def seconds_per_decision(states: list, spec: str, players: int) -> float:
    """Mean CPU seconds ``spec`` takes to decide each position, as the seat that owes it."""
    ids, params = seating("welsh", [parse_spec(spec)] * players, players)
    bufs = []
    for b in states:
        x = b.copy()
        q = int(x[0]["table"]["s"][E.S_SEAT])
        x[0]["seats"]["strategy"][q] = ids[q]
        x[0]["seats"]["params"][q] = params[q]
        bufs.append(x)
    decide_now(bufs[0].copy())  # the kernel loaded before the clock starts
    t0 = time.process_time()
    for x in bufs:
        decide_now(x.copy())
    return (time.process_time() - t0) / len(bufs)


def main(argv: list[str]) -> None:
    specs = argv[0].split(";")
    games = int(argv[1]) if len(argv) > 1 else 8
    mix = [m.split(",") for m in (argv[2] if len(argv) > 2 else "pimc,pimc,pimc").split(";")]
    rules = WelshRules()
    states = positions(rules, mix, games)
    print(f"{len(states)} positions owing a choice, from {games} games of {';'.join(map(','.join, mix))}")
    times: dict[str, list[float]] = {s: [] for s in specs}
    for _ in range(ROUNDS):
        for s in specs:
            times[s].append(seconds_per_decision(states, s, rules.players))
    for s in specs:
        rounds = ", ".join(f"{x * 1e3:.3f}" for x in times[s])
        print(f"{s:32s} {np.mean(times[s]) * 1e3:7.3f} ms CPU per decision (rounds: {rounds})")


if __name__ == "__main__":
    main(sys.argv[1:])
