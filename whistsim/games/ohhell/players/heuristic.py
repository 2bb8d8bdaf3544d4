"""``heuristic``: bids the tricks its hand should take, then plays to take exactly that many.

The bid: each card's chance of taking a trick, by its rank from the top of its suit and
whether it is a trump, summed over the hand and rounded; the dealer bound by the hook
bids the nearer legal number. The play: while short of its bid it wins when it can
(cheaply when last to play, with its best card otherwise) and leads its best card;
once it has its bid it ducks, playing the highest card that loses, and leads its lowest.
Only the view is read: the table (bids, tricks, the trick, cards played) and its own hand.
"""

from numba import njit

from ....core.bits import highest, lowest
from ....core.strategy import Param
from ..engine import (
    BID,
    BID_BASE,
    R_PLAYERS,
    S_BEST_POWER,
    S_HAND,
    S_LED,
    S_PHASE,
    S_TRICK_LEN,
    S_TRUMP,
    hooked,
    legal_mask,
    power,
)

NAME = "heuristic"
PARAMS = {
    "trump_weight": Param(1.0, "scale of the trumps' chances of a trick in the bid", low=0.0, high=3.0),
    "plain_weight": Param(1.0, "scale of the other cards' chances of a trick in the bid", low=0.0, high=3.0),
}
DEFAULTS = (1.0, 1.0)  # PARAMS' defaults, for players a search plays out


@njit(cache=True, inline="always")
def card_chance(v, suit, rank, trump_w, plain_w):
    """A card's chance of taking a trick: by how many higher cards of its suit are still out."""
    t = v.table
    higher = 0
    for r in range(rank + 1, 13):
        if (t.pack[suit] >> r) & 1 and not (t.played[suit] >> r) & 1 and not (v.own.bits[suit] >> r) & 1:
            higher += 1
    if suit == t.s[S_TRUMP]:
        return trump_w * max(0.15, 1.0 - 0.2 * higher)
    others = t.rules[R_PLAYERS] - 1
    base = (0.9, 0.55, 0.25)
    if higher >= 3:
        return 0.0
    return plain_w * base[higher] * (3.0 / max(3, others)) ** 0.5


@njit(cache=True)
def expected_tricks(v, trump_w, plain_w):
    """The tricks the hand should take: its cards' chances, summed."""
    x = 0.0
    for suit in range(4):
        m = v.own.bits[suit]
        while m:
            r = lowest(m)
            m &= m - 1
            x += card_chance(v, suit, r, trump_w, plain_w)
    return x


@njit(cache=True)
def bid_of(v, x):
    """The bid nearest ``x`` that the hook allows."""
    t = v.table
    n = t.s[S_HAND]
    b = min(n, max(0, int(x + 0.5)))
    if not hooked(t, b):
        return BID_BASE + b
    up, down = b + 1, b - 1
    if up <= n and (down < 0 or x >= b):
        return BID_BASE + up
    return BID_BASE + (down if down >= 0 else up)


@njit(cache=True)
def play(v):
    """A card: win while short of the bid, duck once it is made."""
    t = v.table
    s = t.s
    own = v.own
    seat = v.seat
    led = s[S_LED]
    trump = s[S_TRUMP]
    want = t.tricks[seat] < t.bids[seat]
    if led < 0:  # lead: the best card to win, the lowest plain card to lose
        best, best_key = -1, -1000
        for suit in range(4):
            m = own.bits[suit]
            if m == 0:
                continue
            r = highest(m) if want else lowest(m)
            key = r + (20 if suit == trump else 0)
            key = key if want else -key
            if key > best_key:
                best, best_key = suit * 13 + r, key
        return best
    last = s[S_TRICK_LEN] == t.rules[R_PLAYERS] - 1
    top = s[S_BEST_POWER]
    pick, pick_key = -1, -100000
    for suit in range(4):
        m = legal_mask(own, led, suit)
        while m:
            r = lowest(m)
            m &= m - 1
            c = suit * 13 + r
            pw = power(c, trump, led)
            wins = pw > top
            if want:
                # winning cards first: the cheapest when last, else the strongest; else the lowest
                key = (
                    (10000 + (200 - pw if last else pw))
                    if wins
                    else 1000 - (r + (20 if suit == trump else 0))
                )
            else:
                # losing cards first, the highest (a plain discard counts by rank); else the weakest winner
                key = (10000 + (r if pw < 0 else pw)) if not wins else 1000 - pw
            if key > pick_key:
                pick, pick_key = c, key
    return pick


@njit(cache=True, inline="always")  # a switch: on its own, one more module holding all of it
def decide(v):
    if v.table.s[S_PHASE] == BID:
        return bid_of(v, expected_tricks(v, v.own.params[0], v.own.params[1]))
    return play(v)
