"""The bit helpers against plain Python."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from numba import njit

from whistsim.core.bits import FAST_PDEP, hand_mask, highest, lowest, nth, nth_by_pdep, nth_by_steps, popcount
from whistsim.core.rng import pick_bit, pick_card, randbelow


@njit
def _helpers(m, k):
    return nth_by_steps(m, k), nth(m, k), popcount(m), lowest(m), highest(m)


@njit
def _pdep(m, k):  # compiled only where the processor has pdep
    return nth_by_pdep(m, k)


@given(st.integers(0, (1 << 52) - 1), st.integers(0, 52))
def test_nth_is_the_kth_set_bit(mask, k):
    bits = [i for i in range(64) if mask >> i & 1]
    want = bits[k] if k < len(bits) else 64
    steps, chosen, count, low, high = _helpers(np.int64(mask), k)
    assert steps == chosen == want
    if FAST_PDEP:
        assert _pdep(np.int64(mask), k) == want
    assert count == len(bits)
    if bits:
        assert (low, high) == (bits[0], bits[-1])


@njit
def _picks(bits, avoid, start):
    """pick_card, pick_bit over the hand as one mask, and the draw itself: each on its own copy of
    one stream, with where each copy ends."""
    s = np.empty(3, np.uint64)
    s[:] = start
    held = hand_mask(bits)
    if avoid >= 0:
        held &= ~(np.int64(0x1FFF) << np.int64(13 * avoid))
    cards = (pick_card(s, 0, bits, avoid), pick_bit(s, 1, held))
    return cards, randbelow(s, 2, popcount(held)), s


@given(
    st.lists(st.integers(0, (1 << 13) - 1), min_size=4, max_size=4),
    st.integers(-1, 3),
    st.integers(0, 2**64 - 1),
)
def test_a_random_pick_is_the_drawn_kth_legal_card(suits, avoid, start):
    bits = np.array(suits, np.int64)
    legal = [s * 13 + r for s in range(4) if s != avoid for r in range(13) if suits[s] >> r & 1]
    if not legal:  # a player picks only from a hand with a legal card
        return
    cards, k, ends = _picks(bits, avoid, np.uint64(start))
    assert cards == (legal[k],) * 2
    assert len(set(ends.tolist())) == 1  # one number drawn by each: the streams stay in step
