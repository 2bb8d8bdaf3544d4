"""The dealt games' ``heuristic`` makes the same moves whatever its code's speed: games of four
(Scotch Whist also two and five) ``heuristic`` seats, with its parameters that take other paths
(deliberate revokes, placing the lead on the left, playing for the Ten alone), each pinned by a
digest of every move. Its follow answers the commonest cases before reading the trick's winner,
and its run of equal top cards is found by bit operations: a change there that moves one card,
or one draw of the revoke's stream, fails this."""

from __future__ import annotations

import hashlib

import pytest

import whistsim

CASES = {
    "scotch": ("scotch", {"players": 4}, ["heuristic"], "fa19fcd4a45b9228"),
    "scotch_revoke": ("scotch", {"players": 4, "revokes": True}, ["heuristic:revoke=0.4"], "13b00d04d355ccea"),
    "scotch_left_ten": ("scotch", {"players": 4}, ["heuristic:place_left=1", "heuristic:ten_only=1"] * 2, "eb80a17574749bf1"),
    "scotch_5_aside": ("scotch", {"players": 5, "odd_six": "aside"}, ["heuristic"], "13bc0e253340389b"),
    "scotch_2": ("scotch", {"players": 2}, ["heuristic"], "4cedee575f65185a"),
    "whist": ("whist", {}, ["heuristic"], "beb8538ffbea5978"),
    "whist_revoke": ("whist", {"revokes": True}, ["heuristic:revoke=0.4"], "1239564ca8742729"),
}  # fmt: skip


def _digest(game, rules, strategies):
    sim = whistsim.simulate(game, n=40, seed=7, rules=rules, strategies=strategies, records=40)
    moves = "\n".join(" ".join(r["moves"]) for r in sim.records)
    return hashlib.sha256(moves.encode()).hexdigest()[:16]


@pytest.mark.parametrize("name", list(CASES))
def test_heuristic_moves_are_pinned(name):
    game, rules, strategies, pinned = CASES[name]
    assert _digest(game, rules, strategies) == pinned
