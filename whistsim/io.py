"""Files: JSON Lines records in and out, and atomic writes (never a half-written result)."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike, mode: str = "w") -> Iterator[IO]:
    """Write to a temporary file beside ``path``; replace ``path`` only on success."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; results are for sharing
    try:
        with os.fdopen(fd, mode, encoding=None if "b" in mode else "utf-8") as f:
            yield f
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def dumps(record: dict[str, Any]) -> str:
    return json.dumps(record, separators=(",", ":"))


def write_jsonl(path: str | os.PathLike, records: Iterable[dict[str, Any]]) -> int:
    n = 0
    with atomic_write(path) as f:
        for r in records:
            f.write(dumps(r) + "\n")
            n += 1
    return n


def read_lines(source: str) -> Iterator[tuple[int, str]]:
    """(0-based line number, text) of a file, or of standard input for ``-``.

    Bytes that are not UTF-8 come through as surrogates (``surrogateescape``), so a
    reader can reject that line alone and go on.
    """
    if source == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:  # a text-only stand-in for stdin
            yield from enumerate(sys.stdin)
            return
        for i, raw in enumerate(stream):
            yield i, raw.decode("utf-8", "surrogateescape")
        return
    with open(source, encoding="utf-8", errors="surrogateescape") as f:
        for i, line in enumerate(f):
            yield i, line
