"""An experiment's files: summary.csv, paired.csv, histograms.csv, report.md and charts.

The writers: they read a finished :class:`ExperimentResult` and its reading
(findings, charts, tables), draw the charts (:mod:`.charts`) and write each
file atomically. Only the run (:mod:`.run`) sits above them.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from ..core.io import atomic_write
from .charts import ChartError, draw, from_run, sidecar
from .figures import figure_label, figure_name, figure_unit
from .reading import axis_name, cell_text, differenced, study, value_words
from .results import (
    MAX_CHARTS,
    MAX_FINDINGS,
    Analysis,
    Chart,
    ExperimentResult,
    LoadedResults,
    fmt_num,
    load_results,
    md_table,
)
from .spec import Spec, fmt_value

# Kept here for the modules that import them from the report.
__all__ = ["ExperimentResult", "LoadedResults", "fmt_num", "load_results", "md_table", "write_outputs"]


def headline_table(result: ExperimentResult, shares: frozenset[str] = frozenset()) -> pd.DataFrame:
    """Cells as rows, headline figures as ``mean [low, high]`` columns headed by name and unit."""
    spec = result.spec
    rows = []
    for c in spec.cells:
        row: dict[str, Any] = {
            axis_name(spec, a): value_words(a, c.value(a)) if c.value(a) is not None else "–"
            for a in spec.axes
        }
        for f in spec.headline:
            e = result.reported(c.index, f, shares)
            row[_label(spec, f)] = f"{fmt_num(e.mean)} [{fmt_num(e.low)}, {fmt_num(e.high)}]"
        row["n (games)"] = result.tally.games
        rows.append(row)
    return pd.DataFrame(rows)


def paired_table(result: ExperimentResult) -> pd.DataFrame:
    spec = result.spec
    rows = []
    for j, p in enumerate(spec.pairs):
        c = spec.cells[p.cell]
        row: dict[str, Any] = {"cell": cell_text(spec, c), "against": cell_text(spec, spec.cells[p.base])}
        for f in differenced(spec):
            e = result.tally.paired[j].estimate(f)
            row[f"change in {figure_label(spec.game, f)}"] = (
                f"{fmt_num(e.mean)} [{fmt_num(e.low)}, {fmt_num(e.high)}]"
            )
        rows.append(row)
    return pd.DataFrame(rows)


def _version() -> str:
    from .._version import __version__

    return __version__


# Every report links the reader's guide near its top (results/NAME/report.md -> docs/reports.md).
HOW_TO_READ = (
    "*How to read this report (95% intervals, n, paired deals, comparisons adjusted for their number, "
    "the players): [docs/reports.md](../../docs/reports.md#how-to-read-this).*"
)


def render_report(
    result: ExperimentResult, analysis: Analysis, chart_files: list[tuple[str, str]] | list[tuple[str, str, str]],
    left_out: list[str] | None = None,
) -> str:  # fmt: skip
    """report.md: the title and question, then Findings (at most six), What was run, the charts, the
    study's tables, and an appendix with every cell's headline figures (docs/reports.md)."""
    spec = result.spec
    total = result.tally.games * len(spec.cells)
    lines = [f"# {spec.title}", "", HOW_TO_READ, ""]
    if spec.question:
        lines += [spec.question.strip(), ""]
    lines += ["## Findings", ""]
    lines += [f"- {s}" for s in analysis.findings[:MAX_FINDINGS]] or ["- (no headline figures were named)"]
    lines += ["", "## What was run", ""]
    src = f"`{spec.source}`" if spec.source else "a spec given as data"
    games = spec.games()
    played = f"game `{games[0]}`" if len(games) == 1 else "games " + ", ".join(f"`{g}`" for g in games)
    lines.append(f"- Spec: {src}; {played}; seed {spec.seed}; whistsim {_version()}.")
    base = ", ".join(f"{k}={fmt_value(v)}" for k, v in spec.rules.items()) or "the game's defaults"
    lines.append(f"- Base rules: {base}. Players: {_seats_text(spec)}.")
    if spec.axes:
        for a in spec.axes:
            values = []
            for g in spec.grids:
                for v in g.get(a, []):
                    if fmt_value(v) not in values:
                        values.append(fmt_value(v))
            lines.append(f"- Swept: {axis_name(spec, a)} (`{a}`): {', '.join(values)}.")
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
        axes = sorted({axis_name(spec, p.axis) for p in spec.pairs})
        lines.append(
            f"- Paired comparisons against the baseline of {', '.join(axes)}: cells share decks for a seed, "
            "so each difference is taken game by game on identical deals."
        )
    lines.append(f"- Wall time {result.seconds:.1f} s ({total / max(result.seconds, 1e-9):,.0f} games/s).")
    lines.append(
        "- Every figure is a mean over games with its 95% confidence interval and n; a share of games "
        "(or deals) has Wilson's interval, inside 0-100%."
    )
    lines += [f"- {line}" for line in analysis.method]
    if chart_files:
        lines += ["", "## Charts", ""]
        for item in chart_files:
            title, rel = item[0], item[1]
            lines += [f"![{title}]({rel})", ""]
            if len(item) > 2 and item[2]:  # type: ignore[misc]
                lines += [f"*{item[2]}*", ""]  # type: ignore[misc]
    for heading, table in analysis.tables:
        lines += ["", f"## {heading}", "", table]
    lines += ["", "## Appendix"]
    lines += [""] + [f"- {s}" for s in analysis.appendix] if analysis.appendix else []
    if spec.headline:
        lines += [
            "",
            "### Headline figures per cell",
            "",
            "Mean [95% interval], each column's unit in its header; n games per cell.",
            "",
        ]
        lines.append(md_table(headline_table(result, analysis.shares)))
    if spec.pairs and differenced(spec):
        lines += [
            "",
            "### Paired differences",
            "",
            "Cell minus its baseline, game by game on the same deals: mean [95% interval, not adjusted for the "
            "several comparisons], in each column's unit.",
            "",
        ]
        lines.append(md_table(paired_table(result)))
    lines += ["", "## Files", "", "- `summary.csv`: every figure of every cell (mean, sd, 95% CI, n)."]
    if spec.pairs:
        lines.append("- `paired.csv`: paired differences against the baseline.")
    if spec.histograms:
        lines.append(
            "- `histograms.csv`: the whole distribution of "
            + ", ".join(figure_name(spec.game, h) for h in spec.histograms)
            + "."
        )
    for name, what, _ in analysis.files:
        lines.append(f"- `tables/{name}.csv`: {what}")
    if chart_files:
        lines.append("- `charts/NAME.png`, each with its data beside it in `charts/NAME.json`.")
    for why in left_out or []:
        lines.append(f"- Left out: {why}.")
    lines += ["", f"Figures (the column in summary.csv: meaning, unit): {_glossary(spec)}", ""]
    return "\n".join(lines)


def _seats_text(spec: Spec) -> str:
    parts = []
    if "all" in spec.seats:
        parts.append(f"every seat `{spec.seats['all']}`")
    for k, v in spec.seats.items():
        if k != "all":
            parts.append(f"seat {k} `{v}`")
    return "; ".join(parts) or "`random` in every seat"


def _own_words(spec: Spec) -> dict[str, tuple[str, str]]:
    """The words (meaning, unit) of the figures a spec's study measures itself."""
    return getattr(study(spec.measure), "FIGURE_WORDS", {}) if spec.measure else {}


def _label(spec: Spec, figure: str) -> str:
    """A figure's name and unit for a table's header: the study's words for its own figures."""
    own = _own_words(spec).get(figure)
    return f"{own[0]} ({own[1]})" if own else figure_label(spec.game, figure)


def _glossary(spec: Spec) -> str:
    names = list(dict.fromkeys(spec.headline + spec.histograms))
    own = _own_words(spec)
    words = {f: own.get(f) or (figure_name(spec.game, f), figure_unit(spec.game, f)) for f in names}
    words.update({f: w for f, w in own.items() if f not in words})  # the study's own figures
    return "; ".join(f"`{f}`: {m}, {u}" for f, (m, u) in words.items()) + "." if words else (
        "see whistsim.experiments.figures.")  # fmt: skip


# ---- files -------------------------------------------------------------------


def write_csv(df: pd.DataFrame, path: Path) -> None:
    with atomic_write(path) as f:
        df.to_csv(f, index=False)


MANIFEST = ".whistsim-charts"  # the charts a study wrote into charts/, one name a line
OUTPUTS = ".whistsim-outputs"  # every file a run wrote into its folder, one path a line (see own_files)
# Entries an outputs manifest may hold: whistsim's own names only, so a tampered list deletes nothing else;
# "rows/" and "records/" stand for every file in them named as a run names its chunks and cells.
_ENTRY = re.compile(
    r"(?:summary|paired|histograms)\.csv|report\.md|rows/|records/|charts/\.whistsim-charts"
    r"|tables/[a-z0-9][a-z0-9_]*\.csv"
    r"|charts/[^/\\.\x00-\x1f][^/\\\x00-\x1f]*\.(?:png|json)"
)
_IN_FOLDER = {
    "rows/": re.compile(r"chunk-[0-9]{6,}\.parquet"),
    "records/": re.compile(r"cell-[0-9]{3,}\.jsonl"),
}
_SUMMARY_HEAD = ("cell,label,", ",figure,mean,sd,ci_low,ci_high,n")  # summary.csv's header, axes between


def _head(path: Path, limit: int = 1 << 20) -> str | None:
    """The first ``limit`` characters of a regular file (never a FIFO that would block); None if none."""
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            return None
        with open(path, encoding="utf-8") as f:
            return f.read(limit)
    except (OSError, UnicodeDecodeError):
        return None


def _manifest(path: Path) -> set[str]:
    """Chart names listed in ``path``: plain ``*.png`` and ``*.json`` names only, so a tampered list deletes nothing else."""
    names = (_head(path) or "").split("\n")
    return {n for n in names if n.endswith((".png", ".json")) and "/" not in n and not n.startswith(".")}


def _listed(out: Path) -> set[str]:
    """The entries of ``out``'s outputs manifest; a folder written before there was one (its charts'
    manifest, or a summary.csv with whistsim's header) is taken to hold whistsim's usual files."""
    if os.path.lexists(out / OUTPUTS):
        return {e for e in (_head(out / OUTPUTS) or "").split("\n") if _ENTRY.fullmatch(e)}
    if not (out / "charts" / MANIFEST).is_file():
        head = (_head(out / "summary.csv", 1 << 16) or "").split("\n", 1)[0].rstrip("\r")
        if not (head.startswith(_SUMMARY_HEAD[0]) and head.endswith(_SUMMARY_HEAD[1])):
            return set()
    return {
        "summary.csv",
        "paired.csv",
        "histograms.csv",
        "report.md",
        "rows/",
        "records/",
        f"charts/{MANIFEST}",
    }


def own_files(out: str | os.PathLike) -> set[str]:
    """The files (paths relative to ``out``) that runs of whistsim wrote there and that are still there:
    those its outputs manifest lists, the files in a listed ``rows/`` or ``records/`` named as a run
    names them, and the charts in ``charts/.whistsim-charts``. Nothing else in ``out`` is whistsim's."""
    out = Path(out)
    files: set[str] = {f"charts/{n}" for n in _manifest(out / "charts" / MANIFEST)}
    for entry in _listed(out):
        if entry in _IN_FOLDER:
            with contextlib.suppress(OSError):
                files |= {entry + n for n in os.listdir(out / entry) if _IN_FOLDER[entry].fullmatch(n)}
        else:
            files.add(entry)
    return {f for f in files if os.path.lexists(out / f)}


def _entries(files: set[str]) -> set[str]:
    return {next((d for d in _IN_FOLDER if f.startswith(d)), f) for f in files}


def _write_list(out: Path, entries: set[str]) -> None:
    with atomic_write(out / OUTPUTS) as f:
        f.write("".join(f"{e}\n" for e in sorted(entries)))


def claim_outputs(out: str | os.PathLike, files: list[str]) -> None:
    """List ``files`` (or folders ``rows/``, ``records/``) in ``out``'s outputs manifest before they are
    written, beside what it lists already: a run cut short leaves nothing the next cannot tell as its own."""
    out = Path(out)
    listed = _listed(out)
    charts = {f"charts/{n}" for n in _manifest(out / "charts" / MANIFEST)}  # before it is rewritten
    wanted = listed | {e for e in charts if _ENTRY.fullmatch(e)} | _entries(set(files))
    if wanted != listed or not (out / OUTPUTS).is_file():
        _write_list(out, wanted)


def settle_outputs(out: str | os.PathLike, written: set[str]) -> None:
    """A run is written: remove what runs of whistsim wrote in ``out`` that this one did not write
    (a stale paired.csv, rows of chunks past its end, ...) and list exactly this run's files."""
    out = Path(out)
    emptied = set()
    for rel in sorted(own_files(out) - written):
        with contextlib.suppress(FileNotFoundError, IsADirectoryError):
            os.unlink(out / rel)
            emptied.add(rel.partition("/")[0])
    for folder in emptied & {"rows", "records", "charts"}:  # left empty by this: it goes too
        with contextlib.suppress(OSError):
            (out / folder).rmdir()
    _write_list(out, _entries(written))


def draw_charts(
    charts: list[Chart], out: Path, drawer: Callable[[Chart, Path], None] = draw
) -> tuple[list[tuple[str, str, str]], list[str], set[str]]:
    """Draw ``charts`` into ``out/charts/`` with their manifest: each drawn chart's (title, path,
    caption) for the report, the ones left out (a :class:`ChartError` each, in words), and the
    files written."""
    files, left_out, made = [], [], set()
    for chart in charts:
        path = out / "charts" / f"{chart.name}.png"
        try:
            drawer(chart, path)
        except ChartError as e:
            left_out.append(f"a chart ({e})")
            continue
        made |= {path.name, sidecar(path).name}
        caption = json.loads(sidecar(path).read_text(encoding="utf-8")).get("caption", "")
        files.append((chart.title, f"charts/{path.name}", caption))
    if made:
        with atomic_write(out / "charts" / MANIFEST) as f:
            f.write("".join(f"{name}\n" for name in sorted(made)))
    return files, left_out, made


def write_outputs(
    result: ExperimentResult, out_dir: str | os.PathLike, keep: list[str] | tuple[str, ...] = ()
) -> Path:
    """summary.csv, paired.csv, histograms.csv, charts/*.png (+ .json) and report.md, each written atomically.

    A chart that breaks the standard (:class:`ChartError`) is left out and named in the report. The
    folder's outputs manifest (``.whistsim-outputs``) lists what is written; once all is written, what
    an earlier run wrote there and this one did not (nor ``keep``: the run's rows and records) is removed.
    """
    out = Path(out_dir)
    analysis = result.analysis()
    charts = from_run(result, analysis.charts[:MAX_CHARTS])  # n and the players from the run
    tables = ["summary.csv"] + (["paired.csv"] if result.spec.pairs else [])
    tables += ["histograms.csv"] if result.spec.histograms else []
    chart_names = [f"charts/{c.name}{ext}" for c in charts for ext in (".png", ".json")]
    own = [f"tables/{name}.csv" for name, _, _ in analysis.files]
    bad = [name for name in own if not _ENTRY.fullmatch(name)]
    if bad:  # a study's bug, not the user's: its files are named by whistsim's rule for them
        raise ValueError(f"a study's file is misnamed: {', '.join(bad)}")
    tables += own
    claim_outputs(out, [*tables, "report.md", f"charts/{MANIFEST}", *chart_names, *keep])
    write_csv(result.summary(), out / "summary.csv")
    if result.spec.pairs:
        write_csv(result.paired(), out / "paired.csv")
    if result.spec.histograms:
        write_csv(result.histograms(), out / "histograms.csv")
    if analysis.files:
        (out / "tables").mkdir(parents=True, exist_ok=True)
    for name, _, frame in analysis.files:
        write_csv(frame, out / "tables" / f"{name}.csv")
    chart_files, left_out, made = draw_charts(charts, out)
    with atomic_write(out / "report.md") as f:
        f.write(render_report(result, analysis, chart_files, left_out))
    written = {*tables, "report.md", *keep} | (
        {f"charts/{MANIFEST}"} | {f"charts/{n}" for n in made} if made else set()
    )
    settle_outputs(out, written)
    return out
