"""Oh Hell's own loop for all-random seats (``kernels._random_game``) plays the same games as the
shared loop: the same moves from the same streams, so the same columns and move logs."""

from __future__ import annotations

import numba
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from whistsim.core.strategy import parse_spec
from whistsim.games import get_game, seating


def both_ways(preset: str | None, players: int, over: dict, specs: list[str], seed: int, n: int, logged: int):
    g = get_game("ohhell")
    r = g.make_rules(preset, players, over)
    ids, params = seating("ohhell", [parse_spec(specs[q % len(specs)]) for q in range(players)], players)
    old = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        return tuple(
            g.play_batch(r, ids, params, seed=seed, n=n, log_games=logged, shared_loop=shared)
            for shared in (False, True)
        )
    finally:
        numba.set_num_threads(old)


def assert_same(own, shared) -> None:
    for cols in ("game", "seat"):
        assert getattr(own, cols).keys() == getattr(shared, cols).keys()
        for k, v in getattr(shared, cols).items():
            assert (getattr(own, cols)[k] == v).all(), k
    assert len(own.logs) == len(shared.logs)
    for a, b in zip(own.logs, shared.logs, strict=True):
        assert a.shape == b.shape and (a == b).all()


@pytest.mark.parametrize(
    "preset, players, over",
    [
        ("openspiel", 4, {}),  # the bench's game: one hand of 12, the hook
        ("standard", 4, {}),  # down and up again: hands of one card, each last card played unasked
        ("standard", 3, {"hook": False, "scoring": "minus_difference"}),
        ("standard", 5, {"schedule": "up", "no_trump_rounds": "largest"}),  # no trump, none left to turn
        ("standard", 7, {"schedule": "fixed", "tricks": 7, "rounds": 3, "scoring": "trick_plus_ten"}),
    ],
)
def test_random_seats_own_loop_plays_as_the_shared_loop(preset, players, over):
    """With every seat ``random`` whole games go through a loop of their own: every column and every
    logged game's moves are the same as through the shared loop."""
    own, shared = both_ways(preset, players, over, ["random"], seed=17, n=200, logged=25)
    assert len(own.logs) == 25
    assert_same(own, shared)


def test_a_seat_not_random_plays_through_the_shared_loop_with_the_same_result():
    """One heuristic seat among random ones: the shared loop either way (the flag changes nothing)."""
    own, shared = both_ways("standard", 4, {}, ["random", "heuristic"], seed=3, n=40, logged=5)
    assert_same(own, shared)


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(3, 7),
    tricks=st.integers(1, 7),
    schedule=st.sampled_from(["down-up", "up", "fixed"]),
    hook=st.booleans(),
    seed=st.integers(0, 2**40),
)
def test_random_seats_own_loop_property(players, tricks, schedule, hook, seed):
    """Any number of players, hand sizes, schedule, the hook or not, any seed: the same games."""
    over = {"tricks": min(tricks, 51 // players), "schedule": schedule, "hook": hook}
    own, shared = both_ways("standard", players, over, ["random"], seed=seed, n=12, logged=4)
    assert_same(own, shared)
