"""Oh Hell (Nomination Whist, Blackout; docs/rules.md, Oh Hell): bid the tricks you will take.

``engine`` holds the rules once (deal, turn-up, bids and the hook, follow suit, the
trick's winner, a round's score, the next round); ``play`` the kernel parts the shared
harness plays whole games with; ``records`` and ``narrate`` the record format, replay
and ``show``; ``figures`` the per-game figures; ``players`` the strategies; ``words`` and
``table`` how the game is told and played at the table (``whistsim play``, ``new_game``,
``whistsim serve``); ``advice`` its idle settings.
"""

from __future__ import annotations

from typing import Any

from ...core.strategy import Registry
from ...harness.users import user_checker
from ..base import Game
from . import advice, kernels, players
from .figures import FIGURES, measure, outcome
from .kernels import play_batch
from .narrate import narrate
from .records import make_record, replay
from .rules import OPTIONS, PRESETS, OhHellRules
from .table import OhHellDeal
from .words import WORDS


def _rules_of(preset: str, players: int | None, overrides: dict[str, Any]) -> OhHellRules:
    return OhHellRules.make(preset, players, **overrides)


GAME = Game(
    name="ohhell",
    title="Oh Hell",
    presets=tuple(PRESETS),
    options=OPTIONS,
    rules_of=_rules_of,
    rules_from_record=OhHellRules.from_record,
    play_batch=play_batch,
    make_record=make_record,
    replay=replay,
    narrate=narrate,
    figures=FIGURES,
    measure=measure,
    outcome=outcome,
    players=Registry("ohhell", players.PLAYERS, user_checker(kernels)),
    players_of=lambda rules: rules.players,
    sides_of=lambda rules: rules.players,
    words=lambda rules: WORDS,
    table=OhHellDeal,
    default_player="pimc",
    idle_rules=advice.idle_rules,
    idle_params=advice.idle_params,
    unit="game",  # a record, a comparison's pair: the whole schedule of rounds
)
