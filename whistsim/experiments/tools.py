"""What the readings share: figures, axes, cells and players in plain words, series for charts.

The studies' own readings (whistsim.experiments.studies.NAME) and the generic
reading (whistsim.experiments.reading) are built on these. Nothing here loads
a study: a study imports this module, never the loader that imports it by name.
"""

from __future__ import annotations

import math
from typing import Any

from ..core.stats import Estimate
from .figures import figure_label, figure_name, figure_unit, is_ratio, is_share
from .results import ChartSeries, ExperimentResult, fmt_est
from .spec import Cell, Spec, fmt_value

MAX_SERIES = 10


def signed(e: Estimate, unit: str = "") -> str:
    s = fmt_est(e, unit)
    return ("+" + s) if e.mean > 0 else s


def unit(result: ExperimentResult, figure: str) -> str:
    return figure_unit(result.spec.game, figure)


def name(result: ExperimentResult, figure: str) -> str:
    """A figure in plain words (its declared meaning): ``tt[0]`` -> ``Tens and Taffies in seat 0's ...``."""
    return figure_name(result.spec.game, figure)


def label(result: ExperimentResult, figure: str) -> str:
    """A figure's plain name and unit, for axes and table headers."""
    return figure_label(result.spec.game, figure)


def pct(x: float) -> str:
    return "–" if not math.isfinite(x) else f"{100 * x:.1f}%" if abs(x) >= 0.001 else f"{100 * x:.2f}%"


def fmt_share(e: Estimate, of: str = "games") -> str:
    """A share as a percentage: ``31.2% (95% CI 30.9–31.5%, n=100,000 games)`` (the interval as given:
    Wilson's for a share)."""
    if e.n < 2 or not math.isfinite(e.low):
        return f"{pct(e.mean)} (n={e.n:,} {of})"
    return f"{pct(e.mean)} (95% CI {pct(e.low)[:-1]}–{pct(e.high)}, n={e.n:,} {of})"


def tell(result: ExperimentResult, figure: str, e: Estimate) -> str:
    """An estimate of ``figure`` as a sentence gives it: a share in percent, else with its unit."""
    if is_share(result.spec.game, figure):
        return fmt_share(e)
    return fmt_est(e, unit(result, figure))


def axis_name(spec: Spec, axis: str) -> str:
    """An axis in plain words: its label in the spec, else ``rules.taffy_rank`` -> ``taffy rank``,
    ``seats.0`` -> ``seat 0 plays``, ``seats.all.challenge`` -> ``every seat's challenge``."""
    if axis in spec.labels:
        return spec.labels[axis]
    parts = axis.split(".")
    if axis in ("where", "game"):
        return "dealt where" if axis == "where" else "game"
    if parts[0] == "rules":
        return parts[1].replace("_", " ")
    who = "every seat" if parts[1] == "all" else f"seat {parts[1]}"
    if len(parts) == 2:
        return f"{who} plays"
    return f"{who}'s {parts[2].replace('_', ' ')}"


# Players a card player would not know by their code names (docs/reports.md#how-to-read-this).
PLAYER_WORDS = {"pimc": "sampling search", "pimc2": "sampling search that draws throughout"}


def player_words(text: str) -> str:
    """A player spec in words: ``pimc`` -> ``sampling search``; ``hoarder:lead=sure`` -> ``hoarder (lead: sure)``."""
    name, _, params = str(text).partition(":")
    words = PLAYER_WORDS.get(name, name)
    if not params:
        return words
    return f"{words} ({', '.join(kv.replace('=', ': ') for kv in params.split(','))})"


def value_words(axis: str, value: Any) -> str:
    """A swept value in words: a seat's player by :func:`player_words`, any other value as written."""
    v = fmt_value(value)
    return player_words(v) if axis.startswith("seats.") and axis.count(".") == 1 else v


def value_text(spec: Spec, axis: str, value: Any) -> str:
    """``players`` = 3 -> ``3 players``; ``seat 0 plays`` = hunter -> ``seat 0 plays hunter``."""
    a, v = axis_name(spec, axis), value_words(axis, value)
    if is_num(value) and float(value).is_integer() and " " not in a and a.endswith("s"):
        return f"{v} {a}"
    return f"{a} {v}"


def group_label(spec: Spec, cell: Cell, skip: set[str]) -> str:
    """A cell in plain words, leaving out the axes in ``skip``: ``preset parlett, 3 players``."""
    parts = [value_text(spec, a, v) for a, v in cell.coords if a not in skip and v is not None]
    return ", ".join(parts) or "all cells"


def cell_text(spec: Spec, cell: Cell) -> str:
    return group_label(spec, cell, set()) if cell.coords else "all games"


def differenced(spec: Spec) -> list[str]:
    """The headline figures with per-game paired differences (a ratio of means has none)."""
    return [f for f in spec.headline if not is_ratio(spec.game, f)]


def axis_values(spec: Spec, axis: str) -> list[Any]:
    out: list[Any] = []
    for c in spec.cells:
        v = c.value(axis)
        if v is not None and all(fmt_value(v) != fmt_value(x) for x in out):
            out.append(v)
    return out


def is_num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def find_axis(spec: Spec, pred: Any) -> str | None:
    return next((a for a in spec.axes if pred(a)), None)


def main_axis(spec: Spec) -> str | None:
    """The x axis of charts: the numeric axis with the most values, else the first axis with several."""
    multi = [a for a in spec.axes if len(axis_values(spec, a)) > 1]
    numeric = [a for a in multi if all(is_num(v) for v in axis_values(spec, a))]
    if numeric:
        return max(numeric, key=lambda a: len(axis_values(spec, a)))
    return multi[0] if multi else None


def series(
    result: ExperimentResult, figure: str, x_axis: str, *, paired: bool = False, cells: list[Cell] | None = None,
    skip: set[str] | None = None, pair_axis: str | None = None, shares: frozenset[str] = frozenset(),
) -> list[ChartSeries]:  # fmt: skip
    """One series per combination of the other axes; x is ``x_axis``'s value.

    ``paired``: y is the difference against the first baseline of ``pair_axis`` (default ``x_axis``);
    on the x axis itself the baseline is drawn at 0. Series are labelled in plain words; a share (or a
    ratio named in ``shares``) has Wilson's interval.
    """
    spec = result.spec
    skip = {x_axis} | (skip or set())
    pair_axis = pair_axis or x_axis
    groups: dict[str, ChartSeries] = {}
    for c in cells if cells is not None else spec.cells:
        x = c.value(x_axis)
        if x is None:
            continue
        if paired:
            base = spec.baseline.get(pair_axis, [None])[0]
            if base is not None and fmt_value(c.value(pair_axis)) == fmt_value(base):
                if pair_axis != x_axis:
                    continue
                e = Estimate(0.0, 0.0, result.games)
            else:
                d = result.difference(c.index, figure, pair_axis, base)
                if d is None:
                    continue
                e = d[0]
        else:
            e = result.reported(c.index, figure, shares)
        if not math.isfinite(e.mean):
            continue
        key = group_label(spec, c, skip)
        s = groups.setdefault(key, ChartSeries(key, [], [], [], []))
        s.x.append(x)
        s.y.append(e.mean)
        s.low.append(e.low if e.n >= 2 and math.isfinite(e.low) else e.mean)
        s.high.append(e.high if e.n >= 2 and math.isfinite(e.high) else e.mean)
    return list(groups.values())[:MAX_SERIES]


def points(ss: list[ChartSeries]) -> list[tuple[str, Any, float]]:
    """(series label, x, y) of every point of some series."""
    return [(s.label, x, y) for s in ss for x, y in zip(s.x, s.y, strict=True)]


def slug(s: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in s).strip("-").replace("--", "-")


def seat_gap(result: ExperimentResult, cell: Cell) -> tuple[int, Estimate]:
    """The turn position whose edge over the table average is largest in size, relative to a fair share."""
    p = len(cell.players)
    ppp = result.estimate(cell.index, "points_per_player").mean
    best = None
    for k in range(p):
        e = result.estimate(cell.index, f"pos_edge[{k}]")
        if best is None or abs(e.mean) > abs(best[1].mean):
            best = (k, e)
    k, e = best  # type: ignore[misc]
    scale = ppp if ppp else 1.0
    return k, Estimate(abs(e.mean) / scale, e.sd / abs(scale), e.n)


def cap(s: str) -> str:
    return s[:1].upper() + s[1:]
