"""``pimc``: perfect-information Monte Carlo search.

For each decision it samples deals of the unseen cards that agree with all the
seat has seen: its own hand, the cards played, the card laid aside, the turn-up
(in the dealer's hand until played), the hand sizes, and every void a player
has shown by not following suit. In each sampled deal it plays each legal card
and plays the deal out with every seat's cards open to a fast player
(``heuristic`` or ``random``), the same play-out for every candidate card. It
plays the card with the best total: its side's points less the others'
average (Whist: tricks). It never revokes. Its randomness is its own stream.

With ``merge`` it plays out one card of each class of equivalent cards (same
suit, adjacent in power once the cards of finished tricks are gone; a Scotch
counting card is a class of its own) and plays the lowest card of the best
class; with one class left it does not search. With ``race`` the candidates
race over the same sampled deals: from the fourth deal on, one whose paired
deficit to the leader is beyond ``race`` standard errors is dropped, and the
search stops when one is left. Both off, it makes the decisions it always made.
In Whist and four-handed Scotch Whist with heuristic play-outs, a decision's play-outs are
played in lockstep (``lanes``), a few deals at a time: the same values, so the same card.
See docs/pimc.md.
"""

import numpy as np
from numba import njit

from ....core.bits import hand_mask, nth, popcount
from ....core.rng import next_u64, randbelow
from ....core.strategy import Param
from ..engine import (
    MAX_SETS,
    P_POINTS,
    P_TRICKS,
    S_ALL_FOLLOWED,
    S_BEST,
    S_BEST_POWER,
    S_DEALER,
    S_LED,
    S_SEAT,
    S_SET,
    S_SET_TRICK,
    S_TRICK_LEN,
    S_TRUMP,
    S_TURNUP,
    DealtView,
    card_points,
    end_deal,
    legal_mask,
    load_set,
    only_card,
    power,
    score_with,
    seat_view,
    take_trick,
    to_trick,
)
from ..rules import MAX_PLAYERS, R_FRENCH, R_HAND, R_KIND, R_PLAYERS, R_SETS, R_TEAMS, SCOTCH, WHIST
from . import heuristic, lanes
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
    "merge": Param(
        1.0,
        "1: play out one card per class of equivalent cards, no search when one class is left; 0: every card",
        low=0.0,
        high=1.0,
        integer=True,
    ),
    "race": Param(
        2.0,
        "drop a candidate once its paired deficit to the leader exceeds this many standard errors; 0: off",
        low=0.0,
        high=10.0,
    ),
}
ID = 2  # pimc's place in players.PLAYERS: dd, which plays as pimc with its own parameters, gets
# neither merge nor race (its parameter slots mean other things)
RACE_FROM = 4  # worlds every candidate plays before the race may drop one
RACE_CHUNK = 4  # worlds the lockstep search values at a time once the race has begun
MAX_SLOTS = MAX_SETS * MAX_PLAYERS


def _affected_bytes():
    """AFFECTED_BYTES[suit, elig]: the sets of suits that lose one slot of room net of their cards
    when a card of ``suit`` goes to a slot taking the suits ``elig`` (those without ``suit`` that
    share a suit with ``elig``: the others' room and cards both drop, or neither), a byte per set
    of suits (a 4-bit mask): [.., 0] holds sets 0 to 7, [.., 1] sets 8 to 15, 1 in each byte of a
    set that loses room (the sampler's slack is kept so)."""
    out = np.zeros((4, 16, 2), np.int64)
    for suit in range(4):
        for elig in range(16):
            for subset in range(1, 16):
                if not (subset >> suit) & 1 and subset & elig:
                    out[suit, elig, subset // 8] |= 1 << (8 * (subset % 8))
    return out


AFFECTED_BYTES = _affected_bytes()
LOW7 = 0x7F7F7F7F7F7F7F7F  # each byte's low seven bits
# rows of the sampler's scratch (see _work)
W_CAP0, W_ELIG, W_POOL0, W_SLACK0, W_BITS0, W_CAP, W_POOL, W_SLOTS, W_ENDS, W_HELD, W_DEALT = range(11)


@njit(cache=True)
def _work():
    """Scratch for the sampler, one row each: the slots' room and the suits each may take, the
    unseen cards in order, Hall's slack per set of suits and the turn-up's place, as prepared
    for a decision (:func:`_prepare`); the room and the cards' order for the deal being made;
    the slots used; in the slots' order, the end of each one's room (of those that may take the
    card) and the cards it is dealt (a deal without voids to respect); and by slot, the cards
    dealt. Not cleared: each row is written before it is read (:func:`_prepare` clears what the
    deals read by slot)."""
    return np.empty((11, MAX_SLOTS * 4), np.int64)


@njit(cache=True)
def _prepare(v, use_voids, work):
    """What every sampled deal of a decision starts from: the slots (set k, seat q at
    ``k * MAX_PLAYERS + q``) with their room and the suits they may take (none a shown void,
    with ``use_voids``), the unseen cards in order, the turn-up placed in the dealer's hand of
    the last set, and Hall's condition per set of suits (a 4-bit mask) as slack: the room in
    the slots that may take one of them less their cards. Returns (cards, slots used), or
    (-1, 0) when some set of suits cannot be placed (a revoke showed a false void)."""
    t = v.table
    r = t.rules
    p = r[R_PLAYERS]
    cur = t.s[S_SET]
    sets = r[R_SETS]
    hand = r[R_HAND]
    own = v.own
    cap = work[W_CAP0]
    elig = work[W_ELIG]
    pool = work[W_POOL0]
    slack = work[W_SLACK0]
    bits = work[W_BITS0]
    slots = work[W_SLOTS]
    for i in range(MAX_SLOTS * 4):
        bits[i] = 0
    for i in range(MAX_SLOTS):
        cap[i] = 0
        elig[i] = 0
    for k in range(cur, sets):
        for q in range(p):
            slot = k * MAX_PLAYERS + q
            cap[slot] = (0 if q == v.seat else t.hand_n[q]) if k == cur else hand
            for suit in range(4):
                if not (use_voids and k == cur and t.void[q, suit]):
                    elig[slot] |= 1 << suit
    need = np.zeros(4, np.int64)
    n = 0
    turnup = t.s[S_TURNUP]
    tsuit = turnup // 13
    tbit = 1 << (turnup % 13)
    for suit in range(4):
        m = heuristic.pack_bits(v, suit) & ~t.played[suit] & ~own.bits[suit]
        if suit == tsuit and m & tbit:
            m &= ~tbit  # the turn-up is in the dealer's hand of the last set
            slot = (sets - 1) * MAX_PLAYERS + t.s[S_DEALER]
            bits[slot * 4 + suit] |= tbit
            cap[slot] -= 1
        while m:
            pool[n] = suit * 13 + nth(m, 0)
            m &= m - 1
            n += 1
            need[suit] += 1
    for subset in range(1, 16):
        x = 0
        for suit in range(4):
            if (subset >> suit) & 1:
                x += need[suit]
        room = 0
        for slot in range(sets * MAX_PLAYERS):
            if elig[slot] & subset:
                room += cap[slot]
        slack[subset] = room - x
        if room < x:
            return -1, 0
    n_slots = 0
    for k in range(cur, sets):
        for q in range(p):
            slot = k * MAX_PLAYERS + q
            if cap[slot] > 0:  # a slot with no room is never chosen
                slots[n_slots] = slot
                n_slots += 1
    return n, n_slots


@njit(cache=True)
def _deal_prepared(v, slot_bits, work, n, n_slots):
    """Deal the unseen cards into ``slot_bits`` as prepared: shuffle them, then give each to
    a slot chosen in proportion to the room left among those that may take it and keep
    Hall's condition (the draws, and so the deals, of the sampler this one replaced). The
    scratch is read by row and column, never as a row's view: a view is a new array, counted
    in and out (two atomic steps each) at every world. Both ways of dealing gather the cards
    by slot, and ``slot_bits`` is written once at the one exit, so that numba drops the
    arrays' counts in and out at every world (apart, LLVM merges the exits and they stay)."""
    t = v.table
    rng = v.own.rng
    cur = t.s[S_SET]
    sets = t.rules[R_SETS]
    p = t.rules[R_PLAYERS]
    for k in range(cur, sets):
        for q in range(p):
            work[W_DEALT, k * MAX_PLAYERS + q] = 0
    for j in range(n_slots):
        work[W_CAP, work[W_SLOTS, j]] = work[W_CAP0, work[W_SLOTS, j]]
    for i in range(n):
        work[W_POOL, i] = work[W_POOL0, i]
    free = True  # no voids to respect: every slot takes every suit, and Hall's condition holds
    for j in range(n_slots):
        free &= work[W_ELIG, work[W_SLOTS, j]] == 15
    for i in range(n - 1, 0, -1):
        j = randbelow(rng, 0, i + 1)
        work[W_POOL, i], work[W_POOL, j] = work[W_POOL, j], work[W_POOL, i]
    if free:
        # The slot a draw falls in, counted over the slots' running ends rather than searched
        # (no branch waits on the draw); each slot's cards gathered in one 52-bit mask.
        total = 0  # the room left, one less for each card placed
        for j in range(n_slots):
            total += work[W_CAP, work[W_SLOTS, j]]
            work[W_ENDS, j] = total
            work[W_HELD, j] = 0
        for i in range(n):
            c = work[W_POOL, i]
            x = randbelow(rng, 0, total)
            total -= 1
            chosen = 0  # the first slot whose end is beyond x
            for j in range(n_slots):
                chosen += work[W_ENDS, j] <= x
            for j in range(n_slots):
                work[W_ENDS, j] -= j >= chosen
            work[W_HELD, chosen] |= np.int64(1) << c
        for j in range(n_slots):
            work[W_DEALT, work[W_SLOTS, j]] = work[W_HELD, j]
    else:
        # Hall's slack a byte per set of suits (sets 0 to 7 in lo, 8 to 15 in hi; 0 to 52): the
        # sets a card takes room from lose one at once, and those at 0 (where no such card may
        # go) are the bytes whose high bit stays clear in (low seven bits + 0x7F) | the byte.
        lo = np.int64(1)  # set 0 is no set of suits: never hit
        hi = np.int64(0)
        for subset in range(1, 16):
            if subset < 8:
                lo |= work[W_SLACK0, subset] << (8 * subset)
            else:
                hi |= work[W_SLACK0, subset] << (8 * subset - 64)
        for i in range(n):
            c = work[W_POOL, i]
            suit = (c * 5042) >> 16  # c // 13 for 0 <= c < 52
            tight_lo = ~(((lo & LOW7) + LOW7) | lo | LOW7)
            tight_hi = ~(((hi & LOW7) + LOW7) | hi | LOW7)
            tried = 0  # slots (by place in the slots' order) found to leave the rest unplaceable
            while True:
                # the slot a draw falls in, counted over the running ends of the room of the
                # slots that may take the card (no branch waits on the draw)
                total = 0
                for j in range(n_slots):
                    slot = work[W_SLOTS, j]
                    total += work[W_CAP, slot] * ((work[W_ELIG, slot] >> suit) & ~(tried >> j) & 1)
                    work[W_ENDS, j] = total
                x = randbelow(rng, 0, total)  # total > 0: some slot keeps Hall's condition
                j = 0
                for k in range(n_slots):
                    j += work[W_ENDS, k] <= x
                chosen = work[W_SLOTS, j]
                hit_lo = AFFECTED_BYTES[suit, work[W_ELIG, chosen], 0]
                hit_hi = AFFECTED_BYTES[suit, work[W_ELIG, chosen], 1]
                if (tight_lo & (hit_lo << 7)) | (tight_hi & (hit_hi << 7)) == 0:
                    work[W_CAP, chosen] -= 1
                    work[W_DEALT, chosen] |= np.int64(1) << c
                    lo -= hit_lo
                    hi -= hit_hi
                    break
                tried |= 1 << j
    for k in range(cur, sets):
        for q in range(p):
            slot = k * MAX_PLAYERS + q
            held = work[W_DEALT, slot]
            for suit in range(4):
                slot_bits[slot, suit] = work[W_BITS0, slot * 4 + suit] | ((held >> (13 * suit)) & 0x1FFF)


@njit(cache=True, inline="always")  # two calls: on its own, one more module holding both
def _deal_unseen(v, slot_bits, work):
    """A deal that respects the voids shown, or, when revokes made them impossible, one that
    ignores them. True when the voids were respected."""
    n, n_slots = _prepare(v, np.bool_(True), work)  # typed: literal True and False compile it twice
    if n >= 0:
        _deal_prepared(v, slot_bits, work, n, n_slots)
        return True
    n, n_slots = _prepare(v, np.bool_(False), work)
    _deal_prepared(v, slot_bits, work, n, n_slots)
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
def _set_players(v, sc, policy):
    """The scratch deal's players, once per decision: every seat plays by ``policy``."""
    for q in range(v.table.rules[R_PLAYERS]):
        seat = sc.seats[q]
        seat.strategy = policy
        for i in range(seat.params.shape[0]):
            seat.params[i] = 0.0  # random play-outs never revoke
        if policy == 1:
            for i in range(len(heuristic.DEFAULTS)):
                seat.params[i] = heuristic.DEFAULTS[i]


@njit(cache=True)
def _set_sets(v, sc, slot_bits):
    """The scratch deal's hands of the sets still to come, once per sampled world."""
    t = v.table
    for k in range(t.s[S_SET] + 1, t.rules[R_SETS]):
        for q in range(t.rules[R_PLAYERS]):
            for suit in range(4):
                sc.sets[k, q, suit] = slot_bits[k * MAX_PLAYERS + q, suit]


@njit(cache=True)
def _set_world(v, sc, slot_bits, seeds):
    """The scratch deal: the real table, the seat's own hand and one sampled world."""
    t = v.table
    p = t.rules[R_PLAYERS]
    cur = t.s[S_SET]
    sc.table = t  # one copy of the record
    for q in range(p):
        seat = sc.seats[q]
        for suit in range(4):
            seat.bits[suit] = v.own.bits[suit] if q == v.seat else slot_bits[cur * MAX_PLAYERS + q, suit]
        seat.n = t.hand_n[q]
        seat.rng[0] = seeds[q]
    sc.n_revokes = 0


@njit(cache=True, inline="always")
def _policy_card(sc, own, seat, p, trump, led, i, policy):
    """The play-out policy's card for ``seat``, the ``i``-th of a trick led in ``led`` (-1: it
    leads), asked with the view the engine's loop would give it."""
    v = DealtView(seat, p, trump, led, i, sc.table, own, sc)
    if policy == 1:
        return heuristic.choose_inlined(v)  # its play-out seats never revoke
    return random_player.decide(v)


@njit(cache=True)
def _play_out(sc, side, a, policy):
    """Play ``a``, the seat's candidate, and the scratch deal to its end, every seat by
    ``policy``; the seat's side's result (see :func:`_value`). A trick at a time, each card
    through the engine's ``to_trick``, as its own loop plays a deal (kernels' ``_plain_deal``):
    the trick's running values in locals, the table kept as far as the policy and the score read
    it (the seat to play, the cards left per seat and the events are not); the deal ends as the
    engine's move-by-move loop ends it (tests/test_pimc_dealt_playout.py). Its cards never
    revoke."""
    t = sc.table
    s = t.s
    r = t.rules
    p = r[R_PLAYERS]
    hand = r[R_HAND]
    last_set = r[R_SETS] - 1
    trump = s[S_TRUMP]
    scotch = r[R_KIND] == SCOTCH
    seat = s[S_SEAT]
    i = s[S_TRICK_LEN]
    led = s[S_LED]
    best = s[S_BEST]
    best_pw = s[S_BEST_POWER]
    followed = s[S_ALL_FOLLOWED]
    k = s[S_SET]
    done = s[S_SET_TRICK]
    won = np.int64(0)  # the trick's cards, one bit each
    for j in range(i):
        won |= np.int64(1) << np.int64(t.trick_card[j])
    while True:
        own = sc.seats[seat]
        if a < 0:
            a = _policy_card(sc, own, seat, p, trump, led, i, policy)
        suit = (a * 5042) >> 16  # a // 13 for 0 <= a < 52: no signed floor fix-up on the policy's answer
        led, best, best_pw, followed, won = to_trick(
            t, own, seat, i, suit, a - 13 * suit, led, trump, scotch, best, best_pw, followed, won, True
        )
        a = -1
        if i + 1 < p:
            i += 1
            seat = seat + 1 if seat + 1 < p else 0
            continue
        seat = t.trick_seat[best]  # the winner leads the next trick
        take_trick(t, seat, won, p, led, trump, followed)
        i = 0
        led = -1
        done += 1
        if done == hand:
            if k == last_set:
                end_deal(sc)
                return _value(sc, side)
            k += 1
            done = 0
            load_set(sc, k)
        if k == last_set and done == hand - 1:
            s[S_SEAT] = seat
            return _last_trick(sc, side)  # one card each: no choice is left


@njit(cache=True)
def _value(sc, side):
    """The seat's side's result in a played-out deal: Whist its tricks; Scotch its points
    less the others' average."""
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
def _last_trick(sc, side):
    """:func:`_value` of the deal once its last trick is played, each seat playing its one
    card: the trick's winner found by the engine's ``power`` and the deal scored by its
    ``score_with``, that trick counted as taken, without playing it."""
    t = sc.table
    s = t.s
    r = t.rules
    p = r[R_PLAYERS]
    scotch = r[R_KIND] == SCOTCH
    trump = s[S_TRUMP]
    q = s[S_SEAT]
    winner, led, best = q, -1, -1
    trick = np.int64(0)  # the trick's cards, as one 52-bit mask
    for i in range(p):
        card = only_card(sc.seats[q])
        trick |= np.int64(1) << np.int64(card)
        if i == 0:
            led = card // 13
        pw = power(card, trump, led, scotch)
        if pw > best:
            best = pw
            winner = q
        q = q + 1 if q + 1 < p else 0
    score_with(sc, winner, trick)
    return _value(sc, side)


@njit(cache=True)
def legal_cards(own, led):
    """The cards the seat may play, as bits by suit; how many; and the card when it is the only one."""
    cands = np.zeros(4, np.int64)
    for suit in range(4):
        cands[suit] = legal_mask(own, led, suit, 0)  # it never revokes
    n = 0
    only = -1
    for suit in range(4):
        c = popcount(cands[suit])
        if c:
            only = suit * 13 + nth(cands[suit], 0)
        n += c
    return cands, n, only


@njit(cache=True)
def card_classes(v, cands, reps):
    """The classes of equivalent cards among ``cands``: cards of one suit with no card between
    them in power but cards of finished tricks (a card in the trick being played parts them),
    none of them a counting card. Writes each class's lowest card to ``reps``, lowest first by
    suit; returns how many classes; ``reps[k + 13]`` is the class's highest card."""
    t = v.table
    trump = t.s[S_TRUMP]
    gone = np.zeros(4, np.int64)
    for suit in range(4):
        gone[suit] = t.played[suit]
    for i in range(t.s[S_TRICK_LEN]):
        card = t.trick_card[i]
        gone[card // 13] &= ~(1 << (card % 13))
    k = 0
    for suit in range(4):
        m = cands[suit]
        prev = -1  # rank of the last card seen, when it may take the next one into its class
        while m:
            r = nth(m, 0)
            m &= m - 1
            card = suit * 13 + r
            counts = card_points(card, trump, t.rules) > 0
            between = ((1 << r) - 1) & ~((2 << prev) - 1) if prev >= 0 else 0
            if prev >= 0 and not counts and between & ~gone[suit] == 0:
                reps[k - 1 + 13] = card
            else:
                reps[k] = card
                reps[k + 13] = card
                k += 1
            prev = -1 if counts else r
    return k


@njit(cache=True, inline="always")
def _leader(vals, w, alive, n):
    """The live candidate with the best total over the ``w`` worlds played; the first of the
    best, in card order (the old tie-break)."""
    lead = -1
    best = 0.0
    for j in range(n):
        if alive[j]:
            x = 0.0
            for i in range(w):
                x += vals[i, j]
            if lead < 0 or x > best:
                lead, best = j, x
    return lead


@njit(cache=True, error_model="numpy")  # w >= RACE_FROM: no division by zero, no raise path kept
def _race(vals, w, alive, n, z):
    """Drop every live candidate whose mean paired deficit to the leader (the best total over
    the ``w`` worlds played) exceeds ``z`` standard errors of it; returns how many are left.
    ``vals``'s last row keeps the live candidates' totals: summed at the first call (``w`` is
    RACE_FROM), the newest world added at each later one (search calls it after every world),
    the same sums in the same order as :func:`_leader`'s."""
    tot = vals.shape[0] - 1
    if w == RACE_FROM:
        for j in range(n):
            x = 0.0
            for i in range(w):
                x += vals[i, j]
            vals[tot, j] = x
    else:
        for j in range(n):
            if alive[j]:
                vals[tot, j] += vals[w - 1, j]
    lead = -1
    best = 0.0
    for j in range(n):
        if alive[j] and (lead < 0 or vals[tot, j] > best):
            lead, best = j, vals[tot, j]
    left = 0
    for j in range(n):
        if not alive[j] or j == lead:
            left += alive[j]
            continue
        mean = 0.0
        for i in range(w):
            mean += vals[i, lead] - vals[i, j]
        mean /= w
        var = 0.0
        for i in range(w):
            d = vals[i, lead] - vals[i, j] - mean
            var += d * d
        se = np.sqrt(var / (w - 1) / w)
        if mean > 0 and mean > z * se:
            alive[j] = False
        else:
            left += 1
    return left


@njit(cache=True, inline="always")  # on its own, one more module holding all of search
def decide(v):
    own = v.own
    mine = own.strategy == ID
    merge = mine and own.params[2] > 0.5
    race = own.params[3] if mine else 0.0
    return search(v, max(1, int(own.params[0])), 1 if own.params[1] > 0.5 else 0, merge, race)


@njit(cache=True)
def search(v, worlds, policy, merge, race):
    """The card, from ``worlds`` sampled deals played out by ``policy`` (1 heuristic, 0 random),
    with equivalent cards merged (``merge``) and the candidates raced (``race`` > 0)."""
    own = v.own
    led = v.led
    cands, n, only = legal_cards(own, led)
    if n == 1:
        return only
    reps = np.zeros(26, np.int64)
    if merge:
        n = card_classes(v, cands, reps)
        if n == 1:
            return reps[0]
    else:
        n = 0
        for suit in range(4):
            m = cands[suit]
            while m:
                reps[n] = suit * 13 + nth(m, 0)
                m &= m - 1
                n += 1
    work = _work()
    n_cards, n_slots = _prepare(v, np.bool_(True), work)  # the same for every deal: once per decision
    if n_cards < 0:
        n_cards, n_slots = _prepare(v, np.bool_(False), work)
    r = v.table.rules
    if policy == 1 and r[R_PLAYERS] == 4 and r[R_SETS] == 1 and (r[R_KIND] == WHIST or r[R_TEAMS] == 2):
        return _search_lanes(v, worlds, n, reps, race, work, n_cards, n_slots)
    sc = v.scratch
    side = v.table.team[v.seat]
    slot_bits = np.zeros((MAX_SLOTS, 4), np.int64)
    seeds = np.zeros(MAX_PLAYERS, np.uint64)
    vals = np.zeros((worlds + 1, n), np.float64)  # the last row: _race's totals
    alive = np.ones(n, np.bool_)
    _set_players(v, sc, policy)
    played = 0
    for w in range(worlds):
        _deal_prepared(v, slot_bits, work, n_cards, n_slots)
        _set_sets(v, sc, slot_bits)
        for q in range(MAX_PLAYERS):
            seeds[q] = next_u64(own.rng, 0)
        for j in range(n):
            if alive[j]:
                _set_world(v, sc, slot_bits, seeds)
                vals[w, j] = _play_out(sc, side, reps[j], policy)
        played = w + 1
        if race > 0 and played >= RACE_FROM and played < worlds:
            if _race(vals, played, alive, n, race) == 1:
                break  # one candidate left: no deal can change the choice
    return reps[_leader(vals, played, alive, n)]


@njit(cache=True)
def _search_lanes(v, worlds, n, reps, race, work, n_cards, n_slots):
    """:func:`search` with heuristic play-outs in lockstep (``lanes``), a few deals at a time:
    the deals drawn (the seat's stream noted after each), every candidate still in the race
    played out in each, then the race run deal by deal over those values as the one-at-a-time
    search runs it; at its end the stream is put back to where that search stops drawing. The
    values the race and the choice read are the same, so are the card and the stream; a
    candidate dropped within a few deals is played out to their end all the same (cheaper in
    lockstep than leaving its lane)."""
    t = v.table
    s = t.s
    own = v.own
    seat = v.seat
    row = s[S_SET] * MAX_PLAYERS
    mine = hand_mask(own.bits)
    slot_bits = np.zeros((MAX_SLOTS, 4), np.int64)
    deals = np.empty((worlds, 4), np.int64)
    after = np.empty(worlds, np.uint64)  # the seat's stream after each deal's draws
    vals = np.zeros((worlds + 1, n), np.float64)  # the last row: _race's totals
    alive = np.ones(n, np.bool_)
    cols = np.empty(n, np.int64)
    S = np.empty(lanes.ROWS * lanes.LANES, np.int64)  # every row is written for each lane used
    cards = np.empty(lanes.LANES, np.int64)
    done = np.int64(0)  # deals valued (typed: a literal 0 would type lane_values for it too)
    played = worlds
    while done < played:
        upto = min(worlds, RACE_FROM if done == 0 else done + RACE_CHUNK) if race > 0 else worlds
        for w in range(done, upto):
            _deal_prepared(v, slot_bits, work, n_cards, n_slots)
            for q in range(4):  # by element: a row's view is counted in and out
                h = mine
                if q != seat:
                    b = row + q
                    h = (
                        slot_bits[b, 0]
                        | (slot_bits[b, 1] << 13)
                        | (slot_bits[b, 2] << 26)
                        | (slot_bits[b, 3] << 39)
                    )
                deals[w, q] = h
            for _ in range(MAX_PLAYERS):
                next_u64(own.rng, 0)  # the play-outs' seeds the one-at-a-time search draws
            after[w] = own.rng[0]
        k = np.int64(0)
        for j in range(n):
            cols[k] = j
            k += alive[j]
        lane_values(v, deals, done, upto, cols, k, reps, vals, S, cards)
        for w in range(done, upto):
            if race > 0 and w + 1 >= RACE_FROM and w + 1 < worlds:
                if _race(vals, w + 1, alive, n, race) == 1:
                    played = w + 1  # where the one-at-a-time search stops
                    break
        done = upto
    own.rng[0] = after[played - 1]
    return reps[_leader(vals, played, alive, n)]


@njit(cache=True)
def lane_values(v, deals, w0, w1, cols, k, reps, vals, S, cards):
    """``vals[w, j]`` for deals ``w0 <= w < w1`` and candidates ``j`` in ``cols[:k]``:
    :func:`_value` of candidate ``reps[j]`` played out in deal ``w`` (``deals[w, q]``: seat q's
    hand as one 52-bit mask), every seat by ``heuristic``: the values :func:`_play_out` gives,
    played in lockstep (``lanes``; ``S`` and ``cards`` its scratch, ``ROWS * LANES`` and ``LANES``
    long). Whist, or Scotch Whist with two sides; four seats, one set of hands."""
    t = v.table
    s = t.s
    r = t.rules
    seat = v.seat
    trump = s[S_TRUMP]
    scotch = r[R_KIND] == SCOTCH
    side = t.team[seat]
    # typed: a literal 0 would type the lanes' functions for it too
    teams = np.int64(0)
    side_seats = np.int64(0)
    base = np.int64(0)  # the side's tricks so far
    voids = np.int64(0)
    first = np.int64(0)
    trump_leads = np.int64(0)
    won = np.int64(0)  # the cards the side has taken
    dealt = np.int64(0)  # the cards dealt to the side's seats, and to the others'
    dealt_others = np.int64(0)
    for q in range(4):
        ours = t.team[q] == side
        first |= np.int64(t.first_lead[q] + 1) << (3 * q)
        trump_leads |= np.int64(t.leads[q, trump]) << (4 * q)
        teams |= np.int64(t.team[q] == 1) << q
        side_seats |= np.int64(ours) << q
        base += t.tricks[q] if ours else 0
        dealt += r[R_HAND] if ours else 0
        dealt_others += 0 if ours else r[R_HAND]
        for suit in range(4):  # by element: a row's view is counted in and out
            won |= (t.won_bits[q, suit] << (13 * suit)) if ours else 0
        for suit in range(4):
            voids |= np.int64(t.void[q, suit] != 0) << (4 * q + suit)
    trick = np.int64(0)
    for i in range(s[S_TRICK_LEN]):
        trick |= np.int64(1) << np.int64(t.trick_card[i])
    pack = np.int64(0)
    for suit in range(4):
        pack |= np.int64(heuristic.pack_bits(v, suit)) << (13 * suit)
    gone = hand_mask(t.played)
    i0 = s[S_TRICK_LEN]
    leader = t.trick_seat[0] if i0 > 0 else seat
    tricks = r[R_HAND] - s[S_SET_TRICK] - 1
    french = r[R_FRENCH] != 0
    L = lanes.LANES
    pairs = (w1 - w0) * k
    for start in range(0, pairs, L):
        m = min(L, pairs - start)
        for x in range(m):
            w = w0 + (start + x) // k
            for q in range(4):
                S[(lanes.H + q) * L + x] = deals[w, q]
            S[lanes.FIRST * L + x] = first
            S[lanes.TRUMP_LEADS * L + x] = trump_leads
            S[lanes.GONE * L + x] = gone
            S[lanes.VOID * L + x] = voids
            S[lanes.LED * L + x] = s[S_LED]
            S[lanes.BEST_POWER * L + x] = s[S_BEST_POWER]
            S[lanes.BEST * L + x] = s[S_BEST]
            S[lanes.LEADER * L + x] = leader
            S[lanes.TAKEN * L + x] = base
            S[lanes.TRICK * L + x] = trick
            S[lanes.WON * L + x] = won
            cards[x] = reps[cols[(start + x) % k]]
        lanes.play_lanes(S, m, cards, trump, teams, side_seats, i0, seat, tricks, scotch, pack)
        for x in range(m):
            if scotch:  # the side's points less the other side's (every card is taken by the end)
                ours = S[lanes.WON * L + x]
                theirs = S[lanes.GONE * L + x] & ~ours
                value = lanes.points(ours, trump, french, dealt) - lanes.points(
                    theirs, trump, french, dealt_others
                )
            else:
                value = S[lanes.TAKEN * L + x]
            vals[w0 + (start + x) // k, cols[(start + x) % k]] = value


@njit(cache=True)
def classes_of(buf, seat):
    """The classes :func:`search` plays out with ``merge`` for ``seat`` to play in ``buf``:
    each class's lowest and highest card."""
    c = buf[0].core
    v = seat_view(c, seat, buf[0].scratch)
    cands, _, _ = legal_cards(v.own, v.led)
    reps = np.zeros(26, np.int64)
    k = card_classes(v, cands, reps)
    return reps[:k].copy(), reps[13 : 13 + k].copy()
