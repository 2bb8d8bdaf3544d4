"""Where Numba caches whistsim's kernels: a folder named by a hash of the sources.

Numba reuses a cached kernel while the file that defines it is unchanged, even
when a function it calls from another file (the rules engine, a player) has
changed, and would then run the old code. Keying the cache folder by a hash of
every whistsim source file makes any edit start a fresh cache. A
``NUMBA_CACHE_DIR`` set by the user is left alone.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

ROOT = Path(__file__).parent


def sources_hash(root: Path = ROOT) -> str:
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        h.update(path.relative_to(root).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "whistsim"


def use_source_keyed_cache() -> None:
    """Point Numba's cache at ``cache_root()/<sources hash>`` before any kernel is defined."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    folder = cache_root() / sources_hash()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return  # unwritable home: Numba falls back to __pycache__ beside the sources
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    import numba

    numba.config.reload_config()
