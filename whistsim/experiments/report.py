"""An experiment's files: summary.csv, paired.csv, histograms.csv, report.md and charts.

The writers: they read a finished :class:`ExperimentResult` and its reading
(findings, charts, tables), draw the charts (:mod:`.charts`) and write each
file atomically. Only the run (:mod:`.run`) sits above them.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

import pandas as pd

from ..io import atomic_write
from .charts import draw
from .figures import figure_unit
from .reading import differenced
from .results import Analysis, ExperimentResult, LoadedResults, fmt_num, load_results, md_table
from .spec import Spec, fmt_value

# Kept here for the modules that import them from the report.
__all__ = ["ExperimentResult", "LoadedResults", "fmt_num", "load_results", "md_table", "write_outputs"]


def headline_table(result: ExperimentResult) -> pd.DataFrame:
    """Cells as rows, headline figures as ``mean [low, high]`` columns."""
    spec = result.spec
    rows = []
    for c in spec.cells:
        row: dict[str, Any] = {
            spec.label(a): fmt_value(c.value(a)) if c.value(a) is not None else "–" for a in spec.axes
        }
        for f in spec.headline:
            e = result.reported(c.index, f)
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
        for f in differenced(spec):
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
        lines += [
            "",
            "## Headline figures per cell",
            "",
            "Mean [95% CI; for a share of games, Wilson's]; n games per cell.",
            "",
        ]
        lines.append(md_table(headline_table(result)))
    if spec.pairs and differenced(spec):
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
        "; ".join(f"`{f}` in {figure_unit(spec.game, f)}" for f in names) + "."
        if names
        else "see whistsim.experiments.figures."
    )


# ---- files -------------------------------------------------------------------


def write_csv(df: pd.DataFrame, path: Path) -> None:
    with atomic_write(path) as f:
        df.to_csv(f, index=False)


MANIFEST = ".whistsim-charts"  # the charts a study wrote into charts/, one name a line


def _manifest(path: Path) -> set[str]:
    """Chart names listed in ``path``: plain ``*.png`` names only, so a tampered list deletes nothing else."""
    try:
        names = path.read_text(encoding="utf-8").split("\n")
    except (OSError, UnicodeDecodeError):
        return set()
    return {n for n in names if n.endswith(".png") and "/" not in n and not n.startswith(".")}


def write_outputs(result: ExperimentResult, out_dir: str | os.PathLike) -> Path:
    """summary.csv, paired.csv, histograms.csv, charts/*.png and report.md, each written atomically."""
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
    # Remove only the charts this study wrote before (its manifest), never a file of someone else's.
    manifest = charts_dir / MANIFEST
    for old in _manifest(manifest) - made:
        with contextlib.suppress(OSError):
            (charts_dir / old).unlink()
    if made or manifest.exists():
        with atomic_write(manifest) as f:
            f.write("".join(f"{name}\n" for name in sorted(made)))
    with atomic_write(out / "report.md") as f:
        f.write(render_report(result, analysis, chart_files))
    return out
