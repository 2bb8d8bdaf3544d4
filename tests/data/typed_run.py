"""The games of ``tests/test_one_compile.py`` played to Numba's typing and no further; prints, as
JSON, every whistsim function's signatures.

A function's signatures are fixed when Numba types it and its callers (a caller's typing asks the
callee's dispatcher for the callee's signature, compiling it): lowering to LLVM and machine code
adds none. So here each function is typed and not lowered. A kernel's ``play_games`` called from
Python is typed and not played (its games would need machine code); any other function called
from Python (the per-run values read before a kernel is picked) is compiled whole, its callees
too, and runs, so that the run picks the kernels a real run picks.

Run alone on an empty ``NUMBA_CACHE_DIR``: nothing is loaded from the cache here (a function
loaded brings its callees compiled in, unseen), and nothing typed only is saved to it.
"""

import gc
import json
import sys
import warnings
from pathlib import Path

from numba.core import caching, compiler, sigutils, typing
from numba.core.compiler_machinery import LoweringPass, PassManager, register_pass
from numba.core.dispatcher import Dispatcher, _FunctionCompiler
from numba.core.inline_closurecall import InlineWorker
from numba.core.typed_passes import AnnotateTypes, IRLegalization, NoPythonSupportedFeatureValidation

# A short process that makes millions of IR objects and keeps most: the collector's passes over
# them cost a third of its CPU.
gc.disable()
# Typing recurses deep and calls across the frame stack's chunk ends: a third of this process's
# CPU went to mapping and unmapping chunks (tests/frame_chunks.py).
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import frame_chunks  # noqa: E402

frame_chunks.install()

TYPED = "whistsim: typed only"
whole = [False]  # compiling whole: a function called from Python that must run


@register_pass(mutates_CFG=False, analysis_only=True)
class TypedOnly(LoweringPass):
    """In place of lowering: the compile's result with its signature, no code."""

    _name = "whistsim_typed_only"

    def __init__(self):
        LoweringPass.__init__(self)

    def run_pass(self, state):
        state.metadata[TYPED] = True
        state.cr = compiler.compile_result(
            typing_context=state.typingctx,
            target_context=state.targetctx,
            entry_point=None,
            typing_error=state.status.fail_reason,
            type_annotation=state.type_annotation,
            library=None,
            call_helper=None,
            signature=typing.signature(state.return_type, *state.args),
            objectmode=False,
            lifted=state.lifted,
            fndesc=None,
            environment=None,
            metadata=state.metadata,
            reload_init=state.reload_init,
        )
        return True


class Typing(compiler.CompilerBase):
    """Numba's nopython pipeline up to lowering (typing and the typed passes), then TypedOnly."""

    def define_pipelines(self):
        steps = compiler.DefaultPassBuilder
        pm = PassManager("whistsim_typing")
        pm.passes.extend(steps.define_untyped_pipeline(self.state).passes)
        pm.passes.extend(steps.define_typed_pipeline(self.state).passes)
        pm.add_pass(NoPythonSupportedFeatureValidation, "features in a valid form")
        pm.add_pass(IRLegalization, "IR legal before lowering")
        pm.add_pass(AnnotateTypes, "annotate types")
        pm.add_pass(TypedOnly, "typed only")
        pm.finalize()
        return [pm]


def typed_only(cres) -> bool:
    return bool(cres.metadata and cres.metadata.get(TYPED))


_compile_core = _FunctionCompiler._compile_core


def compile_core(self, args, return_type):
    if whole[0]:
        return _compile_core(self, args, return_type)
    kept, self.pipeline_class = self.pipeline_class, Typing
    try:
        return _compile_core(self, args, return_type)
    finally:
        self.pipeline_class = kept


def entry(dispatcher, sig):
    """What a call from Python to a function typed only runs."""

    def call(*args):
        if dispatcher.py_func.__name__ == "play_games":
            return None
        kept, whole[0] = whole[0], True
        try:
            real = dispatcher.compile(sig.args)
        finally:
            whole[0] = kept
        return real(*args)

    return call


_add_overload = Dispatcher.add_overload


def add_overload(self, cres):
    if typed_only(cres):  # not in the C dispatcher's table: a call from Python asks compile, then entry
        self.overloads[tuple(cres.signature.args)] = cres._replace(entry_point=entry(self, cres.signature))
        return
    _add_overload(self, cres)


_compile = Dispatcher.compile


def compile(self, sig):
    args = tuple(sigutils.normalize_signature(sig)[0])
    had = self.overloads.get(args)
    if whole[0] and had is not None and typed_only(had):
        del self.overloads[args]  # compiled again, whole: a caller compiled whole links its code
    got = _compile(self, sig)
    return self.overloads[args].entry_point if got is None else got


_save, _load = caching.Cache.save_overload, caching.Cache.load_overload


def save_overload(self, sig, cres):
    if not typed_only(cres):
        _save(self, sig, cres)


def load_overload(self, sig, target_context):
    return _load(self, sig, target_context) if whole[0] else None


# A function inlined (``inline="always"``) is run through the untyped passes at every call site;
# once per function here (the same IR: inlining copies it before changing it).
_untyped: dict = {}


def inline_function(self, caller_ir, block, i, function, arg_typs=None):
    self.flags.enable_ssa = False  # as run_untyped_passes sets it
    key = (function, self._compiler_pipeline, repr(self.flags), repr(self.locals))
    if key not in _untyped:
        _untyped[key] = self.run_untyped_passes(function)
    freevars = function.__code__.co_freevars
    return self.inline_ir(caller_ir, block, i, _untyped[key], freevars, arg_typs=arg_typs)


_FunctionCompiler._compile_core = compile_core
Dispatcher.add_overload = add_overload
Dispatcher.compile = compile
caching.Cache.save_overload = save_overload
caching.Cache.load_overload = load_overload
InlineWorker.inline_function = inline_function

import whistsim  # noqa: E402  (after the patches: the kernels' modules wrap Dispatcher.compile)

warnings.simplefilter("ignore")
whistsim.simulate("welsh", n=5, seed=3)
whistsim.simulate("welsh", n=2, seed=3, strategies=["hunter", "hoarder", "greedy"])
whistsim.simulate("whist", n=2, seed=3)
whistsim.simulate("whist", n=1, seed=3, strategies=["pimc:worlds=2", "heuristic", "random", "random"])
whistsim.simulate("ohhell", n=1, seed=3)
found = {}
for name, module in list(sys.modules.items()):
    if name.startswith("whistsim"):
        for fn in list(vars(module).values()):
            if isinstance(fn, Dispatcher):
                found[fn.py_func.__module__ + "." + fn.py_func.__qualname__] = [
                    repr(tuple(s)) for s in fn.overloads
                ]
json.dump(found, sys.stdout)
