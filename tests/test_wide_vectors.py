"""``core.calls.wide_vectors`` marks the compiled function that calls it for 512-bit vectors (LLVM's
``prefer-vector-width``, kept to 256 bits on most AVX-512 CPUs otherwise) and changes nothing else:
the same results, and a function that does not call it stays unmarked."""

from __future__ import annotations

import numpy as np
from numba import njit

from whistsim.core.calls import wide_vectors

WIDE = '"prefer-vector-width"="512"'


@njit  # not cached: its LLVM IR is read
def _summed_wide(a):
    wide_vectors()
    t = 0
    for x in a:
        t += x * x
    return t


@njit
def _summed(a):
    t = 0
    for x in a:
        t += x * x
    return t


def test_wide_vectors_marks_its_caller_for_512_bit_vectors_and_changes_nothing_else():
    a = np.arange(-50, 1000, dtype=np.int64)
    assert _summed_wide(a) == _summed(a) == int((a * a).sum())
    assert WIDE in _summed_wide.inspect_llvm(_summed_wide.signatures[0])
    assert WIDE not in _summed.inspect_llvm(_summed.signatures[0])
