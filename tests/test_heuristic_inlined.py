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


# ``discard`` and the engine's ``follow`` are written as selects (the play-outs' commonest data-dependent
# answers): every input of a small domain against a plain statement of them.
MASKS = (0, 1 << 0, 1 << 3, (1 << 0) | (1 << 1), (1 << 3) | (1 << 9), (1 << 9) | (1 << 12))


@njit(cache=True)
def _discards(buf, hands, out):
    c = buf[0].core
    own = c.seats[0]
    for k in range(hands.shape[0]):
        for suit in range(4):
            own.bits[suit] = hands[k, suit + 1]
        v = E.DealtView(0, 4, hands[k, 0], 0, 1, c.table, own, buf[0].scratch)
        out[k] = heuristic.discard(v)


def _plain_discard(bits, trump, scotch):
    """The lowest plain card, the longest suit on ties, then the first; else the trump to give away."""
    plain = [
        (min(r for r in range(13) if m >> r & 1), -bin(m).count("1"), s)
        for s, m in enumerate(bits)
        if s != trump and m
    ]
    if plain:
        rank, _, suit = min(plain)
        return suit * 13 + rank
    ranks = [r for r in range(13) if bits[trump] >> r & 1]
    if scotch:  # counting cards last: Q K A T J
        order = {10: 1, 11: 2, 12: 3, 8: 4, 9: 5}
        ranks.sort(key=lambda r: (order.get(r, 0), r))
    return trump * 13 + ranks[0]


@pytest.mark.parametrize("game", ["scotch", "whist"])
def test_discard_is_its_plain_statement(game):
    r = get_game(game).make_rules(None, 4, {})
    buf = new_state(r)
    # every trump suit and every hand of these masks with a card in it
    hands = np.array(
        [(t, *(MASKS[i] for i in b)) for t in range(4) for b in np.ndindex(*(len(MASKS),) * 4) if any(b)]
    )
    out = np.zeros(len(hands), np.int64)
    _discards(buf, hands, out)
    want = [_plain_discard(list(h[1:]), h[0], game == "scotch") for h in hands]
    assert out.tolist() == want


@njit(cache=True)
def _follows(buf, cases, out):
    t = buf[0].core.table
    for k in range(cases.shape[0]):
        suit, rank, led, trump, scotch, best_power = cases[k]
        t.void[1, led] = k & 1  # a void shown before stays
        out[k, 0], out[k, 1], out[k, 2] = E.follow(
            t, 1, 2, suit, rank, led, trump, scotch != 0, 1, best_power
        )
        out[k, 3] = t.void[1, led]


def test_follow_is_its_plain_statement():
    buf = new_state(get_game("scotch").make_rules(None, 4, {}))
    cases = np.array(list(np.ndindex(4, 13, 4, 4, 2, 1)), np.int64)
    cases = np.repeat(cases, 4, axis=0)
    cases[:, 5] = np.tile([-1, 5, 9, 64 + 11], len(cases) // 4)
    out = np.zeros((len(cases), 4), np.int64)
    _follows(buf, cases, out)
    for k, ((suit, rank, led, trump, scotch, bp), got) in enumerate(
        zip(cases.tolist(), out.tolist(), strict=True)
    ):
        pw = 64 + (13 if scotch and rank == 9 else rank) if suit == trump else rank if suit == led else -1
        assert got == [int(suit == led), 2 if pw > bp else 1, max(pw, bp), int(suit != led) | k & 1]
