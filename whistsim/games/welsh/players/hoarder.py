"""``hoarder``: draws while the stock lasts, then plays as ``counter`` from its full hand.

Its ``lead`` parameter lets it lead while the stock lasts, all else equal (it answers and
plays after the stock as it always does), so that a study can price each lead policy alone:
``sure`` leads only a card no one still to answer can beat, by what its seat has seen
(``counter``'s lead); ``high`` its highest card of ``rank`` or better (``hunter``'s);
``aces_kings`` an Ace or a King (``greedy``'s). With nothing to lead so, it draws.
"""

from numba import njit

from ....core.cards import JACK
from ....core.strategy import Param
from ..engine import DRAW, S_STOCK, S_TOP, TURN
from .common import challenge_param, cheat_param, follow_counting, lead_aces_kings, lead_high, lead_sure
from .counter import turn as counter_turn

NEVER, SURE, HIGH, ACES_KINGS = 0.0, 1.0, 2.0, 3.0
NAME = "hoarder"
PARAMS = {
    "cheat": cheat_param(),
    "challenge": challenge_param(),
    "lead": Param("never", "what it leads while the stock lasts, else it draws: never, sure (only a card "
                  "no one still to answer can beat), high (its highest card of rank or better) or "
                  "aces_kings (an Ace, else a King)",
                  {"never": NEVER, "sure": SURE, "high": HIGH, "aces_kings": ACES_KINGS}, numbers=False),
    "rank": Param(float(JACK), "lead=high: the lowest rank it leads (0=2 .. 12=A; 9=Jack)",
                  low=0.0, high=12.0, integer=True),
}  # fmt: skip
P_LEAD, P_RANK = 2, 3


@njit(cache=True)
def turn(t, own, seat):
    """Pure hoarding (pimc's play-outs use it whatever the seat's parameters)."""
    if t.s[S_TOP] < t.s[S_STOCK]:
        return DRAW
    return counter_turn(t, own, seat)


@njit(cache=True)
def stock_lead(t, own, seat):
    """The lead its ``lead`` parameter makes while the stock lasts, or -1 (it draws)."""
    mode = own.params[P_LEAD]
    if mode == NEVER or own.types == 0:
        return -1
    if mode == SURE:
        return lead_sure(t, own, seat)
    if mode == HIGH:
        return lead_high(own, int(own.params[P_RANK]))
    return lead_aces_kings(own)


@njit(cache=True)
def lead_turn(t, own, seat):
    if t.s[S_TOP] < t.s[S_STOCK]:
        a = stock_lead(t, own, seat)
        if a >= 0:
            return a
    return turn(t, own, seat)


@njit(cache=True, inline="always")
def decide(v):
    if v.phase == TURN:
        return lead_turn(v.table, v.own, v.seat)
    return follow_counting(v.table, v.own, v.seat)
