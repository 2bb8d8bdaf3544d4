"""What an experiment yields: tallies that merge chunk by chunk, and the result read from them.

The bottom of the experiments package: a :class:`Tally` holds, per cell,
streaming moments of every figure, co-moments for ratio figures and integer
histograms (of a figure's values, or of joint codes: :class:`Code`); per paired comparison, moments of the per-game differences.
Merging tallies in chunk order gives the same floating-point result however
the chunks were computed (one process, a resumed run or a Dask cluster), and
tallies round-trip through JSON exactly. An :class:`ExperimentResult` reads
a finished tally as tables; findings and charts are described as data here
(:class:`Analysis`, :class:`Chart`) and made by the modules above.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..core.options import WhistsimError
from ..core.stats import Estimate, Moments, Share, exact_dot, exact_sums, to_float, wilson
from .figures import is_share
from .spec import Cell, Spec, fmt_value


class CoMoments:
    """Exact sums of a pair (x, y) and of their squares and product: for ratios of means."""

    __slots__ = ("n", "sx", "sy", "sxx", "syy", "sxy")

    def __init__(self, n: int = 0, sx=0, sy=0, sxx=0, syy=0, sxy=0):
        self.n, self.sx, self.sy, self.sxx, self.syy, self.sxy = n, sx, sy, sxx, syy, sxy

    @classmethod
    def of(cls, x: np.ndarray, y: np.ndarray) -> CoMoments:
        x, y = np.asarray(x).ravel(), np.asarray(y).ravel()
        if x.size == 0:
            return cls()
        sx, sxx = exact_sums(x)
        sy, syy = exact_sums(y)
        sxy = exact_dot(x, y) if not isinstance(sx, float) and not isinstance(sy, float) else math.nan
        return cls(int(x.size), sx, sy, sxx, syy, sxy)

    def merge(self, o: CoMoments) -> None:
        self.n += o.n
        self.sx += o.sx
        self.sy += o.sy
        self.sxx += o.sxx
        self.syy += o.syy
        self.sxy += o.sxy

    def ratio(self) -> Estimate:
        """mean(y) / mean(x) with a delta-method sd: the CI is mean ± t * sd / sqrt(n)."""
        if self.n < 2 or self.sx == 0 or any(isinstance(v, float) for v in (self.sx, self.sy, self.sxy)):
            return Estimate(math.nan, math.nan, self.n)
        n = self.n
        r = Fraction(self.sy) / self.sx
        cxx = Fraction(self.sxx) - Fraction(self.sx) * self.sx / n
        cyy = Fraction(self.syy) - Fraction(self.sy) * self.sy / n
        cxy = Fraction(self.sxy) - Fraction(self.sx) * self.sy / n
        var = (cyy - 2 * r * cxy + r * r * cxx) / (n - 1)
        mx = Fraction(self.sx) / n
        return Estimate(to_float(r), math.sqrt(max(to_float(var), 0.0)) / abs(to_float(mx)), n)

    def to_json(self) -> list:
        return [self.n, *(_exact_to_json(v) for v in (self.sx, self.sy, self.sxx, self.syy, self.sxy))]

    @classmethod
    def from_json(cls, v: list) -> CoMoments:
        if not isinstance(v, list) or len(v) != 6:
            raise ValueError("a ratio's sums must be a list of 6")
        return cls(_count(v[0]), *(_exact_from_json(x) for x in v[1:]))


def _exact_to_json(v: int | Fraction | float) -> int | str | None:
    """An exact sum in JSON: an integer, ``"p/q"`` for a fraction, null for NaN."""
    if isinstance(v, float):
        return None
    if isinstance(v, Fraction):
        return v.numerator if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
    return int(v)


_FRACTION = re.compile(r"-?[0-9]+/[0-9]+")  # never '1e999999', which Fraction would expand


def _exact_from_json(v: Any) -> int | Fraction | float:
    if v is None:
        return math.nan
    if isinstance(v, int) and not isinstance(v, bool):
        return v
    if isinstance(v, str) and len(v) < 10_000 and _FRACTION.fullmatch(v):
        return Fraction(v)
    raise ValueError(f"an exact sum must be an integer or 'p/q', not {_short(v)}")


def _short(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def _count(v: Any) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or v < 0:
        raise ValueError(f"a count must be an integer >= 0, not {_short(v)}")
    return v


MAX_CODE_BITS = 1024  # a histogram's value: an integer, or a joint code (Code) of at most this many bits


def _int(v: Any) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or v.bit_length() > MAX_CODE_BITS:
        raise ValueError(f"a histogram's value must be an integer, not {_short(v)}")
    return v


class Code(int):
    """A per-game figure that is one joint code of several values (a deal's points, side by side and part
    by part), often wider than 64 bits: held in numpy object arrays, kept whole in histograms. Like
    numpy's own integers it gives its value by ``item()``, as the figures' exact sums read it."""

    __slots__ = ()

    def item(self) -> int:
        return int(self)


def _list(v: Any, what: str, length: int | None = None) -> list:
    if not isinstance(v, list) or (length is not None and len(v) != length):
        raise ValueError(f"{what} must be a list" + (f" of {length}" if length is not None else ""))
    return v


def _object(v: Any, what: str) -> dict:
    if not isinstance(v, dict):
        raise ValueError(f"{what} must be an object")
    return v


def moments_to_json(m: Moments) -> dict[str, list]:
    return {k: [m.n[k], _exact_to_json(m.s1[k]), _exact_to_json(m.s2[k])] for k in m.n}


def moments_from_json(d: dict[str, list]) -> Moments:
    m = Moments()
    for k, v in _object(d, "moments").items():
        v = _list(v, f"moments of {_short(k)}", 3)
        m.n[k], m.s1[k], m.s2[k] = _count(v[0]), _exact_from_json(v[1]), _exact_from_json(v[2])
    return m


def hist_from_json(v: Any) -> dict[int, int]:
    """``[[value, count], ...]`` in increasing order of value, every count at least 1."""
    out: dict[int, int] = {}
    last = None
    for pair in _list(v, "a histogram"):
        value, count = _list(pair, "a histogram's entry", 2)
        value, count = _int(value), _count(count)
        if count == 0 or (last is not None and value <= last):
            raise ValueError("a histogram's values must increase, each counted at least once")
        out[value], last = count, value
    return out


def merge_hist(into: dict[int, int], other: dict[int, int]) -> None:
    for v, c in other.items():
        into[v] = into.get(v, 0) + c


def hist_of(x: np.ndarray) -> dict[int, int]:
    """Each value's count; the values are rounded to integers, or are joint codes (:class:`Code`)."""
    x = np.asarray(x)
    if x.dtype == object:  # joint codes: Python integers of any width
        if any(v.bit_length() > MAX_CODE_BITS for v in x.ravel()):
            raise ValueError(f"a joint code wider than {MAX_CODE_BITS} bits")
        values, counts = np.unique(x, return_counts=True)
        return {int(v): int(c) for v, c in zip(values, counts, strict=True)}
    values, counts = np.unique(np.rint(x).astype(np.int64), return_counts=True)
    return {int(v): int(c) for v, c in zip(values, counts, strict=True)}


@dataclass
class Tally:
    """Summaries of some chunks of an experiment (all of it once every chunk is merged)."""

    cells: list[Moments]
    ratios: list[dict[str, CoMoments]]
    hists: list[dict[str, dict[int, int]]]
    paired: list[Moments]
    games: int = 0  # games per cell
    chunks: int = 0
    extra: dict = field(default_factory=dict)
    # Per cell dealt under a constraint: [deals played, deals drawn to deal them] (the kernel's count);
    # [0, 0] for a cell dealt without one.
    drawn: list[list[int]] = field(default_factory=list)

    @classmethod
    def empty(cls, n_cells: int, n_pairs: int) -> Tally:
        return cls([Moments() for _ in range(n_cells)], [{} for _ in range(n_cells)],
                   [{} for _ in range(n_cells)], [Moments() for _ in range(n_pairs)],
                   drawn=[[0, 0] for _ in range(n_cells)])  # fmt: skip

    def drawn_per_deal(self, cell: int) -> float | None:
        """Deals drawn per deal played in ``cell`` under its constraint (None: none played under one)."""
        played, drawn = self.drawn[cell] if cell < len(self.drawn) else (0, 0)
        return drawn / played if played else None

    def merge(self, o: Tally) -> None:
        for a, b in zip(self.cells, o.cells, strict=True):
            a.merge(b)
        for a, b in zip(self.ratios, o.ratios, strict=True):
            for k, v in b.items():
                a.setdefault(k, CoMoments()).merge(v)
        for a, b in zip(self.hists, o.hists, strict=True):
            for k, v in b.items():
                merge_hist(a.setdefault(k, {}), v)
        for a, b in zip(self.paired, o.paired, strict=True):
            a.merge(b)
        if len(self.drawn) < len(o.drawn):
            self.drawn += [[0, 0] for _ in range(len(o.drawn) - len(self.drawn))]
        for a, b in zip(self.drawn, o.drawn, strict=False):
            a[0] += b[0]
            a[1] += b[1]
        self.games += o.games
        self.chunks += o.chunks

    def estimate(self, cell: int, figure: str) -> Estimate:
        if figure in self.ratios[cell]:
            return self.ratios[cell][figure].ratio()
        return self.cells[cell].estimate(figure)

    def to_json(self) -> dict:
        return {
            "games": self.games,
            "chunks": self.chunks,
            "cells": [moments_to_json(m) for m in self.cells],
            "ratios": [{k: v.to_json() for k, v in r.items()} for r in self.ratios],
            "hists": [
                {k: [[v, c] for v, c in sorted(h.items())] for k, h in hs.items()} for hs in self.hists
            ],
            "paired": [moments_to_json(m) for m in self.paired],
            "drawn": [list(d) for d in self.drawn],
        }

    KEYS = ("games", "chunks", "cells", "ratios", "hists", "paired", "drawn")

    @classmethod
    def from_json(cls, d: dict) -> Tally:
        """The tally ``to_json`` wrote; ValueError naming the first part of the wrong type or shape."""
        d = _object(d, "a tally")
        if sorted(d) != sorted(cls.KEYS):
            raise ValueError(f"a tally has the keys {', '.join(cls.KEYS)}, not {_short(sorted(d))}")
        cells, ratios = _list(d["cells"], "cells"), _list(d["ratios"], "ratios")
        hists, paired = _list(d["hists"], "hists"), _list(d["paired"], "paired")
        drawn = [[_count(x) for x in _list(d, "a cell's deals played and drawn", 2)]
                 for d in _list(d["drawn"], "drawn")]  # fmt: skip
        if not len(cells) == len(ratios) == len(hists) == len(drawn):
            raise ValueError("cells, ratios, hists and drawn must be lists of one entry per cell")
        if any(x[1] < x[0] for x in drawn):
            raise ValueError("a cell drew fewer deals than it played")
        return cls(
            [moments_from_json(m) for m in cells],
            [{k: CoMoments.from_json(v) for k, v in _object(r, "ratios").items()} for r in ratios],
            [{k: hist_from_json(h) for k, h in _object(hs, "hists").items()} for hs in hists],
            [moments_from_json(m) for m in paired],
            _count(d["games"]),
            _count(d["chunks"]),
            drawn=drawn,
        )


# ---- a finished experiment ----------------------------------------------------


def fmt_num(x: float) -> str:
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "–"
    if float(x).is_integer() and abs(x) < 1e15:
        return f"{int(x):,}"
    a = abs(x)
    if a >= 1000:
        return f"{x:,.0f}"
    if a >= 100:
        return f"{x:.1f}"
    if a >= 1:
        return f"{x:.2f}"
    return f"{x:.3f}"


def fmt_est(e: Estimate, unit: str = "") -> str:
    """``3.21 points (95% CI 2.95 to 3.47, n=40,000)``."""
    u = f" {unit}" if unit else ""
    if e.n < 2 or not math.isfinite(e.half_width):
        return f"{fmt_num(e.mean)}{u} (n={e.n:,})"
    return f"{fmt_num(e.mean)}{u} (95% CI {fmt_num(e.low)} to {fmt_num(e.high)}, n={e.n:,})"


def md_table(df: pd.DataFrame) -> str:
    """A DataFrame as a markdown table, numbers as :func:`fmt_num` writes them."""
    cols = [str(c) for c in df.columns]
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for row in df.itertuples(index=False):
        cells = []
        for v in row:
            if isinstance(v, float):
                cells.append(fmt_num(v))
            elif isinstance(v, int) and not isinstance(v, bool):
                cells.append(f"{v:,}")
            else:
                cells.append(str(v).replace("|", "\\|"))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


@dataclass
class ChartSeries:
    label: str
    x: list[Any]
    y: list[float]
    low: list[float]
    high: list[float]
    ref: list[float | None] = field(default_factory=list)  # kind "rows": each row's own reference value


@dataclass
class Chart:
    """A chart described as data; :mod:`.charts` draws it (and writes this data beside it as JSON).

    The standard (docs/reports.md): the title states the finding in words, the axes name what they
    show and its unit, every point has its 95% CI, at most six charts a study.
    """

    name: str  # file stem
    title: str  # states the finding
    xlabel: str
    ylabel: str
    series: list[ChartSeries]
    # lines (error bars), bars (grouped, error bars), hist (step, CI band), heatmap (one series a column,
    # its x the rows), rows (one row per point on its own scale, e.g. claims in different units)
    kind: str = "lines"
    zero_line: bool = False
    categorical: bool = False
    caption: str = ""  # under the chart and the report's image: what the marks are, a scale's reason
    reference: float | None = None  # a level drawn dashed across the chart, e.g. a fair share
    reference_label: str = ""  # its legend entry
    include_zero: bool = True  # the y axis reaches 0, so that a small change does not look large
    # Who played and how many games make each point, in words a player reads ("rule-based players
    # (heuristic) at every seat"; "n=40,000 deals a point"): the framework fills both from the run
    # (charts.from_run) where a study leaves them empty, and refuses a chart without them.
    n: str = ""
    players: str = ""
    panels: bool = False  # kind "lines": one small chart per series (the framework also chooses it)
    value_label: str = ""  # kind "heatmap": what the colours are, with its unit


MAX_FINDINGS = 6  # a report opens with at most six findings
MAX_CHARTS = 6  # and draws at most six charts


@dataclass
class Analysis:
    """A reading of a result: findings as sentences (at most six, most important first), charts as data,
    extra tables; ``appendix``: sentences kept at the end of the report; ``shares``: ratio figures the
    study knows to lie in [0, 1] (e.g. a share of false passes), reported with Wilson's interval;
    ``files``: the study's own tables as CSV files, ``tables/NAME.csv`` (name, what it holds, frame);
    ``method``: how the study computes its figures, lines added to "What was run"."""

    findings: list[str]
    charts: list[Chart]
    tables: list[tuple[str, str]]  # (heading, markdown)
    appendix: list[str] = field(default_factory=list)
    shares: frozenset[str] = frozenset()
    files: list[tuple[str, str, Any]] = field(default_factory=list)
    method: list[str] = field(default_factory=list)


class RatioShare(Estimate):
    """A ratio of means that is a share (in [0, 1]): Wilson's interval at the effective number of trials
    that gives its delta-method standard error, so it stays inside [0, 1]; ``n`` is still the games."""

    @classmethod
    def of(cls, e: Estimate) -> RatioShare:
        return cls(e.mean, e.sd, e.n)

    def _bounds(self) -> tuple[float, float]:
        p = self.mean
        if self.n < 2 or not math.isfinite(p) or not math.isfinite(self.sd):
            return math.nan, math.nan
        var = self.sd * self.sd / self.n
        n_eff = p * (1 - p) / var if var > 0 and 0 < p < 1 else self.n
        return wilson(min(max(p, 0.0), 1.0), max(n_eff, 1.0))

    @property
    def low(self) -> float:
        return self._bounds()[0]

    @property
    def high(self) -> float:
        return self._bounds()[1]

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2


@dataclass
class ExperimentResult:
    """A finished experiment: tables as pandas DataFrames, findings as sentences."""

    spec: Spec
    tally: Tally
    seconds: float
    until_ci: float | None = None
    stopped: str = ""
    # The reading of the result (the spec's study and the generic findings); the runner gives it.
    reader: Callable[[ExperimentResult], Analysis] | None = field(default=None, repr=False, compare=False)

    @property
    def games(self) -> int:
        """Games per cell."""
        return self.tally.games

    def _axis_columns(self, cell: Cell) -> dict[str, Any]:
        return {self.spec.label(a): cell.value(a) for a in self.spec.axes}

    def summary(self) -> pd.DataFrame:
        """One row per cell and figure: mean, sd, 95% CI and n."""
        rows = []
        for c in self.spec.cells:
            base = {"cell": c.index, "label": self.spec.cell_label(c), **self._axis_columns(c)}
            names = list(self.tally.cells[c.index].names()) + list(self.tally.ratios[c.index])
            for f in names:
                e = self.tally.estimate(c.index, f)
                rows.append({**base, "figure": f, "mean": e.mean, "sd": e.sd, "ci_low": e.low,
                             "ci_high": e.high, "n": e.n})  # fmt: skip
        return pd.DataFrame(rows)

    def paired(self) -> pd.DataFrame:
        """Per-game differences (cell minus baseline, same games), per headline figure."""
        rows = []
        for j, p in enumerate(self.spec.pairs):
            c, b = self.spec.cells[p.cell], self.spec.cells[p.base]
            for f in self.tally.paired[j].names():
                e = self.tally.paired[j].estimate(f)
                rows.append({
                    "cell": c.index, "label": self.spec.cell_label(c), "baseline_cell": b.index,
                    "baseline": self.spec.cell_label(b), "axis": self.spec.label(p.axis), **self._axis_columns(c),
                    "figure": f, "mean": e.mean, "sd": e.sd, "ci_low": e.low, "ci_high": e.high, "n": e.n,
                })  # fmt: skip
        return pd.DataFrame(rows)

    def histograms(self) -> pd.DataFrame:
        """Counts of each value of the figures listed under ``histograms``."""
        rows = []
        for c in self.spec.cells:
            for f, h in self.tally.hists[c.index].items():
                for v, k in sorted(h.items()):
                    rows.append({"cell": c.index, "label": self.spec.cell_label(c), "figure": f, "value": v,
                                 "count": k})  # fmt: skip
        return pd.DataFrame(rows, columns=["cell", "label", "figure", "value", "count"])

    def estimate(self, cell: int, figure: str) -> Estimate:
        """The mean of a figure in a cell, with its t interval (a ratio: delta method)."""
        return self.tally.estimate(cell, figure)

    def reported(self, cell: int, figure: str, shares: frozenset[str] = frozenset()) -> Estimate:
        """The estimate as reports give it: a share (of games or deals; or a ratio named in ``shares``)
        with Wilson's interval, inside [0, 1]."""
        e = self.estimate(cell, figure)
        if figure in shares:
            return RatioShare.of(e)
        return Share.of(e) if is_share(self.spec.game, figure) else e

    def difference(
        self, cell: int, figure: str, axis: str | None = None, against: Any = None
    ) -> tuple[Estimate, Cell] | None:
        """The paired difference of ``cell`` against its (first, or ``against``) baseline, with that baseline."""
        for j, p in enumerate(self.spec.pairs):
            if p.cell != cell or (axis is not None and p.axis != axis):
                continue
            base = self.spec.cells[p.base]
            if against is not None and fmt_value(base.value(p.axis)) != fmt_value(against):
                continue
            return self.tally.paired[j].estimate(figure), base
        return None

    def cell(self, **coords: Any) -> Cell:
        """The cell with these axis values, by label or path: ``result.cell(challenge="parlett")``."""
        out = [c for c in self.spec.cells if all(_match(self.spec, c, k, v) for k, v in coords.items())]
        if len(out) != 1:
            raise KeyError(f"{len(out)} cells match {coords}")
        return out[0]

    def analysis(self) -> Analysis:
        """The spec's own study (if any), then the generic reading."""
        return self.reader(self) if self.reader is not None else Analysis([], [], [])

    def findings(self) -> list[str]:
        return self.analysis().findings


def _match(spec: Spec, c: Cell, key: str, value: Any) -> bool:
    for a, v in c.coords:
        if key in (a, spec.label(a)) or key.replace("_", ".") == a:
            return fmt_value(v) == fmt_value(value)
    return False


@dataclass
class LoadedResults:
    """Tables of a finished run read back from ``results/NAME/``: methods, as on every result."""

    summary_table: pd.DataFrame
    paired_table: pd.DataFrame | None
    histograms_table: pd.DataFrame | None
    report: str

    def summary(self) -> pd.DataFrame:
        return self.summary_table

    def paired(self) -> pd.DataFrame | None:
        return self.paired_table

    def histograms(self) -> pd.DataFrame | None:
        return self.histograms_table


def load_results(path: str | os.PathLike) -> LoadedResults:
    """The tables of a finished ``whistsim experiment`` run, read back from its folder.

    >>> import whistsim
    >>> res = whistsim.load_results("results/five_penalty")
    >>> res.summary().columns.tolist()[-5:]   # every figure of every cell: mean, sd, 95% CI, n
    ['mean', 'sd', 'ci_low', 'ci_high', 'n']
    """
    p = Path(path)
    if not (p / "summary.csv").is_file():
        raise WhistsimError(f"{p} holds no finished experiment (no summary.csv)")

    def opt(name: str) -> pd.DataFrame | None:
        return pd.read_csv(p / name) if (p / name).is_file() else None

    report = (p / "report.md").read_text(encoding="utf-8") if (p / "report.md").is_file() else ""
    return LoadedResults(pd.read_csv(p / "summary.csv"), opt("paired.csv"), opt("histograms.csv"), report)
