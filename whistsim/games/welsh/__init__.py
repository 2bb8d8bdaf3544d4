"""Welsh Whist (Parlett and Akagiri 1995; docs/rules.md section 1)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...batch import Batch
from ...figures import Figure, leader_wins, points_declared, points_figures, top_share
from ...harness.users import user_checker
from ...strategy import Registry
from ..base import Game
from . import play, players
from .narrate import narrate
from .play import play_batch
from .records import make_record, replay
from .rules import OPTIONS, PRESETS, WelshRules

FIGURES: tuple[Figure, ...] = (
    Figure("points", "seat", "points per game", "the seat's score under the rules' scoring"),
    Figure("cards_won", "seat", "cards per game", "cards in the seat's winnings pile at the end"),
    Figure("turns", "game", "turns per game", "draws plus leads"),
    Figure("tricks", "game", "tricks per game", "cards led, each a trick of one card or more"),
    Figure("draws", "game", "draws per game", "cards drawn from the stock", exact=lambda r: True),
    Figure("passes", "game", "passes per game", "answers of 'pass' to a lead, false ones included"),
    Figure("false_passes", "game", "false passes per game", "passes by a player able to follow", exact=lambda r: not r.revokes),
    Figure("challenges", "game", "challenges per game", "challenges made", exact=lambda r: r.challenge == "none"),
    Figure("challenges_won", "game", "revokes caught per game", "challenges that caught a false pass", exact=lambda r: r.challenge == "none" or not r.revokes),
    Figure("total_points", "game", "points per game (all players)", "the points all players scored together", exact=lambda r: r.scoring != "piles"),
    Figure("last_keeps", "game", "share of games", "the last player left holding cards kept some", rate=True),
    Figure("tt", "seat", "Tens and Taffies per game", "Tens and Taffies in the seat's winnings pile", basic=False),
    Figure("most_cards_wins", "game", "share of games", "a player with the most cards is among the top scorers", rate=True, basic=False),
    Figure("most_tt_wins", "game", "share of games", "a player with the most Tens and Taffies is among the top scorers", rate=True, basic=False),
    Figure("turns_per_player", "game", "turns per player per game", "turns over the number of players", basic=False),
    Figure("catch_rate", "game", "revokes caught per false pass", "challenges won over false passes", ratio=("challenges_won", "false_passes"), basic=False),
    *points_declared(),
)  # fmt: skip


def measure(batch: Batch, rules: WelshRules) -> dict[str, np.ndarray]:
    """Every declared figure, per game, by column."""
    seat, game = batch.seat, batch.game
    points = seat["points"]
    out: dict[str, np.ndarray] = {}
    for name in ("points", "cards_won"):
        for q in range(rules.players):
            out[f"{name}[{q}]"] = seat[name][:, q]
    for key in ("turns", "tricks", "draws", "passes", "false_passes", "challenges", "challenges_won"):
        out[key] = game[key]
    out["total_points"] = points.sum(axis=1)
    out["last_keeps"] = (game["kept"] > 0).astype(np.int8)
    tt = seat["tens"] + seat["taffies"]
    for q in range(rules.players):
        out[f"tt[{q}]"] = tt[:, q]
    out["most_cards_wins"] = leader_wins(points, seat["cards_won"])
    out["most_tt_wins"] = leader_wins(points, tt)
    out["turns_per_player"] = game["turns"] / rules.players
    out.update(points_figures(points, game["first"]))
    return out


def outcome(batch: Batch, rules: WelshRules) -> tuple[np.ndarray, np.ndarray]:
    """A seat's points, and its share of the win: the top score wins, ties shared."""
    points = batch.seat["points"]
    return points, top_share(points)


def _rules_of(preset: str, players: int | None, overrides: dict[str, Any]) -> WelshRules:
    return WelshRules.make(preset, players, **overrides)


GAME = Game(
    name="welsh",
    title="Welsh Whist",
    presets=tuple(PRESETS),
    options=OPTIONS,
    rules_of=_rules_of,
    rules_from_record=WelshRules.from_record,
    play_batch=play_batch,
    make_record=make_record,
    replay=replay,
    narrate=narrate,
    figures=FIGURES,
    measure=measure,
    outcome=outcome,
    players=Registry("welsh", players.PLAYERS, user_checker(play)),
    players_of=lambda rules: rules.players,
    sides_of=lambda rules: rules.players,
)
