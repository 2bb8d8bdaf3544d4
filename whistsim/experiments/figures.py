"""Per-game figures an experiment summarises: the game's own, plus derived ones.

Derived from points per seat (any game that reports them):

- ``points_per_player``: the game's total over the number of players;
- ``margin``: the winner's points minus the runner-up's (0 on a tie);
  ``rel_margin``: the margin over points per player;
- ``spread``: the standard deviation of the players' points within a game;
  ``rel_spread``: the spread over points per player;
- ``win[q]``: 1 when seat q scores most (1/k when k seats tie for most);
- ``edge[q]``: seat q's points minus the mean of the others';
- ``pos_points[k]``, ``pos_edge[k]``, ``pos_win[k]``: the same by turn order
  (k = 0 is the player who moved first), when the game reports its first seat.

Welsh Whist also gives ``tt[q]`` (Tens and Taffies won), ``caught`` (revokes
caught by a challenge), ``turns_per_player``, ``most_cards_wins`` and
``most_tt_wins`` (1 when a player with the most cards, or the most Tens and
Taffies, is among the winners) and the ratio ``catch_rate`` (revokes caught
per false pass).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from ..batch import Batch
from ..games import Game

# Ratio figures: name -> (numerator, denominator), estimated as a ratio of means.
RATIOS = {"catch_rate": ("challenges_won", "false_passes")}


def figures(game: Game, batch: Batch, rules: Any) -> dict[str, np.ndarray]:
    out = dict(game.figures(batch, rules))
    points = batch.seat.get("points")
    if points is not None and points.shape[1] >= 2:
        _points_figures(out, points.astype(np.float64), batch.game.get("first"))
    if "tens" in batch.seat and "taffies" in batch.seat:
        tt = batch.seat["tens"] + batch.seat["taffies"]
        for q in range(tt.shape[1]):
            out[f"tt[{q}]"] = tt[:, q]
        if points is not None:
            out["most_tt_wins"] = _leader_wins(points, tt)
    if "won" in batch.seat and points is not None:
        out["most_cards_wins"] = _leader_wins(points, batch.seat["won"])
    if "challenges_won" in batch.game:
        out["caught"] = batch.game["challenges_won"]
    if "turns" in batch.game and points is not None:
        out["turns_per_player"] = batch.game["turns"] / points.shape[1]
    return out


def _leader_wins(points: np.ndarray, by: np.ndarray) -> np.ndarray:
    """1 when a player with the most of ``by`` is among the top scorers."""
    top = points == points.max(axis=1, keepdims=True)
    most = by == by.max(axis=1, keepdims=True)
    return (top & most).any(axis=1).astype(np.int8)


def _points_figures(out: dict[str, np.ndarray], pts: np.ndarray, first: np.ndarray | None) -> None:
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
    best = pts.max(axis=1, keepdims=True)
    tops = pts == best
    win = tops / tops.sum(axis=1, keepdims=True)
    edge = pts - (total[:, None] - pts) / (p - 1)
    for q in range(p):
        out[f"win[{q}]"] = win[:, q]
    for q in range(p):
        out[f"edge[{q}]"] = edge[:, q]
    if first is None:
        return
    rows = np.arange(n)
    for k in range(p):
        seat = (first.astype(np.int64) + k) % p
        out[f"pos_points[{k}]"] = pts[rows, seat]
        out[f"pos_edge[{k}]"] = pts[rows, seat] - ppp
        out[f"pos_win[{k}]"] = win[rows, seat]


@lru_cache(maxsize=64)
def _names(game: Game, rules: Any) -> tuple[str, ...]:
    p = game.players_of(rules)
    from ..strategies import MAX_PARAMS

    empty = game.play_batch(rules, np.zeros(p, np.int64), np.zeros((p, MAX_PARAMS)), seed=0, n=0)
    names = list(figures(game, empty, rules))
    names += [r for r, (a, b) in RATIOS.items() if a in names and b in names]
    return tuple(names)


def figure_names(game: Game, rules: Any) -> list[str]:
    """Every figure measured for games under ``rules`` (ratios included)."""
    return list(_names(game, rules))


def ratio_parts(names: list[str]) -> dict[str, tuple[str, str]]:
    return {r: ab for r, ab in RATIOS.items() if ab[0] in names and ab[1] in names}


_UNITS = (
    ("pos_points", "points per game"),
    ("pos_edge", "points per game above the table's average"),
    ("pos_win", "share of games won"),
    ("points_per_player", "points per player per game"),
    ("points", "points per game"),
    ("total_points", "points per game (all players)"),
    ("won", "cards won per game"),
    ("win", "share of games won"),
    ("edge", "points per game above the others' mean"),
    ("rel_margin", "winning margin over points per player"),
    ("margin", "points (winner minus runner-up)"),
    ("rel_spread", "sd of points within a game over points per player"),
    ("spread", "points (sd within a game)"),
    ("tt", "Tens and Taffies won per game"),
    ("caught", "revokes caught per game"),
    ("catch_rate", "revokes caught per false pass"),
    ("false_passes", "false passes per game"),
    ("challenges_won", "revokes caught per game"),
    ("challenges", "challenges per game"),
    ("last_keeps", "share of games"),
    ("most_cards_wins", "share of games"),
    ("most_tt_wins", "share of games"),
    ("turns_per_player", "turns per player per game"),
    ("turns", "turns per game"),
    ("tricks", "tricks per game"),
    ("draws", "draws per game"),
    ("passes", "passes per game"),
    ("points_per_deal", "points per deal"),
    ("side_won", "share of games won"),
    ("seat_won", "share of games won"),
    ("round_twice", "share of deals"),
    ("deals", "deals per game"),
)


def figure_unit(name: str) -> str:
    """What a figure counts, for axis labels: ``points[0]`` -> ``points per game``."""
    base = name.split("[")[0]
    for key, unit in _UNITS:
        if base == key:
            return unit
    return "per game"
