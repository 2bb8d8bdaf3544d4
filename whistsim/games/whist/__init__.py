"""Whist (the short and long whist pages; docs/rules.md section 3).

Built on the shared kernel of the dealt games (``games.dealt``); this package
holds the rule options and binds the record format's ``whist`` name.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from ...options import Option
from ..base import Game
from ..dealt import narrate as _narrate
from ..dealt import records as _records
from ..dealt.figures import figures
from ..dealt.play import play_batch
from .rules import OPTIONS, PRESETS, WhistRules


def make_rules(
    preset: str | None = None, players: int | None = None, overrides: dict[str, Any] | None = None
) -> WhistRules:
    overrides = dict(overrides or {})
    if "players" in overrides:  # --rule players=4 says no more than --players 4
        players = Option("players", "int", 4, "").parse(overrides.pop("players"))
    return WhistRules.make(preset or "long", players, **overrides)


GAME = Game(
    name="whist",
    title="Whist",
    presets=tuple(PRESETS),
    options=OPTIONS,
    make_rules=make_rules,
    rules_from_record=WhistRules.from_record,
    play_batch=play_batch,
    make_record=partial(_records.make_record, "whist"),
    replay=partial(_records.replay, "whist", WhistRules),
    narrate=partial(_narrate.narrate, "whist", "Whist", WhistRules),
    figures=figures,
    players_of=lambda rules: rules.players,
)
