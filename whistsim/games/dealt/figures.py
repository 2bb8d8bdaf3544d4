"""Per-game figures of the dealt games, for summaries and studies.

Every figure is one value per simulated game, so its mean comes with a
confidence interval. With the rule ``unit=deal`` each simulated game is a single
deal, and the per-game figures are per-deal figures.
"""

from __future__ import annotations

import numpy as np

from ...batch import Batch
from .play import ENDED_REVOKE


def _per_deal(x: np.ndarray, deals: np.ndarray) -> np.ndarray:
    return x / np.maximum(deals, 1)


def figures(batch: Batch, rules) -> dict[str, np.ndarray]:
    """Game-level figures, by name: deals per game, chances of winning per side and per
    seat, points per deal, how often the count-out order decides, and each game's own."""
    g, side, seat = batch.game, batch.side, batch.seat
    deals = g["deals"]
    out: dict[str, np.ndarray] = {"deals": deals}
    for t in range(rules.n_teams):
        out[f"side_won[{t}]"] = side["won"][:, t]
    for q in range(rules.players):
        out[f"seat_won[{q}]"] = seat["won"][:, q]
    for t in range(rules.n_teams):
        out[f"points_per_deal[{t}]"] = _per_deal(side["points"][:, t], deals)
    out["counted_out"] = g["counted_out"]
    out["revokes"] = g["revokes"]
    # The first deal's turn-up and how the dealer's side fared (rows of these give its worth).
    out["turnup_rank"] = g["turnup_rank"]
    out["dealer_side_tricks_first_deal"] = g["dealer_tricks"]
    out["dealer_side_points_first_deal"] = g["dealer_points"]
    if "tens_caught" in g:  # Scotch Whist
        out["revoke_ends"] = (g["ended"] == ENDED_REVOKE).astype(np.int8)
        out["tens_caught"] = g["tens_caught"]  # per deal: a ratio of means over "deals"
        out["ten_caught_per_deal"] = _per_deal(g["tens_caught"], deals)
        out["round_twice"] = g["round_twice"]
        out["round_twice_per_deal"] = _per_deal(g["round_twice"], deals)
        out["first_ten_side"] = g["first_ten_side"]
    else:  # Whist
        out["honours_total"] = side["honours"].sum(axis=1)
        out["points_total"] = side["points"].sum(axis=1)
        out["honours_share"] = out["honours_total"] / np.maximum(out["points_total"], 1)
    return out
