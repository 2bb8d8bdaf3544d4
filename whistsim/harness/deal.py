"""Dealing under a declared constraint, in the kernels (docs/deals.md).

A constraint (``whistsim.deals.constraints`` parses and compiles it) reaches the kernel as one
int64 array, a *program*: a header, the tables it reads (which seat each position of the shuffled
pack goes to, for each dealer; each seat's side; what each card counts, the game's points table:
``N_POINTS`` entries, each rank as a trump, then each card not a trump), an optional direct method, and postfix
instructions of ``WIDTH`` ints each. :func:`draw_deal` reshuffles the pack from the deal's own
stream until :func:`accepts` says yes, so a deal depends on (seed, game index, constraint) alone.
With the direct method (a seat's, a side's or the dealer's exact length in trumps) it first deals
the trumps' places at once, uniformly over the deals of that length, then checks the rest.

Nothing here knows a game: positions, seats and sides come from the program's tables.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.rng import next_u64, randbelow, shuffle, stream_start

# The header: positions in the program.
(H_CAP, H_N, H_P, H_TURNUP, H_OWNER, H_TEAM, H_CODE, H_NCODE, H_DIRECT, H_STACK, H_POINTS) = range(11)
HEADER = 12
WIDTH = 5  # an instruction: op, group kind, group id, count kind, argument

# Instructions.
(
    OP_CONST,  # push the argument
    OP_COUNT,  # push the weight of the group's cards (count kind, argument)
    OP_HOLDS,  # push 1 when the group holds every card of the argument's mask
    OP_TRUMP,  # push the turned card's suit
    OP_ADD,
    OP_SUB,
    OP_EQ,
    OP_NE,
    OP_LT,
    OP_LE,
    OP_GT,
    OP_GE,
    OP_AND,
    OP_OR,
    OP_NOT,
) = range(15)
# Groups of positions.
G_SEAT, G_SIDE, G_DEALER, G_TOP = range(4)  # G_TOP: the first ``id`` cards of the pack (a stock)
# What a count weighs.
K_MASK, K_TRUMP, K_POINTS = range(3)  # cards of a mask; trumps of a rank mask; the points table's
N_POINTS = 13 + 52  # the points table: each rank as a trump, then each card code not a trump

NO_DEAL = 1000  # play_game's error: no deal met the constraint in the program's cap of draws


@njit(cache=True, inline="always")
def _in_group(prog, gk, gid, x, dealer):
    if gk == G_TOP:
        return x < gid
    o = prog[prog[H_OWNER] + dealer * prog[H_N] + x]
    if o < 0:
        return False  # a card laid aside
    if gk == G_SEAT:
        return o == gid
    if gk == G_DEALER:
        return o == dealer
    return prog[prog[H_TEAM] + o] == gid


@njit(cache=True, inline="always")
def _weight(prog, kind, arg, card, trump):
    if kind == K_MASK:
        return (arg >> card) & 1
    if card >= 52:
        return 0  # the Taffy belongs to no suit
    suit = card // 13
    rank = card - 13 * suit
    if kind == K_TRUMP:
        return np.int64(suit == trump) * ((arg >> rank) & 1)
    if suit == trump:  # K_POINTS: the game's points table
        return prog[prog[H_POINTS] + rank]
    return prog[prog[H_POINTS] + 13 + card]


@njit(cache=True)
def accepts(prog, deck, dealer, stack):
    """Does the shuffled pack ``deck`` (top first), dealt by ``dealer``, meet the constraint?"""
    n = prog[H_N]
    t = prog[H_TURNUP]
    trump = deck[t] // 13 if t >= 0 else -1
    sp = 0
    code = prog[H_CODE]
    for i in range(prog[H_NCODE]):
        at = code + i * WIDTH
        op = prog[at]
        if op == OP_CONST:
            stack[sp] = prog[at + 4]
            sp += 1
        elif op == OP_COUNT or op == OP_HOLDS:
            gk = prog[at + 1]
            gid = prog[at + 2]
            kind = prog[at + 3]
            arg = prog[at + 4]
            end = min(n, gid) if gk == G_TOP else n
            v = 0
            for x in range(end):
                if _in_group(prog, gk, gid, x, dealer):
                    c = np.int64(deck[x])
                    if op == OP_COUNT:
                        v += _weight(prog, kind, arg, c, trump)
                    elif (arg >> c) & 1:
                        v |= np.int64(1) << c
            stack[sp] = v if op == OP_COUNT else np.int64(v == arg)
            sp += 1
        elif op == OP_TRUMP:
            stack[sp] = trump
            sp += 1
        elif op == OP_NOT:
            stack[sp - 1] = np.int64(stack[sp - 1] == 0)
        else:
            b = stack[sp - 1]
            a = stack[sp - 2]
            sp -= 1
            if op == OP_ADD:
                r = a + b
            elif op == OP_SUB:
                r = a - b
            elif op == OP_EQ:
                r = np.int64(a == b)
            elif op == OP_NE:
                r = np.int64(a != b)
            elif op == OP_LT:
                r = np.int64(a < b)
            elif op == OP_LE:
                r = np.int64(a <= b)
            elif op == OP_GT:
                r = np.int64(a > b)
            elif op == OP_GE:
                r = np.int64(a >= b)
            elif op == OP_AND:
                r = np.int64(a != 0 and b != 0)
            else:
                r = np.int64(a != 0 or b != 0)
            stack[sp - 1] = r
    return stack[0] != 0


@njit(cache=True)
def _direct(prog, deck, rng, dealer, buf):
    """Deal the trumps' places directly: a trump suit, a length ``k`` for the group (by the
    program's table for this dealer: the share of deals with that length, among those allowed),
    ``k`` of the group's places and the rest of the suit's elsewhere, uniformly, the turned
    card's place always a trump; then the trumps and the other cards, each shuffled, into their
    places. Every deal with an allowed length is equally likely. False: none is allowed."""
    d = prog[H_DIRECT]
    gk = prog[d]
    gid = prog[d + 1]
    m = prog[d + 2]
    n = prog[H_N]
    t = prog[H_TURNUP]
    row = d + 3 + dealer * (m + 1)
    if prog[row + m] == 0:
        return False
    u = np.int64(next_u64(rng, 0) >> np.uint64(11))
    k = 0
    while u >= prog[row + k]:
        k += 1
    size = 0
    for x in range(n):
        if _in_group(prog, gk, gid, x, dealer):
            size += 1
    t_in = np.int64(_in_group(prog, gk, gid, t, dealer))
    left_g = size - t_in
    left_o = n - size - (1 - t_in)
    need_g = k - t_in
    need_o = m - k - (1 - t_in)
    suit = randbelow(rng, 0, 4)
    i_t = 0
    i_o = m
    for x in range(n):
        c = deck[x]
        if c // 13 == suit:
            buf[i_t] = c
            i_t += 1
        else:
            buf[i_o] = c
            i_o += 1
    shuffle(buf[:m], rng, 0)
    shuffle(buf[m:n], rng, 0)
    i_t = 0
    i_o = m
    for x in range(n):
        if x == t:
            sel = True
        elif _in_group(prog, gk, gid, x, dealer):
            sel = randbelow(rng, 0, left_g) < need_g
            left_g -= 1
            if sel:
                need_g -= 1
        else:
            sel = randbelow(rng, 0, left_o) < need_o
            left_o -= 1
            if sel:
                need_o -= 1
        if sel:
            deck[x] = buf[i_t]
            i_t += 1
        else:
            deck[x] = buf[i_o]
            i_o += 1
    return True


@njit(cache=True)
def draw_deal(prog, deck, rng, dealer):
    """The deck, shuffled once from stream ``rng[0]``, redrawn until it meets the constraint.
    Returns the deals drawn (the first shuffle counts one, unless the direct method replaces it),
    or 0 when none met it within the program's cap."""
    stack = np.empty(max(1, prog[H_STACK]), np.int64)
    cap = prog[H_CAP]
    if prog[H_DIRECT] > 0:
        buf = np.empty(deck.shape[0], deck.dtype)
        drawn = 0
        while drawn < cap:
            if not _direct(prog, deck, rng, dealer, buf):
                return 0
            drawn += 1
            if accepts(prog, deck, dealer, stack):
                return drawn
        return 0
    drawn = 1
    while not accepts(prog, deck, dealer, stack):
        if drawn >= cap:
            return 0
        shuffle(deck, rng, 0)
        drawn += 1
    return drawn


@njit(cache=True)
def sample(prog, base_deck, seed, dealer, n):
    """Deals accepted of ``n`` drawn one at a time (by the direct method when the program has one),
    from a stream of its own: the quick estimate of a constraint's rate before a run; -1 when the
    direct method allows no length of trumps with this dealer."""
    rng = np.empty(1, np.uint64)
    rng[0] = stream_start(seed, dealer, np.int64(0))
    stack = np.empty(max(1, prog[H_STACK]), np.int64)
    deck = base_deck.copy()
    buf = np.empty(deck.shape[0], deck.dtype)
    got = 0
    for _ in range(n):
        if prog[H_DIRECT] > 0:
            if not _direct(prog, deck, rng, dealer, buf):
                return -1
        else:
            shuffle(deck, rng, 0)
        if accepts(prog, deck, dealer, stack):
            got += 1
    return got
