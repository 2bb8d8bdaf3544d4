"""The bit helpers against plain Python."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from numba import njit

from whistsim.core.bits import FAST_PDEP, highest, lowest, nth, nth_by_pdep, nth_by_steps, popcount


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
