"""The Welsh figures of the studies of the last player's windfall and of the Taffy's rank,
each on a hand-made deal: the engine's counts at the end of a deal and at each trick, and
the figures measured from them."""

import numpy as np
import pytest
from welsh_deals import Deal

from whistsim.core.batch import Batch
from whistsim.core.cards import RANKS
from whistsim.core.strategy import parse_spec
from whistsim.games import seating
from whistsim.games.welsh import GAME, piles_points
from whistsim.games.welsh import engine as E
from whistsim.games.welsh import kernels as P


def batch_of(*deals: Deal) -> Batch:
    """The columns a batch would hold for these finished deals (the kernel's own ``record``)."""
    p = deals[0].rules.players
    seat_out = np.zeros((len(P.SEAT_COLUMNS), len(deals), p), np.int32)
    game_out = np.zeros((len(P.GAME_COLUMNS), len(deals)), np.int32)
    for i, d in enumerate(deals):
        P.record(d.buf[0], i, (seat_out, game_out), len(d.moves))
    return Batch(
        0, dict(zip(P.SEAT_COLUMNS, seat_out, strict=True)), dict(zip(P.GAME_COLUMNS, game_out, strict=True))
    )


def measured(*deals: Deal) -> dict[str, np.ndarray]:
    return GAME.measure(batch_of(*deals), deals[0].rules)


# ---- a Taffy meets a Ten ------------------------------------------------------------


def met(d: Deal) -> tuple[int, int, int]:
    """(tricks where a Taffy and a Ten met, won by a Taffy, won by a Ten) so far."""
    return int(d.s[E.S_MET]), int(d.s[E.S_MET_TAFFY]), int(d.s[E.S_MET_TEN])


@pytest.mark.parametrize(("rank", "counts"), [(10.5, (1, 1, 0)), (10.0, (1, 0, 1))])
def test_a_ten_led_and_a_taffy_after_it(rank, counts):
    # 10 1/2: the Taffy beats the Ten; equal to a Ten: the Ten, played first, wins.
    d = Deal(["TH", "X", "2C"], taffy_rank=rank).draws(0, 1, 2)
    d.play("0:TH", "1:X", "2:pass")
    assert met(d) == counts


@pytest.mark.parametrize("rank", [10.5, 10.0])
def test_a_taffy_led_and_a_ten_after_it_the_taffy_wins_under_either_rank(rank):
    d = Deal(["X", "TH", "2C"], taffy_rank=rank).draws(0, 1, 2)
    d.play("0:X=H", "1:TH", "2:pass")
    assert met(d) == (1, 1, 0)


@pytest.mark.parametrize("rank", [10.5, 10.0])
def test_a_jack_beats_both_the_trick_counts_as_a_meeting_won_by_neither(rank):
    d = Deal(["TH", "X", "JH"], taffy_rank=rank).draws(0, 1, 2)
    d.play("0:TH", "1:X", "2:JH")
    assert met(d) == (1, 0, 0)
    assert d.won(2) == ["TH", "JH", "X"]


def test_a_trick_without_both_is_no_meeting_and_two_tens_with_a_taffy_are_one():
    d = Deal(["TH", "TH", "2C", "X", "9S", "9S"], taffy_rank=10.0).draws(0, 1, 2, 0, 1, 2)
    d.play("0:TH", "1:TH", "2:pass")  # two Tens, no Taffy
    assert met(d) == (0, 0, 0)
    d.play("1:9S", "2:9S", "0:X")  # a Taffy among Nines: no Ten
    assert met(d) == (0, 0, 0)
    d = Deal(["TH", "X", "TH"], taffy_rank=10.0).draws(0, 1, 2)
    d.play("0:TH", "1:X", "2:TH")
    assert met(d) == (1, 0, 1)  # one trick; the first Ten played wins it


@pytest.mark.parametrize("rank", [10.5, 10.0])
def test_meetings_are_measured_per_game(rank):
    d = Deal(["TH", "X", "2C"], taffy_rank=rank, players=3, packs=1, taffies=1).draws(0, 1, 2)
    d.play("0:TH", "1:X", "2:pass")
    d.finish()  # the only Taffy is played: no other meeting
    f = measured(d)
    taffy = rank == 10.5
    assert (f["taffy_ten"][0], f["taffy_ten_any"][0]) == (1, 1)
    assert (f["taffy_ten_taffy"][0], f["taffy_ten_ten"][0]) == (int(taffy), int(not taffy))


def test_the_taffys_share_of_meetings_is_a_ratio_of_counts():
    ratios = {f.name: f.ratio for f in GAME.figures if f.ratio}
    assert ratios["taffy_ten_taffy_share"] == ("taffy_ten_taffy", "taffy_ten")
    assert ratios["taffy_ten_ten_share"] == ("taffy_ten_ten", "taffy_ten")


# ---- the last player's windfall ----------------------------------------------------------

CD = [f"{r}{s}" for s in "CD" for r in RANKS]
HS = [f"{r}{s}" for s in "HS" for r in RANKS]


def split(keep: str, scoring: str = "standard") -> Deal:
    """2 players, 1 pack: seat 0 draws the clubs and diamonds, seat 1 the hearts and spades; nobody
    can follow, each leads in turn and wins its own card, and seat 1 is left holding ``keep``."""
    top = [c for pair in zip(CD, HS, strict=True) for c in pair]
    d = Deal(top, players=2, packs=1, taffies=0, scoring=scoring).draws(*[0, 1] * 26)
    order = [c for c in HS if c != keep]
    for i in range(26):
        d.play(f"0:{CD[i]}", "1:pass")
        if i < 25:
            d.play(f"1:{order[i]}", "0:pass")
    assert d.phase == E.OVER and d.s[E.S_LAST_HOLDER] == 1 and d.hand(1) == []
    return d


@pytest.mark.parametrize(
    ("keep", "scoring", "windfall"),
    [("AS", "standard", 1), ("TS", "standard", 10), ("5S", "five_penalty", -5), ("TS", "five_penalty", 10)],
)
def test_the_windfall_is_the_kept_cards_points(keep, scoring, windfall):
    d = split(keep, scoring)
    assert (d.s[E.S_KEPT], d.s[E.S_KEPT_TT], d.s[E.S_KEPT_FIVES]) == (
        1,
        int(keep[0] == "T"),
        int(keep[0] == "5"),
    )
    f = measured(d)
    assert (f["kept"][0], f["windfall"][0]) == (1, windfall)
    # Piles of 26 and 26 with two Tens each: a tie. Without a good card kept, seat 0 would have won;
    # a Five kept under five-penalty scoring cost seat 1 the shared win instead.
    assert f["windfall_decides"][0] == int(windfall > 0)


def test_under_piles_scoring_the_kept_card_changes_the_multipliers():
    d = split("TS", "piles")
    assert d.finish()["points"] == [2, 2]  # equal heights: each 1 x its two Tens
    # Without the TS seat 1's pile is 25 high (x1, one Ten): 1 point; seat 0's is higher (x2): 4.
    f = measured(d)
    assert (f["windfall"][0], f["windfall_decides"][0]) == (1, 1)
    assert piles_points(np.array([[26, 25]]), np.array([[2, 1]])).tolist() == [[4, 1]]
    assert piles_points(np.array([[3, 1, 2, 2]]), np.array([[2, 1, 1, 1]])).tolist() == [[6, 1, 2, 2]]


@pytest.mark.parametrize("rank", [10.5, 10.0])
def test_simulated_games_agree_with_the_definitions(rank):
    rules = Deal(taffy_rank=rank, players=4).rules
    ids, params = seating("welsh", [parse_spec("greedy")], 4)
    batch = GAME.play_batch(rules, ids, params, seed=3, n=200)
    f, g = GAME.measure(batch, rules), batch.game
    nobody = g["last_holder"] < 0
    assert (f["kept"][nobody] == 0).all() and (f["windfall"][nobody] == 0).all()
    assert (f["windfall_decides"][nobody] == 0).all()
    assert (f["windfall"] == 10 * g["kept_tt"] + g["kept"] - g["kept_tt"]).all()  # standard scoring
    assert (f["windfall_decides"] <= (batch.seat["points"].max(axis=1) > 0)).all()
    assert (f["taffy_ten_taffy"] + f["taffy_ten_ten"] <= f["taffy_ten"]).all()
    assert f["taffy_ten"].sum() > 0 and (~nobody).any()
    if rank == 10.5:
        assert (f["taffy_ten_ten"] == 0).all()  # a Taffy in the trick always beats a Ten
    else:
        assert f["taffy_ten_ten"].sum() > 0


def test_a_windfall_that_does_not_change_the_winner_does_not_decide():
    # Hand-made columns: seat 1 kept 2 cards (a Ten and a 2) worth 11; it wins by 20 anyway.
    batch = Batch(
        0,
        {"points": np.array([[10, 50, 30]]), "cards_won": np.array([[10, 30, 20]]),
         "tens": np.array([[0, 3, 2]]), "taffies": np.array([[0, 1, 0]])},
        {k: np.array([0]) for k in P.GAME_COLUMNS}
        | {"last_holder": np.array([1]), "kept": np.array([2]), "kept_tt": np.array([1])},
    )  # fmt: skip
    f = GAME.measure(batch, Deal().rules)
    assert (f["windfall"][0], f["windfall_decides"][0]) == (11, 0)
    batch.seat["points"][0, 2] = 45  # now 50 - 11 = 39 < 45: the kept cards decided it
    f = GAME.measure(batch, Deal().rules)
    assert (f["windfall"][0], f["windfall_decides"][0]) == (11, 1)
