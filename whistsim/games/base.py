"""What every game gives the rest of whistsim: the seam between games and tools.

A game package builds one :class:`Game`; the batch runner, records, replay,
show, experiments and the CLI use nothing else of it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..batch import Batch
from ..figures import Figure
from ..harness.replay import MoveError, RecordError
from ..strategy import Registry

__all__ = ["Game", "MoveError", "RecordError"]


@dataclass(frozen=True)
class Game:
    name: str  # as in records: "welsh", "scotch", "whist"
    title: str
    presets: tuple[str, ...]  # preset names; the first is the default
    options: tuple  # the rule options (options.Option)
    # (preset, players or None, overrides: dict[str, Any]) -> rules
    rules_of: Callable[..., Any]
    rules_from_record: Callable[[dict], Any]
    # (rules, ids, params, seed=, start=, n=, first=, log_games=) -> Batch
    play_batch: Callable[..., Batch]
    # (rules, batch, i, seed, strategies) -> record i, for i < len(batch.logs): a logged
    # game (welsh) or a logged deal (scotch, whist: every deal of the logged games, in order)
    make_record: Callable[..., dict]
    # record dict -> result dict; raises RecordError / MoveError
    replay: Callable[[dict], dict]
    # record dict -> text for people
    narrate: Callable[[dict], str]
    # the figures the game measures, declared: name, per what, unit, meaning
    figures: tuple[Figure, ...]
    # (batch, rules) -> {figure column: per-game values}, for every declared figure
    measure: Callable[[Batch, Any], dict[str, np.ndarray]]
    # (batch, rules) -> (score, win) per game and seat, for tournaments: a seat's result,
    # and its share of a win (1, 0, or 1/k when k seats tie)
    outcome: Callable[[Batch, Any], tuple[np.ndarray, np.ndarray]]
    players: Registry
    players_of: Callable[[Any], int]
    sides_of: Callable[[Any], int]
    # What one simulated game is called where they are counted ("400 paired deals"): "deal" by
    # default; "game" where it is a whole game of many deals (Oh Hell: every round of the schedule).
    unit: str = "deal"

    def make_rules(
        self, preset: str | None = None, players: int | None = None, overrides: dict[str, Any] | None = None
    ) -> Any:
        """Rules from a preset, a player count and option overrides (``{"challenge": "akagiri"}``).

        The player count may come as ``players`` or as ``overrides["players"]``: when both
        are given they must agree.
        """
        from ..options import RuleError, near

        overrides = dict(overrides or {})
        if preset is not None and preset not in self.presets:
            raise RuleError(
                f"unknown preset {preset!r} for {self.name}{near(preset, self.presets)} "
                f"(known: {', '.join(self.presets)})"
            )
        option = next((o for o in self.options if o.key == "players"), None)
        if option is None and "players" in overrides:
            raise RuleError(
                f"unknown rule 'players' for {self.name} (known: {', '.join(o.key for o in self.options)})"
            )
        if option is not None and "players" in overrides:
            said = option.parse(overrides.pop("players"))
            if players is not None and said != players:
                raise RuleError(f"rule players={said}: but {players} players were asked for")
            players = said
        return self.rules_of(preset or self.presets[0], players, overrides)

    def figure(self, column: str) -> Figure:
        """The declared figure of a column such as ``points[2]``."""
        base = column.split("[", 1)[0]
        for f in self.figures:
            if f.name == base:
                return f
        raise KeyError(column)
