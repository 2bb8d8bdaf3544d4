"""``compare`` from the page: the form's values checked as the CLI checks them, and the run in a
background thread (a job) whose progress the page polls and which a button cancels.

A job plays through :func:`whistsim.tools.comparison.compare` with ``stop`` (asked after each chunk of
deals, about half a second each) and ``on_progress`` (deals done); its answer is the CLI's text
(:func:`whistsim.tools.comparison.format_comparison`) and its chart (:meth:`Comparison.chart`).
"""

from __future__ import annotations

import secrets
import shlex
import sys
import tempfile
import threading
import time
import traceback
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from ..core.options import WhistsimError, parse_assignments, plural

RUNNING_AT_ONCE = 1  # the kernels use every core: a second run would only halve both
KEEP_S = 3600.0  # a finished job is kept this long for its page
KEEP_FINISHED = 20  # and at most this many finished jobs
CHECK_WAIT_S = 30.0  # how long a request waits for the run's values to be checked

QUEUED, RUNNING, CHARTING = "checking", "running", "drawing"  # then one of:
DONE, CANCELLED, FAILED = "done", "cancelled", "failed"


class Busy(WhistsimError):
    """A run is going on already: answered 409."""


def _integer(text: str, flag: str) -> int:
    """An integer as the CLI reads it (Click's INT), refused with the CLI's words."""
    try:
        return click.INT.convert(text.strip(), None, None)
    except click.BadParameter as e:
        raise WhistsimError(f"Invalid value for '{flag}': {e.message}") from None


def _lines(text: str) -> list[str]:
    """A textarea's ``KEY=VALUE`` lines, blank ones skipped."""
    return [line.strip() for line in (text or "").splitlines() if line.strip()]


@dataclass(frozen=True)
class CompareRequest:
    """The form's values, read as ``whistsim compare`` reads its options."""

    game: str
    preset: str | None
    players: int | None
    rules: tuple[str, ...]  # --rule KEY=VALUE
    vs: tuple[str, ...]  # --vs KEY=VALUE (preset=NAME first when B starts from another preset)
    strategy: str  # --strategy: one player for every seat
    n: int
    seed: int

    @classmethod
    def from_form(cls, form: Any) -> CompareRequest:
        """Read and check the form (``game``, ``preset_a``, ``rules_a``, ``preset_b``, ``rules_b``,
        ``players``, ``strategy``, ``n``, ``seed``): a bad value raises the CLI's one line.
        What only the rules can tell (an option's value, B equal to A) compare checks itself."""
        from ..core.strategy import parse_spec
        from ..games import _did_you_mean, game_names, get_game

        typed = (form.get("game") or "welsh").strip()
        name = typed.lower()
        if name not in game_names():  # the CLI's --game choices, refused in its words
            raise WhistsimError(
                f"Invalid value for '--game': unknown game {typed!r}{_did_you_mean(typed)}"
                f" (known: {', '.join(game_names())})"
            )
        g = get_game(name)
        preset = (form.get("preset_a") or "").strip() or None
        players_text = (form.get("players") or "").strip()
        players = _integer(players_text, "--players") if players_text else None
        rules = _lines(form.get("rules_a", ""))
        preset_b = (form.get("preset_b") or "").strip()
        vs = ([f"preset={preset_b}"] if preset_b else []) + _lines(form.get("rules_b", ""))
        parse_assignments(rules)
        parse_assignments(vs)
        strategy = (form.get("strategy") or "").strip() or "random"
        if parse_spec(strategy).user is not None:  # the page runs no code from the server's disk
            raise WhistsimError(
                f"--strategy {strategy}: the page seats the built-in players only "
                f"({', '.join(g.players.names())}); run a PATH.py player with whistsim compare"
            )
        n = _integer(form.get("n") or "100000", "--n")
        seed = _integer(form.get("seed") or "0", "--seed")
        return cls(g.name, preset, players, tuple(rules), tuple(vs), strategy, n, seed)

    def kwargs(self) -> dict[str, Any]:
        """Keyword arguments of :func:`whistsim.tools.comparison.compare`, as the CLI passes them."""
        return {"preset": self.preset, "players": self.players, "rules": parse_assignments(self.rules),
                "vs": parse_assignments(self.vs), "strategies": [self.strategy], "n": self.n,
                "seed": self.seed}  # fmt: skip

    def command(self) -> str:
        """The same comparison as a command line."""
        words = ["whistsim", "compare", "--game", self.game]
        if self.preset:
            words += ["--preset", self.preset]
        if self.players is not None:
            words += ["--players", str(self.players)]
        for item in self.rules:
            words += ["--rule", item]
        for item in self.vs:
            words += ["--vs", item]
        if self.strategy != "random":
            words += ["--strategy", self.strategy]
        words += ["--n", str(self.n), "--seed", str(self.seed)]
        return " ".join(shlex.quote(w) for w in words)

    def form(self) -> dict[str, str]:
        """The values as the form shows them."""
        preset_b = next((v.partition("=")[2] for v in self.vs[:1] if v.startswith("preset=")), "")
        rules_b = self.vs[1:] if preset_b else self.vs
        return {"game": self.game, "preset_a": self.preset or "", "rules_a": "\n".join(self.rules),
                "preset_b": preset_b, "rules_b": "\n".join(rules_b),
                "players": "" if self.players is None else str(self.players), "strategy": self.strategy,
                "n": str(self.n), "seed": str(self.seed)}  # fmt: skip


@dataclass
class Job:
    """One comparison played in the background."""

    id: str
    request: CompareRequest
    state: str = QUEUED
    done: int = 0  # deals played under both rule sets
    text: str = ""  # the answer as the CLI prints it
    chart: bytes = b""  # its PNG
    error: str = ""
    warnings: list[str] = field(default_factory=list)
    note: str = ""  # a cancelled run: what its answer is of
    started: float = field(default_factory=time.time)
    finished: float | None = None
    cancel_asked: threading.Event = field(default_factory=threading.Event)
    checked: threading.Event = field(default_factory=threading.Event)  # set once running or over

    @property
    def total(self) -> int:
        return self.request.n

    @property
    def over(self) -> bool:
        return self.state in (DONE, CANCELLED, FAILED)

    def to_json(self) -> dict[str, Any]:
        out = {"id": self.id, "state": self.state, "done": self.done, "total": self.total,
               "command": self.request.command(), "warnings": self.warnings,
               "elapsed_s": round((self.finished or time.time()) - self.started, 2)}  # fmt: skip
        if self.over:
            out.update(text=self.text, chart=bool(self.chart), error=self.error, note=self.note)
        return out

    def _progress(self, done: int) -> None:
        self.done = done
        if self.state == QUEUED:  # compare has checked every value
            self.state = RUNNING
            self.checked.set()

    def run(self) -> None:
        """Play the comparison (in the job's thread); every outcome ends in a final state."""
        from ..tools.advice import WhistsimWarning
        from ..tools.comparison import compare, format_comparison

        try:
            # not thread-safe in Python 3.11, but only one job runs at a time and the table warns of nothing
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", WhistsimWarning)
                c = compare(self.request.game, **self.request.kwargs(), stop=self.cancel_asked.is_set,
                            on_progress=self._progress)  # fmt: skip
            self.warnings = [str(w.message) for w in caught if issubclass(w.category, WhistsimWarning)]
            self.text, self.done, self.state = format_comparison(c), c.n, CHARTING  # the play is over
            with tempfile.TemporaryDirectory(prefix="whistsim-compare-") as tmp:
                path = Path(tmp) / "compare.png"
                c.chart(str(path))
                self.chart = path.read_bytes()
            if c.interrupted:
                self.note = f"cancelled after {c.n:,} of {self.total:,} deals: the table is of those"
            self.state = CANCELLED if c.interrupted else DONE
        except KeyboardInterrupt:  # cancelled before the first deal
            self.state, self.note = CANCELLED, "cancelled before any deal was played"
        except WhistsimError as e:
            self.state, self.error = FAILED, str(e)
        except Exception as e:  # a bug: the page says so in one line, the server's log has the rest
            traceback.print_exc(file=sys.stderr)
            self.state, self.error = FAILED, f"internal error: {type(e).__name__}: {e}"
        finally:
            self.finished = time.time()
            self.checked.set()


class Jobs:
    """The app's comparisons: at most ``RUNNING_AT_ONCE`` running, finished ones kept a while."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._jobs: dict[str, Job] = {}

    def start(self, request: CompareRequest) -> Job:
        """Start a job; wait until compare has checked its values: a bad one raises its line
        and leaves no job behind."""
        with self._lock:
            self._prune()
            running = [j for j in self._jobs.values() if not j.over]
            if len(running) >= RUNNING_AT_ONCE:
                raise Busy(
                    f"a comparison is running already ({running[0].done:,} of "
                    f"{plural(running[0].total, 'deal')}): wait for it or cancel it"
                )
            job = Job(secrets.token_hex(6), request)
            self._jobs[job.id] = job
        threading.Thread(target=job.run, name=f"compare-{job.id}", daemon=True).start()
        job.checked.wait(CHECK_WAIT_S)
        if job.state == FAILED:
            with self._lock:
                self._jobs.pop(job.id, None)
            raise WhistsimError(job.error)
        return job

    def __len__(self) -> int:
        with self._lock:
            return len(self._jobs)

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            return self._jobs.get(job_id)

    def cancel(self, job_id: str) -> Job | None:
        job = self.get(job_id)
        if job is not None:
            job.cancel_asked.set()
        return job

    def cancel_all(self) -> None:
        with self._lock:
            jobs = list(self._jobs.values())
        for job in jobs:
            job.cancel_asked.set()

    def _prune(self) -> None:
        now = time.time()
        finished = sorted((j for j in self._jobs.values() if j.over), key=lambda j: j.finished or 0)
        for i, job in enumerate(finished):
            if now - (job.finished or now) > KEEP_S or i < len(finished) - KEEP_FINISHED:
                del self._jobs[job.id]
