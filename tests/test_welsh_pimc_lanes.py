"""pimc's Welsh Whist play-outs after the stock, played in lockstep (``players/lanes.py``), end
as the engine's own play-out ends them: every lane's points equal the one-at-a-time play-out's,
from every candidate of positions under several rule sets; and the lockstep search takes the same
decision, plays the same play-outs and leaves the same stream as the search one play-out at a time
(racing, pruning and several chunks of deals included)."""

from __future__ import annotations

import numpy as np
import pytest
from welsh_search import twice

from whistsim.bench.decisions import positions
from whistsim.core.strategy import parse_spec
from whistsim.games import seating
from whistsim.games.welsh import engine as E
from whistsim.games.welsh.players import lanes, pimc
from whistsim.games.welsh.players.common import taffy_power
from whistsim.games.welsh.rules import R_PACKS, R_REVOKES, R_TAFFIES, WelshRules

RULES = {
    "parlett": WelshRules.make("parlett", 3),
    "akagiri": WelshRules.make("akagiri", 3),  # a Taffy equal to a Ten
    "revokes": WelshRules.make("parlett", 3, revokes=True, challenge="parlett"),  # a pass shows nothing
    "packs": WelshRules.make("parlett", 3, packs=3, taffies=7),
}


def _values(states, worlds, limit):
    """From every state, ``worlds`` deals, every candidate played to the stock's end: the rest
    played one at a time by the engine (its points for the seat) and in the lanes. Called from
    Python (the search's own compiled parts, nothing compiled for the test)."""
    cands = np.empty(pimc.MAX_CANDIDATES, np.int64)
    pool = np.empty(E.MAX_STOCK, np.int8)
    points = np.empty(3, np.int64)
    pending = np.empty(limit * lanes.ROWS, np.int64)
    buf = np.zeros(3, E.STATE_DTYPE)
    want = []
    for state in states:
        buf[0] = state
        t, me = buf[0]["table"], int(state["table"]["s"][E.S_SEAT])
        own = buf[0]["seats"][me]
        k = pimc.candidates(t, own, me, cands, pimc.MODEL)
        n_pool = pimc.unseen_pool(t, own, pool)
        for _ in range(worlds):
            pimc._deal(t, own, me, buf[1], pool, n_pool)
            for j in range(k):
                if len(want) == limit:
                    break
                buf[2] = buf[1]
                if E.try_apply(buf[2], int(cands[j])) != E.OK:
                    continue
                pimc._play_on(buf[2], me, pimc.MODEL, True)
                if buf[2]["table"]["s"][E.S_PHASE] == E.OVER:
                    continue
                lanes.load(pending, len(want), buf[2], me)
                pimc._play_on(buf[2], me, pimc.MODEL, False)
                E.score(buf[2]["table"], points)
                want.append(int(points[me]))
    r = states[0]["table"]["rules"]
    tp = taffy_power(states[0]["table"])
    got = []
    for m in (len(want), 5):  # all, and fewer than the lanes (the rest then never played)
        out = np.full(m, -1, np.int64)
        lanes.play_lanes(
            lanes.lanes_array(), pending, m, out, 0, r[R_REVOKES] == 0, tp, r[R_PACKS], r[R_TAFFIES]
        )
        got.append(out)
    return np.array(want), got


@pytest.mark.parametrize("name", list(RULES))
def test_every_lane_ends_as_the_engines_own_playout(name):
    rules = RULES[name]
    states = []
    for seats in (["pimc", "greedy", "greedy"], ["counter", "hoarder", "random"]):
        states += positions(rules, [seats], 2, every=2, seed=11)
    # the lanes of one call play for one seat
    states = np.concatenate([b for b in states if b[0]["table"]["s"][E.S_SEAT] == 0])
    want, (got, few) = _values(states, 3, 3000)
    assert len(want) > 500  # many play-outs, from the draw phase's end to the last tricks
    assert (got == want).all(), f"{int((got != want).sum())} of {len(want)} play-outs differ"
    assert (few == want[: len(few)]).all()


def test_the_lanes_rows_start_on_64_byte_lines():
    for _ in range(8):  # a 512-bit load of a row then never straddles two lines
        S = lanes.lanes_array()
        assert S.size == lanes.ROWS * lanes.LANES and S.ctypes.data % 64 == 0


@pytest.mark.parametrize(
    "spec, name, prune",
    [
        ("pimc", "parlett", True),
        ("pimc:budget=600", "parlett", True),  # up to 300 deals: several chunks
        ("pimc:race=0.75", "akagiri", True),  # racing stops drawing deals mid-chunk
        ("pimc:budget=300,race=0.5", "revokes", True),
        ("pimc:budget=40", "packs", False),
    ],
)
def test_the_lockstep_search_decides_plays_and_draws_as_one_at_a_time(spec, name, prune):
    rules = RULES[name]
    ids, params = seating("welsh", [parse_spec(spec)] * 3, 3)
    states = positions(rules, [[spec, "greedy", "greedy"]], 2, every=4, seed=3)
    searched = 0
    for b in states:
        x = b.copy()
        q = int(x[0]["table"]["s"][E.S_SEAT])
        x[0]["seats"]["strategy"][q] = ids[0]
        x[0]["seats"]["params"][q] = params[0]
        cands = np.zeros(pimc.MAX_CANDIDATES, np.int64)
        lockstep, one = deals = np.zeros((2, pimc.MAX_CANDIDATES), np.int64)
        a, b_ = twice(x, q, cands, deals, ((prune, True), (prune, False)))
        assert a == b_  # the same index taken, the same stream after
        assert (lockstep == one).all()
        searched += int(one.sum() > 0)
    assert searched > 20
