"""Bit tricks for hands kept as per-suit rank masks (bit r set: rank r held).

LLVM's ``ctpop`` and ``cttz`` compile to single instructions (POPCNT, TZCNT).
"""

from __future__ import annotations

from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic


@intrinsic
def popcount(typingctx, x):
    """Number of set bits."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])

    return x(x), codegen


@intrinsic
def lowest_bit(typingctx, x):
    """Position of the lowest set bit (the width of ``x`` when it is 0)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return x(x), codegen


@njit(cache=True, inline="always")
def nth_bit(mask, k):
    """Position of the ``k``-th (0-based) set bit of ``mask``."""
    for _ in range(k):
        mask &= mask - 1
    return lowest_bit(mask)
