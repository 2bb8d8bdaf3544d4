"""An experiment's tables (pandas) and its files: summary.csv, paired.csv, report.md, charts."""

from __future__ import annotations

import contextlib
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from ..io import atomic_write
from ..stats import Estimate
from .figures import RATIOS, figure_unit
from .spec import Cell, Spec, fmt_value
from .tally import Tally

SUMMARY_COLUMNS = ["mean", "sd", "ci_low", "ci_high", "n"]


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


@dataclass
class ExperimentResult:
    """A finished experiment: tables as pandas DataFrames, findings as sentences."""

    spec: Spec
    tally: Tally
    seconds: float
    until_ci: float | None = None
    stopped: str = ""

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
                rows.append(
                    {
                        **base,
                        "figure": f,
                        "mean": e.mean,
                        "sd": e.sd,
                        "ci_low": e.low,
                        "ci_high": e.high,
                        "n": e.n,
                    }
                )
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
                    rows.append(
                        {
                            "cell": c.index,
                            "label": self.spec.cell_label(c),
                            "figure": f,
                            "value": v,
                            "count": k,
                        }
                    )
        return pd.DataFrame(rows, columns=["cell", "label", "figure", "value", "count"])

    def estimate(self, cell: int, figure: str) -> Estimate:
        return self.tally.estimate(cell, figure)

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
        from .studies import analyse

        return analyse(self)

    def findings(self) -> list[str]:
        return self.analysis().findings


def _match(spec: Spec, c: Cell, key: str, value: Any) -> bool:
    for a, v in c.coords:
        if key in (a, spec.label(a)) or key.replace("_", ".") == a:
            return fmt_value(v) == fmt_value(value)
    return False


@dataclass
class ChartSeries:
    label: str
    x: list[Any]
    y: list[float]
    low: list[float]
    high: list[float]


@dataclass
class Chart:
    """A chart described as data; :mod:`.charts` draws it."""

    name: str  # file stem
    title: str  # states the finding
    xlabel: str
    ylabel: str
    series: list[ChartSeries]
    kind: str = "lines"  # lines (error bars), bars (grouped, error bars), hist (step)
    zero_line: bool = False
    categorical: bool = False


@dataclass
class Analysis:
    findings: list[str]
    charts: list[Chart]
    tables: list[tuple[str, str]]  # (heading, markdown)


# ---- markdown ---------------------------------------------------------------


def md_table(df: pd.DataFrame) -> str:
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


def headline_table(result: ExperimentResult) -> pd.DataFrame:
    """Cells as rows, headline figures as ``mean [low, high]`` columns."""
    spec = result.spec
    rows = []
    for c in spec.cells:
        row: dict[str, Any] = {
            spec.label(a): fmt_value(c.value(a)) if c.value(a) is not None else "–" for a in spec.axes
        }
        for f in spec.headline:
            e = result.estimate(c.index, f)
            row[f] = f"{fmt_num(e.mean)} [{fmt_num(e.low)}, {fmt_num(e.high)}]"
        row["n"] = result.tally.games
        rows.append(row)
    return pd.DataFrame(rows)


def paired_table(result: ExperimentResult) -> pd.DataFrame:
    spec = result.spec
    rows = []
    for j, p in enumerate(spec.pairs):
        c = spec.cells[p.cell]
        row: dict[str, Any] = {"cell": spec.cell_label(c), "against": spec.cell_label(spec.cells[p.base])}
        for f in spec.headline:
            if f in RATIOS():
                continue
            e = result.tally.paired[j].estimate(f)
            row[f"Δ {f}"] = f"{fmt_num(e.mean)} [{fmt_num(e.low)}, {fmt_num(e.high)}]"
        rows.append(row)
    return pd.DataFrame(rows)


def _version() -> str:
    from .. import __version__

    return __version__


def render_report(result: ExperimentResult, analysis: Analysis, chart_files: list[tuple[str, str]]) -> str:
    spec = result.spec
    total = result.tally.games * len(spec.cells)
    lines = [f"# {spec.title}", ""]
    if spec.question:
        lines += [spec.question.strip(), ""]
    lines += ["## What was run", ""]
    src = f"`{spec.source}`" if spec.source else "a spec given as data"
    lines.append(f"- Spec: {src}; game `{spec.game}`; seed {spec.seed}; whistsim {_version()}.")
    base = ", ".join(f"{k}={fmt_value(v)}" for k, v in spec.rules.items()) or "the game's defaults"
    lines.append(f"- Base rules: {base}. Players: {_seats_text(spec)}.")
    if spec.axes:
        for a in spec.axes:
            values = []
            for g in spec.grids:
                for v in g.get(a, []):
                    if fmt_value(v) not in values:
                        values.append(fmt_value(v))
            lines.append(f"- Sweep `{a}` ({spec.label(a)}): {', '.join(values)}.")
        if len(spec.grids) > 1:
            lines.append(f"- The cells are the union of {len(spec.grids)} grids: {len(spec.cells)} cells.")
    first = (
        "rotates with the game index (each seat moves first equally often)"
        if spec.first == "rotate"
        else f"is seat {spec.first}"
    )
    lines.append(
        f"- {result.tally.games:,} games per cell, {len(spec.cells)} cells, {total:,} games in all, "
        f"in {result.tally.chunks} chunk(s) of up to {spec.chunk:,}; the first player {first}."
    )
    if result.until_ci is not None:
        lines.append(f"- Stopping rule `--until-ci {result.until_ci:g}`: {result.stopped}.")
    if spec.pairs:
        axes = sorted({spec.label(p.axis) for p in spec.pairs})
        lines.append(
            f"- Paired comparisons against the baseline of {', '.join(axes)}: cells share decks for a seed, "
            "so each difference is taken game by game on identical deals."
        )
    lines.append(f"- Wall time {result.seconds:.1f} s ({total / max(result.seconds, 1e-9):,.0f} games/s).")
    lines.append("- Every figure is a mean over games with its 95% confidence interval and n.")
    lines += ["", "## Findings", ""]
    lines += [f"- {s}" for s in analysis.findings] or ["- (no headline figures were named)"]
    if chart_files:
        lines += ["", "## Charts", ""]
        for title, rel in chart_files:
            lines += [f"![{title}]({rel})", ""]
    for heading, table in analysis.tables:
        lines += ["", f"## {heading}", "", table]
    if spec.headline:
        lines += ["", "## Headline figures per cell", "", "Mean [95% CI]; n games per cell.", ""]
        lines.append(md_table(headline_table(result)))
    if spec.pairs and any(f not in RATIOS() for f in spec.headline):
        lines += [
            "",
            "## Paired differences",
            "",
            "Cell minus its baseline, game by game on the same deals: mean [95% CI].",
            "",
        ]
        lines.append(md_table(paired_table(result)))
    lines += ["", "## Files", "", "- `summary.csv`: every figure of every cell (mean, sd, 95% CI, n)."]
    if spec.pairs:
        lines.append("- `paired.csv`: paired differences against the baseline.")
    if spec.histograms:
        lines.append(
            "- `histograms.csv`: the whole distribution of "
            + ", ".join(f"`{h}`" for h in spec.histograms)
            + "."
        )
    lines += ["", f"Figures: {_glossary(spec)}", ""]
    return "\n".join(lines)


def _seats_text(spec: Spec) -> str:
    parts = []
    if "all" in spec.seats:
        parts.append(f"every seat `{spec.seats['all']}`")
    for k, v in spec.seats.items():
        if k != "all":
            parts.append(f"seat {k} `{v}`")
    return "; ".join(parts) or "`random` in every seat"


def _glossary(spec: Spec) -> str:
    names = list(dict.fromkeys(spec.headline + spec.histograms))
    return (
        "; ".join(f"`{f}` in {figure_unit(f)}" for f in names) + "."
        if names
        else "see whistsim.experiments.figures."
    )


# ---- files -------------------------------------------------------------------


def write_csv(df: pd.DataFrame, path: Path) -> None:
    with atomic_write(path) as f:
        df.to_csv(f, index=False)


def write_outputs(result: ExperimentResult, out_dir: str | os.PathLike) -> Path:
    """summary.csv, paired.csv, histograms.csv, charts/*.png and report.md, each written atomically."""
    from .charts import draw

    out = Path(out_dir)
    analysis = result.analysis()
    write_csv(result.summary(), out / "summary.csv")
    if result.spec.pairs:
        write_csv(result.paired(), out / "paired.csv")
    if result.spec.histograms:
        write_csv(result.histograms(), out / "histograms.csv")
    chart_files = []
    made = set()
    for chart in analysis.charts:
        path = out / "charts" / f"{chart.name}.png"
        draw(chart, path)
        made.add(path.name)
        chart_files.append((chart.title, f"charts/{path.name}"))
    charts_dir = out / "charts"
    if charts_dir.is_dir():
        for old in charts_dir.glob("*.png"):
            if old.name not in made:
                with contextlib.suppress(OSError):
                    old.unlink()
    with atomic_write(out / "report.md") as f:
        f.write(render_report(result, analysis, chart_files))
    return out


def write_rows(spec: Spec, out_dir: Path, k: int, rows: list[dict]) -> Path:
    """Per-game figures of chunk k, every cell, as one Parquet file of a dataset."""
    frames = []
    for cell, cols in zip(spec.cells, rows, strict=True):
        df = pd.DataFrame({k2: v for k2, v in cols.items()})
        df.insert(0, "cell", cell.index)
        frames.append(df)
    table = pd.concat(frames, ignore_index=True)
    path = out_dir / "rows" / f"chunk-{k:06d}.parquet"
    with atomic_write(path, "wb") as f:
        table.to_parquet(f, index=False)
    return path


@dataclass
class LoadedResults:
    """Tables of a finished run read back from ``results/NAME/``."""

    summary: pd.DataFrame
    paired: pd.DataFrame | None
    histograms: pd.DataFrame | None
    report: str


def load_results(path: str | os.PathLike) -> LoadedResults:
    from ..options import WhistsimError

    p = Path(path)
    if not (p / "summary.csv").is_file():
        raise WhistsimError(f"{p} holds no finished experiment (no summary.csv)")

    def opt(name: str) -> pd.DataFrame | None:
        return pd.read_csv(p / name) if (p / name).is_file() else None

    report = (p / "report.md").read_text(encoding="utf-8") if (p / "report.md").is_file() else ""
    return LoadedResults(pd.read_csv(p / "summary.csv"), opt("paired.csv"), opt("histograms.csv"), report)
