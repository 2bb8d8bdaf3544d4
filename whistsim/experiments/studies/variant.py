"""A rule variant against the baseline rule: how far it moves each headline figure.

Used by experiments/taffy_rank.toml. A change is measured against the figure's
level under the baseline, except an edge (``edge``, ``pos_edge``: near 0 by
design), which is measured against a fair share of the points.
"""

from __future__ import annotations

import math

from .. import verdicts as V
from ..results import Analysis, ExperimentResult, fmt_num
from ..tools import cell_text, differenced, name, signed, unit, value_text

EDGES = ("edge", "pos_edge")  # per seat / turn position: points above the others'


def analyse(result: ExperimentResult) -> Analysis:
    """How much a rule variant moves each headline figure, relative to the figure's level under the baseline."""
    spec = result.spec
    if not spec.pairs:
        return Analysis(["(the variant analysis needs a baseline)"], [], [])
    findings: list[str] = []
    worst = 0.0
    for f in differenced(spec):
        rows = []
        for j, p in enumerate(spec.pairs):
            e = result.tally.paired[j].estimate(f)
            # An edge is near 0 by design: measure it against a fair share of the points instead.
            level = result.estimate(p.base, "points_per_player" if _edge(f) else f).mean
            rel = abs(e.mean) / abs(level) if level else math.inf
            rows.append((p, e, rel))
        if not rows:
            continue
        p, e, rel = max(rows, key=lambda t: abs(t[1].mean))
        sig = sum(V.positive(x) != V.UNDECIDED for _, x, _ in rows)
        worst = max(worst, rel if math.isfinite(rel) else 0.0)
        findings.append(
            f"The largest paired change in {name(result, f)} is {signed(e, unit(result, f))}, "
            f"{fmt_num(100 * rel)}% of {'a fair share of the points' if _edge(f) else 'its level'}, "
            f"with {cell_text(spec, spec.cells[p.cell])}; "
            f"{sig} of {len(rows)} changes have 95% CIs that exclude 0."
        )
    b = next(iter(spec.baseline))
    findings.insert(0, f"Against {value_text(spec, b, spec.baseline[b][0])} on the same deals, no headline figure "
                       f"moves by more than {fmt_num(100 * worst)}% of its level (an edge: of a fair share of the "
                       f"points; n={result.games:,} games per cell).")  # fmt: skip
    return Analysis(findings[:6], [], [], findings[6:])


def _edge(figure: str) -> bool:
    return figure.split("[", 1)[0] in EDGES
