"""Kernel modules written from a game's parts and the players seated in a run.

Numba never caches a kernel that takes a function as an argument, and a kernel
that calls every player compiles them all. So for each game and each set of
seated players this writes a small Python module into the kernel cache folder:
the generated ``decide`` switch over those players, the shared loops of
:mod:`whistsim.harness.loop`, and the game's :func:`~whistsim.harness.template`
functions, with the rest of the game's kernel parts as globals. Numba caches its
functions like any other file's; the file is named by a hash of its text, so it
is written once and found again by later runs. The text holds a hash of the
sources of the modules it imports (the game's parts and the seated players, and
what they import: :func:`whistsim.core.cache.digest_of`), so an edit to those makes
a new module, and an edit to another game leaves it as it is. A user's function seated is
bound to the module after its import; the text holds the hash of what that function's code
is built from (:func:`whistsim.core.cache.function_digest`), so its kernel is cached the same
way, and one whose function has no such hash is compiled by every run.

A template's conditions marked :func:`~whistsim.harness.loop.per_run` (the same in every
game of a run: whether a constraint is given, whether the game's own fast loop plays every
deal) are taken once before a batch run, by a small function compiled from them alone
(:func:`per_run_values`), and written into the kernel as ``True`` or ``False``: Python drops
the branches not taken before Numba reads the function, so a run compiles only what it can
reach, and each set of values is a kernel module of its own, cached like the others.
"""

from __future__ import annotations

import ast
import dis
import hashlib
import importlib.util
import inspect
import os
import sys
import tempfile
import textwrap
from collections.abc import Callable, Iterable
from pathlib import Path
from types import ModuleType

from numba.core import event as numba_event

from ..core import cache as _cache
from ..core.strategy import USER_BASE, user_function
from . import loop

_LOADED: dict[str, ModuleType] = {}
# kernel()'s answers by its arguments: building the source reads every template's source
# (tokenizing files), far too slow for callers that ask per decision (``decide_now``)
_KERNELS: dict[tuple, ModuleType] = {}

# What a game's kernel parts module defines for the shared loops (see whistsim.harness).
REQUIRED = (
    "over",
    "to_move",
    "check_move",
    "apply_move",
    "record",
    "play_game",
    "STATE_DTYPE",
    "ENGINE_ERRORS",
)


def _loop_source() -> tuple[str, str]:
    """The defaults a game may override, and the shared loops (the module's header left out)."""
    src = inspect.getsource(loop)
    i, j = src.index("\nSeatView = "), src.index("\n# The shared loops.")
    return src[i:j], src[j:]


def _template_sources(functions: Iterable[Callable]) -> list[str]:
    # their decorators (``@template``, ``@thread_template``) are Numba's in the generated module
    return [textwrap.dedent(inspect.getsource(fn)) for fn in functions]


def templates_of(parts: ModuleType) -> list[Callable]:
    return [f for f in vars(parts).values() if callable(f) and getattr(f, "__whistsim_template__", False)]


# ---- conditions fixed for a run (``per_run``) ---------------------------------------------------

MARK = loop.per_run.__name__
PER_RUN_READS = ("g", "extra")  # the template's arguments a per-run condition may read


def _marks(src: str) -> list[tuple[int, int, str]]:
    """The ``per_run(...)`` calls in a template's source: (start, end) as UTF-8 byte offsets, and
    the condition's text. A condition that reads another argument or a local is refused: the
    harness takes its value before the run, from the run's first state and ``extra`` alone."""
    tree = ast.parse(src)
    fn = tree.body[0]
    assert isinstance(fn, ast.FunctionDef)
    args = {a.arg for a in fn.args.args}
    local = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    starts = [0]
    for line in src.encode().splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    found = []
    for node in ast.walk(fn):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == MARK):
            continue
        if len(node.args) != 1 or node.keywords:
            raise TypeError(f"{fn.name}: {MARK}() takes one condition")
        read = {n.id for n in ast.walk(node.args[0]) if isinstance(n, ast.Name)}
        bad = sorted((read & (args | local)) - set(PER_RUN_READS))
        inner = [
            n for n in ast.walk(node.args[0]) if isinstance(n, ast.Call) and getattr(n.func, "id", "") == MARK
        ]
        if bad or inner:
            what = f"reads {', '.join(bad)}" if bad else f"holds another {MARK}()"
            raise TypeError(
                f"{fn.name}: a {MARK}() condition {what}; it may read only {' and '.join(PER_RUN_READS)}"
            )
        assert node.end_lineno is not None and node.end_col_offset is not None
        start = starts[node.lineno - 1] + node.col_offset
        end = starts[node.end_lineno - 1] + node.end_col_offset
        found.append((start, end, ast.get_source_segment(src, node.args[0]) or ""))
    return sorted(found)


def _fix(src: str, values: Iterable[bool] | None) -> str:
    """``src`` with each ``per_run(c)`` replaced by its value for the run (``values``, in order),
    or by ``(c)`` itself (None: a kernel for no run in particular)."""
    marks = _marks(src)
    if not marks:
        return src
    values = [None] * len(marks) if values is None else list(values)
    out, at, raw = [], 0, src.encode()
    for (start, end, cond), v in zip(marks, values, strict=True):
        out += [raw[at:start], (f"({cond})" if v is None else str(bool(v))).encode()]
        at = end
    return b"".join([*out, raw[at:]]).decode()


def conditions(parts: ModuleType) -> list[str]:
    """The per-run conditions of the game's templates, in the order their values are given."""
    return [c for src in _template_sources(templates_of(parts)) for _, _, c in _marks(src)]


_PROBES: dict[ModuleType, ModuleType | None] = {}


def _head(parts: ModuleType, built_from: list[str], what: str) -> list[str]:
    defaults, _ = _loop_source()
    return [
        f"# Generated by whistsim.harness.build from {parts.__name__}{what}: do not edit.",
        f"# Built from sources {_cache.digest_of(built_from)}",
        "import importlib",
        "from collections import namedtuple",
        "",
        "import numba",
        "import numpy as np",
        "from numba import njit",
        defaults,
        "",
        f"_parts = importlib.import_module({parts.__name__!r})",
        "globals().update({k: v for k, v in vars(_parts).items() if not k.startswith('__')})",
    ]


def probe_source(parts: ModuleType) -> str | None:
    """The module of one function, ``per_run_values(states, extra)``: the values of the game's
    per-run conditions for a run (``g`` is the run's first state); None when there are none."""
    conds = conditions(parts)
    if not conds:
        return None
    body = ["@njit(cache=True)", "def per_run_values(states, extra):", "    g = states[0]", "    return ("]
    body += [f"        bool({c})," for c in conds] + ["    )"]
    return (
        "\n".join([*_head(parts, [parts.__name__, loop.__name__], ", its per-run conditions"), "", "", *body])
        + "\n"
    )


def per_run_values(parts: ModuleType, states, extra) -> tuple[bool, ...]:
    """The values for a run of the game's per-run conditions (see :func:`kernel`'s ``per_run``),
    from the states the run starts from (all alike) and the ``extra`` its ``play_game`` is given."""
    if parts not in _PROBES:
        text = probe_source(parts)
        _PROBES[parts] = None if text is None else load(text)
    probe = _PROBES[parts]
    return () if probe is None else tuple(bool(x) for x in probe.per_run_values(states, extra))


def user_numbers(users: dict[int, Callable]) -> dict[int, int]:
    """Each seated user's id -> the number a kernel seating them all knows it by: ``USER_BASE``
    plus its place among them by the hash of its function (by id for one with no hash), so that
    the kernel's text, and so its cached module, does not hang on the order in which this process
    registered them. The seats a kernel plays hold these numbers (:func:`~whistsim.harness.batch.run_kernel`)."""
    if len(users) <= 1:  # one user is every id from USER_BASE on (_switch): no hash to order by
        return {u: USER_BASE for u in users}
    digest = {u: _cache.function_digest(fn) for u, fn in users.items()}
    order = sorted(users, key=lambda u: (digest[u] is None, digest[u] or "", u))
    return {u: USER_BASE + k for k, u in enumerate(order)}


def _switch(players: ModuleType, ids: list[int], users: list[int], prelude: bool) -> str:
    """``decide(sid, v)`` over the seated ids: users' own functions first, then the
    game's prelude (decisions every player takes alike), then each built-in. One user alone
    is every id from ``USER_BASE`` on: its seats need no number of the kernel's own."""
    lines = []
    for u in users:  # a copy of the view: a user's write cannot reach the game (harness.users)
        # A function of its own, not inlined: inlined into the loop beside a game's inlined view
        # and move (the toy game's), the view's copy made Numba drop the move's writes to the
        # state's arrays (a played card stayed in the hand).
        lines += ["@njit(cache=True)", f"def _decide_user{u}(v):", "    w, b = _user_view(v)",
                  f"    a = _user{u}(w)", f"    _user_wrote(v, b, {u})", "    return a", "", ""]  # fmt: skip
    # Inlined, the switch's players are compiled again at each of its two callers (the shared loop,
    # decide_now); called, it costs 4-9% of Welsh's shared loop. So it is a function of its own only
    # holding every built-in player (the test suite's kernel: 6-7 s of CPU less per cold compile).
    inline = len(ids) < len(players.PLAYERS)
    lines += ['@njit(cache=True, inline="always")' if inline else "@njit(cache=True)", "def decide(sid, v):"]
    for u in users:
        test = f"sid >= {USER_BASE}" if len(users) == 1 else f"sid == {u}"
        lines += [f"    if {test}:", f"        return _decide_user{u}(v)"]
    if prelude:
        lines += ["    a = _prelude(v)", "    if a >= 0:", "        return a"]
    for i in ids[:-1]:
        lines += [f"    if sid == {i}:", f"        return _player{i}.decide(v)"]
    lines.append(f"    return _player{ids[-1]}.decide(v)" if ids else "    return -1")
    return "\n".join(lines)


def source(
    parts: ModuleType,
    players: ModuleType | None,
    ids: Iterable[int],
    users: Iterable[int] | dict[int, Callable] = (),
    templates: Iterable[Callable] = (),
    prelude: bool = True,
    per_run: Iterable[bool] | None = None,
) -> str:
    """The text of the kernel module for ``parts`` with built-in ``ids`` and user ids seated;
    ``templates``: more functions (marked :func:`template`) that call the players;
    ``prelude``: the players' shared decisions (``players.prelude``) are taken at all;
    ``per_run``: the values of the game's per-run conditions (:func:`conditions`) in the run
    the kernel is for (None: tested as written, in every game). ``users`` given with their
    functions (``{id: fn}``) are keyed by the hash of what their code is built from
    (:func:`whistsim.core.cache.function_digest`) and the module is cached; given as ids alone,
    or with a function that has no such hash, it is compiled by every run."""
    missing = [name for name in REQUIRED if not hasattr(parts, name)]
    if missing:
        raise TypeError(f"{parts.__name__} lacks what the harness needs: {', '.join(missing)}")
    fns = users if isinstance(users, dict) else {}
    keys = {u: _cache.function_digest(fn) for u, fn in fns.items()}
    ids, users = sorted(set(ids)), sorted(set(users))
    users_module = __name__.rpartition(".")[0] + ".users"
    _, loops = _loop_source()
    built_from = [parts.__name__, loop.__name__]
    if players is not None:
        built_from += [players.__name__, *(players.PLAYERS[i].__name__ for i in ids)]
    if users:
        built_from.append(users_module)
    own = _template_sources(templates_of(parts))
    values = None if per_run is None else list(per_run)
    conds = [c for src in own for _, _, c in _marks(src)]
    if values is not None and len(values) != len(conds):
        raise TypeError(f"{parts.__name__}: {len(values)} per-run values for {len(conds)} conditions")
    head = _head(parts, built_from, "")
    if values is not None and conds:  # which variant this is, for a reader
        head += [f"# per run: {c} = {bool(v)}" for c, v in zip(conds, values, strict=True)]
    every = players is not None and len(ids) == len(players.PLAYERS)
    # A function Numba compiles on its own links all it calls into its module and optimises it
    # again: in the every-player kernel (the suite's) the game's play_game inlined into play_games,
    # its one caller there, is one such pass less (2 to 4 s of the dealt kernel's cold compile).
    inline = ', inline="always"' if every and not templates else ""
    head += [
        f"template = njit(cache=True{inline})  # the decorators of the game's templates, compiled here",
        "thread_template = njit(cache=True, nogil=True)",
    ]
    if players is not None:
        prelude = prelude and hasattr(players, "prelude")
        if prelude:
            head.append(f"from {players.__name__} import prelude as _prelude")
        roster = players.PLAYERS
        head += [f"import {roster[i].__name__} as _player{i}" for i in ids]
        # one with no hash is named by the function itself: the same text would be the same module
        head += [f"_user{u} = None  # set before the first call: {keys.get(u) or _unhashed(fns.get(u))}"
                 for u in users]  # fmt: skip
        if users:
            head.append(f"from {users_module} import user_view as _user_view, user_wrote as _user_wrote")
        head += ["", "", _switch(players, ids, users, prelude)]
    if every:  # the switch a call (_switch)
        loops += "\n\nmake_move = make_move_by_call  # the rules compiled once, not into each loop\n"
    fixed = []
    for src in own:
        n = len(_marks(src))
        fixed.append(_fix(src, None if values is None else values[:n]))
        values = None if values is None else values[n:]
    rest = [_fix(src, None) for src in _template_sources(templates)]  # a tool's: tested as written
    text = "\n".join(head) + "\n\n" + loops + "\n\n" + "\n\n".join([*fixed, *rest])
    if any(keys.get(u) is None for u in users):
        text = text.replace("cache=True", "cache=False")  # a user's function with no hash: not cached
    return text


_UNHASHED: list[Callable] = []  # users' functions with no hash, numbered in the order first seated


def _unhashed(fn: Callable | None) -> str:
    if fn is None:
        return "None"
    number = next((i for i, f in enumerate(_UNHASHED) if f is fn), len(_UNHASHED))
    if number == len(_UNHASHED):
        _UNHASHED.append(fn)
    return f"None (unhashed function {number} of this process)"


def _folder() -> Path:
    folder = _cache.kernel_folder() / "kernels" if os.environ.get("NUMBA_CACHE_DIR") else None
    if folder is None:
        folder = Path(tempfile.mkdtemp(prefix="whistsim-kernels-"))
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    return folder


def _read(path: Path) -> str | None:
    try:
        return path.read_text()
    except (OSError, UnicodeDecodeError):
        return None


def _module_name(text: str) -> str:
    return _cache.KERNEL_PREFIX + hashlib.sha256(text.encode()).hexdigest()[:20]


def cacheable(text: str) -> bool:
    """Whether Numba caches the kernel module of ``text`` (not when it seats a user's function
    that has no hash: :func:`source`)."""
    return "cache=True" in text


def load(text: str, users: dict[int, Callable] | None = None) -> ModuleType:
    """Import the module of ``text`` (written once, by its hash), users' functions bound. The
    functions bound are those the text was written for, or ones with the same hash."""
    name = _module_name(text)
    if name in _LOADED:
        return _LOADED[name]
    path = _folder() / f"{name}.py"
    # rewritten only when it is not the text built here (rewriting changes its time stamp and
    # voids Numba's cache): a file edited in the cache is replaced, never imported
    if _read(path) != text:
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(text)
        try:  # another process writing the same module at once: the first one written stays
            os.link(tmp, path)
        except FileExistsError:
            if _read(path) != text:
                os.replace(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    for u, fn in (users or {}).items():
        setattr(module, f"_user{u}", fn)
    if cacheable(text):  # else compiled by every run anyway
        _compile_alone(module, path)
    _LOADED[name] = module
    return module


_held: set[Path] = set()  # kernel modules this process is compiling, their lock held


def _compile_alone(module: ModuleType, path: Path) -> None:
    """Have one process at a time compile the functions of the kernel module at ``path``: another
    that needs one of them meanwhile (the test suite's other worker, a second run) waits, then
    loads what the first compiled from Numba's cache instead of compiling it too. The lock is the
    module's file's, held through a compile and the compiles it sets off."""
    from numba.core.dispatcher import Dispatcher

    def alone(compile_: Callable) -> Callable:
        def compile(sig):
            if path in _held:  # a nested compile: the lock is ours already
                return compile_(sig)
            with _cache.locked(path):
                _held.add(path)
                try:
                    return compile_(sig)
                finally:
                    _held.discard(path)

        return compile

    for fn in vars(module).values():
        if isinstance(fn, Dispatcher) and getattr(fn.py_func, "__module__", None) == module.__name__:
            fn.compile = alone(fn.compile)


# ---- a first compile, announced --------------------------------------------------------------
# Decided here, in Python, from Numba's cache index files; nothing of it runs in Numba code.

TIMES_FILE = "whistsim-compile-times.json"  # beside the cache folders: recent compiles' seconds
# Seconds a first compile takes per unit (the rules count one, each distinct player seated one
# when the shared loop plays; a kernel whose run only the game's own loop plays counts one in
# all), before this cache root holds a measured compile of the kind, by (is the whole game
# compiled too, does the shared loop play). The shared loop: 3-player Welsh hunter/counter/cheater
# took 21 s on an idle 2-core machine (issue 32), 4 units; with the game's own functions not
# cached either (a first run after an install or an edit), Whist with random players took 41 s of
# CPU, 2 units. The own loop alone, 1 unit: random Welsh took 19 s of CPU and random Whist 27 s
# with the whole game compiling, the Welsh kernel 4 s with its game cached (a loaded 2-core
# machine, 2026-12-03). Compiles measured later (wall time, per game and kind, kept in
# TIMES_FILE) replace these.
PRIOR_S_PER_UNIT = {(False, True): 5.0, (True, True): 20.0, (False, False): 4.0, (True, False): 15.0}
OWN_LOOP, WHOLE_GAME = " (own loop)", " (whole game)"  # what a key in TIMES_FILE ends with, by kind
_TIMES_KEPT = 8  # per game: the last compiles measured
_announced: dict[str, tuple[str, int]] = {}  # module name -> (game parts module, units)
_timer: list = []  # the compile listener, registered at the first announcement


def cached(name: str) -> bool:
    """Whether Numba's cache holds compiled functions of the kernel module ``name``: Numba keeps
    an index ``NAME.FUNCTION-LINE.pyXY.nbi`` per function, in a folder under ``NUMBA_CACHE_DIR``
    named after the module's folder. (Without that variable the module goes to a fresh
    temporary folder: never cached.)"""
    root = os.environ.get("NUMBA_CACHE_DIR")
    return root is not None and next(Path(root).glob(f"*/{name}.*.nbi"), None) is not None


def _times_path() -> Path | None:
    root = os.environ.get("NUMBA_CACHE_DIR")
    if not root or Path(root).name.startswith("whistsim-kernels-"):  # a throw-away folder: nothing kept
        return None
    return Path(root).parent / TIMES_FILE


def _read_times() -> dict[str, list[float]]:
    import json

    path = _times_path()
    try:
        data = json.loads(path.read_text()) if path is not None else {}
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: [float(x) for x in v if isinstance(x, int | float) and 0 < x < 1e5]
            for k, v in data.items() if isinstance(v, list)}  # fmt: skip


def game_cached(parts: ModuleType) -> bool:
    """Whether Numba's cache holds the game's own compiled functions (its kernel parts module's)."""
    from numba.core.caching import _CacheLocator

    root, file = os.environ.get("NUMBA_CACHE_DIR"), getattr(parts, "__file__", None)
    if not root or not file:
        return False
    folder = _cache.cache_folder(parts.__name__, file)  # keyed by its sources
    if folder is None:  # else Numba's: named after the module's folder
        folder = Path(root) / _CacheLocator.get_suitable_cache_subpath(file)
    return next(folder.glob(f"{Path(file).stem}.*.nbi"), None) is not None


def _kind(key: str) -> tuple[bool, bool]:
    """(is the whole game compiled too, does the shared loop play), from a key of TIMES_FILE."""
    return key.endswith(WHOLE_GAME), OWN_LOOP not in key


def estimate_s(key: str, units: int) -> float:
    """A first compile's expected seconds: ``units`` times the median seconds per unit of the
    compiles of this kind (``key``: the game, whether only its own loop plays and whether all
    of it compiled) measured in this cache root; else of any game's of the same kind; else
    ``PRIOR_S_PER_UNIT``."""
    import statistics

    times = _read_times()
    kind = _kind(key)
    seen = times.get(key) or [x for k, v in times.items() if _kind(k) == kind for x in v]
    return units * (statistics.median(seen) if seen else PRIOR_S_PER_UNIT[kind])


def _in_cache(fn) -> bool:
    """Whether Numba's cache holds ``fn`` (a dispatcher): its index file is there."""
    try:
        return Path(fn._cache._cache_file._index_path).exists()
    except AttributeError:  # not cached at all (``cache=False``): compiled every run
        return False


def _called(code, names: dict) -> list:
    """The functions live bytecode calls: what Numba will compile with it. Python has dropped
    the branches a per-run value rules out, so they are not here; ``module.f`` counts as ``f``."""
    found = []
    ins = list(dis.get_instructions(code))
    for i, x in enumerate(ins):
        if x.opname != "LOAD_GLOBAL":
            continue
        obj = names.get(x.argval)
        if (
            isinstance(obj, ModuleType)
            and i + 1 < len(ins)
            and ins[i + 1].opname in ("LOAD_ATTR", "LOAD_METHOD")
        ):
            obj = getattr(obj, ins[i + 1].argval, None)
        if hasattr(obj, "py_func") or inspect.isfunction(obj):
            found.append(obj)
    for c in code.co_consts:
        if inspect.iscode(c):
            found += _called(c, names)
    return found


def reached(module: ModuleType, entry: str = "play_games") -> list:
    """The functions that calling ``entry`` of the kernel ``module`` compiles or loads, found in
    the bytecode Numba reads: the module's own and inline ones are followed into; the players'
    switch ``decide``, a function compiled on its own (whose callees come with it) and one of
    Numba's end a path."""
    from numba.core.dispatcher import Dispatcher

    decide = getattr(module, "decide", None)
    todo, seen, found = [getattr(module, entry)], set(), []
    while todo:
        fn = todo.pop()
        if id(fn) in seen:
            continue
        seen.add(id(fn))
        found.append(fn)
        py = getattr(fn, "py_func", fn)
        inline = isinstance(fn, Dispatcher) and fn.targetoptions.get("inline") == "always"
        if fn is decide or not (inline or getattr(py, "__module__", None) == module.__name__):
            continue
        todo += _called(py.__code__, py.__globals__)
    return found


def reach(module: ModuleType, parts: ModuleType, entry: str = "play_games") -> tuple[bool, bool]:
    """What calling ``entry`` of the kernel ``module`` compiles: (does it reach the players'
    switch ``decide``, i.e. the shared loop; is a function of the game's own package that it
    calls on its own missing from Numba's cache: a first run of the game)."""
    from numba.core.dispatcher import Dispatcher

    package = parts.__name__.rpartition(".")[0]
    fns = reached(module, entry)
    shared = any(fn is getattr(module, "decide", None) for fn in fns)
    fresh = False
    for fn in fns:
        mod = getattr(getattr(fn, "py_func", fn), "__module__", "") or ""
        if (isinstance(fn, Dispatcher) and fn.targetoptions.get("inline") != "always"
                and (mod == package or mod.startswith(package + "."))):  # fmt: skip
            fresh = fresh or not _in_cache(fn)
    return shared, fresh


def _say(s: float) -> str:
    return f"{max(5, 5 * round(s / 5)):.0f} s" if s < 90 else f"{s / 60:.0f} min"


class _CompileTimer(numba_event.Listener):
    """Numba's compile events: the seconds of the outermost compiles of each announced kernel
    module, summed, and kept at exit per game as seconds per unit for the next estimate."""

    def __init__(self) -> None:
        self.depth, self.t0, self.name = 0, 0.0, None
        self.seconds: dict[str, float] = {}

    def on_start(self, event) -> None:
        if self.depth == 0:
            import time

            fn = getattr(event.data.get("dispatcher"), "py_func", None)
            self.name, self.t0 = getattr(fn, "__module__", None), time.perf_counter()
        self.depth += 1

    def on_end(self, event) -> None:
        import time

        self.depth -= 1
        if self.depth or self.name not in _announced or getattr(event, "_exc_details", None) is not None:
            return  # a nested compile, another module's, or one that failed (Ctrl-C)
        self.seconds[self.name] = self.seconds.get(self.name, 0.0) + time.perf_counter() - self.t0

    def keep(self) -> None:
        import json

        path = _times_path()
        if path is None or not self.seconds:
            return
        try:
            with _cache.locked(path.parent):  # another process keeping its times at once: both kept
                times = _read_times()
                for name, secs in self.seconds.items():
                    key, units = _announced[name]
                    times[key] = [*times.get(key, []), round(secs / units, 3)][-_TIMES_KEPT:]
                tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
                tmp.write_text(json.dumps(times))
                os.replace(tmp, path)
        except OSError:
            pass


def announce_compile(
    text: str, parts: ModuleType, units: int, players: bool, users: bool, module: ModuleType | None = None
) -> str | None:
    """Before the first call of a kernel module that Numba has not cached: one line on standard
    error saying that it compiles and about how long it takes. Returns the line (None: cached).
    ``users``: it seats a user's function that is compiled by every run (it has no hash).
    ``module`` (the kernel of a batch run, loaded): what its run compiles is read from it
    (:func:`reach`); else the shared loop is taken to play, and the game is new to the cache
    when none of its parts' functions is there."""
    name = _module_name(text)
    if name in _announced or (not users and cached(name)):
        return None
    if not _timer:
        import atexit

        _timer.append(_CompileTimer())
        numba_event.register("numba:compile", _timer[0])
        atexit.register(_timer[0].keep)
    shared, fresh = reach(module, parts) if module is not None else (True, not game_cached(parts))
    units = units if shared else 1
    key = parts.__name__ + ("" if shared else OWN_LOOP) + (WHOLE_GAME if fresh else "")
    _announced[name] = (key, units)
    what = "these players" if players else "the game's moves"
    when = "a user's strategy is compiled every run" if users else "first run only"
    line = f"whistsim: compiling the kernel for {what} ({when}, about {_say(estimate_s(key, units))})"
    print(line, file=sys.stderr, flush=True)
    return line


def kernel(
    parts: ModuleType,
    players: ModuleType | None,
    ids: Iterable[int] = (),
    users: dict[int, Callable] | None = None,
    templates: Iterable[Callable] = (),
    prelude: bool = True,
    per_run: Iterable[bool] | None = None,
) -> ModuleType:
    """The kernel module of a game (``parts``: its kernel parts module) with these players seated.

    ``templates`` adds functions of the caller's (marked :func:`~whistsim.harness.template`)
    that decide by the seated players, for tools beside the batch kernel. With the
    environment variable ``WHISTSIM_ALL_PLAYERS`` set, every built-in player is compiled
    in and the per-run conditions are tested as written (``per_run`` ignored, unless a tool's
    ``templates`` are given: their module is apart anyway, a run's is less to compile), so that every
    seating and every run of a game share one kernel (results are the same either way: the
    test suite's setting, where each variant would be a compile of its own), unless a user's
    function is seated (its kernel is never shared).
    ``prelude=False`` leaves out the decisions every player takes alike, for rules
    under which none arises (the game's ``players.prelude_used(rules)`` says).
    ``per_run``: the values of the game's per-run conditions in a batch run
    (:func:`per_run_values`), so that the kernel compiles only what that run reaches;
    None: a kernel that tests them as written.
    """
    # A seat record holds a user's id like a built-in's (``decide_now`` passes them all): bind it.
    users = dict(users or {})
    users.update({int(i): user_function(int(i)) for i in ids if i >= USER_BASE and int(i) not in users})
    ids = [int(i) for i in ids if i < USER_BASE]
    if len(users) == 1:  # one user's seats are every id from USER_BASE on (_switch): its id is no matter
        users = {USER_BASE: next(iter(users.values()))}
    # one kernel for any seating (the test suite's choice); not with a user's function seated: that
    # kernel is for that function alone, so it has only the seated players
    if players is not None and os.environ.get("WHISTSIM_ALL_PLAYERS") and not users:
        ids = range(len(players.PLAYERS))
        prelude = True
        if not templates:  # a tool's kernel keeps a run's values: its loop is its own anyway
            per_run = None  # and for every run: the conditions tested as written (results the same)
    ids, templates = tuple(ids), tuple(templates)
    per_run = None if per_run is None else tuple(bool(v) for v in per_run)
    # the functions themselves in the key: the same ids bound to others is another module
    key = (parts, players, ids, tuple(sorted(users.items(), key=lambda x: x[0])), templates, prelude, per_run)
    if key in _KERNELS:
        return _KERNELS[key]
    text = source(parts, players, ids, users, templates, prelude, per_run)
    loaded = _module_name(text) in _LOADED
    module = load(text, users)
    if not loaded:
        units = 1 + len(set(ids)) + len(users)
        every_run = bool(users) and not cacheable(text)
        announce_compile(
            text, parts, units, players is not None, every_run, module if per_run is not None else None
        )
    _KERNELS[key] = module
    return module
