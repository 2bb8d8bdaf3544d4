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

This package's face: the claim model (claims/model.py), the runner
(claims/run.py), the loader of the games' claims (claims/loader.py) and the
report (claims/report.py). A game's claims module imports the model and the
runner, never this face nor the loader.
"""

from __future__ import annotations

from ..core.stats import holm
from .loader import not_measured, registry, source_errors
from .model import (
    DEPENDS_READING,
    DEPENDS_SKILL,
    FAILS,
    HOLDS,
    NOT_A_CLAIM,
    NOT_CHECKED,
    UNDECIDED,
    VERDICTS,
    Claim,
    ClaimResult,
    Deciding,
    Figure,
    Outcome,
    Reading,
    ReadingResult,
    above,
    all_of,
    base,
    below,
    combine,
    combine_readings,
    family,
    plain,
    within,
)
from .report import (
    DEFINITION,
    HEADER,
    chart,
    chart_from_json,
    counted,
    draw_chart,
    format_row,
    format_rows,
    to_markdown,
)
from .run import ClaimRun, RunEstimate, check_claim, check_claims, estimate_run, lacking

__all__ = [
    "HOLDS", "FAILS", "UNDECIDED", "DEPENDS_SKILL", "DEPENDS_READING", "NOT_CHECKED", "NOT_A_CLAIM", "VERDICTS",
    "Figure", "Outcome", "Reading", "Claim", "ReadingResult", "ClaimResult", "Deciding",
    "above", "below", "within", "family", "all_of", "holm", "combine", "combine_readings", "base", "plain",
    "ClaimRun", "RunEstimate", "check_claim", "check_claims", "estimate_run", "lacking",
    "registry", "not_measured", "source_errors",
    "HEADER", "DEFINITION", "format_row", "format_rows", "to_markdown", "chart", "chart_from_json", "draw_chart",
    "counted",
]  # fmt: skip
