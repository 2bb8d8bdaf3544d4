"""``top_unseen`` (the highest power an unseen card could answer a lead with, behind every
``threat``) is the maximum of its suited part and its Taffy part, which ``lead_sure`` counts once
per lead instead of once per suit: after every decision of replayed games, for every seat and
suit, both equal the highest unseen card counted card by card with :func:`unseen`. ``lead_sure``
(which also reads every seat's voids once per lead and skips counting a suit that cannot win) leads
as its plain statement does: ``threat`` and ``unseen`` per suit. Both read the engine's packed
counts (the cards gone, each hand), checked against the arrays they pack after every decision."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit, typeof
from numba.core import types

import whistsim
from whistsim.core.cards import ACE, TAFFY, TEN
from whistsim.games.welsh import engine as E
from whistsim.games.welsh.players.common import (
    lead_sure,
    taffy_power,
    threat,
    top_unseen,
    top_unseen_suited,
    top_unseen_taffy,
    unseen,
)
from whistsim.games.welsh.records import read_record, start, step
from whistsim.games.welsh.rules import R_PLAYERS, R_TAFFY_EQUALS_TEN, WelshRules


@njit(cache=True)
def _lead_sure_plainly(t, own, seat):
    """``lead_sure`` as its docstring states it: per suit the threat, the cheapest sure card (a Ten
    if it is sure), else a Taffy, the suit's unseen cards counted card by card; a bank first."""
    tp = taffy_power(t)
    best, best_score = -1, -1
    for suit in range(4):
        m = own.bits[suit]
        taffies = own.hand[TAFFY] > 0
        if m == 0 and not taffies:
            continue
        top = threat(t, own, seat, suit, seat)
        cand = -1
        for r in range((top + 1) // 2, ACE + 1):
            if m & (1 << r):
                cand = suit * 13 + (TEN if m & (1 << TEN) and r < TEN else r)
                break
        if taffies and tp >= top and (cand < 0 or cand % 13 != TEN):
            cand = E.TAFFY_LEAD + suit
        if cand < 0:
            continue
        banks = cand >= E.TAFFY_LEAD or cand % 13 == TEN
        if top < 0 and not banks:
            continue
        n = 0
        for c in range(suit * 13, suit * 13 + 13):
            n += unseen(t, own, c)
        score = n + (1000 if banks else 0)
        if score > best_score:
            best, best_score = cand, score
    return best


@njit(cache=True)
def _packed_alike(buf):
    """True if the table's packed cards gone and every seat's packed hand (engine.WORD_OF, BYTE_OF)
    equal their arrays, ``played + piled`` and ``hand``, byte by byte."""
    g = buf[0]
    t = g.table
    gone = np.zeros(9, np.int64)
    for c in range(53):
        gone[E.WORD_OF[c]] += (t.played[c] + t.piled[c]) * E.BYTE_OF[c]
    for w in range(9):
        if t.gone[w] != gone[w]:
            return False
    for q in range(t.rules[R_PLAYERS]):
        held = np.zeros(9, np.int64)
        for c in range(53):
            held[E.WORD_OF[c]] += g.seats[q].hand[c] * E.BYTE_OF[c]
        for w in range(8):
            if g.seats[q].held[w] != held[w]:
                return False
    return True


@njit(cache=True)
def _counted_alike(buf):
    """True if every seat's ``top_unseen`` and its two parts equal a count card by card, and the
    packed counts they read equal their arrays."""
    g = buf[0]
    t = g.table
    if not _packed_alike(buf):
        return False
    for q in range(t.rules[R_PLAYERS]):
        own = g.seats[q]
        taffy = E.power(TAFFY, t.rules[R_TAFFY_EQUALS_TEN]) if unseen(t, own, np.int64(TAFFY)) > 0 else -1
        if top_unseen_taffy(t, own) != taffy:
            return False
        for suit in range(4):
            best = -1
            for r in range(12, -1, -1):
                if unseen(t, own, suit * 13 + r) > 0:
                    best = 2 * r
                    break
            if top_unseen_suited(t, own, suit) != best or top_unseen(t, own, suit) != max(best, taffy):
                return False
        if lead_sure(t, own, q) != _lead_sure_plainly(t, own, q):
            return False
    return True


def _replayed(sim):
    """Decisions checked (each checked after it was made)."""
    checked = 0
    for rec in sim.records:
        rules, stock, first, _, actions = read_record(rec)
        buf = E.new_state(rules.to_array())
        start(buf, stock, np.int64(first))
        assert _counted_alike(buf)
        for a in actions:
            assert step(buf, int(a)) == 0
            assert _counted_alike(buf), (rec["seed"], checked)
            checked += 1
    return checked


def test_top_unseen_is_its_suited_part_or_the_taffy_as_counted_card_by_card():
    sim = whistsim.simulate("welsh", 3, 5, preset="parlett", players=3, strategies=["counter"], records=3)
    assert _replayed(sim) > 100


def test_top_unseen_counts_a_caught_revokers_hand_piled_by_its_challenger():
    sim = whistsim.simulate("welsh", 4, 3, preset="akagiri", players=4, records=4,
                            rules={"revokes": True, "challenge": "akagiri"},
                            strategies=["cheater:rate=0.5", "counter", "cheater:rate=0.5", "counter"])  # fmt: skip
    challenged = sum(str(m).count("challenge=") for rec in sim.records for m in rec["moves"])
    assert _replayed(sim) > 100 and challenged > 0


@pytest.mark.parametrize(
    "players, rules",
    [(3, {"packs": 3, "taffies": 11}), (2, {"packs": 16, "taffies": 64}), (12, {"packs": 1, "taffies": 0})],
)
def test_the_packed_counts_hold_with_many_packs_and_many_players(players, rules):
    """16 packs fill a byte per rank (the most a count reaches); 12 players on one pack."""
    sim = whistsim.simulate("welsh", 5, 2, preset="parlett", players=players, rules=rules,
                            strategies=["counter"], records=2)  # fmt: skip
    assert _replayed(sim) > 50


def test_the_taffy_is_counted_by_the_one_compile_of_unseen():
    """``top_unseen_taffy`` asks ``unseen`` for the Taffy typed as every other card: a literal
    Taffy compiled ``unseen`` and ``total`` a second time in every kernel with pimc or counter."""

    @njit  # not cached: its typing asks for unseen's signatures on every run
    def taffy_part(buf):
        return top_unseen_taffy(buf[0].table, buf[0].seats[0])

    buf = E.new_state(WelshRules().to_array())
    taffy_part.compile((typeof(buf),))
    assert unseen.signatures
    assert not [sig for sig in unseen.signatures if isinstance(sig[-1], types.Literal)]
