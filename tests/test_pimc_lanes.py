"""pimc's play-outs in lockstep (``lanes``) must value every candidate in every sampled deal as
the one-at-a-time play-out (``_play_out``, the engine's steps and ``heuristic``) does: from leads
and from every place in a trick, in Whist with revokes allowed or not and in four-handed Scotch
and French Whist."""

from __future__ import annotations

import numpy as np
from numba import njit

from whistsim.core.bits import hand_mask, lowest
from whistsim.core.rng import next_u64
from whistsim.games import get_game
from whistsim.games.dealt import engine as E
from whistsim.games.dealt.kernels import new_state
from whistsim.games.dealt.players import heuristic, lanes, pimc
from whistsim.games.dealt.rules import MAX_PLAYERS


@njit(cache=True)
def _compare(buf, deck, dealer, worlds, out):
    """Deal ``deck``, play it with ``heuristic`` seats, and at every card with a choice value
    every legal card in ``worlds`` sampled deals both ways. Counts into ``out``: values, values
    that differ, values from a lead, values from the trick's last place."""
    g = buf[0]
    c = g.core
    sc = g.scratch
    E.deal_from_deck(c, deck, dealer)
    t = c.table
    s = t.s
    slot_bits = np.zeros((pimc.MAX_SLOTS, 4), np.int64)
    seeds = np.zeros(MAX_PLAYERS, np.uint64)
    work = pimc._work()
    reps = np.zeros(26, np.int64)
    while s[E.S_PHASE] != E.OVER:
        seat = s[E.S_SEAT]
        v = E.seat_view(c, seat, sc)
        cands, n, _ = pimc.legal_cards(v.own, v.led)
        if n > 1:
            k = 0
            for suit in range(4):
                m = cands[suit]
                while m:
                    reps[k] = suit * 13 + lowest(m)
                    m &= m - 1
                    k += 1
            n_cards, n_slots = pimc._prepare(v, True, work)
            if n_cards < 0:
                n_cards, n_slots = pimc._prepare(v, False, work)
            pimc._set_players(v, sc, 1)
            deals = np.zeros((worlds, 4), np.int64)
            want = np.zeros((worlds + 1, k))
            for w in range(worlds):
                pimc._deal_prepared(v, slot_bits, work, n_cards, n_slots)
                pimc._set_sets(v, sc, slot_bits)
                for q in range(MAX_PLAYERS):
                    seeds[q] = next_u64(v.own.rng, 0)
                for q in range(4):
                    deals[w, q] = hand_mask(v.own.bits) if q == seat else hand_mask(slot_bits[q])
                for j in range(k):
                    pimc._set_world(v, sc, slot_bits, seeds)
                    want[w, j] = pimc._play_out(sc, t.team[seat], reps[j], 1)
            got = np.zeros((worlds + 1, k))
            S = np.empty(lanes.ROWS * lanes.LANES, np.int64)
            cards = np.empty(lanes.LANES, np.int64)
            pimc.lane_values(v, deals, 0, worlds, np.arange(k), k, reps, got, S, cards)
            for w in range(worlds):
                for j in range(k):
                    out[0] += 1
                    out[1] += got[w, j] != want[w, j]
                    out[2] += s[E.S_TRICK_LEN] == 0
                    out[3] += s[E.S_TRICK_LEN] == 3
        E.apply(c, heuristic.choose(v))
    return out


def test_lockstep_playouts_value_every_candidate_as_one_at_a_time():
    """Every legal candidate at every position of some deals, 5 worlds each; then one deal at 40
    worlds a decision, more (deal, candidate) pairs than ``LANES``, played in several passes.
    One test: the comparison compiles once."""
    gen = np.random.default_rng(5)
    cases = [
        ("whist", None, {}, 12, 5),
        ("whist", None, {"revokes": True}, 12, 5),
        ("whist", None, {}, 1, 40),
        ("scotch", None, {}, 16, 5),
        ("scotch", "french", {}, 12, 5),
        ("scotch", None, {}, 1, 40),
    ]
    for game, preset, rules, deals, worlds in cases:
        r = get_game(game).make_rules(preset, 4, rules)
        buf = new_state(r)
        seats = buf[0]["core"]["seats"]
        seats["params"][:, : len(heuristic.DEFAULTS)] = heuristic.DEFAULTS
        seats["rng"][:, 0] = np.arange(1, MAX_PLAYERS + 1) * 7919
        out = np.zeros(4, np.int64)
        for deal in range(deals):
            _compare(buf, gen.permutation(r.deck()).astype(np.int8), deal % 4, worlds, out)
        assert out[0] > (1000 if deals > 1 else 40 * 10 > lanes.LANES) and out[2] > 20 and out[3] > 20, out
        assert out[1] == 0, f"{game} {preset} {rules}, {worlds} worlds: {out[1]} of {out[0]} values differ"
