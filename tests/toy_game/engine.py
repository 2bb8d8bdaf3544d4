"""Toy's rules, as the harness needs them: two players, a short pack dealt out,
follow suit if able, the highest card of the suit led wins, the winner leads."""

import numpy as np
from numba import njit

from whistsim.core.rng import shuffle_stock
from whistsim.core.strategy import MAX_PARAMS
from whistsim.harness import events, template
from whistsim.harness.loop import play_deal

OK, E_OVER, E_NOT_HELD, E_MUST_FOLLOW = range(4)
ENGINE_ERRORS = {E_OVER: "the deal is over", E_NOT_HELD: "not held", E_MUST_FOLLOW: "must follow suit"}

i8, u8, f8 = np.int64, np.uint64, np.float64
SEAT = np.dtype([("hand", i8, (4,)), ("strategy", i8), ("params", f8, (MAX_PARAMS,)), ("rng", u8, (1,))])
TABLE = np.dtype([*((k, i8) for k in ("turn", "led", "lead_card", "leader", "left")), ("tricks", i8, (2,))])
STATE = [("table", TABLE), ("seats", SEAT, (2,)), ("deck", i8, (52,)), ("rng", u8, (1,)), ("first", i8)]
STATE_DTYPE = np.dtype([*STATE, *events.EVENT_FIELDS])


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
        t.led, t.lead_card, t.leader, t.turn = card // 13, card, seat, 1 - seat
        events.emit(g, events.LEAD, seat, card, card // 13)
        return
    events.emit(g, events.FOLLOW, seat, card, 0)
    winner = seat if card // 13 == t.led and card > t.lead_card else t.leader
    t.tricks[winner] += 1
    events.emit(g, events.TRICK, winner, 2, 0)
    t.led, t.turn = -1, winner


@template
def play_game(g, base_deck, seed, game, first, log, logging, extra):
    shuffle_stock(g, base_deck, seed, game, 2)
    deal_deck(g, base_deck.shape[0], first)
    return play_deal(g, log, log.shape[0] if logging else 0)


@njit(cache=True)
def record(g, i, outs, moves):
    outs[0][0, i, :] = g.table.tricks
    outs[1][0, i], outs[1][1, i] = g.first, moves
