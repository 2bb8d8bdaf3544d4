"""``inlined(fn, x)``: the compiled function ``fn`` called with ``x`` as a plain call would, the call
marked ``alwaysinline``, so that LLVM puts ``fn``'s already optimised code in its caller at that call
alone (its other callers still call it). Numba's own ``inline="always"`` copies a function's Numba IR
into every caller and types it again there: seconds of compile for a large one."""

from __future__ import annotations

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def inlined(typingctx, fn, x):
    if not isinstance(fn, types.Dispatcher):
        return None
    sig = typingctx.resolve_function_type(fn, (x,), {})  # compiles fn for x's type
    if sig is None:
        return None

    def codegen(context, builder, signature, args):
        cres = fn.dispatcher.get_compile_result(sig)
        context.active_code_library.add_linking_library(cres.library)
        callee = context.declare_function(builder.module, cres.fndesc)
        status, value = context.call_conv.call_function(
            builder, callee, cres.fndesc.restype, cres.fndesc.argtypes, [args[1]], attrs=("alwaysinline",)
        )
        with cgutils.if_unlikely(builder, status.is_error):
            context.call_conv.return_status_propagate(builder, status)  # fn's exception, as a call raises it
        return value

    return sig.return_type(fn, x), codegen
