"""Bit tricks for hands kept as per-suit rank masks (bit r set: rank r held).

LLVM's ``ctpop``, ``cttz`` and ``ctlz`` compile to single instructions.
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
def _cttz(typingctx, x):
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return x(x), codegen


@intrinsic
def _ctlz(typingctx, x):
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return x(x), codegen


@njit(cache=True, inline="always")
def lowest(mask):
    """Position of the lowest set bit of a non-zero int64 mask."""
    return _cttz(mask)


@njit(cache=True, inline="always")
def highest(mask):
    """Position of the highest set bit of a non-zero int64 mask."""
    return 63 - _ctlz(mask)


@njit(cache=True, inline="always")
def nth(mask, k):
    """Position of the ``k``-th (0-based, from the low end) set bit of ``mask``."""
    for _ in range(k):
        mask &= mask - 1
    return _cttz(mask)
