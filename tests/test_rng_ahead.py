"""A stream kept a number ahead (``core.rng.ahead_load``) draws the numbers the stream itself
would, and ``chance`` answers as ``uniform < p``."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from numba import njit

from whistsim.core.rng import ahead_load, ahead_store, chance, pick_bit, randbelow, stream_start, uniform


@njit
def _draws(stream, k, masks, ps):
    """Per mask: randbelow(n), pick_bit(mask), uniform, then chance(p) for every p, from ``stream``."""
    out = np.empty((masks.shape[0], 3 + ps.shape[0]))
    for i in range(masks.shape[0]):
        out[i, 0] = randbelow(stream, k, 1 + i)
        out[i, 1] = pick_bit(stream, k, masks[i])
        out[i, 2] = uniform(stream, k)
        for j in range(ps.shape[0]):
            out[i, 3 + j] = chance(stream, k, ps[j])
    return out


@njit
def _ahead_draws(state, masks, ps):
    """The same draws from a copy of ``state[0]`` kept a number ahead, copied back at the end."""
    ahead = np.zeros((3, 2), np.uint64)
    ahead_load(ahead, 1, state, 0)
    out = _draws(ahead, 1, masks, ps)
    ahead_store(ahead, 1, state, 0)
    return out


@njit
def _chances(stream, ps, n):
    """[draw, p]: chance(p) and uniform < p on two copies of the stream, draw by draw."""
    a = stream.copy()
    b = stream.copy()
    out = np.empty((n, ps.shape[0], 2), np.bool_)
    for i in range(n):
        for j in range(ps.shape[0]):
            out[i, j, 0] = chance(a, 0, ps[j])
            out[i, j, 1] = uniform(b, 0) < ps[j]
    return out, a[0] == b[0]


PS = np.array([0.0, 1.0, 0.5, 0.3, 1e-300, 1 - 2.0**-53, 2.0**-53, -1.0, 2.0, np.nan, np.inf, -np.inf])


@given(st.integers(0, 2**32), st.lists(st.integers(1, (1 << 53) - 1), min_size=1, max_size=40))
def test_ahead_draws_the_streams_numbers(seed, masks):
    masks = np.array(masks, np.int64)
    plain = np.array([stream_start(seed, 0, 1)], np.uint64)
    state = plain.copy()
    want = _draws(plain, 0, masks, PS)
    got = _ahead_draws(state, masks, PS)
    assert (got == want).all()
    assert state[0] == plain[0]  # and the stream is where the plain draws left it


@given(st.integers(0, 2**32), st.floats(0.0, 1.0))
def test_chance_is_uniform_below_p(seed, p):
    stream = np.array([stream_start(seed, 3, 2)], np.uint64)
    got, same_state = _chances(stream, np.concatenate([PS, [p]]), 200)
    assert (got[:, :, 0] == got[:, :, 1]).all()
    assert same_state


@njit
def _edge(p, u):
    """chance(p) on a stream whose next number is ``u << 11``: the edge of each threshold."""
    z = np.uint64(u) << np.uint64(11)
    ahead = np.zeros((1, 2), np.uint64)
    ahead[0, 1] = z
    return chance(ahead, 0, p), np.float64(u) * (1.0 / 9007199254740992.0) < p


@given(st.integers(0, (1 << 53) - 1), st.integers(-2, 2))
def test_chance_at_the_threshold(u, d):
    """At p = u * 2**-53 exactly, and a step either side, the integer compare answers as the float."""
    for p in (np.float64(u) * 2.0**-53, np.nextafter(np.float64(u) * 2.0**-53, np.float64(d))):
        got, want = _edge(p, u)
        assert got == want


def test_next_from_python_as_compiled():
    """``_next`` called from Python takes the same body as in a kernel, for either layout."""
    from whistsim.core.rng import _next

    plain = np.array([stream_start(5, 1, 2)], np.uint64)
    ahead = np.zeros((1, 2), np.uint64)
    ahead_load(ahead, 0, plain.copy(), 0)
    assert [_next(plain, 0) for _ in range(3)] == [_next(ahead, 0) for _ in range(3)]
    assert plain[0] == ahead[0, 0]
