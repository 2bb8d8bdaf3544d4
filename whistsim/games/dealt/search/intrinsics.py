"""The Numba pieces the open-hand search is built from: its two ways of compiling a function,
``pext``, arrays passed as data pointers and viewed again, and compares of 8 table words at
once."""

from __future__ import annotations

from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import populate_array

# The search's own functions run without Numba's reference counting: they allocate nothing,
# and counting the references of every array passed to a helper (atomic operations) took a
# quarter of the time.
_bare = njit(cache=True, _nrt=False)
_inline = njit(cache=True, _nrt=False, inline="always")  # small helpers: a call costs more


@intrinsic
def _u(typingctx, i):
    """An index as unsigned: Numba tests every signed index for wrapping around (a negative one
    counts from the end), a test and a select on every read of X in the search. An intrinsic, not
    an inlined function: inlining retyped it at each of its hundreds of uses (compile time)."""
    if not isinstance(i, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        return context.cast(builder, args[0], sig.args[0], types.uint64)

    return types.uint64(i), codegen


@intrinsic
def _pext(typingctx, x, mask):
    """The bits of ``x`` at the set bits of ``mask``, packed into the low bits (x86 BMI2)."""
    if not (isinstance(x, types.Integer) and isinstance(mask, types.Integer)):
        return None

    def codegen(context, builder, sig, args):
        i64 = ir.IntType(64)
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(i64, [i64, i64]), "llvm.x86.bmi.pext.64"
        )
        a = context.cast(builder, args[0], sig.args[0], types.int64)
        b = context.cast(builder, args[1], sig.args[1], types.int64)
        return builder.call(fn, [a, b])

    return types.int64(x, mask), codegen


# The search's own functions pass its three arrays (X, the table, the moves) as data pointers
# and view them again inside: an array is passed field by field (seven or nine words) and a
# recursive call paid for all three.
@intrinsic
def _ptr(typingctx, arr):
    """The data pointer of a C-ordered int64 array."""
    if not (isinstance(arr, types.Array) and arr.dtype == types.int64 and arr.layout == "C"):
        return None

    def codegen(context, builder, sig, args):
        return context.make_array(sig.args[0])(context, builder, args[0]).data

    return types.CPointer(types.int64)(arr), codegen


@intrinsic
def _view(typingctx, ptr, rows, cols):
    """The int64 array (``rows`` x ``cols``, C order) at a data pointer, owned by its caller."""
    if not isinstance(ptr, types.CPointer):
        return None
    retty = types.Array(types.int64, 2, "C")

    def codegen(context, builder, sig, args):
        p, r, c = args
        ary = context.make_array(retty)(context, builder)
        eight = ir.Constant(ir.IntType(64), 8)
        populate_array(
            ary, data=p, shape=[r, c], strides=[builder.mul(c, eight), eight], itemsize=eight, meminfo=None
        )
        return ary._getvalue()

    return retty(ptr, rows, cols), codegen


def _read(context, builder, sig, args, offset, stride):
    """``X[offset + stride * a + b]`` (``X[offset + a]`` for two arguments)."""
    i64 = ir.IntType(64)
    ix = [context.cast(builder, v, t, types.int64) for v, t in zip(args[1:], sig.args[1:], strict=True)]
    at = builder.add(ir.Constant(i64, offset), ix[-1])
    if len(ix) == 2:
        at = builder.add(at, builder.mul(ir.Constant(i64, stride), ix[0]))
    data = context.make_array(sig.args[0])(context, builder, args[0]).data
    return builder.load(builder.gep(data, [at]))


def _is_x(arr):
    return isinstance(arr, types.Array) and arr.dtype == types.int64 and arr.layout == "C"


def _reader(offset, stride=0):
    """An intrinsic reading a C-ordered int64 array at ``offset + stride * a + b``, ``f(X, a,
    b)`` (``f(X, a)`` at ``offset + a`` when ``stride`` is 0), the index unsigned as :func:`_u`'s.
    The search reads a hand or a seat's side hundreds of times: as inlined functions each read
    was typed again at every use (compile time); the code is the same."""

    def typer2(typingctx, arr, a, b):
        if not (_is_x(arr) and isinstance(a, types.Integer) and isinstance(b, types.Integer)):
            return None
        return types.int64(arr, a, b), lambda c, b_, sig, args: _read(c, b_, sig, args, offset, stride)

    def typer1(typingctx, arr, a):
        if not (_is_x(arr) and isinstance(a, types.Integer)):
            return None
        return types.int64(arr, a), lambda c, b_, sig, args: _read(c, b_, sig, args, offset, stride)

    return intrinsic(typer2 if stride else typer1)


SHIFT_AT = 57  # a "shifted" word: the shift in its top 7 bits, the shifted value below


def _compare8(op, masked=False):
    """An intrinsic comparing one column of 8 table entries at once (a vector load and compare):
    bit ``i`` of the result is ``tt[idx + i] op value``, with ``masked``
    ``(tt[idx + i] & value) op tt[idx2 + i]``, with ``masked="by"`` ``(tt[idx + i] & idx2) op
    value`` (``idx2`` a mask, not an index), with ``masked="shifted"`` ``value >> (tt[idx + i] >>
    SHIFT_AT) op tt[idx + i] & (2**SHIFT_AT - 1)``, with ``masked="high"`` or ``"low"`` the word's
    high or low signed 32 bits ``op value`` (``idx2`` unused in these three). A probe then tests a bucket's entries without a
    branch per entry, whose outcome no predictor can guess."""

    def typer(typingctx, ptr, idx, value, idx2):
        if not isinstance(ptr, types.CPointer):
            return None

        def codegen(context, builder, sig, args):
            p, i, v, i2 = args
            i64 = ir.IntType(64)
            vt = ir.VectorType(i64, 8)

            def load(k, kt):
                at = builder.gep(p, [context.cast(builder, k, kt, types.int64)])
                return builder.load(builder.bitcast(at, vt.as_pointer()), align=8)

            def splat(k, kt):
                one = builder.insert_element(
                    ir.Constant(vt, ir.Undefined),
                    context.cast(builder, k, kt, types.int64),
                    ir.Constant(ir.IntType(32), 0),
                )
                return builder.shuffle_vector(
                    one, ir.Constant(vt, ir.Undefined), ir.Constant(ir.VectorType(ir.IntType(32), 8), [0] * 8)
                )

            x = load(i, sig.args[1])
            if masked in ("high", "low"):
                half = ir.Constant(vt, [32] * 8)
                h = builder.ashr(x if masked == "high" else builder.shl(x, half), half)
                c = builder.icmp_signed(op, h, splat(v, sig.args[2]))
            elif masked == "shifted":
                sh = builder.lshr(x, ir.Constant(vt, [SHIFT_AT] * 8))
                low = builder.and_(x, ir.Constant(vt, [(1 << SHIFT_AT) - 1] * 8))
                c = builder.icmp_signed(op, builder.lshr(splat(v, sig.args[2]), sh), low)
            elif masked == "by":
                c = builder.icmp_signed(op, builder.and_(x, splat(i2, sig.args[3])), splat(v, sig.args[2]))
            elif masked:
                c = builder.icmp_signed(op, builder.and_(x, splat(v, sig.args[2])), load(i2, sig.args[3]))
            else:
                c = builder.icmp_signed(op, x, splat(v, sig.args[2]))
            return builder.zext(builder.bitcast(c, ir.IntType(8)), i64)

        return types.int64(ptr, idx, value, idx2), codegen

    return intrinsic(typer)


_eq8 = _compare8("==")
_ge8 = _compare8(">=")
_le8 = _compare8("<=")
_meq8 = _compare8("==", masked=True)
_beq8 = _compare8("==", masked="by")
_seq8 = _compare8("==", masked="shifted")
_hge8 = _compare8(">=", masked="high")
_lle8 = _compare8("<=", masked="low")
