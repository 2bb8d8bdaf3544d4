"""The claims check: every claim of the sources (docs/sources.md), measured by simulation, with a verdict.

Claims live in one module per game (``whistsim.claims.welsh``, ...), each
exporting ``CLAIMS``: a list of :class:`Claim`. A claim runs one small
experiment (:class:`ClaimRun` builds and runs it) and returns a
:class:`ClaimResult`: the measured figure with its 95% CI and n, and a
verdict: holds, does not hold, or undecided at this n.

Add a game's claims: write ``whistsim/claims/<game>.py`` with ``CLAIMS``; the
registry finds it for every game in :func:`whistsim.games.game_names`.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..experiments import run_experiment, spec_from_dict
from ..experiments.report import ExperimentResult, fmt_num
from ..games import game_names, get_game
from ..options import WhistsimError
from ..stats import Estimate
from ..strategies import available

NOT_CHECKED = "not checked"


@dataclass
class ClaimRun:
    """What a claim may run: games per cell, the seed, threads, progress."""

    n: int
    seed: int
    workers: int | None = None
    progress: bool = False
    done: dict[str, ExperimentResult] = field(default_factory=dict)  # claims that share a run

    def run(self, name: str, spec: dict[str, Any]) -> ExperimentResult:
        if name not in self.done:
            s = spec_from_dict({"n": self.n, "seed": self.seed, **spec}, name=name)
            self.done[name] = run_experiment(s, workers=self.workers, progress=self.progress, write=False)
        return self.done[name]


@dataclass(frozen=True)
class Claim:
    id: str
    game: str
    text: str  # the claim, as its source says it
    source: str  # the source, as docs/sources.md names it
    check: Callable[[ClaimRun], ClaimResult]
    needs: tuple[str, ...] = ()  # built-in strategies the check plays


@dataclass
class ClaimResult:
    claim: Claim
    figure: str  # what was measured, in words
    estimate: Estimate
    verdict: str
    note: str = ""
    extra: dict = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        e = self.estimate
        finite = e.n >= 2 and math.isfinite(e.half_width)
        return {
            "id": self.claim.id,
            "game": self.claim.game,
            "claim": self.claim.text,
            "source": self.claim.source,
            "figure": self.figure,
            "mean": _num(e.mean),
            "ci_low": _num(e.low) if finite else None,
            "ci_high": _num(e.high) if finite else None,
            "n": e.n,
            "verdict": self.verdict,
            "note": self.note,
        }


def _num(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None


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


def check_claims(
    claims: list[Claim] | None = None,
    *,
    n: int = 20_000,
    seed: int = 2026,
    workers: int | None = None,
    progress: bool = False,
    on_result: Callable[[ClaimResult], None] | None = None,
) -> list[ClaimResult]:
    """Run each claim's experiment and judge it."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 2:
        raise WhistsimError(f"--n {n!r}: expected at least 2 games")
    ctx = ClaimRun(n, seed, workers, progress)
    out = []
    for c in claims if claims is not None else registry():
        get_game(c.game)  # the game before its players: they import its engine
        missing = [s for s in c.needs if s not in available(c.game)]
        if missing:
            r = ClaimResult(c, "—", Estimate(math.nan, math.nan, 0), NOT_CHECKED,
                            f"needs the {', '.join(missing)} player(s), which this whistsim lacks")  # fmt: skip
        else:
            r = c.check(ctx)
        out.append(r)
        if on_result is not None:
            on_result(r)
    return out


def fmt_ci(e: Estimate) -> str:
    if e.n == 1 and e.sd == 0:
        return f"{fmt_num(e.mean)} (exact)"
    if e.n < 2 or not math.isfinite(e.mean):
        return "—"
    if e.sd == 0:
        return f"{fmt_num(e.mean)} (every game)"
    return f"{fmt_num(e.mean)} [{fmt_num(e.low)}, {fmt_num(e.high)}]"


HEADER = f"{'verdict':<20} {'source':<8} {'claim':<60} measured: mean [95% CI], n"


def format_row(r: ClaimResult, notes: bool = False) -> str:
    """One line per claim: verdict, source, the claim, the measured figure with its CI and n."""
    src = r.claim.source.split()[0]
    line = f"{r.verdict:<20} {src:<8} {r.claim.text:<60} {r.figure}: {fmt_ci(r.estimate)}, n={r.estimate.n:,}"
    if notes and r.note:
        line += f"\n{'':<29} ({r.note})"
    return line


def format_rows(results: list[ClaimResult], notes: bool = False) -> str:
    """The terminal table: a header and one row per claim."""
    return "\n".join([HEADER] + [format_row(r, notes) for r in results])


def to_markdown(results: list[ClaimResult], *, n: int, seed: int) -> str:
    lines = [
        "# The claims check",
        "",
        f"Every claim of the sources (docs/sources.md), checked by simulation (`whistsim claims --n {n} --seed {seed}`): "
        "the measured figure is a mean over games with its 95% confidence interval and n (games per cell). "
        "Verdicts: *holds* when the whole interval supports the claim, *does not hold* when the whole "
        "interval contradicts it, *undecided at this n* otherwise.",
        "",
        "| claim | source | measured | mean [95% CI] | n | verdict |",
        "|---|---|---|---|---|---|",
    ]
    for r in results:
        cells = [
            r.claim.text,
            r.claim.source,
            r.figure,
            fmt_ci(r.estimate),
            f"{r.estimate.n:,}",
            f"**{r.verdict}**",
        ]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    lines += ["", "## Notes", ""]
    for r in results:
        if r.note:
            lines.append(f"- `{r.claim.id}`: {r.note}")
    lines.append("")
    return "\n".join(lines)


__all__ = [
    "format_row",
    "Claim",
    "ClaimResult",
    "ClaimRun",
    "registry",
    "check_claims",
    "format_rows",
    "to_markdown",
    "NOT_CHECKED",
]
