"""Users' own strategies: does an ``@njit`` function compile as a player of a game? And the copy
of the view it is given, so that it cannot write the game's state."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import numpy as np
from llvmlite import ir
from numba import njit, typeof
from numba.core import cgutils, types
from numba.core.errors import NumbaError
from numba.extending import intrinsic, overload
from numba.np.numpy_support import as_dtype

from ..core import cache as _cache
from . import loop


def user_checker(parts: ModuleType) -> Callable[[Callable], str | None]:
    """For a game's kernel parts: fn -> why it cannot decide from that game's view (None: it can).

    A function found to compile is marked in the kernel cache under the hash of its code and of
    the game's view, so that later runs do not compile the check again (about 2 s each)."""

    def check_user(fn: Callable) -> str | None:
        mark = _checked_mark(parts, fn)
        if mark is not None and mark.is_file():
            return None
        user, view = fn, getattr(parts, "view", loop.view)  # the kernel's view (build._head)

        @njit
        def probe(buf, seat):
            w, _ = user_view(view(buf[0], seat))  # what the kernel hands it (see build._switch)
            return user(w)

        buf = np.zeros(1, parts.STATE_DTYPE)
        try:
            probe.compile((typeof(buf), types.int64))
        except NumbaError as e:
            return compile_error(str(e))
        ret = probe.overloads[next(iter(probe.overloads))].signature.return_type
        if not isinstance(ret, types.Integer):
            return f"it returns {ret}, not an integer action"
        if mark is not None:
            try:
                mark.parent.mkdir(parents=True, exist_ok=True)
                mark.touch()
            except OSError:
                pass  # unmarked: checked again next run
        return None

    return check_user


def _checked_mark(parts: ModuleType, fn: Callable) -> Path | None:
    """Where a user's function that compiles for ``parts``' view is marked so (None: its code has
    no hash, or there is no kernel cache: checked every run)."""
    folder = _marks_folder()
    code = _cache.function_digest(fn)
    if folder is None or code is None:
        return None
    game = _cache.digest_of([parts.__name__, __name__])
    return folder / f"{parts.__name__}.{game[:16]}.{code}"


def _marks_folder() -> Path | None:
    folder = os.environ.get("NUMBA_CACHE_DIR")
    return Path(folder) / "checked" if folder else None


def compile_error(text: str) -> str:
    """Numba's typing error in one line: the reason, and the user's line that caused it."""
    lines = [x.strip() for x in text.splitlines()]
    body = [x for x in lines if x and not x.startswith(("Failed in", "During:"))]
    reason = body[0] if body else "Numba cannot compile it"
    if reason.endswith("signature:"):
        reason += " " + next((x.lstrip("> ") for x in body if x.startswith(">>>")), "")
    reason = re.sub(r"(Welsh|Dealt)View\(.*", r"\1View", reason)
    reason = reason if len(reason) <= 160 else reason[:157] + "..."
    for i, x in enumerate(lines):
        m = re.match(r'File "(.*)", line (\d+):', x)
        if m and "<string>" not in x and "^" in lines[i + 1 : i + 8]:
            caret = lines.index("^", i + 1)
            return f"{reason} (line {m.group(2)}: {lines[caret - 1]})"
    return reason


# A user's function gets copies of the view's records, never the game's own: a write to
# them cannot change the game, and is caught after the call. Its random stream
# (``own.rng``) is its own to advance and is copied back; a ``scratch`` record (a deal a
# search may play out) is its own to write and is dropped.
OWN, STREAM, SCRATCH = "own", "rng", "scratch"
WROTE = "user strategy {sid} wrote v.{field}: a strategy may change only its own random stream, v.own.rng"


def user_view(v):
    """(a copy of view ``v`` for a user's function, the buffers its records live in); Numba only."""
    raise NotImplementedError("called from Numba code only")


def user_wrote(v, bufs, sid):
    """After a user's call: keep its random stream; raise if it wrote the view. Numba only."""
    raise NotImplementedError("called from Numba code only")


def _records(v) -> list[int]:
    return [i for i, t in enumerate(v.types) if isinstance(t, types.Record)]


# records cannot be returned through the wrappers Numba builds for a function called from Python
_INNER = {"no_cfunc_wrapper": True, "no_cpython_wrapper": True}


@overload(user_view, inline="always", jit_options=_INNER)
def _user_view(v):
    if not isinstance(v, types.BaseNamedTuple):
        return None
    recs = _records(v)
    env = {"__name__": __name__, "np": np, "cls": v.instance_class}  # a module a cached kernel finds
    lines = ["def impl(v):"]
    for i in recs:
        env[f"dt{i}"] = as_dtype(v.types[i])
        # row 0 the user's copy; row 1 where user_wrote copies the game's record again to compare
        lines += [f"    b{i} = np.zeros(2, dt{i})", f"    b{i}[0] = v[{i}]"]
    args = [f"b{i}[0]" if i in recs else f"v[{i}]" for i in range(len(v.types))]
    lines.append(f"    return cls({', '.join(args)}), ({''.join(f'b{i}, ' for i in recs)})")
    exec("\n".join(lines), env)  # the fields are known only from the view's type
    return env["impl"]


@overload(user_wrote, prefer_literal=True, jit_options=_INNER)
def _user_wrote(v, bufs, sid):
    if not isinstance(v, types.BaseNamedTuple) or not isinstance(sid, types.IntegerLiteral):
        return None
    recs, names = _records(v), list(v.instance_class._fields)
    env = {"__name__": __name__, "np": np, "same": _same}
    lines = ["def impl(v, bufs, sid):"]
    own = names.index(OWN) if OWN in names else -1
    if own in recs and STREAM in (v.types[own].fields or {}):
        lines.append(f"    v[{own}].{STREAM}[:] = bufs[{recs.index(own)}][0].{STREAM}")
    for k, i in enumerate(recs):
        if names[i] == SCRATCH:
            continue
        message = WROTE.format(sid=sid.literal_value, field=names[i])
        lines += [
            f"    bufs[{k}][1] = v[{i}]",
            f"    if not same(bufs[{k}][:1], bufs[{k}][1:]):",
            f"        raise ValueError({message!r})",
        ]
    lines.append("    return 0")
    exec("\n".join(lines), env)
    return env["impl"]


@intrinsic
def _same(typingctx, a, b):
    """Are two C-contiguous arrays of one type equal byte for byte? (Eight bytes at a time where
    their records divide into them.) Written in LLVM IR: an array's ``view`` compiles its checks'
    message formatting in every process that compiles a user's kernel (some 2 s of CPU)."""
    if not (isinstance(a, types.Array) and a == b and a.layout == "C"):
        return None

    def codegen(context, builder, sig, args):
        x = context.make_array(sig.args[0])(context, builder, args[0])
        y = context.make_array(sig.args[1])(context, builder, args[1])
        size = context.get_abi_sizeof(context.get_data_type(sig.args[0].dtype))
        word = ir.IntType(64 if size % 8 == 0 else 8)
        n = builder.udiv(builder.mul(x.nitems, x.itemsize), ir.Constant(x.nitems.type, word.width // 8))
        px = builder.bitcast(x.data, word.as_pointer())
        py = builder.bitcast(y.data, word.as_pointer())
        diff = cgutils.alloca_once_value(builder, ir.Constant(word, 0))
        with cgutils.for_range(builder, n) as loop:  # no early exit: the loop vectorizes
            i = loop.index
            d = builder.xor(builder.load(builder.gep(px, [i])), builder.load(builder.gep(py, [i])))
            builder.store(builder.or_(builder.load(diff), d), diff)
        return builder.icmp_unsigned("==", builder.load(diff), ir.Constant(word, 0))

    return types.boolean(a, b), codegen
