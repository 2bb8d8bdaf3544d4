"""Scotch Whist, or Catch the Ten, and French Whist (Catch the Ten; docs/rules.md section 2).

Built on the shared kernel of the dealt games (``games.dealt``); this package
holds the rule options and binds the record format's ``scotch`` name.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from ...options import RuleError
from ..base import Game
from ..dealt import narrate as _narrate
from ..dealt import records as _records
from ..dealt.figures import figures
from ..dealt.play import play_batch
from .rules import OPTIONS, PRESETS, ScotchRules

TITLE = "Scotch Whist"


def make_rules(
    preset: str | None = None, players: int | None = None, overrides: dict[str, Any] | None = None
) -> ScotchRules:
    overrides = dict(overrides or {})
    if "players" in overrides:
        # The player count may come as --players or as --rule players=N: not two different ones.
        said = OPTIONS[0].parse(overrides.pop("players"))
        if players is not None and said != players:
            raise RuleError(f"rule players={said}: but {players} players were asked for")
        players = said
    return ScotchRules.make(preset or "scotch", players, **overrides)


def narrate(record: dict) -> str:
    title = (
        "French Whist"
        if isinstance(record.get("rules"), dict) and record["rules"].get("french") is True
        else TITLE
    )
    return _narrate.narrate("scotch", title, ScotchRules, record)


GAME = Game(
    name="scotch",
    title="Scotch Whist (Catch the Ten) and French Whist",
    presets=tuple(PRESETS),
    options=OPTIONS,
    make_rules=make_rules,
    rules_from_record=ScotchRules.from_record,
    play_batch=play_batch,
    make_record=partial(_records.make_record, "scotch"),
    replay=partial(_records.replay, "scotch", ScotchRules),
    narrate=narrate,
    figures=figures,
    players_of=lambda rules: rules.players,
)
