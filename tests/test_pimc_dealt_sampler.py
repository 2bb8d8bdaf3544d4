"""The dealt games' pimc samples the same worlds whatever its sampler's code: every world it
deals, at every position of real deals (Scotch Whist with one to three sets of hands, Whist),
is the world a plain reference deals from the same stream, with voids to respect or none, and
the stream ends where the reference's ends. A faster sampler must pass it unchanged (the pinned
games check the decisions only through the worlds' effect on them)."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from whistsim.core.rng import randbelow
from whistsim.games import get_game
from whistsim.games.dealt import engine as E
from whistsim.games.dealt.kernels import new_state
from whistsim.games.dealt.players import heuristic, pimc
from whistsim.games.dealt.players import random as random_player
from whistsim.games.dealt.rules import MAX_PLAYERS


@njit(cache=True)
def _old_start(v, slot_bits, work, n, n_slots):
    """Both plain samplers' start: the cards already placed, each slot's room and the unseen cards
    shuffled (the stream's first draws)."""
    rng = v.own.rng
    slots = work[pimc.W_SLOTS]
    for k in range(v.table.s[E.S_SET], v.table.rules[E.R_SETS]):
        for q in range(v.table.rules[E.R_PLAYERS]):
            slot = k * MAX_PLAYERS + q
            for suit in range(4):
                slot_bits[slot, suit] = work[pimc.W_BITS0, slot * 4 + suit]
    cap = np.zeros(pimc.MAX_SLOTS, np.int64)
    for j in range(n_slots):
        cap[slots[j]] = work[pimc.W_CAP0, slots[j]]
    pool = work[pimc.W_POOL0, :n].copy()
    for i in range(n - 1, 0, -1):
        j = randbelow(rng, 0, i + 1)
        pool[i], pool[j] = pool[j], pool[i]
    return cap, pool


@njit(cache=True)
def _old_free_deal(v, slot_bits, work, n, n_slots):
    """The sampler written out plainly, for a decision with no voids to respect: the unseen cards
    shuffled, then each given to the slot a draw over the room left falls in, searched slot by
    slot. False (nothing dealt) when some slot has a void to respect."""
    rng = v.own.rng
    elig = work[pimc.W_ELIG]
    slots = work[pimc.W_SLOTS]
    for j in range(n_slots):
        if elig[slots[j]] != 15:
            return False
    cap, pool = _old_start(v, slot_bits, work, n, n_slots)
    total = 0
    for j in range(n_slots):
        total += cap[slots[j]]
    for i in range(n):
        c = pool[i]
        x = randbelow(rng, 0, total)
        total -= 1
        for j in range(n_slots):
            slot = slots[j]
            if x < cap[slot]:
                cap[slot] -= 1
                slot_bits[slot, c // 13] |= 1 << (c % 13)
                break
            x -= cap[slot]
    return True


@njit(cache=True)
def _old_void_deal(v, slot_bits, work, n, n_slots):
    """The sampler written out plainly, for a decision with voids to respect: the unseen cards
    shuffled, then each given to the slot a draw over the room left among the slots that may
    take its suit falls in, searched slot by slot, unless that slot's room is owed to a set of
    suits with no slack (Hall's condition, kept per set of suits): then the draw is made again
    without it."""
    rng = v.own.rng
    elig = work[pimc.W_ELIG]
    slots = work[pimc.W_SLOTS]
    cap, pool = _old_start(v, slot_bits, work, n, n_slots)
    slack = work[pimc.W_SLACK0, :16].copy()
    for i in range(n):
        c = pool[i]
        suit = c // 13
        tried = np.zeros(pimc.MAX_SLOTS, np.bool_)
        while True:
            total = 0
            for j in range(n_slots):
                if (elig[slots[j]] >> suit) & 1 and not tried[slots[j]]:
                    total += cap[slots[j]]
            x = randbelow(rng, 0, total)
            chosen = -1
            for j in range(n_slots):
                slot = slots[j]
                if (elig[slot] >> suit) & 1 and not tried[slot]:
                    if x < cap[slot]:
                        chosen = slot
                        break
                    x -= cap[slot]
            # the sets of suits without this one that the slot may take lose a place net of cards
            ok = True
            for subset in range(1, 16):
                if not (subset >> suit) & 1 and subset & elig[chosen] and slack[subset] == 0:
                    ok = False
            if ok:
                for subset in range(1, 16):
                    if not (subset >> suit) & 1 and subset & elig[chosen]:
                        slack[subset] -= 1
                cap[chosen] -= 1
                slot_bits[chosen, suit] |= 1 << (c % 13)
                break
            tried[chosen] = True


@njit(cache=True)
def _compare(buf, deck, dealer, worlds, out):
    """Deal ``deck`` and play it (heuristic and random seats, trick by trick); at every card owed,
    sample ``worlds`` worlds for the seat to play by pimc's sampler and by the reference from the
    same stream. Counts into ``out``: worlds compared, worlds that differ (the cards of a slot, or
    the stream after), worlds with voids to respect (compared with the plain void sampler),
    worlds of more than one set of hands."""
    c = buf[0].core
    sc = buf[0].scratch
    E.deal_from_deck(c, deck, dealer)
    s = c.table.s
    r = c.table.rules
    work = pimc._work()
    new = np.zeros((pimc.MAX_SLOTS, 4), np.int64)
    old = np.zeros((pimc.MAX_SLOTS, 4), np.int64)
    while s[E.S_PHASE] != E.OVER:
        v = E.seat_view(c, s[E.S_SEAT], sc)
        n, n_slots = pimc._prepare(v, True, work)
        if n < 0:
            n, n_slots = pimc._prepare(v, False, work)
        for _ in range(worlds):
            start = v.own.rng[0]
            if not _old_free_deal(v, old, work, n, n_slots):
                out[2] += 1
                _old_void_deal(v, old, work, n, n_slots)
            after = v.own.rng[0]
            v.own.rng[0] = start
            pimc._deal_prepared(v, new, work, n, n_slots)
            same = v.own.rng[0] == after
            for k in range(s[E.S_SET], r[E.R_SETS]):
                for q in range(r[E.R_PLAYERS]):
                    for suit in range(4):
                        same &= new[k * MAX_PLAYERS + q, suit] == old[k * MAX_PLAYERS + q, suit]
            out[0] += 1
            out[1] += not same
            out[3] += s[E.S_SET] < r[E.R_SETS] - 1
        E.apply(c, random_player.decide(v) if s[E.S_TRICK] % 2 else heuristic.decide(v))
    return out


CASES = [
    ("scotch", 2, {}),
    ("scotch", 3, {}),
    ("scotch", 4, {}),
    ("scotch", 5, {"odd_six": "aside"}),
    ("whist", 4, {}),
]


@pytest.mark.parametrize("game,players,rules", CASES)
def test_every_world_is_the_one_the_plain_sampler_deals(game, players, rules):
    r = get_game(game).make_rules(None, players, rules)
    buf = new_state(r)
    seats = buf[0]["core"]["seats"]
    seats["params"][:, : len(heuristic.DEFAULTS)] = heuristic.DEFAULTS
    seats["rng"][:, 0] = np.arange(1, MAX_PLAYERS + 1) * 104729
    out = np.zeros(4, np.int64)
    gen = np.random.default_rng(players)
    for deal in range(4):
        deck = gen.permutation(r.deck()).astype(np.int8)
        _compare(buf, deck, deal % players, 3, out)
    assert out[0] > 100 and out[2] > 0  # voids shown too
    assert out[3] > 0 or r.sets == 1
    assert out[1] == 0, f"{out[1]} of {out[0]} worlds differ"
