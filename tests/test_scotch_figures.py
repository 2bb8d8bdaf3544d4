"""The studies' Scotch Whist figures: each on a hand-made deal or hand-made game columns."""

from __future__ import annotations

import numpy as np
import pytest
from test_dealt_support import autoplay, state_after
from test_scotch import A, B, Y, Z, worked

from whistsim.core.batch import Batch
from whistsim.core.strategy import parse_spec
from whistsim.games import seating
from whistsim.games.dealt.engine import P_TEN, P_TEN_DEALT
from whistsim.games.dealt.figures import _study_figures, measure
from whistsim.games.dealt.kernels import C_TEN_CAUGHT, C_TEN_LOST_AT, _tally_deal
from whistsim.games.scotch import GAME
from whistsim.games.scotch.rules import ScotchRules


def _tallied(rec: dict):
    """The seat columns after the record's deal is added to an empty game."""
    buf = state_after(rec)
    g = buf[0]
    g["seat_acc"][:] = 0
    g["game_acc"][:] = 0
    g["side_acc"][:] = 0
    _tally_deal(g, 0, len(rec["moves"]))
    return g["seat_acc"], g["core"]["result"]


def test_ten_lost_at_names_the_holders_turn_position_when_caught():
    # Y (seat 1) was dealt the Ten of hearts and B (seat 2) caught it; Z (3) dealt, so A (0) is elder
    # hand and Y second in turn: position 1.
    acc, res = _tallied(worked())
    assert acc[C_TEN_LOST_AT, :4].tolist() == [0, 1, 0, 0]
    assert acc[C_TEN_CAUGHT, :4].tolist() == [0, 0, 1, 0]


@pytest.mark.parametrize("r", [1, 2, 3])
def test_ten_lost_at_counts_from_the_dealers_left_whoever_deals(r):
    # The worked hand with every seat moved r places: Y is still second from the dealer's left.
    rec = worked()
    hands = [[A, Y, B, Z][(q - r) % 4] for q in range(4)]
    moves = [f"{(int(m[0]) + r) % 4}{m[1:]}" for m in rec["moves"]]
    acc, res = _tallied({**rec, "dealer": (3 + r) % 4, "hands": [hands], "moves": moves})
    assert acc[C_TEN_LOST_AT, :4].tolist() == [0, 1, 0, 0]
    assert acc[C_TEN_CAUGHT, :4].tolist() == [int(q == (2 + r) % 4) for q in range(4)]


def test_a_ten_its_side_keeps_is_not_lost():
    # The worked hands played out lowest card first: Y's side keeps the Ten.
    acc, res = _tallied(autoplay({**worked(), "moves": []}))
    assert res[P_TEN, :2].tolist() == [0, 10] and res[P_TEN_DEALT, :2].tolist() == [0, 1]
    assert acc[C_TEN_LOST_AT].sum() == 0 and acc[C_TEN_CAUGHT].sum() == 0


def _batch(**cols) -> Batch:
    game = {k: np.array(v) for k, v in cols.items() if k in ("first", "winner", "deals")}
    side = {
        k: np.array(v)
        for k, v in cols.items()
        if k in ("first_points", "won", "score", "cards", "honours", "points")
    }
    seat = {"ten_lost_at": np.array(cols["ten_lost_at"])}
    return Batch(0, seat, game, side)


FOUR = ScotchRules.make(players=4)
FIVE = ScotchRules.make(players=5)


def test_deal_edge_and_pos_won_follow_the_first_elder_hand():
    # Two games of four: the first deal's elder hand is seat 1, then seat 0; side 0 scores 30, side 1 6.
    b = _batch(first=[1, 0], winner=[0, 1], deals=[2, 3], first_points=[[30, 6], [30, 6]],
               won=[[1, 0], [0, 1]], score=[[45, 20], [12, 41]], cards=[[0, 0], [0, 0]],
               honours=[[0, 0], [0, 0]], points=[[0, 0], [0, 0]], ten_lost_at=[[0] * 4, [0] * 4])  # fmt: skip
    f = _study_figures(b, FOUR)
    # game 0: positions 0..3 are seats 1, 2, 3, 0: sides 1, 0, 1, 0; the average side scored 18
    assert f["deal_edge[0]"].tolist() == [-12, 12] and f["deal_edge[1]"].tolist() == [12, -12]
    assert f["pos_won[0]"].tolist() == [0, 0] and f["pos_won[1]"].tolist() == [1, 1]
    assert f["pos_won[3]"].tolist() == [1, 1]  # the first dealer's side won both
    assert f["first_leader_won"].tolist() == [1, 0]  # side 0 led after the first deal of both


def test_first_leader_won_shares_a_first_deal_tie():
    b = _batch(first=[0, 0], winner=[1, 2], deals=[4, 4], first_points=[[9, 9, 1], [9, 9, 1]],
               won=[[0, 1, 0], [0, 0, 1]], score=[[0, 41, 0], [0, 0, 41]], cards=[[0] * 3] * 2,
               honours=[[0] * 3] * 2, points=[[0] * 3] * 2, ten_lost_at=[[0] * 3] * 2)  # fmt: skip
    assert _study_figures(b, ScotchRules.make(players=3))["first_leader_won"].tolist() == [0.5, 0]


def test_countout_upset_when_the_winner_counts_out_with_fewer_points():
    b = _batch(first=[0, 0, 0, 0], winner=[0, 1, 0, -1], deals=[3, 3, 3, 3],
               first_points=[[0] * 5] * 4, won=[[1, 0, 0, 0, 0], [0, 1, 0, 0, 0], [1, 0, 0, 0, 0], [0] * 5],
               score=[[41, 49, 3, 4, 5], [41, 41, 0, 0, 0], [50, 42, 41, 0, 0], [10, 20, 30, 40, 0]],
               cards=[[0] * 5] * 4, honours=[[0] * 5] * 4, points=[[0] * 5] * 4,
               ten_lost_at=[[0] * 5] * 4)  # fmt: skip
    # 41 against 49: the count-out order won it for fewer points; a tie is no upset; nobody won: none
    assert _study_figures(b, FIVE)["countout_upset"].tolist() == [1, 0, 0, 0]


def test_points_for_cards_and_honours_by_game():
    b = _batch(first=[0], winner=[0], deals=[2], first_points=[[0, 0]], won=[[1, 0]], score=[[41, 37]],
               cards=[[7, 2]], honours=[[40, 20]], points=[[47, 22]], ten_lost_at=[[0, 1, 0, 2]])  # fmt: skip
    f = _study_figures(b, FOUR)
    assert f["card_points"].tolist() == [9] and f["honour_points"].tolist() == [60]
    assert f["all_points"].tolist() == [69] and f["cards_top"].tolist() == [7]
    assert [f[f"ten_lost_at[{k}]"][0] for k in range(4)] == [0, 1, 0, 2]


def test_study_figures_agree_with_the_game_columns_in_simulated_games():
    r = ScotchRules.make(players=6)
    ids, params = seating("scotch", [parse_spec("random")] * 6, 6)
    b = GAME.play_batch(r, ids, params, seed=4, n=300)
    m = measure(b, r)
    lost = sum(m[f"ten_lost_at[{k}]"] for k in range(6))
    assert (lost == m["tens_caught"]).all()
    assert (m["card_points"] + m["honour_points"] == m["all_points"]).all()
    assert np.allclose(sum(m[f"deal_edge[{k}]"] for k in range(6)), 0)  # sides' edges sum to 0 per deal
    assert (sum(m[f"pos_won[{k}]"] for k in range(6)) == 2 * (b.game["winner"] >= 0)).all()  # pairs


def test_the_studies_holm_and_shares():
    from whistsim.core.stats import Estimate, Share, holm
    from whistsim.core.stats import p_two_sided as p_value
    from whistsim.experiments.studies._scotch import pct

    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert p_value(Estimate(0.0, 1.0, 100)) == 1.0 and p_value(Estimate(1.0, 1.0, 100)) < 1e-6
    text = pct(Share(0.0, 0.0, 50), "deals")  # Wilson's interval stays inside [0, 1]
    assert text == "0.0% (95% CI 0.0–7.1%, n=50 deals)"
