"""The dealt games' pimc plays its play-outs a trick at a time through the engine's steps: every
play-out must end as the engine's own loop (``check`` and ``apply`` per card, the play-out
policy asked for each) ends it, from every candidate, with either play-out policy, in Scotch
Whist with one to three sets of hands and in Whist with revokes allowed, from the first trick
to the last."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from whistsim.core.bits import lowest
from whistsim.core.rng import next_u64
from whistsim.games import get_game
from whistsim.games.dealt import engine as E
from whistsim.games.dealt.kernels import new_state
from whistsim.games.dealt.players import heuristic, pimc
from whistsim.games.dealt.players import random as random_player
from whistsim.games.dealt.rules import MAX_PLAYERS, R_HAND, R_PLAYERS, R_SETS, R_TEAMS


@njit(cache=True)
def _by_apply(sc, side, a, policy, streams):
    """The play-out as the engine plays it, card by card, the policy asked for every card;
    NaN when a card is illegal. ``streams``: the seats' streams as the deal's last trick
    starts (or ends, when it started before the candidate)."""
    if E.check(sc, a) != E.OK:
        return np.nan
    E.apply(sc, a)
    s = sc.table.s
    r = sc.table.rules
    last = False  # the last trick has started
    while s[E.S_PHASE] != E.OVER:
        if not last and s[E.S_TRICK_LEN] == 0 and s[E.S_SET] == r[R_SETS] - 1:
            if s[E.S_SET_TRICK] == r[R_HAND] - 1:
                last = True
                for q in range(r[R_PLAYERS]):
                    streams[q] = sc.seats[q].rng[0]
        v = E.seat_view(sc, s[E.S_SEAT], sc)
        b = heuristic.decide(v) if policy == 1 else random_player.decide(v)
        if E.check(sc, b) != E.OK:
            return np.nan
        E.apply(sc, b)
    if not last:
        for q in range(r[R_PLAYERS]):
            streams[q] = sc.seats[q].rng[0]
    return pimc._value(sc, side)


@njit(cache=True)
def _same_end(a, b, streams, p, teams):
    """The two played-out deals end alike: every part of the score, and the streams as the
    last trick starts. (The play-out scores the last trick without playing it: the cards taken
    there, and a random policy's draws for its one card each, are not compared.)"""
    same = True
    for k in range(E.N_PARTS):
        for side in range(teams):
            same &= a.result[k, side] == b.result[k, side]
    for q in range(p):
        same &= b.seats[q].rng[0] == streams[q]
    return same


@njit(cache=True)
def _compare(buf, ref_buf, deck, dealer, policy, worlds, out):
    """Deal ``deck``, play it out with random seats, and at every card owed compare both
    play-outs for ``worlds`` sampled deals, every legal card. Counts into ``out``: play-outs,
    play-outs that differ, play-outs before the last set, from a lead, from the last trick."""
    g = buf[0]
    c = g.core
    sc = g.scratch
    ref = ref_buf[0].scratch
    E.deal_from_deck(c, deck, dealer)
    t = c.table
    s = t.s
    r = t.rules
    slot_bits = np.zeros((pimc.MAX_SLOTS, 4), np.int64)
    seeds = np.zeros(MAX_PLAYERS, np.uint64)
    streams = np.zeros(MAX_PLAYERS, np.uint64)
    work = pimc._work()
    while s[E.S_PHASE] != E.OVER:
        seat = s[E.S_SEAT]
        v = E.seat_view(c, seat, sc)
        cands, _, _ = pimc.legal_cards(v.own, v.led)
        n_cards, n_slots = pimc._prepare(v, True, work)
        if n_cards < 0:
            n_cards, n_slots = pimc._prepare(v, False, work)
        side = t.team[seat]
        pimc._set_players(v, sc, policy)
        pimc._set_players(v, ref, policy)
        for _ in range(worlds):
            pimc._deal_prepared(v, slot_bits, work, n_cards, n_slots)
            pimc._set_sets(v, sc, slot_bits)
            pimc._set_sets(v, ref, slot_bits)
            for q in range(MAX_PLAYERS):
                seeds[q] = next_u64(v.own.rng, 0)
            for suit in range(4):
                m = cands[suit]
                while m:
                    a = suit * 13 + lowest(m)
                    m &= m - 1
                    pimc._set_world(v, sc, slot_bits, seeds)
                    pimc._set_world(v, ref, slot_bits, seeds)
                    want = _by_apply(ref, side, a, policy, streams)
                    got = pimc._play_out(sc, side, a, policy)
                    out[0] += 1
                    out[1] += not (want == got and _same_end(ref, sc, streams, r[R_PLAYERS], r[R_TEAMS]))
                    out[5] += want != got
                    out[2] += s[E.S_SET] < r[R_SETS] - 1
                    out[3] += s[E.S_TRICK_LEN] == 0
                    out[4] += s[E.S_SET] == r[R_SETS] - 1 and s[E.S_SET_TRICK] == r[R_HAND] - 1
        E.apply(c, random_player.decide(v))
    return out


CASES = [("scotch", 2, {}), ("scotch", 3, {}), ("scotch", 5, {}), ("whist", 4, {"revokes": True})]


@pytest.mark.parametrize("game,players,rules", CASES)
@pytest.mark.parametrize("policy", [1, 0])
def test_a_playout_ends_as_the_engines_own_loop_ends_it(game, players, rules, policy):
    r = get_game(game).make_rules(None, players, rules)
    buf, ref = new_state(r), new_state(r)
    buf[0]["core"]["seats"]["rng"][:, 0] = np.arange(1, MAX_PLAYERS + 1) * 7919
    out = np.zeros(6, np.int64)
    gen = np.random.default_rng(players)
    for deal in range(3):
        deck = gen.permutation(r.deck()).astype(np.int8)
        _compare(buf, ref, deck, deal % players, policy, 2, out)
    assert out[0] > 300 and out[3] > 50 and out[4] > 0  # leads too, and the last trick's cards
    assert out[2] > 0 or r.sets == 1
    assert out[1] == 0, f"{out[1]} of {out[0]} play-outs differ ({out[5]} in value)"
