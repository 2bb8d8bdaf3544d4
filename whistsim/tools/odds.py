"""The chance of winning a game of Whist or Scotch Whist from any score.

A game is a run of deals that are independent given who deals (the players
never look at the score), so the chance of winning from a score follows
exactly from the distribution of what one deal scores:

1. **Measure.** Play ``n`` single deals with the chosen players through the
   engine's own game kernel (deal ``i`` is the first deal of game ``i`` of the
   seed, seat ``i mod P`` leading, so the dealer rotates) and keep each side's
   points part by part, in the count-out order the engine uses (Whist: revoke
   penalty, tricks, honours; Scotch Whist: the Ten, the French ten, cards, A,
   K, Q, the Jack).
2. **Distribution.** Deals are grouped by dealer *class*: dealers whose deals
   are alike (same side, same players all round the table after rotating it).
   The joint distribution of the parts is kept per class, so count-out is
   resolved exactly, not from totals.
3. **Dynamic programming.** ``V(score, dealer) = sum_o p_dealer(o) * W``, where
   ``W`` is the side that first reaches the target when the deal's parts are
   added in count-out order (sides in turn from the dealer's left, as the
   engine does), or ``V(score + o, next dealer)`` when no side reaches it.
   Every deal scores at least one point, so scores only grow and one sweep
   from the highest scores down solves every state.
4. **Sampling error.** A Poisson bootstrap over the measured deals (each deal
   weighted by a Poisson(1) draw; the same draws for every rule set with the
   same ``n`` and seed, so comparisons are paired) solves the DP again per
   resample; each chance's 95% interval is its estimate +- 1.96 bootstrap
   standard errors on the logit scale (so it stays within 0 and 1).

:func:`odds` is the public entry; :func:`solve` returns everything (the table,
the per-resample figures) for studies; :func:`play_from` plays whole games
from a score through the engine, to check the method.
"""

from __future__ import annotations

import math
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numba
import numpy as np
from numba import njit

from ..core import eta
from ..core.eta import PROBE_SECONDS
from ..core.options import RuleError, WhistsimError
from ..core.stats import Z95, proportion
from ..games.dealt import kernels
from ..games.dealt import players as roster
from ..games.dealt.engine import ENGINE_ERRORS, MAX_TEAMS, SCOTCH_ORDER, WHIST_ORDER, add_parts, count_order
from ..games.dealt.kernels import G_SHUFFLES, LOG_ROW, play_game
from ..games.dealt.rules import R_PLAYERS
from ..games.runner import by_time, timed_run
from ..harness import thread_template
from ..harness.batch import in_shares
from ..harness.build import kernel, per_run_values
from ..harness.deal import NO_DEAL

if TYPE_CHECKING:
    import pandas as pd

MAX_STATES = 2_000_000  # scores x dealer classes the table may hold
BLOCK = 16


# ---- measuring deals ---------------------------------------------------------------------


@thread_template
def _measure(states, thread, threads, base_deck, seed, start, parts, out, errors, one_deal, drawn):
    """Share ``thread`` of ``threads`` of deals ``start .. start + n - 1``, on ``states[thread]``:
    deal ``i`` is game ``i``'s first, seat ``i mod P`` leading (``harness.batch.in_shares`` runs
    each share on a thread of its own; work items of ``BLOCK`` deals in contiguous runs).

    ``out[i, j, side]`` is the side's points from count-out part ``parts[j]``; ``drawn[i]`` the
    deals drawn to deal it (``one_deal``: play_game's ``extra``, a constraint after its first two).
    Compiled in the dealt games' kernel with the seated players (``whistsim.harness.build``).
    """
    n = out.shape[0]
    g = states[thread]
    p = g.core.table.rules[R_PLAYERS]
    nt = out.shape[2]
    log = np.zeros((1, LOG_ROW), np.int16)  # never written: logging is off
    items = (n + BLOCK - 1) // BLOCK
    for b in range(thread * items // threads, (thread + 1) * items // threads):
        for i in range(b * BLOCK, min(n, (b + 1) * BLOCK)):
            game = start + i
            e, x, a = play_game(g, base_deck, seed, game, game % p, log, False, one_deal)
            if e != 0:
                errors[i, 0] = e
                errors[i, 1] = x
                errors[i, 2] = a
                continue
            drawn[i] = g.game_acc[G_SHUFFLES]
            res = g.core.result
            for j in range(parts.shape[0]):
                for side in range(nt):
                    out[i, j, side] = res[parts[j], side]


# ---- the setting: rules, players, dealer classes --------------------------------------------


@dataclass
class Setting:
    """A game's rules and players, with what the DP needs to know of them."""

    game: str
    rules: Any
    strategies: list[str]
    ids: np.ndarray
    params: np.ndarray
    parts: tuple[int, ...]  # engine result rows, in count-out order
    part_names: tuple[str, ...]
    period: int  # dealer classes: seats d and d + period deal alike
    where: str | None = None  # the constraint every deal is dealt under (docs/deals.md)
    program: np.ndarray | None = None  # and its program for the kernel
    drawn_per_deal: float = 1.0  # deals drawn per deal measured (set by :func:`measure`)

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def sides(self) -> int:
        return self.rules.n_teams

    @property
    def target(self) -> int:
        return self.rules.target

    def order(self, dealer: int) -> list[int]:
        """Sides in count-out turn, as the engine takes them (its ``count_order``)."""
        order = np.zeros(MAX_TEAMS, np.int64)
        n = count_order(self.rules.team_array(), self.players, dealer, order)
        return [int(x) for x in order[:n]]

    def describe(self) -> str:
        from ..games import get_game

        return f"{self.game}: {get_game(self.game).describe(self.rules)}"


def setting(
    game: str = "whist",
    *,
    preset: str | None = None,
    players: int | None = None,
    rules: dict[str, Any] | None = None,
    strategies: Any = ("random",),
    where: str | None = None,
) -> Setting:
    """Check that the DP models the rules' game logic, and seat the players; ``where``: a
    constraint every deal must meet (docs/deals.md), checked before any deal is played."""
    from ..core.strategy import USER_BASE, StrategySpec, parse_spec
    from ..games import get_game, seating
    from ..games.dealt.engine import SCOTCH

    if game not in ("whist", "scotch"):
        raise WhistsimError(f"odds: game {game!r}: odds are for whist and scotch (games to a target score)")
    g = get_game(game)
    r = g.make_rules(preset, players, dict(rules or {}))
    if r.unit != "game":
        raise RuleError("odds: rule unit=deal: odds are about whole games; leave unit=game")
    if r.kind == SCOTCH and r.revokes and r.claim > 0:
        raise RuleError(
            "odds: Scotch Whist with revokes and claims: a claimed revoke ends the game outside the "
            "count-out, which the odds do not model (use --rule claim=0 or revokes=false)"
        )
    if r.kind != SCOTCH and r.revokes and r.revoke_score == "deduct" and r.claim > 0 and r.revoke_penalty > 0:
        raise RuleError(
            "odds: Whist with revoke_score=deduct: a score can fall below 0, which the odds do not model "
            "(use --rule revoke_score=add or revokes=false)"
        )
    states = (r.target**r.n_teams) * r.players
    if states > MAX_STATES:
        raise WhistsimError(
            f"odds: {r.n_teams} sides to {r.target}: {states:,} scores x dealers is too many to tabulate "
            f"(at most {MAX_STATES:,})"
        )
    specs = [s if isinstance(s, StrategySpec) else parse_spec(s) for s in strategies]
    p = g.players_of(r)
    ids, params = seating(game, specs, p)
    if (ids >= USER_BASE).any():
        raise WhistsimError("odds: users' own strategies are not supported here; use a built-in one")
    names = [str(s) for s in (specs if len(specs) == p else specs * p)]
    if r.kind == SCOTCH:
        parts = SCOTCH_ORDER
        part_names = ("ten", "ten_diamonds", "cards", "ace", "king", "queen", "jack")
    else:
        parts = WHIST_ORDER
        part_names = ("penalty", "trick_points", "honours")
    teams = r.teams_tuple
    period = p
    for d in range(1, p + 1):
        if p % d == 0 and all(
            teams[(q + d) % p] == teams[q]
            and ids[(q + d) % p] == ids[q]
            and np.array_equal(params[(q + d) % p], params[q])
            for q in range(p)
        ):
            period = d
            break
    program = None
    if where is not None:
        from ..deals.constraints import prepare

        constraint = prepare(where, game, r, -1)
        where, program = constraint.text, constraint.program
    return Setting(game, r, names, ids, params, tuple(parts), part_names, period, where, program)


def measure(
    s: Setting, n: int, seed: int, *, start: int = 0, announce: bool = False, progress: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """Deals ``start .. start + n - 1``: (parts ``[n, parts, sides]``, dealer seat ``[n]``). With
    ``announce``, a run expected to take over a minute says so first, in one line (from its own first
    deals); with ``progress``, a bar on standard error."""
    out = np.zeros((max(n, 0), len(s.parts), s.sides), np.int16)

    def keep(at: int, parts: np.ndarray) -> None:
        out[at : at + len(parts)] = parts

    _measure_chunks(s, n, seed, keep, start=start, announce=announce, progress=progress)
    return out, dealers(s, start, n)


def dealers(s: Setting, start: int, n: int) -> np.ndarray:
    """The dealer seat of deals ``start .. start + n - 1`` (deal ``i``: seat ``i mod P`` leads)."""
    first = (start + np.arange(n)) % s.players
    return (first - 1) % s.players


def _measure_chunks(
    s: Setting,
    n: int,
    seed: int,
    keep: Callable[[int, np.ndarray], None],
    *,
    start: int = 0,
    announce: bool = False,
    progress: bool = False,
) -> None:
    """Measure deals ``start .. start + n - 1`` a chunk at a time (sized by time, for Ctrl-C), handing
    ``keep(at, parts)`` each chunk's parts ``[m, parts, sides]`` (deals ``start + at ..``) in order:
    memory for a chunk, not for the run. Sets ``s.drawn_per_deal``."""
    from ..core.batch import check_batch_args

    if n < 1:
        raise WhistsimError(f"odds: n={n}: expected at least 1 deal")
    check_batch_args(seed, 0, s.players)
    states = kernels.new_state(s.rules, numba.get_num_threads())
    states["core"]["seats"]["strategy"][:, : s.players] = s.ids
    states["core"]["seats"]["params"][:, : s.players] = s.params
    deck, part_ids = s.rules.deck(), np.array(s.parts, np.int64)
    one_deal = np.concatenate([[1, 0], [] if s.program is None else s.program]).astype(np.int64)
    # the kernel for this setting's loop and constraint alone, as a batch run's (its per-run values)
    k = kernel(kernels, roster, [int(i) for i in s.ids], templates=(_measure,),
               per_run=per_run_values(kernels, states, one_deal))  # fmt: skip
    bufs: list[np.ndarray] = []  # a chunk's parts, errors and deals drawn, as large as the largest chunk yet
    drawn_total = [0]

    # Early chunks are small, and a parallel call's start-up weighs on them: the rate is taken from
    # the first chunk (after the first, which may compile) that ran PROBE_SECONDS by itself, or
    # from the last one once the run is a second old (chunks at their largest run shorter).
    clock = [0.0, False]  # when the first chunk ended; said
    bar = []

    def chunk(at: int, m: int) -> None:  # deals at .. at + m - 1: chunks sized by time, for Ctrl-C
        t = time.perf_counter()
        if not bufs or len(bufs[0]) < m:
            bufs[:] = [np.zeros((m, len(s.parts), s.sides), np.int16), np.zeros((m, 3), np.int64),
                       np.zeros(m, np.int64)]  # fmt: skip
        out, errors, drawn = (b[:m] for b in bufs)
        threads = max(1, min(states.shape[0], numba.get_num_threads(), m))
        in_shares(threads, lambda q: k._measure(states, np.int64(q), np.int64(threads), deck, np.int64(seed),
                                                np.int64(start + at), part_ids, out, errors, one_deal,
                                                drawn))  # fmt: skip
        _check(s, start + at, errors)
        drawn_total[0] += int(drawn.sum())
        keep(at, out)
        now = time.perf_counter()
        if at == 0:
            clock[0] = now
            return
        if not clock[1] and (now - t >= PROBE_SECONDS or now - clock[0] >= 4 * PROBE_SECONDS):
            clock[1] = True
            if announce:
                eta.announce(m, now - t, n, "deals", left=n - at - m)
            if progress and at + m < n:
                bar.append(eta.bar(n, "deal", at + m))
        elif bar:
            bar[0].update(m)

    try:
        by_time(n, chunk)
    finally:
        if bar:
            bar[0].close()
    s.drawn_per_deal = float(drawn_total[0]) / n


def _check(s: Setting, first: int, errors: np.ndarray) -> None:
    """Raise for the first deal of a chunk (deals ``first ..``) that the kernel could not play."""
    from ..core.strategy import StrategyError

    bad = np.flatnonzero(errors[:, 0])
    if bad.size:
        from ..core.cards import card_name

        i = int(bad[0])
        e, seat, a = (int(x) for x in errors[i])
        if e == NO_DEAL:
            raise WhistsimError(
                f"odds: deal {first + i}: no deal met {s.where!r} in the most deals drawn for one"
            )
        name = card_name(a) if 0 <= a < 52 else f"<card {a}>"
        raise StrategyError(f"deal {first + i}, seat {seat}: illegal play {name!r}: {ENGINE_ERRORS[e]}")


# ---- the dynamic programme ---------------------------------------------------------------


NEVER = 32767  # a step past every count-out step: the side does not reach the target


@njit(cache=True)
def count_out(score, parts, order, target):
    """The side that first reaches ``target`` when a deal's ``parts[part, side]`` are added to
    ``score`` part by part, sides in ``order`` within a part (the engine's ``add_parts``); -1: none."""
    return add_parts(score.copy(), parts, np.arange(parts.shape[0]), order, order.shape[0], target)


def count_out_steps(dist: Distribution, s: Setting) -> np.ndarray:
    """``steps[side, need, o]``: the count-out step (part * sides + turn) at which the side
    reaches ``need`` more points in outcome ``o``, or NEVER; the winner is the side with
    the earliest step, as :func:`count_out` finds by walking."""
    k = s.sides
    pos = np.zeros((s.period, k), np.int64)
    for d in range(s.period):
        for i, side in enumerate(s.order(d)):
            pos[d, side] = i
    cls = np.repeat(np.arange(s.period), np.diff(dist.offsets))
    cum = dist.outcomes.cumsum(axis=1)  # [K, parts, sides]
    need = np.arange(s.target + 1)
    reached = cum[:, :, :, None] >= need  # [K, parts, sides, need]
    first = reached.argmax(axis=1)
    steps = np.where(reached.any(axis=1), first * k + pos[cls][:, :, None], NEVER)
    return np.ascontiguousarray(steps.transpose(1, 2, 0)).astype(np.int16)  # outcomes innermost: streamed


@njit(cache=True, nogil=True)
def _solve_into(V, target, k, D, strides, steps, jumps, offsets, probs):
    """Fill ``V[state, dealer class, side]``: the chance each side wins from every state.

    States are scores flattened row-major (side 0 most significant); every deal adds
    a point or more, so a successor's index is larger and a downward sweep suffices.
    ``jumps[o]``: how far outcome ``o`` moves the flat index when no side reaches the target.
    """
    n_states = V.shape[0]
    score = np.zeros(k, np.int64)
    acc = np.zeros(k, np.float64)
    for idx in range(n_states - 1, -1, -1):
        rest = idx
        for side in range(k):
            score[side] = rest // strides[side]
            rest -= score[side] * strides[side]
        for d in range(D):
            nd = d + 1 if d + 1 < D else 0
            for side in range(k):
                acc[side] = 0.0
            for o in range(offsets[d], offsets[d + 1]):
                pr = probs[o]
                if pr == 0.0:
                    continue
                # Count out: the side reaching the target at the earliest step wins.
                best = NEVER
                winner = -1
                for side in range(k):
                    st = steps[side, target - score[side], o]
                    if st < best:
                        best = st
                        winner = side
                if winner >= 0:
                    acc[winner] += pr
                    continue
                nidx = idx + jumps[o]
                for side in range(k):
                    acc[side] += pr * V[nidx, nd, side]
            for side in range(k):
                V[idx, d, side] = acc[side]


@njit(cache=True, nogil=True)
def _first_deal(V, stats, target, k, D, strides, totals, offsets, probs):
    """Per dealer class, from all scores 0: [P(the game ends in one deal), P(a tie after it),
    P(the side ahead after one deal wins | no tie)] (a side that wins in one deal is ahead)."""
    for d in range(D):
        nd = d + 1 if d + 1 < D else 0
        end = 0.0
        tie = 0.0
        lead = 0.0
        for o in range(offsets[d], offsets[d + 1]):
            pr = probs[o]
            if pr == 0.0:
                continue
            crossed = False
            nidx = 0
            best = -1
            top = -1
            n_top = 0
            for side in range(k):
                t = totals[o, side]
                if t >= target:
                    crossed = True
                nidx += t * strides[side]
                if t > top:
                    top = t
                    best = side
                    n_top = 1
                elif t == top:
                    n_top += 1
            if crossed:
                end += pr
                lead += pr
            elif n_top > 1:
                tie += pr
            else:
                lead += pr * V[nidx, nd, best]
        stats[d, 0] = end
        stats[d, 1] = tie
        stats[d, 2] = lead / (1.0 - tie) if tie < 1.0 else np.nan


def _bootstrap(V, stats, target, k, D, strides, steps, jumps, totals, offsets, probs):
    """Solve row ``b`` of ``probs`` (a block of resamples) into ``V[b]``, each on a thread of its
    own (the solver releases the GIL); keep its first-deal figures."""

    def one(b: int) -> None:
        _solve_into(V[b], target, k, D, strides, steps, jumps, offsets, probs[b])
        _first_deal(V[b], stats[b], target, k, D, strides, totals, offsets, probs[b])

    in_shares(probs.shape[0], one)


WEIGHTS_BLOCK = 1 << 20  # deals whose bootstrap weights are drawn at once (the same draws as all at once)


@dataclass
class Distribution:
    """The distinct outcomes of a deal per dealer class, and which each measured deal had."""

    outcomes: np.ndarray  # [K, parts, sides] int64
    totals: np.ndarray  # [K, sides]
    offsets: np.ndarray  # [D + 1]: class d's outcomes are offsets[d] .. offsets[d + 1] - 1
    index: np.ndarray  # [n]: each deal's outcome, in the smallest unsigned type that holds K
    counts: np.ndarray  # [K]

    def probs(self) -> np.ndarray:
        """Each outcome's share of its dealer class's deals."""
        return self._shares(self.counts)

    def resample(self, rng: np.random.Generator) -> np.ndarray:
        """:meth:`probs` with each deal weighted by a Poisson(1) draw of ``rng``, in deal order, drawn a
        block at a time: no array of the deals' weights (their sums are whole numbers, exact)."""
        c = np.zeros(len(self.counts))
        for at in range(0, len(self.index), WEIGHTS_BLOCK):
            index = self.index[at : at + WEIGHTS_BLOCK]
            c += np.bincount(index, rng.poisson(1.0, len(index)).astype(np.float64), len(c))
        return self._shares(c)

    def _shares(self, c: np.ndarray) -> np.ndarray:
        out = np.zeros(len(c))
        for d in range(len(self.offsets) - 1):
            lo, hi = self.offsets[d], self.offsets[d + 1]
            total = c[lo:hi].sum()
            out[lo:hi] = c[lo:hi] / total if total > 0 else 0.0
        return out


class Outcomes:
    """Deals' outcomes gathered a chunk at a time, in deal order: each distinct (dealer class, parts)
    once with its count, and one small code a deal (the bootstrap weighs the deals in order), so a
    run of ``n`` deals keeps a byte or two a deal, not its parts."""

    def __init__(self, n: int, period: int, shape: tuple[int, ...]) -> None:
        self.n, self.period, self.shape = n, period, tuple(shape)  # shape: a deal's [parts, sides]
        self.ids: dict[bytes, int] = {}
        self.rows: list[np.ndarray] = []  # by code: the dealer class, then the parts
        self.counts = np.zeros(0, np.int64)
        self.codes = np.zeros(n, np.uint8)  # widened as the outcomes grow in number

    def add(self, at: int, cls: np.ndarray, parts: np.ndarray) -> None:
        """Deals ``at .. at + m - 1``: their dealer classes ``[m]`` and parts ``[m, parts, sides]``."""
        m = len(parts)
        key = np.concatenate([cls.astype(np.int16)[:, None], parts.reshape(m, -1).astype(np.int16)], axis=1)
        whole = key.view(np.dtype((np.void, key.itemsize * key.shape[1]))).ravel()  # a row as one value
        u, first, inv = np.unique(whole, return_index=True, return_inverse=True)
        lut = np.zeros(len(u), np.int64)
        for i, row in enumerate(u.tolist()):
            code = self.ids.get(row)
            if code is None:
                code = self.ids[row] = len(self.rows)
                self.rows.append(key[first[i]].copy())  # not a view: the chunk is let go
            lut[i] = code
        if len(self.rows) - 1 > np.iinfo(self.codes.dtype).max:
            self.codes = self.codes.astype(np.min_scalar_type(len(self.rows) - 1))
        codes = lut[inv.ravel()]
        self.codes[at : at + m] = codes
        counts = np.bincount(codes, minlength=len(self.rows))
        counts[: len(self.counts)] += self.counts
        self.counts = counts

    def distribution(self) -> Distribution:
        """Group the deals into their distinct outcomes, dealer class by dealer class (each class's
        outcomes in the order of their parts). Once: the deals' codes become the outcomes' index."""
        rows = np.array(self.rows, np.int16).reshape(len(self.rows), 1 + math.prod(self.shape))
        cls, parts = rows[:, 0], rows[:, 1:]
        if (parts.sum(axis=1) <= 0).any():
            raise WhistsimError("odds: a deal scored no points: the game could go on for ever")
        remap = np.zeros(len(rows), np.int64)
        outcomes, offsets, counts = [], [0], []
        for d in range(self.period):
            ids = np.flatnonzero(cls == d)
            if ids.size == 0:
                raise WhistsimError(
                    f"odds: n={self.n}: too few deals to measure every dealer ({self.period} of them)"
                )
            u, inv = np.unique(parts[ids], axis=0, return_inverse=True)  # distinct: sorted as every deal's
            remap[ids] = offsets[-1] + inv.ravel()
            cnt = np.zeros(len(u), np.int64)
            cnt[inv.ravel()] = self.counts[ids]
            outcomes.append(u)
            counts.append(cnt)
            offsets.append(offsets[-1] + len(u))
        index, remap = self.codes, remap.astype(self.codes.dtype)
        for at in range(0, len(index), WEIGHTS_BLOCK):
            index[at : at + WEIGHTS_BLOCK] = remap[index[at : at + WEIGHTS_BLOCK]]
        out = np.concatenate(outcomes).astype(np.int64).reshape(len(rows), *self.shape)
        return Distribution(out, out.sum(axis=1), np.array(offsets, np.int64), index, np.concatenate(counts))


def distribution(parts: np.ndarray, dealer: np.ndarray, period: int) -> Distribution:
    """Group measured deals into their distinct outcomes, dealer class by dealer class."""
    acc = Outcomes(len(parts), period, parts.shape[1:])
    acc.add(0, dealer % period, parts)
    return acc.distribution()


@dataclass
class Solution:
    """Chances from every score and dealer class, with bootstrap standard errors."""

    setting: Setting
    n: int
    seed: int
    boot: int
    dist: Distribution
    V: np.ndarray  # [states, classes, sides]: the estimate
    se: np.ndarray  # the same shape: bootstrap standard errors
    first: np.ndarray  # [classes, 3]: end in one deal, tie after one, the leader wins
    first_reps: np.ndarray  # [boot, classes, 3]

    @property
    def shape(self) -> tuple[int, ...]:
        return (self.setting.target,) * self.setting.sides

    def state(self, score: tuple[int, ...]) -> int:
        return int(np.ravel_multi_index(tuple(score), self.shape))

    def dealer_class(self, dealer: int) -> int:
        return dealer % self.setting.period

    def chance(self, score: tuple[int, ...], dealer: int, side: int) -> tuple[float, float, float]:
        """(estimate, 95% low, 95% high) that ``side`` wins from ``score``, seat ``dealer`` dealing."""
        i, d = self.state(score), self.dealer_class(dealer)
        return interval(float(self.V[i, d, side]), float(self.se[i, d, side]))

    def first_deal(self, dealer: int, what: int) -> tuple[float, float, float]:
        """A first-deal figure (0: the game ends in it, 1: a tie after it, 2: the side ahead
        wins) with its 95% interval."""
        d = self.dealer_class(dealer)
        reps = self.first_reps[:, d, what]
        reps = reps[np.isfinite(reps)]
        se = float(reps.std(ddof=1)) if reps.size > 1 else math.nan
        return interval(float(self.first[d, what]), se)


def interval(p: float, se: float) -> tuple[float, float, float]:
    """``p`` with a 95% interval of +- 1.96 ``se`` on the logit scale (within 0 and 1)."""
    if not math.isfinite(se) or not math.isfinite(p):
        return p, math.nan, math.nan
    if p <= 0.0 or p >= 1.0 or se == 0.0:
        return p, p, p
    z = math.log(p / (1 - p))
    h = Z95 * se / (p * (1 - p))
    return p, 1 / (1 + math.exp(-(z - h))), 1 / (1 + math.exp(-(z + h)))


def _solve_arrays(s: Setting):
    k, T = s.sides, s.target
    strides = np.array([T ** (k - 1 - j) for j in range(k)], np.int64)
    return k, T, strides


def solve_distribution(s: Setting, dist: Distribution, probs: np.ndarray | None = None) -> np.ndarray:
    """``V[state, dealer class, side]`` for the deal outcomes ``dist`` (with ``probs``, or their
    measured shares): the chance each side wins from every score."""
    k, T, strides = _solve_arrays(s)
    V = np.zeros((T**k, s.period, k))
    p = dist.probs() if probs is None else probs
    _solve_into(V, T, k, s.period, strides, count_out_steps(dist, s), dist.totals @ strides, dist.offsets, p)
    return V


def default_boot(s: Setting) -> int:
    """Bootstrap resamples by default: 200, or 50 for three sides or more (each solve ~100x larger)."""
    return 200 if s.sides == 2 else 50


def solve(
    s: Setting,
    n: int = 200_000,
    seed: int = 0,
    *,
    boot: int = 200,
    announce: bool = False,
    progress: bool = False,
) -> Solution:
    """Measure ``n`` deals, solve the DP, and bootstrap it ``boot`` times (paired: the same
    resampling weights for every setting with the same ``n`` and ``seed``). With ``announce``,
    each long stage (the deals, the resamples) says first how long it will take; with
    ``progress``, a bar shows each on standard error."""
    if boot < 2:
        raise WhistsimError(f"odds: boot={boot}: expected at least 2 bootstrap resamples")
    acc = Outcomes(max(n, 0), s.period, (len(s.parts), s.sides))

    def keep(at: int, parts: np.ndarray) -> None:  # a chunk's deals, folded into their outcomes
        acc.add(at, dealers(s, at, len(parts)) % s.period, parts)

    _measure_chunks(s, n, seed, keep, announce=announce, progress=progress)
    return _solve(s, acc.distribution(), seed, boot=boot, announce=announce, progress=progress)


def solve_deals(
    s: Setting,
    parts: np.ndarray,
    dealer: np.ndarray,
    seed: int,
    *,
    boot: int = 200,
    announce: bool = False,
    progress: bool = False,
) -> Solution:
    """:func:`solve` over deals measured already (parts ``[n, parts, sides]``, dealer seat ``[n]``):
    deal ``j`` of every resample is weighted by the ``j``-th Poisson draw of the seed, so settings
    measured on the same deals, in the same order, are compared paired."""
    if boot < 2:
        raise WhistsimError(f"odds: boot={boot}: expected at least 2 bootstrap resamples")
    return _solve(
        s, distribution(parts, dealer, s.period), seed, boot=boot, announce=announce, progress=progress
    )


def _solve(
    s: Setting, dist: Distribution, seed: int, *, boot: int, announce: bool, progress: bool
) -> Solution:
    n = len(dist.index)
    k, T, strides = _solve_arrays(s)
    D = s.period
    steps = count_out_steps(dist, s)
    jumps = dist.totals @ strides
    p0 = dist.probs()
    misses = sum(_solve_into.stats.cache_misses.values())
    t = time.perf_counter()
    V = solve_distribution(s, dist, p0)
    # A resample takes as long as this solve, unless this one compiled the solver first.
    one = time.perf_counter() - t if sum(_solve_into.stats.cache_misses.values()) == misses else None
    first = np.zeros((D, 3))
    _first_deal(V, first, T, k, D, strides, dist.totals, dist.offsets, p0)
    rng = np.random.default_rng([seed, 0x0DD5])
    probs = np.stack([dist.resample(rng) for _ in range(boot)])
    reps = np.zeros((boot, D, 3))
    s1, s2 = _resample(V.shape, reps, (T, k, D, strides, steps, jumps, dist.totals, dist.offsets), probs,
                       announce=announce, progress=progress, one=one)  # fmt: skip
    m1 = s1 / boot
    var = np.maximum(s2 / boot - m1 * m1, 0.0) * boot / (boot - 1)
    return Solution(s, n, seed, boot, dist, V, np.sqrt(var), first, reps)


def _resample(
    shape, reps, args, probs, *, announce: bool, progress: bool, one: float | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Each resample's tables summed, and their squares: solved a block at a time (one resample
    per thread) and added in resample order, so the sums do not depend on the thread count;
    between blocks Ctrl-C is seen and the bar moves. ``one``: the seconds a solve took (None:
    unknown), for saying first how long the blocks will take; else the first block is timed."""
    boot = probs.shape[0]
    block = max(1, numba.get_num_threads())
    if announce and one is not None:  # each block: one solve per thread, side by side
        blocks = -(-boot // block)
        if blocks * one > eta.ANNOUNCE_AFTER_S:
            print(f"whistsim: about {eta.duration(blocks * one)} to go for {boot:,} bootstrap resamples "
                  f"({block} at a time, each solved about as fast as the estimate's {one:.1f} s)",
                  file=sys.stderr, flush=True)  # fmt: skip
        announce = False
    V = np.zeros((block, *shape))
    s1, s2, sq = np.zeros(shape), np.zeros(shape), np.zeros(shape)
    bar, t0 = None, time.perf_counter()
    try:
        for at in range(0, boot, block):
            m = min(block, boot - at)
            _bootstrap(V, reps[at : at + m], *args, probs[at : at + m])
            for j in range(m):
                s1 += V[j]
                np.multiply(V[j], V[j], out=sq)
                s2 += sq
            if at == 0:
                if announce:
                    eta.announce(m, time.perf_counter() - t0, boot, "bootstrap resamples")
                if progress and m < boot:
                    bar = eta.bar(boot, "resample", m)
            elif bar is not None:
                bar.update(m)
    finally:
        if bar is not None:
            bar.close()
    return s1, s2


# ---- the table ---------------------------------------------------------------------------


def table(sol: Solution, score: tuple[int, ...] | None = None, dealer: int | None = None) -> pd.DataFrame:
    """One row per (dealer class, score): each side's chance with its 95% interval."""
    import pandas as pd

    from ..games import get_game

    s = sol.setting
    k = s.sides
    dealers = range(s.period) if dealer is None else [dealer]
    states = np.arange(s.target**k) if score is None else np.array([sol.state(score)])
    coords = np.stack(np.unravel_index(states, sol.shape), axis=1)
    frames = []
    for q in dealers:
        d = sol.dealer_class(q)
        cols: dict[str, Any] = {"dealer": np.full(len(states), q)}
        for side in range(k):
            cols[f"score_{side}"] = coords[:, side]
        for side in range(k):
            p = sol.V[states, d, side]
            se = sol.se[states, d, side]
            lo, hi = _intervals(p, se)
            cols[f"win_{side}"] = p
            cols[f"win_{side}_low"] = lo
            cols[f"win_{side}_high"] = hi
        cols["n_deals"] = np.full(len(states), sol.n)
        frames.append(pd.DataFrame(cols))
    df = pd.concat(frames, ignore_index=True)
    df.attrs.update(
        game=s.game,
        rules=get_game(s.game).describe(s.rules),
        strategies=s.strategies,
        seed=sol.seed,
        n_deals=sol.n,
        boot=sol.boot,
        dealer_period=s.period,
    )
    if s.where is not None:
        df.attrs.update(where=s.where, drawn_per_deal=s.drawn_per_deal)
    return df


def _intervals(p: np.ndarray, se: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Vectorised :func:`interval`."""
    with np.errstate(divide="ignore", invalid="ignore"):
        inner = (p > 0) & (p < 1) & (se > 0)
        q = np.where(inner, p, 0.5)
        z = np.log(q / (1 - q))
        h = Z95 * se / (q * (1 - q))
        lo = np.where(inner, 1 / (1 + np.exp(-(z - h))), p)
        hi = np.where(inner, 1 / (1 + np.exp(-(z + h))), p)
    return lo, hi


def parse_score(text: str, s: Setting) -> tuple[int, ...]:
    """``"6-2"`` -> (6, 2): one score per side, each short of the target."""
    parts = str(text).strip().split("-")
    if not re.fullmatch(r"[0-9]+(-[0-9]+)*", str(text).strip()) or len(parts) != s.sides:  # ASCII digits only
        example = "-".join(["0"] * s.sides)
        raise WhistsimError(f"score {text!r}: expected one score per side ({s.sides}), like {example}")
    score = tuple(int(x) for x in parts)
    if any(x >= s.target for x in score):
        raise WhistsimError(f"score {text!r}: every score must be short of the target {s.target}")
    return score


def check_dealer(dealer: int, s: Setting) -> int:
    if not 0 <= dealer < s.players:
        raise WhistsimError(f"dealer {dealer}: expected a seat from 0 to {s.players - 1}")
    return int(dealer)


def odds(
    game: str = "whist",
    n: int = 200_000,
    seed: int = 0,
    *,
    preset: str | None = None,
    players: int | None = None,
    rules: dict[str, Any] | None = None,
    strategies: Any = ("random",),
    score: str | tuple[int, ...] | None = None,
    dealer: int | None = None,
    boot: int | None = None,
    threads: int | None = None,
    announce: bool = False,
    progress: bool = False,
    where: str | None = None,
) -> pd.DataFrame:
    """The chance that each side wins the game from ``score`` (or from every score short of the
    target), seat ``dealer`` dealing next, with 95% intervals; see the module's doc for the method.
    ``boot``: bootstrap resamples (default: 200; 50 with three sides or more). ``announce``: a
    stage expected to take over a minute says so first; ``progress``: a bar for each stage.
    Neither changes the result, nor does the thread count. ``where``: every deal measured meets
    this constraint (docs/deals.md): the odds of games whose every deal is such a deal.

    >>> df = odds("whist", n=2000, seed=1, preset="short", score="3-1", dealer=0)
    >>> row = df.iloc[0]       # one row per score asked; more deals narrow the interval
    >>> bool(row["win_0_low"] < row["win_0"] < row["win_0_high"]), int(row["n_deals"])
    (True, 2000)
    """
    from ..games.runner import threads as use_threads

    s = setting(game, preset=preset, players=players, rules=rules, strategies=strategies, where=where)
    sc = None
    if score is not None:
        sc = parse_score("-".join(map(str, score)) if isinstance(score, tuple) else score, s)
    q = None if dealer is None else check_dealer(dealer, s)
    if sc is not None and q is None:
        q = 0
    with use_threads(threads):
        sol = solve(
            s, n, seed, boot=default_boot(s) if boot is None else boot, announce=announce, progress=progress
        )
    return table(sol, sc, q)


# ---- whole games from a score, through the engine ----------------------------------------


def play_from(
    s: Setting,
    score: tuple[int, ...],
    dealer: int,
    n: int,
    seed: int,
    chunk: int = 1 << 16,
    *,
    progress: bool = False,
) -> pd.DataFrame:
    """Play ``n`` whole games from ``score``, seat ``dealer`` dealing first: each side's wins
    with their Wilson 95% interval. With ``progress``, a run expected to take over a minute
    says so first (from its own first games), then a bar shows it."""
    import pandas as pd

    wins = np.zeros(s.sides, np.int64)

    def games(done: int, m: int) -> None:  # chunks sized by time, each played ``chunk`` at most at once
        for at in range(done, done + m, chunk):
            b = kernels.play_batch(s.rules, s.ids, s.params, seed=seed, start=at, n=min(chunk, done + m - at),
                                first=(dealer + 1) % s.players, start_score=tuple(score))  # fmt: skip
            wins[:] += b.side["won"].sum(axis=0)

    timed_run(n, games, progress=progress)
    rows = []
    for side in range(s.sides):
        p, lo, hi = proportion(int(wins[side]), n)
        rows.append({"side": side, "wins": int(wins[side]), "n": n, "win": p, "low": lo, "high": hi})
    return pd.DataFrame(rows)


# ---- the chart ---------------------------------------------------------------------------


def heatmap(df: pd.DataFrame, path: str, *, dealer: int = 0, title: str | None = None) -> None:
    """A heat map of side 0's chance by score (with three or more sides: the others at 0)."""
    import textwrap

    from matplotlib.figure import Figure  # not pyplot: a chart never changes the caller's backend

    from ..core.io import atomic_write

    rows = df[df["dealer"] == dealer]
    for col in [c for c in df.columns if c.startswith("score_")][2:]:
        rows = rows[rows[col] == 0]
    if rows.empty:
        raise WhistsimError(f"chart: the table has no rows for dealer {dealer}")
    T = int(max(rows["score_0"].max(), rows["score_1"].max())) + 1
    grid = np.full((T, T), np.nan)
    grid[rows["score_0"].to_numpy(), rows["score_1"].to_numpy()] = 100 * rows["win_0"].to_numpy()
    p00 = grid[0, 0]
    if title is None:
        title = (
            f"{df.attrs.get('game', '').title()} to {T}: side 0 wins {p00:.0f}% of games from 0-0 "
            f"and {grid[T - 1, 0]:.0f}% from {T - 1}-0 (seat {dealer} deals next)"
        )
    fig = Figure(figsize=(7.2, 6.2), dpi=110)
    ax = fig.subplots()
    im = ax.imshow(grid, origin="lower", cmap="RdBu", vmin=0, vmax=100, aspect="auto")
    if T <= 12:
        for a in range(T):
            for b in range(T):
                if np.isfinite(grid[a, b]):
                    ax.text(b, a, f"{grid[a, b]:.0f}", ha="center", va="center", fontsize=8)
    ax.set_xlabel("side 1's score (points)")
    ax.set_ylabel("side 0's score (points)")
    ax.set_title("\n".join(textwrap.wrap(title, 64)), fontsize=10)
    fig.colorbar(im, ax=ax, label="chance that side 0 wins the game (%)")
    fig.tight_layout()
    with atomic_write(path, "wb") as f:
        fig.savefig(f, format="png")


__all__ = [
    "odds",
    "heatmap",
    "solve",
    "solve_deals",
    "solve_distribution",
    "count_out",
    "measure",
    "distribution",
    "setting",
    "table",
    "play_from",
    "parse_score",
    "Setting",
    "Solution",
]
