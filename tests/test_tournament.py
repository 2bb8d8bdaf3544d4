"""Tournaments: arrangements, duplicate play, the ranking with its intervals, ratings, the CLI."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from whistsim import api
from whistsim.cli import main
from whistsim.core.options import WhistsimError
from whistsim.tools.tournament import arrangements, bradley_terry, split_strategies, tournament


def test_three_seats_six_strategies_every_subset_in_every_order():
    arr = arrangements(6, 3)
    assert len(arr) == 20 * 6 == len(set(arr))
    assert all(len(set(a)) == 3 for a in arr)
    for i, j in itertools.permutations(range(6), 2):  # every ordered pair sits in every two seats
        for s, t in itertools.permutations(range(3), 2):
            assert any(a[s] == i and a[t] == j for a in arr)


def test_fewer_strategies_than_seats_fill_the_table_every_way():
    assert sorted(arrangements(2, 3)) == sorted(
        [(0, 0, 1), (0, 1, 0), (1, 0, 0), (0, 1, 1), (1, 0, 1), (1, 1, 0)]
    )
    big = arrangements(3, 6)  # beyond four seats: rotations only
    for i in range(3):
        for seat in range(6):
            assert any(a[seat] == i for a in big)
    with pytest.raises(WhistsimError):
        arrangements(1, 3)


def test_split_strategies_keeps_parameters_with_their_strategy():
    assert split_strategies(["random,greedy:cheat=0.2,challenge=smart,pimc:budget=50", "hunter"]) == [
        "random",
        "greedy:cheat=0.2,challenge=smart",
        "pimc:budget=50",
        "hunter",
    ]


def test_duplicate_play_the_same_decks_in_every_arrangement():
    # cheater with cheat=0 plays exactly as greedy: on every deck their points agree exactly.
    t = tournament(["greedy", "cheater:cheat=0"], n=1200, seed=4, threads=1)
    assert t.decks == 200 and len(t.arrangements) == 6
    r = t.ranking.set_index("strategy")
    assert r.loc["greedy", "points"] == pytest.approx(r.loc["cheater:cheat=0", "points"])
    m = t.pairwise.set_index(["strategy", "opponent"]).loc[("greedy", "cheater:cheat=0")]
    assert m.margin == pytest.approx(0) and m.margin_low == pytest.approx(0)
    # ... and each arrangement's games are those a plain run with the same seed plays.
    seats = [("greedy", "cheater:cheat=0")[i] for i in t.arrangements[0]]
    sim = api.simulate("welsh", n=200, seed=4, strategies=seats, keep_games=True, threads=1)
    assert np.array_equal(sim.batch.seat["points"], t.points[0])


def test_the_ranking_and_its_intervals():
    t = tournament(["random", "greedy", "hoarder"], n=1800, seed=1, threads=1)
    r = t.ranking
    assert list(r["strategy"]) == ["hoarder", "greedy", "random"]
    assert (r["points_low"] < r["points"]).all() and (r["points"] < r["points_high"]).all()
    assert (r["win_low"] <= r["win_rate"]).all() and (r["win_rate"] <= r["win_high"]).all()
    assert r["win_rate"].sum() == pytest.approx(1.0)  # every game has one winner's share
    assert r["points"].sum() == pytest.approx(216)  # three players, every card scored once
    assert (np.diff(r["rating"]) < 0).all() and r["rating_low"].iloc[0] > 1500
    assert (r["games"] == 1800).all()  # one table of three: each strategy in every game
    pw = t.pairwise.set_index(["strategy", "opponent"])
    assert pw.loc[("hoarder", "random"), "margin_low"] > 0
    assert pw.loc[("hoarder", "random"), "margin"] == pytest.approx(-pw.loc[("random", "hoarder"), "margin"])
    assert 0.5 < pw.loc[("hoarder", "random"), "beats"] <= 1


def test_pimc_in_a_small_tournament():
    t = tournament(["random", "pimc:budget=6"], n=60, seed=2, players=3, threads=1)
    assert set(t.ranking["strategy"]) == {"random", "pimc:budget=6"}
    assert t.ranking["strategy"].iloc[0] == "pimc:budget=6"


def test_bradley_terry():
    even = np.array([[0, 5, 5], [5, 0, 5], [5, 5, 0]], float)
    assert np.allclose(bradley_terry(even), 1500)
    two = bradley_terry(np.array([[0, 30], [10, 0]], float))
    assert two[0] - two[1] == pytest.approx(400 * math.log10(30.5 / 10.5), abs=1e-6)
    unbeaten = bradley_terry(np.array([[0, 9], [0, 0]], float))
    assert np.isfinite(unbeaten).all() and unbeaten[0] > unbeaten[1]


def test_bad_tournaments_are_one_line_errors():
    with pytest.raises(WhistsimError, match="named twice"):
        tournament(["random", "random"], n=10)
    with pytest.raises(WhistsimError, match=r"^unknown strategy 'nobody'"):
        tournament(["random", "nobody"], n=10)
    with pytest.raises(WhistsimError, match="first seat"):
        tournament(["random", "greedy"], n=10, first="left")


def test_tournament_command_prints_the_table_and_writes_csv(tmp_path):
    csv, pairs = tmp_path / "ranking.csv", tmp_path / "pairs.csv"
    out = CliRunner().invoke(
        main,
        ["tournament", "--game", "welsh", "--players", "3", "--strategies", "random,greedy", "--strategies",
         "counter", "--n", "600", "--seed", "1", "--threads", "1", "--csv", str(csv), "--pairs-csv", str(pairs)],
    )  # fmt: skip
    assert out.exit_code == 0, out.output
    assert "6 seat arrangements x 100 decks = 600 games" in out.output
    assert "points/game" in out.output and "rating" in out.output
    df = pd.read_csv(csv)
    assert list(df["strategy"]) == ["counter", "greedy", "random"]
    assert len(pd.read_csv(pairs)) == 6
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pairs.csv", "ranking.csv"]
