"""The games whistsim plays, found by name."""

from __future__ import annotations

from ..options import RuleError
from .base import Game, MoveError, RecordError

__all__ = ["Game", "MoveError", "RecordError", "get_game", "game_names"]


def _registry() -> dict[str, Game]:
    from .scotch import GAME as scotch
    from .welsh import GAME as welsh
    from .whist import GAME as whist

    return {g.name: g for g in (welsh, scotch, whist)}


def game_names() -> list[str]:
    return list(_registry())


def get_game(name: str) -> Game:
    games = _registry()
    if name not in games:
        raise RuleError(f"unknown game {name!r} (known: {', '.join(games)})")
    return games[name]
