"""The claims of each game, loaded by name: ``whistsim.claims.NAME`` for every game whistsim plays.

A game's claims module exports ``CLAIMS`` and may export ``NOT_MEASURED`` and
``SOURCE_ERRORS``. It imports the claim model and the runner (claims.model,
claims.run), never this loader nor the package's face.
"""

from __future__ import annotations

import importlib

from ..games import game_names
from .model import Claim

PACKAGE = __package__


def registry(games: list[str] | None = None) -> list[Claim]:
    """Every claim of the games asked for (default: every game whistsim plays)."""
    out: list[Claim] = []
    for g in games or game_names():
        try:
            mod = importlib.import_module(f"{PACKAGE}.{g}")
        except ModuleNotFoundError as e:
            if e.name == f"{PACKAGE}.{g}":
                continue
            raise
        out += list(mod.CLAIMS)
    return out


def not_measured(games: list[str] | None = None) -> list[tuple[str, str, str, str, str]]:
    """Assertions of the sources about play or balance that are not measured: (source, where, quotation,
    translation, why), from each game's ``NOT_MEASURED``."""
    return _gathered("NOT_MEASURED", games)


def _gathered(name: str, games: list[str] | None) -> list:
    """Each game's claims module's list ``name`` (a game with no claims module gives none), joined."""
    out = []
    for g in games or game_names():
        try:
            mod = importlib.import_module(f"{PACKAGE}.{g}")
        except ModuleNotFoundError:
            continue
        out += list(getattr(mod, name, []))
    return out


def source_errors(games: list[str] | None = None) -> list[tuple[str, str, str, str]]:
    """Statements of the sources that contradict their own rules: (source, where, quotation, why), from
    each game's ``SOURCE_ERRORS``."""
    return _gathered("SOURCE_ERRORS", games)
