"""The claims check written out: a row per claim for the terminal, the markdown report, the chart.

What the report says of the sources beyond the claims (their errors, the
assertions not measured) comes from the caller (whistsim.claims.loader), so
that nothing here loads the games' claims.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .model import (
    DEPENDS_READING,
    DEPENDS_SKILL,
    FAILS,
    HOLDS,
    NOT_A_CLAIM,
    NOT_CHECKED,
    UNDECIDED,
    ClaimResult,
    base,
    fmt_figure,
    plain,
    short_players,
)

HEADER = f"{'id':<22} {'source':<17} {'claim':<44} {'verdict':<26} deciding figure [95% CI], n (players)"


def _cut(s: str, w: int) -> str:
    return s if len(s) <= w else s[: w - 1] + "…"


def deciding_text(r: ClaimResult) -> str:
    """The row's figure: the deciding cell, with its unit and players; beside a failing cell of a claim
    that depends on skill or the reading, a holding one."""
    d = r.deciding
    if d is None:
        return r.note
    if r.verdict in (DEPENDS_SKILL, DEPENDS_READING) and (h := r.holding) is not None:
        return f"does not hold: {d.text()}; holds: {h.text()}"
    return d.text()


def format_row(r: ClaimResult) -> str:
    """One line per claim: id, source, the claim in short, the verdict, the deciding figure."""
    c = r.claim
    return f"{c.id:<22} {_cut(c.source, 17):<17} {_cut(c.short, 44):<44} {r.verdict:<26} {deciding_text(r)}"


def format_rows(results: list[ClaimResult]) -> str:
    return "\n".join([HEADER] + [format_row(r) for r in results])


def _md(s: str) -> str:
    return s.replace("|", "\\|").replace("\n", " ")


DEFINITION = (
    "Each claim is quoted and read before anything runs; each reading states what is counted and the rule "
    "that decides it, and is measured with two player strengths: simple rule-based players, and the "
    "strongest player the game has at its default settings (players who search sampled deals). At one "
    "strength a reading *holds* or *does not hold* only when its 95% confidence interval (widened, or its "
    "p-values adjusted, where the verdict rests on several comparisons) settles it; otherwise it is "
    "*undecided at this n*. The two strengths combine so: both hold: **holds**; one holds and the other is "
    "undecided: **holds (undecided with X)**, X the players left undecided; the same for **does not "
    "hold**; one holds and the other does not: **depends on skill**. Readings combine the same way: "
    "**depends on the reading** only when fair readings reach opposite verdicts (one holds, another does "
    "not); a reading left undecided beside readings that hold gives **holds (undecided under reading "
    "R)**. Advice in several parts holds only when every part holds, at each strength. A text that asserts "
    "nothing to test (it offers another way to score) is **not a claim of fact**: what it offers is "
    "described with its figures, and no threshold is invented for it. The table shows the figure that "
    "decides each verdict (for a verdict that does not hold, the failing part; for one that depends on "
    "skill or on the reading, the failing figure and a holding one), with its unit, its n and the players "
    "it was measured with."
)


def players_used(results: list[ClaimResult]) -> list[str]:
    seen: dict[str, None] = {}
    for r in results:
        for rr in r.readings:
            for s in rr.outcomes:
                seen[s] = None
    return list(seen)


def to_markdown(
    results: list[ClaimResult],
    *,
    n: int,
    seed: int,
    n_search: int,
    chart: str | None,
    errors: list[tuple[str, str, str, str]],
    skipped: list[tuple[str, str, str, str, str]],
) -> str:
    """The report: the verdicts' table, every claim with its readings, the sources' ``errors``
    (loader.source_errors) and the assertions ``skipped`` (loader.not_measured), what was run."""
    lines = ["# The claims check", ""]
    if chart:
        lines += [f"![Every claim's deciding figure with its 95% CI, coloured by verdict]({chart})", ""]
    lines += [
        "How to read this report (confidence intervals, n, adjusted comparisons): "
        "[docs/reports.md](../docs/reports.md#how-to-read-this).",
        "",
        f"Every claim of the sources ([docs/sources.md](../docs/sources.md)) about play and balance, quoted "
        f"with its hedges, read, and measured: {n:,} games (or deals) per cell with the rule-based players, "
        f"{n_search:,} games per cell with players who search sampled deals in Welsh Whist and Whist, "
        f"{n // 2:,} Scotch Whist deals per cell with them (they are quick at single deals), and at most "
        "4,000-5,000 where a measure follows every trick of its games. Comparisons of two ways of playing "
        "are made on the same deals. What was run, player by player, is at the end.",
        "",
        "## How verdicts are reached",
        "",
        DEFINITION,
        "",
        "| id | source | claim | verdict | deciding figure [95% CI], n (players; reading) |",
        "|---|---|---|---|---|",
    ]
    for r in results:
        cells = [f"`{r.claim.id}`", r.claim.source, r.claim.short, f"**{r.verdict}**", deciding_text(r)]
        lines.append("| " + " | ".join(_md(c) for c in cells) + " |")
    if errors:
        lines += ["", "## Errors in the sources", "",
                  "Statements in the texts that contradict their own rules; whistsim plays the rules and records "
                  "the statement as the source's error ([docs/sources.md](../docs/sources.md#errors-in-the-texts)):",
                  ""]  # fmt: skip
        for source, where, quote, why in errors:
            lines.append(f'- {source}, {where}: "{quote}" {why}')
    for r in results:
        c = r.claim
        lines += ["", f"## `{c.id}`: {c.short}", "", f"{c.source}, {c.where}:", ""]
        lines += ["> " + q for q in c.quote.splitlines()]
        if c.translation:
            lines += ["", "In English: " + c.translation]
        lines += ["", f"**Verdict: {r.verdict}.**" + (f" {c.differ}" if r.verdict == DEPENDS_READING else "")]
        if r.note:
            lines += ["", r.note]
        for rr in r.readings:
            rd = rr.reading
            unit = f" Unit: {rd.unit}." if rd.unit else ""
            lines += ["", f"- *Reading `{rd.id}`*: {rd.reading} Measure: {rd.measure}{unit} Decision: "
                          f"{rd.decision} Verdict: **{rr.verdict}**."]  # fmt: skip
            for s, o in rr.outcomes.items():
                lines.append(
                    f"  - {plain(s)}: {fmt_figure(o.figure, rd.unit)}: {o.verdict}. {o.detail}".rstrip()
                )
        for reading, why in c.dropped:
            lines += ["", f"- *Reading not measured*: {reading} {why}"]
    if skipped:
        lines += ["", "## Assertions not measured", "",
                  "Other assertions of the sources about play or balance, and why they are not claims here:", ""]  # fmt: skip
        for source, where, quote, translation, why in skipped:
            en = f" ({translation})" if translation else ""
            lines.append(f'- {source}, {where}: "{quote}"{en} {why}')
    lines += [
        "",
        "## What was run",
        "",
        f"`whistsim claims --n {n} --n-search {n_search} --seed {seed}` (`--markdown results/claims.md "
        "--json-out results/claims.json`; every figure of every reading, at every strength, is in "
        "results/claims.json). The players, as whistsim names them:",
        "",
    ]
    for s in players_used(results):
        if s != "exact":
            lines.append(f"- {plain(s)}: `{s}`")
    lines += [
        "",
        "Shares have Wilson 95% intervals; means have t intervals; comparisons are paired on the same deals "
        "(the same seed and game numbers). A verdict resting on a family of tests uses Holm's correction "
        "over the family; the best of a family of settings is shown with its interval widened by Bonferroni "
        "for the family's size. Player strengths: the rule-based player first, then the game's strongest "
        "player at its default settings (Welsh Whist `pimc2`, Scotch Whist and Whist `pimc`); "
        f"`--n-search {n_search}` games per cell for them in Welsh Whist and Whist, n/2 Scotch Whist deals.",
        "",
    ]
    return "\n".join(lines)


COLOURS = {HOLDS: "#2a9d55", FAILS: "#d1495b", UNDECIDED: "#999999", DEPENDS_SKILL: "#e9a23b",
           DEPENDS_READING: "#3b6fb6", NOT_CHECKED: "#dddddd", NOT_A_CLAIM: "#8c6bb1"}  # fmt: skip
ORDER = [HOLDS, FAILS, DEPENDS_READING, DEPENDS_SKILL, UNDECIDED, NOT_A_CLAIM, NOT_CHECKED]
# how a count of claims reads with each verdict: (one, several)
COUNTED = {HOLDS: ("holds", "hold"), FAILS: ("does not hold", "do not hold"),
           DEPENDS_READING: ("depends on the reading", "depend on the reading"),
           DEPENDS_SKILL: ("depends on skill", "depend on skill"),
           UNDECIDED: ("is undecided at this n", "are undecided at this n"),
           NOT_A_CLAIM: ("is not a claim of fact", "are not claims of fact"),
           NOT_CHECKED: ("is not checked", "are not checked")}  # fmt: skip


def counted(counts: dict[str, int]) -> str:
    """ "10 hold, 1 does not hold, ...": each verdict's count with the verb agreeing."""
    return ", ".join(f"{counts[v]} {COUNTED[v][counts[v] != 1]}" for v in ORDER if counts.get(v))


def chart(results: list[ClaimResult], path: str) -> None:
    """One row per claim: its deciding figure with its 95% CI, coloured by verdict (each row on its own
    scale: the figures are in different units); its data beside it as JSON (NAME-chart.json)."""
    draw_chart([r.json() for r in results], path)


def chart_from_json(claims_json: str, path: str) -> None:
    """The chart again from a ``--json-out`` file."""
    import json

    with open(claims_json, encoding="utf-8") as f:
        items = json.load(f)
    draw_chart(items, path)


def _row(item: dict[str, Any]) -> tuple[float, float, float, int] | None:
    d = item.get("deciding")
    if not d or d.get("mean") is None:
        return None
    m = float(d["mean"])
    lo, hi = d.get("ci") or [None, None]
    lo = m if lo is None else min(float(lo), m)
    hi = m if hi is None else max(float(hi), m)
    return m, lo, hi, int(d.get("n") or 0)


def draw_chart(items: list[dict[str, Any]], path: str) -> None:
    import textwrap

    from matplotlib.figure import Figure  # not pyplot: a chart never changes the caller's backend
    from matplotlib.patches import Patch

    from ..core.io import atomic_write
    from ..experiments.charts import as_data, write_sidecar
    from ..experiments.results import Chart, ChartSeries

    rows = [(it, fig) for it in items if (fig := _row(it)) is not None]
    counts: dict[str, int] = {}
    for it in items:
        v = base(it["verdict"])
        counts[v] = counts.get(v, 0) + 1
    qualified_n = sum(1 for it in items if it["verdict"] != base(it["verdict"]))
    told = counted(counts) + (
        f" ({qualified_n} of these with one strength or reading undecided)" if qualified_n else ""
    )
    title = f"Of {len(items)} claims, {told}: each claim's deciding figure with its 95% CI"
    strengths = sorted({short_players(it["deciding"]["skill"]) for it, _ in rows})
    ns = [f[3] for _, f in rows]
    players = "; ".join(strengths) + " (each row's players at its right)"
    n_text = f"n={min(ns):,} to {max(ns):,} games or deals a row (each row's n at its right)" if ns else ""
    caption = (
        f"{players[:1].upper()}{players[1:]}; {n_text}. "
        "Each row is on its own scale, in the unit under its claim; at its right, the verdict, the n of its "
        f"figure and the players it was measured with ({', '.join(strengths)}). Dashed: the value its "
        "decision compares it with. A CI narrower than the dot, or an exact figure, shows no bar. "
        "results/claims.md gives every reading at both strengths."
    )
    fig = Figure(figsize=(11, 0.62 * len(rows) + 1.6))
    axes = fig.subplots(len(rows), 1, squeeze=False)
    for ax, (it, (m, lo, hi, n)) in zip(axes[:, 0], rows, strict=True):
        d = it["deciding"]
        col = COLOURS[base(it["verdict"])]
        ax.errorbar([m], [0], xerr=[[m - lo], [hi - m]], fmt="o", color=col, capsize=4)
        line = d.get("line")  # the value the deciding reading's decision compares its figure with
        pts = [lo, hi, m] + ([line] if line is not None else [])
        # an exact figure on its line has no range: a fixed one, so that the ticks stay readable
        span = max(max(pts) - min(pts), abs(m) * 0.05) * 0.15 or max(abs(m) * 0.01, 0.5)
        ax.set_xlim(min(pts) - span, max(pts) + span)
        if line is not None:
            ax.axvline(line, color="#555555", lw=0.9, ls="--", zorder=0)
        ax.set_yticks([])
        label = "\n".join(
            textwrap.wrap(it["claim"], 40) + textwrap.wrap(f"({d.get('unit') or 'no unit'})", 40)
        )
        ax.set_ylabel(label, rotation=0, ha="right", va="center", fontsize=7)
        ax.tick_params(axis="x", labelsize=7)
        told_row = "\n".join(textwrap.wrap(it["verdict"], 34) + [f"n={n:,}, {short_players(d['skill'])}"])
        ax.text(1.01, 0.5, told_row, transform=ax.transAxes, fontsize=6.5, color=col, va="center")
        for side in ("top", "right", "left"):
            ax.spines[side].set_visible(False)
    axes[-1, 0].set_xlabel("the claim's deciding figure, in the unit under its claim (each row on its own scale)",
                           fontsize=8)  # fmt: skip
    fig.suptitle("\n".join(textwrap.wrap(title, 100)), fontsize=9)
    handles = [Patch(color=COLOURS[v], label=v) for v in ORDER if counts.get(v)]
    fig.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 0.98), fontsize=7, frameon=False,
               title="verdict", title_fontsize=7)  # fmt: skip
    fig.text(0.01, 0.0, "\n".join(textwrap.wrap(caption, 140)), ha="left", va="top", fontsize=7, color="0.25")
    fig.tight_layout(rect=(0.0, 0.0, 0.84, 1.0))
    with atomic_write(path, "wb") as fh:
        fig.savefig(fh, format="png", dpi=110, bbox_inches="tight", pad_inches=0.15)
    series = []
    for v in ORDER:
        mine = [(it, f) for it, f in rows if base(it["verdict"]) == v]
        if mine:
            series.append(ChartSeries(v, [f"{it['claim']} ({it['deciding'].get('unit') or 'no unit'}; n={f[3]:,}, "
                                          f"{short_players(it['deciding']['skill'])})" for it, f in mine],
                                      [f[0] for _, f in mine], [f[1] for _, f in mine], [f[2] for _, f in mine]))  # fmt: skip
    write_sidecar(
        as_data(
            Chart(
                "claims",
                title,
                "the claim (its unit; n, players)",
                "the claim's deciding figure, in its own unit",
                series,
                kind="rows",
                categorical=True,
                caption=caption,
                n=n_text,
                players=players,
            )
        ),
        path,
        Path(path).with_name(Path(path).stem + "-chart.json"),
    )  # NAME.json: the claims themselves
