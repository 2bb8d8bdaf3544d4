"""The claims check: every claim of the sources (docs/sources.md), quoted, read and measured.

A :class:`Claim` holds, before anything runs, the quotation (verbatim, with its
source and its place in it; for Akagiri 1995 the Japanese and an English
translation) and one or more :class:`Reading`: what the words are taken to
mean, the measure (what is counted, with which players, under which rules)
and the decision rule. Where the words allow more than one fair reading, at
least two are measured; when their verdicts differ the claim's verdict is
"depends on the reading", with the claim's sentence saying on what.

Each reading is measured at two or more player strengths (``skills``), and
verdicts combine as :func:`combine` says (both hold: holds; one holds and the
other is undecided: "holds (undecided with X)", the same for fails; one holds
and the other fails: "depends on skill"; across readings, "depends on the
reading" only when fair readings reach opposite verdicts). Every figure
carries its unit, n and 95% CI (shares: Wilson); comparisons of variants are
paired (the same seed and game indices play the same deals); a verdict that
rests on a family of tests, or on the best of several settings, is decided
with Holm's correction over that family (:func:`holm`).

Claims live in one module per game (``whistsim.claims.welsh``, ...), each
exporting ``CLAIMS``; :func:`registry` finds them for every game whistsim plays.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from statistics import NormalDist
from typing import Any

import numpy as np

from ..games import game_names, get_game
from ..options import WhistsimError
from ..stats import Z95, estimate, holm, proportion

HOLDS = "holds"
FAILS = "does not hold"
UNDECIDED = "undecided at this n"
DEPENDS_SKILL = "depends on skill"
DEPENDS_READING = "depends on the reading"
NOT_CHECKED = "not checked"
NOT_A_CLAIM = "not a claim of fact"  # the text offers something (a way to score) and asserts nothing to test
VERDICTS = (HOLDS, FAILS, UNDECIDED, DEPENDS_SKILL, DEPENDS_READING, NOT_CHECKED, NOT_A_CLAIM)


# ---- figures and decisions ------------------------------------------------------------------------


@dataclass(frozen=True)
class Figure:
    """A measured figure: its mean, 95% CI and n (the CI is Wilson's for a share)."""

    mean: float
    low: float
    high: float
    n: int
    exact: bool = False  # the same in every game (or a single exact replay)

    @staticmethod
    def of(x: np.ndarray) -> Figure:
        """The mean of per-game values, with a t interval."""
        x = np.asarray(x, np.float64)
        if x.size and np.all(x == x[0]):
            return Figure(float(x[0]), float(x[0]), float(x[0]), int(x.size), exact=True)
        e = estimate(x)
        return Figure(e.mean, e.low, e.high, e.n)

    @staticmethod
    def share(hits: int, n: int) -> Figure:
        p, lo, hi = proportion(int(hits), int(n))
        return Figure(p, max(0.0, min(lo, p)), min(1.0, max(hi, p)), int(n))  # rounding must not leave p out

    @staticmethod
    def exactly(value: float, n: int = 1) -> Figure:
        return Figure(float(value), float(value), float(value), n, exact=True)

    @property
    def se(self) -> float:
        return (self.high - self.low) / (2 * Z95) if self.n >= 2 else math.nan

    def p_above(self, x0: float) -> float:
        """One-sided p-value against "the mean is at most x0" (normal approximation)."""
        if self.exact or self.se == 0:
            return 0.0 if self.mean > x0 else 1.0
        return 0.5 * math.erfc((self.mean - x0) / self.se / math.sqrt(2))

    def p_below(self, x0: float) -> float:
        """One-sided p-value against "the mean is at least x0"."""
        if self.exact or self.se == 0:
            return 0.0 if self.mean < x0 else 1.0
        return 0.5 * math.erfc((x0 - self.mean) / self.se / math.sqrt(2))

    def json(self) -> dict[str, Any]:
        return {"mean": _num(self.mean), "ci": [_num(self.low), _num(self.high)], "n": self.n}

    def family_wide(self, m: int) -> Figure:
        """The interval widened for the best of ``m`` settings (Bonferroni: each at 1 - 0.05/m), so that
        picking the best after the fact does not make its interval too narrow."""
        if self.exact or m <= 1 or not math.isfinite(self.se):
            return self
        half = NormalDist().inv_cdf(1 - 0.025 / m) * self.se
        return Figure(self.mean, self.mean - half, self.mean + half, self.n)


def _num(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None


def above(f: Figure, x0: float) -> str:
    """The claim "the mean exceeds x0": holds when the whole CI is above, fails when it is at or below."""
    if f.low > x0 or (f.exact and f.mean > x0):
        return HOLDS
    if f.high <= x0:
        return FAILS
    return UNDECIDED


def below(f: Figure, x0: float) -> str:
    if f.high < x0 or (f.exact and f.mean < x0):
        return HOLDS
    if f.low >= x0:
        return FAILS
    return UNDECIDED


def within(f: Figure, lo: float, hi: float) -> str:
    """The claim "the mean lies between lo and hi" (an equivalence: the whole CI inside)."""
    if lo <= f.low and f.high <= hi:
        return HOLDS
    if f.high < lo or f.low > hi:
        return FAILS
    return UNDECIDED


def all_of(verdicts: list[str]) -> str:
    """Every part must hold: fails when one fails, holds when all hold."""
    if FAILS in verdicts:
        return FAILS
    if all(v == HOLDS for v in verdicts):
        return HOLDS
    return UNDECIDED


def family(pos: list[float], neg: list[float]) -> str:
    """A claim that every test of a family points one way: p-values for the claimed direction (pos) and
    the opposite one (neg), Holm-adjusted over the family: holds when every claimed direction is shown,
    fails when any opposite direction is shown, else undecided."""
    hp, hn = holm(pos), holm(neg)
    if any(p < 0.05 for p in hn):
        return FAILS
    if all(p < 0.05 for p in hp):
        return HOLDS
    return UNDECIDED


def base(verdict: str) -> str:
    """A verdict without its qualifier: "holds (undecided with X)" -> "holds"."""
    return verdict.split(" (", 1)[0]


def qualified(verdict: str, undecided: list[str]) -> str:
    """``verdict`` with the places where it stayed undecided: "holds (undecided with pimc2)"."""
    return f"{verdict} (undecided {'; '.join(undecided)})" if undecided else verdict


def combine(cells: dict[str, str]) -> str:
    """One verdict from the verdicts of one reading at its player strengths (``{strength: verdict}``):
    all hold -> holds; one holds and another is undecided -> "holds (undecided with X)" (the same for
    fails); one holds and another fails -> depends on skill; all undecided -> undecided; all "not a
    claim of fact" -> that."""
    vs = set(cells.values())
    if len(vs) == 1:
        return vs.pop()
    if HOLDS in vs and FAILS in vs:
        return DEPENDS_SKILL
    for v in (HOLDS, FAILS):
        if v in vs and vs <= {v, UNDECIDED}:
            return qualified(v, [f"with {short_players(s)}" for s, x in cells.items() if x == UNDECIDED])
    return DEPENDS_SKILL  # any other mixture (a strength undecided beside one that depends) is no verdict


def combine_readings(readings: dict[str, str]) -> str:
    """One claim's verdict from its readings' verdicts (``{reading id: verdict}``, each from
    :func:`combine`): "depends on the reading" only when fair readings reach opposite verdicts (one
    holds, another fails, at whatever strength); else depends on skill when a reading does; else the
    common verdict, with the readings left undecided named."""
    bases = {r: base(v) for r, v in readings.items()}
    vs = set(bases.values())
    if HOLDS in vs and FAILS in vs:
        return DEPENDS_READING
    if DEPENDS_SKILL in vs:
        return DEPENDS_SKILL
    if len(set(readings.values())) == 1:
        return next(iter(readings.values()))
    for v in (HOLDS, FAILS):
        if v in vs and vs <= {v, UNDECIDED}:
            where = []
            for r, full in readings.items():
                if bases[r] == UNDECIDED:
                    where.append(f"under reading `{r}`")
                elif full != v:  # "holds (undecided with X)": name the reading too
                    where += [
                        f"{x} under reading `{r}`" for x in full.split(" (undecided ", 1)[1][:-1].split("; ")
                    ]
            return qualified(v, where)
    if vs == {UNDECIDED}:
        return UNDECIDED
    return NOT_A_CLAIM if vs == {NOT_A_CLAIM} else UNDECIDED


def fmt(x: float) -> str:
    if not math.isfinite(x):
        return "—"
    if x == 0:
        return "0"
    a = abs(x)
    if a >= 100:
        return f"{x:,.0f}" if x == round(x) else f"{x:,.1f}"
    if a >= 10:
        return f"{x:.1f}"
    if a >= 1:
        return f"{x:.2f}"
    return f"{x:.3g}"


def fmt_figure(f: Figure, unit: str = "") -> str:
    u = f" {unit}" if unit else ""
    if f.exact:
        return f"{fmt(f.mean)}{u} (exact, n={f.n:,})"
    return f"{fmt(f.mean)}{u} [{fmt(f.low)}, {fmt(f.high)}], n={f.n:,}"


# The players in words, for every line outside "What was run" (which gives each one's whistsim name).
PLAIN = {
    "exact": "exact, by the rules alone",
    "random": "random players",
    "greedy": "simple players (win Tens cheaply, lead Aces and Kings)",
    "counter": "card-counting players",
    "heuristic": "players following the book's advice",
    "pimc2": "players who search sampled deals (300 play-outs a decision, drawing while the stock lasts)",
    "pimc": "players who search sampled deals (16 deals a decision)",
    "pimc:worlds=4": "players who search sampled deals (4 deals a decision)",
    "pimc:worlds=8": "players who search sampled deals (8 deals a decision)",
    "pimc:worlds=16": "players who search sampled deals (16 deals a decision)",
}


# the players in a few words, for verdicts and the chart's rows
SHORT = {"exact": "exact", "random": "random play", "greedy": "simple players", "counter": "card counters",
         "heuristic": "the book's advice", "pimc2": "search players", "pimc": "search players"}  # fmt: skip


def short_players(spec: str) -> str:
    """A player in a few words: "search players", "search players (4 deals a decision)"."""
    if spec.startswith("pimc:worlds="):
        return f"search players ({spec.split('=', 1)[1]} deals a decision)"
    return SHORT.get(spec, spec)


def plain(spec: str) -> str:
    """A player's whistsim spec in words (the spec itself when it has no words here)."""
    return PLAIN.get(spec, spec)


# ---- claims and readings ---------------------------------------------------------------------------


@dataclass
class Outcome:
    """One reading measured at one player strength."""

    figure: Figure
    verdict: str
    detail: str = ""  # the sampling and the parts of the decision, in words


@dataclass(frozen=True)
class Reading:
    id: str
    reading: str  # what the claim is taken to mean
    measure: str  # what is counted, with which players, under which rules
    decision: str  # the comparison and the decision rule, the multiple-comparison control included
    run: Callable[[ClaimRun, str], Outcome]  # (context, skill) -> outcome
    skills: tuple[str, ...] = ("greedy", "pimc")
    line: float | None = None  # the value the decision compares the figure with (drawn in the chart)
    unit: str = ""  # the figure's unit, in words ("points per game", "share of deals")


@dataclass(frozen=True)
class Claim:
    id: str
    game: str
    source: str  # as docs/sources.md names it
    where: str  # where in the source
    quote: str  # verbatim, hedges included
    short: str  # the claim in a few words, for the table
    readings: tuple[Reading, ...]
    translation: str = ""  # English, for a quotation in another language
    differ: str = ""  # what the verdict depends on when the readings disagree
    parts: bool = False  # the readings are parts of one piece of advice: all must hold
    needs: tuple[str, ...] = ()  # built-in players the measures use ("NAME", or "NAME.PARAM" for a parameter)
    dropped: tuple[tuple[str, str], ...] = ()  # (a reading considered, why it is not measured)


def with_lines(claims: list[Claim], lines: dict[str, float]) -> list[Claim]:
    """The claims with their first reading's decision line set (what the chart draws beside the figure)."""
    out = []
    for c in claims:
        if c.id in lines:
            first = replace(c.readings[0], line=lines[c.id])
            c = replace(c, readings=(first, *c.readings[1:]))
        out.append(c)
    return out


def with_units(claims: list[Claim], units: dict[tuple[str, str], str]) -> list[Claim]:
    """The claims with the units of the readings named by (claim id, reading id) set."""
    out = []
    for c in claims:
        rs = tuple(replace(r, unit=units[(c.id, r.id)]) if (c.id, r.id) in units else r for r in c.readings)
        out.append(replace(c, readings=rs))
    return out


@dataclass
class ReadingResult:
    reading: Reading
    outcomes: dict[str, Outcome]

    @property
    def verdict(self) -> str:
        return combine({s: o.verdict for s, o in self.outcomes.items()})

    @property
    def primary(self) -> Outcome:
        return next(iter(self.outcomes.values()))

    def deciding(self, want: str) -> tuple[str, Outcome]:
        """(strength, outcome) of the cell that gives verdict ``want``, the strongest player first (the
        last strength); the strongest cell when none does."""
        cells = list(self.outcomes.items())[::-1]
        return next(((s, o) for s, o in cells if o.verdict == want), cells[0])

    def json(self) -> dict[str, Any]:
        r, p = self.reading, self.primary
        return {
            "id": r.id,
            "reading": r.reading,
            "measure": r.measure,
            "decision": r.decision,
            "unit": r.unit,
            **p.figure.json(),
            "verdict": self.verdict,
            "skill": {s: o.verdict for s, o in self.outcomes.items()},
            "figures": {s: {**o.figure.json(), "detail": o.detail} for s, o in self.outcomes.items()},
        }


@dataclass(frozen=True)
class Deciding:
    """The figure that decides a claim's verdict: its reading, the player strength it was measured at,
    the figure with its unit, and that cell's own verdict."""

    reading: Reading
    skill: str
    outcome: Outcome

    @property
    def figure(self) -> Figure:
        return self.outcome.figure

    def text(self) -> str:
        r = self.reading
        return f"{fmt_figure(self.figure, r.unit)}; {plain(self.skill)}; reading `{r.id}`"


@dataclass
class ClaimResult:
    claim: Claim
    readings: list[ReadingResult]
    note: str = ""

    @property
    def verdict(self) -> str:
        if not self.readings:
            return NOT_CHECKED
        if self.claim.parts:
            # the whole advice at each strength (every part must hold), then across strengths
            skills = list(self.readings[0].outcomes)
            if all(list(r.outcomes) == skills for r in self.readings):
                return combine({s: all_of([r.outcomes[s].verdict for r in self.readings]) for s in skills})
            return all_of([base(r.verdict) for r in self.readings])
        return combine_readings({r.reading.id: r.verdict for r in self.readings})

    @property
    def deciding(self) -> Deciding | None:
        """The cell that decides the verdict: for a verdict that fails (or depends on skill or on the
        reading), the failing cell; for one that holds, a holding cell; the strongest player first, the
        readings in order."""
        if not self.readings:
            return None
        v = base(self.verdict)
        want = FAILS if v in (FAILS, DEPENDS_SKILL, DEPENDS_READING) else v
        for rr in self.readings:
            s, o = rr.deciding(want)
            if o.verdict == want:
                return Deciding(rr.reading, s, o)
        s, o = self.readings[0].deciding(want)
        return Deciding(self.readings[0].reading, s, o)

    @property
    def holding(self) -> Deciding | None:
        """Beside a failing cell of a claim that depends on skill or on the reading: a holding one."""
        for rr in self.readings:
            s, o = rr.deciding(HOLDS)
            if o.verdict == HOLDS:
                return Deciding(rr.reading, s, o)
        return None

    @property
    def figure(self) -> Figure | None:
        """The deciding figure (:attr:`deciding`)."""
        d = self.deciding
        return d.figure if d is not None else None

    def json(self) -> dict[str, Any]:
        c = self.claim
        out = {
            "id": c.id,
            "game": c.game,
            "source": c.source,
            "where": c.where,
            "quote": c.quote,
            "claim": c.short,
            "verdict": self.verdict,
            "readings": [r.json() for r in self.readings],
        }
        d = self.deciding
        if d is not None:
            out["deciding"] = {"reading": d.reading.id, "skill": d.skill, "strength": plain(d.skill),
                               "unit": d.reading.unit, "verdict": d.outcome.verdict, **d.figure.json()}  # fmt: skip
        if c.translation:
            out["translation"] = c.translation
        if self.verdict == DEPENDS_READING and c.differ:
            out["depends"] = c.differ
        if self.note:
            out["note"] = self.note
        return out


# ---- running ---------------------------------------------------------------------------------------


@dataclass
class ClaimRun:
    """What the measures may run: games per cell (``n``; ``n_search`` for the search players of Welsh
    Whist and Whist, which are far slower; Scotch Whist's measures play n/2 deals with theirs), the seed,
    threads, and the simulations already played (measures share them)."""

    n: int
    seed: int
    workers: int | None = None
    n_search: int | None = None
    done: dict[Any, Any] = field(default_factory=dict)
    scale: float = 1.0  # a timed start's share of the run: the caps on followed records shrink with it

    def games(self, skill: str) -> int:
        if skill.startswith("pimc"):
            return self.n_search if self.n_search is not None else max(200, self.n // 10)
        return self.n

    def followed(self, n: int, cap: int) -> int:
        """Games whose records a measure follows in Python: ``n``, at most ``cap`` (a few thousand
        suffice); scaled with the run in a timed start, so that its time scales with the run's."""
        return min(n, max(2, round(cap * self.scale)))

    def simulate(self, game: str, n: int, *, records: int = 0, **kw):
        """``whistsim.simulate`` with every game's columns kept, memoised; the seed is the run's."""
        from ..api import simulate

        key = (game, n, records, repr(sorted(kw.items())))
        if key not in self.done:
            kw.setdefault("first", "rotate" if game == "welsh" else 0)
            sim = simulate(game, n, self.seed, threads=self.workers, records=records, keep_games=True, **kw)
            if sim.interrupted:  # Ctrl-C: a claim is not judged on part of its games
                raise KeyboardInterrupt
            self.done[key] = sim
        return self.done[key]


def registry(games: list[str] | None = None) -> list[Claim]:
    """Every claim of the games asked for (default: every game whistsim plays)."""
    out: list[Claim] = []
    for g in games or game_names():
        try:
            mod = importlib.import_module(f"{__name__}.{g}")
        except ModuleNotFoundError as e:
            if e.name == f"{__name__}.{g}":
                continue
            raise
        out += list(mod.CLAIMS)
    return out


def not_measured(games: list[str] | None = None) -> list[tuple[str, str, str, str, str]]:
    """Assertions of the sources about play or balance that are not measured: (source, where, quotation,
    translation, why), from each game's ``NOT_MEASURED``."""
    return _gathered("NOT_MEASURED", games)


def _gathered(name: str, games: list[str] | None) -> list:
    """Each game's claims module's list ``name`` (a game with no claims module gives none), joined."""
    out = []
    for g in games or game_names():
        try:
            mod = importlib.import_module(f"{__name__}.{g}")
        except ModuleNotFoundError:
            continue
        out += list(getattr(mod, name, []))
    return out


def lacking(game: str, needs: tuple[str, ...]) -> list[str]:
    """What of ``needs`` (players "NAME", parameters "NAME.PARAM") the game's players lack, in words."""
    from ..strategy import params_of

    reg = get_game(game).players
    out = []
    for need in needs:
        name, _, param = need.partition(".")
        found = reg.by_name(name)
        if found is None:
            out.append(f"the {name} player")
        elif param and param not in params_of(found[1]):
            out.append(f"the {name} player's `{param}` parameter")
    return out


def check_claim(c: Claim, ctx: ClaimRun) -> ClaimResult:
    get_game(c.game)  # the game before its players: they import its engine
    missing = lacking(c.game, c.needs)
    if missing:
        return ClaimResult(
            c, [], f"Not measured: it needs {' and '.join(missing)}, which this whistsim lacks."
        )
    results = []
    for r in c.readings:
        results.append(ReadingResult(r, {s: r.run(ctx, s) for s in r.skills}))
    return ClaimResult(c, results)


def check_claims(
    claims: list[Claim] | None = None,
    *,
    n: int = 20_000,
    seed: int = 2026,
    n_search: int | None = None,
    workers: int | None = None,
    on_result: Callable[[ClaimResult], None] | None = None,
) -> list[ClaimResult]:
    """Measure every reading of every claim and judge it."""
    for name, v, least in (("--n", n, 2), ("--n-search", n_search, 2)):
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < least):
            raise WhistsimError(f"{name} {v!r}: expected at least {least} games")
    ctx = ClaimRun(n, seed, workers, n_search)
    out = []
    for c in claims if claims is not None else registry():
        r = check_claim(c, ctx)
        out.append(r)
        if on_result is not None:
            on_result(r)
    return out


# the timed start: the whole check at two small shares of its games, after a warm-up at the first
PROBE_SHARES = (1 / 256, 1 / 32)


@dataclass(frozen=True)
class RunEstimate:
    """The expected seconds of a claims check, per claim (in the order run) and in all."""

    seconds: dict[str, float]
    probe_s: float  # what the timed start took

    @property
    def total(self) -> float:
        return sum(self.seconds.values())

    @property
    def shares(self) -> str:
        return " and ".join(f"1/{round(1 / f)}" for f in PROBE_SHARES)


def estimate_run(
    claims: list[Claim], *, n: int, seed: int, n_search: int | None = None, workers: int | None = None
) -> RunEstimate:
    """How long :func:`check_claims` will take: the same claims run at two small shares ``f`` of their
    games (after a warm-up that loads the kernels), each claim's time fitted as ``a + b f`` (what does
    not grow with the games, and what does) and read at ``f = 1``. Nothing of the probe is kept."""
    import time

    ns = n_search if n_search is not None else max(200, n // 10)

    def timed(f: float) -> dict[str, float]:
        ctx = ClaimRun(max(2, round(n * f)), seed, workers, max(2, round(ns * f)), scale=f)
        out = {}
        for c in claims:
            t = time.perf_counter()
            check_claim(c, ctx)
            out[c.id] = time.perf_counter() - t
        return out

    t0 = time.perf_counter()
    f1, f2 = PROBE_SHARES
    warm = timed(f1)  # kernels compiled or loaded; then the least of two runs, the least disturbed
    t1 = {k: min(v, warm[k]) for k, v in timed(f1).items()}
    t2 = timed(f2)
    seconds = {}
    for c in claims:
        b = max(0.0, (t2[c.id] - t1[c.id]) / (f2 - f1))
        seconds[c.id] = max(t2[c.id] - b * f2, 0.0) + b  # a + b at f = 1
    return RunEstimate(seconds, time.perf_counter() - t0)


# ---- output ------------------------------------------------------------------------------------------

HEADER = f"{'id':<22} {'source':<17} {'claim':<44} {'verdict':<26} deciding figure [95% CI], n (players)"


def _cut(s: str, w: int) -> str:
    return s if len(s) <= w else s[: w - 1] + "…"


def deciding_text(r: ClaimResult) -> str:
    """The row's figure: the deciding cell, with its unit and players; beside a failing cell of a claim
    that depends on skill or the reading, a holding one."""
    d = r.deciding
    if d is None:
        return r.note
    if r.verdict in (DEPENDS_SKILL, DEPENDS_READING) and (h := r.holding) is not None:
        return f"does not hold: {d.text()}; holds: {h.text()}"
    return d.text()


def format_row(r: ClaimResult) -> str:
    """One line per claim: id, source, the claim in short, the verdict, the deciding figure."""
    c = r.claim
    return f"{c.id:<22} {_cut(c.source, 17):<17} {_cut(c.short, 44):<44} {r.verdict:<26} {deciding_text(r)}"


def format_rows(results: list[ClaimResult]) -> str:
    return "\n".join([HEADER] + [format_row(r) for r in results])


def _md(s: str) -> str:
    return s.replace("|", "\\|").replace("\n", " ")


DEFINITION = (
    "Each claim is quoted and read before anything runs; each reading states what is counted and the rule "
    "that decides it, and is measured with two player strengths: simple rule-based players, and the "
    "strongest player the game has at its default settings (players who search sampled deals). At one "
    "strength a reading *holds* or *does not hold* only when its 95% confidence interval (widened, or its "
    "p-values adjusted, where the verdict rests on several comparisons) settles it; otherwise it is "
    "*undecided at this n*. The two strengths combine so: both hold: **holds**; one holds and the other is "
    "undecided: **holds (undecided with X)**, X the players left undecided; the same for **does not "
    "hold**; one holds and the other does not: **depends on skill**. Readings combine the same way: "
    "**depends on the reading** only when fair readings reach opposite verdicts (one holds, another does "
    "not); a reading left undecided beside readings that hold gives **holds (undecided under reading "
    "R)**. Advice in several parts holds only when every part holds, at each strength. A text that asserts "
    "nothing to test (it offers another way to score) is **not a claim of fact**: what it offers is "
    "described with its figures, and no threshold is invented for it. The table shows the figure that "
    "decides each verdict (for a verdict that does not hold, the failing part; for one that depends on "
    "skill or on the reading, the failing figure and a holding one), with its unit, its n and the players "
    "it was measured with."
)


def source_errors(games: list[str] | None = None) -> list[tuple[str, str, str, str]]:
    """Statements of the sources that contradict their own rules: (source, where, quotation, why), from
    each game's ``SOURCE_ERRORS``."""
    return _gathered("SOURCE_ERRORS", games)


def players_used(results: list[ClaimResult]) -> list[str]:
    seen: dict[str, None] = {}
    for r in results:
        for rr in r.readings:
            for s in rr.outcomes:
                seen[s] = None
    return list(seen)


def to_markdown(results: list[ClaimResult], *, n: int, seed: int, n_search: int, chart: str | None) -> str:
    lines = ["# The claims check", ""]
    if chart:
        lines += [f"![Every claim's deciding figure with its 95% CI, coloured by verdict]({chart})", ""]
    lines += [
        "How to read this report (confidence intervals, n, adjusted comparisons): "
        "[docs/reports.md](../docs/reports.md#how-to-read-this).",
        "",
        f"Every claim of the sources ([docs/sources.md](../docs/sources.md)) about play and balance, quoted "
        f"with its hedges, read, and measured: {n:,} games (or deals) per cell with the rule-based players, "
        f"{n_search:,} games per cell with players who search sampled deals in Welsh Whist and Whist, "
        f"{n // 2:,} Scotch Whist deals per cell with them (they are quick at single deals), and at most "
        "4,000-5,000 where a measure follows every trick of its games. Comparisons of two ways of playing "
        "are made on the same deals. What was run, player by player, is at the end.",
        "",
        "## How verdicts are reached",
        "",
        DEFINITION,
        "",
        "| id | source | claim | verdict | deciding figure [95% CI], n (players; reading) |",
        "|---|---|---|---|---|",
    ]
    for r in results:
        cells = [f"`{r.claim.id}`", r.claim.source, r.claim.short, f"**{r.verdict}**", deciding_text(r)]
        lines.append("| " + " | ".join(_md(c) for c in cells) + " |")
    games = sorted({r.claim.game for r in results})
    errors = source_errors(games)
    if errors:
        lines += ["", "## Errors in the sources", "",
                  "Statements in the texts that contradict their own rules; whistsim plays the rules and records "
                  "the statement as the source's error ([docs/sources.md](../docs/sources.md#errors-in-the-texts)):",
                  ""]  # fmt: skip
        for source, where, quote, why in errors:
            lines.append(f'- {source}, {where}: "{quote}" {why}')
    for r in results:
        c = r.claim
        lines += ["", f"## `{c.id}`: {c.short}", "", f"{c.source}, {c.where}:", ""]
        lines += ["> " + q for q in c.quote.splitlines()]
        if c.translation:
            lines += ["", "In English: " + c.translation]
        lines += ["", f"**Verdict: {r.verdict}.**" + (f" {c.differ}" if r.verdict == DEPENDS_READING else "")]
        if r.note:
            lines += ["", r.note]
        for rr in r.readings:
            rd = rr.reading
            unit = f" Unit: {rd.unit}." if rd.unit else ""
            lines += ["", f"- *Reading `{rd.id}`*: {rd.reading} Measure: {rd.measure}{unit} Decision: "
                          f"{rd.decision} Verdict: **{rr.verdict}**."]  # fmt: skip
            for s, o in rr.outcomes.items():
                lines.append(
                    f"  - {plain(s)}: {fmt_figure(o.figure, rd.unit)}: {o.verdict}. {o.detail}".rstrip()
                )
        for reading, why in c.dropped:
            lines += ["", f"- *Reading not measured*: {reading} {why}"]
    skipped = not_measured(games)
    if skipped:
        lines += ["", "## Assertions not measured", "",
                  "Other assertions of the sources about play or balance, and why they are not claims here:", ""]  # fmt: skip
        for source, where, quote, translation, why in skipped:
            en = f" ({translation})" if translation else ""
            lines.append(f'- {source}, {where}: "{quote}"{en} {why}')
    lines += [
        "",
        "## What was run",
        "",
        f"`whistsim claims --n {n} --n-search {n_search} --seed {seed}` (`--markdown results/claims.md "
        "--json-out results/claims.json`; every figure of every reading, at every strength, is in "
        "results/claims.json). The players, as whistsim names them:",
        "",
    ]
    for s in players_used(results):
        if s != "exact":
            lines.append(f"- {plain(s)}: `{s}`")
    lines += [
        "",
        "Shares have Wilson 95% intervals; means have t intervals; comparisons are paired on the same deals "
        "(the same seed and game numbers). A verdict resting on a family of tests uses Holm's correction "
        "over the family; the best of a family of settings is shown with its interval widened by Bonferroni "
        "for the family's size. Player strengths: the rule-based player first, then the game's strongest "
        "player at its default settings (Welsh Whist `pimc2`, Scotch Whist and Whist `pimc`); "
        f"`--n-search {n_search}` games per cell for them in Welsh Whist and Whist, n/2 Scotch Whist deals.",
        "",
    ]
    return "\n".join(lines)


COLOURS = {HOLDS: "#2a9d55", FAILS: "#d1495b", UNDECIDED: "#999999", DEPENDS_SKILL: "#e9a23b",
           DEPENDS_READING: "#3b6fb6", NOT_CHECKED: "#dddddd", NOT_A_CLAIM: "#8c6bb1"}  # fmt: skip
ORDER = [HOLDS, FAILS, DEPENDS_READING, DEPENDS_SKILL, UNDECIDED, NOT_A_CLAIM, NOT_CHECKED]
# how a count of claims reads with each verdict: (one, several)
COUNTED = {HOLDS: ("holds", "hold"), FAILS: ("does not hold", "do not hold"),
           DEPENDS_READING: ("depends on the reading", "depend on the reading"),
           DEPENDS_SKILL: ("depends on skill", "depend on skill"),
           UNDECIDED: ("is undecided at this n", "are undecided at this n"),
           NOT_A_CLAIM: ("is not a claim of fact", "are not claims of fact"),
           NOT_CHECKED: ("is not checked", "are not checked")}  # fmt: skip


def counted(counts: dict[str, int]) -> str:
    """ "10 hold, 1 does not hold, ...": each verdict's count with the verb agreeing."""
    return ", ".join(f"{counts[v]} {COUNTED[v][counts[v] != 1]}" for v in ORDER if counts.get(v))


def chart(results: list[ClaimResult], path: str) -> None:
    """One row per claim: its deciding figure with its 95% CI, coloured by verdict (each row on its own
    scale: the figures are in different units); its data beside it as JSON (NAME-chart.json)."""
    draw_chart([r.json() for r in results], path)


def chart_from_json(claims_json: str, path: str) -> None:
    """The chart again from a ``--json-out`` file."""
    import json

    with open(claims_json, encoding="utf-8") as f:
        items = json.load(f)
    draw_chart(items, path)


def _row(item: dict[str, Any]) -> tuple[float, float, float, int] | None:
    d = item.get("deciding")
    if not d or d.get("mean") is None:
        return None
    m = float(d["mean"])
    lo, hi = d.get("ci") or [None, None]
    lo = m if lo is None else min(float(lo), m)
    hi = m if hi is None else max(float(hi), m)
    return m, lo, hi, int(d.get("n") or 0)


def _line(item: dict[str, Any]) -> float | None:
    """The value the deciding reading's decision compares its figure with (from the registry)."""
    d = item.get("deciding") or {}
    for c in registry():
        if c.id == item.get("id"):
            for r in c.readings:
                if r.id == d.get("reading"):
                    return r.line
    return None


def draw_chart(items: list[dict[str, Any]], path: str) -> None:
    import textwrap

    from matplotlib.figure import Figure  # not pyplot: a chart never changes the caller's backend
    from matplotlib.patches import Patch

    from ..experiments.charts import as_data, write_sidecar
    from ..experiments.results import Chart, ChartSeries
    from ..io import atomic_write

    rows = [(it, fig) for it in items if (fig := _row(it)) is not None]
    counts: dict[str, int] = {}
    for it in items:
        v = base(it["verdict"])
        counts[v] = counts.get(v, 0) + 1
    qualified_n = sum(1 for it in items if it["verdict"] != base(it["verdict"]))
    told = counted(counts) + (
        f" ({qualified_n} of these with one strength or reading undecided)" if qualified_n else ""
    )
    title = f"Of {len(items)} claims, {told}: each claim's deciding figure with its 95% CI"
    strengths = sorted({short_players(it["deciding"]["skill"]) for it, _ in rows})
    ns = [f[3] for _, f in rows]
    players = "; ".join(strengths) + " (each row's players at its right)"
    n_text = f"n={min(ns):,} to {max(ns):,} games or deals a row (each row's n at its right)" if ns else ""
    caption = (
        f"{players[:1].upper()}{players[1:]}; {n_text}. "
        "Each row is on its own scale, in the unit under its claim; at its right, the verdict, the n of its "
        f"figure and the players it was measured with ({', '.join(strengths)}). Dashed: the value its "
        "decision compares it with. A CI narrower than the dot, or an exact figure, shows no bar. "
        "results/claims.md gives every reading at both strengths."
    )
    fig = Figure(figsize=(11, 0.62 * len(rows) + 1.6))
    axes = fig.subplots(len(rows), 1, squeeze=False)
    for ax, (it, (m, lo, hi, n)) in zip(axes[:, 0], rows, strict=True):
        d = it["deciding"]
        col = COLOURS[base(it["verdict"])]
        ax.errorbar([m], [0], xerr=[[m - lo], [hi - m]], fmt="o", color=col, capsize=4)
        line = _line(it)
        pts = [lo, hi, m] + ([line] if line is not None else [])
        # an exact figure on its line has no range: a fixed one, so that the ticks stay readable
        span = max(max(pts) - min(pts), abs(m) * 0.05) * 0.15 or max(abs(m) * 0.01, 0.5)
        ax.set_xlim(min(pts) - span, max(pts) + span)
        if line is not None:
            ax.axvline(line, color="#555555", lw=0.9, ls="--", zorder=0)
        ax.set_yticks([])
        label = "\n".join(
            textwrap.wrap(it["claim"], 40) + textwrap.wrap(f"({d.get('unit') or 'no unit'})", 40)
        )
        ax.set_ylabel(label, rotation=0, ha="right", va="center", fontsize=7)
        ax.tick_params(axis="x", labelsize=7)
        told_row = "\n".join(textwrap.wrap(it["verdict"], 34) + [f"n={n:,}, {short_players(d['skill'])}"])
        ax.text(1.01, 0.5, told_row, transform=ax.transAxes, fontsize=6.5, color=col, va="center")
        for side in ("top", "right", "left"):
            ax.spines[side].set_visible(False)
    axes[-1, 0].set_xlabel("the claim's deciding figure, in the unit under its claim (each row on its own scale)",
                           fontsize=8)  # fmt: skip
    fig.suptitle("\n".join(textwrap.wrap(title, 100)), fontsize=9)
    handles = [Patch(color=COLOURS[v], label=v) for v in ORDER if counts.get(v)]
    fig.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 0.98), fontsize=7, frameon=False,
               title="verdict", title_fontsize=7)  # fmt: skip
    fig.text(0.01, 0.0, "\n".join(textwrap.wrap(caption, 140)), ha="left", va="top", fontsize=7, color="0.25")
    fig.tight_layout(rect=(0.0, 0.0, 0.84, 1.0))
    with atomic_write(path, "wb") as fh:
        fig.savefig(fh, format="png", dpi=110, bbox_inches="tight", pad_inches=0.15)
    series = []
    for v in ORDER:
        mine = [(it, f) for it, f in rows if base(it["verdict"]) == v]
        if mine:
            series.append(ChartSeries(v, [f"{it['claim']} ({it['deciding'].get('unit') or 'no unit'}; n={f[3]:,}, "
                                          f"{short_players(it['deciding']['skill'])})" for it, f in mine],
                                      [f[0] for _, f in mine], [f[1] for _, f in mine], [f[2] for _, f in mine]))  # fmt: skip
    write_sidecar(
        as_data(
            Chart(
                "claims",
                title,
                "the claim (its unit; n, players)",
                "the claim's deciding figure, in its own unit",
                series,
                kind="rows",
                categorical=True,
                caption=caption,
                n=n_text,
                players=players,
            )
        ),
        path,
        Path(path).with_name(Path(path).stem + "-chart.json"),
    )  # NAME.json: the claims themselves


__all__ = [
    "HOLDS", "FAILS", "UNDECIDED", "DEPENDS_SKILL", "DEPENDS_READING", "NOT_CHECKED", "Figure", "Outcome",
    "Reading", "Claim", "ReadingResult", "ClaimResult", "ClaimRun", "RunEstimate", "registry", "check_claim", "check_claims", "estimate_run",
    "format_row", "format_rows", "to_markdown", "chart", "chart_from_json", "draw_chart", "holm", "above", "below", "within", "family", "all_of",
    "NOT_A_CLAIM", "combine", "combine_readings", "base", "plain", "Deciding", "lacking", "source_errors", "counted",
]  # fmt: skip
