"""The dealt games' figures: declared, and measured from a batch.

Every figure is one value per simulated game, so its mean comes with a
confidence interval. With the rule ``unit=deal`` each simulated game is a single
deal, and the per-game figures are per-deal figures.
"""

from __future__ import annotations

import warnings

import numpy as np

from ...core.batch import Batch
from ...core.figures import Figure
from ...core.options import WhistsimWarning
from .engine import SCOTCH
from .kernels import ENDED_DEAL, ENDED_REVOKE

COMMON: tuple[Figure, ...] = (
    Figure("deals", "game", "deals per game", "deals played until a side reached the target"),
    Figure("side_won", "side", "share of games won", "the side won the game", rate=True),
    Figure("seat_won", "seat", "share of games won", "the seat's side won the game", rate=True),
    Figure("points_per_deal", "side", "points per deal", "the side's points over the deals of its game"),
    Figure("counted_out", "game", "share of games", "two sides passed the target in the last deal: the count-out order decided", rate=True),
    Figure("revokes", "game", "revokes per game", "plays of another suit by a player able to follow", exact=lambda r: not r.revokes),
    Figure("turnup_rank", "game", "rank (0 = two)", "the rank of the first deal's turned-up trump"),
    Figure("dealer_side_tricks_first_deal", "game", "tricks", "tricks the dealer's side took in the first deal"),
    Figure("dealer_side_points_first_deal", "game", "points", "points the dealer's side scored in the first deal"),
)  # fmt: skip

# One declaration and one measure for both games (ties among the leaders share the win).
FIRST_LEADER_WON = Figure(
    "first_leader_won", "game", "share of games won",
    "the side that scored most in the game's first deal won the game (ties among the leaders shared)",
    rate=True, basic=False,
)  # fmt: skip

SCOTCH_FIGURES: tuple[Figure, ...] = COMMON + (
    Figure("revoke_ends", "game", "share of games", "a claimed revoke ended the game", rate=True, exact=lambda r: not r.revokes),
    Figure("tens_caught", "game", "Tens caught per game", "deals in which a side other than the one dealt the Ten of trumps won it"),
    Figure("ten_caught_per_deal", "game", "Tens caught per deal", "Tens caught over the game's deals"),
    Figure("round_twice", "game", "deals per game", "deals in which a plain suit went round (everyone followed) twice in one set"),
    Figure("round_twice_per_deal", "game", "share of deals", "such deals over the game's deals"),
    Figure("first_ten_side", "game", "side (-1: nobody)", "the side that won the Ten of trumps in the first deal"),
    # For the studies (basic=False): turn position k counts from the elder hand (0) round to the dealer (p-1).
    Figure("ten_lost_at", "turn", "Tens lost per game", "deals in which the player k-th in turn from the dealer's left (0: elder hand; the dealer last) was dealt the Ten of trumps and another side won it", basic=False),
    Figure("deal_edge", "turn", "points per deal", "points the side of the player k-th in turn (0: elder hand; the dealer last) scored in the game's first deal, minus the average side's", basic=False),
    Figure("pos_won", "turn", "share of games won", "the side of the player k-th in turn in the game's first deal (0: elder hand; the dealer last) won the game", rate=True, basic=False),
    FIRST_LEADER_WON,
    Figure("countout_upset", "game", "share of games", "the winner reached the target first in the count-out order with fewer points than another side", rate=True, basic=False),
    Figure("card_points", "game", "points per game", "points all sides scored for cards (cards taken above those dealt)", basic=False),
    Figure("honour_points", "game", "points per game", "points all sides scored for honours (trump J A K Q T; French Whist: and the ten of diamonds)", basic=False),
    Figure("all_points", "game", "points per game", "points all sides scored, cards and honours", basic=False),
    Figure("cards_share", "game", "share of points", "points for cards over all points (a ratio of means)", ratio=("card_points", "all_points"), basic=False),
    Figure("deal_points", "game", "points per deal", "all sides' points over deals (a ratio of means)", ratio=("all_points", "deals"), basic=False),
    Figure("cards_top", "game", "points", "the most points one side scored for cards over the game (with unit=deal: in the deal)", basic=False),
)  # fmt: skip

WHIST_FIGURES: tuple[Figure, ...] = COMMON + (
    Figure("honours_total", "game", "points per game", "honours scored by both sides"),
    Figure("points_total", "game", "points per game", "points scored by both sides"),
    Figure("honours_share", "game", "share of points", "honours over all points the game's deals scored (before revoke penalties deducted)"),
    Figure("unfinished", "game", "share of games", "the game reached the cap on deals with no winner (revoke_score=deduct lets a score fall)", rate=True, exact=lambda r: not can_stall(r)),
    Figure("honours_scored", "game", "share of games", "a side scored honours in some deal of the game", rate=True, basic=False),
    Figure("won_on_honours", "game", "share of games", "the winners' score less their honours falls short of the target: they had not won then without them", rate=True, basic=False),
    FIRST_LEADER_WON,
    Figure("penalty", "side", "points per game", "revoke penalties in the side's score: received, or (negative) deducted", basic=False, exact=lambda r: not r.revokes),
    Figure("more_tricks", "side", "share of games", "the side took more tricks than the other over the game's deals (with unit=deal: won the deal on tricks)", rate=True, basic=False),
    Figure("more_points", "side", "share of games", "the side scored more points than the other over the game's deals, tricks and honours (with unit=deal: won the deal's points); a tie counts for neither", rate=True, basic=False),
)  # fmt: skip


def _per_deal(x: np.ndarray, deals: np.ndarray) -> np.ndarray:
    return x / np.maximum(deals, 1)


def measure(batch: Batch, rules) -> dict[str, np.ndarray]:
    """Every declared figure, per game, by column."""
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
    out["turnup_rank"] = g["turnup_rank"]
    out["dealer_side_tricks_first_deal"] = g["dealer_tricks"]
    out["dealer_side_points_first_deal"] = g["dealer_points"]
    if rules.kind == SCOTCH:
        out["revoke_ends"] = (g["ended"] == ENDED_REVOKE).astype(np.int8)
        out["tens_caught"] = g["tens_caught"]
        out["ten_caught_per_deal"] = _per_deal(g["tens_caught"], deals)
        out["round_twice"] = g["round_twice"]
        out["round_twice_per_deal"] = _per_deal(g["round_twice"], deals)
        out["first_ten_side"] = g["first_ten_side"]
        out.update(_study_figures(batch, rules))
    else:
        out["honours_total"] = side["honours"].sum(axis=1)
        out["points_total"] = side["points"].sum(axis=1)
        # a side's penalty is received (>= 0) or deducted (<= 0) in every game: with deductions
        # added back every point is a trick's, an honour's or a penalty received, so this is <= 1
        scored = (side["points"] - np.minimum(side["penalty"], 0)).sum(axis=1)
        out["honours_share"] = out["honours_total"] / np.maximum(scored, 1)
        out["unfinished"] = unfinished(batch, rules)
        out.update(whist_outcomes(batch, rules))
    return out


def can_stall(rules) -> bool:
    """Can a game under ``rules`` reach the cap on deals unfinished? Only when penalties are deducted."""
    return rules.unit == "game" and rules.revokes and getattr(rules, "revoke_score", "add") == "deduct"


def unfinished(batch: Batch, rules) -> np.ndarray:
    """1 for a game that reached the cap on deals with no winner; a warning when any did."""
    g = batch.game
    out = (
        ((g["ended"] == ENDED_DEAL) & (g["winner"] < 0)).astype(np.int8)
        if rules.unit == "game"
        else np.zeros(len(g["deals"]), np.int8)
    )
    if out.any():  # the same line for every batch: shown once
        warnings.warn(
            f"some games reached the cap of {rules.max_deals()} deals with no winner (revoke_score=deduct "
            "lets a score fall): the figure 'unfinished' is their share; no side won them",
            WhistsimWarning,
            stacklevel=2,
        )
    return out


def whist_outcomes(batch: Batch, rules) -> dict[str, np.ndarray]:
    """Whist's figures of how a game was won: honours, the first deal's leader, the revoke penalties."""
    side = batch.side
    won = side["won"].astype(bool)
    short = side["score"] - side["honours"] < rules.target
    out = {
        "honours_scored": (side["honours"].sum(axis=1) > 0).astype(np.int8),
        "won_on_honours": (won & short).any(axis=1).astype(np.int8),
        "first_leader_won": first_leader_won(side),
    }
    for t in range(rules.n_teams):
        out[f"penalty[{t}]"] = side["penalty"][:, t]
    for name, col in (("more_tricks", "tricks"), ("more_points", "points")):
        x = side[col]
        for t in range(rules.n_teams):
            out[f"{name}[{t}]"] = (x[:, t] > x[:, 1 - t]).astype(np.int8)
    return out


def first_leader_won(side: dict[str, np.ndarray]) -> np.ndarray:
    """1 when the side that scored most in the first deal won the game; ties among the leaders share it."""
    first = side["first_points"].astype(np.float64)
    top = first == first.max(axis=1, keepdims=True)
    return (top * side["won"]).sum(axis=1) / top.sum(axis=1)


def _study_figures(batch: Batch, rules) -> dict[str, np.ndarray]:
    """The studies' Scotch figures, from what the kernel records."""
    g, side, seat = batch.game, batch.side, batch.seat
    p, nt = rules.players, rules.n_teams
    team = np.array(rules.teams_tuple)
    out: dict[str, np.ndarray] = {}
    for k in range(p):
        out[f"ten_lost_at[{k}]"] = seat["ten_lost_at"][:, k]
    rows = np.arange(len(g["first"]))
    first_pts = side["first_points"].astype(np.float64)
    avg = first_pts.sum(axis=1) / nt
    for k in range(p):
        s = team[(g["first"].astype(np.int64) + k) % p]
        out[f"deal_edge[{k}]"] = first_pts[rows, s] - avg
        out[f"pos_won[{k}]"] = side["won"][rows, s]
    out["first_leader_won"] = first_leader_won(side)
    # The winner's final score (after the whole last deal is counted) is below another side's.
    score = side["score"].astype(np.int64)
    w = g["winner"].astype(np.int64)
    won = w >= 0
    mine = np.where(won, score[rows, np.maximum(w, 0)], 0)
    others = np.where(np.arange(nt)[None, :] == w[:, None], np.iinfo(np.int64).min, score).max(axis=1)
    out["countout_upset"] = (won & (others > mine)).astype(np.int8)
    out["card_points"] = side["cards"].sum(axis=1)
    out["honour_points"] = side["honours"].sum(axis=1)
    out["all_points"] = side["points"].sum(axis=1)
    out["cards_top"] = side["cards"].max(axis=1)
    return out


def outcome(batch: Batch, rules) -> tuple[np.ndarray, np.ndarray]:
    """A seat's result is its side's game score; its win, its side's win."""
    sides = np.array(rules.teams_tuple)
    return batch.side["score"][:, sides], batch.side["won"][:, sides].astype(np.float64)
