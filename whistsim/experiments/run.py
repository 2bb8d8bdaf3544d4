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
import json
import math
import os
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import pandas as pd

from ..batch import Batch
from ..games import get_game
from ..io import atomic_write, write_jsonl
from ..options import WhistsimError
from ..runner import run_games
from .figures import figures, ratio_parts
from .reading import analyse, differenced
from .report import write_outputs
from .results import CoMoments, ExperimentResult, Tally, hist_of
from .spec import Spec, SpecError, load_spec

CHECKPOINT = ".checkpoint.json"
CHECKPOINT_VERSION = 2  # 2: exact sums (whistsim.stats.Moments)
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
    """Play games ``start .. start + size - 1`` of every cell and summarise them."""
    game = get_game(spec.game)
    tally = Tally.empty(len(spec.cells), len(spec.pairs))
    tally.games, tally.chunks = size, 1
    paired = {p.cell for p in spec.pairs} | {p.base for p in spec.pairs}
    diff_figures = differenced(spec)
    kept: dict[int, dict[str, np.ndarray]] = {}
    out_rows: list[dict[str, np.ndarray]] | None = [] if rows else None
    log = max(0, min(size, records - start))
    out_records: list[list[dict]] | None = [] if log else None
    for cell in spec.cells:
        ids, params = cell.seating(spec.game)
        got: list[Batch] = []

        def take(b: Batch, got: list[Batch] = got) -> None:
            got.append(b)
            if on_cell is not None:  # progress, batch by batch: the runner sizes them by time
                on_cell(b.n)

        with _KERNEL_LOCK:
            run_games(game, cell.rules, ids, params, seed=spec.seed, n=size, start=start, first=cell.first,
                      chunk=size, n_threads=threads, log_games=log, on_batch=take)  # fmt: skip
        batch = got[0] if len(got) == 1 else Batch.concat(got)  # the runner sizes its batches by time
        figs = figures(game, batch, cell.rules)
        m = tally.cells[cell.index]
        for name, values in figs.items():
            m.add(name, values)
        for r, (num, den) in ratio_parts(spec.game, list(figs)).items():
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
            out_records.append(
                [
                    game.make_record(cell.rules, batch, i, spec.seed, list(cell.players))
                    for i in range(len(batch.logs))
                ]
            )
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
        return json.dumps({
            "version": CHECKPOINT_VERSION,
            "fingerprint": self.fingerprint,
            "done": self.done,
            "total": self.total.to_json() if self.total else None,
            "pending": {str(k): t.to_json() for k, t in self.pending.items()},
        })  # fmt: skip


def _load_checkpoint(path: Path, fingerprint: str) -> _State | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, RecursionError) as e:
        raise WhistsimError(f"cannot read checkpoint {path}: {' '.join(str(e).split())}") from None
    if not isinstance(data, dict) or data.get("fingerprint") != fingerprint:
        raise WhistsimError(
            f"{path} was made by a different spec or settings; run without --resume to start again"
        )

    def bad(why: str) -> WhistsimError:
        return WhistsimError(f"checkpoint {path} is corrupted ({why}); run without --resume to start again")

    done, total, pending = data.get("done"), data.get("total"), data.get("pending")
    if data.get("version") != CHECKPOINT_VERSION:
        raise bad(f"version {data.get('version')!r}, expected {CHECKPOINT_VERSION}")
    if not isinstance(done, int) or isinstance(done, bool) or done < 0:
        raise bad(f"done={done!r}")
    if not isinstance(total, dict) or not isinstance(pending, dict):
        raise bad("total and pending must be objects")
    st = _State(fingerprint, done)
    try:
        st.total = Tally.from_json(total)
        for k, v in pending.items():
            if not (k.isascii() and k.isdigit()) or int(k) <= done:
                raise ValueError(f"pending chunk {k!r}")
            st.pending[int(k)] = Tally.from_json(v)
    except (KeyError, TypeError, ValueError, IndexError, ZeroDivisionError, OverflowError) as e:
        raise bad(" ".join(str(e).split()) or type(e).__name__) from None
    return st


def _check_state(st: _State, job: ChunkJob, n_cells: int, n_pairs: int, path: Path) -> None:
    """Every count in a loaded checkpoint agrees with the chunks it says it holds."""

    def bad(why: str) -> WhistsimError:
        return WhistsimError(f"checkpoint {path} is corrupted ({why}); run without --resume to start again")

    sizes = [job.where(k) for k in range(st.done)]
    if any(w is None for w in sizes):
        raise bad(f"done={st.done} is past the end of the run")
    for k, t in [(None, st.total), *st.pending.items()]:
        if len(t.cells) != n_cells or len(t.paired) != n_pairs or len(t.ratios) != n_cells:
            raise bad("the number of cells or pairs differs")
        want = sum(w[1] for w in sizes) if k is None else (job.where(k) or (0, -1))[1]
        chunks = st.done if k is None else 1
        if t.games != want or t.chunks != chunks:
            raise bad(f"{'the total' if k is None else f'chunk {k}'} holds {t.games} games, expected {want}")
        for m in (*t.cells, *t.paired):
            if any(not isinstance(c, int) or c < 0 for c in m.n.values()):
                raise bad("a count out of range")


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
            where = (
                f"kept in {self.checkpoint}; continue with --resume"
                if self.write
                else "not kept (write=False)"
            )
            raise ExperimentInterrupted(
                f"interrupted after {self.state.done} finished chunk(s) "
                f"({self.state.total.games:,} games per cell), {where}"
            ) from None
        if bar is not None:
            bar.close()
        result = ExperimentResult(self.spec, self.state.total, time.perf_counter() - t0, self.until_ci,
                                  self.stopped, reader=analyse)  # fmt: skip
        if self.write:
            write_outputs(result, self.out_dir)
            with contextlib.suppress(FileNotFoundError):
                self.checkpoint.unlink()
        return result

    # -- the steps --

    def _start(self) -> _State:
        state = None
        if self.resume and self.write:
            state = _load_checkpoint(self.checkpoint, self.fingerprint)
            if state is not None:
                _check_state(state, self.job, len(self.spec.cells), len(self.spec.pairs), self.checkpoint)
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
            with atomic_write(self.checkpoint) as f:
                f.write(self.state.snapshot())

    def _write_files(self, out: ChunkOut) -> None:
        if out.rows is not None:
            write_rows(self.spec, self.out_dir, out.index, out.rows)
        if out.records:
            for cell, recs in zip(self.spec.cells, out.records, strict=True):
                write_jsonl(self.out_dir / "records" / f"cell-{cell.index:03d}.jsonl", recs)


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

    A spec is TOML (README "Experiments"): ``game``, ``[rules]`` (a preset,
    players, any option), ``[seats]`` (strategy specs such as
    ``all = "greedy:cheat=0"``), ``n``, ``seed`` and ``[sweep]`` axes such as
    ``"rules.challenge" = ["none", "parlett"]``.

    >>> import whistsim
    >>> res = whistsim.run_experiment("experiments/five_penalty.toml", n=2000, write=False)  # doctest: +SKIP
    >>> res.summary()      # every figure of every cell: mean, sd, 95% CI, n        # doctest: +SKIP
    >>> res.paired()       # differences against the baseline, deal by deal        # doctest: +SKIP
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
        compiled): one line with the time to go when over a minute (whistsim.eta)."""
        if self.said or self.bar.total is None:
            return
        now = time.perf_counter()
        if self.t0 is None:  # the first batch: kernels were loaded or compiled in it
            self.t0, self.games = now, 0
            return
        self.games += games
        if now - self.t0 >= 1.0:
            from ..eta import announce

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
