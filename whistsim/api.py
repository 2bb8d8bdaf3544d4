"""The Python API: what the CLI runs, for notebooks too.

>>> sim = simulate("welsh", n=10_000, seed=7, preset="akagiri", players=4)
>>> sim.summary()          # a pandas DataFrame: figure, mean, sd, ci_low, ci_high, n
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .core import io as _io
from .core.batch import Batch
from .core.figures import columns
from .core.io import atomic_write, read_lines, write_jsonl
from .core.options import WhistsimError, near
from .core.stats import Moments
from .core.strategy import StrategySpec, parse_spec
from .games import MoveError, RecordError, get_game, seating
from .games.runner import run_games
from .games.runner import stop_on_sigint as _stop_on_sigint


@dataclass
class Simulation:
    """A finished run: its settings, streamed summaries and (if asked) records and games."""

    game: str
    rules: Any
    strategies: list[str]
    seed: int
    n: int
    first: int
    moments: Moments
    records: list[dict] = field(default_factory=list)
    batch: Batch | None = None  # every game's rows, with keep_games=True
    load_s: float = 0.0  # seconds to compile the kernels, or load them from the cache
    play_s: float = 0.0  # seconds playing the games
    n_records: int = 0  # records made (kept in ``records``, or streamed to a file)
    interrupted: bool = False  # Ctrl-C: ``n`` games of those asked for were played, and summarised
    where: str | None = None  # the constraint every deal was dealt under (docs/deals.md)
    deals: int = 0  # deals played
    drawn: int = 0  # deals drawn to deal them: more than ``deals`` under a constraint

    @property
    def drawn_per_deal(self) -> float:
        """Deals drawn per deal played: 1 without a constraint."""
        return self.drawn / self.deals if self.deals else float("nan")

    def dealt_under(self) -> str:
        """One line for people: the constraint and what it cost, or that the deals were free."""
        if self.where is None:
            return "dealt: at random"
        return f"dealt under: {self.where} ({self.drawn_per_deal:,.2f} deals drawn per deal played)"

    def _meta(self):
        from .core.tables import share_columns

        g = get_game(self.game)
        names = self.moments.names()
        units = {c: g.figure(c).unit for c in names}
        exact = {c for c in names if g.figure(c).is_exact(self.rules)}
        return units, exact, share_columns(g, names)

    def summary(self):
        """A pandas DataFrame: figure, unit, mean, sd, ci_low, ci_high, n. A share's interval
        (a rate, a share of games or deals: see ``whistsim figures``) is Wilson's, inside [0, 1];
        a figure the rules fix has its value as both ends; otherwise, under two games, ci_low and
        ci_high are NaN (one game gives no interval)."""
        from .core.tables import summary_table

        units, exact, shares = self._meta()
        table = summary_table(self.moments, shares=shares)
        table.insert(1, "unit", [units[c] for c in table["figure"]])
        # A figure the rules fix has no sampling error: its interval is its value (a share's
        # Wilson interval would otherwise widen a fixed 0 to [0, 0.39] at n=6).
        fixed = table["figure"].isin(exact)
        table.loc[fixed, "ci_low"] = table.loc[fixed, "mean"]
        table.loc[fixed, "ci_high"] = table.loc[fixed, "mean"]
        table.attrs.update({"where": self.where, "drawn_per_deal": self.drawn_per_deal})
        return table

    def format(self) -> str:
        """The summary for the terminal: each figure with its unit, mean, 95% CI and n."""
        from .core.tables import format_summary

        units, exact, shares = self._meta()
        return format_summary(self.moments, units=units, exact=exact, rates=shares)

    def to_json(self) -> dict:
        """The run and its summary as plain JSON types (``whistsim simulate --json``); NaN is null,
        and under two games a ``note`` says why the intervals are null."""
        from .core.stats import TOO_SMALL_NOTE, has_interval

        _, exact, _ = self._meta()
        figures = []
        for row in self.summary().to_dict("records"):
            row = {k: (None if isinstance(v, float) and v != v else v) for k, v in row.items()}  # NaN -> null
            figures.append({**row, "n": int(row["n"]), "exact": row["figure"] in exact})
        out = {"game": self.game, "rules": get_game(self.game).rules_record(self.rules), "strategies": self.strategies,
               "seed": self.seed, "n": self.n, "first": "rotate" if self.first < 0 else self.first,
               "play_s": self.play_s, "figures": figures}  # fmt: skip
        if self.where is not None:
            out.update({"where": self.where, "drawn_per_deal": self.drawn_per_deal})
        if not has_interval(self.n):
            out["note"] = TOO_SMALL_NOTE
        return out

    def games(self):
        """A tidy pandas DataFrame, one row per game and seat: ``game``, ``seat``, ``side``,
        ``turn`` (0: moved first), then every per-game figure (repeated on each seat's row)
        and every per-seat and per-side figure (the seat's own, or its side's).

        Needs ``simulate(..., keep_games=True)``. For plotting with pandas or seaborn:
        ``sns.histplot(sim.games(), x="points", hue="seat")``.
        """
        import numpy as np
        import pandas as pd

        if self.batch is None:
            raise WhistsimError("sim.games() needs the games kept: simulate(..., keep_games=True)")
        g = get_game(self.game)
        p, sides = g.players_of(self.rules), g.sides_of(self.rules)
        team = list(getattr(self.rules, "teams_tuple", range(p)))
        measured = g.measure(self.batch, self.rules)
        n = len(self.batch.game["first"])
        first = np.asarray(self.batch.game["first"], np.int64)
        seats = np.tile(np.arange(p), n)
        out: dict[str, np.ndarray] = {
            "game": np.repeat(np.arange(self.batch.start, self.batch.start + n), p),
            "seat": seats,
            "side": np.array(team)[seats],
            "turn": (seats - np.repeat(first, p)) % p,
        }
        for f in g.figures:
            if f.ratio is not None or f.per == "turn":
                continue  # a ratio of means has no per-game value; turn figures are the seats' own
            if f.per == "game":
                out[f.name] = np.repeat(np.asarray(measured[f.name]), p)
            else:
                by = np.stack([np.asarray(measured[c]) for c in f.columns(p, sides)], axis=1)
                idx = seats if f.per == "seat" else np.array(team)[seats]
                out[f.name] = by[np.repeat(np.arange(n), p), idx]
        return pd.DataFrame(out)


def _first_seat(first: int | str) -> int:
    if first == "rotate":
        return -1
    try:
        f = int(first)
    except (TypeError, ValueError):
        f = -1
    if f < 0:  # the kernels read any negative seat as "rotate": only the word may say so
        raise WhistsimError(
            f"first seat {first!r}: expected a seat number or 'rotate'{near(first, ['rotate'])}"
        )
    return f


def simulate(
    game: str = "welsh",
    n: int = 100_000,
    seed: int = 0,
    *,
    preset: str | None = None,
    players: int | None = None,
    rules: dict[str, Any] | None = None,
    strategies: Iterable[str | StrategySpec] = ("random",),
    first: int | str = 0,
    threads: int | None = None,
    records: int = 0,
    keep_games: bool = False,
    progress: bool = False,
    records_to: str | None = None,
    where: str | None = None,
) -> Simulation:
    """Play ``n`` games from one ``seed``; keep the first ``records`` games as records.

    ``rules`` maps option keys to values, as ``--rule KEY=VALUE`` does
    (``{"revokes": True, "challenge": "parlett"}``; ``whistsim rules`` lists
    them), on top of ``preset``. ``strategies`` is one spec for every seat or
    one per seat, each ``NAME[:KEY=VALUE,...]`` (``"greedy"``,
    ``"cheater:rate=0.2,challenge=smart"``; ``whistsim strategies`` lists them)
    or a user's ``PATH.py:FUNCTION``. A parameter the rules never consult is
    warned about (:class:`whistsim.WhistsimWarning`). ``keep_games=True`` keeps
    every game for :meth:`Simulation.games`.

    With ``records_to`` (a path, ``-`` for standard output) the records are streamed
    to that file as each chunk finishes instead of kept: memory stays flat.

    ``where`` deals every deal under a constraint (``"side0.trumps >= 9"``, docs/deals.md): a
    constraint that never holds, or holds in fewer than about 1 deal in 10**6, is refused before
    the run; :attr:`Simulation.drawn_per_deal` says what it cost.

    >>> import whistsim
    >>> sim = whistsim.simulate("welsh", n=200, seed=7, rules={"scoring": "five_penalty"},
    ...                         strategies=["greedy", "random", "random"], keep_games=True)
    >>> list(sim.summary().columns)    # one row per figure
    ['figure', 'unit', 'mean', 'sd', 'ci_low', 'ci_high', 'n']
    >>> sim.n, len(sim.games())        # games: one row per game and seat, for pandas or seaborn
    (200, 600)
    """
    g = get_game(game)
    r = g.make_rules(preset, players, dict(rules or {}))
    specs = [s if isinstance(s, StrategySpec) else parse_spec(s) for s in strategies]
    p = g.players_of(r)
    ids, params = seating(game, specs, p)
    names = [str(s) for s in (specs if len(specs) == p else specs * p)]
    f = _first_seat(first)
    from .tools.advice import warn_ineffective

    warn_ineffective(game, r, specs, given=dict(rules or {}))
    program = None
    if where is not None:
        from .deals.constraints import prepare

        constraint = prepare(where, game, r, f, seed=seed)
        where, program = constraint.text, constraint.program
    moments = Moments()
    shown = columns(g.figures, p, g.sides_of(r), basic_only=True)
    recs: list[dict] = []
    kept: list[Batch] = []

    played = [0, 0, 0]  # games, deals, deals drawn

    def take(batch: Batch) -> None:
        played[0] += batch.n
        if "shuffles" in batch.game:
            played[1] += int(batch.game["deals"].sum()) if "deals" in batch.game else batch.n
            played[2] += int(batch.game["shuffles"].sum())
        figures = g.measure(batch, r)
        for name in shown:
            moments.add(name, figures[name])
        for i in range(len(batch.logs)):
            rec = g.make_record(r, batch, i, seed, names)
            if sink is not None:
                sink.write(_io.dumps(rec) + "\n")
                written[0] += 1
            else:
                recs.append(rec)
        if keep_games:
            kept.append(batch)

    written = [0]
    sink = None
    t0 = time.perf_counter()
    more = {} if program is None else {"where": program}
    g.play_batch(r, ids, params, seed=seed, n=0, first=f, **more)  # compile or load: timed apart from play
    t1 = time.perf_counter()
    done = 0
    try:
        with contextlib.ExitStack() as stack, _stop_on_sigint() as stopped:
            if records_to is not None:
                sink = stack.enter_context(atomic_write(records_to))
            if progress and n > 0:  # a long run says so first, from a short timed start (its own first games)
                from .core.eta import announce, timed_start

                def head(start: int, k: int) -> None:
                    if not stopped():
                        run_games(g, r, ids, params, seed=seed, start=start, n=k, first=f, n_threads=threads,
                                  log_games=max(0, records - start), on_batch=take, stop=stopped,
                                  where=program)  # fmt: skip

                done, secs = timed_start(head, n)
                announce(done, secs, n)
            if not stopped():
                run_games(g, r, ids, params, seed=seed, start=done, n=n - done, first=f, n_threads=threads,
                          log_games=max(0, records - done), progress=progress, progress_done=done, on_batch=take,
                          stop=stopped, where=program)  # fmt: skip
            interrupted = stopped()
    except OSError as e:  # a full disk, a closed pipe: one line, the file left as it was
        if records_to is None:
            raise
        raise WhistsimError(f"cannot write {records_to}: {e.strerror}") from None
    t2 = time.perf_counter()
    sim = Simulation(game, r, names, seed, played[0], f, moments, recs, Batch.concat(kept) if kept else None,
                     load_s=t1 - t0, play_s=t2 - t1, interrupted=interrupted, where=where, deals=played[1],
                     drawn=played[2])  # fmt: skip
    sim.n_records = written[0] if records_to is not None else len(recs)
    return sim


def write_records(path: str, records: list[dict]) -> int:
    return write_jsonl(path, records)


@dataclass
class Judgement:
    """What replay made of one line: a result, a rejection, or a mismatch."""

    line: int
    result: dict | None = None
    move: int | None = None
    error: str | None = None
    stored: dict | None = None

    @property
    def ok(self) -> bool:
        return self.error is None and self.stored is None

    def to_json(self) -> dict:
        if self.error is not None:
            return {"line": self.line, "move": self.move, "error": self.error}
        out = {"line": self.line, **(self.result or {})}
        if self.stored is not None:
            out.update({"mismatch": True, "stored": self.stored})
        return out


class _DuplicateKey(ValueError):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict:
    """A JSON object whose keys are all different: a repeated key is refused, not last-wins."""
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for k, _ in pairs:
            if k in seen:
                raise _DuplicateKey(f"key {k!r} appears twice in an object")
            seen.add(k)
    return out


def parse_record_text(text: str) -> Any:
    """JSON text -> value; ValueError (one line) for bad JSON or a repeated key."""
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as e:
        raise ValueError(f"bad JSON: {e.msg} at column {e.colno}") from None
    except _DuplicateKey as e:
        raise ValueError(f"bad JSON: {e}") from None
    except (ValueError, RecursionError) as e:  # a 5000-digit number, or nesting too deep
        raise ValueError(f"bad JSON: {' '.join(str(e).split())}") from None


def judge(line: int, text: str | None) -> Judgement:
    """Replay one record line through the rules engine; never raises on any text.

    >>> import json, whistsim
    >>> record = whistsim.simulate("welsh", n=1, seed=3, records=1).records[0]
    >>> whistsim.judge(0, json.dumps(record)).ok
    True
    >>> whistsim.judge(1, '{"game": "chess"}').error
    "unknown game 'chess'"
    """
    try:
        record = record_of_line(text)
    except ValueError as e:
        return Judgement(line, error=str(e))
    name = record.get("game")
    try:
        game = get_game(name if isinstance(name, str) else "")
    except WhistsimError:
        return Judgement(line, error=f"unknown game {name!r}")
    try:
        result = game.replay(record)
    except REFUSALS as e:
        move, error = refusal(e)
        return Judgement(line, move=move, error=error)
    stored = record.get("result")
    if stored is not None and stored != result:
        return Judgement(line, result=result, stored=stored)
    return Judgement(line, result=result)


def record_of_line(text: str | None) -> dict:
    """The JSON object of one record line (None: a line over ``io.MAX_LINE``); a ValueError
    saying why when the line is not one, as replay words it."""
    if text is None:
        raise ValueError(f"the line is longer than {_io.MAX_LINE >> 20} MiB")
    if not _is_utf8(text):
        raise ValueError("the line is not UTF-8 text")
    record = parse_record_text(text)  # a repeated key is refused
    if not isinstance(record, dict):
        raise ValueError("a record must be a JSON object")
    return record


# What refuses one record and no other: the rest of a file is judged (replay, solve).
REFUSALS = (WhistsimError, ValueError, TypeError, OverflowError, IndexError, KeyError, RecursionError)


def refusal(e: BaseException) -> tuple[int | None, str]:
    """(the move at fault or None, why) for an exception in :data:`REFUSALS`."""
    if isinstance(e, MoveError):
        return e.index, e.reason
    if isinstance(e, RecordError):
        return None, str(e)
    # a field value no reader foresaw
    return None, f"malformed record: {' '.join(str(e).split()) or type(e).__name__}"


def _is_utf8(text: str) -> bool:
    # read_lines keeps undecodable bytes as surrogates, so one bad line spoils only itself.
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def replay(source: str) -> Iterator[Judgement]:
    """Judge every record of a JSON Lines file (``-``: standard input), each as soon as it is read.

    Blank lines count in the numbering but are not judged.

    >>> import os, tempfile, whistsim
    >>> path = os.path.join(tempfile.mkdtemp(), "games.jsonl")
    >>> whistsim.simulate("whist", n=3, seed=1, records=3, records_to=path).n_records  # one per deal
    11
    >>> all(j.ok for j in whistsim.replay(path))
    True
    """
    try:
        for i, text in read_lines(source):
            if text is None or text.strip():
                yield judge(i, text)
    except OSError as e:
        raise WhistsimError(f"cannot read {source}: {e.strerror}") from None


def load_record(source: str, line: int) -> dict:
    """The record on 0-based ``line`` of a file.

    >>> import os, tempfile, whistsim
    >>> path = os.path.join(tempfile.mkdtemp(), "games.jsonl")
    >>> whistsim.simulate("welsh", n=2, seed=1, records=2, records_to=path).n_records
    2
    >>> record = whistsim.load_record(path, 1)
    >>> record["game"], record["seed"]
    ('welsh', {'run': 1, 'game': 1})
    """
    try:
        for i, text in read_lines(source):
            if i == line:
                if text is None:
                    raise WhistsimError(f"{source}: line {line} is too long")
                if not text.strip():
                    raise WhistsimError(f"{source}: line {line} is blank")
                if not _is_utf8(text):
                    raise WhistsimError(f"{source}: line {line} is not UTF-8 text")
                try:
                    record = parse_record_text(text)
                except ValueError as e:
                    raise WhistsimError(f"{source}: line {line}: {e}") from None
                if not isinstance(record, dict):
                    raise WhistsimError(f"{source}: line {line}: a record must be a JSON object")
                return record
    except OSError as e:
        raise WhistsimError(f"cannot read {source}: {e.strerror}") from None
    raise WhistsimError(f"{source}: there is no line {line}")


def show(record: dict) -> str:
    """A deal told for people.

    >>> import whistsim
    >>> record = whistsim.simulate("whist", n=1, seed=1, records=1).records[0]
    >>> print(whistsim.show(record).splitlines()[1])
    Seat 3 deals and turns 6♥: hearts are trumps; seat 0 leads.
    """
    name = record.get("game")
    if not isinstance(name, str):
        raise WhistsimError(f"unknown game {name!r}")
    game = get_game(name)
    try:
        return game.narrate(record)
    except MoveError as e:
        raise WhistsimError(f"move {e.index}: {e.reason}") from None


__all__ = ["Simulation", "Judgement", "simulate", "replay", "judge", "show", "load_record", "write_records"]
