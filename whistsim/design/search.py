"""The search: variants drawn by Optuna (or every one, in a small space), raced on paired deals,
the best re-measured on fresh deals.

A run is a deterministic function of its spec and seed. Round ``r`` plays
search games ``r * block ..`` of the seed; before it, in a space too large to
enumerate, Optuna's TPE sampler (seeded from the seed and the round) proposes
new variants, from a study rebuilt from every variant told so far. After it,
each new variant's estimates are told, and the race (:mod:`.race`) drops the
variants shown worse or infeasible. The chosen variants and the standard rules
are then played on games from ``FINAL_START`` on: deals the search never used.

Each finished block is written to the output folder as it finishes and each
round's state once it is merged, so an interrupted run continued with
``resume=True`` ends with the same answer as one uninterrupted run.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import math
import os
import shutil
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..core.io import atomic_write
from ..core.options import WhistsimError
from ..games import get_game
from ..games.runner import stop_on_sigint, threads
from .race import N_STAR_ROUNDS, BlockJob, BlockOut, Judge, RaceStats, coefficients, family_size
from .spec import DesignError, DesignSpec, describe_params, enumerate_space, load_design

FINAL_START = 1 << 40  # the re-measurement's first game: the search plays games below the budget
CHECKPOINT = ".design-checkpoint.npz"
BLOCKS = ".design-blocks"  # each finished block of the round in play, and of the re-measurement
VERSION = 1


class DesignInterrupted(KeyboardInterrupt):
    """Ctrl-C: the finished rounds and blocks are kept; ``resume`` continues."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass
class Variant:
    id: int
    params: dict[str, Any] | None  # the searched options' values; None: the standard rules
    words: str
    entered: int  # the round it first played
    rounds: int = 0
    status: str = "racing"  # racing, dropped, infeasible
    ended: int | None = None  # the round after which it was dropped or found infeasible
    by: int | None = None  # dropped: the variant shown better
    feasibility: str = "open"
    trial: int | None = None  # its Optuna trial, if drawn by the optimiser
    standard: bool = False

    def to_json(self) -> dict:
        return dict(self.__dict__)


@dataclass
class Final:
    """A variant re-measured on fresh deals: each objective's mean and 95% CI, and its paired
    difference against the standard rules on the same deals."""

    variant: int
    n: int
    mean: list[float]
    low: list[float]
    high: list[float]
    diff: list[float]
    diff_low: list[float]
    diff_high: list[float]
    inside: list[str]  # each feasible range: "yes" (95% CI inside), "no" (outside) or "unsettled"


@dataclass
class DesignResult:
    spec: DesignSpec
    mode: str  # "exhaustive" or "optuna"
    variants: list[Variant]
    stats: RaceStats
    judge: Judge
    rounds: int
    spent: int  # games the search played
    family: int  # intervals the race's error is split among
    chosen: list[int]
    finals: dict[int, Final]
    seconds: float
    refused: int = 0  # draws the rules refused or the spec excluded
    repeats: int = 0  # draws of a variant already tried
    deals: dict[int, int] = field(default_factory=dict)  # search deals each variant played

    @property
    def standard(self) -> Variant:
        return next(v for v in self.variants if v.standard)

    def full_cost(self) -> int:
        """Games had every variant played every round the race ran (no racing)."""
        return len(self.variants) * self.rounds * self.spec.block * len(self.spec.tables)

    def estimate(self, o: int, v: int) -> tuple[float, float, float, int]:
        """The search's estimate of objective o's figure for variant v: mean, 95% CI (Wilson for a
        share), n."""
        from ..core.stats import Estimate, Share

        n, s1, s2 = self.stats.own[o, :, v]
        n = int(n)
        if n == 0:
            return math.nan, math.nan, math.nan, 0
        mean = s1 / n
        sd = math.sqrt(max(s2 - s1 * s1 / n, 0.0) / (n - 1)) if n > 1 else math.nan
        e = Estimate(mean, sd, n)
        if self.is_share(o):
            e = Share.of(e)
        return e.mean, e.low, e.high, n

    def is_share(self, o: int) -> bool:
        from ..core.tables import is_share

        g = get_game(self.spec.game)
        return is_share(g.figure(self.spec.objectives[o].figure.split("[")[0]))

    def summary(self):
        from .report import summary_table

        return summary_table(self)

    def findings(self) -> list[str]:
        from .report import findings

        return findings(self)


def _checksum(meta: str, arrays: dict[str, np.ndarray]) -> str:
    h = hashlib.sha256(meta.encode())
    for k in sorted(arrays):
        h.update(k.encode() + np.ascontiguousarray(arrays[k]).tobytes())
    return h.hexdigest()


class Search:
    """A design run: the spec, where it writes, and its state from round to round."""

    def __init__(self, spec: DesignSpec, out: Path, *, write: bool = True, resume: bool = False,
                 progress: bool = False, on_block: Callable[[int], None] | None = None) -> None:  # fmt: skip
        self.spec, self.out, self.write, self.resume = spec, out, write, resume
        self.progress, self.on_block = progress, on_block
        self.game = get_game(spec.game)
        self.fp = spec.fingerprint()
        self.mode = "exhaustive" if spec.size <= spec.exhaustive else "optuna"
        self.variants: list[Variant] = []
        self.by_key: dict[str, int] = {}
        self.trials: list[dict] = []  # every draw told to the optimiser, in order
        self.round = 0
        self.spent = 0
        self.refused = self.repeats = 0
        self.exhausted = False
        self.blocks_done = 0
        self.finals: dict[int, Final] = {}
        self._setup()

    # -- the variants ----------------------------------------------------------------

    def _key(self, rules: Any) -> str:
        from ..experiments.spec import rules_key

        return json.dumps(rules_key(rules), sort_keys=True, default=str)

    def _setup(self) -> None:
        spec = self.spec
        std = Variant(0, None, "the standard rules", entered=0, standard=True)
        self.variants.append(std)
        self.by_key[self._key(spec.standard)] = 0
        self.pool: list[dict[str, Any]] = []
        if self.mode == "exhaustive":
            seen = set(self.by_key)
            for params in enumerate_space(spec):
                if spec.excluded(params):
                    self.refused += 1
                    continue
                try:
                    rules = spec.make_rules(params)
                except DesignError:
                    self.refused += 1
                    continue
                key = self._key(rules)
                if key in seen:  # the standard rules, or a combination the rules read alike
                    if self.by_key.get(key) == 0 and std.params is None:
                        std.params = params
                    continue
                seen.add(key)
                self.pool.append(params)
            self.capacity = len(self.pool) + 1
            if self.capacity < 2:
                raise DesignError("space: every combination is the standard rules, excluded or refused: nothing to search")  # fmt: skip
        else:
            per = spec.block * len(spec.tables)
            self.capacity = int(min(spec.max_candidates, spec.size + 1, max(2, spec.budget // per)))
        self.family = family_size(spec, self.capacity)
        self.level = spec.alpha / self.family
        n_obj = len(spec.objectives)
        self.stats = RaceStats(n_obj, self.capacity)
        self.coef = np.zeros((n_obj, self.capacity, 2))
        self._set_coef(0, spec.standard)
        self.judge = Judge(spec, self.stats, self.coef, 0, self.level, N_STAR_ROUNDS * spec.block)

    def _set_coef(self, v: int, rules: Any) -> None:
        for o, obj in enumerate(self.spec.objectives):
            self.coef[o, v] = coefficients(self.spec, obj, rules)

    def _add(self, params: dict[str, Any], rules: Any, trial: int | None = None) -> Variant:
        v = Variant(len(self.variants), params, describe_params(params), entered=self.round, trial=trial)
        self.variants.append(v)
        self.by_key[self._key(rules)] = v.id
        self._set_coef(v.id, rules)
        return v

    def rules_of(self, v: Variant) -> Any:
        return self.spec.standard if v.standard else self.spec.make_rules(v.params or {})

    # -- the optimiser -----------------------------------------------------------------

    def _study(self):
        import inspect

        import optuna

        optuna.logging.set_verbosity(optuna.logging.WARNING)
        warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
        # Optuna 5 keeps a trial's constraints with the trial; earlier ones ask a function for them
        self._native = "constraints" in inspect.signature(optuna.trial.create_trial).parameters
        ranked = self.spec.ranked
        seed = (self.spec.seed * 1_000_003 + self.round) % (2**32)
        old_style = bool(self.spec.constraints) and not self._native
        sampler = optuna.samplers.TPESampler(
            seed=seed,
            n_startup_trials=max(self.spec.batch, 10),
            constraints_func=(lambda t: t.user_attrs.get("constraints", [0.0])) if old_style else None,
        )
        study = optuna.create_study(sampler=sampler, directions=["minimize"] * len(ranked))
        dists = {d.key: d.distribution() for d in self.spec.space}
        for t in self.trials:
            done = t["values"] is not None
            state = optuna.trial.TrialState.COMPLETE if done else optuna.trial.TrialState.FAIL
            cons = t["constraints"]
            extra: dict[str, Any] = {}
            if cons is not None and done:
                if self._native:
                    extra["constraints"] = {f"c{i}": float(c) for i, c in enumerate(cons)}
                else:
                    extra["user_attrs"] = {"constraints": cons}
            study.add_trial(
                optuna.trial.create_trial(
                    state=state, values=t["values"], params=t["params"], distributions=dists, **extra
                )
            )
        return study, dists

    def _tell(self, study: Any, trial: Any, values: list[float], cons: list[float] | None) -> None:
        if cons is not None:
            if self._native:
                for i, c in enumerate(cons):
                    trial.set_constraint(f"c{i}", float(c))
            else:
                trial.set_user_attr("constraints", cons)
        study.tell(trial, values)

    def _told(self, v: Variant) -> tuple[list[float], list[float] | None]:
        """A variant's point estimates as the optimiser is told them: each ranked objective's value to
        minimise, and each feasible range's violation (at most 0 when inside)."""
        values = self.judge.badness(v.id)
        if not self.spec.constraints:
            return values, None
        cons = []
        for o, obj in enumerate(self.spec.objectives):
            if not obj.constraint:
                continue
            n, s1, _ = self.stats.own_moments(o, v.id)
            ns, ss, _ = self.stats.own_moments(o, 0)
            m, ms = s1 / n, ss / ns
            if obj.low is not None:
                cons.append(obj.low[0] * ms + obj.low[1] - m)
            if obj.high is not None:
                cons.append(m - (obj.high[0] * ms + obj.high[1]))
        return values, cons

    def _propose(self) -> list[Variant]:
        """New variants for this round: every one of a small space at the start, else Optuna's draws."""
        spec = self.spec
        if self.mode == "exhaustive":
            if self.round > 0:
                return []
            return [self._add(p, spec.make_rules(p)) for p in self.pool]
        alive = sum(v.status == "racing" for v in self.variants)
        room = min(spec.batch, spec.max_alive - alive, self.capacity - len(self.variants))
        if self.exhausted or room <= 0 or self.spent >= spec.explore * spec.budget:
            return []
        from optuna.trial import TrialState

        study, dists = self._study()
        new: list[Variant] = []
        tries = 0
        while len(new) < room and tries < 20 * room:
            tries += 1
            trial = study.ask(dists)
            params = {d.key: trial.params[d.key] for d in spec.space}
            record = {"params": params, "values": None, "constraints": None}
            rules = None
            if not spec.excluded(params):
                with contextlib.suppress(DesignError):
                    rules = spec.make_rules(params)
            if rules is None:
                self.refused += 1
                study.tell(trial, state=TrialState.FAIL)
                self.trials.append(record)
                continue
            known = self.by_key.get(self._key(rules))
            if known is not None:  # tried already: the optimiser hears its estimates again
                self.repeats += 1
                old = self.variants[known]
                if old.rounds == 0:
                    study.tell(trial, state=TrialState.FAIL)
                else:
                    record["values"], record["constraints"] = self._told(old)
                    self._tell(study, trial, record["values"], record["constraints"])
                self.trials.append(record)
                continue
            # told once the round is played; the study is rebuilt from the records next round
            self.trials.append(record)
            new.append(self._add(params, rules, trial=len(self.trials) - 1))
        if not new and tries >= 20 * room:
            self.exhausted = True  # the optimiser keeps drawing variants already tried
        return new

    # -- a round -----------------------------------------------------------------------

    def _playing(self) -> list[Variant]:
        """The variants that play the round: those racing, and the standard rules (the reference of
        every relative range) while a range is relative to them."""
        relative = any(
            o.constraint and ((o.low or (0,))[0] or (o.high or (0,))[0]) for o in self.spec.objectives
        )
        return [v for v in self.variants if v.status == "racing" or (v.standard and relative)]

    def _block_file(self, tag: str, v: int) -> Path:
        return self.out / BLOCKS / f"{tag}-v{v:04d}.npy"

    def _play(
        self, tag: str, variants: list[Variant], start: int, n: int, executor: Any, stopped
    ) -> np.ndarray:
        """Every variant's block, each kept as it finishes: [objectives, len(variants), n]."""
        x = np.zeros((len(self.spec.objectives), len(variants), n))
        todo = []
        for k, v in enumerate(variants):
            f = self._block_file(tag, v.id)
            got = self._load_block(f, n) if (self.write and self.resume) else None
            if got is None:
                todo.append(k)
            else:
                x[:, k] = got
        if not todo:
            return x
        items = tuple((v.id, tuple(v.params.items()) if not v.standard else None) for v in variants)
        job = BlockJob(self.spec, items, start, n, f"{self.fp}-{tag}")  # type: ignore[arg-type]
        outs = executor.map(job, todo, None)
        try:
            for out in outs:
                out: BlockOut
                x[:, out.index] = out.values
                if self.write:
                    f = self._block_file(tag, out.variant)
                    with atomic_write(f, "wb") as fh:
                        np.save(fh, out.values, allow_pickle=False)
                self.blocks_done += 1
                if self.bar is not None:
                    self.bar.update(n * len(self.spec.tables))
                if self.on_block is not None:
                    self.on_block(self.blocks_done)
                if stopped():
                    raise KeyboardInterrupt
        finally:
            outs.close()
        return x

    def _load_block(self, f: Path, n: int) -> np.ndarray | None:
        try:
            a = np.load(f, allow_pickle=False)
        except (OSError, ValueError):
            return None
        if a.shape != (len(self.spec.objectives), n) or not np.isfinite(a).all():
            return None
        return a

    def _decide(self) -> None:
        """After a round: who is infeasible, who is shown worse than (or dominated by) a survivor."""
        j, r = self.judge, self.round
        racing = [v for v in self.variants if v.status == "racing"]
        for v in racing:
            v.feasibility = j.feasibility(v.id)
        single = len(self.spec.ranked) == 1
        rivals = [v for v in racing if v.feasibility == "feasible"]
        out: list[tuple[Variant, str, int | None]] = []
        for v in racing:
            if v.feasibility == "infeasible":
                out.append((v, "infeasible", None))
                continue
            o = next(i for i, ob in enumerate(self.spec.objectives) if not ob.constraint)
            for d in rivals:
                if d is v:
                    continue
                if j.worse(o, v.id, d.id) if single else j.dominated(v.id, d.id):
                    out.append((v, "dropped", d.id))
                    break
        for v, status, by in out:
            v.status, v.ended, v.by = status, r, by

    def _settled(self, racing: list[Variant]) -> bool:
        """Nothing more to learn: one variant left, or (several objectives) every two survivors shown each
        better than the other on some objective, so that neither can come to dominate the other."""
        if len(racing) <= 1:
            return True
        if len(self.spec.ranked) == 1 or any(v.feasibility == "open" for v in racing):
            return False
        return all(self.judge.apart(a.id, b.id) for i, a in enumerate(racing) for b in racing[i + 1 :])

    def run(self, executor: Any) -> DesignResult:
        spec = self.spec
        t0 = time.perf_counter()
        if self.write and self.resume:
            self._load()
        elif self.write:
            self._fresh()
        self.bar = None
        if self.progress:
            from tqdm import tqdm

            self.bar = tqdm(total=spec.budget, initial=self.spent, unit="game", unit_scale=True, file=sys.stderr,
                            dynamic_ncols=True, leave=False, desc=spec.name)  # fmt: skip
        try:
            with stop_on_sigint() as stopped:
                while True:
                    new = self._propose()
                    playing = self._playing()
                    cost = len(playing) * len(spec.tables) * spec.block
                    racing = [v for v in self.variants if v.status == "racing"]
                    if self.spent + cost > spec.budget or (
                        not new and self.round > 0 and self._settled(racing)
                    ):
                        for v in new:  # drawn but never played: not part of the search
                            self.variants.remove(v)
                        break
                    x = self._play(
                        f"r{self.round:05d}", playing, self.round * spec.block, spec.block, executor, stopped
                    )
                    self.stats.add_round([v.id for v in playing], x)
                    self.spent += cost
                    for v in playing:
                        if v.status == "racing":
                            v.rounds += 1
                    for v in new:
                        if v.trial is not None:
                            rec = self.trials[v.trial]
                            rec["values"], rec["constraints"] = self._told(v)
                    self._decide()
                    self.round += 1
                    self._save()
                self.chosen = self._choose()
                self._final(executor, stopped)
        except KeyboardInterrupt:
            if self.bar is not None:
                self.bar.close()
            where = f"kept in {self.out}; continue with --resume" if self.write else "not kept (write=False)"
            raise DesignInterrupted(f"interrupted in round {self.round + 1} ({self.spent:,} games played), {where}") from None  # fmt: skip
        if self.bar is not None:
            self.bar.close()
        deals = {v.id: int(self.stats.own[0, 0, v.id]) for v in self.variants}
        return DesignResult(spec, self.mode, self.variants, self.stats, self.judge, self.round, self.spent,
                            self.family, self.chosen, self.finals, time.perf_counter() - t0, self.refused,
                            self.repeats, deals)  # fmt: skip

    # -- the answer --------------------------------------------------------------------

    def _choose(self) -> list[int]:
        """The best survivor (one objective) or the survivors no other beats on every objective (several),
        among those shown feasible when any is; at most five."""
        j = self.judge
        alive = [v for v in self.variants if v.status == "racing" and v.feasibility != "infeasible"]
        pool = [v for v in alive if v.feasibility == "feasible"] or alive
        if not pool:
            return []
        bad = {v.id: j.badness(v.id) for v in pool}
        if len(self.spec.ranked) == 1:
            return [min(pool, key=lambda v: (bad[v.id][0], v.id)).id]
        front = [v for v in pool if not any(
            all(a <= b for a, b in zip(bad[w.id], bad[v.id], strict=True)) and bad[w.id] != bad[v.id] for w in pool
        )]  # fmt: skip
        front.sort(key=lambda v: (bad[v.id][0], v.id))
        if len(front) > 5:
            picks = sorted({round(i * (len(front) - 1) / 4) for i in range(5)})
            front = [front[i] for i in picks]
        return [v.id for v in front]

    def _final(self, executor: Any, stopped) -> None:
        """The chosen variants and the standard rules on fresh deals, and each against the standard."""
        from ..core.stats import Estimate, Share

        spec = self.spec
        ids = list(dict.fromkeys([0, *self.chosen]))
        variants = [self.variants[i] for i in ids]
        x = self._play("final", variants, FINAL_START, spec.final, executor, stopped)
        g = self.game
        for k, v in enumerate(variants):
            mean, low, high, diff, dlo, dhi, inside = [], [], [], [], [], [], []
            for o, obj in enumerate(spec.objectives):
                e = Estimate(float(x[o, k].mean()), float(x[o, k].std(ddof=1)), spec.final)
                from ..core.tables import is_share

                if is_share(g.figure(obj.figure.split("[")[0])):
                    e = Share.of(e)
                mean.append(e.mean)
                low.append(e.low)
                high.append(e.high)
                d = x[o, k] - x[o, 0]
                de = Estimate(float(d.mean()), float(d.std(ddof=1)), spec.final)
                exact = float(d.std()) == 0
                diff.append(de.mean)
                dlo.append(de.mean if exact else de.low)
                dhi.append(de.mean if exact else de.high)
                if obj.constraint:
                    inside.append(_inside(obj, x[o, k], x[o, 0]))
            self.finals[v.id] = Final(v.id, spec.final, mean, low, high, diff, dlo, dhi, inside)
        if self.write:
            shutil.rmtree(self.out / BLOCKS, ignore_errors=True)

    # -- the checkpoint ------------------------------------------------------------------

    def _fresh(self) -> None:
        if (self.out / CHECKPOINT).is_file():
            print(f"whistsim: starting afresh; the checkpoint in {self.out} is replaced (--resume continues it)",
                  file=sys.stderr)  # fmt: skip
        with contextlib.suppress(FileNotFoundError):
            (self.out / CHECKPOINT).unlink()
        shutil.rmtree(self.out / BLOCKS, ignore_errors=True)

    def _save(self) -> None:
        if not self.write:
            return
        meta = json.dumps({
            "version": VERSION, "fingerprint": self.fp, "round": self.round, "spent": self.spent,
            "refused": self.refused, "repeats": self.repeats, "exhausted": self.exhausted,
            "variants": [v.to_json() for v in self.variants], "trials": self.trials,
        }, sort_keys=True, separators=(",", ":"), default=str)  # fmt: skip
        arrays = {"own": self.stats.own, "pair": self.stats.pair}
        buf = io.BytesIO()
        np.savez_compressed(buf, meta=np.array(meta), checksum=np.array(_checksum(meta, arrays)), **arrays)
        try:
            with atomic_write(self.out / CHECKPOINT, "wb") as f:
                f.write(buf.getvalue())
        except OSError as e:
            raise WhistsimError(f"cannot write {self.out / CHECKPOINT}: {e.strerror}") from None
        # the round's blocks are in the checkpoint now
        tag = f"r{self.round - 1:05d}-"
        with contextlib.suppress(OSError):
            for f in (self.out / BLOCKS).iterdir():
                if f.name.startswith(tag):
                    f.unlink()

    def _load(self) -> None:
        path = self.out / CHECKPOINT
        if not path.is_file():
            print(f"whistsim: no checkpoint in {self.out}; starting from the beginning", file=sys.stderr)
            return

        def bad(why: str) -> WhistsimError:
            return WhistsimError(f"--resume: {path}: {why}; run without --resume to start afresh")

        try:
            with np.load(path, allow_pickle=False) as z:
                meta, checksum = str(z["meta"]), str(z["checksum"])
                arrays = {"own": z["own"], "pair": z["pair"]}
        except (OSError, ValueError, KeyError) as e:
            raise bad(f"unreadable ({e})") from None
        if _checksum(meta, arrays) != checksum:
            raise bad("altered or damaged (its checksum does not match)")
        data = json.loads(meta)
        if data.get("version") != VERSION or data.get("fingerprint") != self.fp:
            raise bad("from another spec, seed or budget")
        if arrays["own"].shape != self.stats.own.shape or arrays["pair"].shape != self.stats.pair.shape:
            raise bad("its shapes do not match the spec")
        self.stats.own[...] = arrays["own"]
        self.stats.pair[...] = arrays["pair"]
        self.round, self.spent = data["round"], data["spent"]
        self.refused, self.repeats, self.exhausted = data["refused"], data["repeats"], data["exhausted"]
        self.trials = data["trials"]
        self.variants = [Variant(**v) for v in data["variants"]]
        self.by_key = {}
        for v in self.variants:
            rules = self.rules_of(v)
            self.by_key[self._key(rules)] = v.id
            self._set_coef(v.id, rules)
        if self.mode == "exhaustive" and self.round > 0:
            self.pool = []


def _inside(obj: Any, xc: np.ndarray, xs: np.ndarray) -> str:
    """A feasible range on fresh deals: "yes" when the 95% CI of every bound's margin is inside it."""
    from ..core.stats import Estimate

    verdicts = []
    for bound, side in ((obj.low, 1.0), (obj.high, -1.0)):
        if bound is None:
            continue
        m = side * (xc - bound[0] * xs - bound[1])  # >= 0 inside
        e = Estimate(float(m.mean()), float(m.std(ddof=1)), m.size)
        low, high = (e.mean, e.mean) if float(m.std()) == 0 else (e.low, e.high)
        verdicts.append("yes" if low >= 0 else "no" if high < 0 else "unsettled")
    return "no" if "no" in verdicts else "unsettled" if "unsettled" in verdicts else "yes"


@contextlib.contextmanager
def _writing(out: Path) -> Iterator[None]:
    try:
        yield
    except OSError as e:
        raise WhistsimError(f"cannot write {out}: {e.strerror or e}") from None


def run_design(
    spec: DesignSpec | str | os.PathLike,
    *,
    out: str | os.PathLike | None = None,
    seed: int | None = None,
    budget: int | None = None,
    threads_: int | None = None,
    scheduler: str | None = None,
    client: Any = None,
    resume: bool = False,
    progress: bool = False,
    write: bool = True,
    on_block: Callable[[int], None] | None = None,
) -> DesignResult:
    """Search a space of rule options (a design spec: docs/design.md) and write ``results/NAME/``.

    ``seed`` and ``budget`` replace the spec's; ``threads_``: Numba threads (default all cores);
    ``scheduler`` (``tcp://HOST:PORT``) or ``client`` plays the blocks on a Dask cluster; ``resume``
    continues an interrupted run to the answer of one uninterrupted run.
    """
    from ..experiments.run import DaskExecutor, LocalExecutor

    if not isinstance(spec, DesignSpec):
        spec = load_design(spec)
    changes: dict[str, Any] = {}
    if seed is not None:
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise DesignError(f"--seed {seed!r}: expected an integer from 0")
        changes["seed"] = seed
    if budget is not None:
        if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
            raise DesignError(f"--budget {budget!r}: expected a number of games >= 1")
        changes["budget"] = budget
    if changes:
        spec = spec.with_(**changes)
    if spec.budget >= FINAL_START:
        raise DesignError(
            f"budget {spec.budget:,}: at most {FINAL_START - 1:,} games (the fresh deals start there)"
        )
    outdir = Path(out) if out is not None else Path("results") / spec.name
    search = Search(spec, outdir, write=write, resume=resume, progress=progress, on_block=on_block)
    dask = scheduler is not None or client is not None
    executor = DaskExecutor(scheduler, client) if dask else LocalExecutor()
    with _writing(outdir), threads(threads_):
        result = search.run(executor)
    if write:
        from .report import write_outputs

        with _writing(outdir):
            write_outputs(result, outdir)
            with contextlib.suppress(FileNotFoundError):
                (outdir / CHECKPOINT).unlink()
    return result
