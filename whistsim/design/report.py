"""A design run's outputs: summary.csv (every variant), report.md and at most six charts.

The report follows docs/reports.md: findings first, in plain words, each with
its 95% CI and n; charts with their data beside them (``NAME.json``); what was
run at the end.
"""

from __future__ import annotations

import math
import textwrap
from pathlib import Path
from typing import Any

import pandas as pd

from ..core.io import atomic_write
from ..core.options import plural, written
from ..experiments.charts import (
    as_data,
    caption_of,
    check,
    draw,
    players_of,
    write_sidecar,
)
from ..experiments.figures import figure_name
from ..experiments.report import HOW_TO_READ, MANIFEST, claim_outputs, draw_charts, settle_outputs, write_csv
from ..experiments.results import MAX_CHARTS, MAX_FINDINGS, Chart, ChartSeries, md_table
from ..games import get_game
from .spec import DesignSpec, Objective, bounds_words, option_words

DesignResult = Any  # search.DesignResult: not imported here, since search imports this module

STATUS_WORDS = {
    "chosen": "chosen",
    "racing": "survived the race",
    "dropped": "dropped by the race",
    "infeasible": "outside a feasible range",
}


# ---- words ------------------------------------------------------------------------


def column_of(spec: DesignSpec, o: Objective) -> str:
    return o.column(get_game(spec.game), spec.standard)


def label(spec: DesignSpec, o: Objective) -> str:
    """An objective's figure in words (the spec's label, else the figure's declared meaning)."""
    if o.label:
        return o.label
    text = figure_name(spec.game, column_of(spec, o))
    return text


def table_words(spec: DesignSpec, table: str) -> str:
    seats = spec.players[table]
    if set(seats) == {"all"}:
        return f"every seat {seats['all']}"
    return ", ".join(f"{'every seat' if k == 'all' else k if k.startswith('side') else 'seat ' + k} {v}" for k, v in seats.items())  # fmt: skip


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%" if abs(x) >= 0.001 else f"{100 * x:.2f}%"


def _num(x: float) -> str:
    if not math.isfinite(x):
        return "–"
    if x == 0:
        return "0"
    return f"{x:.3g}" if abs(x) >= 0.01 else f"{x:.2g}"


def value(r: DesignResult, o: int, x: float) -> str:
    return _pct(x) if r.is_share(o) else _num(x)


def diff_num(r: DesignResult, o: int, x: float) -> str:
    """A change as a number: a change in a share in percentage points, without the unit."""
    if r.is_share(o):
        return f"{100 * x:+.1f}" if abs(x) >= 0.001 else f"{100 * x:+.2f}"
    return ("+" if x > 0 else "") + _num(x)


def diff_text(r: DesignResult, o: int, x: float) -> str:
    """A change with its unit: a change in a share is in percentage points (not the game's points)."""
    return diff_num(r, o, x) + (" percentage points" if r.is_share(o) else "")


def ci(r: DesignResult, o: int, low: float, high: float, n: int, of: str = "fresh deals") -> str:
    if low == high:
        return f"exact, n={n:,} {of}"
    if r.is_share(o):
        return f"95% CI {_pct(low)[:-1]}–{_pct(high)}, n={n:,} {of}"
    return f"95% CI {_num(low)} to {_num(high)}, n={n:,} {of}"


def diff_ci(r: DesignResult, o: int, low: float, high: float) -> str:
    if low == high:
        return "the same on every deal" if low == 0 else "on every deal alike"
    if r.is_share(o):
        return f"95% CI {100 * low:+.1f} to {100 * high:+.1f} percentage points"
    return f"95% CI {_num(low)} to {_num(high)}"


def goal_text(r: DesignResult, o: int) -> str:
    obj = r.spec.objectives[o]
    if obj.goal == "target" and obj.target != "fair":
        return f"closest to {value(r, o, float(obj.target))}"  # type: ignore[arg-type]
    return obj.words()


# ---- the table of every variant ---------------------------------------------------------


def _key(spec: DesignSpec, o: Objective) -> str:
    return f"{o.figure}@{o.players}"


def status_of(r: DesignResult, v) -> str:
    return "chosen" if v.id in r.chosen else v.status


def summary_table(r: DesignResult) -> pd.DataFrame:
    """One row per variant: its options, how far it went in the race, each objective's search estimate
    (mean, 95% CI, n) and, for the chosen and the standard rules, the fresh deals' figures and the
    paired difference against the standard rules."""
    spec = r.spec
    rows = []
    std_rules = spec.standard
    for v in r.variants:
        row: dict = {"variant": v.id, "rules": v.words, "standard": v.standard}
        for d in spec.space:
            if v.params is not None:
                row[d.key] = v.params.get(d.key)
            else:
                row[d.key] = getattr(std_rules, d.key, spec.rules.get(d.key, ""))
        status = status_of(r, v)
        row.update({"status": "survived" if status == "racing" else status, "feasibility": v.feasibility,
                    "entered_round": v.entered + 1, "rounds": v.rounds, "deals": r.deals.get(v.id, 0),
                    "ended_round": (v.ended + 1) if v.ended is not None else "",
                    "dropped_by": v.by if v.by is not None else ""})  # fmt: skip
        for o, obj in enumerate(spec.objectives):
            k = _key(spec, obj)
            mean, low, high, n = r.estimate(o, v.id)
            row.update({f"{k}_mean": mean, f"{k}_ci_low": low, f"{k}_ci_high": high, f"{k}_n": n})
        f = r.finals.get(v.id)
        for o, obj in enumerate(spec.objectives):
            k = _key(spec, obj)
            if f is None:
                row.update({f"{k}_fresh_mean": "", f"{k}_fresh_ci_low": "", f"{k}_fresh_ci_high": "",
                            f"{k}_fresh_n": "", f"{k}_vs_standard": "", f"{k}_vs_standard_ci_low": "",
                            f"{k}_vs_standard_ci_high": ""})  # fmt: skip
            else:
                row.update({f"{k}_fresh_mean": f.mean[o], f"{k}_fresh_ci_low": f.low[o],
                            f"{k}_fresh_ci_high": f.high[o], f"{k}_fresh_n": f.n, f"{k}_vs_standard": f.diff[o],
                            f"{k}_vs_standard_ci_low": f.diff_low[o], f"{k}_vs_standard_ci_high": f.diff_high[o]})  # fmt: skip
        rows.append(row)
    return pd.DataFrame(rows)


# ---- findings -----------------------------------------------------------------------------


def _ranked(r: DesignResult) -> list[int]:
    return [o for o, obj in enumerate(r.spec.objectives) if not obj.constraint]


def _fig(r: DesignResult, o: int, v: int) -> str:
    f = r.finals[v]
    return f"{value(r, o, f.mean[o])} ({ci(r, o, f.low[o], f.high[o], f.n)})"


def _vs(r: DesignResult, o: int, v: int) -> str:
    f = r.finals[v]
    return f"{diff_text(r, o, f.diff[o])} ({diff_ci(r, o, f.diff_low[o], f.diff_high[o])})"


def _standard_place(r: DesignResult) -> str:
    std = r.standard
    single = len(_ranked(r)) == 1
    survivors = [v for v in r.variants if v.status == "racing"]
    if std.id in r.chosen:
        return f"The standard rules are themselves the best found ({plural(r.deals[std.id], 'search deal')}, n={r.deals[std.id]:,})."  # fmt: skip
    if std.status == "racing":
        others = len(survivors) - 1
        what = "could be the best" if single else "are on the best set"
        return (f"The standard rules {what}: the race could not tell them worse than the best found after "
                f"{plural(r.deals[std.id], 'deal')} (n={r.deals[std.id]:,}), with {plural(others, 'other variant')} "
                "surviving beside them.")  # fmt: skip
    if std.status == "infeasible":
        return f"The standard rules fall outside a feasible range of the spec (n={r.deals[std.id]:,} deals)."
    by = r.variants[std.by].words if std.by is not None else "another variant"
    how = "worse than" if single else "beaten on every objective by"
    return (f"The standard rules are not {'the best' if single else 'on the best set'}: the race showed them {how} "
            f"{by} after {plural(std.rounds, 'round')} (n={std.rounds * r.spec.block:,} deals), with at most a "
            f"{100 * r.spec.alpha:g}% chance of any wrong drop over the whole race.")  # fmt: skip


def _ties(r: DesignResult, best: int) -> str:
    """The other survivors the race could not tell from the best, named (at most three)."""
    others = [v for v in r.variants if v.status == "racing" and v.id != best and not v.standard]
    if not others:
        return ""
    names = "; ".join(v.words for v in others[:3]) + (" and more" if len(others) > 3 else "")
    return f"; the race could not tell it from {plural(len(others), 'other survivor')} ({names})"


def _edge(r: DesignResult, best: int) -> str:
    """Says so when the best found takes a numeric option's lowest or highest value searched: the best
    may then lie beyond the space."""
    params = r.variants[best].params or {}
    ends = []
    for d in r.spec.space:
        v = params.get(d.key)
        vals = [x for x in d.all_values() if isinstance(x, (int, float)) and not isinstance(x, bool)] if d.size() < 1e6 else [d.low, d.high]  # fmt: skip
        if len(vals) >= 3 and v in (min(vals), max(vals)):
            ends.append(
                f"{option_words(d.key, v)} is the {'highest' if v == max(vals) else 'lowest'} searched"
            )
    return (
        f"; it lies at the edge of the space ({', '.join(ends)}), so beyond it may do better still"
        if ends
        else ""
    )


def findings(r: DesignResult) -> list[str]:
    """At most six sentences, most important first, each with its 95% CI and n."""
    spec, out = r.spec, []
    ranked = _ranked(r)
    std = r.standard.id
    chosen = [c for c in r.chosen if c != std]
    if not r.chosen:
        out.append(f"No variant survived the race inside every feasible range (n={r.spent:,} games played).")
    elif len(ranked) == 1:
        o = ranked[0]
        if chosen:
            c = chosen[0]
            out.append(f"The best variant found, {r.variants[c].words}, brings {label(spec, spec.objectives[o])} "
                       f"to {_fig(r, o, c)} against {_fig(r, o, std)} under the standard rules ({goal_text(r, o)}); "
                       f"paired on the same deals the difference is {_vs(r, o, c)}{_ties(r, c)}{_edge(r, c)}.")  # fmt: skip
        else:
            out.append(f"No variant beats the standard rules: {label(spec, spec.objectives[o])} is "
                       f"{_fig(r, o, std)} under them ({goal_text(r, o)}).")  # fmt: skip
    else:
        items = []
        for c in r.chosen:
            f = r.finals[c]
            vals = ", ".join(f"{label(spec, spec.objectives[o])} {value(r, o, f.mean[o])}" for o in ranked)
            items.append(f"{r.variants[c].words} ({vals})")
        out.append(f"The best set on fresh deals holds {plural(len(r.chosen), 'variant')} (n={spec.final:,} fresh "
                   f"deals each): {'; '.join(items)}.")  # fmt: skip
        for c in chosen[:2]:
            parts = [f"{label(spec, spec.objectives[o])} by {_vs(r, o, c)}" for o in ranked]
            out.append(f"Against the standard rules on the same fresh deals (n={spec.final:,}), "
                       f"{r.variants[c].words} changes {' and '.join(parts)}.")  # fmt: skip
    out.append(_standard_place(r))
    best = chosen[0] if chosen else None
    for o, obj in enumerate(spec.objectives):
        if not obj.constraint or best is None or len(out) >= MAX_FINDINGS - 1:
            continue
        f = r.finals[best]
        inside = f.inside[[i for i, ob in enumerate(spec.objectives) if ob.constraint].index(o)]
        where = {"yes": "inside", "no": "outside", "unsettled": "at the edge of"}[inside]
        out.append(f"{label(spec, obj)[:1].upper() + label(spec, obj)[1:]}: "
                   f"{_fig(r, o, best)} under the best variant against {value(r, o, r.finals[std].mean[o])} under the standard rules "
                   f"(difference {diff_text(r, o, f.diff[o])}, {diff_ci(r, o, f.diff_low[o], f.diff_high[o])}), "
                   f"{where} the feasible range ({bounds_words(obj.low, obj.high)}).")  # fmt: skip
    full = r.full_cost()
    saved = 1 - r.spent / full if full else 0.0
    how = (
        "every variant of the space"
        if r.mode == "exhaustive"
        else "variants proposed round by round by a search that learns from those already raced"
    )
    out.append(f"The search raced {plural(len(r.variants), 'variant')} ({how}) in {plural(r.rounds, 'round')} of "
               f"{r.spec.block:,} deals and played n={r.spent:,} games, where playing each for every round would "
               f"take {full:,}: racing saved {100 * saved:.0f}% of the games.")  # fmt: skip
    return out[:MAX_FINDINGS]


# ---- charts ---------------------------------------------------------------------------------


def _shift(r: DesignResult, o: int, v) -> float:
    """What a target objective is charted against: its target under the variant's rules (0 otherwise)."""
    obj = r.spec.objectives[o]
    if obj.goal != "target":
        return 0.0
    rules = r.spec.standard if v.standard else r.spec.make_rules(v.params or {})
    return obj.target_of(get_game(r.spec.game), rules)


def _axis(r: DesignResult, o: int) -> str:
    obj = r.spec.objectives[o]
    unit = get_game(r.spec.game).figure(obj.figure.split("[")[0]).unit
    scale = " (percentage points)" if r.is_share(o) else f" ({unit})"
    if obj.goal == "target":
        to = "a fair share" if obj.target == "fair" else f"the aim of {obj.target:g}"
        return f"{label(r.spec, obj)}, above or below {to}{scale}"
    name = label(r.spec, obj)
    return f"{name}{' (%)' if r.is_share(o) else '' if name == unit else f' ({unit})'}"


def _scale(r: DesignResult, o: int) -> float:
    return 100.0 if r.is_share(o) else 1.0


def _players(spec, tables) -> str:
    """The strengths of the players at ``tables`` (names under the spec's [players]), in words."""
    return players_of([s for t in dict.fromkeys(tables) for s in spec.players[t].values()])


def candidates_chart(r: DesignResult) -> Chart:
    """Every variant's search estimate of the first ranked objective (with its 95% CI), against a feasible
    range's figure or a second objective (else the variants in order of the first), by the race's verdict."""
    spec = r.spec
    ranked = _ranked(r)
    y_o = ranked[0]
    others = [o for o, ob in enumerate(spec.objectives) if ob.constraint] + ranked[1:]
    x_o = others[0] if others else None
    groups: dict[str, ChartSeries] = {}
    order = sorted(r.variants, key=lambda v: r.judge.badness(v.id)[0])
    for rank, v in enumerate(order, 1):
        status = "the standard rules" if v.standard else STATUS_WORDS[status_of(r, v)]
        s = groups.setdefault(status, ChartSeries(status, [], [], [], []))
        mean, low, high, _ = r.estimate(y_o, v.id)
        k, t = _scale(r, y_o), _shift(r, y_o, v)
        if x_o is None:
            s.x.append(rank)
        else:
            s.x.append(r.estimate(x_o, v.id)[0] * _scale(r, x_o))
        s.y.append((mean - t) * k)
        s.low.append((low - t) * k)
        s.high.append((high - t) * k)
    y_label = _axis(r, y_o)
    x_label = _axis(r, x_o) if x_o is not None else "variants in order of the search's estimate (1: the best)"
    chosen = ", ".join(r.variants[c].words for c in r.chosen) or "none"
    title = f"Every variant tried ({len(r.variants)}), the chosen marked: {chosen}"
    ordered = [groups[k] for k in ("the standard rules", *STATUS_WORDS.values()) if k in groups]
    played = sorted(r.deals.values()) or [0]
    span = f"{played[0]:,}" if played[0] == played[-1] else f"{played[0]:,} to {played[-1]:,}"
    return Chart(name="variants", title=title, xlabel=x_label, ylabel=y_label, series=ordered, kind="scatter",
                 n=f"n={span} deals a point", players=_players(spec, spec.tables),
                 caption="Each variant's search estimate with its 95% CI (the deals it played before the race "
                 "ended or dropped it); the race itself used wider intervals, valid over every round at once.",
                 zero_line=spec.objectives[y_o].goal == "target")  # fmt: skip


def final_chart(r: DesignResult, o: int) -> Chart:
    """The chosen variants and the standard rules on fresh deals: one objective's figure with its 95% CI."""
    spec = r.spec
    obj = spec.objectives[o]
    ids = list(dict.fromkeys([r.standard.id, *r.chosen]))
    single = len(_ranked(r)) == 1
    names = {}
    for n, i in enumerate(ids):
        if r.variants[i].standard:
            names[i] = "standard rules"
        else:
            names[i] = "best found" if single else f"variant {chr(64 + n)}"
    k = _scale(r, o)
    s = ChartSeries("fresh deals", [], [], [], [])
    for i in ids:
        f = r.finals[i]
        t = _shift(r, o, r.variants[i])
        s.x.append(names[i])
        s.y.append((f.mean[o] - t) * k)
        s.low.append((f.low[o] - t) * k)
        s.high.append((f.high[o] - t) * k)
    key = "; ".join(f"{names[i]}: {r.variants[i].words}" for i in ids if not r.variants[i].standard)
    caption = f"Fresh deals none of the search used, n={spec.final:,} each, with 95% CIs; {key}."
    if obj.constraint:
        std = r.finals[r.standard.id].mean[o]
        bounds = [b[0] * std + b[1] for b in (obj.low, obj.high) if b is not None]
        caption += " Feasible range: " + " to ".join(value(r, o, b) for b in bounds) + "."
    std_text = value(r, o, r.finals[r.standard.id].mean[o])
    chosen = [r.finals[i].mean[o] for i in ids if not r.variants[i].standard]
    if not chosen:
        tail = "no variant chosen"
    elif len(chosen) == 1:
        tail = f"{value(r, o, chosen[0])} under the best found"
    else:
        tail = f"{value(r, o, min(chosen))} to {value(r, o, max(chosen))} across the best set"
    title = f"On fresh deals, {label(spec, obj)}: {std_text} under the standard rules, {tail}"
    return Chart(name=f"fresh-{o + 1}", title=title, xlabel="rules", ylabel=_axis(r, o), series=[s],
                 n=f"n={spec.final:,} fresh deals a point", players=_players(spec, [obj.players]),
                 categorical=True, caption=caption, zero_line=obj.goal == "target")  # fmt: skip


def draw_scatter(chart: Chart, path: Path) -> None:
    """A scatter of points with their 95% CIs (no lines between them), its data beside it."""
    from matplotlib.figure import Figure

    check(chart)
    fig = Figure(figsize=(8, 4.8), dpi=110)
    ax = fig.subplots()
    for s in chart.series:
        lo = [max(0.0, y - a) for y, a in zip(s.y, s.low, strict=True)]
        hi = [max(0.0, b - y) for y, b in zip(s.y, s.high, strict=True)]
        big = s.label in ("chosen", "the standard rules")
        ax.errorbar(s.x, s.y, yerr=(lo, hi), fmt="D" if big else "o", ms=7 if big else 4, capsize=2, lw=0,
                    elinewidth=0.8, label=s.label, zorder=3 if big else 2)  # fmt: skip
    if chart.zero_line:
        ax.axhline(0, color="0.4", lw=0.8, ls="--", zorder=0)
    lo, hi = ax.get_ylim()
    ax.set_ylim(min(lo, 0.0), max(hi, 0.0))
    ax.set_xlabel("\n".join(textwrap.wrap(chart.xlabel, 90)))
    ax.set_ylabel("\n".join(textwrap.wrap(chart.ylabel, 50)))
    ax.set_title("\n".join(textwrap.wrap(chart.title, 72)), fontsize=11)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0, frameon=False)
    caption = caption_of(chart, ax)
    fig.text(
        0.01, -0.01, "\n".join(textwrap.wrap(caption, 110)), ha="left", va="top", fontsize=8, color="0.25"
    )
    fig.tight_layout()
    with atomic_write(path, "wb") as f:
        fig.savefig(f, format="png", bbox_inches="tight", pad_inches=0.15)
    write_sidecar({**as_data(chart), "caption": caption}, path)


def charts(r: DesignResult) -> list[Chart]:
    out = [candidates_chart(r)]
    if r.chosen:
        out += [final_chart(r, o) for o in range(len(r.spec.objectives))]
    return out[:MAX_CHARTS]


# ---- report.md ------------------------------------------------------------------------------


def _final_table(r: DesignResult) -> str:
    spec = r.spec
    ids = list(dict.fromkeys([r.standard.id, *r.chosen]))
    rows = []
    for i in ids:
        f = r.finals[i]
        row = {"rules": r.variants[i].words}
        for o, obj in enumerate(spec.objectives):
            name = f"{label(spec, obj)}"
            row[name] = f"{value(r, o, f.mean[o])} [{value(r, o, f.low[o])}, {value(r, o, f.high[o])}]"
            unit = " (percentage points)" if r.is_share(o) else ""
            row[f"change against the standard rules: {name}{unit}"] = (
                "–" if r.variants[i].standard else f"{diff_num(r, o, f.diff[o])} [{diff_num(r, o, f.diff_low[o])}, {diff_num(r, o, f.diff_high[o])}]"
            )  # fmt: skip
        row["n (fresh deals)"] = f"{f.n:,}"
        rows.append(row)
    return md_table(pd.DataFrame(rows))


def _top_table(r: DesignResult, k: int = 15) -> str:
    spec = r.spec
    order = sorted(
        r.variants, key=lambda v: (status_of(r, v) not in ("chosen", "racing"), r.judge.badness(v.id))
    )
    rows = []
    for v in order[:k]:
        row = {"rules": v.words, "race": STATUS_WORDS[status_of(r, v)] + (f" (round {v.ended + 1})" if v.ended is not None else "")}  # fmt: skip
        for o, obj in enumerate(spec.objectives):
            mean, low, high, _ = r.estimate(o, v.id)
            row[label(spec, obj)] = f"{value(r, o, mean)} [{value(r, o, low)}, {value(r, o, high)}]"
        row["deals"] = f"{r.deals[v.id]:,}"
        rows.append(row)
    return md_table(pd.DataFrame(rows))


def _space_text(spec: DesignSpec) -> list[str]:
    out = []
    for d in spec.space:
        if d.values is not None:
            vals = ", ".join(written(x) for x in d.values)
        else:
            vals = f"{written(d.low)} to {written(d.high)}" + (f" in steps of {written(d.step)}" if d.step not in (None, 1) else "")  # fmt: skip
        out.append(f"`{d.key}`: {vals}")
    return out


def render(r: DesignResult, chart_files: list[tuple[str, str, str]], left_out: list[str]) -> str:
    from ..experiments.report import _version

    spec = r.spec
    g = get_game(spec.game)
    lines = [f"# {spec.title}", "", HOW_TO_READ, ""]
    if spec.question:
        lines += [spec.question, ""]
    lines += ["## Findings", ""] + [f"- {s}" for s in findings(r)]
    if chart_files:
        lines += ["", "## Charts", ""]
        for title, rel, caption in chart_files:
            lines += [f"![{title}]({rel})", ""] + ([f"*{caption}*", ""] if caption else [])
    if r.chosen:
        lines += ["", "## The chosen variants and the standard rules on fresh deals", "",
                  f"Mean [95% CI]; the change is paired deal by deal on the same "
                  f"{spec.final:,} fresh deals (mean [95% CI]).", "", _final_table(r)]  # fmt: skip
    lines += ["", "## The variants the race kept longest", "",
              "The search's estimates: mean [95% CI] over the deals each played; every variant is in `summary.csv`.",
              "", _top_table(r)]  # fmt: skip
    total = plural(len(r.variants), "variant")
    lines += ["", "## What was run", ""]
    src = f"`{spec.source}`" if spec.source else "a spec given as data"
    lines.append(f"- Spec: {src}; game `{spec.game}`; seed {spec.seed}; budget {spec.budget:,} games; whistsim {_version()}.")  # fmt: skip
    lines.append(f"- The standard rules (the game as the sources play it, with the spec's fixed rules): {spec.standard.describe()}.")  # fmt: skip
    size = spec.size
    size_text = f"{int(size):,} combinations" if math.isfinite(size) else "a continuous range"
    lines.append(f"- The space: {'; '.join(_space_text(spec))} ({size_text}"
                 + (f"; {plural(r.refused, 'draw')} excluded by the spec or refused by the rules" if r.refused else "")
                 + ").")  # fmt: skip
    for t in spec.tables:
        lines.append(f"- Players `{t}`: {table_words(spec, t)}; the first player {'rotates with the game index' if spec.first == 'rotate' else f'is seat {spec.first}'}.")  # fmt: skip
    for o, obj in enumerate(spec.objectives):
        kind = "feasible range" if obj.constraint else "objective"
        lines.append(f"- {kind.capitalize()}: {label(spec, obj)} (`{column_of(spec, obj)}`, players `{obj.players}`), {goal_text(r, o)}.")  # fmt: skip
    if r.mode == "exhaustive":
        lines.append(f"- Search: every variant of the space ({total} with the standard rules) entered the race at once.")  # fmt: skip
    else:
        lines.append(f"- Search: Optuna's TPE sampler (seeded from the seed and the round; multi-objective TPE for several "
                     f"objectives, a feasible range as a constraint) proposed up to {spec.batch} new variants a round "
                     f"while under {100 * spec.explore:g}% of the budget was spent and fewer than {spec.max_alive} "
                     f"raced; each was told its estimates after its first round; {total} in all "
                     f"({plural(r.repeats, 'draw')} of a variant already tried).")  # fmt: skip
    lines.append(f"- Race: in round r every surviving variant played search games (r - 1) x {spec.block:,} to "
                 f"r x {spec.block:,} - 1 of the seed, the same deals, at every table; {plural(r.rounds, 'round')}, "
                 f"{r.spent:,} games (playing every variant for every round: {r.full_cost():,}).")  # fmt: skip
    lines.append(f"- Error control: after each round a variant is dropped when a paired comparison with a survivor shown "
                 f"feasible settles that it is worse (several objectives: worse or identical on each, worse on one), and "
                 f"is set aside as infeasible when a range's interval lies outside it. Each comparison is a confidence "
                 f"sequence (Robbins' normal mixture with the running standard deviation), valid at every round at once, "
                 f"at level {spec.alpha:g} / {r.family:,} = {r.judge.level:.2g}: {r.family:,} is every interval the race "
                 f"could use (Bonferroni), so the chance that any variant is dropped while not worse, or set aside while "
                 f"feasible, is at most {100 * spec.alpha:g}% over the whole race.")  # fmt: skip
    lines.append(f"- Chosen: one objective, the survivor with the best estimate; several, the survivors no other beats on "
                 f"every objective (at most five); among those shown feasible when any is. Fresh deals: games "
                 f"{1 << 40:,} to {(1 << 40) + spec.final - 1:,} of the same seed, none of which the search played "
                 f"(it played games below {spec.budget:,}); {spec.final:,} deals for each chosen variant and the "
                 f"standard rules, at every table.")  # fmt: skip
    lines.append(f"- Wall time {r.seconds:.1f} s.")
    lines.append("- Every figure is a mean over games with its 95% confidence interval and n; a share of games has "
                 "Wilson's interval, inside 0-100%; a paired change is taken deal by deal on the same deals.")  # fmt: skip
    lines += ["", "## Files", "", "- `summary.csv`: every variant: its options, the race (status, rounds, deals, the "
              "round it ended, the variant that beat it), each objective's search estimate and, for the chosen and the "
              "standard rules, the fresh deals' figures and the change against the standard rules."]  # fmt: skip
    if chart_files:
        lines.append("- `charts/NAME.png`, each with its data beside it in `charts/NAME.json`.")
    lines += [f"- Left out: {why}." for why in left_out]
    gloss = "; ".join(f"`{column_of(spec, o)}`: {figure_name(spec.game, column_of(spec, o))}, {g.figure(o.figure.split('[')[0]).unit}" for o in spec.objectives)  # fmt: skip
    lines += ["", f"Figures (the column in summary.csv: meaning, unit): {gloss}.", ""]
    return "\n".join(lines)


def write_outputs(r: DesignResult, out: Path) -> Path:
    """summary.csv, charts/*.png (+ .json) and report.md, each written whole; what an earlier run wrote
    there and this one did not is removed (the outputs manifest, as experiments keep it)."""
    made_charts = charts(r)
    names = [f"charts/{c.name}{ext}" for c in made_charts for ext in (".png", ".json")]
    claim_outputs(out, ["summary.csv", "report.md", f"charts/{MANIFEST}", *names])
    write_csv(r.summary(), out / "summary.csv")
    files, left_out, made = draw_charts(made_charts, out, lambda c, path: (draw_scatter if c.kind == "scatter" else draw)(c, path))  # fmt: skip
    with atomic_write(out / "report.md") as f:
        f.write(render(r, files, left_out))
    written_files = {"summary.csv", "report.md"} | ({f"charts/{MANIFEST}"} | {f"charts/{n}" for n in made} if made else set())  # fmt: skip
    settle_outputs(out, written_files)
    return out


__all__ = ["findings", "summary_table", "write_outputs", "option_words"]
