"""The table keeps, as cards are played or piled, the cards gone per suit (``gone_n``) and the ranks
with no copy left (``gone_all``), so that counting players need not recount them per decision: after
every decision of replayed games they equal a recount from ``played`` and ``piled``, and the counts
read from them (``top_unseen``, ``lead_sure``'s unseen cards) equal the ones from :func:`unseen`."""

from __future__ import annotations

import numpy as np
from numba import njit

import whistsim
from whistsim.core.cards import TAFFY
from whistsim.games.welsh import engine as E
from whistsim.games.welsh.players.common import top_unseen, unseen
from whistsim.games.welsh.records import read_record, start, step
from whistsim.games.welsh.rules import R_PACKS, R_PLAYERS, R_TAFFY_EQUALS_TEN


@njit(cache=True)
def _recounted(buf):
    """True if the kept counts equal a recount, and every seat's ``top_unseen`` and unseen cards per
    suit equal those counted card by card with ``unseen``."""
    g = buf[0]
    t = g.table
    packs = t.rules[R_PACKS]
    for suit in range(5):
        n, full = 0, 0
        for r in range(1 if suit == 4 else 13):
            c = TAFFY if suit == 4 else suit * 13 + r
            gone = t.played[c] + t.piled[c]
            n += gone
            if gone == packs and suit < 4:
                full |= 1 << r
        if t.gone_n[suit] != n or (suit < 4 and t.gone_all[suit] != full):
            return False
    for q in range(t.rules[R_PLAYERS]):
        own = g.seats[q]
        for suit in range(4):
            best, left = -1, 0
            for r in range(12, -1, -1):
                k = unseen(t, own, suit * 13 + r)
                left += k
                if k > 0 and best < 0:
                    best = 2 * r
            if unseen(t, own, TAFFY) > 0:
                best = max(best, E.power(TAFFY, t.rules[R_TAFFY_EQUALS_TEN]))
            if top_unseen(t, own, suit) != best:
                return False
            if 13 * packs - own.suit_n[suit] - t.gone_n[suit] != left:
                return False
    return True


def _replayed(sim):
    """(decisions checked, True if every one was recounted equal, cards piled from hands)."""
    checked, piled = 0, 0
    for rec in sim.records:
        rules, stock, first, _, actions = read_record(rec)
        buf = E.new_state(rules.to_array())
        start(buf, stock, np.int64(first))
        assert _recounted(buf)
        for a in actions:
            assert step(buf, int(a)) == 0
            assert _recounted(buf), (rec["seed"], checked)
            checked += 1
        piled += int(buf[0]["table"]["piled"].sum())
    return checked, piled


def test_cards_gone_per_suit_are_kept_as_cards_are_played_and_kept_hands_piled():
    sim = whistsim.simulate("welsh", 3, 5, preset="parlett", players=3, strategies=["counter"], records=3)
    checked, piled = _replayed(sim)
    assert checked > 100 and piled > 0  # every deal ends with the last holder's hand piled


def test_cards_gone_per_suit_count_a_caught_revokers_hand_piled_by_its_challenger():
    sim = whistsim.simulate("welsh", 4, 3, preset="akagiri", players=4, records=4,
                            rules={"revokes": True, "challenge": "akagiri"},
                            strategies=["cheater:rate=0.5", "counter", "cheater:rate=0.5", "counter"])  # fmt: skip
    checked, _ = _replayed(sim)
    challenged = sum(str(m).count("challenge=") for rec in sim.records for m in rec["moves"])
    assert checked > 100 and challenged > 0
