"""Files: JSON Lines records in and out, and atomic writes (never a half-written result)."""

from __future__ import annotations

import contextlib
import json
import os
import stat
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

STDIO = "-"  # the name of standard output (or input) for every file option


def _target(path: str | os.PathLike) -> Path:
    """Where writing ``path`` lands: a symlink is followed to its target, not replaced."""
    return Path(os.path.realpath(path))


def _special(path: Path) -> bool:
    """A device, a FIFO or a socket: written to in place, never replaced by a file."""
    try:
        return not stat.S_ISREG(path.stat().st_mode) and not path.is_dir()
    except OSError:
        return False


def _name_max(folder: Path) -> int:
    try:
        return os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError):
        return 255


def _tmp_prefix(name: str) -> str:
    return f".{name[:80]}."  # short enough for a temporary name beside any legal name


def _clean_stale(path: Path) -> None:
    """Remove temporary files a killed writer (kill -9) left beside ``path``."""
    prefix = _tmp_prefix(path.name)
    with contextlib.suppress(OSError):
        for entry in os.scandir(path.parent):
            name = entry.name
            if not (name.startswith(prefix) and name.endswith(".tmp")):
                continue
            pid = name[len(prefix) :].split(".", 1)[0]
            if not pid.isdigit() or _alive(int(pid)):
                continue
            with contextlib.suppress(OSError):
                os.unlink(entry.path)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process
        return True
    return True


def check_output(path: str | os.PathLike, option: str = "output") -> None:
    """Refuse, before any work, a file path that cannot be written: one line naming ``option``.

    Creates nothing: the folder must already exist (``--csv /nonexistent/dir/x.csv`` is refused).
    """
    from .options import WhistsimError

    try:
        _check_output(os.fspath(path), option)
    except OSError as e:  # a name too long for the system, a loop of links
        raise WhistsimError(f"{option} {os.fspath(path)}: cannot write it: {e.strerror}") from None


def _check_output(text: str, option: str) -> None:
    from .options import WhistsimError

    if text == STDIO:
        return
    if not text:
        raise WhistsimError(f"{option}: an empty file name")
    target = _target(text)
    if target.is_dir():
        raise WhistsimError(f"{option} {text}: cannot write a folder")
    if target.exists():
        if not os.access(target, os.W_OK):
            raise WhistsimError(f"{option} {text}: cannot write it (permission denied)")
        if _special(target):
            return
    folder = target.parent
    if not folder.is_dir():
        why = "is not a folder" if folder.exists() else "does not exist"
        raise WhistsimError(f"{option} {text}: cannot write there: folder {folder} {why}")
    if len(target.name.encode("utf-8", "surrogateescape")) > _name_max(folder):
        raise WhistsimError(f"{option} {text}: cannot write it: the file name is too long")
    _probe(folder, f"{option} {text}")


def check_output_dir(path: str | os.PathLike, option: str = "--out") -> None:
    """Refuse, before any work, a folder that cannot be made or written (``afile/sub``, ``/proc/x``)."""
    from .options import WhistsimError

    text = os.fspath(path)
    try:
        target = _target(text)
        probe = target
        while not probe.exists():
            if len(probe.name.encode("utf-8", "surrogateescape")) > 255:
                raise WhistsimError(
                    f"{option} {text}: cannot write there: the name {probe.name[:20]}... is too long"
                )
            probe = probe.parent
    except OSError as e:
        raise WhistsimError(f"{option} {text}: cannot write there: {e.strerror}") from None
    if not probe.is_dir():
        raise WhistsimError(f"{option} {text}: cannot write there: {probe} is not a folder")
    _probe(probe, f"{option} {text}")


def _probe(folder: Path, what: str) -> None:
    """Create and remove a file in ``folder``: the one honest test of writability (root, /proc)."""
    from .options import WhistsimError

    try:
        fd, tmp = tempfile.mkstemp(prefix=f".whistsim-probe.{os.getpid()}.", suffix=".tmp", dir=folder)
        os.close(fd)
        os.unlink(tmp)
    except OSError as e:
        raise WhistsimError(f"{what}: cannot write in {folder}: {e.strerror}") from None


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike, mode: str = "w") -> Iterator[IO]:
    """Write to a temporary file beside ``path``; replace ``path`` only on success.

    Only a regular file (or a new path) is replaced: a symlink is followed to its
    target; a device or FIFO is written in place; ``-`` is standard output.
    """
    binary = "b" in mode
    if os.fspath(path) == STDIO:
        out = sys.stdout.buffer if binary else sys.stdout
        yield out
        out.flush()
        return
    path = _target(path)
    if _special(path):
        with open(path, mode, encoding=None if binary else "utf-8") as f:
            yield f
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    _clean_stale(path)
    fd, tmp = tempfile.mkstemp(
        prefix=f"{_tmp_prefix(path.name)}{os.getpid()}.", suffix=".tmp", dir=path.parent
    )
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; results are for sharing
    try:
        with os.fdopen(fd, mode, encoding=None if binary else "utf-8") as f:
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


MAX_LINE = 4 << 20  # bytes: a record this long is refused, not read into memory
MAX_SKIP = 256 << 20  # bytes skipped looking for the end of a refused line before giving up


def read_lines(source: str) -> Iterator[tuple[int, str | None]]:
    """(0-based line number, text) of a file, or of standard input for ``-``; streamed.

    Bytes that are not UTF-8 come through as surrogates (``surrogateescape``), so a
    reader can reject that line alone and go on. A line longer than ``MAX_LINE``
    comes through as None (its text is skipped, never held); a source with no line
    end in ``MAX_SKIP`` bytes (``/dev/zero``) is refused with a one-line error.
    """
    if source == STDIO:
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:  # a text-only stand-in for stdin
            for i, line in enumerate(sys.stdin):
                yield i, (line if len(line) <= MAX_LINE else None)
            return
        yield from _lines(stream, source)
        return
    with open(source, "rb") as f:
        yield from _lines(f, source)


def _lines(f: IO[bytes], source: str) -> Iterator[tuple[int, str | None]]:
    from .options import WhistsimError

    i = 0
    while True:
        raw = f.readline(MAX_LINE + 1)
        if not raw:
            return
        if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
            skipped = len(raw)
            while not raw.endswith(b"\n"):
                raw = f.readline(1 << 20)
                if not raw:
                    break
                skipped += len(raw)
                if skipped > MAX_SKIP:
                    raise WhistsimError(
                        f"{source}: line {i} has no end in {MAX_SKIP >> 20} MiB; stopped there"
                    )
            yield i, None
        else:
            yield i, raw.decode("utf-8", "surrogateescape")
        i += 1
