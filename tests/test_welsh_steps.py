"""The engine's steps that the fast loop and pimc's play-outs call with the trick's running values
and the stock's top in locals (``draw``, ``turn_after``, ``play_card``, ``close_trick``,
``end_trick``) leave the state ``apply`` leaves, decision by decision, in hand-made deals."""

from __future__ import annotations

import numpy as np
from numba import njit

from whistsim.core.cards import TAFFY
from whistsim.games import get_game
from whistsim.games.welsh import engine as E
from whistsim.games.welsh import records as R
from whistsim.games.welsh.rules import R_TAFFY_EQUALS_TEN

# The engine's side is played by the replay kernel's compiled step (``records.step``: ``check``,
# then ``apply``), which the rest of the suite compiles anyway; only the steps are compiled here.


def _step(buf, a) -> int:
    return R.step(buf[0:1], a)


def _choose(buf, k):
    """A fixed legal decision (the ``k``-th of the deal): on even ``k`` a turn draws while the stock
    lasts, else the lowest or the highest legal card (a Taffy lead names its first suit), else a
    pass."""
    s = buf[0]["table"]["s"]
    if s[E.S_PHASE] == E.TURN and s[E.S_TOP] < s[E.S_STOCK] and k % 2 == 0:
        return E.DRAW
    for i in range(E.TAFFY_LEAD + 1):
        a = i if (k // 3) % 2 == 0 else E.TAFFY_LEAD - i
        if a != TAFFY or s[E.S_PHASE] == E.FOLLOW:
            if _step(buf[0:1].copy(), a) == E.OK:  # the engine's check, on a copy
                return a
    return E.PASS


@njit(cache=True)
def _draw_step(buf, seat):
    """The steps' draw on ``buf[1]``: the seat to move next."""
    g = buf[1]
    bs = g.table.s
    top = E.draw(g, seat, bs[E.S_TOP], True)
    return E.turn_after(g, seat, top < bs[E.S_STOCK])


@njit(cache=True)
def _card_step(buf, seat, leader, a, n, best, pw, npass, suit, stocked):
    """The steps' card on ``buf[1]``: the trick's running values after it, and the next seat to
    answer (-1: the trick is complete)."""
    g = buf[1]
    tte = g.table.rules[R_TAFFY_EQUALS_TEN]
    n, best, pw, npass, suit = E.play_card(g, seat, a, n, best, pw, npass, suit, tte, True)
    return n, best, pw, npass, suit, E.next_answer(g.table, seat, leader, E.players(g), stocked)


@njit(cache=True)
def _trick_step(buf, seat, leader, n, best, pw, npass, stocked):
    """The steps' end of a trick on ``buf[1]``: the seat to move next."""
    g = buf[1]
    E.close_trick(g, seat, n, best, pw, npass)
    g.table.s[E.S_PHASE] = E.FOLLOW  # as apply's lead leaves it (the step's callers set it when they read it)
    return E.end_trick(g, leader, npass, stocked)


def _play_both(buf, tricks, trace):
    """Play up to ``tricks`` tricks (and the draws between them) on ``buf[0]`` by the engine's
    ``check`` and ``apply`` and on ``buf[1]`` by the steps, the same decisions. ``trace`` rows: the
    steps' running values (n, best, best power, passes, suit) and the engine's (trick length, best,
    best power, passes, suit led) after each card but a trick's last; returns (rows, True if the two
    states were equal byte for byte after every draw and every trick, decisions)."""
    s = buf[0]["table"]["s"]
    bs = buf[1]["table"]["s"]
    row = 0
    same = True
    k = 0
    done = 0

    def after():  # the seat the engine has to move next (-1: the deal is over)
        return int(s[E.S_SEAT]) if s[E.S_PHASE] != E.OVER else -1

    while s[E.S_PHASE] != E.OVER and done < tricks:
        seat = int(bs[E.S_SEAT])
        a = _choose(buf, k)
        k += 1
        assert _step(buf, a) == E.OK
        bs[E.S_TURNS] += 1
        stocked = bool(bs[E.S_TOP] < bs[E.S_STOCK])
        if a == E.DRAW:
            nxt = _draw_step(buf, seat)
            same &= nxt == after()
            same &= _equal(buf)
            continue
        leader = seat
        n, best, pw, npass, suit, q = _card_step(buf, seat, leader, a, 0, 0, 0, 0, 0, stocked)
        while q >= 0:
            trace[row, :5] = n, best, pw, npass, suit
            trace[row, 5:] = s[[E.S_TRICK_LEN, E.S_BEST, E.S_BEST_POWER, E.S_NPASS, E.S_LED_SUIT]]
            row += 1
            a = _choose(buf, k)
            k += 1
            assert _step(buf, a) == E.OK
            seat = q
            n, best, pw, npass, suit, q = _card_step(buf, q, leader, a, n, best, pw, npass, suit, stocked)
        nxt = _trick_step(buf, seat, leader, n, best, pw, npass, stocked)
        same &= nxt == after()
        same &= _equal(buf)
        done += 1
    return row, same, k


def _equal(buf) -> bool:
    return buf[0:1].tobytes() == buf[1:2].tobytes()


def _deal(hands: list[list[int]], exhaust: bool = False) -> np.ndarray:
    """Three players, Parlett's stock; the seats (seat 0 first) draw ``hands`` in turn from the top
    of the stock, the rest of the stock in order below them."""
    rules = get_game("welsh").make_rules("parlett", 3, {})
    stock = list(rules.deck())
    top = []
    for i in range(len(hands[0])):
        for h in hands:
            stock.remove(h[i])
            top.append(h[i])
    buf = E.new_state(rules.to_array())
    R.start(buf, np.array(top + stock, np.int64), 0)  # as replay starts a deal
    assert buf[0]["table"]["s"][E.S_STOCK] == rules.stock_size
    for _ in range(len(top)):
        assert _step(buf, E.DRAW) == E.OK
    if exhaust:  # the stock played out: a hand-made position for the deal's last tricks
        buf[0]["table"]["s"][E.S_TOP] = rules.stock_size
        buf[0]["table"]["s"][E.S_DRAWS] = rules.stock_size
    return np.frombuffer(bytearray(buf.tobytes() * 2), E.STATE_DTYPE)  # padding bytes alike too


SPADE, HEART, DIAMOND, CLUB = 0, 13, 26, 39  # codes of each suit's Two (any four suits will do)
TEN, ACE = 8, 12


def test_a_trick_with_a_pass_a_taffy_and_draws_by_the_steps_is_the_engines():
    bufs = _deal(
        [
            [SPADE + 3, SPADE + ACE, HEART + 5],
            [SPADE + TEN, TAFFY, DIAMOND + 4],
            [HEART + 2, DIAMOND + 7, CLUB + 9],  # no spade, no Taffy: passes on spades
        ]
    )
    trace = np.zeros((64, 10), np.int64)
    rows, same, decisions = _play_both(bufs, 6, trace)
    assert same
    assert decisions > 10 and rows > 5
    assert (trace[:rows, :5] == trace[:rows, 5:]).all()


def test_the_last_tricks_by_the_steps_end_the_deal_as_the_engine_ends_it():
    bufs = _deal(
        [
            [SPADE + 3, SPADE + ACE, HEART + 5, TAFFY],
            [SPADE + TEN, TAFFY, DIAMOND + 4, SPADE + 2],
            [HEART + 2, DIAMOND + 7, CLUB + 9, HEART + TEN],
        ],
        exhaust=True,
    )
    trace = np.zeros((64, 10), np.int64)
    rows, same, _ = _play_both(bufs, 99, trace)
    assert same
    assert bufs[0]["table"]["s"][E.S_PHASE] == E.OVER
    assert bufs[0]["table"]["s"][E.S_LAST_HOLDER] >= 0  # one seat kept cards
    assert (trace[:rows, :5] == trace[:rows, 5:]).all()
