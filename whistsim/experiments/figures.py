"""The figures an experiment summarises, as each game declares them.

A game declares its figures (``Game.figures``: name, per what, unit, meaning)
and measures them (``Game.measure``); this module is the experiments' view of
that declaration: the columns measured under a cell's rules, the ratio figures
(a ratio of two means, not a per-game mean) and each figure's unit for labels.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from ..batch import Batch
from ..figures import Figure, columns
from ..games import Game, game_names, get_game


def _all_figures() -> list[Figure]:
    return [f for name in game_names() for f in get_game(name).figures]


@lru_cache(maxsize=1)
def RATIOS() -> dict[str, tuple[str, str]]:  # noqa: N802 (a constant, read lazily)
    """Ratio figures of every game: name -> (numerator, denominator), estimated as a ratio of means."""
    return {f.name: f.ratio for f in _all_figures() if f.ratio is not None}


def figures(game: Game, batch: Batch, rules: Any) -> dict[str, np.ndarray]:
    """Every per-game figure of the game (ratio figures are made from their parts)."""
    ratios = RATIOS()
    return {k: v for k, v in game.measure(batch, rules).items() if k not in ratios}


def figure_names(game: Game, rules: Any) -> list[str]:
    """Every figure measured for games under ``rules`` (ratios included)."""
    return columns(game.figures, game.players_of(rules), game.sides_of(rules))


def ratio_parts(names: list[str]) -> dict[str, tuple[str, str]]:
    return {r: ab for r, ab in RATIOS().items() if ab[0] in names and ab[1] in names}


def figure_unit(name: str) -> str:
    """What a figure counts, for axis labels: ``points[0]`` -> ``points per game``."""
    base = name.split("[")[0]
    for f in _all_figures():
        if f.name == base:
            return f.unit
    return "per game"
