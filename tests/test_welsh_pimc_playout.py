"""pimc's play-outs (Welsh Whist) run a trick at a time through the engine's steps: every
play-out must end as the engine's own loop (``check`` and ``apply`` per decision, the play-out
policy asked for each) ends it, from every candidate, with every play-out policy, under
revokes and both challenge rules, in positions from the draw phase to the last tricks."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from whistsim.bench.decisions import positions
from whistsim.games import get_game
from whistsim.games.welsh import engine as E
from whistsim.games.welsh.players import pimc
from whistsim.games.welsh.players.common import unseen


@njit(cache=True)
def _by_apply(buf, a, me, kind, points):
    """The play-out as the engine plays it, decision by decision (pimc's play-out before).
    Returns 1 if the policy took an illegal decision (the play-out stops there), else 0: pimc's
    own play-out does not check the policy's decisions."""
    buf[1] = buf[0]
    g = buf[1]
    s = g.table.s
    b = a
    first = True
    illegal = 0
    while True:  # one call of check and of apply for the candidate and the policy's decisions alike
        if E.check(g, b) != E.OK:
            if first:
                return 0  # the candidate itself
            illegal = 1
            break
        E.apply(g, b)
        first = False
        if s[E.S_PHASE] == E.OVER:
            break
        q = s[E.S_SEAT]
        b = pimc.rollout(g.table, g.seats[q], q, me, kind)
    E.score(g.table, points)
    return illegal


@njit(cache=True)
def _compare(states, kind, worlds, out):
    """For every state, ``worlds`` deals, every candidate: both play-outs. Counts into ``out``:
    play-outs, play-outs that differ (points, piles or streams), candidates that were leads,
    play-outs in which the policy took an illegal decision."""
    cands = np.empty(pimc.MAX_CANDIDATES, np.int64)
    pool = np.empty(E.MAX_STOCK, np.int8)
    for i in range(states.shape[0]):
        st = states[i : i + 1].copy()
        t = st[0].table
        me = t.s[E.S_SEAT]
        own = st[0].seats[me]
        p = t.rules[0]
        k = pimc.candidates(t, own, me, cands, kind)
        n_pool = 0
        for c in range(53):
            for _ in range(unseen(t, own, c)):
                pool[n_pool] = c
                n_pool += 1
        a_buf = np.zeros(2, E.STATE_DTYPE)
        b_buf = np.zeros(2, E.STATE_DTYPE)
        want = np.zeros(p, np.int64)
        got = np.zeros(p, np.int64)
        for _ in range(worlds):
            pimc._deal(t, own, me, a_buf[0], pool, n_pool)
            b_buf[0] = a_buf[0]
            for j in range(k):
                out[3] += _by_apply(a_buf, cands[j], me, kind, want)
                pimc._playout(b_buf, cands[j], me, kind, p, False, got)
                same = True
                for q in range(p):
                    same &= want[q] == got[q]
                    same &= a_buf[1].seats[q].rng[0] == b_buf[1].seats[q].rng[0]
                    same &= a_buf[1].table.won_n[q] == b_buf[1].table.won_n[q]
                    for c in range(53):
                        same &= a_buf[1].table.won[q, c] == b_buf[1].table.won[q, c]
                out[0] += 1
                out[1] += not same
                out[2] += t.s[E.S_PHASE] == E.TURN and cands[j] != E.DRAW
    return out


CASES = [
    ("parlett", 3, {}, "pimc,greedy,counter"),
    ("parlett", 4, {"revokes": True, "challenge": "parlett"}, "pimc,cheater,greedy,counter"),
    ("akagiri", 5, {"revokes": True, "challenge": "akagiri"}, "pimc,cheater,random,counter,greedy"),
]


@pytest.mark.parametrize("preset,players,rules,mix", CASES)
@pytest.mark.parametrize("kind", [pimc.MODEL, pimc.HOARDER, pimc.GREEDY])
def test_a_playout_ends_as_the_engines_own_loop_ends_it(preset, players, rules, mix, kind):
    r = get_game("welsh").make_rules(preset, players, rules)
    states = np.concatenate(positions(r, [mix.split(",")], 2, every=4, seed=5))
    out = _compare(states, kind, 2, np.zeros(4, np.int64))
    assert out[0] > 500 and out[2] > 50  # leads too, whose trick the play-out finishes
    assert out[3] == 0, f"the policy took an illegal decision in {out[3]} of {out[0]} play-outs"
    assert out[1] == 0, f"{out[1]} of {out[0]} play-outs differ"
