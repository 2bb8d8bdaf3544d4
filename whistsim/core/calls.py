"""``inlined(fn, *args)``: the compiled function ``fn`` called with ``args`` as a plain call would,
the call marked ``alwaysinline``, so that LLVM puts ``fn``'s already optimised code in its caller at
that call alone (its other callers still call it). Numba's own ``inline="always"`` copies a
function's Numba IR into every caller and types it again there: seconds of compile for a large one."""

from __future__ import annotations

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def inlined(typingctx, fn, *args):
    if not isinstance(fn, types.Dispatcher):
        return None
    sig = typingctx.resolve_function_type(fn, args, {})  # compiles fn for the arguments' types
    if sig is None:
        return None

    def codegen(context, builder, signature, llargs):
        cres = fn.dispatcher.get_compile_result(sig)
        context.active_code_library.add_linking_library(cres.library)
        callee = context.declare_function(builder.module, cres.fndesc)
        values = cgutils.unpack_tuple(builder, llargs[1])  # the arguments come as one tuple
        values = [context.cast(builder, v, a, b) for v, a, b in zip(values, args, sig.args, strict=True)]
        status, value = context.call_conv.call_function(
            builder, callee, cres.fndesc.restype, cres.fndesc.argtypes, values, attrs=("alwaysinline",)
        )
        with cgutils.if_unlikely(builder, status.is_error):
            context.call_conv.return_status_propagate(builder, status)  # fn's exception, as a call raises it
        return value

    return sig.return_type(fn, types.StarArgTuple(args)), codegen


@intrinsic
def wide_vectors(typingctx):
    """Called in a compiled function: its loops vectorised 512 bits wide where the CPU has
    AVX-512 (LLVM's ``prefer-vector-width``; LLVM keeps to 256 bits on most such CPUs unless told).
    Nothing changes on a CPU without it. The attribute stays on the function when other libraries
    link it, so the width holds wherever it is called from."""

    def codegen(context, builder, signature, llargs):
        # a string attribute: llvmlite's list of function attributes does not name it
        set.add(builder.function.attributes, '"prefer-vector-width"="512"')
        return context.get_dummy_value()

    return types.none(), codegen
