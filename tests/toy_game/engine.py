"""Toy's rules, as the harness needs them: two players, a short pack dealt out,
follow suit if able, the highest card of the suit led wins, the winner leads."""

import numpy as np
from numba import njit

from whistsim.harness import events as ev
from whistsim.harness import template
from whistsim.harness.loop import play_deal
from whistsim.rng import shuffle_stock
from whistsim.strategy import MAX_PARAMS

OK, E_OVER, E_NOT_HELD, E_MUST_FOLLOW = range(4)
ENGINE_ERRORS = {E_OVER: "the deal is over", E_NOT_HELD: "not held", E_MUST_FOLLOW: "must follow suit"}

SEAT = np.dtype([("hand", np.int64, (4,)), ("strategy", np.int64), ("params", np.float64, (MAX_PARAMS,)),
                 ("rng", np.uint64, (1,))])  # fmt: skip
TABLE = np.dtype([("turn", np.int64), ("led", np.int64), ("lead_card", np.int64),
                  ("leader", np.int64), ("left", np.int64), ("tricks", np.int64, (2,))])  # fmt: skip
STATE_DTYPE = np.dtype([("table", TABLE), ("seats", SEAT, (2,)), ("deck", np.int64, (52,)), ("rng", np.uint64, (1,)),
                        ("first", np.int64), *ev.EVENT_FIELDS])  # fmt: skip


@njit(cache=True)
def deal(g, base_deck, seed, game, first):
    shuffle_stock(g, base_deck, seed, game, 2)
    deal_deck(g, base_deck.shape[0], first)


@njit(cache=True)
def deal_deck(g, n, first):
    g.seats[0].hand[:] = 0
    g.seats[1].hand[:] = 0
    for i in range(n):
        g.seats[(first + i) % 2].hand[g.deck[i] // 13] |= 1 << (g.deck[i] % 13)
    g.table.turn, g.table.leader, g.table.led, g.table.left, g.first = first, first, -1, n, first
    g.table.tricks[:] = 0


@njit(cache=True, inline="always")
def over(g):
    return g.table.left == 0


@njit(cache=True, inline="always")
def to_move(g):
    return g.table.turn


@njit(cache=True, inline="always")
def check_move(g, card):
    hand, led = g.seats[g.table.turn].hand, g.table.led
    if over(g):
        return E_OVER
    if card < 0 or card >= 52 or not (hand[card // 13] >> (card % 13)) & 1:
        return E_NOT_HELD
    return E_MUST_FOLLOW if led >= 0 and card // 13 != led and hand[led] != 0 else OK


@njit(cache=True, inline="always")
def apply_move(g, card):
    t, seat = g.table, g.table.turn
    g.seats[seat].hand[card // 13] &= ~(1 << (card % 13))
    t.left -= 1
    if t.led < 0:
        t.led, t.lead_card, t.leader = card // 13, card, seat
        ev.emit(g, ev.LEAD, seat, card, card // 13)
        t.turn = 1 - seat
        return
    ev.emit(g, ev.FOLLOW, seat, card, 0)
    winner = seat if card // 13 == t.led and card > t.lead_card else t.leader
    t.tricks[winner] += 1
    ev.emit(g, ev.TRICK, winner, 2, 0)
    t.led, t.turn = -1, winner


@template
def play_game(g, base_deck, seed, game, first, log, logging, extra):
    deal(g, base_deck, seed, game, first)
    return play_deal(g, log, log.shape[0] if logging else 0)


@njit(cache=True)
def record(g, i, outs, moves):
    outs[0][0, i, :] = g.table.tricks
    outs[1][0, i], outs[1][1, i] = g.first, moves
