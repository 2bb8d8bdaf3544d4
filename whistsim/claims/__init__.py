"""The claims check: every claim of the sources (docs/sources.md), quoted, read and measured.

A :class:`Claim` holds, before anything runs, the quotation (verbatim, with its
source and its place in it; for Akagiri 1995 the Japanese and an English
translation) and one or more :class:`Reading`: what the words are taken to
mean, the measure (what is counted, with which players, under which rules)
and the decision rule. Where the words allow more than one fair reading, at
least two are measured; when their verdicts differ the claim's verdict is
"depends on the reading", with the claim's sentence saying on what.

Each reading is measured at two or more player strengths (``skills``); its
verdict is the common verdict of every strength, or "depends on skill". Every
figure carries its n and 95% CI (shares: Wilson); comparisons of variants are
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
VERDICTS = (HOLDS, FAILS, UNDECIDED, DEPENDS_SKILL, DEPENDS_READING, NOT_CHECKED)


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


def fmt_figure(f: Figure) -> str:
    if f.exact:
        return f"{fmt(f.mean)} (exact, n={f.n:,})"
    return f"{fmt(f.mean)} [{fmt(f.low)}, {fmt(f.high)}], n={f.n:,}"


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
    needs: tuple[str, ...] = ()  # built-in players the measures use


def with_lines(claims: list[Claim], lines: dict[str, float]) -> list[Claim]:
    """The claims with their first reading's decision line set (what the chart draws beside the figure)."""
    out = []
    for c in claims:
        if c.id in lines:
            first = replace(c.readings[0], line=lines[c.id])
            c = replace(c, readings=(first, *c.readings[1:]))
        out.append(c)
    return out


@dataclass
class ReadingResult:
    reading: Reading
    outcomes: dict[str, Outcome]

    @property
    def verdict(self) -> str:
        vs = {o.verdict for o in self.outcomes.values()}
        return vs.pop() if len(vs) == 1 else DEPENDS_SKILL

    @property
    def primary(self) -> Outcome:
        return next(iter(self.outcomes.values()))

    def json(self) -> dict[str, Any]:
        r, p = self.reading, self.primary
        return {
            "id": r.id,
            "reading": r.reading,
            "measure": r.measure,
            "decision": r.decision,
            **p.figure.json(),
            "verdict": self.verdict,
            "skill": {s: o.verdict for s, o in self.outcomes.items()},
            "figures": {s: {**o.figure.json(), "detail": o.detail} for s, o in self.outcomes.items()},
        }


@dataclass
class ClaimResult:
    claim: Claim
    readings: list[ReadingResult]
    note: str = ""

    @property
    def verdict(self) -> str:
        if not self.readings:
            return NOT_CHECKED
        vs = [r.verdict for r in self.readings]
        if self.claim.parts:
            # the whole advice at each strength (every part must hold), then across strengths
            skills = list(self.readings[0].outcomes)
            if all(list(r.outcomes) == skills for r in self.readings):
                per = {all_of([r.outcomes[s].verdict for r in self.readings]) for s in skills}
                return per.pop() if len(per) == 1 else DEPENDS_SKILL
            return all_of(vs)
        if len(set(vs)) == 1:
            return vs[0]
        return DEPENDS_READING

    @property
    def figure(self) -> Figure | None:
        """The deciding figure: the first reading's, at the first player strength."""
        return self.readings[0].primary.figure if self.readings else None

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
    """What the measures may run: games per cell (``n``; ``n_search`` for the search players, which are
    slower), the seed, threads, and the simulations already played (measures share them)."""

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
    out = []
    for g in games or game_names():
        try:
            mod = importlib.import_module(f"{__name__}.{g}")
        except ModuleNotFoundError:
            continue
        out += list(getattr(mod, "NOT_MEASURED", []))
    return out


def check_claim(c: Claim, ctx: ClaimRun) -> ClaimResult:
    get_game(c.game)  # the game before its players: they import its engine
    missing = [s for s in c.needs if s not in get_game(c.game).players.names()]
    if missing:
        return ClaimResult(c, [], f"needs the {', '.join(missing)} player(s), which this whistsim lacks")
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

HEADER = f"{'id':<22} {'source':<17} {'claim':<48} {'verdict':<22} deciding figure [95% CI], n"


def _cut(s: str, w: int) -> str:
    return s if len(s) <= w else s[: w - 1] + "…"


def format_row(r: ClaimResult) -> str:
    """One line per claim: id, source, the claim in short, the verdict, the deciding figure."""
    f = r.figure
    fig = fmt_figure(f) if f is not None else r.note
    c = r.claim
    return f"{c.id:<22} {_cut(c.source, 17):<17} {_cut(c.short, 48):<48} {r.verdict:<22} {fig}"


def format_rows(results: list[ClaimResult]) -> str:
    return "\n".join([HEADER] + [format_row(r) for r in results])


def _md(s: str) -> str:
    return s.replace("|", "\\|").replace("\n", " ")


def to_markdown(results: list[ClaimResult], *, n: int, seed: int, n_search: int, chart: str | None) -> str:
    lines = ["# The claims check", ""]
    if chart:
        lines += [f"![Every claim's deciding figure with its 95% CI, coloured by verdict]({chart})", ""]
    lines += [
        f"Every claim of the sources ([docs/sources.md](../docs/sources.md)), quoted, read and measured by "
        f"`whistsim claims --n {n} --n-search {n_search} --seed {seed}`. Each reading was measured with two "
        f"player strengths; every figure states its n, games (or deals) per cell: {n:,} with the rule-based "
        f"players, {n_search:,} with the Welsh Whist and Whist search player (pimc), {n // 2:,} Scotch Whist "
        "deals with pimc (quick at single deals), and at most 4,000-5,000 where a measure follows records "
        "trick by trick. Every figure is a mean or share with its 95% CI (shares: Wilson); "
        "comparisons are paired on the same deals; verdicts resting on a family of tests use Holm's "
        "correction, or Bonferroni where the best of a family is shown (its interval widened to match). A "
        "verdict *holds* or *does not hold* only when the interval (after correction) "
        "settles it; *depends on skill* when the strengths disagree; *depends on the reading* when fair "
        "readings disagree.",
        "",
        "| id | source | claim | verdict | deciding figure [95% CI], n |",
        "|---|---|---|---|---|",
    ]
    for r in results:
        f = r.figure
        cells = [f"`{r.claim.id}`", r.claim.source, r.claim.short, f"**{r.verdict}**",
                 fmt_figure(f) if f is not None else r.note]  # fmt: skip
        lines.append("| " + " | ".join(_md(c) for c in cells) + " |")
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
            lines += ["", f"- *Reading `{rd.id}`*: {rd.reading} Measure: {rd.measure} Decision: {rd.decision} "
                          f"Verdict: **{rr.verdict}**."]  # fmt: skip
            for s, o in rr.outcomes.items():
                lines.append(f"  - {s}: {fmt_figure(o.figure)}: {o.verdict}. {o.detail}".rstrip())
    games = sorted({r.claim.game for r in results})
    skipped = not_measured(games)
    if skipped:
        lines += ["", "## Assertions not measured", "",
                  "Other assertions of the sources about play or balance, and why they are not claims here:", ""]  # fmt: skip
        for source, where, quote, translation, why in skipped:
            en = f" ({translation})" if translation else ""
            lines.append(f'- {source}, {where}: "{quote}"{en} {why}')
    lines.append("")
    return "\n".join(lines)


COLOURS = {HOLDS: "#2a9d55", FAILS: "#d1495b", UNDECIDED: "#999999", DEPENDS_SKILL: "#e9a23b",
           DEPENDS_READING: "#3b6fb6", NOT_CHECKED: "#dddddd"}  # fmt: skip


def chart(results: list[ClaimResult], path: str) -> None:
    """One row per claim: its deciding figure with its 95% CI, coloured by verdict (each row on its own
    scale: the figures are in different units); its data beside it as JSON (NAME.json)."""
    lines = {r.claim.id: r.readings[0].reading.line for r in results if r.readings}
    draw_chart([r.json() for r in results], lines, path)


def chart_from_json(claims_json: str, path: str) -> None:
    """The chart again from a ``--json-out`` file (the decision lines from the registry)."""
    import json

    with open(claims_json, encoding="utf-8") as f:
        items = json.load(f)
    lines = {c.id: c.readings[0].line for c in registry() if c.readings}
    draw_chart(items, lines, path)


def _row(item: dict[str, Any]) -> tuple[float, float, float, int] | None:
    if not item.get("readings"):
        return None
    r = item["readings"][0]
    if r.get("mean") is None:
        return None
    m = float(r["mean"])
    lo, hi = r.get("ci") or [None, None]
    lo = m if lo is None else min(float(lo), m)
    hi = m if hi is None else max(float(hi), m)
    return m, lo, hi, int(r.get("n") or 0)


def draw_chart(items: list[dict[str, Any]], lines: dict[str, float | None], path: str) -> None:
    import textwrap

    from matplotlib.figure import Figure  # not pyplot: a chart never changes the caller's backend
    from matplotlib.patches import Patch

    from ..experiments.charts import as_data, write_sidecar
    from ..experiments.results import Chart, ChartSeries
    from ..io import atomic_write

    rows = [(it, fig) for it in items if (fig := _row(it)) is not None]
    counts: dict[str, int] = {}
    for it, _ in rows:
        counts[it["verdict"]] = counts.get(it["verdict"], 0) + 1
    order = [HOLDS, FAILS, DEPENDS_READING, DEPENDS_SKILL, UNDECIDED, NOT_CHECKED]
    told = ", ".join(f"{counts[v]} {v}" for v in order if counts.get(v))
    title = f"Of {len(rows)} claims measured, {told}: each claim's deciding figure with its 95% CI"
    caption = (
        "Each row is on its own scale (the figures are in different units: results/claims.md gives each, with "
        "its n); dashed: the value its decision compares it with. A CI narrower than the dot, or an exact "
        "figure, shows no bar."
    )
    fig = Figure(figsize=(10, 0.55 * len(rows) + 1.4))
    axes = fig.subplots(len(rows), 1, squeeze=False)
    for ax, (it, (m, lo, hi, _n)) in zip(axes[:, 0], rows, strict=True):
        col = COLOURS[it["verdict"]]
        ax.errorbar([m], [0], xerr=[[m - lo], [hi - m]], fmt="o", color=col, capsize=4)
        line = lines.get(it["id"])
        pts = [lo, hi, m] + ([line] if line is not None else [])
        span = max(max(pts) - min(pts), abs(m) * 0.05, 1e-3) * 0.15
        ax.set_xlim(min(pts) - span, max(pts) + span)
        if line is not None:
            ax.axvline(line, color="#555555", lw=0.9, ls="--", zorder=0)
        ax.set_yticks([])
        ax.set_ylabel(
            "\n".join(textwrap.wrap(it["claim"], 38)), rotation=0, ha="right", va="center", fontsize=7
        )
        ax.tick_params(axis="x", labelsize=7)
        ax.text(1.01, 0.5, it["verdict"], transform=ax.transAxes, fontsize=7, color=col, va="center")
        for side in ("top", "right", "left"):
            ax.spines[side].set_visible(False)
    axes[-1, 0].set_xlabel(
        "the claim's deciding figure, in its own unit (each row on its own scale)", fontsize=8
    )
    fig.suptitle("\n".join(textwrap.wrap(title, 90)), fontsize=9)
    handles = [Patch(color=COLOURS[v], label=v) for v in order if counts.get(v)]
    fig.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 0.98), fontsize=7, frameon=False,
               title="verdict", title_fontsize=7)  # fmt: skip
    fig.text(0.01, 0.0, "\n".join(textwrap.wrap(caption, 130)), ha="left", va="top", fontsize=7, color="0.25")
    fig.tight_layout(rect=(0.0, 0.0, 0.88, 1.0))
    with atomic_write(path, "wb") as fh:
        fig.savefig(fh, format="png", dpi=110, bbox_inches="tight", pad_inches=0.15)
    series = []
    for v in order:
        mine = [(it, f) for it, f in rows if it["verdict"] == v]
        if mine:
            series.append(ChartSeries(v, [it["claim"] for it, _ in mine], [f[0] for _, f in mine],
                                      [f[1] for _, f in mine], [f[2] for _, f in mine]))  # fmt: skip
    write_sidecar(
        as_data(
            Chart(
                "claims",
                title,
                "the claim",
                "the claim's deciding figure, in its own unit",
                series,
                kind="rows",
                categorical=True,
                caption=caption,
            )
        ),
        path,
        Path(path).with_name(Path(path).stem + "-chart.json"),
    )  # NAME.json: the claims themselves


__all__ = [
    "HOLDS", "FAILS", "UNDECIDED", "DEPENDS_SKILL", "DEPENDS_READING", "NOT_CHECKED", "Figure", "Outcome",
    "Reading", "Claim", "ReadingResult", "ClaimResult", "ClaimRun", "RunEstimate", "registry", "check_claim", "check_claims", "estimate_run",
    "format_row", "format_rows", "to_markdown", "chart", "chart_from_json", "draw_chart", "holm", "above", "below", "within", "family", "all_of",
]  # fmt: skip
