"""Players: per game, a registry of built-in strategies and their parameters.

A seat's player is written ``NAME[:KEY=VALUE,...]``, e.g. ``random:draw=0.3``.
:func:`seating` turns one spec per seat into the arrays the kernels read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import ModuleType

import numpy as np

from ..options import WhistsimError

MAX_PARAMS = 8


class StrategyError(WhistsimError):
    """An unknown strategy, a bad parameter, or an illegal decision made in play."""


@dataclass(frozen=True)
class StrategySpec:
    name: str
    params: dict[str, float] = field(default_factory=dict)

    def __str__(self) -> str:
        if not self.params:
            return self.name
        return self.name + ":" + ",".join(f"{k}={v:g}" for k, v in self.params.items())


def parse_spec(text: str) -> StrategySpec:
    """``"random:draw=0.3,false_pass=0"`` -> StrategySpec."""
    name, _, rest = text.strip().partition(":")
    params: dict[str, float] = {}
    for item in filter(None, (x.strip() for x in rest.split(","))):
        key, sep, value = item.partition("=")
        if not sep:
            raise StrategyError(f"strategy {text!r}: parameter {item!r} is not KEY=VALUE")
        try:
            params[key.strip()] = float(value)
        except ValueError:
            raise StrategyError(f"strategy {text!r}: {key.strip()}={value!r} is not a number") from None
    return StrategySpec(name.strip(), params)


def _builtins(game: str) -> dict[str, ModuleType]:
    if game == "welsh":
        from .welsh import BUILTINS
    else:
        raise StrategyError(f"no strategies for game {game!r}")
    return BUILTINS


def available(game: str) -> dict[str, dict[str, tuple[float, str]]]:
    """Built-in strategy names -> their parameters (default, doc)."""
    return {name: mod.PARAMS for name, mod in _builtins(game).items()}


def seating(game: str, specs: list[StrategySpec], players: int) -> tuple[np.ndarray, np.ndarray]:
    """One spec per seat (or one for all) -> (ids int64[P], params float64[P, MAX_PARAMS])."""
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise StrategyError(f"{len(specs)} strategies given for {players} seats")
    builtins = _builtins(game)
    names = list(builtins)
    ids = np.zeros(players, np.int64)
    params = np.zeros((players, MAX_PARAMS), np.float64)
    for seat, spec in enumerate(specs):
        if spec.name not in builtins:
            raise StrategyError(f"seat {seat}: unknown strategy {spec.name!r} (known: {', '.join(names)})")
        declared = builtins[spec.name].PARAMS
        for key in spec.params:
            if key not in declared:
                raise StrategyError(
                    f"seat {seat}: strategy {spec.name!r} has no parameter {key!r} "
                    f"(known: {', '.join(declared) or 'none'})"
                )
        ids[seat] = names.index(spec.name)
        for i, (key, (default, _doc)) in enumerate(declared.items()):
            params[seat, i] = spec.params.get(key, default)
    return ids, params
