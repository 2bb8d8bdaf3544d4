"""What every game gives the rest of whistsim: the seam between games and tools.

A game package builds one :class:`Game`; the batch runner, records, replay,
show, experiments and the CLI use nothing else of it. The fields after ``players`` are
optional: a game without them has ``rules.players`` seats, each for itself, is told in plain
words, has no table for ``whistsim play``, and warns of no idle setting.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from ..core.batch import Batch
from ..core.figures import Figure
from ..core.strategy import Registry, StrategySpec
from ..harness.narrator import PLAIN, Words
from ..harness.replay import MoveError, RecordError
from ..harness.users import user_checker

__all__ = ["Game", "MoveError", "RecordError", "game_from_parts", "param_given", "turned_on"]


def _players(rules: Any) -> int:
    return rules.players


def _plain_words(rules: Any) -> Words:
    return PLAIN


def _no_advice(rules: Any, what: Any) -> list[str]:
    return []


def param_given(spec: StrategySpec, keys: tuple[str, ...]) -> tuple[str, Any] | None:
    """The first of ``keys`` the player's spec sets, with its value (None: none set)."""
    for k in keys:
        if k in spec.params:
            return k, spec.params[k]
    return None


def turned_on(value: Any) -> bool:
    """Does a parameter's value ask for something (not 0, never, none)?"""
    return str(value).strip().lower() not in {"0", "0.0", "never", "none"}


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
    players_of: Callable[[Any], int] = _players
    sides_of: Callable[[Any], int] = _players  # each seat for itself, unless the game says otherwise
    # rules -> how the game says its cards, leads and won tricks (harness.narrator)
    words: Callable[[Any], Words] = _plain_words
    # the deal at the table (a harness.table.Deal subclass): whistsim play, new_game
    table: type | None = None
    # the player of the other seats and of the hint at the table: the strongest fast one
    default_player: str = "random"
    # (rules, option keys the user set) -> one line per option the other rules make idle
    idle_rules: Callable[[Any, set[str]], list[str]] = _no_advice
    # (rules, a player's spec) -> one line per parameter of that player the rules never consult
    idle_params: Callable[[Any, StrategySpec], list[str]] = _no_advice
    # a player's parameters for false passes: experiments refuse them where revokes are off
    cheat_params: tuple[str, ...] = ()
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
        from ..core.options import RuleError, near

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

    def describe(self, rules: Any) -> str:
        """The rules in one line: the rules' own ``describe()``, or their fields for a game that gives none."""
        if hasattr(rules, "describe"):
            return rules.describe()
        from ..core.options import describe

        return describe(self.rules_record(rules))

    def rules_record(self, rules: Any) -> dict[str, Any]:
        """The rules as a record writes them: the rules' own ``to_record()``, or their fields."""
        if hasattr(rules, "to_record"):
            return rules.to_record()
        from dataclasses import asdict

        return asdict(rules)

    def figure(self, column: str) -> Figure:
        """The declared figure of a column such as ``points[2]``."""
        base = column.split("[", 1)[0]
        for f in self.figures:
            if f.name == base:
                return f
        raise KeyError(column)


def game_from_parts(
    name: str,
    title: str,
    rules: type,
    *,
    presets: Any,
    options: tuple,
    kernels: ModuleType,
    players: dict,
    advice: ModuleType,
    **own: Any,
) -> Game:
    """A game laid out as whistsim's own are: a rules class made from a preset (its ``make`` and
    ``from_record``), a kernel module (its ``play_batch``, and the check of users' players against
    its view), the built-in players by name, and an ``advice`` module's idle settings. ``own``: the
    other fields of :class:`Game`, those the game says itself."""

    def rules_of(preset: str, n: int | None, overrides: dict[str, Any]) -> Any:
        return rules.make(preset, n, **overrides)

    return Game(
        name=name,
        title=title,
        presets=tuple(presets),
        options=options,
        rules_of=rules_of,
        rules_from_record=rules.from_record,
        play_batch=kernels.play_batch,
        players=Registry(name, players, user_checker(kernels)),
        idle_rules=advice.idle_rules,
        idle_params=advice.idle_params,
        **own,
    )
