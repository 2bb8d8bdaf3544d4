"""Figures, declared: what a game measures, per game, seat or side, in which unit.

Each game declares its figures (:class:`Figure`) and measures them from a
batch (``Game.measure``); tables, reports, chart labels and tournaments read
the declaration, so no code outside a game needs to know a figure's name. A
figure ``per`` seat, side or turn position is one column per index:
``points[0]``, ``points[1]``, ...

:func:`points_figures` derives the figures every game with per-seat points
shares (margins, spreads, wins, edges, turn positions), for games to use in
their ``measure``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

PER = ("game", "seat", "side", "turn")


@dataclass(frozen=True)
class Figure:
    name: str
    per: str  # "game": one value a game; "seat" / "side" / "turn" (turn order): one per index
    unit: str  # what one value counts, for tables and axes: "points per game"
    doc: str  # one line: what it means
    rate: bool = False  # each game's value is 0 or 1: a share of games, with a proportion's interval
    ratio: tuple[str, str] | None = None  # a ratio of the means of two game figures, not a per-game mean
    basic: bool = True  # shown by ``simulate``; False: studies only
    # Constant by the rules (e.g. Welsh ``draws``: the whole stock is drawn): a test on the rules,
    # so that "exact" is said only when no deal could differ, not when a sample happened not to.
    exact: Callable[[Any], bool] | None = None

    def is_exact(self, rules: Any) -> bool:
        return self.exact is not None and bool(self.exact(rules))

    def columns(self, players: int, sides: int) -> list[str]:
        if self.per == "game":
            return [self.name]
        k = sides if self.per == "side" else players
        return [f"{self.name}[{i}]" for i in range(k)]


def columns(figures: tuple[Figure, ...], players: int, sides: int, *, basic_only: bool = False) -> list[str]:
    """Every column of the declared figures, in declaration order."""
    return [c for f in figures if f.basic or not basic_only for c in f.columns(players, sides)]


def points_declared(per_what: str = "game") -> tuple[Figure, ...]:
    """The declarations of :func:`points_figures`' figures."""
    pg = f"points per {per_what}"
    return (
        Figure("points_per_player", "game", f"points per player per {per_what}", "all points scored over the number of players", basic=False),
        Figure("margin", "game", pg, "the top score minus the runner-up's (0 on a tie)", basic=False),
        Figure("rel_margin", "game", "share of points per player", "the winning margin over the points per player", basic=False),
        Figure("spread", "game", pg, "the standard deviation of the players' points within a game", basic=False),
        Figure("rel_spread", "game", "share of points per player", "the spread over the points per player", basic=False),
        Figure("win", "seat", "share of games won", "1 when the seat scores most (1/k when k seats tie)"),
        Figure("top_tie", "game", "share of games", "two or more seats tie for the top score (they share the win)", rate=True),
        Figure("edge", "seat", pg, "the seat's points minus the mean of the others'", basic=False),
        Figure("pos_points", "turn", pg, "points of the player k-th in turn order (0: moves first)", basic=False),
        Figure("pos_edge", "turn", pg, "points of the k-th player in turn order minus the table's average", basic=False),
        Figure("pos_win", "turn", "share of games won", "wins of the k-th player in turn order (ties shared)", basic=False),
    )  # fmt: skip


def points_figures(pts: np.ndarray, first: np.ndarray) -> dict[str, np.ndarray]:
    """Figures derived from points per game and seat (``pts`` [n, players]) and each game's first seat."""
    out: dict[str, np.ndarray] = {}
    pts = pts.astype(np.float64)
    n, p = pts.shape
    total = pts.sum(axis=1)
    ppp = total / p
    top2 = np.sort(pts, axis=1)[:, -2:]
    margin = top2[:, 1] - top2[:, 0]
    spread = pts.std(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = np.where(ppp != 0, ppp, np.nan)
        out["points_per_player"] = ppp
        out["margin"] = margin
        out["rel_margin"] = np.nan_to_num(margin / scale)
        out["spread"] = spread
        out["rel_spread"] = np.nan_to_num(spread / scale)
    win = top_share(pts)
    out["top_tie"] = ((pts == pts.max(axis=1, keepdims=True)).sum(axis=1) > 1).astype(np.int8)
    edge = pts - (total[:, None] - pts) / (p - 1)
    for q in range(p):
        out[f"win[{q}]"] = win[:, q]
    for q in range(p):
        out[f"edge[{q}]"] = edge[:, q]
    rows = np.arange(n)
    for k in range(p):
        seat = (first.astype(np.int64) + k) % p
        out[f"pos_points[{k}]"] = pts[rows, seat]
        out[f"pos_edge[{k}]"] = pts[rows, seat] - ppp
        out[f"pos_win[{k}]"] = win[rows, seat]
    return out


def top_share(points: np.ndarray) -> np.ndarray:
    """[n, players]: 1 for the top score, 1/k each when k seats tie for it."""
    tops = points == points.max(axis=1, keepdims=True)
    return tops / tops.sum(axis=1, keepdims=True)


def leader_wins(points: np.ndarray, by: np.ndarray) -> np.ndarray:
    """1 when a player with the most of ``by`` is among the top scorers."""
    top = points == points.max(axis=1, keepdims=True)
    most = by == by.max(axis=1, keepdims=True)
    return (top & most).any(axis=1).astype(np.int8)
