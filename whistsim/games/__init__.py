"""The games whistsim plays, found by name."""

from __future__ import annotations

import importlib
from typing import Any

from ..core.options import RuleError, WhistsimError
from ..core.strategy import StrategySpec, seat_players
from .base import Game, MoveError, RecordError

__all__ = ["Game", "MoveError", "RecordError", "get_game", "game_names", "register", "seating"]

NAMES = ("welsh", "scotch", "whist", "ohhell")  # each a package games/<name>/ holding GAME
_GAMES: dict[str, Game] = {}
_OUTSIDE: list[bool] = []  # the games defined outside whistsim are imported (_import_outside)


def game_names() -> list[str]:
    _import_outside()
    return list(NAMES) + [n for n in _GAMES if n not in NAMES]


def get_game(name: str) -> Game:
    """The game of that name (its package is imported on first use)."""
    if name not in _GAMES:
        if name in NAMES:
            _GAMES[name] = importlib.import_module(f"{__name__}.{name}").GAME
        else:
            _import_outside()
            if name not in _GAMES:
                known = ", ".join(game_names())
                raise RuleError(f"unknown game {name!r}{_did_you_mean(name)} (known: {known})")
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


def _import_outside() -> None:
    """Import, once, the games defined outside whistsim (each calls ``register``): the entry points
    of the group ``whistsim.games`` of the installed distributions, and the modules named in
    ``WHISTSIM_GAMES`` (comma-separated; found from the current folder too, as ``python -m`` does)."""
    import os
    import sys
    from importlib.metadata import entry_points

    if _OUTSIDE:
        return
    for ep in entry_points(group="whistsim.games"):
        try:
            game = ep.load()
        except Exception as e:
            raise WhistsimError(f"entry point {ep.name} ({ep.value}) does not load: {_said(e)}") from None
        if isinstance(game, Game) and game.name not in _GAMES:
            register(game)
    here = os.getcwd()
    for name in filter(None, (n.strip() for n in os.environ.get("WHISTSIM_GAMES", "").split(","))):
        sys.path.insert(0, here)
        try:
            importlib.import_module(name)
        except Exception as e:
            raise WhistsimError(f"WHISTSIM_GAMES: {name} does not import: {_said(e)}") from None
        finally:
            sys.path.remove(here)
    _OUTSIDE.append(True)


def _said(e: Exception) -> str:
    return f"{type(e).__name__}: {(str(e).splitlines() or [''])[0]}"


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
