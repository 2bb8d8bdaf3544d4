"""Oh Hell (Nomination Whist, Blackout; docs/rules.md, Oh Hell): bid the tricks you will take.

``engine`` holds the rules once (deal, turn-up, bids and the hook, follow suit, the
trick's winner, a round's score, the next round); ``play`` the kernel parts the shared
harness plays whole games with; ``records`` and ``narrate`` the record format, replay
and ``show``; ``figures`` the per-game figures; ``players`` the strategies; ``words`` and
``table`` how the game is told and played at the table (``whistsim play``, ``new_game``,
``whistsim serve``); ``advice`` its idle settings.
"""

from __future__ import annotations

from ..base import game_from_parts
from . import advice, kernels, players
from .figures import FIGURES, measure, outcome
from .narrate import narrate
from .records import make_record, replay
from .rules import OPTIONS, PRESETS, OhHellRules
from .table import OhHellDeal
from .words import WORDS

GAME = game_from_parts(
    "ohhell",
    "Oh Hell",
    OhHellRules,
    presets=PRESETS,
    options=OPTIONS,
    kernels=kernels,
    players=players.PLAYERS,
    advice=advice,
    make_record=make_record,
    replay=replay,
    narrate=narrate,
    figures=FIGURES,
    measure=measure,
    outcome=outcome,
    words=lambda rules: WORDS,
    table=OhHellDeal,
    default_player="pimc",
    unit="game",  # a record, a comparison's pair: the whole schedule of rounds
)
