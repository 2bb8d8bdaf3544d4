"""``hunter``: the play Akagiri 1995 reports: while the stock lasts, leads its high cards (Jack or better,
which beat Tens and Taffies) one after another to catch others' Tens and Taffies.

With ``hold=0`` (the default) it leads a high card on every turn it holds one. With ``hold=K`` it
draws, leading nothing, until it holds K cards of ``rank`` or better, then leads them, highest first,
on its successive turns without drawing in between until it holds none, then draws again: a run of
leads, as the text's players make them.

Whether it is in a run is whether its previous turn was such a lead, and no table record says so
(the table counts each seat's draws and leads, not their order). So the seat remembers it, as a
player at the table would: on each lead it makes while the stock lasts, it writes the counts of its
own leads and draws after that lead into two spare slots of its parameters (:data:`M_LED`,
:data:`M_DRAWN`, never declared). On its next turn its previous turn was that lead exactly when both
counts are still the same (every turn it takes adds a draw or a lead). A new deal starts the counts
from 0, so the memory of another deal never passes: the counts cannot match until it has led in
this deal, and that lead wrote them anew. It remembers only what it did itself.
"""

from numba import njit

from ....core.cards import JACK
from ....core.strategy import MAX_PARAMS, Param
from ..engine import DRAW, S_STOCK, S_TOP, TURN
from .common import challenge_param, cheat_param, follow_greedy, lead_high
from .greedy import turn as greedy_turn

NAME = "hunter"
PARAMS = {
    "cheat": cheat_param(),
    "challenge": challenge_param(),
    "rank": Param(float(JACK), "the lowest rank it leads while the stock lasts (0=2 .. 12=A; 9=Jack)",
                  low=0.0, high=12.0, integer=True),
    "hold": Param(0.0, "0: lead a high card on every turn it holds one; K: draw until it holds K cards of "
                  "rank or better, then lead them one a turn, highest first, without drawing, until they "
                  "are gone", low=0.0, high=52.0, integer=True),
}  # fmt: skip
P_RANK, P_HOLD = 2, 3
# Its memory of its last lead while the stock lasted: its own leads and draws counted after it.
M_LED, M_DRAWN = MAX_PARAMS - 2, MAX_PARAMS - 1
assert len(PARAMS) <= M_LED


@njit(cache=True)
def high_cards(own, lowest_rank):
    """Cards held of rank >= ``lowest_rank`` (Taffies are not: they lose to a Jack)."""
    n = 0
    for suit in range(4):
        for r in range(lowest_rank, 13):
            n += own.hand[suit * 13 + r]
    return n


@njit(cache=True)
def in_run(t, own, seat):
    """Was this seat's previous turn a lead it remembers (no draw or lead of its own since)?"""
    led = t.led[seat]
    return led > 0 and own.params[M_LED] == led and own.params[M_DRAWN] == t.drawn[seat]


@njit(cache=True)
def holding_turn(t, own, seat, rank, hold):
    """``hold=K``: lead a high card when it holds K of them or its run goes on, else draw."""
    n = high_cards(own, rank)
    if n == 0 or (n < hold and not in_run(t, own, seat)):
        return DRAW
    a = lead_high(own, rank)
    own.params[M_LED] = t.led[seat] + 1
    own.params[M_DRAWN] = t.drawn[seat]
    return a


@njit(cache=True)
def turn(t, own, seat):
    if t.s[S_TOP] < t.s[S_STOCK]:
        if own.types == 0:
            return DRAW
        rank = int(own.params[P_RANK])
        if own.params[P_HOLD] > 0:
            return holding_turn(t, own, seat, rank, int(own.params[P_HOLD]))
        a = lead_high(own, rank)
        return a if a >= 0 else DRAW
    return greedy_turn(t, own)


@njit(cache=True, inline="always")
def decide(v):
    if v.phase == TURN:
        return turn(v.table, v.own, v.seat)
    return follow_greedy(v.table, v.own, v.seat)
