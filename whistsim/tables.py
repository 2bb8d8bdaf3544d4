"""Tables (pandas) of estimates with their confidence intervals."""

from __future__ import annotations

import pandas as pd

from .stats import Moments

COLUMNS = ["figure", "mean", "sd", "ci_low", "ci_high", "n"]


def summary_table(moments: Moments, names: list[str] | None = None) -> pd.DataFrame:
    rows = []
    for name in names or moments.names():
        e = moments.estimate(name)
        rows.append([name, e.mean, e.sd, e.low, e.high, e.n])
    return pd.DataFrame(rows, columns=COLUMNS)


def format_summary(df: pd.DataFrame) -> str:
    """Figures as ``mean ± half-width [low, high]`` for the terminal."""
    lines = [f"{'figure':<18} {'mean':>10} {'95% CI':>23} {'n':>10}"]
    for r in df.itertuples(index=False):
        ci = f"[{r.ci_low:.4g}, {r.ci_high:.4g}]"
        lines.append(f"{r.figure:<18} {r.mean:>10.4g} {ci:>23} {r.n:>10}")
    return "\n".join(lines)
