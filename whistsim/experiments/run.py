"""Running an experiment: chunks of games for every cell, merged in chunk order.

Chunk k plays games ``k * chunk .. (k + 1) * chunk - 1`` of every cell. A
game's deal depends on (seed, game index, deck) alone, so cells with the same
deck see the same deals, and per-game differences between them are paired.
A :class:`Run` (a spec and how to run it) hands its chunks to an executor,
:class:`LocalExecutor` (this process, Numba threads) or :class:`DaskExecutor`
(a Dask cluster), which yields them finished, in any order; the run merges
them in chunk order and checkpoints atomically, so a run that is interrupted
and resumed, or spread over a cluster, ends with the same numbers as one
uninterrupted local run.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import stat
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import pandas as pd

from ..core.batch import Batch
from ..core.io import atomic_write, write_jsonl
from ..core.options import WhistsimError
from ..games import get_game
from ..games.runner import deals_drawn, run_games
from .figures import figures, is_ratio, ratio_parts, ratios
from .reading import analyse, differenced, study
from .report import claim_outputs, write_outputs
from .results import CoMoments, ExperimentResult, Tally, hist_of
from .spec import Spec, SpecError, load_spec

CHECKPOINT = ".checkpoint.json"
CHECKPOINT_VERSION = 4  # 2: exact sums (whistsim.core.stats.Moments); 3: a sha256 checksum; 4: deals drawn
MAX_CHECKPOINT_BYTES = 256 << 20  # read whole: a real one is a few MB (cells x figures x exact sums)
DEFAULT_MAX_N = 10**8
_KERNEL_LOCK = threading.Lock()  # a worker's threads must not enter the parallel kernel at once


class ExperimentInterrupted(KeyboardInterrupt):
    """Ctrl-C: finished chunks are kept in the checkpoint; ``--resume`` continues."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass
class ChunkOut:
    index: int
    tally: Tally
    rows: list[dict[str, np.ndarray]] | None = None
    records: list[list[dict]] | None = None


def play_chunk(
    spec: Spec,
    index: int,
    start: int,
    size: int,
    *,
    threads: int | None = None,
    rows: bool = False,
    records: int = 0,
    on_cell: Callable[[int], None] | None = None,
) -> ChunkOut:
    """Play games ``start .. start + size - 1`` of every cell and summarise them.

    With ``measure = "NAME"`` in the spec, ``studies.NAME.measure(spec, cell, batch, records)`` adds the
    study's own per-game figures (arrays of one value a game); a study whose ``RECORDS`` is true is
    given every game's record, else those asked for (``records``)."""
    own = study(spec.measure) if spec.measure is not None else None
    tally = Tally.empty(len(spec.cells), len(spec.pairs))
    tally.games, tally.chunks = size, 1
    paired = {p.cell for p in spec.pairs} | {p.base for p in spec.pairs}
    diff_figures = differenced(spec)
    kept: dict[int, dict[str, np.ndarray]] = {}
    out_rows: list[dict[str, np.ndarray]] | None = [] if rows else None
    kept_log = max(0, min(size, records - start))
    log = size if getattr(own, "RECORDS", False) else kept_log
    out_records: list[list[dict]] | None = [] if kept_log else None
    for cell in spec.cells:
        game = get_game(spec.game_of(cell))
        ids, params = cell.seating(game.name)
        got: list[Batch] = []

        def take(b: Batch, got: list[Batch] = got) -> None:
            got.append(b)
            if on_cell is not None:  # progress, batch by batch: the runner sizes them by time
                on_cell(b.n)

        program = None
        if cell.where is not None:
            from ..deals.constraints import compile_where

            program = compile_where(cell.where, game.name, cell.rules).program
        with _KERNEL_LOCK:
            run_games(game, cell.rules, ids, params, seed=spec.seed, n=size, start=start, first=cell.first,
                      chunk=size, n_threads=threads, log_games=log, on_batch=take, where=program)  # fmt: skip
        batch = got[0] if len(got) == 1 else Batch.concat(got)  # the runner sizes its batches by time
        drawn = deals_drawn(batch)  # the kernel's count of the deals drawn (under a constraint)
        if drawn is not None:
            tally.drawn[cell.index] = list(drawn)
        figs = figures(game, batch, cell.rules)
        recs = None
        if log:  # batch by batch: a record may read what its own batch kept (welsh: the stocks dealt)
            recs = [game.make_record(cell.rules, b, i, spec.seed, list(cell.players)) for b in got
                    for i in range(len(b.logs))]  # fmt: skip
        if own is not None:
            figs.update(own.measure(spec, cell, batch, recs))
            lacking = [
                f for f in (*spec.headline, *spec.histograms) if f not in figs and not is_ratio(game.name, f)
            ]
            if lacking:
                raise SpecError(f"headline: figure {lacking[0]!r} is measured neither by {game.name} nor by the "
                                f"study {spec.measure!r}")  # fmt: skip
        m = tally.cells[cell.index]
        for name, values in figs.items():
            m.add(name, values)
        for r, (num, den) in ratio_parts(game.name, list(figs)).items():
            tally.ratios[cell.index][r] = CoMoments.of(figs[den], figs[num])
        for h in spec.histograms:
            tally.hists[cell.index][h] = hist_of(figs[h])
        if cell.index in paired:
            kept[cell.index] = {f: np.asarray(figs[f], np.float64) for f in diff_figures}
        if out_rows is not None:
            out_rows.append(
                {"game": np.arange(start, start + size), **{k: np.asarray(v) for k, v in figs.items()}}
            )
        if out_records is not None:
            out_records.append((recs or [])[:kept_log])
    for j, p in enumerate(spec.pairs):
        for f in diff_figures:
            tally.paired[j].add(f, kept[p.cell][f] - kept[p.base][f])
    return ChunkOut(index, tally, out_rows, out_records)


def widest_ci(spec: Spec, tally: Tally) -> tuple[float, str]:
    """The widest 95% CI (high - low) among headline figures and their paired differences."""
    worst, where = 0.0, ""
    for c in spec.cells:
        for f in spec.headline:
            e = tally.estimate(c.index, f)
            w = 2 * e.half_width
            if e.n < 2 or not math.isfinite(w):  # undefined (a rate with no denominator) is never narrow
                return math.inf, f"{f} in '{spec.cell_label(c)}' has no CI yet"
            if w > worst:
                worst, where = w, f"{f} in '{spec.cell_label(c)}'"
    for j, p in enumerate(spec.pairs):
        for f in differenced(spec):
            e = tally.paired[j].estimate(f)
            w = 2 * e.half_width
            if not math.isfinite(w):
                return (
                    math.inf,
                    f"the difference in {f} of '{spec.cell_label(spec.cells[p.cell])}' has no CI yet",
                )
            if w > worst:
                worst, where = w, f"the difference in {f} of '{spec.cell_label(spec.cells[p.cell])}'"
    return worst, where


# ---- checkpoints -------------------------------------------------------------


@dataclass
class _State:
    fingerprint: str
    done: int = 0  # chunks merged, in order
    total: Tally | None = None
    pending: dict[int, Tally] = field(default_factory=dict)

    def snapshot(self) -> str:
        content = {
            "version": CHECKPOINT_VERSION,
            "fingerprint": self.fingerprint,
            "done": self.done,
            "total": self.total.to_json() if self.total else None,
            "pending": {str(k): t.to_json() for k, t in self.pending.items()},
        }
        return json.dumps({**content, "sha256": _checksum(content)})


def _checksum(content: dict) -> str:
    """sha256 of a canonical serialisation (sorted keys, no spaces, ASCII) of the checkpoint's content;
    the content holds the run's fingerprint, so the checksum covers the spec and settings too."""
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def _load_checkpoint(path: Path, fingerprint: str, job: ChunkJob) -> _State | None:
    """The checkpoint at ``path`` (None if there is none), refused in one line unless it is intact
    (its checksum), of this run (its fingerprint) and consistent; bounded before it is read."""

    def bad(why: str) -> WhistsimError:
        return WhistsimError(f"checkpoint {path} is corrupted ({why}); run without --resume to start again")

    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            raise WhistsimError(f"checkpoint {path} is not a file; run without --resume to start again")
        if info.st_size > MAX_CHECKPOINT_BYTES:
            raise bad(f"{info.st_size:,} bytes; a checkpoint holds at most {MAX_CHECKPOINT_BYTES >> 20} MiB")
        with open(path, "rb") as f:
            raw = f.read(MAX_CHECKPOINT_BYTES + 1)
    except FileNotFoundError:
        return None
    except OSError as e:
        raise WhistsimError(
            f"cannot read checkpoint {path}: {e.strerror}; run without --resume to start again"
        ) from None
    if len(raw) > MAX_CHECKPOINT_BYTES:
        raise bad(f"over {MAX_CHECKPOINT_BYTES >> 20} MiB")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError) as e:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        raise bad(f"not JSON: {' '.join(str(e).split())[:80]}") from None
    if not isinstance(data, dict):
        raise bad("not a JSON object")
    if "sha256" not in data:
        version = data.get("version")
        if isinstance(version, int) and not isinstance(version, bool) and version < CHECKPOINT_VERSION:
            raise WhistsimError(f"checkpoint {path} was written by an older whistsim (format {version}, this one "
                                f"reads {CHECKPOINT_VERSION}); run without --resume to start again")  # fmt: skip
        raise bad("it has no checksum")
    content = {k: v for k, v in data.items() if k != "sha256"}
    if data["sha256"] != _checksum(content):
        raise bad("its content does not match its sha256 checksum: it was altered or damaged")
    if data.get("version") != CHECKPOINT_VERSION:
        raise WhistsimError(f"checkpoint {path} is of another whistsim (format {data.get('version')!r}, this one "
                            f"reads {CHECKPOINT_VERSION}); run without --resume to start again")  # fmt: skip
    if data.get("fingerprint") != fingerprint:
        raise WhistsimError(
            f"{path} was made by a different spec or settings (the spec, --n, --until-ci, --max-n, --rows or "
            "--records differ); run without --resume to start again"
        )
    try:
        return _state_of(content, fingerprint, job)
    except (KeyError, TypeError, ValueError, IndexError, ZeroDivisionError, OverflowError) as e:
        raise bad(" ".join(str(e).split()) or type(e).__name__) from None


def _state_of(data: dict, fingerprint: str, job: ChunkJob) -> _State:
    """A checkpoint's content as a state: every size bounded by the run before anything is built from it,
    then every tally checked against the chunks it says it holds (ValueError says what is wrong)."""
    if sorted(data) != ["done", "fingerprint", "pending", "total", "version"]:
        raise ValueError(f"keys {sorted(data)}")
    spec, chunk = job.spec, job.spec.chunk
    chunks = -(-job.limit // chunk)  # in the whole run
    done, total, pending = data["done"], data["total"], data["pending"]
    if isinstance(done, bool) or not isinstance(done, int) or not 0 <= done <= chunks:
        raise ValueError(f"done={str(done)[:20]}: the run has {chunks:,} chunk(s)")
    if not isinstance(total, dict) or not isinstance(pending, dict):
        raise ValueError("total and pending must be objects")
    for k in pending:
        if not (k.isascii() and k.isdigit() and len(k) <= 20 and done < int(k) < chunks):
            raise ValueError(f"pending chunk {k[:20]!r}: expected one after {done} and before {chunks}")
    st = _State(fingerprint, done)
    st.total = Tally.from_json(total)
    _check_tally(st.total, spec, min(done * chunk, job.limit), done, "the total")
    for k, v in pending.items():
        t = st.pending[int(k)] = Tally.from_json(v)
        _check_tally(t, spec, min(chunk, job.limit - int(k) * chunk), 1, f"chunk {k}")
    held = [t for t in (st.total, *st.pending.values()) if t.games]
    for t in held[1:]:  # every tally measured the same figures
        for c in range(len(spec.cells)):
            if set(t.cells[c].n) != set(held[0].cells[c].n) or set(t.ratios[c]) != set(held[0].ratios[c]):
                raise ValueError(f"the tallies measure different figures in cell {c}")
    return st


def _check_tally(t: Tally, spec: Spec, games: int, chunks: int, what: str) -> None:
    """Shapes, counts and sums of one tally of ``chunks`` chunks of ``games`` games per cell."""
    if len(t.cells) != len(spec.cells) or len(t.paired) != len(spec.pairs):
        raise ValueError(f"{what}: {len(t.cells)} cells and {len(t.paired)} pairs, not {len(spec.cells)} and "
                         f"{len(spec.pairs)}")  # fmt: skip
    if t.games != games or t.chunks != chunks:
        raise ValueError(
            f"{what} holds {t.games:,} games in {t.chunks:,} chunk(s), expected {games:,} in {chunks:,}"
        )
    want_paired = set(differenced(spec)) if games else set()
    want_hists = set(spec.histograms) if games else set()
    wanted = set(spec.headline) | set(spec.histograms) if games else set()
    known_ratios = {r for g in spec.games() for r in ratios(g)}
    for c in range(len(spec.cells)):
        names = set(t.cells[c].n) | set(t.ratios[c])
        lacking = sorted(wanted - names)
        if lacking:
            raise ValueError(f"{what}: cell {c} lacks the figure {lacking[0]}")
        if not games and names:
            raise ValueError(f"{what}: cell {c} holds figures of no games")
        if set(t.ratios[c]) - known_ratios:
            raise ValueError(f"{what}: cell {c} has an unknown ratio")
        _check_moments(t.cells[c], games, f"{what}, cell {c}")
        for name, r in t.ratios[c].items():
            _check_sums(
                f"{what}, cell {c}, {name}", games, r.n, [(r.sx, r.sxx), (r.sy, r.syy)], (r.sxx, r.syy, r.sxy)
            )
        if set(t.hists[c]) != want_hists:
            raise ValueError(
                f"{what}: cell {c} has histograms of {sorted(t.hists[c])}, expected {sorted(want_hists)}"
            )
        for name, h in t.hists[c].items():
            if sum(h.values()) != games:
                raise ValueError(
                    f"{what}: the histogram of {name} in cell {c} counts {sum(h.values()):,} games"
                )
    for j, m in enumerate(t.paired):
        if set(m.n) != want_paired:
            raise ValueError(
                f"{what}: pair {j} holds differences of {sorted(m.n)}, expected {sorted(want_paired)}"
            )
        _check_moments(m, games, f"{what}, pair {j}")


def _check_moments(m: Any, games: int, where: str) -> None:
    for name in m.n:
        _check_sums(f"{where}, {name}", games, m.n[name], [(m.s1[name], m.s2[name])])


def _check_sums(
    where: str, games: int, n: int, pairs: list[tuple[Any, Any]], cross: tuple | None = None
) -> None:
    """Count equal to the games; each sum of squares >= 0 and >= (sum)^2 / n (Cauchy-Schwarz), so is the
    cross term's square at most the product of the squares; a NaN sum (a figure not finite) NaN in both."""
    if n != games:
        raise ValueError(f"{where}: a count of {n:,}, expected {games:,}")
    for s1, s2 in pairs:
        if isinstance(s1, float) or isinstance(s2, float):
            if not (isinstance(s1, float) and isinstance(s2, float)):
                raise ValueError(f"{where}: one sum undefined, the other not")
            continue
        if s2 < 0:
            raise ValueError(f"{where}: a negative sum of squares")
        if s1 * s1 > n * s2:
            raise ValueError(f"{where}: a sum of squares too small for its sum")
    if cross is not None and not any(isinstance(v, float) for v in cross):
        sxx, syy, sxy = cross
        if sxy * sxy > sxx * syy:
            raise ValueError(f"{where}: a sum of products too large for its squares")


# ---- executors -----------------------------------------------------------------


@dataclass(frozen=True)
class ChunkJob:
    """What a worker needs to play chunk k: picklable, so a Dask worker can run it."""

    spec: Spec
    limit: int  # games per cell the run may reach
    threads: int | None = None
    rows: bool = False
    records: int = 0
    fingerprint: str = ""  # of the run: names its tasks on a cluster

    def where(self, k: int) -> tuple[int, int] | None:
        """Chunk k -> (first game, games), or None past the end of the run."""
        start = k * self.spec.chunk
        if start >= self.limit:
            return None
        return start, min(self.spec.chunk, self.limit - start)

    def __call__(self, k: int, on_cell: Callable[[int], None] | None = None) -> ChunkOut:
        start, size = self.where(k)  # type: ignore[misc]
        return play_chunk(self.spec, k, start, size, threads=self.threads, rows=self.rows,
                          records=self.records, on_cell=on_cell)  # fmt: skip


class Executor(Protocol):
    def map(
        self, job: ChunkJob, chunks: Iterable[int], progress: Callable[[int], None] | None
    ) -> Generator[ChunkOut, None, None]:
        """Play the chunks (indices in order, perhaps without end); yield each finished one, in any order.

        The caller stops early by closing the iterator; ``progress`` is told of games played.
        """
        ...


class LocalExecutor:
    """Chunks one after another in this process, each on every Numba thread."""

    def map(
        self, job: ChunkJob, chunks: Iterable[int], progress: Callable[[int], None] | None
    ) -> Generator[ChunkOut, None, None]:
        for k in chunks:
            yield job(k, on_cell=progress)


class DaskExecutor:
    """Chunks on a Dask cluster: up to two per worker in flight, yielded as they finish."""

    def __init__(self, scheduler: str | None = None, client: Any = None) -> None:
        if client is None and scheduler is None:
            raise WhistsimError("a Dask run needs a scheduler address or a client")
        _need("distributed", "--scheduler runs chunks on a Dask cluster")
        self.scheduler, self.client = scheduler, client

    def map(
        self, job: ChunkJob, chunks: Iterable[int], progress: Callable[[int], None] | None
    ) -> Generator[ChunkOut, None, None]:
        from distributed import Client, as_completed

        client, own = self.client, self.client is None
        if own:
            try:
                client = Client(self.scheduler, timeout="10s")
            except (OSError, TimeoutError, ValueError) as e:
                raise WhistsimError(f"--scheduler {self.scheduler}: cannot connect: {e}") from None
        todo = iter(chunks)
        queue = as_completed()
        prefix = f"whistsim-{job.fingerprint}"

        def submit() -> None:
            k = next(todo, None)
            if k is not None:
                queue.add(client.submit(job, k, key=f"{prefix}-{k}"))

        try:
            for _ in range(2 * max(1, len(client.scheduler_info().get("workers", {})))):
                submit()
            for fut in queue:
                out: ChunkOut = fut.result()
                if progress is not None:
                    progress(out.tally.games * len(job.spec.cells))
                yield out
                submit()
        finally:
            for f in list(queue.futures):
                f.cancel()
            if own:
                client.close()


# ---- a run -----------------------------------------------------------------------


class Run:
    """A spec and how to run it: n or a stopping rule, outputs, checkpoint; ``play`` runs it."""

    def __init__(
        self,
        spec: Spec | str | os.PathLike,
        *,
        out: str | os.PathLike | None = None,
        n: int | None = None,
        workers: int | None = None,
        resume: bool = False,
        until_ci: float | None = None,
        max_n: int | None = None,
        rows: bool = False,
        records: int = 0,
        progress: bool = False,
        write: bool = True,
        on_chunk: Callable[[int], None] | None = None,
    ) -> None:
        if not isinstance(spec, Spec):
            spec = load_spec(spec)
        if n is not None:
            spec = spec.with_n(n)
        if until_ci is not None and not (
            isinstance(until_ci, (int, float)) and until_ci > 0 and math.isfinite(until_ci)
        ):
            raise SpecError(f"--until-ci {until_ci!r}: expected a width > 0")
        if until_ci is not None and not spec.headline:
            raise SpecError("--until-ci needs headline figures: the spec lists none under 'headline'")
        max_n = DEFAULT_MAX_N if max_n is None else max_n
        if isinstance(max_n, bool) or not isinstance(max_n, int) or max_n < 2:
            raise SpecError(f"--max-n {max_n!r}: expected a number of games >= 2")
        if workers is not None:
            import numba

            top = numba.config.NUMBA_NUM_THREADS
            if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= top:
                raise SpecError(f"--workers {workers!r}: expected 1 to {top}")
        if records < 0 or records > spec.chunk:
            raise SpecError(f"--records {records}: expected 0 to {spec.chunk} (one chunk)")
        if rows:
            _need("pyarrow", "per-game rows (--rows) are written as Parquet")
        self.spec, self.until_ci, self.max_n = spec, until_ci, max_n
        self.resume, self.progress, self.write, self.on_chunk = resume, progress, write, on_chunk
        self.out_dir = Path(out) if out is not None else Path("results") / spec.name
        self.fingerprint = spec.fingerprint(
            until_ci=until_ci, max_n=max_n if until_ci else None, rows=rows, records=records
        )
        limit = max_n if until_ci is not None else spec.n
        self.job = ChunkJob(spec, limit, workers, rows, records, self.fingerprint)
        self.stopped = ""
        self.state = _State(self.fingerprint)
        self.bar: _Progress | None = None
        self.kept = False  # a checkpoint of this run is on disk (loaded, or saved since)
        self._claimed = False  # this run's files are listed in the folder's outputs manifest

    @property
    def checkpoint(self) -> Path:
        return self.out_dir / CHECKPOINT

    def play(self, executor: Executor | None = None) -> ExperimentResult:
        """Play every chunk not yet merged (on ``executor``, default local); write the outputs."""
        executor = executor or LocalExecutor()
        self.state = self._start()
        t0 = time.perf_counter()
        bar = self.bar = (
            _Progress(self.spec, self.job.where, self.state.done, self.until_ci, self.max_n)
            if self.progress
            else None
        )
        try:
            if not self._merge_pending():
                chunks = executor.map(self.job, self._todo(), bar.update if bar else None)
                try:
                    for out in chunks:
                        if self._finished(out):
                            break
                finally:
                    chunks.close()  # a cluster's chunks still in flight are cancelled
            if self.until_ci is not None and not self.stopped:
                w, where = widest_ci(self.spec, self.state.total)
                self.stopped = (
                    f"reached --max-n {self.max_n:,} games per cell; widest headline CI {w:.3g} ({where})"
                )
        except KeyboardInterrupt:
            if bar is not None:
                bar.close()
            if not self.write:
                where = "not kept (write=False)"
            elif self.kept:
                where = f"kept in {self.checkpoint}; continue with --resume"
            else:  # nothing was written: no folder, no checkpoint to speak of
                where = "nothing kept"
            raise ExperimentInterrupted(
                f"interrupted after {self.state.done} finished chunk(s) "
                f"({self.state.total.games:,} games per cell), {where}"
            ) from None
        if bar is not None:
            bar.close()
        result = ExperimentResult(self.spec, self.state.total, time.perf_counter() - t0, self.until_ci,
                                  self.stopped, reader=analyse)  # fmt: skip
        if self.write:
            with self._writing(f"the results in {self.out_dir}"):
                write_outputs(result, self.out_dir, keep=self._chunk_files())
                with contextlib.suppress(FileNotFoundError):
                    self.checkpoint.unlink()
        return result

    # -- the steps --

    def _start(self) -> _State:
        state = None
        if self.resume and self.write:
            state = _load_checkpoint(self.checkpoint, self.fingerprint, self.job)
            self.kept = state is not None
            if state is None:
                print(
                    f"whistsim: no checkpoint in {self.out_dir}; starting from the beginning", file=sys.stderr
                )
        if state is None:
            if self.write and not self.resume and self.checkpoint.is_file():
                print(f"whistsim: starting afresh; the checkpoint in {self.out_dir} is replaced "
                      "(--resume continues it)", file=sys.stderr)  # fmt: skip
            state = _State(self.fingerprint)
        if state.total is None:
            state.total = Tally.empty(len(self.spec.cells), len(self.spec.pairs))
        return state

    def _todo(self) -> Iterator[int]:
        """The chunks still to play, in order (those finished out of order before are skipped)."""
        k = self.state.done
        while self.job.where(k) is not None:
            if k not in self.state.pending:
                yield k
            k += 1

    def _finished(self, out: ChunkOut) -> bool:
        """A chunk is back: its files now, its tally when its turn comes; True once the run may stop."""
        st = self.state
        if self.write:
            self._write_files(out)
        if out.index != st.done:
            st.pending[out.index] = out.tally
            self._save()
            return False
        st.total.merge(out.tally)
        st.done = out.index + 1
        self._save()
        return self._merged(out.index) or self._merge_pending()

    def _merge_pending(self) -> bool:
        """Merge the chunks finished earlier out of order that continue the in-order prefix."""
        st = self.state
        if self._satisfied():
            return True
        while st.done in st.pending:
            k = st.done
            tally = st.pending.pop(k)
            st.total.merge(tally)
            st.done = k + 1
            self._save()
            if self.bar is not None and self.job.where(k) is not None:
                self.bar.update(tally.games * len(self.spec.cells))
            if self._merged(k):
                return True
        return False

    def _merged(self, k: int) -> bool:
        """Chunk ``k`` is merged: tell the watchers; True once the --until-ci stopping rule is met."""
        if self.bar is not None:
            self.bar.chunk_done(self.state)
        if self.on_chunk is not None:
            self.on_chunk(k)
        return self._satisfied()

    def _satisfied(self) -> bool:
        if self.until_ci is None or self.state.done == 0:
            return False
        w, where = widest_ci(self.spec, self.state.total)
        if w <= self.until_ci:
            self.stopped = (
                f"every headline 95% CI is at most {self.until_ci:g} wide (widest {w:.3g}: {where})"
            )
            return True
        return False

    def _save(self) -> None:
        if self.write:
            with self._writing(self.checkpoint):
                with atomic_write(self.checkpoint) as f:
                    f.write(self.state.snapshot())
            self.kept = True

    def _write_files(self, out: ChunkOut) -> None:
        if out.rows is not None:
            with self._writing(self.out_dir / "rows"):
                self._claim()
                write_rows(self.spec, self.out_dir, out.index, out.rows)
        if out.records:
            with self._writing(self.out_dir / "records"):
                self._claim()
                for cell, recs in zip(self.spec.cells, out.records, strict=True):
                    write_jsonl(self.out_dir / "records" / f"cell-{cell.index:03d}.jsonl", recs)

    def _claim(self) -> None:
        """Before the run's first rows or records: list their folders in the outputs manifest, so that
        files left by a run cut short are known as whistsim's to the next run."""
        if not self._claimed:
            folders = (["rows/"] if self.job.rows else []) + (["records/"] if self.job.records else [])
            claim_outputs(self.out_dir, folders)
            self._claimed = True

    def _chunk_files(self) -> list[str]:
        """The rows and records of a finished run: every merged chunk's rows, every cell's records."""
        rows = [f"rows/chunk-{k:06d}.parquet" for k in range(self.state.done)] if self.job.rows else []
        recs = [f"records/cell-{c.index:03d}.jsonl" for c in self.spec.cells] if self.job.records else []
        return rows + recs

    @contextlib.contextmanager
    def _writing(self, what: Path | str) -> Iterator[None]:
        """A write that fails (a full disk, a folder made read-only) is one line; what was written
        before stays as it was, and a checkpoint on disk is named for --resume."""
        try:
            yield
        except OSError as e:
            why = e.strerror or str(e)
            kept = (f"; the finished chunks are kept in {self.checkpoint}: continue with --resume once it can be "
                    "written" if self.kept else "")  # fmt: skip
            raise WhistsimError(f"cannot write {what}: {why}{kept}") from None


def run_experiment(
    spec: Spec | str | os.PathLike,
    *,
    out: str | os.PathLike | None = None,
    n: int | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    client: Any = None,
    resume: bool = False,
    until_ci: float | None = None,
    max_n: int | None = None,
    rows: bool = False,
    records: int = 0,
    progress: bool = False,
    write: bool = True,
    on_chunk: Callable[[int], None] | None = None,
) -> ExperimentResult:
    """Run a spec (a path or a loaded :class:`Spec`); write ``results/NAME/`` unless ``write=False``.

    ``workers``: Numba threads per chunk (default all cores); ``scheduler``
    (``tcp://HOST:PORT``) or ``client`` (a ``distributed.Client``) runs the
    chunks on a Dask cluster. ``until_ci``: play until every headline 95% CI
    is at most that wide, up to ``max_n`` games per cell.

    A spec is TOML (docs/experiments.md): ``game``, ``[rules]`` (a preset,
    players, any option), ``[seats]`` (strategy specs such as
    ``all = "greedy:cheat=0"``), ``n``, ``seed`` and ``[sweep]`` axes such as
    ``"rules.challenge" = ["none", "parlett"]``.

    >>> import whistsim
    >>> res = whistsim.run_experiment("experiments/five_penalty.toml", n=200, write=False)
    >>> res.summary()["label"].nunique()   # every figure of every cell: mean, sd, 95% CI, n
    12
    >>> len(res.paired())                  # differences against the baseline, deal by deal
    40
    """
    run = Run(spec, out=out, n=n, workers=workers, resume=resume, until_ci=until_ci, max_n=max_n, rows=rows,
              records=records, progress=progress, write=write, on_chunk=on_chunk)  # fmt: skip
    dask = scheduler is not None or client is not None
    return run.play(DaskExecutor(scheduler, client) if dask else LocalExecutor())


def write_rows(spec: Spec, out_dir: Path, k: int, rows: list[dict]) -> Path:
    """Per-game figures of chunk k, every cell, as one Parquet file of a dataset."""
    frames = []
    for cell, cols in zip(spec.cells, rows, strict=True):
        df = pd.DataFrame(dict(cols))
        df.insert(0, "cell", cell.index)
        frames.append(df)
    path = out_dir / "rows" / f"chunk-{k:06d}.parquet"
    with atomic_write(path, "wb") as f:
        pd.concat(frames, ignore_index=True).to_parquet(f, index=False)
    return path


def _need(module: str, why: str) -> None:
    import importlib.util

    if importlib.util.find_spec(module) is None:
        extra = "dask" if module in ("dask", "distributed") else "parquet"
        raise WhistsimError(
            f"{why}: install the extra with pip install 'whistsim[{extra}]' ({module} is missing)"
        )


class _Progress:
    """tqdm over games of all cells, with rate and time left; --until-ci re-estimates the total."""

    def __init__(self, spec: Spec, plan, done: int, until_ci: float | None, max_n: int) -> None:
        from tqdm import tqdm

        self.spec, self.until_ci, self.max_n = spec, until_ci, max_n
        cells = len(spec.cells)
        total = None if until_ci is not None else spec.n * cells
        self.bar = tqdm(total=total, unit="game", unit_scale=True, file=sys.stderr, dynamic_ncols=True,
                        desc=spec.name, leave=False)  # fmt: skip
        first = 0
        for k in range(done):
            where = plan(k)
            first += where[1] if where else 0
        if first:
            self.bar.update(first * cells)
        self.t0: float | None = None
        self.games, self.said = 0, until_ci is not None  # a stopping rule has no total to estimate

    def update(self, games: int) -> None:
        self.bar.update(games)
        self._estimate(games)

    def _estimate(self, games: int) -> None:
        """Once, from the run's first second of play (after its first batch, which may have
        compiled): one line with the time to go when over a minute (whistsim.core.eta)."""
        if self.said or self.bar.total is None:
            return
        now = time.perf_counter()
        if self.t0 is None:  # the first batch: kernels were loaded or compiled in it
            self.t0, self.games = now, 0
            return
        self.games += games
        if now - self.t0 >= 1.0:
            from ..core.eta import announce

            self.said = True
            left = self.bar.total - self.bar.n
            self.bar.clear()  # the line on a line of its own, the bar drawn again below it
            announce(self.games, now - self.t0, self.games + left)
            self.bar.refresh()

    def chunk_done(self, state: _State) -> None:
        if self.until_ci is None or state.done == 0:
            return
        w, _ = widest_ci(self.spec, state.total)
        if math.isfinite(w) and w > 0:
            need = min(self.max_n, math.ceil(state.total.games * (w / self.until_ci) ** 2))
            self.bar.total = max(need, state.total.games) * len(self.spec.cells)
            self.bar.set_postfix_str(f"widest CI {w:.3g}", refresh=True)

    def close(self) -> None:
        self.bar.close()


def iter_cells(spec: Spec) -> Iterator[str]:
    """One line per cell, for ``--check``."""
    for c in spec.cells:
        yield f"cell {c.index:>3}: {spec.cell_label(c)}  |  {c.rules.describe() if hasattr(c.rules, 'describe') else c.rules}  |  {', '.join(c.players)}"
