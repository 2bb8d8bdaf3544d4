"""Welsh Whist (Parlett and Akagiri 1995; docs/rules.md section 1)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...batch import Batch
from ...options import RuleError
from ..base import Game
from .narrate import narrate
from .play import play_batch
from .records import make_record, replay
from .rules import OPTIONS, PRESETS, WelshRules


def make_rules(
    preset: str | None = None, players: int | None = None, overrides: dict[str, Any] | None = None
) -> WelshRules:
    overrides = dict(overrides or {})
    # The player count may come as --players or as --rule players=N: not two different ones.
    if players is not None and "players" in overrides:
        said = next(o for o in OPTIONS if o.key == "players").parse(overrides["players"])
        if said != players:
            raise RuleError(f"rule players={overrides['players']}: but {players} players were asked for")
    if players is not None:
        overrides["players"] = players
    return WelshRules.make(preset or "parlett", **overrides)


def figures(batch: Batch, rules: WelshRules) -> dict[str, np.ndarray]:
    """Per-game figures that summaries report, by name."""
    out: dict[str, np.ndarray] = {}
    for q in range(rules.players):
        out[f"points[{q}]"] = batch.seat["points"][:, q]
    for q in range(rules.players):
        out[f"won[{q}]"] = batch.seat["won"][:, q]
    for key in ("turns", "tricks", "draws", "passes", "false_passes", "challenges", "challenges_won"):
        out[key] = batch.game[key]
    out["total_points"] = batch.seat["points"].sum(axis=1)
    out["last_keeps"] = (batch.game["kept"] > 0).astype(np.int8)
    return out


GAME = Game(
    name="welsh",
    title="Welsh Whist",
    presets=tuple(PRESETS),
    options=OPTIONS,
    make_rules=make_rules,
    rules_from_record=WelshRules.from_record,
    play_batch=play_batch,
    make_record=make_record,
    replay=replay,
    narrate=narrate,
    figures=figures,
    players_of=lambda rules: rules.players,
)
