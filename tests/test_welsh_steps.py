"""The engine's steps that the fast loop and pimc's play-outs call with the trick's running values
and the stock's top in locals (``draw``, ``turn_after``, ``play_card``, ``close_trick``,
``end_trick``) leave the state ``apply`` leaves, decision by decision, in hand-made deals."""

from __future__ import annotations

import numpy as np
from numba import njit

from whistsim.core.cards import TAFFY
from whistsim.games import get_game
from whistsim.games.welsh import engine as E
from whistsim.games.welsh.rules import R_TAFFY_EQUALS_TEN


@njit(cache=True)
def _choose(g, k):
    """A fixed legal decision (the ``k``-th of the deal): on even ``k`` a turn draws while the stock
    lasts, else the lowest or the highest legal card (a Taffy lead names its first suit), else a
    pass."""
    s = g.table.s
    if s[E.S_PHASE] == E.TURN and s[E.S_TOP] < s[E.S_STOCK] and k % 2 == 0:
        return E.DRAW
    for i in range(E.TAFFY_LEAD + 1):
        a = i if (k // 3) % 2 == 0 else E.TAFFY_LEAD - i
        if a != TAFFY or s[E.S_PHASE] == E.FOLLOW:
            if E.check(g, a) == E.OK:
                return a
    return E.PASS


@njit(cache=True)
def _play_both(buf, tricks, trace):
    """Play up to ``tricks`` tricks (and the draws between them) on ``buf[0]`` by ``apply`` and on
    ``buf[1]`` by the steps, the same decisions. ``trace`` rows: the steps' running values
    (n, best, best power, passes, suit) and the engine's (trick length, best, best power, passes,
    suit led) after each card but a trick's last; returns (rows, True if the two states were equal
    byte for byte after every draw and every trick, decisions)."""
    a_g = buf[0]
    b_g = buf[1]
    s = a_g.table.s
    bs = b_g.table.s
    tte = b_g.table.rules[R_TAFFY_EQUALS_TEN]
    p = E.players(b_g)
    row = 0
    same = True
    k = 0
    done = 0
    while s[E.S_PHASE] != E.OVER and done < tricks:
        seat = bs[E.S_SEAT]
        a = _choose(a_g, k)
        k += 1
        E.apply(a_g, a)
        bs[E.S_TURNS] += 1
        stocked = bs[E.S_TOP] < bs[E.S_STOCK]
        if a == E.DRAW:
            top = E.draw(b_g, seat, bs[E.S_TOP])
            nxt = E.turn_after(b_g, seat, top < bs[E.S_STOCK])
            same &= nxt == (s[E.S_SEAT] if s[E.S_PHASE] != E.OVER else -1)
            same &= _equal(buf)
            continue
        leader = seat
        n, best, pw, npass, suit = E.play_card(b_g, seat, a, 0, 0, 0, 0, 0, tte)
        q = E.next_answer(b_g.table, seat, leader, p, stocked)
        while q >= 0:
            trace[row, 0], trace[row, 1], trace[row, 2], trace[row, 3], trace[row, 4] = (
                n,
                best,
                pw,
                npass,
                suit,
            )
            trace[row, 5] = s[E.S_TRICK_LEN]
            trace[row, 6] = s[E.S_BEST]
            trace[row, 7] = s[E.S_BEST_POWER]
            trace[row, 8] = s[E.S_NPASS]
            trace[row, 9] = s[E.S_LED_SUIT]
            row += 1
            a = _choose(a_g, k)
            k += 1
            E.apply(a_g, a)
            n, best, pw, npass, suit = E.play_card(b_g, q, a, n, best, pw, npass, suit, tte)
            seat = q
            q = E.next_answer(b_g.table, q, leader, p, stocked)
        E.close_trick(b_g, seat, n, best, pw, npass)
        bs[E.S_PHASE] = E.FOLLOW  # as apply's lead leaves it (the step's callers set it when they read it)
        nxt = E.end_trick(b_g, leader, npass, stocked)
        same &= nxt == (s[E.S_SEAT] if s[E.S_PHASE] != E.OVER else -1)
        same &= _equal(buf)
        done += 1
    return row, same, k


@njit(cache=True)
def _equal(buf):
    a = buf[0:1].view(np.uint8)
    b = buf[1:2].view(np.uint8)
    for i in range(a.shape[0]):
        if a[i] != b[i]:
            return False
    return True


@njit(cache=True)
def _start(buf, stock, first):
    E.reset(buf[0], stock, first)


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
    buf[0]["deck"][: len(stock) + len(top)] = top + stock
    _start(buf, np.int64(rules.stock_size), np.int64(0))
    for _ in range(len(top)):
        _draw(buf)
    if exhaust:  # the stock played out: a hand-made position for the deal's last tricks
        buf[0]["table"]["s"][E.S_TOP] = rules.stock_size
        buf[0]["table"]["s"][E.S_DRAWS] = rules.stock_size
    return np.frombuffer(bytearray(buf.tobytes() * 2), E.STATE_DTYPE)  # padding bytes alike too


@njit(cache=True)
def _draw(buf):
    E.apply(buf[0], E.DRAW)


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
