"""Welsh Whist's own loop draws its random seats' numbers from streams kept a number ahead
(``core.rng``'s ``*_ahead`` functions): the same numbers as the plain draws, the same games as the
shared loop and as before, and no other game or tool draws that way."""

from __future__ import annotations

import ast
import hashlib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numba import njit

import whistsim
from whistsim.core.rng import (
    ahead_load,
    ahead_store,
    below_ahead,
    chance_limit,
    pick_bit,
    pick_bit_ahead,
    randbelow,
    randbelow_ahead,
    stream_start,
    uniform,
)
from whistsim.core.strategy import StrategySpec
from whistsim.games import seating
from whistsim.games.welsh import kernels
from whistsim.games.welsh.rules import WelshRules

pytestmark = pytest.mark.filterwarnings("ignore::whistsim.tools.advice.WhistsimWarning")

AHEAD = {
    "ahead_load",
    "ahead_store",
    "next_ahead",
    "randbelow_ahead",
    "pick_bit_ahead",
    "below_ahead",
    "chance_limit",
}
PS = np.array([0.0, 1.0, 0.5, 0.3, 1e-300, 1 - 2.0**-53, 2.0**-53, -1.0, 2.0, np.nan, np.inf, -np.inf])


@njit
def _plain(state, masks, ps):
    """Per mask: randbelow(n), pick_bit(mask), then uniform < p for every p, from ``state[0]``."""
    out = np.empty((masks.shape[0], 2 + ps.shape[0]), np.int64)
    for i in range(masks.shape[0]):
        out[i, 0] = randbelow(state, 0, 1 + i)
        out[i, 1] = pick_bit(state, 0, masks[i])
        for j in range(ps.shape[0]):
            out[i, 2 + j] = uniform(state, 0) < ps[j]
    return out


@njit
def _ahead(state, masks, ps):
    """The same draws from a copy of ``state[0]`` kept a number ahead (row 1 of three), stored back."""
    ahead = np.zeros((3, 2), np.uint64)
    ahead_load(ahead, 1, state, 0)
    out = np.empty((masks.shape[0], 2 + ps.shape[0]), np.int64)
    for i in range(masks.shape[0]):
        out[i, 0] = randbelow_ahead(ahead, 1, 1 + i)
        out[i, 1] = pick_bit_ahead(ahead, 1, masks[i])
        for j in range(ps.shape[0]):
            out[i, 2 + j] = below_ahead(ahead, 1, chance_limit(ps[j]))
    ahead_store(ahead, 1, state, 0)
    return out


@given(
    st.integers(0, 2**32),
    st.lists(st.integers(1, (1 << 53) - 1), min_size=1, max_size=40),
    st.floats(0.0, 1.0),
)
def test_ahead_draws_are_the_plain_draws(seed, masks, p):
    masks = np.array(masks, np.int64)
    ps = np.concatenate([PS, [p]])
    plain = np.array([stream_start(seed, 0, 1)], np.uint64)
    state = plain.copy()
    want = _plain(plain, masks, ps)
    got = _ahead(state, masks, ps)
    assert (got == want).all()
    assert state[0] == plain[0]  # and the stream is left where the plain draws leave it


@njit
def _at_edge(p, u):
    """below_ahead(chance_limit(p)) on a stream whose next number is ``u << 11``, and ``uniform < p``
    for that number."""
    ahead = np.zeros((1, 2), np.uint64)
    ahead[0, 1] = np.uint64(u) << np.uint64(11)
    return below_ahead(ahead, 0, chance_limit(p)), np.float64(u) * (1.0 / 9007199254740992.0) < p


@given(st.integers(0, (1 << 53) - 1), st.sampled_from([-1.0, 2.0]))
def test_the_threshold_at_its_edge(u, toward):
    """At p = u * 2**-53 exactly, and the next float either side, the integers answer as the floats."""
    exact = np.float64(u) * 2.0**-53
    for p in (exact, np.nextafter(exact, toward)):
        got, want = _at_edge(p, u)
        assert got == want


def _digest(batch) -> str:
    h = hashlib.sha256()
    for cols in (batch.seat, batch.game):
        for k in sorted(cols):
            h.update(k.encode())
            h.update(np.ascontiguousarray(cols[k]).tobytes())
    for log in batch.logs:
        h.update(np.ascontiguousarray(log).tobytes())
    return h.hexdigest()[:16]


def _random(draw):
    return StrategySpec("random", {"draw": draw})


# (players, seats, sha256 of every column and log of 400 games, seed 2026), as the code before the
# streams kept ahead played them: the own loop, with draw chances at and near their edges.
PINNED = [
    (3, [_random(0.5)], "5a2e2da3678aa0b1"),
    (4, [_random(0.3)], "f366c03bc94ed5f1"),
    (5, [_random(0.7)], "7368a2f76b8a09a5"),
    (6, [_random(0.0)], "0f4280e04940e40d"),
    (2, [_random(1.0)], "70cb5989f21ee2fc"),
    (12, [_random(1e-300)], "220187e35022f4bf"),
    (3, [_random(1 - 2**-53)], "38fa0a96b79dd52b"),
    (5, [_random(0.3), StrategySpec("greedy", {}), _random(0.9)], "d3af4bcdf7fcc753"),
]


@pytest.mark.parametrize("players, specs, want", PINNED)
def test_own_loop_plays_the_pinned_games_as_the_shared_loop(players, specs, want):
    rules = WelshRules.make("parlett", players=players)
    ids, params = seating("welsh", (specs * players)[:players], players)
    own, shared = (
        kernels.play_batch(rules, ids, params, seed=2026, n=400, log_games=400, shared_loop=s)
        for s in (False, True)
    )
    assert _digest(own) == _digest(shared) == want


def test_only_the_own_loops_of_welsh_and_oh_hell_draw_from_streams_kept_ahead():
    """The ahead draws are the own loops' of Welsh Whist and Oh Hell, each loading its seats'
    streams and storing them back: no other module imports them (the shared draws take plain
    streams only, so every other game's and tool's numbers are untouched)."""
    root = Path(whistsim.__file__).parent
    users = set()
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and any(a.name in AHEAD for a in node.names):
                users.add(path.relative_to(root).as_posix())
    assert users == {"games/welsh/kernels.py", "games/welsh/players/random.py", "games/ohhell/kernels.py"}
