"""What the Welsh studies of draw_phase, last_player and taffy_rank share: p-values, Holm's
correction over a family of comparisons, shares as percentages with Wilson's interval."""

from __future__ import annotations

import math

from ...core.stats import Estimate, Share
from ..results import fmt_num


def fmt_p(p: float) -> str:
    if not math.isfinite(p):
        return "–"
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def pct(share: Estimate, what: str = "games") -> str:
    """``31.2% (95% CI 30.9–31.5%, n=100,000 games)``: a share of games with Wilson's interval."""
    s = Share.of(share) if not isinstance(share, Share) else share
    return f"{100 * s.mean:.1f}% (95% CI {100 * s.low:.1f}–{100 * s.high:.1f}%, n={s.n:,} {what})"


def est(e: Estimate, unit: str, what: str = "games") -> str:
    """``3.21 points per game (95% CI 2.95 to 3.47, n=40,000 games)``; signed when ``unit`` starts with +."""
    sign = "+" if unit.startswith("+") and e.mean > 0 else ""
    u = unit.lstrip("+")
    if e.n < 2 or not math.isfinite(e.half_width):
        return f"{sign}{fmt_num(e.mean)} {u} (n={e.n:,} {what})"
    return f"{sign}{fmt_num(e.mean)} {u} (95% CI {fmt_num(e.low)} to {fmt_num(e.high)}, n={e.n:,} {what})"
