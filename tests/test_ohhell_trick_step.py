"""Oh Hell's one step of a card played to a trick (``engine.to_trick``), which ``apply_round`` and
the own loop for random seats call: a hand-made trick's winner, the voids shown, the trick laid."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from whistsim.core.cards import parse_card
from whistsim.games import get_game
from whistsim.games.ohhell import engine as E
from whistsim.games.ohhell.kernels import new_state


@njit(cache=True)
def _trick(buf, cards, trump):
    """Seats 0, 1, ... play ``cards`` to one trick by the step alone, from locals; returns (the
    suit led, the place of the card winning it, its power)."""
    c = buf[0].round
    led, best, best_pw = -1, 0, -1
    for i in range(cards.shape[0]):
        a = cards[i]
        c.seats[i].bits[a // 13] |= np.int64(1) << np.int64(a % 13)
        led, best, best_pw = E.to_trick(c, i, i, a // 13, a % 13, led, trump, best, best_pw)
    return led, best, best_pw


@pytest.mark.parametrize(
    "cards,trump,winner",
    [
        (["5H", "KH", "2S", "AH"], 3, 2),  # a trump takes the trick
        (["5H", "KH", "2S", "AH"], -1, 3),  # no trumps: the highest of the suit led
        (["5H", "KH", "AD", "3S"], 0, 1),  # discards never win
        (["9C", "9D", "9H", "9S"], -1, 0),  # only the suit led wins
    ],
)
def test_the_step_finds_the_tricks_winner_and_the_voids_shown(cards, trump, winner):
    r = get_game("ohhell").make_rules("openspiel", 4, {})
    buf = new_state(r)
    codes = np.array([parse_card(x) for x in cards], np.int64)
    led, best, best_pw = _trick(buf, codes, trump)
    assert led == codes[0] // 13 and best == winner
    assert best_pw == E.power(int(codes[winner]), trump, int(led))
    table = buf[0]["round"]["table"]
    assert [q for q in range(4) if table["void"][q, led]] == [q for q in range(4) if codes[q] // 13 != led]
    assert list(table["trick_card"][:4]) == list(codes) and list(table["trick_seat"][:4]) == [0, 1, 2, 3]
    assert all(int(x) == 0 for x in buf[0]["round"]["seats"]["bits"][:4].ravel())  # each card left its hand
