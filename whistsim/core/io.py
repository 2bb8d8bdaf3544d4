"""Files: JSON Lines records in and out, and atomic writes (never a half-written result)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import select
import stat
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

STDIO = "-"  # the name of standard output (or input) for every file option


def _target(path: str | os.PathLike) -> Path:
    """Where writing ``path`` lands: a symlink is followed to its target, not replaced."""
    real = Path(os.path.realpath(path))
    if not real.exists() and os.path.exists(path):  # /dev/stdout on a pipe: a link to no path
        return Path(os.path.abspath(path))
    return real


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


def _tmp_name(name: str) -> str:
    """A temporary name beside ``name``: ``.NAME.PID.8-hex-digits.tmp``, the writer's pid in it."""
    return f"{_tmp_prefix(name)}{os.getpid()}.{secrets.token_hex(4)}.tmp"


def _clean_stale(path: Path) -> None:
    """Remove temporary files a killed writer (kill -9) left beside ``path``: only names
    exactly of :func:`_tmp_name`'s pattern whose process is gone."""
    own = re.compile(re.escape(_tmp_prefix(path.name)) + r"([1-9][0-9]{0,9})\.[0-9a-f]{8}\.tmp")
    with contextlib.suppress(OSError):
        for entry in os.scandir(path.parent):
            m = own.fullmatch(entry.name)
            if m is None or _alive(int(m.group(1))) or not entry.is_file(follow_symlinks=False):
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
    if text == STDIO:  # - is standard output everywhere else: never a folder by that name
        raise WhistsimError(
            f"{option} -: a folder is written here, not standard output (./- names a folder -)"
        )
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


def check_outputs(*outputs: tuple[str | os.PathLike | None, str], stdout: str | None = None) -> bool:
    """Check a command's outputs, ``(path or None, option)`` each, before any work: each as
    :func:`check_output` does, then together. Two that are the same file (through a symlink,
    ``./``, a hard link: the path they resolve to, or the same device and inode) or that both
    go to standard output (``-``, or a path that is where standard output goes) are refused in
    one line, as is a ``-`` when ``stdout`` names something else the command prints there for
    a program (``"--json"``). The null device may take any number of them.

    Returns True when an output goes to standard output: everything meant for a person (tables,
    notes, warnings, progress) then goes to standard error.
    """
    from .options import WhistsimError

    given = [(os.fspath(p), option) for p, option in outputs if p is not None]
    for text, option in given:
        check_output(text, option)
    seen: dict[tuple, tuple[str, str]] = {}
    on_stdout = None
    for text, option in given:
        key = _identity(text)
        if key is None:
            continue
        if key in seen:
            other = " ".join(seen[key])
            if key == _STDOUT:
                raise WhistsimError(
                    f"{other} and {option} {text} both go to standard output: give one of them a file"
                )
            raise WhistsimError(
                f"{other} and {option} {text} are the same file: give each output a file of its own"
            )
        seen[key] = (option, text)
        if key == _STDOUT:
            on_stdout = (option, text)
    if on_stdout is not None and stdout is not None:
        option, text = on_stdout
        raise WhistsimError(
            f"{stdout} prints to standard output, where {option} {text} writes too: give {option} a file"
        )
    return on_stdout is not None


_STDOUT = ("standard output",)


def _identity(text: str) -> tuple | None:
    """What an output path writes to: standard output, a file (device and inode) or, for a
    path not there yet, the path it resolves to; None for the null device."""
    if text == STDIO:
        return _STDOUT
    try:
        st = os.stat(text)
    except OSError:
        return ("path", os.path.realpath(text))
    with contextlib.suppress(OSError):
        null = os.stat(os.devnull)
        if stat.S_ISCHR(st.st_mode) and st.st_rdev == null.st_rdev:
            return None
    fd = _fileno(sys.stdout)
    if fd is not None:
        with contextlib.suppress(OSError):
            out = os.fstat(fd)
            if (out.st_dev, out.st_ino) == (st.st_dev, st.st_ino):
                return _STDOUT
    return ("file", st.st_dev, st.st_ino)


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

    Only a regular file (or a new path) is replaced, keeping the mode of the file it
    replaces; a symlink is followed to its target; a device or FIFO is written in place;
    ``-`` is standard output. Ctrl-C stops a write to standard output, a FIFO or a device
    that blocks (no reader, a pager that does not read).
    """
    binary = "b" in mode
    if os.fspath(path) == STDIO:
        fd = _fileno(sys.stdout)
        if fd is None:  # a stand-in for standard output (a test runner's)
            out = sys.stdout.buffer if binary else sys.stdout
            yield out
            out.flush()
            return
        sys.stdout.flush()  # what was printed before comes first
        with _ctrl_c() as watch:
            stream = _Stream(fd, binary, watch)
            yield stream
            stream.flush()  # not on an error: what is left may never be read
        return
    path = _target(path)
    if _special(path):
        with _ctrl_c() as watch:
            watch.blocking = True  # opening a FIFO waits for a reader
            fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
            watch.blocking = False
            try:
                stream = _Stream(fd, binary, watch)
                yield stream
                stream.flush()
            finally:
                os.close(fd)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    _clean_stale(path)
    try:  # the file replaced keeps its mode (a private 0600 stays private)
        st = path.stat()
        keep = stat.S_IMODE(st.st_mode) if stat.S_ISREG(st.st_mode) else None
    except OSError:
        keep = None
    if keep is None:
        umask = os.umask(0)
        os.umask(umask)
        keep = 0o666 & ~umask  # a new result is for sharing, as the umask allows
    while True:
        tmp = path.parent / _tmp_name(path.name)
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
            break
        except FileExistsError:
            continue
    try:
        os.fchmod(fd, keep)
        with os.fdopen(fd, mode, encoding=None if binary else "utf-8") as f:
            yield f
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


@contextlib.contextmanager
def writing(path: str | os.PathLike) -> Iterator[None]:
    """A failed write of ``path`` (a full disk, a closed pipe) as one line naming it (the
    file left as it was), not a traceback naming a temporary file."""
    from .options import WhistsimError

    try:
        yield
    except OSError as e:
        raise WhistsimError(f"cannot write {os.fspath(path)}: {e.strerror or e}") from None


def _fileno(stream) -> int | None:
    try:
        return stream.fileno()
    except (AttributeError, ValueError, OSError):  # io.UnsupportedOperation is both of the last two
        return None


class _Stream:
    """A buffered writer to standard output, a FIFO or a device whose writes Ctrl-C can stop."""

    FLUSH_AT = 1 << 16

    def __init__(self, fd: int, binary: bool, watch: _Watch) -> None:
        self.fd, self.binary, self.watch = fd, binary, watch
        self.mode = "wb" if binary else "w"
        self._parts: list[bytes] = []
        self._size = 0

    def write(self, data) -> int:
        b = bytes(data) if self.binary else data.encode("utf-8")
        self._parts.append(b)
        self._size += len(b)
        if self._size >= self.FLUSH_AT:
            self.flush()
        return len(data)

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def writable(self) -> bool:
        return True

    def flush(self) -> None:
        if self._parts:
            data = b"".join(self._parts)
            self._parts.clear()
            self._size = 0
            _write_all(self.fd, data, self.watch)


class _Watch:
    """Ctrl-C as a stream sees it: ``asked`` once pressed, ``blocking`` while a write is in progress."""

    asked = False
    blocking = False


def _write_all(fd: int, data: bytes, watch: _Watch) -> None:
    view = memoryview(data)
    while view:
        if watch.asked and not _writable(fd, 1.0):  # Ctrl-C was pressed and no one reads: stop
            raise KeyboardInterrupt
        watch.blocking = True
        try:  # once Ctrl-C is pressed, a piece a pipe with room takes without waiting
            k = os.write(fd, view[: select.PIPE_BUF] if watch.asked else view)
        except BlockingIOError:  # a non-blocking descriptor: wait until it takes more
            _writable(fd, None)
            continue
        finally:
            watch.blocking = False
        view = view[k:]


def _writable(fd: int, timeout_s: float | None) -> bool:
    p = select.poll()
    p.register(fd, select.POLLOUT)
    return bool(p.poll(None if timeout_s is None else int(timeout_s * 1000)))


@contextlib.contextmanager
def _ctrl_c() -> Iterator[_Watch]:
    """While a stream to standard output, a FIFO or a device is open, Ctrl-C goes to the
    command's own handler, which may only note it (to stop after the batch in play), and is
    noted here too: a write in progress then stops at once, and a later one stops if the reader
    takes nothing for a second. Otherwise a blocked write would resume and wait for ever."""
    import signal
    import threading

    watch = _Watch()
    old = signal.getsignal(signal.SIGINT) if threading.current_thread() is threading.main_thread() else None
    if not callable(old):  # off the main thread, or Ctrl-C ignored (a background job) or fatal
        yield watch
        return

    def on_sigint(signum, frame):
        watch.asked = True
        old(signum, frame)
        if watch.blocking:
            raise KeyboardInterrupt

    signal.signal(signal.SIGINT, on_sigint)
    try:
        yield watch
    finally:
        if signal.getsignal(signal.SIGINT) is on_sigint:  # not if the one before it has put back its own
            signal.signal(signal.SIGINT, old)


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


BOM = "\ufeff"


def read_lines(source: str) -> Iterator[tuple[int, str | None]]:
    """(0-based line number, text) of a file, or of standard input for ``-``; streamed.

    Bytes that are not UTF-8 come through as surrogates (``surrogateescape``), so a
    reader can reject that line alone and go on. A line longer than ``MAX_LINE``
    comes through as None (its text is skipped, never held); a source with no line
    end in ``MAX_SKIP`` bytes (``/dev/zero``) is refused with a one-line error. A UTF-8
    byte order mark opening the first line is skipped.
    """
    if source == STDIO:
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:  # a text-only stand-in for stdin
            for i, line in enumerate(sys.stdin):
                line = line.removeprefix(BOM) if i == 0 else line
                yield i, (line if len(line) <= MAX_LINE else None)
            return
        yield from _lines(stream, source)
        return
    with open(source, "rb") as f:
        yield from _lines(f, source)


class LineWithoutEnd(Exception):
    """No line end was found within the bytes a reader may skip (``/dev/zero``)."""


def bounded_lines(f: IO[bytes], max_line: int, max_skip: int) -> Iterator[bytes | None]:
    """The raw lines of a byte stream, each read in bounded memory: a line over ``max_line`` bytes
    comes through as None, the rest of it read and dropped a chunk at a time; a line with no end
    within ``max_skip`` bytes raises :class:`LineWithoutEnd`."""
    while True:
        raw = f.readline(max_line + 1)
        if not raw:
            return
        if len(raw) <= max_line or raw.endswith(b"\n"):
            yield raw
            continue
        skipped = len(raw)
        while not raw.endswith(b"\n"):
            raw = f.readline(min(max_line + 1, 1 << 20))
            if not raw:
                break
            skipped += len(raw)
            if skipped > max_skip:
                raise LineWithoutEnd
        yield None


def _lines(f: IO[bytes], source: str) -> Iterator[tuple[int, str | None]]:
    from .options import WhistsimError

    i = 0
    try:
        for raw in bounded_lines(f, MAX_LINE, MAX_SKIP):
            if raw is None:
                yield i, None
            else:
                text = raw.decode("utf-8", "surrogateescape")
                yield i, (text.removeprefix(BOM) if i == 0 else text)  # a byte order mark, as editors write
            i += 1
    except LineWithoutEnd:
        raise WhistsimError(f"{source}: line {i} has no end in {MAX_SKIP >> 20} MiB; stopped there") from None
