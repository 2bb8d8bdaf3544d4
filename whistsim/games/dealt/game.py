"""A dealt game (Scotch Whist, Whist) as the tools see it: its rules class bound to the shared kernel."""

from __future__ import annotations

from functools import partial

from ..base import Game, game_from_parts
from . import advice, kernels, narrate, players, records
from .figures import measure, outcome
from .table import DealtDeal
from .words import words_of


def dealt_game(name: str, title: str, rules_cls: type, options: tuple, presets: dict, figures: tuple) -> Game:
    return game_from_parts(
        name,
        title,
        rules_cls,
        presets=presets,
        options=options,
        kernels=kernels,
        players=players.PLAYERS,
        advice=advice,
        make_record=partial(records.make_record, name),
        replay=partial(records.replay, name, rules_cls),
        narrate=partial(narrate.narrate, name, rules_cls),
        figures=figures,
        measure=measure,
        outcome=outcome,
        sides_of=lambda rules: rules.n_teams,
        words=words_of,
        table=DealtDeal,
        # pimc gains 0.69 (Scotch) and 0.17 (Whist) points a deal over heuristic (docs/pimc.md) and
        # answers in a median 6 ms at the table; dd is far slower and no stronger shown (docs/solver.md)
        default_player="pimc",
    )
