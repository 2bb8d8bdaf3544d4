"""The claim model: verdicts, figures and their decisions, claims and readings, and their results.

A :class:`Claim` holds, before anything runs, the quotation (verbatim, with its
source and its place in it) and one or more :class:`Reading`: what the words
are taken to mean, the measure and the decision rule. Each reading is measured
at two or more player strengths and the verdicts combine as :func:`combine`
and :func:`combine_readings` say (docs/sources.md, whistsim.claims).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from statistics import NormalDist
from typing import Any

import numpy as np

from ..core.stats import Z95, estimate, holm, proportion

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
    run: Callable[[Any, str], Outcome]  # (the run's context, a ClaimRun of claims.run; skill) -> outcome
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
            if d.reading.line is not None:  # drawn beside the figure in the chart
                out["deciding"]["line"] = d.reading.line
        if c.translation:
            out["translation"] = c.translation
        if self.verdict == DEPENDS_READING and c.differ:
            out["depends"] = c.differ
        if self.note:
            out["note"] = self.note
        return out
