"""Where Numba caches whistsim's kernels: each under a name for what it is built from.

Numba reuses a cached function while the file that defines it is unchanged, even
when a function it calls from another file (the rules engine, a player) has
changed, and would then run the old code. So a function of whistsim, or of a
package that imports whistsim (a game defined outside it), is cached in
``modules/<module>/<hash>`` (:class:`SourcesLocator`), the hash covering the
source of its module and of every module that one imports, directly or not
(:func:`module_digest`): editing a Welsh player leaves the Whist kernels and the
solver cached, as nothing of theirs imports it. Compiled code reaches other
modules only through its module's globals, so through imports; the registry
loads a game by name (``games.get_game``) in Python, never from compiled code.
A generated kernel module (:mod:`whistsim.harness.build`) imports its game's
parts by name instead: it carries in its text the hash of what it is built from
(:func:`digest_of`), and its file is named by its text. A user's function seated in one
is keyed by what its code is built from (:func:`function_digest`).

All of it lives in one folder per checkout of whistsim, ``<root>/<checkout>``,
the root being ``~/.cache/whistsim``, or ``$NUMBA_CACHE_DIR`` when the user
sets it. Folders not used lately are pruned (the user's root itself is not:
it may hold other caches).
"""

from __future__ import annotations

import atexit
import contextlib
import enum
import gc
import hashlib
import inspect
import itertools
import json
import os
import shutil
import sys
import time
import types
from collections.abc import Iterable
from pathlib import Path

import numba
import numpy as np
from numba.core import caching
from numba.core import event as numba_event
from numba.core.caching import _CacheLocator

from .imports import PACKAGE, ROOT, Graph, closure

try:
    import fcntl
except ImportError:  # Windows: no locks; two processes saving one function at once may redo it
    fcntl = None  # type: ignore[assignment]

KEEP = 6  # checkout folders kept: the most recently used
STALE_S = 7 * 86400  # and any used in the last week (another checkout may be using it)
KEEP_VERSIONS = 3  # per module: the hashes last used (a branch switched back and forth)
KEEP_KERNELS = 100  # generated kernel modules kept beyond those used in the last week
IMPORTS_FILE = "imports.json"  # in the checkout folder: each source's imports, parsed once
KEEP_IMPORTS = 2000  # sources whose imports are kept: those read latest
KERNEL_PREFIX = f"{PACKAGE}_kernel_"  # the generated kernel modules' names

_graph: list[Graph] = []  # built on first use: a run reads only the files its kernels import
_digests: dict[str | None, str | None] = {}  # module name -> its hash (None: not keyed by whistsim)
_touched: set[str] = set()


def sources_digest(names: Iterable[str], files: dict[str, Path]) -> str:
    """A hash of these modules' names and sources."""
    h = hashlib.sha256()
    for name in sorted(set(names)):
        h.update(name.encode() + b"\0")
        h.update(files[name].read_bytes())
    return h.hexdigest()[:16]


def _ours(name: str, package: str = PACKAGE) -> bool:
    return name == package or name.startswith(package + ".")


def _shared() -> Graph:
    """The graph of this process, its parsed imports read from and kept in ``IMPORTS_FILE``."""
    if not _graph:
        folder = os.environ.get("NUMBA_CACHE_DIR")
        path = Path(folder) / IMPORTS_FILE if folder else None
        try:
            data = json.loads(path.read_text()) if path else {}
            memo = {
                k: v for k, v in data.items() if isinstance(v, list) and all(isinstance(x, str) for x in v)
            }
        except (OSError, ValueError, AttributeError):
            memo = {}
        _graph.append(Graph(memo=memo))
        if path is not None:
            atexit.register(_keep_imports, path, memo, set(memo))
    return _graph[0]


def _keep_imports(path: Path, memo: dict[str, list[str]], before: set[str]) -> None:
    if set(memo) <= before:
        return  # nothing new parsed
    try:
        with locked(path.parent):  # another process may be keeping its own: both are kept
            try:
                kept = json.loads(path.read_text())
                kept = kept if isinstance(kept, dict) else {}
            except (OSError, ValueError):
                kept = {}
            kept.update(memo)
            tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
            tmp.write_text(json.dumps(dict(list(kept.items())[-KEEP_IMPORTS:])))
            os.replace(tmp, path)
    except OSError:
        pass


def _used(modules: Iterable[tuple[str, str | Path | None]], graph: Graph) -> set[str]:
    """The modules given (name, file) and every module they import, within the graph's package
    and the packages that hold them."""
    used: set[str] = set()
    for name, file in modules:
        if not _ours(name, graph.package) and file:
            graph.add(name, Path(file))
        if name in graph.files:
            used |= closure(name, graph)
    return used


def module_digest(module: str | None, file: str | Path | None, graph: Graph | None = None) -> str | None:
    """The hash of ``module``'s source and of every module it imports (in whistsim, or in the
    graph's package); None for a generated kernel, or a module that imports nothing of whistsim,
    directly or not (Numba's own keys serve it)."""
    if graph is None:
        if module not in _digests:
            _digests[module] = module_digest(module, file, _shared())
        return _digests[module]
    if not module or module.startswith(KERNEL_PREFIX):
        return None
    used = _used([(module, file)], graph)
    return sources_digest(used, graph.files) if any(_ours(m, graph.package) for m in used) else None


def digest_of(modules: Iterable[str]) -> str:
    """The hash of these (imported) modules' sources and of every module they import."""
    graph = _shared()
    used = _used(((m, getattr(sys.modules.get(m), "__file__", None)) for m in modules), graph)
    return sources_digest(used, graph.files)


# ---- users' functions ----------------------------------------------------------------------------
# A kernel that seats a user's function is cached under a hash of everything its compiled code
# is built from: the code of the function and of each function it calls, the values of the
# globals they read (Numba freezes them into the code), and the text of the files they are
# defined in with what those import (an ``@overload`` or ``@intrinsic`` there changes the code
# without changing the function's own). Whatever cannot be hashed so (a function typed in a
# notebook or ``python -c``: no file; an object of a kind not listed; a file edited after its
# import) leaves the kernel uncached: compiled every run, never run stale.

SOURCE_ATTR = "__whistsim_source__"  # a user module's global: the hash of the text it was run from
_TRUSTED = ("numba", "numpy", "llvmlite")  # their functions are Numba's to compile: keyed by name


class Unkeyable(Exception):
    """A user's function reads something whose effect on the compiled code has no hash here."""


def _trusted(module: str | None) -> bool:
    """A module whose objects stand for themselves in compiled code (Numba's own version keys
    its cache): the standard library's, Numba's and NumPy's."""
    if not module:
        return False
    top = module.partition(".")[0]
    return top in _TRUSTED or top in sys.stdlib_module_names


def _file_digest(module: str, file: Path, text_hash: str | None = None) -> str:
    """A hash of a user's file (``text_hash``: its text's, when known from when it was run) and of
    the modules it imports in its own package and in whistsim, named by their names, itself not
    (its name may be made up: a strategy file is loaded as ``whistsim_user_<hash>``)."""
    if text_hash is None:
        _as_imported(module, file)
    h = hashlib.sha256((text_hash or hashlib.sha256(file.read_bytes()).hexdigest()).encode())
    graph = Graph(memo=_shared().memo)  # a fresh one: a file edited in this process is read again
    graph.add(module, file)
    if graph.files.get(module) != file:  # a name that is not its place: the file alone, its imports
        graph.files[module] = file
        graph._known.add(module)
    used = closure(module, graph) - {module}
    for name in used:
        if not _ours(name):
            _as_imported(name, graph.files[name])
    h.update(sources_digest(used, graph.files).encode())
    return h.hexdigest()


def _as_imported(module: str, file: Path) -> None:
    """Refuse (:class:`Unkeyable`) a user's file edited since ``module`` was imported from it: its
    text is no longer the code this process runs, so it cannot key that code. Python's byte-code
    file records the source's modification time and size as they were when it imported it; with
    none (bytecode not written) or a hash-checked one, the file is taken as imported."""
    cached = getattr(sys.modules.get(module), "__cached__", None)
    try:
        if not cached or Path(sys.modules[module].__file__).resolve() != file.resolve():
            return
        with open(cached, "rb") as f:
            head = f.read(16)
        st = file.stat()
    except (OSError, TypeError):
        return
    if len(head) < 16 or int.from_bytes(head[4:8], "little") != 0:  # flags: 0 is stamped by time
        return
    stamped = (int.from_bytes(head[8:12], "little"), int.from_bytes(head[12:16], "little"))
    if stamped != (int(st.st_mtime) & 0xFFFFFFFF, st.st_size & 0xFFFFFFFF):
        raise Unkeyable(f"{module}: its file was edited after it was imported")


def _code(code, h, names: set[str]) -> None:
    """Hash a code object (and those nested in it); collect the names it reads."""
    h.update(code.co_code)
    h.update(repr((code.co_names, code.co_varnames, code.co_freevars, code.co_cellvars,
                   code.co_argcount, code.co_kwonlyargcount, code.co_flags)).encode())  # fmt: skip
    names.update(code.co_names)
    for c in code.co_consts:
        if inspect.iscode(c):
            _code(c, h, names)
        elif isinstance(c, frozenset):  # its order varies with the string hash seed
            h.update(repr(sorted(map(repr, c))).encode())
        else:
            h.update(repr((type(c).__name__, c)).encode())


def _object_module(v) -> str | None:
    return getattr(v, "__module__", None) or getattr(type(v), "__module__", None)


class _Hasher:
    def __init__(self) -> None:
        self.h = hashlib.sha256()
        self.seen: set[int] = set()
        self.files: dict[tuple[str, str], str] = {}

    def value(self, v) -> None:
        """Hash a value compiled code may read (raise :class:`Unkeyable` when not known how)."""
        from numba.core.dispatcher import Dispatcher
        from numba.core.types import Type

        h = self.h
        if isinstance(v, enum.Enum):  # before int: an IntEnum is one
            h.update(repr((type(v).__module__, type(v).__qualname__, v.name)).encode())
            self.value(v.value)
        elif v is None or isinstance(v, bool | int | float | complex | str | bytes):
            h.update(repr((type(v).__name__, v)).encode())
        elif isinstance(v, tuple):
            h.update(f"tuple {type(v).__module__}.{type(v).__qualname__} {len(v)}".encode())
            for x in v:
                self.value(x)
        elif isinstance(v, np.ndarray):
            h.update(repr(("array", v.dtype.descr, v.shape)).encode())
            h.update(np.ascontiguousarray(v).tobytes())
        elif isinstance(v, np.generic):
            h.update(repr(("scalar", v.dtype.descr)).encode() + v.tobytes())
        elif isinstance(v, np.dtype | Type):
            h.update(repr(("type", str(v), getattr(v, "descr", None))).encode())
        elif isinstance(v, Dispatcher):
            h.update(repr(("jit", sorted(v.targetoptions.items()))).encode())
            self.function(v.py_func)
        elif isinstance(v, types.FunctionType):
            self.function(v)
        elif isinstance(v, types.ModuleType):
            self.module(v.__name__, getattr(v, "__file__", None))
        elif isinstance(v, type | types.BuiltinFunctionType | np.ufunc) and _trusted(_object_module(v)):
            h.update(repr(("named", _object_module(v), getattr(v, "__qualname__", None) or repr(v))).encode())
        else:
            raise Unkeyable(f"{type(v).__module__}.{type(v).__qualname__}")

    def module(self, name: str, file, text_hash: str | None = None) -> None:
        if _trusted(name):
            self.h.update(f"module {name}".encode())
            return
        if _ours(name):
            digest = module_digest(name, file)
            if digest is None:
                raise Unkeyable(name)
            self.h.update(f"module {name} {digest}".encode())
            return
        if not file or not Path(file).is_file():
            raise Unkeyable(f"{name}: no file")
        key = (name, str(file))
        if key not in self.files:
            self.files[key] = _file_digest(name, Path(file), text_hash)
        self.h.update(f"file {self.files[key]}".encode())

    def function(self, fn) -> None:
        if id(fn) in self.seen:
            return
        self.seen.add(id(fn))
        name = getattr(fn, "__module__", None)
        if _trusted(name) or _ours(name or ""):
            self.h.update(f"function {fn.__qualname__}".encode())
            self.module(name or "", getattr(sys.modules.get(name or ""), "__file__", None))
            return
        glob = fn.__globals__
        if getattr(sys.modules.get(name or ""), "__dict__", None) is not glob:
            # a cached kernel imports the module of each function in it by name, to load it
            raise Unkeyable(f"{name}: not imported by that name")
        self.module(name or "", fn.__code__.co_filename, glob.get(SOURCE_ATTR))
        names: set[str] = set()
        _code(fn.__code__, self.h, names)
        for d in (fn.__defaults__ or (), tuple(sorted((fn.__kwdefaults__ or {}).items()))):
            self.value(d)
        for cell in fn.__closure__ or ():
            self.value(cell.cell_contents)
        for n in sorted(names):  # globals read, and attributes read of a module read
            if n in glob:
                self.h.update(f"global {n}".encode())
                self.value(glob[n])
        # a user's module read (``helpers.f``): whistsim's are keyed by their sources already
        modules = [v for v in glob.values() if isinstance(v, types.ModuleType)
                   and not (_trusted(v.__name__) or _ours(v.__name__))]  # fmt: skip
        for m in modules:
            for n in sorted(names):
                if n in vars(m):
                    self.h.update(f"attribute {m.__name__}.{n}".encode())
                    self.value(vars(m)[n])


def function_digest(fn) -> str | None:
    """A hash of everything the compiled code of a user's function ``fn`` (a Numba function or a
    Python one) is built from; None when some of it cannot be hashed (the kernel is not cached)."""
    hasher = _Hasher()
    try:
        hasher.value(fn)
    except (Unkeyable, OSError, ValueError, TypeError, AttributeError, RecursionError):
        return None
    return hasher.h.hexdigest()[:20]


def module_folder(module: str, digest: str) -> Path:
    return Path(numba.config.CACHE_DIR) / "modules" / module / digest


def cache_folder(module: str, file: str | Path | None) -> Path | None:
    """The folder Numba caches ``module``'s functions in (None: Numba's own choice)."""
    digest = module_digest(module, file)
    return None if digest is None or not numba.config.CACHE_DIR else module_folder(module, digest)


class SourcesLocator(_CacheLocator):
    """Numba's cache place for a function of a module keyed by its sources (:func:`module_digest`):
    a folder of its own per hash, the hash its stamp (not the file's time or text alone)."""

    def __init__(self, py_func, folder: Path, digest: str, py_file: str | None = None) -> None:
        self._lineno = py_func.__code__.co_firstlineno
        self._py_file = py_file  # Numba names it when it warns that a function cannot be cached
        self._digest = digest
        self._cache_path = str(folder)

    def get_cache_path(self) -> str:
        return self._cache_path

    def get_source_stamp(self) -> str:
        return self._digest

    def get_disambiguator(self) -> str:
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func, py_file):
        module = getattr(py_func, "__module__", None)
        folder = cache_folder(module, py_file) if module else None
        if folder is None:
            return None
        self = cls(py_func, folder, folder.name, py_file)
        try:
            self.ensure_cache_path()
            if self._cache_path not in _touched:  # marks it used, for prune
                _touched.add(self._cache_path)
                os.utime(folder)
        except OSError:
            return None
        return self


@contextlib.contextmanager
def locked(path: str | Path):
    """Hold an exclusive lock on ``path``, a folder or a file, against other processes (and other
    opens of it in this one); a no-op without ``fcntl``."""
    if fcntl is None:
        yield
        return
    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


def _save_locked(self, key, data) -> None:
    """Numba's ``IndexDataCacheFile.save`` with the function's index read and written under a lock
    on its folder, the data written before the index names it. Numba's own reads the index, picks
    the first free data file name and writes both unlocked: two processes saving two signatures of
    one function at once (the test suite's workers) took the same name, and the index kept by one
    could name the other's code, or drop an entry."""
    with locked(self._cache_path):
        overloads = self._load_index()
        name = overloads.get(key)
        if name is None:
            used = set(overloads.values())
            name = next(n for n in map(self._data_name, itertools.count(1)) if n not in used)
        self._save_data(name, data)
        if overloads.get(key) != name:
            overloads[key] = name
            self._save_index(overloads)


def use_sources_locator() -> None:
    """Have Numba ask :class:`SourcesLocator` first where to cache a function, and save to its
    cache under a lock (:func:`_save_locked`)."""
    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl  # its name before Numba 0.60
    if SourcesLocator not in impl._locator_classes:
        impl._locator_classes.insert(0, SourcesLocator)
    caching.IndexDataCacheFile.save = _save_locked


def checkout_key(root: Path = ROOT) -> str:
    """The name of this checkout's cache folder: a hash of where whistsim is, and the level Numba
    optimises at when it is not the default (``-O0`` for ``NUMBA_OPT=0``)."""
    return hashlib.sha256(str(root.resolve()).encode()).hexdigest()[:16] + level_suffix()


def level_suffix() -> str:
    """Numba's cache index is not keyed by the optimisation level (it would load a kernel compiled
    at another level): a folder of its own per level, the default's unmarked."""
    opt = numba.config.OPT
    return "-Omax" if opt.is_opt_max else "" if int(opt) == 3 else f"-O{int(opt)}"


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "whistsim"


def kernel_folder() -> Path:
    """The folder Numba caches in (and generated kernel modules are written to)."""
    return Path(os.environ["NUMBA_CACHE_DIR"])


def private(folder: Path) -> None:
    """Make ``folder`` readable and writable by its owner alone (missing parents get the usual
    mode): the kernel modules in it are imported, so no one else may put code there."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    st = folder.stat()
    if st.st_mode & 0o077 and st.st_uid == os.getuid():
        folder.chmod(0o700)  # made by an older version


def prune(root: Path, keep: int = KEEP, stale_s: float = STALE_S) -> None:
    """Remove cache folders unused for ``stale_s`` seconds, beyond the ``keep`` most recently used."""
    try:
        folders = sorted((p for p in root.iterdir() if p.is_dir()), key=lambda p: p.stat().st_mtime)
    except OSError:
        return
    now = time.time()
    for old in folders[:-keep] if keep else folders:
        try:
            if now - old.stat().st_mtime > stale_s:
                shutil.rmtree(old, ignore_errors=True)
        except OSError:
            pass


def prune_kernels(folder: Path, keep: int = KEEP_KERNELS, stale_s: float = STALE_S) -> None:
    """Remove the generated kernel modules in ``folder/kernels`` (and Numba's cache of them)
    last read or written ``stale_s`` seconds ago, beyond the ``keep`` most recently used."""

    def used(p: Path) -> float:
        st = p.stat()
        return max(st.st_atime, st.st_mtime)

    try:
        files = sorted((folder / "kernels").glob(f"{KERNEL_PREFIX}*.py"), key=used)
        now = time.time()
        old = [p for p in files[:-keep] if now - used(p) > stale_s] if keep else files
    except OSError:
        return
    for path in old:
        for entry in [path, *folder.glob(f"kernels_*/{path.stem}.*")]:
            try:
                entry.unlink()
            except OSError:
                pass


def prune_versions(folder: Path) -> None:
    """Prune each module's cache folders (``modules/<module>/<hash>``) and the kernel modules."""
    try:
        modules = [p for p in (folder / "modules").iterdir() if p.is_dir()]
    except OSError:
        modules = []
    for m in modules:
        prune(m, keep=KEEP_VERSIONS)
    prune_kernels(folder)


def drop_corrupt(folder: Path) -> int:
    """Remove cache entries whose index does not read back (a crash mid-write, a full disk):
    Numba then compiles those kernels afresh instead of failing. Returns how many were removed."""
    import pickle
    import pickletools

    removed = 0
    for dirpath, _, names in os.walk(folder):
        for name in names:
            if not name.endswith(".nbi"):
                continue
            path = Path(dirpath) / name
            try:
                with open(path, "rb") as f:
                    pickle.load(f)  # Numba's version stamp
                    for _ in pickletools.genops(f.read()):  # its entries, parsed but not built
                        pass
                continue
            except Exception:
                pass
            stem = name[: -len(".nbi")]
            for other in [name, *(n for n in names if n.startswith(stem) and n.endswith(".nbc"))]:
                try:
                    (Path(dirpath) / other).unlink()
                except OSError:
                    pass
            removed += 1
    return removed


# Python's collector at its default thresholds passes over the millions of objects a compile makes
# (Numba's IR, mostly kept to its end): 11-13% of the CPU of Welsh Whist's every-player kernel's
# cold compile (46.1 and 44.4 s against 40.2 and 39.6 s with this). No result changes.
COMPILE_GC_THRESHOLD = 100_000  # allocations between the youngest generation's passes (default 700)


class _RareCollections(numba_event.Listener):
    """Numba's compiles (nested, and one at a time: under its compiler lock) with the collector's
    first threshold raised, and the thresholds before them put back after the outermost."""

    def __init__(self) -> None:
        self.depth, self.saved = 0, gc.get_threshold()

    def on_start(self, event) -> None:
        if self.depth == 0:
            self.saved = gc.get_threshold()
            if self.saved[0]:  # 0: the process turned automatic collection off, so it stays off
                gc.set_threshold(max(COMPILE_GC_THRESHOLD, self.saved[0]), *self.saved[1:])
        self.depth += 1

    def on_end(self, event) -> None:
        self.depth -= 1
        if self.depth == 0:
            gc.set_threshold(*self.saved)


_rare: list[_RareCollections] = []


def collect_rarely_while_compiling() -> None:
    """Register :class:`_RareCollections` for Numba's compiles in this process (once)."""
    if not _rare:
        _rare.append(_RareCollections())
        numba_event.register("numba:compile", _rare[0])


def use_source_keyed_cache() -> None:
    """Before any kernel is defined: point Numba's cache at ``<root>/<checkout>`` (the root is
    ``$NUMBA_CACHE_DIR`` when the user sets it, else ``cache_root()``) and have it cache each
    function by the sources it is built from, so that a kernel built from edited sources is never
    loaded stale, from the user's folder either."""
    use_sources_locator()
    key = checkout_key()
    user = os.environ.get("NUMBA_CACHE_DIR")
    if user and Path(user).name == key:
        return  # chosen already, by the process that started this one
    if user and Path(user).name.startswith(key[:16]):
        user = str(Path(user).parent)  # chosen by a parent at another level: its root, ours beside
    root = Path(user) if user else cache_root()
    folder = root / key
    try:
        if not user:
            private(root)
        private(folder)
        now = time.time()
        os.utime(folder, (now, now))  # marks it used, for prune
    except OSError:
        import tempfile  # unwritable home: a fresh folder, compiled anew each run

        folder = Path(tempfile.mkdtemp(prefix="whistsim-kernels-"))
    else:
        if not user:
            prune(root)  # only our own root: the user's folder may hold other caches
        prune_versions(folder)
        drop_corrupt(folder)
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    numba.config.reload_config()
