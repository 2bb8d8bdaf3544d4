"""Charts as PNG (matplotlib, Agg): labelled axes, 95% CI error bars, a title that states the finding."""

from __future__ import annotations

import math
import textwrap
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from ..io import atomic_write  # noqa: E402
from .results import Chart  # noqa: E402


def _positions(chart: Chart) -> tuple[list, list[str] | None]:
    """Numeric x values, or category positions and their labels."""
    xs: list = []
    for s in chart.series:
        for x in s.x:
            if x not in xs:
                xs.append(x)
    numeric = not chart.categorical and all(
        isinstance(x, (int, float)) and not isinstance(x, bool) for x in xs
    )
    if numeric:
        return xs, None
    return list(range(len(xs))), [str(x) for x in xs]


def draw(chart: Chart, path: str | Path) -> None:
    fig, ax = plt.subplots(figsize=(8, 4.8), dpi=110)
    try:
        if chart.kind == "hist":
            _hist(ax, chart)
        elif chart.kind == "bars":
            _bars(ax, chart)
        else:
            _lines(ax, chart)
        if chart.zero_line:
            ax.axhline(0, color="0.4", lw=0.8, ls="--", zorder=0)
        ax.set_xlabel(chart.xlabel)
        ax.set_ylabel(chart.ylabel)
        ax.set_title("\n".join(textwrap.wrap(chart.title, 70)), fontsize=11)
        ax.grid(True, alpha=0.3)
        if len(chart.series) > 1:
            ax.legend(fontsize=8, loc="best", framealpha=0.85)
        fig.tight_layout()
        with atomic_write(path, "wb") as f:
            fig.savefig(f, format="png")
    finally:
        plt.close(fig)


def _err(s) -> tuple[list[float], list[float]]:
    lo = [max(0.0, y - low) if math.isfinite(low) else 0.0 for y, low in zip(s.y, s.low, strict=True)]
    hi = [max(0.0, high - y) if math.isfinite(high) else 0.0 for y, high in zip(s.y, s.high, strict=True)]
    return lo, hi


def _lines(ax, chart: Chart) -> None:
    xs, names = _positions(chart)
    order = {x: i for i, x in enumerate(xs)} if names is None else None
    cats: list = []
    for s in chart.series:
        for x in s.x:
            if x not in cats:
                cats.append(x)
    for s in chart.series:
        if names is None:
            ax.errorbar(list(s.x), s.y, yerr=_err(s), marker="o", ms=4, capsize=3, lw=1.4, label=s.label)
            continue
        # Categories: numbers joined by a line, words (e.g. "smart") as lone points of the same colour.
        lo, hi = _err(s)
        num = [i for i, v in enumerate(s.x) if isinstance(v, (int, float)) and not isinstance(v, bool)]
        word = [i for i in range(len(s.x)) if i not in num]
        line = ax.errorbar([cats.index(s.x[i]) for i in num], [s.y[i] for i in num],
                           yerr=([lo[i] for i in num], [hi[i] for i in num]),
                           marker="o", ms=4, capsize=3, lw=1.4, label=s.label)  # fmt: skip
        if word:
            colour = line[0].get_color()
            ax.errorbar([cats.index(s.x[i]) for i in word], [s.y[i] for i in word],
                        yerr=([lo[i] for i in word], [hi[i] for i in word]),
                        marker="D", ms=5, capsize=3, lw=0, color=colour, label=None if num else s.label)  # fmt: skip
    if names is not None:
        ax.set_xticks(range(len(names)), names)
    elif order is not None and all(isinstance(v, int) for v in xs):
        ax.set_xticks(sorted(xs))


def _bars(ax, chart: Chart) -> None:
    cats: list = []
    for s in chart.series:
        for x in s.x:
            if x not in cats:
                cats.append(x)
    k = len(chart.series)
    width = 0.8 / max(k, 1)
    for i, s in enumerate(chart.series):
        pos = [cats.index(x) - 0.4 + width * (i + 0.5) for x in s.x]
        ax.bar(pos, s.y, width=width, yerr=_err(s), capsize=3, label=s.label)
    ax.set_xticks(range(len(cats)), [str(c) for c in cats])


def _hist(ax, chart: Chart) -> None:
    for s in chart.series:
        ax.step(s.x, s.y, where="mid", lw=1.3, label=s.label)
