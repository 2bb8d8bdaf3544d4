"""The benchmark's floor: minimal random-play kernels, for ``make bench`` only.

Each plays the same game as whistsim's random players under default rules, with
nothing else: no rule options, no strategy dispatch, no views, no logging, flat
hand arrays and an inline xorshift generator. They measure how fast one core
can play the game at all, so the bench can print whistsim's speed as a share of
it. Nothing in the package uses them; their results are checked only for being
the same game (tests/test_bench.py), never against whistsim's streams.
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

from ..core.bits import FAST_PDEP, nth, popcount

# Welsh Whist, Parlett's stock for three players: two packs and four Taffies.
W_PLAYERS = 3
W_TAFFY = 52
W_TEN = 8  # rank of a Ten (2 is rank 0)
W_TAFFY_POWER = 2 * W_TEN + 1  # Parlett: between Ten and Jack
W_STOCK = 2 * 52 + 4


@njit(inline="always")
def _xorshift(s):
    s ^= s << uint64(13)
    s ^= s >> uint64(7)
    s ^= s << uint64(17)
    return s


@njit(inline="always")
def _below(s, n):
    return np.int64(((s >> uint64(32)) * uint64(n)) >> uint64(32))


if FAST_PDEP:  # the same pick as whistsim's random players, by the quickest means the processor has

    @njit(cache=True, inline="always")
    def _kth(b, k):
        """The ``k``-th held card in suit order (per-suit rank bits ``b``), or -1 past the last."""
        held = b[0] | (b[1] << 13) | (b[2] << 26) | (b[3] << 39)
        return nth(held, k) if k < popcount(held) else -1

else:

    @njit(cache=True, inline="always")
    def _kth(b, k):
        """The ``k``-th held card in suit order (per-suit rank bits ``b``), or -1 past the last."""
        for suit in range(4):
            cnt = popcount(b[suit])
            if k < cnt:
                return suit * 13 + nth(b[suit], k)
            k -= cnt
        return -1


@njit(cache=True)
def welsh_floor(n, seed, out):
    """Play ``n`` deals of three-player Welsh Whist (Parlett's stock, standard scoring,
    no revokes, no challenges) by uniformly random decisions: draw with chance 1/2
    while the stock lasts, lead a uniform held card type (a Taffy names a uniform
    suit), follow with a uniform card of the suit led or a Taffy, else pass.
    ``out[i, q]``: seat q's points in deal i. Returns the decisions made."""
    p = W_PLAYERS
    base = np.empty(W_STOCK, np.int8)
    for c in range(W_STOCK):
        base[c] = c % 52 if c < 104 else W_TAFFY
    deck = np.empty(W_STOCK, np.int8)
    hand = np.zeros((p, 53), np.int16)  # counts by card type
    bits = np.zeros((p, 4), np.int64)  # rank bits per suit
    types = np.zeros(p, np.int64)
    held = np.zeros(p, np.int64)
    won = np.zeros(p, np.int64)
    tens = np.zeros(p, np.int64)
    tc = np.zeros(p, np.int64)
    ts = np.zeros(p, np.int64)
    s = uint64(seed) * uint64(0x9E3779B97F4A7C15) | uint64(1)
    moves = 0
    for i in range(n):
        for c in range(W_STOCK):
            deck[c] = base[c]
        for c in range(W_STOCK - 1, 0, -1):
            s = _xorshift(s)
            j = _below(s, c + 1)
            deck[c], deck[j] = deck[j], deck[c]
        for q in range(p):
            for c in range(53):
                hand[q, c] = 0
            for k in range(4):
                bits[q, k] = 0
            types[q] = 0
            held[q] = 0
            won[q] = 0
            tens[q] = 0
        top = 0
        seat = i % p
        while True:
            # a turn: draw or lead
            moves += 1
            draw = top < W_STOCK and held[seat] == 0
            if top < W_STOCK and not draw:
                s = _xorshift(s)
                draw = (s >> uint64(63)) == 1
            if draw:
                c = np.int64(deck[top])
                top += 1
                if hand[seat, c] == 0:
                    types[seat] += 1
                    if c != W_TAFFY:
                        bits[seat, c // 13] |= 1 << (c % 13)
                hand[seat, c] += 1
                held[seat] += 1
            else:
                s = _xorshift(s)
                c = _kth(bits[seat], _below(s, types[seat]))
                suit = c // 13
                if c < 0:
                    c = W_TAFFY
                    s = _xorshift(s)
                    suit = _below(s, 4)
                leader = seat
                best_pw = W_TAFFY_POWER if c == W_TAFFY else 2 * (c % 13)
                best = leader
                tc[0] = c
                ts[0] = leader
                length = 1
                hand[seat, c] -= 1
                held[seat] -= 1
                if hand[seat, c] == 0:
                    types[seat] -= 1
                    if c != W_TAFFY:
                        bits[seat, suit] &= ~(1 << (c % 13))
                q = leader
                for _ in range(p - 1):
                    q = q + 1 if q + 1 < p else 0
                    if top >= W_STOCK and held[q] == 0:
                        continue
                    m = bits[q, suit]
                    cnt = popcount(m)
                    taffy = 1 if hand[q, W_TAFFY] > 0 else 0
                    moves += 1
                    if cnt + taffy == 0:
                        continue  # a pass
                    s = _xorshift(s)
                    pick = _below(s, cnt + taffy)
                    if pick == cnt:
                        f = W_TAFFY
                        pw = W_TAFFY_POWER
                    else:
                        f = suit * 13 + nth(m, pick)
                        pw = 2 * (f % 13)
                    hand[q, f] -= 1
                    held[q] -= 1
                    if hand[q, f] == 0:
                        types[q] -= 1
                        if f != W_TAFFY:
                            bits[q, suit] &= ~(1 << (f % 13))
                    tc[length] = f
                    ts[length] = q
                    length += 1
                    if pw > best_pw:
                        best_pw = pw
                        best = q
                won[best] += length
                for k in range(length):
                    if tc[k] == W_TAFFY or tc[k] % 13 == W_TEN:
                        tens[best] += 1
            # the end: stock empty and at most one player holding cards
            if top >= W_STOCK:
                holder = -1
                more = False
                for q in range(p):
                    if held[q] > 0:
                        if holder >= 0:
                            more = True
                            break
                        holder = q
                if not more:
                    if holder >= 0:
                        won[holder] += held[holder]
                        for c in range(53):
                            if hand[holder, c] > 0 and (c == W_TAFFY or c % 13 == W_TEN):
                                tens[holder] += hand[holder, c]
                    break
            # the turn passes left, to the next player in play
            q = seat
            for _ in range(p):
                q = q + 1 if q + 1 < p else 0
                if top < W_STOCK or held[q] > 0:
                    break
            seat = q
        for q in range(p):
            out[i, q] = 10 * tens[q] + won[q] - tens[q]
    return moves


@njit(cache=True)
def whist_floor(n, seed, out):
    """Play ``n`` deals of Whist (four players, the dealer's last card turned for trump)
    by uniformly random legal cards. ``out[i, side]``: tricks won by each side in deal i.
    Returns the cards played."""
    hands = np.zeros((4, 4), np.int64)  # rank bits per seat and suit
    deck = np.empty(52, np.int8)
    s = uint64(seed) * uint64(0x9E3779B97F4A7C15) | uint64(1)
    moves = 0
    for i in range(n):
        for c in range(52):
            deck[c] = c
        for c in range(51, 0, -1):
            s = _xorshift(s)
            j = _below(s, c + 1)
            deck[c], deck[j] = deck[j], deck[c]
        dealer = i % 4
        # Dealt from the dealer's left, so the j-th seat gets every 4th card from card j: each
        # hand gathered as one 52-bit mask (bit = card) and split by suit, as whistsim deals. A
        # read-modify-write of the hand per card cost one machine 40% of the floor's speed.
        for j in range(4):
            q = (dealer + 1 + j) % 4
            m = np.int64(0)
            for x in range(j, 52, 4):
                m |= np.int64(1) << np.int64(deck[x])
            for k in range(4):
                hands[q, k] = (m >> (13 * k)) & 0x1FFF
        trump = deck[51] // 13
        leader = dealer + 1 if dealer + 1 < 4 else 0
        t0 = 0
        t1 = 0
        for _ in range(13):
            led = -1
            best_pw = -1
            best = leader
            q = leader
            for _ in range(4):
                h = hands[q]
                if led >= 0 and h[led] != 0:
                    suit = led
                    m = h[led]
                    cnt = popcount(m)
                    s = _xorshift(s)
                    r = nth(m, _below(s, cnt))
                else:
                    total = popcount(h[0]) + popcount(h[1]) + popcount(h[2]) + popcount(h[3])
                    s = _xorshift(s)
                    card = _kth(h, _below(s, total))
                    suit = card // 13
                    r = card - 13 * suit
                    if led < 0:
                        led = suit
                h[suit] &= ~(1 << r)
                pw = 64 + r if suit == trump else (r if suit == led else -1)
                if pw > best_pw:
                    best_pw = pw
                    best = q
                moves += 1
                q = q + 1 if q + 1 < 4 else 0
            if best % 2 == 0:
                t0 += 1
            else:
                t1 += 1
            leader = best
        out[i, 0] = t0
        out[i, 1] = t1
    return moves
