"""``pimc``: perfect-information Monte Carlo search.

For each decision it samples deals of the unseen cards that agree with all the
seat has seen: its own hand, the cards played, the card laid aside, the turn-up
(in the dealer's hand until played), the hand sizes, and every void a player
has shown by not following suit. In each sampled deal it plays each legal card
and plays the deal out with every seat's cards open to a fast player
(``heuristic`` or ``random``), the same play-out for every candidate card. It
plays the card with the best total: its side's points less the others'
average (Whist: tricks). It never revokes. Its randomness is its own stream.
"""

import numpy as np
from numba import njit

from ....bits import lowest, nth, popcount
from ....rng import next_u64, randbelow
from ....strategy import Param
from ..engine import (
    MAX_PLAYERS,
    MAX_SETS,
    OVER,
    P_POINTS,
    P_TRICKS,
    R_HAND,
    R_KIND,
    R_PLAYERS,
    R_SETS,
    R_TEAMS,
    S_DEALER,
    S_LED,
    S_PHASE,
    S_SEAT,
    S_SET,
    S_TURNUP,
    SCOTCH,
    apply,
    copy_table,
    seat_view,
)
from . import heuristic
from . import random as random_player

NAME = "pimc"
PARAMS = {
    # bounded so that one decision stays well under a second
    "worlds": Param(
        16.0,
        "deals sampled per decision, each agreeing with what the seat has seen",
        low=1.0,
        high=1000.0,
        integer=True,
    ),
    "rollout": Param(
        1.0,
        "who plays the sampled deals out: 1 heuristic players, 0 random players",
        low=0.0,
        high=1.0,
        integer=True,
    ),
}
MAX_SLOTS = MAX_SETS * MAX_PLAYERS


@njit(cache=True, inline="always")
def _placeable(cards, room):
    """Hall's condition: every set of suits fits in the slots that may take one of them
    (``cards`` and ``room`` per set of suits, as :func:`_hall` keeps them)."""
    for subset in range(1, 16):
        if cards[subset] > room[subset]:
            return False
    return True


@njit(cache=True, inline="always")
def _hall(need, cap, elig, n_slots, cards, room):
    """Per set of suits (a 4-bit mask): the cards of those suits to place, and the room in
    the slots that may take one of them; kept up to date as cards are placed."""
    for subset in range(1, 16):
        n = 0
        for suit in range(4):
            if (subset >> suit) & 1:
                n += need[suit]
        cards[subset] = n
        r = 0
        for slot in range(n_slots):
            if elig[slot] & subset:
                r += cap[slot]
        room[subset] = r


@njit(cache=True, inline="always")
def _room(room, elig_slot, d):
    for subset in range(1, 16):
        if elig_slot & subset:
            room[subset] += d


@njit(cache=True)
def _sample(v, slot_bits, use_voids, work):
    """Deal the unseen cards into ``slot_bits[k * MAX_PLAYERS + q]`` (set k, seat q), each card
    to a slot chosen in proportion to the room left among those that may take it and leave
    the rest placeable; False when the shown voids cannot all hold (a revoke showed a false one).
    ``work`` is scratch (see :func:`_work`), reused from deal to deal."""
    t = v.table
    r = t.rules
    p = r[R_PLAYERS]
    cur = t.s[S_SET]
    sets = r[R_SETS]
    hand = r[R_HAND]
    own = v.own
    n_slots = sets * MAX_PLAYERS
    cap = work[0]
    elig = work[1]  # suits each slot may take, as a 4-bit mask
    need = work[2]
    pool = work[3]
    cards = work[4]
    room = work[5]
    for i in range(MAX_SLOTS):
        cap[i] = 0
        elig[i] = 0
        for suit in range(4):
            slot_bits[i, suit] = 0
    for suit in range(4):
        need[suit] = 0
    for k in range(cur, sets):
        for q in range(p):
            slot = k * MAX_PLAYERS + q
            cap[slot] = (0 if q == v.seat else t.hand_n[q]) if k == cur else hand
            for suit in range(4):
                if not (use_voids and k == cur and t.void[q, suit]):
                    elig[slot] |= 1 << suit
    n = 0
    turnup = t.s[S_TURNUP]
    tsuit = turnup // 13
    tbit = 1 << (turnup % 13)
    for suit in range(4):
        m = heuristic.pack_bits(v, suit) & ~t.played[suit] & ~own.bits[suit]
        if suit == tsuit and m & tbit:
            m &= ~tbit  # the turn-up is in the dealer's hand of the last set
            slot = (sets - 1) * MAX_PLAYERS + t.s[S_DEALER]
            slot_bits[slot, suit] |= tbit
            cap[slot] -= 1
        while m:
            pool[n] = suit * 13 + nth(m, 0)
            m &= m - 1
            n += 1
            need[suit] += 1
    _hall(need, cap, elig, n_slots, cards, room)
    if not _placeable(cards, room):
        return False
    for i in range(n - 1, 0, -1):
        j = randbelow(own.rng, 0, i + 1)
        pool[i], pool[j] = pool[j], pool[i]
    for i in range(n):
        c = pool[i]
        suit = c // 13
        need[suit] -= 1
        bit = 1 << suit
        for subset in range(1, 16):
            if subset & bit:
                cards[subset] -= 1
        tried = 0  # slots found to leave the rest unplaceable
        while True:
            total = 0
            for slot in range(n_slots):
                if elig[slot] & bit and not (tried >> slot) & 1:
                    total += cap[slot]
            x = randbelow(own.rng, 0, total)  # total > 0: some slot keeps Hall's condition
            chosen = 0
            for slot in range(n_slots):
                if elig[slot] & bit and not (tried >> slot) & 1:
                    if x < cap[slot]:
                        chosen = slot
                        break
                    x -= cap[slot]
            cap[chosen] -= 1
            _room(room, elig[chosen], -1)
            if _placeable(cards, room):
                slot_bits[chosen, suit] |= 1 << (c % 13)
                break
            cap[chosen] += 1
            _room(room, elig[chosen], 1)
            tried |= 1 << chosen
    return True


@njit(cache=True)
def _work():
    """Scratch for :func:`_sample`: slot capacities and suit masks, suits' needs, the pool,
    and Hall's cards and room per set of suits."""
    return np.zeros((6, max(MAX_SLOTS, 52)), np.int64)


@njit(cache=True)
def _deal_unseen(v, slot_bits, work):
    """A deal that respects the voids shown, or, when revokes made them impossible, one that
    ignores them. True when the voids were respected."""
    if _sample(v, slot_bits, True, work):
        return True
    _sample(v, slot_bits, False, work)
    return False


@njit(cache=True)
def sample_deal(buf, seat):
    """One deal of the cards ``seat`` has not seen, as :func:`decide` samples them:
    rank masks [set * MAX_PLAYERS + seat, suit] (its own current hand left empty)."""
    c = buf[0].core
    v = seat_view(c, seat, buf[0].scratch)
    slot_bits = np.zeros((MAX_SLOTS, 4), np.int64)
    _deal_unseen(v, slot_bits, _work())
    return slot_bits


@njit(cache=True)
def _set_world(v, sc, slot_bits, seeds, policy):
    """The scratch deal: the real table, the seat's own hand and one sampled world."""
    t = v.table
    r = t.rules
    p = r[R_PLAYERS]
    cur = t.s[S_SET]
    copy_table(sc.table, t)
    for k in range(cur, r[R_SETS]):
        for q in range(p):
            for suit in range(4):
                sc.sets[k, q, suit] = slot_bits[k * MAX_PLAYERS + q, suit]
    for q in range(p):
        seat = sc.seats[q]
        for suit in range(4):
            seat.bits[suit] = v.own.bits[suit] if q == v.seat else slot_bits[cur * MAX_PLAYERS + q, suit]
        seat.n = t.hand_n[q]
        seat.rng[0] = seeds[q]
        seat.strategy = policy
        for i in range(seat.params.shape[0]):
            seat.params[i] = 0.0  # random play-outs never revoke
        if policy == 1:
            for i in range(len(heuristic.DEFAULTS)):
                seat.params[i] = heuristic.DEFAULTS[i]
    sc.n_revokes = 0


@njit(cache=True, inline="always")
def _only_card(own):
    for suit in range(4):
        if own.bits[suit]:
            return suit * 13 + lowest(own.bits[suit])
    return -1


@njit(cache=True)
def _play_out(sc):
    s = sc.table.s
    while s[S_PHASE] != OVER:
        seat = s[S_SEAT]
        own = sc.seats[seat]
        if own.strategy == 1:
            # heuristic plays a card of the suit led when it has one, and always a card it
            # holds: with one such card no choice is left (and it draws no random numbers)
            led = s[S_LED]
            m = own.bits[led] if led >= 0 else 0
            if m != 0 and m & (m - 1) == 0:
                a = led * 13 + lowest(m)
            elif own.n == 1:
                a = _only_card(own)
            else:
                a = heuristic.decide(seat_view(sc, seat, sc))
        else:
            a = random_player.decide(seat_view(sc, seat, sc))
        apply(sc, a)


@njit(cache=True)
def _value(sc, side):
    """The seat's side's result in a played-out deal."""
    res = sc.result
    r = sc.table.rules
    if r[R_KIND] != SCOTCH:
        return float(res[P_TRICKS, side])
    nt = r[R_TEAMS]
    others = 0.0
    for x in range(nt):
        if x != side:
            others += res[P_POINTS, x]
    return res[P_POINTS, side] - others / (nt - 1)


@njit(cache=True)
def legal_cards(own, led):
    """The cards the seat may play, as bits by suit; how many; and the card when it is the only one."""
    cands = np.zeros(4, np.int64)
    if led >= 0 and own.bits[led] != 0:
        cands[led] = own.bits[led]
    else:
        for suit in range(4):
            cands[suit] = own.bits[suit]
    n = 0
    only = -1
    for suit in range(4):
        c = popcount(cands[suit])
        if c:
            only = suit * 13 + nth(cands[suit], 0)
        n += c
    return cands, n, only


@njit(cache=True)
def decide(v):
    own = v.own
    led = v.led
    cands, n, only = legal_cards(own, led)
    if n == 1:
        return only
    worlds = max(1, int(own.params[0]))
    policy = 1 if own.params[1] > 0.5 else 0
    sc = v.scratch
    side = v.table.team[v.seat]
    slot_bits = np.zeros((MAX_SLOTS, 4), np.int64)
    seeds = np.zeros(MAX_PLAYERS, np.uint64)
    total = np.zeros(52, np.float64)
    work = _work()
    for _ in range(worlds):
        _deal_unseen(v, slot_bits, work)
        for q in range(MAX_PLAYERS):
            seeds[q] = next_u64(own.rng, 0)
        for suit in range(4):
            m = cands[suit]
            while m:
                card = suit * 13 + nth(m, 0)
                m &= m - 1
                _set_world(v, sc, slot_bits, seeds, policy)
                apply(sc, card)
                _play_out(sc)
                total[card] += _value(sc, side)
    best = -1
    for suit in range(4):
        m = cands[suit]
        while m:
            card = suit * 13 + nth(m, 0)
            m &= m - 1
            if best < 0 or total[card] > total[best]:
                best = card
    return best
