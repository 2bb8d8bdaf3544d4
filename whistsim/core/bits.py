"""Bit tricks for hands kept as per-suit rank masks (bit r set: rank r held).

LLVM's ``ctpop``, ``cttz`` and ``ctlz`` compile to single instructions; so does
``pdep``, which finds the ``k``-th set bit at once, on x86 processors that have it
in hardware (BMI2, except AMD's before Zen 3, where it is microcode).
"""

from __future__ import annotations

import platform

import numpy as np
from llvmlite import binding, ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic


def _fast_pdep() -> bool:
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return False
    try:
        features = binding.get_host_cpu_features()
    except RuntimeError:  # the host's features cannot be read
        return False
    return bool(features.get("bmi2")) and binding.get_host_cpu_name() not in ("znver1", "znver2")


FAST_PDEP = _fast_pdep()


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
def all_when(c):
    """All bits set when ``c``, none otherwise: a mask for choosing without a branch."""
    return -np.int64(c)


@njit(cache=True, inline="always")
def one_of_four(a, b, c, d, k):
    """``a``, ``b``, ``c`` or ``d`` as ``k`` is 0, 1, 2 or 3, without a branch: all four read first,
    so that no load waits on ``k`` (pimc's lanes, each lane its own ``k``)."""
    return (a & all_when(k == 0)) | (b & all_when(k == 1)) | (c & all_when(k == 2)) | (d & all_when(k == 3))


@njit(cache=True, inline="always")
def lowest(mask):
    """Position of the lowest set bit of a non-zero int64 mask."""
    return _cttz(mask)


@njit(cache=True, inline="always")
def highest(mask):
    """Position of the highest set bit of a non-zero int64 mask."""
    return 63 - _ctlz(mask)


@intrinsic
def _pdep(typingctx, x, mask):
    """The low bits of ``x`` deposited at the set bits of ``mask`` (x86 BMI2), as int64."""
    if not (isinstance(x, types.Integer) and isinstance(mask, types.Integer)):
        return None

    def codegen(context, builder, sig, args):
        i64 = ir.IntType(64)
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(i64, [i64, i64]), "llvm.x86.bmi.pdep.64"
        )
        a = context.cast(builder, args[0], sig.args[0], types.int64)
        b = context.cast(builder, args[1], sig.args[1], types.int64)
        return builder.call(fn, [a, b])

    return types.int64(x, mask), codegen


@njit(cache=True, inline="always")
def nth_by_steps(mask, k):
    """:func:`nth` by clearing the lowest set bit ``k`` times (for processors without a fast ``pdep``)."""
    for _ in range(k):
        mask &= mask - 1
    return _cttz(mask)


@njit(cache=True, inline="always")
def nth_by_pdep(mask, k):
    """:func:`nth` by one ``pdep`` (x86 BMI2 only)."""
    return _cttz(_pdep(np.int64(1) << np.int64(k), mask))


# Position of the ``k``-th (0-based, from the low end) set bit of ``mask``; 64 if there is none.
nth = nth_by_pdep if FAST_PDEP else nth_by_steps


@njit(cache=True, inline="always")
def hand_mask(bits):
    """A hand's per-suit masks as one: bit = card code (suit * 13 + rank), suits in order."""
    return bits[0] | (bits[1] << 13) | (bits[2] << 26) | (bits[3] << 39)
