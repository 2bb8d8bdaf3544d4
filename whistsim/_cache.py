"""Where Numba caches whistsim's kernels: a folder named by what they are built from.

Numba reuses a cached kernel while the file that defines it is unchanged, even
when a function it calls from another file (the rules engine, a player) has
changed, and would then run the old code. So the cache folder is named by a
hash of every module the games import (engines, players, the shared harness,
cards and random streams): an edit there starts a fresh cache; an edit to the
CLI, the reports or the docs does not. Folders not used lately are pruned. A
``NUMBA_CACHE_DIR`` set by the user is the root instead (its hash folders are
not pruned: it may hold other caches).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import time
from pathlib import Path

from ._imports import ROOT, closure, import_graph, module_files

KEEP = 6  # cache folders kept: the most recently used
STALE_S = 7 * 86400  # and any used in the last week (another checkout may be using it)


def sources_hash(root: Path = ROOT) -> str:
    """A hash of the sources of every module of the package's ``games`` and of every module they import."""
    files = module_files(root)
    graph = import_graph(root)
    games = f"{root.name}.games"
    # Every module of the games package (games are imported by name, which the graph cannot see).
    used = set().union(*(closure(m, graph) for m in files if m == games or m.startswith(games + ".")))
    h = hashlib.sha256()
    for name in sorted(used):
        h.update(name.encode())
        h.update(files[name].read_bytes())
    return h.hexdigest()[:16]


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


def use_source_keyed_cache() -> None:
    """Point Numba's cache at ``<root>/<sources hash>`` before any kernel is defined; the root is
    ``$NUMBA_CACHE_DIR`` when the user sets it (else ``cache_root()``), so that a kernel built from
    edited sources is never loaded stale from the user's folder either."""
    digest = sources_hash()
    user = os.environ.get("NUMBA_CACHE_DIR")
    if user and Path(user).name == digest:
        return  # chosen already, by the process that started this one
    root = Path(user) if user else cache_root()
    folder = root / digest
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
        drop_corrupt(folder)
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    import numba

    numba.config.reload_config()
