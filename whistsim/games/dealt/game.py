"""A dealt game (Scotch Whist, Whist) as the tools see it: its rules class bound to the shared kernel."""

from __future__ import annotations

from functools import partial
from typing import Any

from ...core.strategy import Registry
from ...harness.users import user_checker
from ..base import Game
from . import advice, kernels, narrate, players, records
from .figures import measure, outcome
from .kernels import play_batch
from .table import DealtDeal
from .words import words_of


def dealt_game(name: str, title: str, rules_cls: type, options: tuple, presets: dict, figures: tuple) -> Game:
    def rules_of(preset: str, n: int | None, overrides: dict[str, Any]):
        return rules_cls.make(preset, n, **overrides)

    return Game(
        name=name,
        title=title,
        presets=tuple(presets),
        options=options,
        rules_of=rules_of,
        rules_from_record=rules_cls.from_record,
        play_batch=play_batch,
        make_record=partial(records.make_record, name),
        replay=partial(records.replay, name, rules_cls),
        narrate=partial(narrate.narrate, name, rules_cls),
        figures=figures,
        measure=measure,
        outcome=outcome,
        players=Registry(name, players.PLAYERS, user_checker(kernels)),
        players_of=lambda rules: rules.players,
        sides_of=lambda rules: rules.n_teams,
        words=words_of,
        table=DealtDeal,
        # pimc gains 0.69 (Scotch) and 0.17 (Whist) points a deal over heuristic (docs/pimc.md) and
        # answers in a median 6 ms at the table; dd is far slower and no stronger shown (docs/solver.md)
        default_player="pimc",
        idle_rules=advice.idle_rules,
        idle_params=advice.idle_params,
    )
