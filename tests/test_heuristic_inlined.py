"""pimc's play-outs ask the dealt games' ``heuristic`` through ``choose_inlined``, its follow and lead
compiled into the play-out (``core.calls.inlined``): at every card of many deals (Scotch Whist with 2
to 8 players, its parameters that take other paths, Whist) it must answer as ``choose`` does, and an
inlined call must return and raise as a plain call."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from whistsim.core.calls import inlined
from whistsim.games import get_game
from whistsim.games.dealt import engine as E
from whistsim.games.dealt.kernels import new_state
from whistsim.games.dealt.players import heuristic


@njit(cache=True)
def _half(x):
    if x < 0:
        raise ValueError("negative")
    return x // 2


@njit(cache=True)
def _half_inlined(x):
    return inlined(_half, x) + 1


@njit(cache=True)
def _digits(a, b, out):
    if a < 0:
        raise ValueError("negative")
    out[0] += 1  # the caller's array, written as in a call
    return a * 100 + b * 10 + out[0]


@njit(cache=True)
def _digits_inlined(a, b, out):
    return inlined(_digits, a, b, out) + inlined(_digits, 7, 2, out)  # literals: cast to fn's types


def test_an_inlined_call_returns_and_raises_as_a_call():
    assert _half_inlined(9) == 5
    with pytest.raises(ValueError, match="negative"):
        _half_inlined(-1)
    out = np.zeros(1, np.int64)
    assert _digits_inlined(1, 2, out) == 121 + 722 and out[0] == 2
    with pytest.raises(ValueError, match="negative"):
        _digits_inlined(-1, 0, out)


@njit(cache=True)
def _play(buf, deck, dealer, out):
    """Play the deal by ``choose``, asking ``choose_inlined`` at every card too. Counts into ``out``:
    cards, answers that differ, leads, cards the heuristic was asked for (a choice left)."""
    c = buf[0].core
    sc = buf[0].scratch
    E.deal_from_deck(c, deck, dealer)
    s = c.table.s
    while s[E.S_PHASE] != E.OVER:
        v = E.seat_view(c, s[E.S_SEAT], sc)
        a = heuristic.choose(v)
        b = heuristic.choose_inlined(v)
        out[0] += 1
        out[1] += a != b
        out[2] += v.led < 0
        out[3] += heuristic.no_choice(v) < 0
        E.apply(c, a)


CASES = [
    ("scotch", 2, {}, ()),
    ("scotch", 3, {}, ()),
    ("scotch", 4, {}, ()),
    ("scotch", 4, {}, (heuristic.P_PLACE_LEFT,)),
    ("scotch", 4, {}, (heuristic.P_TEN_ONLY,)),
    ("scotch", 5, {"odd_six": "aside"}, ()),
    ("scotch", 6, {}, ()),
    ("scotch", 8, {}, ()),
    ("whist", 4, {}, ()),
]


@pytest.mark.parametrize("game,players,rules,on", CASES)
def test_the_inlined_choice_is_the_heuristics_choice(game, players, rules, on):
    r = get_game(game).make_rules(None, players, rules)
    buf = new_state(r)
    params = buf[0]["core"]["seats"]["params"]
    params[:, : len(heuristic.DEFAULTS)] = heuristic.DEFAULTS
    for i in on:
        params[:, i] = 1.0
    out = np.zeros(4, np.int64)
    gen = np.random.default_rng(players)
    for deal in range(12):
        _play(buf, gen.permutation(r.deck()).astype(np.int8), deal % players, out)
    assert out[2] > 30 and out[3] - out[2] > 30  # leads and follows with a choice
    assert out[1] == 0, f"{out[1]} of {out[0]} cards differ"
