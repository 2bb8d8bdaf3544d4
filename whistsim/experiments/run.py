"""Running an experiment: chunks of games for every cell, merged in chunk order.

Chunk k plays games ``k * chunk .. (k + 1) * chunk - 1`` of every cell. A
game's deal depends on (seed, game index, deck) alone, so cells with the same
deck see the same deals, and per-game differences between them are paired.
Finished chunks are merged in order and checkpointed atomically, so a run that
is interrupted and resumed, or spread over a Dask cluster, ends with the same
numbers as one uninterrupted local run.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..games import get_game
from ..io import atomic_write
from ..options import WhistsimError
from ..runner import run_games
from .figures import RATIOS, figures, ratio_parts
from .spec import Spec, SpecError, load_spec
from .tally import CoMoments, Tally, hist_of

if TYPE_CHECKING:
    from .report import ExperimentResult

CHECKPOINT = ".checkpoint.json"
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
    diff_figures = [f for f in spec.headline if f not in RATIOS()]
    kept: dict[int, dict[str, np.ndarray]] = {}
    out_rows: list[dict[str, np.ndarray]] | None = [] if rows else None
    log = max(0, min(size, records - start))
    out_records: list[list[dict]] | None = [] if log else None
    for cell in spec.cells:
        ids, params = cell.seating(spec.game)
        got = []
        with _KERNEL_LOCK:
            run_games(game, cell.rules, ids, params, seed=spec.seed, n=size, start=start, first=cell.first,
                      chunk=size, n_threads=threads, log_games=log, on_batch=got.append)  # fmt: skip
        batch = got[0]
        figs = figures(game, batch, cell.rules)
        m = tally.cells[cell.index]
        for name, values in figs.items():
            m.add(name, values)
        for r, (num, den) in ratio_parts(list(figs)).items():
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
        if on_cell is not None:
            on_cell(size)
    for j, p in enumerate(spec.pairs):
        for f in diff_figures:
            tally.paired[j].add(f, kept[p.cell][f] - kept[p.base][f])
    return ChunkOut(index, tally, out_rows, out_records)


# ---- the plan --------------------------------------------------------------


def chunk_plan(spec: Spec, until_ci: float | None, max_n: int) -> Callable[[int], tuple[int, int] | None]:
    """Chunk k -> (first game, games), or None past the end of the run."""
    limit = max_n if until_ci is not None else spec.n

    def plan(k: int) -> tuple[int, int] | None:
        start = k * spec.chunk
        if start >= limit:
            return None
        return start, min(spec.chunk, limit - start)

    return plan


def widest_ci(spec: Spec, tally: Tally) -> tuple[float, str]:
    """The widest 95% CI (high - low) among headline figures and their paired differences."""
    worst, where = 0.0, ""
    for c in spec.cells:
        for f in spec.headline:
            e = tally.estimate(c.index, f)
            w = 2 * e.half_width
            if e.n < 2:
                return math.inf, f"{f} in '{spec.cell_label(c)}'"
            if math.isfinite(w) and w > worst:
                worst, where = w, f"{f} in '{spec.cell_label(c)}'"
    for j, p in enumerate(spec.pairs):
        for f in spec.headline:
            if f in RATIOS():
                continue
            e = tally.paired[j].estimate(f)
            w = 2 * e.half_width
            if math.isfinite(w) and w > worst:
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
            "version": 1,
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
    except (OSError, ValueError) as e:
        raise WhistsimError(f"cannot read checkpoint {path}: {e}") from None
    if data.get("fingerprint") != fingerprint:
        raise WhistsimError(
            f"{path} was made by a different spec or settings; run without --resume to start again"
        )
    st = _State(fingerprint, int(data["done"]))
    st.total = Tally.from_json(data["total"]) if data["total"] else None
    st.pending = {int(k): Tally.from_json(v) for k, v in data["pending"].items()}
    return st


def _save(path: Path, text: str) -> None:
    with atomic_write(path) as f:
        f.write(text)


# ---- running -----------------------------------------------------------------


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
    """
    from .report import ExperimentResult, write_outputs

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

        if (
            isinstance(workers, bool)
            or not isinstance(workers, int)
            or not 1 <= workers <= numba.config.NUMBA_NUM_THREADS
        ):
            raise SpecError(f"--workers {workers!r}: expected 1 to {numba.config.NUMBA_NUM_THREADS}")
    if records < 0 or records > spec.chunk:
        raise SpecError(f"--records {records}: expected 0 to {spec.chunk} (one chunk)")
    if rows:
        _need("pyarrow", "per-game rows (--rows) are written as Parquet")
    out_dir = Path(out) if out is not None else Path("results") / spec.name
    fingerprint = spec.fingerprint(
        until_ci=until_ci, max_n=max_n if until_ci else None, rows=rows, records=records
    )
    ckpt = out_dir / CHECKPOINT
    state = None
    if resume and write:
        state = _load_checkpoint(ckpt, fingerprint)
        if state is None:
            print(f"whistsim: no checkpoint in {out_dir}; starting from the beginning", file=sys.stderr)
    if state is None:
        if write and not resume and ckpt.is_file():
            print(
                f"whistsim: starting afresh; the checkpoint in {out_dir} is replaced (--resume continues it)",
                file=sys.stderr,
            )
        state = _State(fingerprint)
    if state.total is None:
        state.total = Tally.empty(len(spec.cells), len(spec.pairs))
    plan = chunk_plan(spec, until_ci, max_n)
    t0 = time.perf_counter()
    stopped = ""

    def save() -> str:
        text = state.snapshot()
        if write:
            _save(ckpt, text)
        return text

    def satisfied() -> bool:
        nonlocal stopped
        if until_ci is None or state.done == 0:
            return False
        w, where = widest_ci(spec, state.total)
        if w <= until_ci:
            stopped = f"every headline 95% CI is at most {until_ci:g} wide (widest {w:.3g}: {where})"
            return True
        return False

    bar = _Progress(spec, plan, state.done, until_ci, max_n) if progress else None
    try:
        if not satisfied():
            run = _run_dask if (scheduler is not None or client is not None) else _run_local
            run(spec, plan, state, satisfied, save, out_dir, write, workers, rows, records, bar, on_chunk,
                scheduler=scheduler, client=client)  # fmt: skip
        if until_ci is not None and not stopped:
            w, where = widest_ci(spec, state.total)
            stopped = f"reached --max-n {max_n:,} games per cell; widest headline CI {w:.3g} ({where})"
    except KeyboardInterrupt:
        if bar is not None:
            bar.close()
        where = f"kept in {ckpt}; continue with --resume" if write else "not kept (write=False)"
        raise ExperimentInterrupted(
            f"interrupted after {state.done} finished chunk(s) ({state.total.games:,} games per cell), {where}"
        ) from None
    if bar is not None:
        bar.close()
    result = ExperimentResult(spec, state.total, time.perf_counter() - t0, until_ci, stopped)
    if write:
        write_outputs(result, out_dir)
        with contextlib.suppress(FileNotFoundError):
            ckpt.unlink()
    return result


def _need(module: str, why: str) -> None:
    import importlib.util

    if importlib.util.find_spec(module) is None:
        extra = "dask" if module in ("dask", "distributed") else "parquet"
        raise WhistsimError(
            f"{why}: install the extra with pip install 'whistsim[{extra}]' ({module} is missing)"
        )


def _commit(spec, state, k, out: ChunkOut, out_dir, write, save) -> None:
    """Files of chunk k first, then its merge into the total, then the checkpoint."""
    if write and out.rows is not None:
        from .report import write_rows

        write_rows(spec, out_dir, k, out.rows)
    if write and out.records:
        from ..io import write_jsonl

        for cell, recs in zip(spec.cells, out.records, strict=True):
            write_jsonl(out_dir / "records" / f"cell-{cell.index:03d}.jsonl", recs)
    state.total.merge(out.tally)
    state.done = k + 1
    save()


def _run_local(
    spec, plan, state, satisfied, save, out_dir, write, workers, rows, records, bar, on_chunk, **_
) -> None:
    k = state.done
    while (where := plan(k)) is not None:
        if k in state.pending:  # finished out of order by a Dask run that was interrupted
            _merge_pending(state, k, save)
            if bar is not None:
                bar.update(where[1] * len(spec.cells))
        else:
            start, size = where
            out = play_chunk(spec, k, start, size, threads=workers, rows=rows, records=records,
                             on_cell=bar.update if bar else None)  # fmt: skip
            _commit(spec, state, k, out, out_dir, write, save)
        if _chunk_merged(state, k, bar, on_chunk, satisfied):
            return
        k += 1


def _dask_task(
    spec: Spec, k: int, start: int, size: int, threads: int | None, rows: bool, records: int
) -> ChunkOut:
    return play_chunk(spec, k, start, size, threads=threads, rows=rows, records=records)


def _run_dask(spec, plan, state, satisfied, save, out_dir, write, workers, rows, records, bar, on_chunk,
              *, scheduler=None, client=None) -> None:  # fmt: skip
    _need("distributed", "--scheduler runs chunks on a Dask cluster")
    from distributed import Client, as_completed

    own = client is None
    if own:
        try:
            client = Client(scheduler, timeout="10s")
        except (OSError, TimeoutError, ValueError) as e:
            raise WhistsimError(f"--scheduler {scheduler}: cannot connect: {e}") from None
    try:
        n_workers = max(1, len(client.scheduler_info().get("workers", {})))
        window = 2 * n_workers
        nxt = state.done + len(state.pending)
        queue = as_completed()

        def submit() -> bool:
            nonlocal nxt
            while nxt in state.pending:
                nxt += 1
            where = plan(nxt)
            if where is None:
                return False
            queue.add(client.submit(_dask_task, spec, nxt, *where, workers, rows, records,
                                    key=f"whistsim-{state.fingerprint}-{nxt}"))  # fmt: skip
            nxt += 1
            return True

        for _ in range(window):
            if not submit():
                break
        # Chunks already finished out of order (a resumed run) may now merge.
        if _merge_ready(spec, state, {}, out_dir, write, save, bar, on_chunk, satisfied):
            return
        for fut in queue:
            out: ChunkOut = fut.result()
            if bar is not None:
                bar.update(out.tally.games * len(spec.cells))
            if _merge_ready(spec, state, {out.index: out}, out_dir, write, save, bar, on_chunk, satisfied):
                for f in list(queue.futures):
                    f.cancel()
                return
            submit()
    finally:
        if own:
            client.close()


def _merge_ready(
    spec, state, new: dict[int, ChunkOut], out_dir, write, save, bar, on_chunk, satisfied
) -> bool:
    """Merge the finished chunks that continue the in-order prefix; True once --until-ci is met."""
    for k, out in new.items():
        if k == state.done:
            _commit(spec, state, k, out, out_dir, write, save)
            if _chunk_merged(state, k, bar, on_chunk, satisfied):
                return True
        else:
            # Out of order: write its files now, keep its tally until its turn.
            if write and (out.rows is not None or out.records):
                _commit_files_only(spec, k, out, out_dir)
            state.pending[k] = out.tally
            save()
    while state.done in state.pending:
        k = state.done
        _merge_pending(state, k, save)
        if _chunk_merged(state, k, bar, on_chunk, satisfied):
            return True
    return False


def _merge_pending(state, k: int, save) -> None:
    """Merge chunk ``k``'s tally, finished earlier out of order, now that its turn has come."""
    state.total.merge(state.pending.pop(k))
    state.done = k + 1
    save()


def _chunk_merged(state, k: int, bar, on_chunk, satisfied) -> bool:
    """Report chunk ``k`` merged; True once the --until-ci stopping rule is met."""
    if bar is not None:
        bar.chunk_done(state)
    if on_chunk is not None:
        on_chunk(k)
    return satisfied()


def _commit_files_only(spec, k, out: ChunkOut, out_dir) -> None:
    if out.rows is not None:
        from .report import write_rows

        write_rows(spec, out_dir, k, out.rows)
    if out.records:
        from ..io import write_jsonl

        for cell, recs in zip(spec.cells, out.records, strict=True):
            write_jsonl(out_dir / "records" / f"cell-{cell.index:03d}.jsonl", recs)


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

    def update(self, games: int) -> None:
        self.bar.update(games)

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
