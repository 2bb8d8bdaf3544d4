"""The games whistsim plays, found by name."""

from __future__ import annotations

import importlib
from typing import Any

from ..options import RuleError
from ..strategy import StrategySpec, seat_players
from .base import Game, MoveError, RecordError

__all__ = ["Game", "MoveError", "RecordError", "get_game", "game_names", "register", "seating"]

NAMES = ("welsh", "scotch", "whist", "ohhell")  # each a package games/<name>/ holding GAME
_GAMES: dict[str, Game] = {}


def game_names() -> list[str]:
    return list(NAMES) + [n for n in _GAMES if n not in NAMES]


def get_game(name: str) -> Game:
    """The game of that name (its package is imported on first use)."""
    if name not in _GAMES:
        if name not in NAMES:
            raise RuleError(f"unknown game {name!r}{_did_you_mean(name)} (known: {', '.join(game_names())})")
        _GAMES[name] = importlib.import_module(f"{__name__}.{name}").GAME
    return _GAMES[name]


def _did_you_mean(name: Any) -> str:
    """A near miss: a preset's name (``french``), or a game's name mistyped."""
    import difflib

    if not isinstance(name, str):
        return ""
    for g in NAMES:
        if name.strip().lower() in get_game(g).presets:
            return f"; did you mean --game {g} --preset {name.strip().lower()}?"
    close = difflib.get_close_matches(name.strip().lower(), game_names(), n=1)
    return f"; did you mean {close[0]}?" if close else ""


def register(game: Game) -> Game:
    """Make a game defined outside whistsim known by its name to every tool (simulate,
    replay, show, experiments): its package calls this when imported."""
    if game.name in NAMES:
        raise RuleError(f"game {game.name!r} is whistsim's own")
    _GAMES[game.name] = game
    return game


def seating(game: str, specs: list[StrategySpec], players: int):
    """One strategy spec per seat (or one for all) -> (ids, params), for ``game``'s players."""
    return seat_players(get_game(game).players, specs, players)
