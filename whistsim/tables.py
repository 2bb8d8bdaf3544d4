"""Tables (pandas) of estimates with their confidence intervals."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .stats import Moments

if TYPE_CHECKING:
    import pandas as pd

COLUMNS = ["figure", "mean", "sd", "ci_low", "ci_high", "n"]


def summary_table(moments: Moments, names: list[str] | None = None) -> pd.DataFrame:
    import pandas as pd  # imported here: the terminal summary needs no pandas (start-up time)

    rows = []
    for name in names or moments.names():
        e = moments.estimate(name)
        rows.append([name, e.mean, e.sd, e.low, e.high, e.n])
    return pd.DataFrame(rows, columns=COLUMNS)


def format_summary(moments: Moments, names: list[str] | None = None) -> str:
    """Each figure's mean and 95% CI, for the terminal."""
    names = names or moments.names()
    w = max([6, *map(len, names)])
    lines = [f"{'figure':<{w}} {'mean':>10} {'95% CI':>25} {'n':>11}"]
    for name in names:
        e = moments.estimate(name)
        ci = "exact" if e.sd == 0 else f"[{e.low:.4g}, {e.high:.4g}]"
        lines.append(f"{name:<{w}} {e.mean:>10.4g} {ci:>25} {e.n:>11,}")
    return "\n".join(lines)
