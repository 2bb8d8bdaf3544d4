"""Charts as PNG (matplotlib, Agg), each with its data beside it as JSON (``NAME.json``).

The standard (docs/reports.md): a title that states the finding in words, axes
named with their units, who played and how many games make a point (``n``),
every point's 95% CI visible (or a caption saying it is smaller than the
marks), legends outside the axes, nothing clipped, a y axis that reaches 0
unless told otherwise. A chart that breaks it in its data (no data, a series of
one repeated value drawn as a histogram, two series under one label, a value
that is not finite or outside its interval, a code name such as ``tt[0]`` in its
words, no n or no players) is refused with :class:`ChartError` before anything
is drawn; tests walk the committed JSON files with :func:`problems`.

The drawn image is checked too (:func:`image_problems`, on matplotlib's own
measure of every artist): no two texts overlap, every legend entry's series
can be seen, no mark lies outside its axes, no more than four lines tangle in
one panel. :func:`draw` fixes what layout can (wrapped or turned category
labels, a wider figure, series dodged apart, small multiples) and refuses the
chart when no layout passes.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure  # not pyplot: drawing a chart never changes a notebook's backend

from ..core.io import atomic_write
from ..core.strategy import parse_spec
from .results import Chart, ChartSeries

if TYPE_CHECKING:
    from .results import ExperimentResult

# Words a reader should never see in a chart: an indexed column (tt[0]), a key=value pair
# (seat 0 plays=hoarder), a snake_case name (rel_spread). "n=1,000" is a sample size, not code.
CODE = re.compile(r"[A-Za-z]\w*\[\d+\]|(?<![\w])(?!n=)\w+=\w|\b[a-z]+_[a-z_]+\b")
# A sample size as a chart states it: "n=40,000 deals a point", "n = 2,000 games".
N_TEXT = re.compile(r"\bn\s?=\s?(about |at least )?\d[\d,]*")
# "from 5% to 59%", "in 3.7% to 18.0% of games": a range where a title should state a finding ("falls from
# 15% to 13%" states one).
RANGE = re.compile(
    r"(?<!falls )(?<!rises )(?<!drops )(?<!grows )(?<!climbs )\bfrom\s+[-+−]?\d[\d.,]*%?(?:\s*\([^)]*\))?\s+to"
    r"\s+[-+−]?\d|\bin\s+\d[\d.,]*%?\s+to\s+\d[\d.,]*%",
    re.I,
)
KINDS = ("lines", "bars", "hist", "heatmap", "rows", "scatter")
MAX_LINES = 4  # lines in one panel that may cross each other; more tangle, and get panels of their own


class ChartError(ValueError):
    """A chart that breaks the standard: it is not drawn."""


def code_names(text: str) -> list[str]:
    """The code-style tokens in ``text`` (empty when it reads as words)."""
    return [m.group(0) for m in CODE.finditer(text or "")]


# ---- who played, and how many: the framework's words for a run -------------------------------

# A player's strength in words a card player knows: the strategies that search, the one that plays at
# random, and every other one (each follows rules of thumb).
SEARCHERS = {"pimc": "players who search sampled deals", "pimc2": "players who search sampled deals",
             "dd": "players who search the open hands"}  # fmt: skip


def strength(strategy: str) -> str:
    """A strategy spec's strength in plain words: ``pimc:budget=8`` -> ``players who search sampled deals``."""
    name = parse_spec(strategy).name
    if name in SEARCHERS:
        return SEARCHERS[name]
    return "random players" if name == "random" else "rule-based players"


def players_of(strategies: list[str] | tuple[str, ...]) -> str:
    """The strengths of the strategies a run seats, in words: ``random players and rule-based players
    (heuristic)``; the rule-based ones named, since their rules differ."""
    kinds: dict[str, list[str]] = {}
    for s in strategies:
        names = kinds.setdefault(strength(s), [])
        name = parse_spec(s).name
        if name not in names:
            names.append(name)
    parts = [f"{k} ({', '.join(v)})" if k == "rule-based players" else k for k, v in kinds.items()]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def unit_of(result: ExperimentResult) -> str:
    """What one simulated game of a run is: a deal (``unit = "deal"``) or a game."""
    return (
        "deal" if str(result.spec.rules.get("unit", "")) == "deal" else "game"
    ) + "s"  # a unit, not a figure


def n_of(result: ExperimentResult, per: str = "a point") -> str:
    """``n=40,000 deals a point``: the run's games (or deals) per cell."""
    return f"n={result.games:,} {unit_of(result)} {per}".strip()


def from_run(result: ExperimentResult, charts: list[Chart]) -> list[Chart]:
    """The charts with ``n`` and ``players`` filled from the run where a study left them empty."""
    seated = [s for c in result.spec.cells for s in c.players]
    fill = {"n": n_of(result), "players": players_of(seated) if seated else ""}
    return [dataclasses.replace(c, **{k: v for k, v in fill.items() if not getattr(c, k)}) for c in charts]


def direction(series: list[ChartSeries]) -> str:
    """How every series moves along x, for a title computed from its data: ``rises`` (never falls,
    told apart from flat by the CIs of its ends), ``falls``, or ``""`` when they differ or turn."""
    ways = set()
    for s in series:
        pts = sorted(zip(s.x, s.y, s.low, s.high, strict=True), key=lambda t: t[0])
        if len(pts) < 2:
            continue
        ys = [y for _, y, _, _ in pts]
        up = all(b >= a for a, b in zip(ys, ys[1:], strict=False)) and pts[-1][2] > pts[0][3]
        down = all(b <= a for a, b in zip(ys, ys[1:], strict=False)) and pts[-1][3] < pts[0][2]
        ways.add("rises" if up else "falls" if down else "")
    return ways.pop() if len(ways) == 1 else ""


# ---- the data ---------------------------------------------------------------------------------


def as_data(chart: Chart) -> dict[str, Any]:
    """The chart's sidecar: what it shows, as numbers (tests read these, not the pixels)."""
    return {
        "name": chart.name,
        "title": chart.title,
        "xlabel": chart.xlabel,
        "ylabel": chart.ylabel,
        "kind": chart.kind,
        "caption": chart.caption,
        "n": chart.n,
        "players": chart.players,
        "categorical": chart.categorical,
        "reference": chart.reference,
        "reference_label": chart.reference_label,
        "zero_line": chart.zero_line,
        "include_zero": chart.include_zero,
        "panels": chart.panels,
        "value_label": chart.value_label,
        "series": [
            {"label": s.label, "x": list(s.x), "y": list(s.y), "low": list(s.low), "high": list(s.high)}
            | ({"ref": list(s.ref)} if s.ref else {})
            for s in chart.series
        ],
    }


def from_data(data: dict[str, Any]) -> Chart:
    """A chart back from its sidecar (to redraw it); the caption as drawn, without its stated n."""
    fields = {f.name for f in dataclasses.fields(Chart)} - {"series"}
    kw = {k: v for k, v in data.items() if k in fields}
    kw["caption"] = _unstated(str(kw.get("caption") or ""), kw.get("players", ""), kw.get("n", ""))
    series = [ChartSeries(s["label"], list(s["x"]), list(s["y"]), list(s["low"]), list(s["high"]),
                          list(s.get("ref") or [])) for s in data.get("series") or []]  # fmt: skip
    return Chart(series=series, **kw)


def problems(data: dict[str, Any]) -> list[str]:
    """What breaks the standard in a chart's data (a sidecar's dict, or :func:`as_data` of a chart)."""
    out: list[str] = []
    series = data.get("series") or []
    if not series:
        out.append("no series")
    for key in ("title", "xlabel", "ylabel"):
        if not str(data.get(key) or "").strip():
            out.append(f"no {key}")
    if not N_TEXT.search(str(data.get("n") or "")):
        out.append(f"no n (games or deals a point, as 'n=1,000 games a point'): {data.get('n')!r}")
    if not str(data.get("players") or "").strip():
        out.append("no players (their strength in words, as 'rule-based players')")
    if str(data.get("kind") or "lines") not in KINDS:
        out.append(f"unknown kind {data.get('kind')!r}")
    words = [data.get("title"), data.get("xlabel"), data.get("ylabel"), data.get("reference_label")]
    words += [data.get("players"), data.get("value_label")]
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


def title_states_a_range(title: str) -> bool:
    """A title that gives a range ("from 5% to 59%") where it should answer the study's question."""
    return bool(RANGE.search(title or ""))


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


# ---- drawing ----------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Layout:
    """How a chart is laid out; :func:`draw` tries the plain one first, then what fixes its image."""

    width: float = 8.0  # inches
    wrap: int = 0  # category labels wrapped at this many characters (0: as they are)
    rotate: int = 0  # category labels turned by this many degrees
    dodge: bool = False  # series moved apart sideways, so that one never hides another
    panels: bool = False  # one small chart per series


def draw(chart: Chart, path: str | Path, out: str | Path | None = None) -> Layout:
    """Check the chart, draw it into ``path`` (PNG) and write its data beside it (``.json``, or ``out``).

    The image is checked as drawn (:func:`image_problems`); a layout that fails is replaced by one that
    fixes what failed, and a chart no layout fixes is refused with :class:`ChartError`, nothing written.
    """
    check(chart)
    fig, layout = render(chart)
    with atomic_write(path, "wb") as f:
        fig.savefig(f, format="png", bbox_inches="tight", pad_inches=0.15)
    write_sidecar({**as_data(chart), "caption": fig._whistsim_caption}, path, out)  # type: ignore[attr-defined]
    return layout


def render(chart: Chart) -> tuple[Figure, Layout]:
    """The chart drawn in the first layout whose image passes :func:`image_problems`."""
    layout = Layout(panels=chart.panels)
    tried = []
    while True:
        fig = figure(chart, layout)
        bad = image_problems(fig)
        if not bad:
            return fig, layout
        tried.append(layout)
        nxt = _fix(chart, layout, bad)
        if nxt is None or nxt in tried:
            raise ChartError(f"chart {chart.name!r}: {bad[0]} (in the drawn image, no layout fixes it)")
        layout = nxt


def _fix(chart: Chart, layout: Layout, bad: list[str]) -> Layout | None:
    """The next layout to try against what is wrong with this one's image."""
    r = dataclasses.replace
    kinds = {b.split(":")[0] for b in bad}
    if "tangled" in kinds and not layout.panels and chart.kind in ("lines", "scatter"):
        return r(layout, panels=True)
    if "hidden" in kinds and not layout.dodge:
        return r(layout, dodge=True)
    if "overlap" in kinds:
        ticks = any("tick label" in b for b in bad if b.startswith("overlap"))
        if ticks and not layout.wrap:
            return r(layout, wrap=12)
        if ticks and not layout.rotate:
            return r(layout, rotate=90)
        if layout.width < 12:
            return r(layout, width=layout.width + 2)
    if "outside" in kinds and layout.width < 12:
        return r(layout, width=layout.width + 2)
    return None


def figure(chart: Chart, layout: Layout = Layout()) -> Figure:
    """The chart drawn (not saved) in ``layout``; the caption as drawn is ``fig._whistsim_caption``."""
    if chart.kind == "rows":
        return _rows(chart, layout)
    if chart.kind == "heatmap":
        return _heatmap(chart, layout)
    if chart.kind in ("lines", "scatter") and layout.panels and len(chart.series) > 1:
        return _panels(chart, layout)
    fig = _new(layout.width, 4.8)
    ax = fig.subplots()
    if chart.kind == "hist":
        _hist(ax, chart)
    elif chart.kind == "bars":
        _bars(ax, chart, layout)
    else:
        _lines(ax, chart, chart.series, layout)
    _levels(ax, chart)
    _y_scale(ax, chart)
    _x_margin(ax, chart, layout)
    ax.set_xlabel("\n".join(textwrap.wrap(chart.xlabel, 90)))
    ax.set_ylabel("\n".join(textwrap.wrap(chart.ylabel, 50)))
    # pad: clear of the top tick label's upper half, where a title wider than the axes reaches over it
    ax.set_title("\n".join(textwrap.wrap(chart.title, int(9 * layout.width))), fontsize=11, pad=12)
    ax.grid(True, alpha=0.3)
    handles, labels = ax.get_legend_handles_labels()
    if len(labels) > 1:  # outside the axes: never over the data
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0, frameon=False)
    _caption(fig, chart, caption_of(chart, ax), layout)
    fig.tight_layout()
    return fig


def _new(width: float, height: float) -> Figure:
    fig = Figure(figsize=(width, height), dpi=110)
    FigureCanvasAgg(fig)  # a renderer to measure the drawn texts and marks with
    return fig


def _caption(fig: Figure, chart: Chart, caption: str, layout: Layout) -> None:
    fig._whistsim_caption = caption  # type: ignore[attr-defined]
    if caption:
        fig.text(0.01, -0.01, "\n".join(textwrap.wrap(caption, int(14 * layout.width))), ha="left", va="top",
                 fontsize=8, color="0.25")  # fmt: skip


def stated(chart: Chart) -> str:
    """The sentence every caption opens with: who played and how many games make a point."""
    who = chart.players.strip()
    return f"{who[:1].upper()}{who[1:]}; {chart.n.strip()}." if who else ""


def _unstated(caption: str, players: str, n: str) -> str:
    head = stated(Chart("", "", "", "", [], players=players, n=n))
    return caption[len(head) :].strip() if head and caption.startswith(head) else caption


def caption_of(chart: Chart, ax: Any = None) -> str:
    """The chart's caption: who played and n first, then its own words, saying so when every 95% CI is
    smaller than the marks."""
    text = chart.caption.strip()
    if ax is not None and chart.kind not in ("hist", "heatmap", "rows"):
        lo, hi = ax.get_ylim()
        span = abs(hi - lo) or 1.0
        widest = max((b - a for s in chart.series for a, b in zip(s.low, s.high, strict=True)), default=0.0)
        if widest < 0.02 * span and "smaller than the marks" not in text:
            text = f"{text} The 95% CIs are smaller than the marks.".strip()
    head = stated(chart)
    return f"{head} {text}".strip() if head and not text.startswith(head) else text


def _levels(ax: Any, chart: Chart) -> None:
    if chart.zero_line:
        ax.axhline(0, color="0.4", lw=0.8, ls="--", zorder=0)
    if chart.reference is not None:
        ax.axhline(
            chart.reference, color="0.35", lw=1.0, ls=":", zorder=0, label=chart.reference_label or None
        )


def _y_scale(ax: Any, chart: Chart) -> None:
    """Reach 0 (and the reference), so that the drawn size of a change is its size; a margin on each side
    that has a mark near it, so that no mark sits on the frame."""
    ys = [v for s in chart.series for v in (*s.y, *s.low, *s.high)]
    lo, hi = ax.get_ylim()
    a, b = (min(ys), max(ys)) if ys else (lo, hi)
    if chart.include_zero or chart.zero_line:
        a, b = min(a, 0.0), max(b, 0.0)
    if chart.reference is not None:
        a, b = min(a, chart.reference), max(b, chart.reference)
    span = (b - a) or abs(b) or 1.0
    pad = 0.06 * span
    ymin = a if (ys and min(ys) - a > pad) else a - pad
    ymax = b if (ys and b - max(ys) > pad) else b + pad
    if chart.kind == "bars" and a == 0.0 and min(ys, default=0.0) >= 0:
        ymin = 0.0  # bars stand on 0
    ax.set_ylim(ymin, ymax)


def _x_margin(ax: Any, chart: Chart, layout: Layout) -> None:
    if layout.dodge or chart.kind == "scatter":
        ax.margins(x=0.08)


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


def _cat_labels(cats: list, layout: Layout) -> list[str]:
    return ["\n".join(textwrap.wrap(str(c), layout.wrap)) if layout.wrap else str(c) for c in cats]


def _set_cat_ticks(ax: Any, where: list[float], labels: list[str], layout: Layout) -> None:
    ax.set_xticks(where, labels)
    if layout.rotate:
        for t in ax.get_xticklabels():  # upright boxes: measured exactly, as turned labels' are not
            t.set_rotation(layout.rotate)


def _lines(
    ax: Any, chart: Chart, series: list[ChartSeries], layout: Layout, colours: list | None = None
) -> None:
    cats = _categories(chart)
    nums = sorted(x for x in cats if _is_num(x))
    words = [x for x in cats if not _is_num(x)]
    # A numeric sweep keeps a numeric axis; words in it (e.g. a cheat rate "smart") stand to its right.
    numeric = not chart.categorical and len(nums) >= 2
    if numeric:
        gap = (nums[-1] - nums[0]) / max(len(nums) - 1, 1) or 1.0
        where = {x: x for x in nums} | {w: nums[-1] + gap * (i + 1) for i, w in enumerate(words)}
    else:
        gap = 1.0
        where = {x: i for i, x in enumerate(cats)}
    k = len(series)
    # Several series on categories are nudged apart so that their error bars do not hide each other; with
    # ``dodge`` every axis, far enough that a mark never covers another's.
    step = (
        (0.05 if layout.dodge else 0.0) if numeric else (0.12 if layout.dodge else min(0.08, 0.5 / max(k, 1)))
    )
    step = min(step, 0.7 / max(k - 1, 1))
    line_style = dict(lw=0) if chart.kind == "scatter" else dict(lw=1.4)
    for i, s in enumerate(series):
        shift = (i - (k - 1) / 2) * step * gap
        colour = colours[i] if colours else None
        lo, hi = _err(s)
        num = [j for j, v in enumerate(s.x) if _is_num(v)] if numeric else list(range(len(s.x)))
        word = [j for j in range(len(s.x)) if j not in num]
        line = ax.errorbar([where[s.x[j]] + shift for j in num], [s.y[j] for j in num],
                           yerr=([lo[j] for j in num], [hi[j] for j in num]), color=colour,
                           marker="o", ms=4, capsize=3, **line_style, label=s.label if num else None)  # fmt: skip
        if word:  # words as lone points of the series' colour, on a numeric axis
            colour = line[0].get_color() if num else colour
            ax.errorbar([where[s.x[j]] + shift for j in word], [s.y[j] for j in word],
                        yerr=([lo[j] for j in word], [hi[j] for j in word]),
                        marker="D", ms=5, capsize=3, lw=0, color=colour, label=None if num else s.label)  # fmt: skip
    if numeric and words:
        eps = 1e-9 * gap
        ax.set_xlim(nums[0] - 0.5 * gap, where[words[-1]] + 0.5 * gap)
        ticks = [float(x) for x in ax.get_xticks() if nums[0] - eps <= x <= nums[-1] + eps]
        ax.set_xticks(ticks + [where[w] for w in words], [f"{t:g}" for t in ticks] + [str(w) for w in words])
        ax.axvline((nums[-1] + where[words[0]]) / 2, color="0.7", lw=0.8, ls=":")
    elif numeric and all(isinstance(v, int) for v in nums) and len(nums) <= 12:
        ax.set_xticks(nums)
    elif not numeric:
        _set_cat_ticks(ax, list(range(len(cats))), _cat_labels(cats, layout), layout)
        ax.set_xlim(-0.5, len(cats) - 0.5)


def _bars(ax: Any, chart: Chart, layout: Layout) -> None:
    """Grouped bars; at each category only the series that have a value there share its width."""
    cats = _categories(chart)
    present = {c: [s.label for s in chart.series if c in s.x] for c in cats}
    colours = [f"C{i}" for i in range(len(chart.series))]
    for i, s in enumerate(chart.series):
        pos, width = [], []
        for x in s.x:
            here = present[x]
            w = 0.8 / len(here)
            pos.append(cats.index(x) - 0.4 + w * (here.index(s.label) + 0.5))
            width.append(w)
        ax.bar(pos, s.y, width=width, yerr=_err(s), capsize=3, label=s.label, color=colours[i])
    _set_cat_ticks(ax, list(range(len(cats))), _cat_labels(cats, layout), layout)


def _hist(ax: Any, chart: Chart) -> None:
    """Each series a step line with its 95% CI as a band."""
    for s in chart.series:
        (line,) = ax.step(s.x, s.y, where="mid", lw=1.3, label=s.label)
        ax.fill_between(s.x, s.low, s.high, step="mid", alpha=0.25, color=line.get_color(), lw=0)


def _panels(chart: Chart, layout: Layout) -> Figure:
    """Small multiples: one panel per series, on shared axes, so that many lines never tangle."""
    k = len(chart.series)
    cols = min(4, k)
    rows = math.ceil(k / cols)
    fig = _new(max(layout.width, 2.6 * cols), 2.3 * rows + 1.6)
    axes = fig.subplots(rows, cols, sharex=True, sharey=True, squeeze=False)
    for i, ax in enumerate(axes.flat):
        if i >= k:
            ax.set_visible(False)
            continue
        _lines(ax, chart, [chart.series[i]], layout, colours=[f"C{i % 10}"])
        _levels(ax, chart)
        # wrapped to the panel's width: long series labels would run into the next panel's title
        ax.set_title(
            "\n".join(textwrap.wrap(chart.series[i].label, int(11 * fig.get_figwidth() / cols))), fontsize=9
        )
        ax.grid(True, alpha=0.3)
        ax.tick_params(labelsize=8, labelbottom=True)
    for ax in axes.flat:
        if ax.get_visible():
            _y_scale(ax, chart)
            _x_margin(ax, chart, layout)
    fig.supxlabel("\n".join(textwrap.wrap(chart.xlabel, 90)), fontsize=10)
    fig.supylabel("\n".join(textwrap.wrap(chart.ylabel, 45)), fontsize=10)
    fig.suptitle("\n".join(textwrap.wrap(chart.title, int(10 * fig.get_figwidth()))), fontsize=11)
    _caption(fig, chart, caption_of(chart, axes.flat[0]), layout)
    fig.tight_layout()
    return fig


def _heatmap(chart: Chart, layout: Layout) -> Figure:
    """One series per column (its position: the column), its x the rows; each cell's value in it."""
    rows = sorted({x for s in chart.series for x in s.x})
    grid = np.full((len(rows), len(chart.series)), np.nan)
    for j, s in enumerate(chart.series):
        for x, y in zip(s.x, s.y, strict=True):
            grid[rows.index(x), j] = y
    fig = _new(max(7.2, layout.width - 0.8), 6.2)
    ax = fig.subplots()
    im = ax.imshow(grid, origin="lower", cmap="RdBu", vmin=0, vmax=100, aspect="auto")
    if grid.shape[0] <= 12 and grid.shape[1] <= 12:
        for a in range(grid.shape[0]):
            for b in range(grid.shape[1]):
                if np.isfinite(grid[a, b]):
                    ax.text(b, a, f"{grid[a, b]:.0f}", ha="center", va="center", fontsize=8)
    ax.set_xlabel(chart.xlabel)
    ax.set_ylabel(chart.ylabel)
    ax.set_title("\n".join(textwrap.wrap(chart.title, 64)), fontsize=10)
    fig.colorbar(im, ax=ax, label=chart.value_label or chart.ylabel)
    _caption(fig, chart, caption_of(chart), Layout(width=7.2))
    fig.tight_layout()
    return fig


def _rows(chart: Chart, layout: Layout) -> Figure:
    """One row per point, each on its own scale (figures in different units), coloured by its series."""
    rows = [(s, i, f"C{k}") for k, s in enumerate(chart.series) for i in range(len(s.y))]
    fig = _new(max(11.0, layout.width), 0.8 * len(rows) + 1.6)  # room for a wrapped label and its ticks
    axes = fig.subplots(len(rows), 1, squeeze=False)
    for ax, (s, i, col) in zip(axes[:, 0], rows, strict=True):
        m, lo, hi = s.y[i], s.low[i], s.high[i]
        ref = s.ref[i] if i < len(s.ref) else None
        ax.errorbar([m], [0], xerr=[[m - lo], [hi - m]], fmt="o", color=col, capsize=4)
        pts = [lo, hi, m] + ([ref] if ref is not None else [])
        # an exact figure has no range: a fixed margin keeps its mark and ticks inside the frame
        span = max(max(pts) - min(pts), abs(m) * 0.05) * 0.15 or max(abs(m) * 0.01, 0.5)
        ax.set_xlim(min(pts) - span, max(pts) + span)
        ax.set_ylim(-1.0, 1.0)
        if ref is not None:
            ax.axvline(ref, color="#555555", lw=0.9, ls="--", zorder=0)
        ax.set_yticks([])
        ax.set_ylabel(
            "\n".join(textwrap.wrap(str(s.x[i]), 48)), rotation=0, ha="right", va="center", fontsize=7
        )
        ax.tick_params(axis="x", labelsize=7)
        ax.xaxis.set_major_locator(_few_ticks())
        ax.text(1.01, 0.5, s.label, transform=ax.transAxes, fontsize=7, color=col, va="center")
        for side in ("top", "right", "left"):
            ax.spines[side].set_visible(False)
    axes[-1, 0].set_xlabel(chart.xlabel, fontsize=8)
    fig.suptitle("\n".join(textwrap.wrap(chart.title, 90)), fontsize=9)
    _caption(fig, chart, caption_of(chart), Layout(width=10.0))
    fig.tight_layout(rect=(0.0, 0.0, 0.88, 1.0))
    return fig


def _few_ticks() -> Any:
    from matplotlib.ticker import MaxNLocator

    return MaxNLocator(nbins=4)


# ---- the image, checked ----------------------------------------------------------------------


def image_problems(fig: Figure) -> list[str]:
    """What is wrong with a drawn figure, measured on the image as matplotlib lays it out.

    ``overlap: ...``: two texts (titles, axis labels, tick labels, legend entries, annotations, the
    caption) whose boxes overlap; ``hidden: ...``: a legend entry whose series has nothing drawn, or
    every mark of it covered by another series' marks; ``outside: ...``: a mark (a point or a CI's end)
    that is not wholly inside its axes, so that the frame clips it; ``tangled: ...``: more than
    :data:`MAX_LINES` lines in one panel that cross one another more often than there are lines.
    """
    if not isinstance(fig.canvas, FigureCanvasAgg):
        FigureCanvasAgg(fig)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    out = _overlaps(fig, renderer)
    for ax in fig.axes:
        if not ax.get_visible() or ax.get_label() == "<colorbar>":
            continue
        out += _hidden(ax) + _outside(ax) + _tangled(ax)
    return out


def _texts(fig: Figure) -> list[tuple[str, Any]]:
    """Every drawn text with a name for it: (what it is, the Text artist)."""
    found: list[tuple[str, Any]] = []
    for name in ("_suptitle", "_supxlabel", "_supylabel"):
        t = getattr(fig, name, None)
        if t is not None:
            found.append((name.strip("_"), t))
    found += [("caption or figure text", t) for t in fig.texts]
    for leg in fig.legends:
        found += [("legend entry", t) for t in leg.get_texts()]
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        found += [("title", t) for t in (ax.title, ax._left_title, ax._right_title)]
        found += [("x label", ax.xaxis.label), ("y label", ax.yaxis.label)]
        for axis, which in ((ax.xaxis, "x"), (ax.yaxis, "y")):
            lo, hi = sorted(axis.get_view_interval())
            eps = 1e-9 * (hi - lo or 1.0)
            for tick in axis.get_major_ticks():
                if lo - eps <= tick.get_loc() <= hi + eps:
                    found += [
                        (f"{which} tick label", t) for t in (tick.label1, tick.label2) if t.get_visible()
                    ]
        found += [("annotation", t) for t in ax.texts]
        leg = ax.get_legend()
        if leg is not None:
            found += [("legend entry", t) for t in leg.get_texts()]
    return [(w, t) for w, t in found if t.get_visible() and t.get_text().strip()]


def _overlaps(fig: Figure, renderer: Any) -> list[str]:
    boxes = [(w, t, t.get_window_extent(renderer)) for w, t in _texts(fig)]
    out = []
    for i, (w1, t1, b1) in enumerate(boxes):
        for w2, t2, b2 in boxes[i + 1 :]:
            dx = min(b1.x1, b2.x1) - max(b1.x0, b2.x0)
            dy = min(b1.y1, b2.y1) - max(b1.y0, b2.y0)
            if dx > 1.0 and dy > 1.0 and t1 is not t2:
                out.append(f"overlap: {w1} {_short(t1)} and {w2} {_short(t2)}")
    return out


def _short(t: Any) -> str:
    s = " ".join(t.get_text().split())
    return repr(s if len(s) <= 30 else s[:27] + "...")


def _series_of(ax: Any) -> list[tuple[str, list]]:
    """Each legend entry (or, with no legend, each labelled series) and the artists drawn for it."""
    handles, labels = ax.get_legend_handles_labels()
    out = []
    for h, lab in zip(handles, labels, strict=True):
        parts = list(h.get_children()) if hasattr(h, "get_children") and not hasattr(h, "get_xydata") else [h]
        if hasattr(h, "lines"):  # an errorbar: its data line first
            parts = [p for p in (h.lines[0], *h.lines[1], *h.lines[2]) if p is not None]
        elif hasattr(h, "patches"):
            parts = list(h.patches)
        out.append((lab, parts))
    return out


def _drawn(artist: Any) -> bool:
    if not artist.get_visible():
        return False
    if hasattr(artist, "get_xydata"):
        return len(artist.get_xydata()) > 0
    if hasattr(artist, "get_height"):
        return True
    if hasattr(artist, "get_paths"):
        return len(artist.get_paths()) > 0
    return True


def _marks(line: Any) -> tuple[np.ndarray, float]:
    """A line's marks in display pixels and their radius (0 without markers)."""
    xy = line.get_transform().transform(np.asarray(line.get_xydata(), dtype=float))
    marker = line.get_marker()
    r = 0.0 if marker in (None, "", "None", " ", "none") else line.get_markersize() * line.figure.dpi / 72 / 2
    return xy, r


def _hidden(ax: Any) -> list[str]:
    if ax.get_legend() is None:
        return []
    entries = _series_of(ax)
    order = {id(a): i for i, a in enumerate(sorted(ax.get_children(), key=lambda a: a.get_zorder()))}
    out = []
    for lab, parts in entries:
        if not any(_drawn(p) for p in parts):
            out.append(f"hidden: the legend's {lab!r} has nothing drawn")
            continue
        line = parts[0]
        if not hasattr(line, "get_xydata") or not _drawn(line):
            continue
        xy, r = _marks(line)
        r = r or max(line.get_linewidth() * line.figure.dpi / 72, 1.0)
        above = []
        for other, oparts in entries:
            o = oparts[0]
            if other == lab or not hasattr(o, "get_xydata") or order.get(id(o), -1) < order.get(id(line), -1):
                continue
            oxy, orad = _marks(o)
            above.append((oxy, orad or max(o.get_linewidth() * o.figure.dpi / 72, 1.0)))
        # a mark is hidden when another series' mark, drawn over it, covers most of it; a line without
        # marks when all of it lies under another series
        covered = [any(np.any(np.hypot(*(oxy - p).T) + 0.5 * r <= orad) for oxy, orad in above) for p in xy]
        if covered and (all(covered) or (any(covered) and _marks(line)[1] > 0)):
            at = tuple(np.round(line.get_xydata()[covered.index(True)], 3).tolist())
            out.append(f"hidden: the legend's {lab!r}: its mark at {at} lies under another series' mark")
    return out


def _outside(ax: Any) -> list[str]:
    box = ax.get_window_extent()
    out = []
    for line in ax.get_lines():
        if not line.get_visible() or not len(line.get_xydata()):
            continue
        xy, r = _marks(line)
        if r == 0.0:
            continue
        ok = np.isfinite(xy).all(axis=1)
        xy = xy[ok]
        bad = (xy[:, 0] - r < box.x0 - 0.5) | (xy[:, 0] + r > box.x1 + 0.5)
        bad |= (xy[:, 1] - r < box.y0 - 0.5) | (xy[:, 1] + r > box.y1 + 0.5)
        if bad.any():
            what = line.get_label() if not line.get_label().startswith("_") else "a series"
            out.append(
                f"outside: a mark of {what!r} at pixel {tuple(np.round(xy[bad][0]))} crosses the axes' frame"
            )
    return out


def _tangled(ax: Any) -> list[str]:
    lines = [parts[0] for _, parts in _series_of(ax) if parts and hasattr(parts[0], "get_xydata")]
    lines = [ln for ln in lines if len(ln.get_xydata()) >= 2 and ln.get_linestyle() not in ("None", "", " ")]
    if len(lines) <= MAX_LINES:
        return []
    segs = [_segments(ln.get_transform().transform(np.asarray(ln.get_xydata(), dtype=float))) for ln in lines]
    crossings = sum(_crossings(a, b) for i, a in enumerate(segs) for b in segs[i + 1 :])
    if crossings > len(lines):
        return [f"tangled: {len(lines)} lines in one panel cross one another {crossings} times"]
    return []


def _segments(xy: np.ndarray) -> np.ndarray:
    return np.stack([xy[:-1], xy[1:]], axis=1)


def _crossings(a: np.ndarray, b: np.ndarray) -> int:
    """How many segments of two polylines properly cross (touching at an end does not count)."""
    n = 0
    for p1, p2 in a:
        for q1, q2 in b:
            d1 = _side(q1, q2, p1)
            d2 = _side(q1, q2, p2)
            d3 = _side(p1, p2, q1)
            d4 = _side(p1, p2, q2)
            if d1 * d2 < 0 and d3 * d4 < 0:
                n += 1
    return n


def _side(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> float:
    v = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return 0.0 if abs(v) < 1e-6 else v
