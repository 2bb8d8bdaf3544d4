"""pimc (Welsh Whist, ``race=off``) stops playing out a candidate that can no longer be taken
whatever its remaining deals give: the same decision and the same stream as playing every
candidate on every deal, on positions of real games (``pimc.search_deals`` with ``prune`` on
and off), and fewer play-outs; and every play-out's value lies in the range the pruning assumes."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit
from welsh_search import twice

from whistsim.bench.decisions import positions
from whistsim.core.strategy import parse_spec
from whistsim.games import get_game, seating
from whistsim.games.welsh import engine as E
from whistsim.games.welsh.players import pimc
from whistsim.games.welsh.rules import WelshRules


def _check(spec: str, rules: WelshRules, games: int) -> tuple[int, int]:
    states = positions(rules, [[spec] * rules.players], games, every=2)
    ids, params = seating("welsh", [parse_spec(spec)] * rules.players, rules.players)
    played_on = played_off = 0
    for b in states:
        x = b.copy()
        q = int(x[0]["table"]["s"][E.S_SEAT])
        x[0]["seats"]["strategy"][q] = ids[q]
        x[0]["seats"]["params"][q] = params[q]
        cands = np.zeros(pimc.MAX_CANDIDATES, np.int64)
        on_deals, off_deals = deals = np.zeros((2, pimc.MAX_CANDIDATES), np.int64)
        on, off = twice(x, q, cands, deals, ((True, True), (False, True)))
        assert on == off  # the same index taken, the same stream after
        assert (on_deals <= off_deals).all()
        assert on_deals[0] == off_deals[0] or on_deals[1:].sum() < off_deals[1:].sum()
        played_on += int(on_deals.sum())
        played_off += int(off_deals.sum())
    return played_on, played_off


def test_pruned_search_decides_as_the_full_one():
    on, off = _check("pimc:budget=60", WelshRules.make("parlett", 3), 3)
    assert on < off


def test_no_pruning_where_the_gain_has_no_bound():
    # five-penalty scoring (a Five won costs points) and aim=margin: every candidate on every deal
    on, off = _check("pimc:budget=30", WelshRules.make("parlett", 3, scoring="five_penalty"), 1)
    assert on == off
    on, off = _check("pimc:budget=30,aim=margin", WelshRules.make("parlett", 3), 1)
    assert on == off


def _final_bound(d: np.ndarray, z: float) -> float:
    """The search's lower bound of a candidate's gain over its deals ``d`` (as ``search_deals``)."""
    n = len(d)
    mean = d.sum() / n
    var = max(0.0, (d * d).sum() / n - mean * mean) / max(1, n - 1)
    return mean - z * np.sqrt(var)


def test_a_hopeless_candidate_never_ends_above_zero():
    rng = np.random.default_rng(5)
    hopeless = 0
    for _ in range(3000):
        worlds = int(rng.integers(2, 40))
        n = int(rng.integers(1, worlds))
        u = int(rng.integers(1, 30))
        z = float(rng.choice([0.0, 0.5, 2.0, 3.0]))
        seen = rng.integers(-u, u // 3 + 1, n).astype(np.float64)
        if not pimc._hopeless(seen.sum(), (seen * seen).sum(), n, worlds, z, float(u)):
            continue
        hopeless += 1
        r = worlds - n
        rests = [np.full(r, float(c)) for c in range(-u, u + 1)]  # equal gains: the best case
        rests += [rng.integers(-u, u + 1, r).astype(np.float64) for _ in range(20)]
        for rest in rests:
            assert _final_bound(np.concatenate([seen, rest]), z) <= 0.0
    assert hopeless > 100


@njit(cache=True)
def _ranges(states, worlds, out):
    """Every candidate played out on ``worlds`` deals of each state owing a turn or an answer, as
    its seat's pimc plays them out (``model``): counts into ``out`` play-outs, values outside
    [pile, pile + u] (the seat's points now, u: ``_gain_bound``) and values at pile + u exactly."""
    cands = np.empty(pimc.MAX_CANDIDATES, np.int64)
    pool = np.empty(E.MAX_STOCK, np.int8)
    buf = np.zeros(2, E.STATE_DTYPE)
    for i in range(states.shape[0]):
        st = states[i : i + 1].copy()
        t = st[0].table
        if t.s[E.S_PHASE] == E.CHALLENGE:  # never pruned: its other candidates are illegal
            continue
        me = t.s[E.S_SEAT]
        own = st[0].seats[me]
        p = t.rules[0]
        points = np.zeros(p, np.int64)
        E.score(t, points)
        pile = points[me]
        u = pimc._gain_bound(t, p)
        k = pimc.candidates(t, own, me, cands, pimc.MODEL)
        n_pool = pimc.unseen_pool(t, own, pool)
        for _ in range(worlds):
            pimc._deal(t, own, me, buf[0], pool, n_pool)
            for j in range(k):
                x = pimc._playout(buf, cands[j], me, pimc.MODEL, p, False, points)
                out[0] += 1
                out[1] += x < pile or x > pile + u
                out[2] += x == pile + u
    return out


@pytest.mark.parametrize(
    "preset,players,rules,mix,reached",
    [
        ("parlett", 3, {}, "greedy,greedy,greedy", True),
        ("akagiri", 4, {"revokes": True, "challenge": "akagiri"}, "cheater,greedy,random,counter", False),
    ],
)
def test_a_playout_ends_within_the_pruning_range(preset, players, rules, mix, reached):
    # The pruning's premise (each candidate's value in [pile, pile + u] on every deal), under
    # revokes and challenges too; and u reached: a tighter bound (u/4, u - 1) leaves play-outs
    # outside it, which the searches above need not show (their losers are pruned late).
    r = get_game("welsh").make_rules(preset, players, rules)
    states = np.concatenate(positions(r, [mix.split(",")], 3, every=3, seed=11))
    out = _ranges(states, 4, np.zeros(3, np.int64))
    assert out[0] > 1000
    assert out[1] == 0, f"{out[1]} of {out[0]} play-outs outside [pile, pile + u]"
    assert out[2] > 0 or not reached
