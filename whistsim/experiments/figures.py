"""The figures an experiment summarises, as its game declares them.

A game declares its figures (``Game.figures``: name, per what, unit, meaning,
rate, ratio) and measures them (``Game.measure``); this module is the
experiments' view of that declaration: the columns measured under a cell's
rules, the ratio figures (a ratio of two means, not a per-game mean), the
shares (a Wilson interval) and each figure's unit for labels. Nothing here
knows a figure by its name.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from ..core import tables
from ..core.batch import Batch
from ..core.figures import Figure, columns
from ..games import Game, get_game


def declared(game: str, column: str) -> Figure | None:
    """The declaration of a column such as ``points[2]`` in ``game``, or None."""
    try:
        return get_game(game).figure(column)
    except KeyError:
        return None


def ratios(game: str) -> dict[str, tuple[str, str]]:
    """The game's ratio figures: name -> (numerator, denominator), estimated as a ratio of means."""
    return {f.name: f.ratio for f in get_game(game).figures if f.ratio is not None}


def is_ratio(game: str, column: str) -> bool:
    f = declared(game, column)
    return f is not None and f.ratio is not None


def is_rate(game: str, column: str) -> bool:
    """Each game's value is 0 or 1 (ties shared): a share of games, with a proportion's interval."""
    f = declared(game, column)
    return f is not None and f.rate


def is_share(game: str, column: str) -> bool:
    """A declared share (:func:`whistsim.core.tables.is_share`): its reported interval is Wilson's, inside [0, 1]."""
    f = declared(game, column)
    return f is not None and tables.is_share(f)


def _index(column: str) -> int | None:
    m = re.fullmatch(r"[^\[]+\[(\d+)\]", column)
    return int(m.group(1)) if m else None


def ordinal(k: int) -> str:
    return f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"


def figure_name(game: str, column: str) -> str:
    """A figure in plain words, from its declared meaning: ``tt[0]`` -> ``Tens and Taffies in seat 0's
    winnings pile``; ``pos_edge[0]`` -> ``points of the 1st player in turn order minus the table's
    average``. An undeclared column is given with its underscores and brackets spelt out."""
    f = declared(game, column)
    k = _index(column)
    if f is None:
        text = column.replace("_", " ")
        return re.sub(r"\[(\d+)\]", r" \1", text)
    text = f.doc
    if text.startswith("1 when "):
        text = "games in which " + text[len("1 when ") :]
    text = re.sub(r"\(1/k when k \w+ tie\)", "(ties shared)", text)
    text = text.replace("with unit=deal:", "when single deals are played:")  # a rule's code name
    if k is not None:
        if f.per == "turn":
            who = f"the {ordinal(k + 1)} player in turn order"
            text = re.sub(r"the player k-th in turn order( \(0: moves first\))?", who, text)
            text = text.replace("the k-th player in turn order", who)
        else:
            who = f"{f.per} {k}"
            text = re.sub(rf"\bthe {f.per}'s\b", f"{who}'s", text)
            text = re.sub(rf"\bthe {f.per}\b", who, text)
            if str(k) not in text:
                text += f" ({who})"
    return text


def figure_label(game: str, column: str) -> str:
    """A figure's name with its unit, for table headers and axes: ``... (points per game)``."""
    return f"{figure_name(game, column)} ({figure_unit(game, column)})"


def figure_unit(game: str, column: str) -> str:
    """What a figure counts, for labels: ``points[0]`` -> ``points per game``."""
    f = declared(game, column)
    return f.unit if f is not None else "per game"


def figures(game: Game, batch: Batch, rules: Any) -> dict[str, np.ndarray]:
    """Every per-game figure of the game (ratio figures are made from their parts)."""
    skip = ratios(game.name)
    return {k: v for k, v in game.measure(batch, rules).items() if k not in skip}


def figure_names(game: Game, rules: Any) -> list[str]:
    """Every figure measured for games under ``rules`` (ratios included)."""
    return columns(game.figures, game.players_of(rules), game.sides_of(rules))


def ratio_parts(game: str, names: list[str]) -> dict[str, tuple[str, str]]:
    """The ratio figures whose two parts are among ``names``."""
    return {r: ab for r, ab in ratios(game).items() if ab[0] in names and ab[1] in names}
