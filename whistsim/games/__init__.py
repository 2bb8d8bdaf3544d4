"""The games whistsim plays, found by name."""

from __future__ import annotations

import importlib

from ..options import RuleError
from ..strategy import StrategySpec, seat_players
from .base import Game, MoveError, RecordError

__all__ = ["Game", "MoveError", "RecordError", "get_game", "game_names", "seating"]

NAMES = ("welsh", "scotch", "whist")  # each a package games/<name>/ holding GAME
_GAMES: dict[str, Game] = {}


def game_names() -> list[str]:
    return list(NAMES)


def get_game(name: str) -> Game:
    """The game of that name (its package is imported on first use)."""
    if name not in NAMES:
        raise RuleError(f"unknown game {name!r} (known: {', '.join(NAMES)})")
    if name not in _GAMES:
        _GAMES[name] = importlib.import_module(f"{__name__}.{name}").GAME
    return _GAMES[name]


def seating(game: str, specs: list[StrategySpec], players: int):
    """One strategy spec per seat (or one for all) -> (ids, params), for ``game``'s players."""
    return seat_players(get_game(game).players, specs, players)
