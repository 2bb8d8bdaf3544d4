"""``core.rng.shuffle``, its draws made a block ahead of their swaps, against plain Fisher-Yates.

Every game's deck comes from ``shuffle``: any change to a draw changes every deal, so the shuffle is
checked here against the code it replaced, kept below as the reference. A permutation of
``0..n-1`` fixes every draw of a Fisher-Yates shuffle (the last place's draw is where its card came
from, and so on down), so comparing the shuffled ``arange`` compares all the draws one by one.
"""

import numpy as np
import pytest
from numba import njit, uint64

from whistsim.core.rng import _BLOCK, _GOLDEN, _mix, randbelow, shuffle, stream_start


@njit(cache=True)
def plain_shuffle(a, state, k):
    """The shuffle before its draws were made ahead: one draw, one swap."""
    z = state[k]
    for i in range(a.shape[0] - 1, 0, -1):
        z += _GOLDEN
        j = np.int64(((_mix(z) >> uint64(32)) * uint64(i + 1)) >> uint64(32))
        a[i], a[j] = a[j], a[i]
    state[k] = z


@njit(cache=True)
def drawn_shuffle(a, state, k):
    """The same by ``randbelow``, the draw every other choice is made with."""
    for i in range(a.shape[0] - 1, 0, -1):
        j = randbelow(state, k, i + 1)
        a[i], a[j] = a[j], a[i]


# Lengths about each block's edge (one swap fewer than cards), every deck's, empty and one card.
LENGTHS = sorted({0, 1, 2, 3, 24, 32, 36, 52, 53, 108, _BLOCK - 1, _BLOCK, _BLOCK + 1, _BLOCK + 2,
                  2 * _BLOCK + 1, 2 * _BLOCK + 2, 300})  # fmt: skip


def _streams(seed: int) -> np.ndarray:
    """Three streams, the shuffle's in the middle: the others must stay as they are."""
    return np.array([stream_start(seed, g, 0) for g in (7, 8, 9)], np.uint64)


@pytest.mark.parametrize("n", LENGTHS)
def test_shuffle_is_plain_fisher_yates(n):
    for seed in range(60):
        want_rng, got_rng, by_draw_rng = _streams(seed), _streams(seed), _streams(seed)
        want, got, by_draw = np.arange(n), np.arange(n), np.arange(n)
        plain_shuffle(want, want_rng, 1)
        shuffle(got, got_rng, 1)
        drawn_shuffle(by_draw, by_draw_rng, 1)
        assert np.array_equal(by_draw, want) and np.array_equal(by_draw_rng, want_rng)
        assert np.array_equal(got, want), (n, seed)
        assert np.array_equal(got_rng, want_rng), (n, seed)  # the stream word after, bit for bit


def test_shuffle_cards_of_every_width():
    # A deck as the games hold it (int8 codes, two packs and Taffies) and a strided view.
    base = np.array([c % 52 if c < 104 else 52 for c in range(108)], np.int8)
    for seed in range(20):
        want_rng, got_rng = _streams(seed), _streams(seed)
        want, got = base.copy(), base.copy()
        plain_shuffle(want, want_rng, 1)
        shuffle(got, got_rng, 1)
        assert np.array_equal(got, want) and np.array_equal(got_rng, want_rng)
        want_rng, got_rng = _streams(seed), _streams(seed)
        want, got = np.arange(2 * 52), np.arange(2 * 52)
        plain_shuffle(want[::2], want_rng, 0)
        shuffle(got[::2], got_rng, 0)
        assert np.array_equal(got, want) and np.array_equal(got_rng, want_rng)
