"""Warnings about settings that do nothing: a player parameter the chosen rules never consult, or a
rule option that the other rules make idle (a revoke penalty where revokes are off).

``cheater:rate=0.2,challenge=smart`` under rules where revokes are off plays
exactly as ``cheater`` would with no cheating and no challenges: the run is
valid, but it does not answer the question it seems to ask. Each such setting
is one line (:class:`WhistsimWarning`); the command line prints it as
``whistsim: warning: ...``. What is idle under which rules is each game's own
knowledge (``Game.idle_rules``, ``Game.idle_params``; ``games/<name>/advice.py``).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from typing import Any

from ..core.options import WhistsimWarning
from ..core.strategy import StrategySpec, parse_spec
from ..games import get_game

__all__ = ["WhistsimWarning", "idle_rules", "ineffective", "warn_ineffective"]


def idle_rules(game: str, rules: Any, given: Iterable[str]) -> list[str]:
    """One line per rule option the user set (``given``) that the other ``rules`` make idle."""
    return get_game(game).idle_rules(rules, set(given))


def ineffective(
    game: str, rules: Any, strategies: Iterable[str | StrategySpec], given: Iterable[str] = ()
) -> list[str]:
    """One line per player parameter that the ``rules`` of ``game`` never consult, and per rule option set
    by the user (``given``: its keys) that the other rules make idle."""
    g = get_game(game)
    out = g.idle_rules(rules, set(given))
    seen: set[str] = set()
    for s in strategies:
        spec = s if isinstance(s, StrategySpec) else parse_spec(str(s))
        if str(spec) not in seen:
            seen.add(str(spec))
            out += g.idle_params(rules, spec)
    return out


def warn_ineffective(
    game: str, rules: Any, strategies: Iterable[str | StrategySpec], given: Iterable[str] = ()
) -> list[str]:
    """Issue a :class:`WhistsimWarning` for each line of :func:`ineffective`; returns them."""
    lines = ineffective(game, rules, strategies, given)
    for line in lines:
        warnings.warn(line, WhistsimWarning, stacklevel=3)
    return lines
