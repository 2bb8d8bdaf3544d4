"""Charts as PNG (matplotlib, Agg), each with its data beside it as JSON (``NAME.json``).

The standard (docs/reports.md): a title that states the finding in words, axes
named with their units, every point's 95% CI visible (or a caption saying it
is smaller than the marks), legends outside the axes, nothing clipped, a y axis
that reaches 0 unless told otherwise. A chart that breaks it (no data, a
series of one repeated value drawn as a histogram, two series under one label,
a value that is not finite or outside its interval, a code name such as
``tt[0]`` in its words) is refused with :class:`ChartError` before anything is
drawn; tests walk the committed JSON files with :func:`problems`.
"""

from __future__ import annotations

import json
import math
import re
import textwrap
from pathlib import Path
from typing import Any

from matplotlib.figure import Figure  # not pyplot: drawing a chart never changes a notebook's backend

from ..io import atomic_write
from .results import Chart, ChartSeries

# Words a reader should never see in a chart: an indexed column (tt[0]), a key=value pair
# (seat 0 plays=hoarder), a snake_case name (rel_spread). "n=1,000" is a sample size, not code.
CODE = re.compile(r"[A-Za-z]\w*\[\d+\]|(?<![\w])(?!n=)\w+=\w|\b[a-z]+_[a-z_]+\b")


class ChartError(ValueError):
    """A chart that breaks the standard: it is not drawn."""


def code_names(text: str) -> list[str]:
    """The code-style tokens in ``text`` (empty when it reads as words)."""
    return [m.group(0) for m in CODE.finditer(text or "")]


def as_data(chart: Chart) -> dict[str, Any]:
    """The chart's sidecar: what it shows, as numbers (tests read these, not the pixels)."""
    return {
        "name": chart.name,
        "title": chart.title,
        "xlabel": chart.xlabel,
        "ylabel": chart.ylabel,
        "kind": chart.kind,
        "caption": chart.caption,
        "categorical": chart.categorical,
        "reference": chart.reference,
        "reference_label": chart.reference_label,
        "series": [
            {"label": s.label, "x": list(s.x), "y": list(s.y), "low": list(s.low), "high": list(s.high)}
            for s in chart.series
        ],
    }


def problems(data: dict[str, Any]) -> list[str]:
    """What breaks the standard in a chart's data (a sidecar's dict, or :func:`as_data` of a chart)."""
    out: list[str] = []
    series = data.get("series") or []
    if not series:
        out.append("no series")
    for key in ("title", "xlabel", "ylabel"):
        if not str(data.get(key) or "").strip():
            out.append(f"no {key}")
    words = [data.get("title"), data.get("xlabel"), data.get("ylabel"), data.get("reference_label")]
    words += [s.get("label") for s in series] if len(series) > 1 else []
    for text in words:
        bad = code_names(str(text or ""))
        if bad:
            out.append(f"code name {bad[0]!r} in {text!r}")
    labels = [s.get("label") for s in series]
    if len(series) > 1 and len(set(labels)) < len(labels):
        dup = next(x for x in labels if labels.count(x) > 1)
        out.append(f"two series labelled {dup!r}")
    for s in series:
        ys, lo, hi, xs = s.get("y", []), s.get("low", []), s.get("high", []), s.get("x", [])
        if not ys:
            out.append(f"series {s.get('label')!r} is empty")
            continue
        if not (len(xs) == len(ys) == len(lo) == len(hi)):
            out.append(f"series {s.get('label')!r}: x, y, low and high differ in length")
            continue
        for y, a, b in zip(ys, lo, hi, strict=True):
            if not all(isinstance(v, (int, float)) and math.isfinite(v) for v in (y, a, b)):
                out.append(f"series {s.get('label')!r}: a value or CI is not finite")
                break
            if not a - 1e-12 <= y <= b + 1e-12:
                out.append(f"series {s.get('label')!r}: {y} outside its CI [{a}, {b}]")
                break
        if data.get("kind") == "hist" and len(set(xs)) < 2:
            out.append(f"series {s.get('label')!r}: one value only, a degenerate histogram")
    return out


def check(chart: Chart) -> None:
    bad = problems(as_data(chart))
    if bad:
        raise ChartError(f"chart {chart.name!r}: {bad[0]}")


def sidecar(path: str | Path) -> Path:
    """The JSON file beside a chart's PNG."""
    return Path(path).with_suffix(".json")


def dumps(data: dict[str, Any]) -> str:
    """A chart's data as JSON: one line per field and one per series, the series last."""
    one = lambda v: json.dumps(v, allow_nan=False, ensure_ascii=False)  # noqa: E731
    head = [f" {one(k)}: {one(v)}" for k, v in data.items() if k != "series"]
    series = [f"  {one(s)}" for s in data.get("series", [])]
    body = ",\n".join(head + [' "series": [\n' + ",\n".join(series) + "\n ]"])
    return "{\n" + body + "\n}\n"


def write_sidecar(data: dict[str, Any], png: str | Path, out: str | Path | None = None) -> Path:
    """The chart's data as JSON beside its PNG (``out``: another name, where ``NAME.json`` is taken)."""
    out = Path(out) if out is not None else sidecar(png)
    with atomic_write(out) as f:
        f.write(dumps({**data, "png": Path(png).name}))
    return out


def draw(chart: Chart, path: str | Path) -> None:
    """Check the chart, draw it into ``path`` (PNG) and write its data beside it (``.json``)."""
    check(chart)
    fig = Figure(figsize=(8, 4.8), dpi=110)
    ax = fig.subplots()
    if chart.kind == "hist":
        _hist(ax, chart)
    elif chart.kind == "bars":
        _bars(ax, chart)
    else:
        _lines(ax, chart)
    if chart.zero_line:
        ax.axhline(0, color="0.4", lw=0.8, ls="--", zorder=0)
    if chart.reference is not None:
        ax.axhline(
            chart.reference, color="0.35", lw=1.0, ls=":", zorder=0, label=chart.reference_label or None
        )
    _y_scale(ax, chart)
    ax.set_xlabel("\n".join(textwrap.wrap(chart.xlabel, 90)))
    ax.set_ylabel("\n".join(textwrap.wrap(chart.ylabel, 50)))
    ax.set_title("\n".join(textwrap.wrap(chart.title, 72)), fontsize=11)
    ax.grid(True, alpha=0.3)
    handles, labels = ax.get_legend_handles_labels()
    if len(labels) > 1:  # outside the axes: never over the data
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0, frameon=False)
    caption = caption_of(chart, ax)
    if caption:
        fig.text(0.01, -0.01, "\n".join(textwrap.wrap(caption, 110)), ha="left", va="top", fontsize=8,
                 color="0.25")  # fmt: skip
    fig.tight_layout()
    with atomic_write(path, "wb") as f:
        fig.savefig(f, format="png", bbox_inches="tight", pad_inches=0.15)
    write_sidecar({**as_data(chart), "caption": caption}, path)


def caption_of(chart: Chart, ax: Any) -> str:
    """The chart's caption, saying so when every 95% CI is smaller than the marks."""
    lo, hi = ax.get_ylim()
    span = abs(hi - lo) or 1.0
    widest = max((b - a for s in chart.series for a, b in zip(s.low, s.high, strict=True)), default=0.0)
    text = chart.caption.strip()
    if chart.kind != "hist" and widest < 0.02 * span:
        note = "The 95% CIs are smaller than the marks."
        text = f"{text} {note}".strip() if "smaller than the marks" not in text else text
    return text


def _y_scale(ax: Any, chart: Chart) -> None:
    """Reach 0 (and the reference), so that the drawn size of a change is its size."""
    lo, hi = ax.get_ylim()
    a, b = lo, hi
    if chart.include_zero or chart.zero_line:
        a, b = min(a, 0.0), max(b, 0.0)
    if chart.reference is not None:
        pad = 0.04 * (hi - lo or 1.0)
        a, b = min(a, chart.reference - pad), max(b, chart.reference + pad)
    if (a, b) != (lo, hi):
        ax.set_ylim(a, b)


def _err(s: ChartSeries) -> tuple[list[float], list[float]]:
    lo = [max(0.0, y - low) for y, low in zip(s.y, s.low, strict=True)]
    hi = [max(0.0, high - y) for y, high in zip(s.y, s.high, strict=True)]
    return lo, hi


def _categories(chart: Chart) -> list:
    cats: list = []
    for s in chart.series:
        for x in s.x:
            if x not in cats:
                cats.append(x)
    return cats


def _is_num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _lines(ax: Any, chart: Chart) -> None:
    cats = _categories(chart)
    nums = sorted(x for x in cats if _is_num(x))
    words = [x for x in cats if not _is_num(x)]
    # A numeric sweep keeps a numeric axis; words in it (e.g. a cheat rate "smart") stand to its right.
    numeric = not chart.categorical and len(nums) >= 2
    if numeric:
        gap = (nums[-1] - nums[0]) / max(len(nums) - 1, 1) or 1.0
        where = {x: x for x in nums} | {w: nums[-1] + gap * (i + 1) for i, w in enumerate(words)}
    else:
        where = {x: i for i, x in enumerate(cats)}
    k = len(chart.series)
    for i, s in enumerate(chart.series):
        # Several series on categories are nudged apart so that their error bars do not hide each other.
        shift = 0.0 if numeric else (i - (k - 1) / 2) * min(0.08, 0.5 / max(k, 1))
        lo, hi = _err(s)
        num = [j for j, v in enumerate(s.x) if _is_num(v)]
        word = [j for j in range(len(s.x)) if j not in num]
        line = ax.errorbar([where[s.x[j]] + shift for j in num], [s.y[j] for j in num],
                           yerr=([lo[j] for j in num], [hi[j] for j in num]),
                           marker="o", ms=4, capsize=3, lw=1.4, label=s.label if num else None)  # fmt: skip
        if word:  # words as lone points of the series' colour, nudged apart on a numeric axis
            colour = line[0].get_color() if num else None
            nudge = shift if not numeric else (i - (k - 1) / 2) * 0.08 * gap
            ax.errorbar([where[s.x[j]] + nudge for j in word], [s.y[j] for j in word],
                        yerr=([lo[j] for j in word], [hi[j] for j in word]),
                        marker="D", ms=5, capsize=3, lw=0, color=colour, label=None if num else s.label)  # fmt: skip
    if numeric and words:
        eps = 1e-9 * gap
        ticks = [float(x) for x in ax.get_xticks() if nums[0] - eps <= x <= nums[-1] + eps]
        ax.set_xticks(ticks + [where[w] for w in words], [f"{t:g}" for t in ticks] + [str(w) for w in words])
        ax.axvline((nums[-1] + where[words[0]]) / 2, color="0.7", lw=0.8, ls=":")
    elif numeric and all(isinstance(v, int) for v in nums) and len(nums) <= 12:
        ax.set_xticks(nums)
    elif not numeric:
        ax.set_xticks(range(len(cats)), [str(c) for c in cats])


def _bars(ax: Any, chart: Chart) -> None:
    cats = _categories(chart)
    k = len(chart.series)
    width = 0.8 / max(k, 1)
    for i, s in enumerate(chart.series):
        pos = [cats.index(x) - 0.4 + width * (i + 0.5) for x in s.x]
        ax.bar(pos, s.y, width=width, yerr=_err(s), capsize=3, label=s.label)
    ax.set_xticks(range(len(cats)), [str(c) for c in cats])


def _hist(ax: Any, chart: Chart) -> None:
    """Each series a step line with its 95% CI as a band."""
    for s in chart.series:
        (line,) = ax.step(s.x, s.y, where="mid", lw=1.3, label=s.label)
        ax.fill_between(s.x, s.low, s.high, step="mid", alpha=0.25, color=line.get_color(), lw=0)
