"""Oh Hell's figures: declared, and measured from a batch (one value per simulated game)."""

from __future__ import annotations

import numpy as np

from ...core.batch import Batch
from ...core.figures import Figure, points_declared, points_figures, top_share

FIGURES: tuple[Figure, ...] = (
    Figure("points", "seat", "points per game", "the seat's score over the game's rounds"),
    Figure("made", "seat", "share of bids made", "the rounds in which the seat took exactly the tricks it bid, over the rounds"),
    Figure("tricks", "seat", "tricks per game", "tricks the seat took"),
    Figure("rounds", "game", "rounds per game", "rounds of the schedule", exact=lambda r: True),
    Figure("bids_over", "game", "share of rounds", "the bids added up to more than the tricks"),
    Figure("bids_under", "game", "share of rounds", "the bids added up to fewer than the tricks"),
    Figure("bids_exact", "game", "share of rounds", "the bids added up to the tricks (never under the hook)", exact=lambda r: r.hook),
    Figure("made_all", "game", "share of bids made", "bids made by all seats over all bids of the game"),
    Figure("dealer_points", "game", "points per round", "the dealer's points, averaged over the game's rounds"),
    Figure("dealer_edge", "game", "points per round", "the dealer's points less the average seat's, per round", basic=False),
    *points_declared(),
)  # fmt: skip


def measure(batch: Batch, rules) -> dict[str, np.ndarray]:
    """Every declared figure, per game, by column."""
    seat, game = batch.seat, batch.game
    p = rules.players
    rounds = np.maximum(game["rounds"], 1).astype(np.float64)
    out: dict[str, np.ndarray] = {}
    for q in range(p):
        out[f"points[{q}]"] = seat["points"][:, q]
    for q in range(p):
        out[f"made[{q}]"] = seat["made"][:, q] / rounds
    for q in range(p):
        out[f"tricks[{q}]"] = seat["tricks"][:, q]
    out["rounds"] = game["rounds"]
    for name in ("bids_over", "bids_under", "bids_exact"):
        out[name] = game[name] / rounds
    out["made_all"] = seat["made"].sum(axis=1) / (rounds * p)
    out["dealer_points"] = game["dealer_points"] / rounds
    out["dealer_edge"] = (game["dealer_points"] - seat["points"].sum(axis=1) / p) / rounds
    out.update(points_figures(seat["points"], game["first"]))
    return out


def outcome(batch: Batch, rules) -> tuple[np.ndarray, np.ndarray]:
    """A seat's points, and its share of the win: the top score wins, ties shared."""
    points = batch.seat["points"]
    return points, top_share(points)
