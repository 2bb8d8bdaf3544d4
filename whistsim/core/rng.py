"""Counter-based random streams for Numba kernels.

A stream is a one-element ``uint64`` array stepped by SplitMix64. Its start is
a hash of (seed, game index, stream number), so a game's randomness depends on
nothing else: not on thread count, batch size or the order games are played.
Stream 0 shuffles the deck; stream ``1 + seat`` belongs to that seat's strategy,
so changing one seat's player leaves the deck and the others' streams alone.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import carray, njit, types, uint64
from numba.core import cgutils
from numba.extending import intrinsic

from .bits import FAST_PDEP, hand_mask, nth, popcount

DECK_STREAM = 0
_GOLDEN = uint64(0x9E3779B97F4A7C15)
_M1 = uint64(0xBF58476D1CE4E5B9)
_M2 = uint64(0x94D049BB133111EB)


@njit(cache=True, inline="always")
def _mix(z):
    z = (z ^ (z >> uint64(30))) * _M1
    z = (z ^ (z >> uint64(27))) * _M2
    return z ^ (z >> uint64(31))


@njit(cache=True)
def stream_start(seed, game, stream):
    """The start state of one stream of one game."""
    z = _mix(uint64(seed) + _GOLDEN)
    z = _mix(z ^ (uint64(game) * _M1 + _GOLDEN))
    return _mix(z ^ (uint64(stream) * _M2 + _GOLDEN))


@njit(cache=True, inline="always")
def next_u64(state, k):
    state[k] += _GOLDEN
    return _mix(state[k])


@njit(cache=True, inline="always")
def randbelow(state, k, n):
    """Uniform int in ``[0, n)`` for ``0 < n < 2**32`` (multiply-shift; bias < n / 2**32)."""
    return np.int64(((next_u64(state, k) >> uint64(32)) * uint64(n)) >> uint64(32))


@njit(cache=True, inline="always")
def pick_bit(state, k, mask):
    """A uniform set bit of a non-zero ``mask``, its position, drawn from stream ``k``: a uniform
    choice among the moves a legal mask holds (a seat's stream: ``own.rng``, 0)."""
    return nth(mask, randbelow(state, k, popcount(mask)))


if FAST_PDEP:

    @njit(cache=True, inline="always")
    def pick_card(state, k, bits, avoid):
        """A uniform card (its code) of a non-empty hand held as per-suit masks ``bits``, outside
        suit ``avoid`` (-1: none avoided): :func:`pick_bit` over the hand as one mask."""
        held = hand_mask(bits)
        if avoid >= 0:
            held &= ~(np.int64(0x1FFF) << np.int64(13 * avoid))
        return pick_bit(state, k, held)

else:

    @njit(cache=True, inline="always")
    def pick_card(state, k, bits, avoid):
        """A uniform card (its code) of a non-empty hand held as per-suit masks ``bits``, outside
        suit ``avoid`` (-1: none avoided): the same draw and card as :func:`pick_bit` over the hand
        as one mask, found suit by suit (finding the k-th bit of 52 step by step costs more)."""
        n = 0
        for suit in range(4):
            if suit != avoid:
                n += popcount(bits[suit])
        i = randbelow(state, k, n)
        for suit in range(4):
            if suit != avoid:
                c = popcount(bits[suit])
                if i < c:
                    return suit * 13 + nth(bits[suit], i)
                i -= c
        return -1


@njit(cache=True, inline="always")
def uniform(state, k):
    """Uniform float in ``[0, 1)``."""
    return np.float64(next_u64(state, k) >> uint64(11)) * (1.0 / 9007199254740992.0)


# Streams kept a number ahead, for Welsh Whist's own loop only: a 2-D array whose row ``k`` holds a
# stream and the number it gives next, so that a decision reads its number with one load rather than
# waiting on the mixing. Functions of their own names: the draws above take plain streams only.


@njit(cache=True, inline="always")
def ahead_load(ahead, k, state, j):
    """Copy stream ``j`` of ``state`` into row ``k`` of ``ahead``, with the number it gives next
    (the ``*_ahead`` draws below then draw the stream's numbers); :func:`ahead_store` copies it back."""
    ahead[k, 0] = state[j]
    ahead[k, 1] = _mix(state[j] + _GOLDEN)


@njit(cache=True, inline="always")
def ahead_store(ahead, k, state, j):
    """Stream ``j`` of ``state`` where its copy in row ``k`` of ``ahead`` has got to."""
    state[j] = ahead[k, 0]


@njit(cache=True, inline="always")
def next_ahead(ahead, k):
    """:func:`next_u64` of the stream in row ``k`` of ``ahead``: its number at once, the next mixed after."""
    out = ahead[k, 1]
    z = ahead[k, 0] + _GOLDEN
    ahead[k, 0] = z
    ahead[k, 1] = _mix(z + _GOLDEN)
    return out


@njit(cache=True, inline="always")
def randbelow_ahead(ahead, k, n):
    """:func:`randbelow` from row ``k`` of ``ahead``."""
    return np.int64(((next_ahead(ahead, k) >> uint64(32)) * uint64(n)) >> uint64(32))


@njit(cache=True, inline="always")
def pick_bit_ahead(ahead, k, mask):
    """:func:`pick_bit` from row ``k`` of ``ahead``."""
    return nth(mask, randbelow_ahead(ahead, k, popcount(mask)))


@njit(cache=True, inline="always")
def chance_limit(p):
    """The integer :func:`below_ahead` compares with for a chance ``p``: ``u * 2**-53 < p`` exactly
    when ``u < ceil(p * 2**53)`` (``u``, the 53-bit integer :func:`uniform` scales)."""
    if not p > 0.0:  # NaN too: never
        return np.int64(0)
    if p >= 1.0:
        return np.int64(1) << np.int64(53)
    return np.int64(np.ceil(p * 9007199254740992.0))


@njit(cache=True, inline="always")
def below_ahead(ahead, k, limit):
    """``uniform(...) < p`` from row ``k`` of ``ahead`` for ``limit = chance_limit(p)``: the same draw
    and answer, compared as integers, so that a branch on it waits on no float conversion."""
    return np.int64(next_ahead(ahead, k) >> uint64(11)) < limit


# The shuffle's draws are made first, a block at a time, into a scratch block on the stack, then
# its swaps: the draws do not depend on the deck, so LLVM mixes several at once in vector
# registers, where drawn between swaps each waited on the last. A block of the stack rather than a
# row of each game's state: no argument more and no state to size.
_BLOCK = 128  # draws a block: a deck of up to 129 cards (two packs and Taffies) in one


@intrinsic
def _scratch_block(typingctx):
    """A pointer to ``_BLOCK`` uint64s on the calling function's stack (its entry block)."""

    def codegen(context, builder, sig, args):
        return cgutils.alloca_once(builder, ir.IntType(64), size=_BLOCK)

    return types.CPointer(types.uint64)(), codegen


@njit(cache=True)
def shuffle(a, state, k):
    """Fisher-Yates, in place: the swaps of ``randbelow(state, k, i + 1)`` for ``i`` from the last
    index down to 1, its draws made a block ahead of their swaps (the same draws, the same deck)."""
    js = carray(_scratch_block(), _BLOCK)
    z = state[k]
    top = a.shape[0] - 1  # the index of the next swap
    while top > 0:
        m = min(top, _BLOCK)
        for t in range(m):
            i = top - t
            zt = z + uint64(t + 1) * _GOLDEN  # the stream after t + 1 steps
            js[t] = ((_mix(zt) >> uint64(32)) * uint64(i + 1)) >> uint64(32)
        for t in range(m):
            i = top - t
            j = js[t]  # unsigned: no test for a negative index
            a[i], a[j] = a[j], a[i]
        z += uint64(m) * _GOLDEN
        top -= m
    state[k] = z


@njit(cache=True, inline="always")
def shuffle_stock(g, base_deck, seed, game, players):
    """Seed a game's streams (the deck's, and one per seat in ``g.seats[q].rng``) and
    shuffle ``base_deck`` into ``g.deck``: the stock of game ``game``, by (seed, game) alone."""
    g.rng[0] = stream_start(seed, game, np.int64(DECK_STREAM))  # typed as the seats' streams: one compile
    for q in range(players):
        g.seats[q].rng[0] = stream_start(seed, game, 1 + q)
    stock = g.deck[: base_deck.shape[0]]
    for i in range(base_deck.shape[0]):  # a loop: slice assignment costs more to compile
        stock[i] = base_deck[i]
    shuffle(stock, g.rng, 0)
