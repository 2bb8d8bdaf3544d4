"""The open-hand solver: hand-made endings, agreement with an exhaustive search, best moves."""

from __future__ import annotations

import json

import numpy as np
import pytest
from numba import njit, types

import whistsim
from whistsim.core.cards import card_name, parse_card
from whistsim.games.dealt import search as se
from whistsim.games.dealt.engine import (
    CORE_DTYPE,
    MAX_PLAYERS,
    OVER,
    P_POINTS,
    P_TRICKS,
    R_KIND,
    S_LED,
    S_PHASE,
    S_SEAT,
    SCOTCH,
    apply,
    copy_table,
    from_power,
)
from whistsim.games.dealt.search import alphabeta, bounds, encoding, intrinsics, memo, moves
from whistsim.games.scotch.rules import ScotchRules
from whistsim.games.whist.rules import WhistRules
from whistsim.solver import solve_line, solve_record
from whistsim.solver.position import from_hands, position_of

# ---- an exhaustive search on the engine itself: no pruning, no table ---------------


@njit(cache=True)
def _copy(dst, src):
    copy_table(dst.table, src.table)
    for q in range(MAX_PLAYERS):
        for s in range(4):
            dst.seats[q].bits[s] = src.seats[q].bits[s]
            dst.dealt[q, s] = src.dealt[q, s]
        dst.seats[q].n = src.seats[q].n
    dst.n_revokes = 0


@njit(cache=True)
def _minimax(stack, d):
    c = stack[d]
    t = c.table
    if t.s[S_PHASE] == OVER:
        if t.rules[R_KIND] == SCOTCH:
            return c.result[P_POINTS, 0] - c.result[P_POINTS, 1]
        return c.result[P_TRICKS, 0]
    seat = t.s[S_SEAT]
    own = c.seats[seat]
    led = t.s[S_LED]
    maxing = t.team[seat] == 0
    best = -(10**9) if maxing else 10**9
    for card in range(52):
        suit = card // 13
        if not (own.bits[suit] >> (card % 13)) & 1:
            continue
        if led >= 0 and suit != led and own.bits[led] != 0:
            continue
        _copy(stack[d + 1], c)
        apply(stack[d + 1], card)
        v = _minimax(stack, d + 1)
        best = max(best, v) if maxing else min(best, v)
    return best


def exhaustive(pos) -> int:
    """Side 0's final value by trying every legal card everywhere: Whist the deal's tricks,
    Scotch the margin in the deal's points, scored by the engine."""
    stack = np.zeros(60, CORE_DTYPE)
    stack[0] = pos.core
    stack[0]["n_revokes"] = 0  # a revoke in the record is not the solver's business
    return int(_minimax(stack, 0))


def final(pos, value: int) -> int:
    """The solver's value in the exhaustive search's terms."""
    if pos.rules.kind == SCOTCH:
        return value
    return value + int(pos.core["table"]["tricks"][0] + pos.core["table"]["tricks"][2])


SETUPS = [("whist", 4, {}), ("scotch", 4, {}), ("scotch", 6, {"teams": "threes"}),
          ("scotch", 8, {"teams": "fours"}), ("scotch", 4, {"french": "true"})]  # fmt: skip


def endings(game, players, rules, n, seed, most=5):
    """Positions of random deals played at random until at most ``most`` cards are left in
    each hand, stopping anywhere in a trick."""
    rng = np.random.default_rng(seed)
    sim = whistsim.simulate(game, n, seed, players=players, rules=rules, strategies=["random"], records=n)
    for rec in sim.records[:n]:
        hand = len(rec["hands"][0][0])
        k = int(rng.integers(1, min(most, hand) + 1))
        cut = players * (hand - k) + int(rng.integers(0, players))
        yield rec, dict(rec, moves=rec["moves"][:cut])


# ---- hand-made endings ---------------------------------------------------------------


def test_equivalent_cards_are_searched_by_their_highest_so_partition_search_stays_exact():
    # Once solved by its lowest card, a hand's class like Q-K of hearts lent its bound to a
    # position where the K stood over an 8 instead: this deal came out 44, not 40 (the margin
    # the plain search with exact table keys gives).
    rec = whistsim.simulate(
        "scotch", 230, 2026, players=4, rules={"unit": "deal"}, strategies=["random"], records=230
    ).records[229]
    assert position_of({**rec, "moves": []}).value() == 40


def test_a_trick_its_winner_is_sure_of_is_counted_for_its_side_at_once():
    # Seat 0's Ace of hearts cannot be beaten (spades trumps, no one void in hearts): after it
    # is led the trick is side 0's whatever the rest play; seat 0 then leads the 2 of clubs
    # into seat 3's 6. Side 0 takes one trick from here.
    hands = [["AH", "2C"], ["3H", "4C"], ["4H", "5C"], ["5H", "6C"]]
    pos = from_hands(WhistRules(), hands, 0, "S")
    pos.play(parse_card("AH"))
    assert pos.value() == 1


def test_the_search_counts_the_tricks_it_completes_as_dds_counts_its_nodes():
    # The AH led, 3H and 4H played: seat 3's 5H, forced, completes the trick once in the
    # search from a guess of 2 (the bound from the sure AH does not reach it), and the second
    # null-window search (at 1) is cut by that bound before any card: one trick completed.
    hands = [["AH", "2C"], ["3H", "4C"], ["4H", "5C"], ["5H", "6C"]]
    pos = from_hands(WhistRules(), hands, 0, "S")
    for card in ("AH", "3H", "4H"):
        pos.play(parse_card(card))
    assert pos.value(guess=2) == 1
    assert int(pos.X[se.STRICKS]) == 1 and int(pos.X[se.SNODES]) == 3
    # a full deal: every completed trick leads to a node of its own
    rec = whistsim.simulate("whist", 1, 3, strategies=["random"], records=1).records[0]
    pos = position_of({**rec, "moves": []})
    pos.value()
    assert 0 < int(pos.X[se.STRICKS]) < int(pos.X[se.SNODES])


def test_the_searchs_calls_take_data_pointers_and_words_and_return_one_word():
    # A call not inlined passes an array field by field (seven or nine words), and a returned
    # tuple takes a result slot in the caller's frame, which Numba zeroes on every node.
    ptr, word = types.CPointer(types.int64), types.int64
    calls = {
        alphabeta._ab: (ptr, ptr, ptr, word, word, word),
        alphabeta._last_trick: (ptr, ptr, word),
        memo._probe: (ptr, ptr, ptr, word, word, word, word),
        memo._store: (ptr, ptr, ptr, word, word, word, word, word, word),
        bounds._bound_cut: (ptr, ptr, word, word, word, word),
        moves._gen_lead: (ptr, word, ptr, word, word),
        moves._gen_follow: (ptr, word, ptr, word, word),
    }
    for fn, args in calls.items():
        fn.compile(args)  # from the kernel cache: the solver's own signatures
        ret = fn.overloads[args].signature.return_type
        assert isinstance(ret, types.Integer) or ret == types.none, (fn, ret)


# A Scotch deal (6 players in threes) whose trick cut short once lost a mark: the card winning
# a trick that beat a card of its own suit, left unmarked, let the search above take a lower
# card of that suit (which would not have won) for the same move: 9H and QH came out -42.
SURE_WINNER_DEAL = '{"game": "scotch", "rules": {"players": 6, "teams": [0, 1, 0, 1, 0, 1], "odd_six": "remove", "french": false, "target": 41, "revokes": false}, "dealer": 5, "hands": [[["8C", "8D", "9H", "QH", "JS", "QS"], ["6C", "QC", "KC", "JD", "8H", "KH"], ["AC", "KD", "6H", "6S", "7S", "8S"], ["7C", "7D", "TD", "QD", "AD", "AH"], ["JC", "9D", "7H", "TH", "KS", "AS"], ["9C", "TC", "6D", "JH", "9S", "TS"]]], "trump": "6D", "aside": null, "moves": [], "result": {"honours": [0, 30], "cards": [0, 12], "points": [0, 42], "tricks": [1, 5], "revokes": []}}'


def test_a_sure_winner_that_beat_a_card_of_its_suit_keeps_its_rank_relevant():
    pos = position_of(json.loads(SURE_WINNER_DEAL))
    best, vals = pos.best()
    margins = {card_name(c): v for c, v in vals.items()}
    assert margins == {"8C": -42, "8D": -42, "9H": -48, "QH": -48, "JS": -48, "QS": -48}
    assert sorted(card_name(c) for c in best) == ["8C", "8D"]


def test_whist_two_card_ending_the_trump_decides():
    hands = [["AH", "AD"], ["2S", "3S"], ["2H", "2D"], ["3H", "3D"]]
    # Spades trumps: seat 1, void in hearts and diamonds, ruffs both of seat 0's aces.
    assert from_hands(WhistRules(), hands, 0, "S").value() == 0
    # Clubs trumps: the aces win both tricks.
    assert from_hands(WhistRules(), hands, 0, "C").value() == 2


def test_whist_partner_overtakes_to_unblock_the_suit():
    # Seat 0 leads KH and partner (seat 2) overtakes with AH to cash QH: two tricks. Partner
    # playing low, or seat 0 leading its club, leaves the lead with seat 0's losing club.
    hands = [["KH", "2C"], ["3C", "4C"], ["AH", "QH"], ["5C", "6C"]]
    pos = from_hands(WhistRules(), hands, 0, "D")
    assert pos.value() == 2
    best, vals = pos.best()
    assert best == [37] and vals[0] == 0  # KH (card 37) two tricks, the 2C none


def test_a_squeeze_survives_small_cards_searched_once():
    # No trumps left (spades), seat 2 leads. The search tries one of a hand's small cards in
    # a suit and skips the others below every card that decided its bound; a squeeze is
    # where that would go wrong if the guards were taken for small cards. The AC squeezes
    # West, who must let go a guard (KH JH against North's AH QH, or KD against the QD)
    # before North discards: three tricks. Leading a red three first: two.
    hands = [["AH", "QH", "QD"], ["2C", "5C", "9C"], ["AC", "3D", "3H"], ["KH", "JH", "KD"]]
    pos = from_hands(WhistRules(), hands, 2, "S")
    assert pos.value() == 3
    _, vals = pos.best()
    assert vals == {parse_card("AC"): 3, parse_card("3D"): 2, parse_card("3H"): 2}


@njit(cache=True)
def _bound_cut(X, mv, d, alpha, beta, tricks):
    """bounds._bound_cut, which takes X and the moves by their data pointers."""
    return bounds._bound_cut(intrinsics._ptr(X), intrinsics._ptr(mv), d, alpha, beta, tricks)


def test_in_the_last_tricks_the_sure_tricks_cut_before_the_table_is_read():
    # Spades trumps: seat 0, on lead, holds the three top trumps and takes every trick. Every
    # bucket's first entry is made to claim, for this position's key and whatever the cards'
    # owners, that side 0 takes none: read before the sure tricks' bound, it answers 0.
    hands = [["AS", "KS", "QS"], ["2H", "3H", "4H"], ["5H", "6H", "7H"], ["8H", "9H", "TH"]]
    tt = se.new_table()
    pos = from_hands(WhistRules(), hands, 0, "S", tt)
    ka, kb, kc = memo._stored(*memo._primary(pos.X), int(tt[-1, 0]) + 1)
    first = tt[:-1].reshape(-1, se.TT_COLS, memo.BUCKET)[:, :, 0]  # a view: each bucket's first entry
    first[:] = 0
    first[:, memo.T_A], first[:, memo.T_B], first[:, memo.T_C] = ka, kb, kc
    first[:, memo.T_BOUNDS], first[:, memo.T_MOVE] = -encoding.INF << 32, -1
    for suit in range(4):  # each suit's pattern shifted past all its cards: any owners match
        first[:, memo.T_P + suit] = (
            2 * bin(int(pos.X[encoding.OREM + suit])).count("1") << intrinsics.SHIFT_AT
        )
    assert pos.value() == 3


def test_later_tricks_bound_the_side_on_lead_without_trumps_loses_a_trick():
    # Spades trumps, none left. Seat 0 leads from hearts only; seat 1, an opponent, holds the
    # AH: whatever seat 0 leads, side 0 loses this trick, so it takes at most 1 of 2. It does
    # take 1: seat 1 must then lead its club to partner's AC.
    hands = [["KH", "QH"], ["AH", "2C"], ["AC", "KC"], ["3C", "4C"]]
    pos = from_hands(WhistRules(), hands, 0, "S")
    assert bounds._later_loser(pos.X, pos.mv, 0)
    # the card that decides it: the AH (power bit 12; suits C D H S)
    assert [int(pos.mv[0, encoding.OREL + s]) for s in range(4)] == [0, 0, 1 << 12, 0]
    assert _bound_cut(pos.X, pos.mv, 0, 1, 2, 2) == 1  # below 2 tricks: at most 1
    assert pos.value() == 1
    # Partner holds the AH: seat 0 leads to it, no loser is certain.
    pos = from_hands(WhistRules(), [["KH", "QH"], ["AC", "2C"], ["AH", "KC"], ["3C", "4C"]], 0, "S")
    assert not bounds._later_loser(pos.X, pos.mv, 0)
    # A trump on side 0 (the 2S) may ruff: no loser is certain either.
    pos = from_hands(WhistRules(), [["KH", "QH"], ["AH", "2C"], ["AC", "2S"], ["3C", "4C"]], 0, "S")
    assert not bounds._later_loser(pos.X, pos.mv, 0)


def test_quick_tricks_add_partners_reached_through_an_entry():
    # Clubs trumps, none left. Seat 0 cashes the AS, then leads the 2H to partner's AH KH:
    # three tricks, the leader's one and partner's two (either alone counts at most two).
    hands = [["AS", "2H", "3D"], ["KS", "5D", "6D"], ["AH", "KH", "4D"], ["QS", "7D", "8D"]]
    pos = from_hands(WhistRules(), hands, 0, "C")
    assert bounds._quick_tricks(pos.X, pos.mv, 0, 99) == 3
    # the cards that decide it: the AS, and partner's AH KH (power bits 12, 11; suits C D H S)
    assert [int(pos.mv[0, encoding.OSCR + s]) for s in range(4)] == [0, 0, 3 << 11, 1 << 12]
    assert pos.value() == 3


def test_quick_tricks_count_a_long_suit_once_the_others_are_out_of_it():
    # Spades trumps, held by seat 0 alone. The AS draws nothing, the AH KH leave no heart
    # outside, and the 2H is a fourth trick: every card of the suit counts, not the top two.
    hands = [
        ["AS", "AH", "KH", "2H"],
        ["3H", "4H", "2C", "3C"],
        ["5H", "2D", "3D", "4D"],
        ["6H", "5C", "6C", "7C"],
    ]
    pos = from_hands(WhistRules(), hands, 0, "S")
    assert bounds._quick_tricks(pos.X, pos.mv, 0, 99) == 4
    assert [int(pos.mv[0, encoding.OSCR + s]) for s in range(4)] == [0, 0, 3 << 11, 0]
    assert pos.value() == 4


def test_quick_tricks_never_exceed_what_the_side_on_lead_takes():
    # Random Whist endings at the start of a trick, the side on lead's tricks by the
    # exhaustive search: the sure tricks are a lower bound.
    rng = np.random.default_rng(5)
    sim = whistsim.simulate("whist", 60, 9, strategies=["random"], records=60)
    for rec in sim.records:
        pos = position_of(dict(rec, moves=rec["moves"][: 4 * (13 - int(rng.integers(2, 5)))]))
        taken = final(pos, 0)  # side 0's tricks so far
        side0 = exhaustive(pos) - taken
        side = int(pos.X[se.OTEAM + pos.X[encoding.SLEADER]])
        # every count the cut asks for (each stops where it reaches the cut)
        for need in (1, 2, 3, 99):
            qt = bounds._quick_tricks(pos.X, pos.mv, 0, need)
            assert qt <= (side0 if side == 0 else pos.tricks_left - side0), (rec["moves"], need)


def test_bounds_within_a_trick_hold_against_an_exhaustive_search():
    # Random Whist endings stopped after one to three cards of a trick: wherever the bound of
    # a trick sure to be taken cuts, the exhaustive value is on its side of it.
    rng = np.random.default_rng(17)
    sim = whistsim.simulate("whist", 80, 19, strategies=["random"], records=80)
    cut = 0
    for rec in sim.records:
        k = int(rng.integers(2, 5))
        pos = position_of(dict(rec, moves=rec["moves"][: 4 * (13 - k) + int(rng.integers(1, 4))]))
        value = exhaustive(pos) - final(pos, 0)
        for b in range(k + 2):
            v = bounds._won_trick_cut(pos.X, pos.mv, 0, b - 1, b)
            if v != bounds.NOCUT:
                cut += 1
                assert (value >= v) if v >= b else (value <= v), (rec["moves"], b, v, value)
    assert cut > 0


def test_a_side_with_both_top_trumps_in_two_hands_one_guarded_takes_two_tricks():
    # Hearts trumps. Side 0 holds the AH (seat 0) and the KH (seat 2, with the 3H): two tricks,
    # though each hand alone counts one against the QH. Its bound needs the two top trumps'
    # owners: down to the KH (power bit 11).
    hands = [["AH", "2C"], ["QH", "4C"], ["KH", "3H"], ["5C", "6C"]]
    pos = from_hands(WhistRules(), hands, 0, "H")
    assert bounds._trump_control(pos.X, 99, 99) == (2, 0, 11, -1)
    assert pos.value() == 2
    # The two top trumps bare in two hands: one trick only is sure (the opponents may lead a
    # trump to make them fall together).
    pos = from_hands(WhistRules(), [["AH", "2C"], ["QH", "4C"], ["KH", "3C"], ["5C", "6C"]], 0, "H")
    assert bounds._trump_control(pos.X, 99, 99)[0] == 1


def test_a_guarded_second_trump_behind_the_top_one_of_the_side_on_lead_takes_a_trick():
    # Hearts trumps, seat 0 on lead with the AH 3H; seat 1, just after it, holds the KH 2H:
    # side 1 takes a trick whatever side 0 does (seat 1 plays the KH whenever seat 0 played
    # another card to the trick, else the 2H). Each hand alone counts none.
    hands = [["AH", "3H"], ["KH", "2H"], ["4C", "5C"], ["6C", "7C"]]
    pos = from_hands(WhistRules(), hands, 0, "H")
    assert bounds._trump_control(pos.X, 99, 99) == (1, 1, 12, 11)
    assert pos.value() == 1
    # Not when the side holding the second leads, nor with the second bare.
    pos = from_hands(WhistRules(), hands, 1, "H")
    assert bounds._trump_control(pos.X, 99, 99)[1] == 0
    pos = from_hands(WhistRules(), [["AH", "3H"], ["KH", "2C"], ["4C", "5C"], ["6C", "7C"]], 0, "H")
    assert bounds._trump_control(pos.X, 99, 99)[1] == 0


def test_trump_control_never_exceeds_what_either_side_takes():
    # Random Whist endings at the start of a trick, each side's tricks by the exhaustive
    # search: the tricks each side's trumps make sure of are lower bounds.
    rng = np.random.default_rng(11)
    sim = whistsim.simulate("whist", 120, 13, strategies=["random"], records=120)
    for rec in sim.records:
        pos = position_of(dict(rec, moves=rec["moves"][: 4 * (13 - int(rng.integers(2, 5)))]))
        c0, c1, _, _ = bounds._trump_control(pos.X, 99, 99)
        side0 = exhaustive(pos) - final(pos, 0)
        assert c0 <= side0 and c1 <= pos.tricks_left - side0, rec["moves"]


def test_a_bound_marks_only_the_trumps_its_cut_needs():
    # Spades trumps: seat 0 holds the AS KS QS over side 1's JS TS, three sure tricks. Where one
    # trick cuts (beta 1), the count stops at the AS and only its owner decides the bound (the
    # AS's power bit 12); where three are needed it goes on down to the QS (bit 10).
    hands = [
        ["AS", "KS", "QS", "2H"],
        ["JS", "3H", "4H", "5H"],
        ["6H", "7H", "8H", "9H"],
        ["TS", "2C", "3C", "4C"],
    ]
    pos = from_hands(WhistRules(), hands, 0, "S")
    assert bounds._trump_control(pos.X, 1, 99) == (1, 0, 12, -1)
    assert bounds._trump_control(pos.X, 99, 99) == (3, 0, 10, -1)
    assert _bound_cut(pos.X, pos.mv, 0, 0, 1, 4) == 1
    assert int(pos.mv[0, encoding.OREL + 3]) == 1 << 12
    assert _bound_cut(pos.X, pos.mv, 0, 2, 3, 4) == 3
    assert int(pos.mv[0, encoding.OREL + 3]) == 1 << 10
    assert _bound_cut(pos.X, pos.mv, 0, 3, 4, 4) == bounds.NOCUT  # 3 sure tricks, not 4


def test_trumps_facing_none_count_by_their_lengths_and_mark_no_trump():
    # Spades trumps, side 1 holds none: each of seat 0's two trumps takes a trick whatever its
    # rank, so the bound holds with the trumps' owners swapped (the AS to seat 0, the QS to
    # seat 2): no trump is marked.
    hands = [["QS", "3S", "2H"], ["4H", "5H", "6H"], ["AS", "9H", "8H"], ["7H", "TH", "JH"]]
    pos = from_hands(WhistRules(), hands, 1, "S")
    assert bounds._trump_control(pos.X, 99, 99)[0] == 2
    assert bounds._trump_control(pos.X, 99, 99)[2] == bounds.NOMARK
    pos.mv[0, encoding.OREL + 3] = 1
    assert _bound_cut(pos.X, pos.mv, 0, 1, 2, 3) == 2
    assert int(pos.mv[0, encoding.OREL + 3]) == 0
    assert pos.value() == 2
    swapped = [["AS", "3S", "2H"], ["4H", "5H", "6H"], ["QS", "9H", "8H"], ["7H", "TH", "JH"]]
    assert from_hands(WhistRules(), swapped, 1, "S").value() == 2
    # One small trump on side 1 and the ranks decide again: marked down to the counted trump.
    hands[3] = ["2S", "TH", "JH"]
    pos = from_hands(WhistRules(), hands, 1, "S")
    assert bounds._trump_control(pos.X, 99, 99)[2] != bounds.NOMARK


# Seat 0 holds the AD and the AH KH, each a trick with clubs trumps and none left.
CASH_THREE = [
    ["AH", "KH", "AD", "2S"],
    ["QH", "KD", "3S", "4S"],
    ["JH", "QD", "5S", "6S"],
    ["TH", "JD", "7S", "8S"],
]


def test_quick_tricks_stop_at_the_suit_that_reaches_the_cut():
    # Clubs trumps, none left. Seat 0 cashes the AD, then the AH KH: three tricks. One trick
    # needs the AD alone (suits C D H S, power bit 12); three need the hearts too.
    pos = from_hands(WhistRules(), CASH_THREE, 0, "C")
    assert bounds._quick_tricks(pos.X, pos.mv, 0, 1) == 1
    assert [int(pos.mv[0, encoding.OSCR + s]) for s in range(4)] == [0, 1 << 12, 0, 0]
    assert bounds._quick_tricks(pos.X, pos.mv, 0, 3) == 3
    assert [int(pos.mv[0, encoding.OSCR + s]) for s in range(4)] == [0, 1 << 12, 3 << 11, 0]
    assert pos.value() == 3


@njit(cache=True)
def _gen_at_root(X, mv, seat):
    return moves._gen(intrinsics._ptr(X), seat, intrinsics._ptr(mv), np.int64(0), np.int64(-1))


def test_leads_once_no_trump_is_left_are_scored_by_dds_no_trump_weights():
    # Clubs trumps, none left, seat 0 on lead (the hands of the test above). The AH (and KH)
    # wins the trick, the second-best heart with the leader: -13 for the opponents' lengths, +45,
    # +1 for the top card; +126 as the last lead to cut off. The 2S: -26 for the opponents'
    # lengths, -10 for the top two spades behind, +12 for a single card, +7 its rank from the top.
    pos = from_hands(WhistRules(), CASH_THREE, 0, "C")
    ah = (2 << 4) | 12
    assert moves._lead_dds_nt(pos.X, 0, 2, 12, 11, ah, -1, -1) == 33
    assert moves._lead_dds_nt(pos.X, 0, 2, 12, 11, ah, ah, -1) == 33 + 126
    assert moves._lead_dds_nt(pos.X, 0, 3, 0, 0, (3 << 4) | 0, -1, -1) == -17
    # _gen orders the leads by them: the AD first (49: its KD, second best, a singleton on the
    # left, +16), the AH, the 2S
    n = _gen_at_root(pos.X, pos.mv, 0)
    assert [int(pos.mv[0, k]) & 255 for k in range(n)] == [(1 << 4) | 12, ah, (3 << 4) | 0]


def _third_hand_order(hands, first_two):
    pos = from_hands(WhistRules(), hands, 0, "C")  # clubs trumps, none dealt
    for card in first_two:
        pos.play(parse_card(card))
    n = _gen_at_root(pos.X, pos.mv, 2)
    return [card_name((int(pos.mv[0, k]) >> 4 & 15) * 13 + (int(pos.mv[0, k]) & 15)) for k in range(n)]


def test_third_hand_forces_the_top_card_cheaply_and_discards_from_its_long_suit():
    # Third hand (seat 2) beats second hand's 3H but fourth hand's AH beats it: of its cards above
    # fourth hand's second heart (the TH) the cheapest, the JH, forces the ace as well as the KH
    # does and keeps the king (DDS's third-hand weights); the highest went first before.
    order = _third_hand_order([["2H", "QH", "2S"], ["3H", "3S", "4S"], ["KH", "JH", "5S"], ["AH", "TH", "6S"]],
                              ["2H", "3H"])  # fmt: skip
    assert order == ["JH", "KH"]
    # Void in hearts and without a trump: a discard from the long spades (their lowest) before
    # the lone 2D, which went first before as the lowest card.
    order = _third_hand_order([["2H", "4H", "4S", "6S"], ["3H", "5H", "3D", "4D"], ["2D", "3S", "5S", "7S"],
                               ["6H", "7H", "5D", "6D"]], ["2H", "3H"])  # fmt: skip
    assert order[0] == "3S" and order.index("3S") < order.index("2D")


@njit(cache=True)
def _top_places_by_loop(X, seat, suit):
    """The places after ``seat`` (0 itself, 1 its left, 2 partner, 3 its right; -1 for none)
    of the suit's three best cards left, each found by looping over the hands."""
    rem = X[encoding.OREM + suit]
    places = np.full(3, -1, np.int64)
    k = 0
    for bit in range(15, -1, -1):
        if k < 3 and (rem >> bit) & 1:
            for q in range(4):
                if (X[encoding.OH + 4 * q + suit] >> bit) & 1:
                    places[k] = (q - seat) & 3
            k += 1
    return places


FIRST_ALONE, CLASSES = 0, 1  # what _walk checks at every node


@njit(cache=True)
def _walk(X, mv, d, check):
    """Every node below X (every legal card, no pruning), each checked by ``check``
    (:func:`_first_alone_checked`, :func:`_classes_checked`). Returns how many nodes it checked,
    or -1 at the first that fails."""
    if X[se.SLEFT] == 0:
        return 0
    seat = se.seat_to_play(X)
    legal = se.legal_bits(X, seat)
    if check == FIRST_ALONE:
        done = _first_alone_checked(X, mv, d, seat)
    else:
        done = _classes_checked(X, mv, d, seat, legal)
    if done < 0:
        return -1
    for suit in range(4):
        for bit in range(16):
            if (legal[suit] >> bit) & 1:
                X2 = X.copy()
                se.play(X2, seat, suit, bit)
                k = _walk(X2, mv, d + 1, check)
                if k < 0:
                    return -1
                done += k
    return done


@njit(cache=True)
def _first_alone_checked(X, mv, d, seat):
    """At a trick's last card, ``moves._first_last``'s move against ``moves._gen``'s first; at a
    lead, ``moves._top_three``'s places against the hands looped over. 1 where it compared, 0
    elsewhere, -1 where they differ (or it says the only move and ``_gen`` has more)."""
    if X[encoding.SLEN] + 1 == X[encoding.SP]:
        lazy = moves._first_last(intrinsics._ptr(X), seat, intrinsics._ptr(mv), d)
        first = mv[d, 0]
        cnt = moves._gen(intrinsics._ptr(X), seat, intrinsics._ptr(mv), d, np.int64(-1))
        if lazy == 0 or first != mv[d, 0] or (lazy == 1 and cnt != 1):
            return -1
        return 1
    if X[encoding.SLEN] == 0:
        for suit in range(4):
            hl = X[encoding.OH + 4 * ((seat + 1) & 3) + suit]
            hp = X[encoding.OH + 4 * ((seat + 2) & 3) + suit]
            hr = X[encoding.OH + 4 * ((seat + 3) & 3) + suit]
            rem = X[encoding.OREM + suit]
            if rem:
                top = moves._top_three(hl, hp, hr, rem)
                places = _top_places_by_loop(X, seat, suit)
                if top[2] != places[0] or top[3] != places[1] or top[4] != places[2]:
                    return -1
        return 1
    return 0


@njit(cache=True)
def _first_alone_at_root(X, mv):
    seat = se.seat_to_play(X)
    return moves._first_last(intrinsics._ptr(X), seat, intrinsics._ptr(mv), np.int64(0))


def test_the_first_move_found_alone_is_gens_first():
    # The search orders the moves at a trick's last card only when the first, found alone,
    # does not cut off: it must be _gen's first at every node (card, class, score word). And
    # the lead's weights read the places of each suit's top three cards from the hands' bits,
    # not by a loop over the hands: the same places at every lead.
    done = 0
    for _, rec in endings("whist", 4, {"unit": "deal"}, 40, 17, most=4):
        pos = position_of(rec)
        k = int(_walk(pos.X.copy(), pos.mv, np.int64(0), FIRST_ALONE))
        assert k >= 0, rec["moves"]
        done += k
    assert done > 100000
    # cards that carry points: _gen orders them all
    pos = position_of(next(endings("scotch", 4, {}, 1, 17))[1])
    assert _first_alone_at_root(pos.X, pos.mv) == 0
    # the lead's weights divide the opponents' lengths (two hands of up to 13, scaled by 128)
    # by a multiply
    assert all(moves._div13(x) == x // 13 and moves._div19(x) == x // 19 for x in range(27 << 7))


@njit(cache=True)
def _classes_checked(X, mv, d, seat, legal):
    """``moves._gen``'s moves against what a class is. Each move's cards, from its lowest to its
    highest, are the seat's, with no card of another hand or of the trick between them and none
    that carries points unless alone; the next card of the seat above or below is another
    class's; the classes are the legal cards. 1, or -1 where one is not."""
    cnt = moves._gen(intrinsics._ptr(X), seat, intrinsics._ptr(mv), d, np.int64(-1))
    seen = np.zeros(4, np.int64)
    for k in range(cnt):
        w = mv[d, k]
        suit, rep, low = (w >> 4) & 15, w & 15, (w >> 8) & 15
        m = X[encoding.OH + 4 * seat + suit]
        others = (X[encoding.OTM + suit] | X[encoding.OREM + suit]) & ~m
        pm = X[encoding.OPM + suit]
        span = ((2 << rep) - 1) & ~((1 << low) - 1)
        cls = m & span
        if low > rep or not (m >> rep) & 1 or not (m >> low) & 1 or others & span or seen[suit] & cls:
            return -1
        if cls & (cls - 1) and pm & cls:
            return -1
        above = m & ~((2 << rep) - 1)
        if above:
            a = 0
            while not (above >> a) & 1:
                a += 1
            if not (pm >> a) & 1 and not (pm >> rep) & 1 and not others & ((1 << a) - 1) & ~((2 << rep) - 1):
                return -1
        below = m & ((1 << low) - 1)
        if below:
            b = 15
            while not (below >> b) & 1:
                b -= 1
            if not (pm >> b) & 1 and not (pm >> low) & 1 and not others & ((1 << low) - 1) & ~((2 << b) - 1):
                return -1
        seen[suit] |= cls
    for suit in range(4):
        if seen[suit] != legal[suit]:
            return -1
    return 1


def test_gens_classes_are_runs_of_the_seats_cards():
    # _gen finds a class a step (from its highest card down to the next card of another hand or
    # of the trick, or to one that carries points), not a card a step: the same classes, in
    # Whist and in Scotch Whist (points) with 4 and 6 players.
    done = 0
    for game, players, rules in (
        ("whist", 4, {"unit": "deal"}),
        ("scotch", 4, {}),
        ("scotch", 6, {"teams": [0, 1] * 3}),
    ):
        for _, rec in endings(game, players, rules, 8, 5, most=3):
            pos = position_of(rec)
            k = int(_walk(pos.X.copy(), pos.mv, np.int64(0), CLASSES))
            assert k >= 0, (game, players, rec["moves"])
            done += k
    assert done > 10000


def test_owner_codes_by_pext_match_the_plain_loop():
    # The table's key per suit: the owner of each card left, lowest card in the low bits (2 bits
    # a card). Seats 0-3 hold AS 2S / KS / QS 3S / (none): from the 2S up, owners 0 2 2 1 0.
    pos = from_hands(WhistRules(), [["AS", "2S"], ["KS", "2H"], ["QS", "3S"], ["3H", "4H"]], 0, "C")
    memo._codes_loop(pos.X, pos.mv, 0)
    assert int(pos.mv[0, encoding.OCODE + 3]) == 0 | 2 << 2 | 2 << 4 | 1 << 6 | 0 << 8
    if not memo.FAST_PDEP:
        return
    rng = np.random.default_rng(7)
    for _ in range(200):  # random four-hand splits of the cards left, any size
        pos.X[encoding.OH : encoding.OH + 16] = 0
        for card in rng.permutation(52)[: int(rng.integers(1, 53))]:
            suit, rank = divmod(int(card), 13)
            pos.X[encoding.OH + 4 * int(rng.integers(0, 4)) + suit] |= 1 << rank
        for suit in range(4):  # the cards left per suit, as the search keeps them
            pos.X[encoding.OREM + suit] = np.bitwise_or.reduce(
                pos.X[encoding.OH + suit : encoding.OH + 16 : 4]
            )
        memo._codes_loop(pos.X, pos.mv, 0)
        loop = pos.mv[0, encoding.OCODE : encoding.OCODE + 4].copy()
        memo._codes_pext(pos.X, pos.mv, 0)
        assert list(pos.mv[0, encoding.OCODE : encoding.OCODE + 4]) == list(loop)


@njit
def _compares(a, v):
    p = intrinsics._ptr(a)
    return (
        intrinsics._eq8(p, 8, v, 0),
        intrinsics._beq8(p, 8, v, 3),
        intrinsics._ge8(p, 8, v, 0),
        intrinsics._le8(p, 8, v, 0),
        intrinsics._meq8(p, 8, v, 16),
        intrinsics._seq8(p, 8, v, 0),
        intrinsics._hge8(p, 8, v, 0),
        intrinsics._lle8(p, 8, v, 0),
    )


def test_table_vector_compares_agree_with_numpy():
    # The probe tests 8 entries' column at once; bit i is entry i's answer (words 8 to 15
    # here, and 16 to 23 for the masked compare's other column; the generation's compare masks
    # by a constant), signed values included.
    rng = np.random.default_rng(3)
    for _ in range(200):
        a = rng.integers(-5, 5, 24).astype(np.int64)
        v = int(rng.integers(-5, 5))
        x, y = a[8:16], a[16:24]
        want = [x == v, (x & 3) == v, x >= v, x <= v, (x & v) == y]
        assert _compares(a, v)[:5] == tuple(sum(1 << i for i in range(8) if w[i]) for w in want)
        # a table's pattern word: the shift in its top bits, the code shifted down below them
        sh = rng.integers(0, 40, 8)
        c = int(rng.integers(0, 1 << 39))
        a[8:16] = (
            np.where(rng.random(8) < 0.5, c >> sh, rng.integers(0, 1 << 39, 8)) | sh << intrinsics.SHIFT_AT
        )
        want = (c >> sh) == (a[8:16] & ((1 << intrinsics.SHIFT_AT) - 1))
        assert _compares(a, c)[5] == sum(1 << i for i in range(8) if want[i])
        # a table's bounds word: the lower bound in the high 32 bits, the upper in the low
        lo, hi = rng.integers(-5, 5, 8), rng.integers(-5, 5, 8)
        a[8:16] = lo << 32 | hi & 0xFFFFFFFF
        want = [lo >= v, hi <= v]
        assert _compares(a, v)[6:] == tuple(sum(1 << i for i in range(8) if w[i]) for w in want)


@njit
def _reads(X, q, suit, i):
    return encoding._held(X, q, suit), encoding._side(X, q), X[intrinsics._u(i)]


def test_position_reads_are_the_arrays_words():
    # _held and _side are intrinsics (a hand's word, a seat's side), _u an unsigned index: each
    # reads the word that plain indexing reads, for every seat and suit, 32-bit indices included.
    X = np.random.default_rng(5).integers(-(1 << 40), 1 << 40, encoding.N_X).astype(np.int64)
    for q in range(8):
        for suit in range(4):
            i = np.int32(encoding.OH + 4 * q + suit)
            assert _reads(X, np.int64(q), np.int64(suit), i) == (X[i], X[encoding.OTEAM + q], X[i])
            assert _reads(X, np.int32(q), np.int32(suit), np.int64(i))[:2] == (X[i], X[encoding.OTEAM + q])


def test_scotch_margin_counts_honours_and_cards():
    # Spades trumps; seat 0 leads. J and T of trumps fall together (11 + 10 points and
    # 4 cards, +2 each side's cards margin), the heart trick goes to side 1 (-2).
    hands = [["JS", "6H"], ["TS", "7H"], ["8H", "9H"], ["AH", "KH"]]
    assert from_hands(ScotchRules(), hands, 0, "S").value() == 2 + 21 - 2


def test_scotch_trump_jack_outranks_the_ace():
    # Seat 1 holds the trump Jack, which in Scotch Whist beats the Ace: it takes the Ace.
    hands = [["AS", "6H"], ["JS", "7H"], ["8H", "9H"], ["TH", "KH"]]
    pos = from_hands(ScotchRules(), hands, 0, "S")
    # Whatever seat 0 leads, seat 1's JS takes A (4) and J (11) in one trick and side 1
    # takes the heart trick too: -(2 + 15) - 2.
    assert pos.value() == -19


def test_cards_left_per_suit_kept_as_cards_are_played():
    # X[OREM + suit] is every hand's cards of the suit, from the load (mid-trick included)
    # through every card played to the deal's end.
    rng = np.random.default_rng(11)
    sim = whistsim.simulate("scotch", 4, 3, strategies=["random"], records=4)
    for rec in sim.records[:4]:
        pos = position_of(dict(rec, moves=rec["moves"][: int(rng.integers(0, 30))]))
        X = pos.X
        while True:
            p = int(X[encoding.SP])
            for suit in range(4):
                hands = 0
                for q in range(p):
                    hands |= int(X[encoding.OH + 4 * q + suit])
                assert int(X[encoding.OREM + suit]) == hands
            if X[se.SLEFT] == 0:
                break
            seat = se.seat_to_play(X)
            legal = [(s, b) for s, m in enumerate(se.legal_bits(X, seat)) for b in range(16) if (m >> b) & 1]
            suit, bit = legal[int(rng.integers(0, len(legal)))]
            se.play(X, seat, suit, bit)


def test_the_play_out_guess_is_a_line_of_play_and_the_value_does_not_depend_on_it():
    # playout() plays the position out without search: a real line of play (Whist: 0 to the
    # tricks left, exact when one card each is left), one more as MTD(f)'s guess; X untouched.
    # mtdf() finds the same value from any guess.
    sim = whistsim.simulate("whist", 6, 21, rules={"unit": "deal"}, strategies=["random"], records=6)
    for rec in sim.records[:6]:
        for cut in (0, 17, 30, 49):
            pos = position_of(dict(rec, moves=rec["moves"][:cut]))
            before = pos.X.copy()
            line = int(se.playout(pos.X, pos.mv)) - 1
            assert np.array_equal(pos.X, before)
            assert 0 <= line <= pos.tricks_left
            values = set()
            for guess in (line + 1, -3, 0, pos.tricks_left + 4):
                pos.tt[:] = 0
                values.add(int(se.mtdf(pos.X, pos.tt, pos.mv, guess)))
            assert len(values) == 1
    for _, rec in endings("whist", 4, {}, 8, 5, most=1):
        pos = position_of(rec)
        assert int(se.playout(pos.X, pos.mv)) - 1 == pos.value() - pos.secured


def test_the_search_takes_back_every_card_it_plays():
    # _ab keeps the trick's cards in the row's scratch words (mv[d, OSCR + suit]) while it
    # searches a trick's last card, and the relevant cards in rows d and d + 1: X after a search
    # from inside a trick is X before, but for the counters.
    recs = whistsim.simulate("whist", 2, 5, rules={"unit": "deal"}, strategies=["random"], records=2).records
    recs += whistsim.simulate("scotch", 1, 7, players=6, rules={"teams": [0, 1] * 3}, records=1).records
    keep = np.ones(se.N_X, bool)
    keep[[se.SNODES, se.STRICKS]] = False
    searched = 0
    for rec in recs:
        for cut in range(21, 45, 3):
            pos = position_of(dict(rec, moves=rec["moves"][:cut]))
            if int(pos.X[encoding.SLEN]) == 0:
                continue
            searched += 1
            before = pos.X.copy()
            pos.mv[:] = -1  # stale words: the search must not read them
            pos.value()
            assert np.array_equal(pos.X[keep], before[keep])
    assert searched >= 15


# ---- agreement with the exhaustive search ----------------------------------------------


@pytest.mark.parametrize("game,players,rules", SETUPS)
def test_every_ending_agrees_with_an_exhaustive_search(game, players, rules):
    n = 0
    for _, rec in endings(game, players, rules, 12, 11, most=4 if players == 4 else 3):
        pos = position_of(rec)
        assert final(pos, pos.value()) == exhaustive(pos), rec["moves"]
        n += 1
    assert n == 12


def test_five_card_whist_endings_agree_with_an_exhaustive_search():
    rng = np.random.default_rng(3)
    sim = whistsim.simulate("whist", 3, 5, strategies=["random"], records=3)
    for rec in sim.records[:3]:
        cut = 4 * 8 + int(rng.integers(0, 4))
        pos = position_of(dict(rec, moves=rec["moves"][:cut]))
        assert final(pos, pos.value()) == exhaustive(pos)


@njit(cache=True)
def _plain_alpha_beta(X, alpha, beta):
    """The rest of the deal's value for side 0 by plain alpha-beta on the search's own position:
    every legal card, no table, no equivalent cards, no sure-trick bounds."""
    if X[se.SLEFT] == 0:
        return 0
    seat = se.seat_to_play(X)
    legal = se.legal_bits(X, seat)
    maxing = X[se.OTEAM + seat] == 0
    best = -se.INF if maxing else se.INF
    for suit in range(4):
        for bit in range(16):
            if not (legal[suit] >> bit) & 1:
                continue
            X2 = X.copy()
            gain = se.play(X2, seat, suit, bit)
            v = gain + _plain_alpha_beta(X2, alpha - gain, beta - gain)
            if maxing:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                return best
    return best


def plain_values(pos) -> dict[int, int]:
    """Each legal card's value (as ``Position.move_values`` gives it) by :func:`_plain_alpha_beta`."""
    seat = int(se.seat_to_play(pos.X))
    legal = se.legal_bits(pos.X, seat)
    out = {}
    for suit in range(4):
        for bit in range(16):
            if (int(legal[suit]) >> bit) & 1:
                X2 = pos.X.copy()
                gain = int(se.play(X2, seat, suit, bit))
                card = suit * 13 + int(from_power(bit))
                out[card] = pos.secured + gain + int(_plain_alpha_beta(X2, -se.INF, se.INF))
    return out


@pytest.mark.parametrize(
    "game,players,rules,cards,n",
    [("whist", 4, {"unit": "deal"}, 4, 200), ("scotch", 4, {}, 4, 300), ("scotch", 6, {"teams": "threes"}, 4, 300),
     ("scotch", 8, {"teams": "fours"}, 3, 200), ("scotch", 4, {"french": "true"}, 4, 200)],
)  # fmt: skip
def test_every_cards_value_agrees_with_a_plain_alpha_beta(game, players, rules, cards, n):
    # Each card's value, stopped anywhere in a trick with about ``cards`` cards a hand left, is
    # checked against a search with none of the pruning rules: a rule that marks too few cards
    # relevant (as the won-trick cut once did) shows up as a wrong value for some card here.
    sim = whistsim.simulate(game, n, 5, players=players, rules=rules, strategies=["random"], records=n)
    for i, rec in enumerate(sim.records[:n]):
        hand = len(rec["hands"][0][0])
        rec = dict(rec, moves=rec["moves"][: players * (hand - cards) + i % players])
        pos = position_of(rec)
        assert pos.move_values()[1] == plain_values(pos), (i, rec["moves"])


# ---- best moves -----------------------------------------------------------------------


@pytest.mark.parametrize("game,players,rules", SETUPS[:3])
def test_no_card_beats_a_best_card_and_a_best_card_keeps_the_value(game, players, rules):
    for _, rec in endings(game, players, rules, 8, 21, most=6):
        pos = position_of(rec)
        v = final(pos, pos.value())
        best, vals = pos.best()
        side0 = int(pos.core["table"]["team"][pos.seat]) == 0
        for w in vals.values():
            w = final(pos, w)
            assert (w <= v) if side0 else (w >= v)  # no card does better than the value
        assert {final(pos, vals[c]) for c in best} == {v}
        pos.play(best[-1])
        assert final(pos, pos.value()) == v  # solving after a best card gives the same value


def test_whist_json_gives_the_tricks_from_the_trick_in_progress():
    sim = whistsim.simulate("whist", 1, 2, strategies=["heuristic"], records=1)
    rec = sim.records[0]
    mid = dict(rec, moves=rec["moves"][:22])  # two cards into the sixth trick
    out = solve_line(4, json.dumps(mid), moves=True)
    assert set(out) == {"line", "tricks", "seat", "moves", "best"}
    assert out["line"] == 4 and sum(out["tricks"]) == 8
    assert all(sum(m["tricks"]) == 8 for m in out["moves"])
    best = [m for m in out["moves"] if m["card"] in out["best"]]
    assert best and all(m["tricks"] == out["tricks"] for m in best)
    done = solve_record(rec)
    assert done == {"tricks": [0, 0]}  # the deal is over


def test_scotch_points_are_the_final_totals_of_a_best_line():
    sim = whistsim.simulate("scotch", 1, 4, strategies=["heuristic"], records=1)
    rec = sim.records[0]
    over = solve_record(rec)
    assert over["points"] == rec["result"]["points"]  # the deal played: its own score
    mid = solve_record(dict(rec, moves=rec["moves"][:10]))
    assert set(mid) == {"points", "margin"}
    assert mid["points"][0] - mid["points"][1] == mid["margin"]
    pos = position_of(dict(rec, moves=rec["moves"][:10]))
    assert pos.value() == mid["margin"]


def test_bad_records_get_replay_error_objects():
    sim = whistsim.simulate("whist", 1, 2, strategies=["random"], records=1)
    rec = sim.records[0]
    assert solve_line(0, "{not json") == {
        "line": 0,
        "move": None,
        "error": "bad JSON: Expecting property name enclosed in double quotes at column 2",
    }
    out = solve_line(1, json.dumps(dict(rec, moves=rec["moves"][:3] + ["0:ZZ"])))
    assert out["line"] == 1 and out["move"] == 3 and "not a card" in out["error"]
    welsh = whistsim.simulate("welsh", 1, 2, records=1).records[0]
    assert "whist and scotch" in solve_line(2, json.dumps(welsh))["error"]
    three = whistsim.simulate("scotch", 1, 2, players=6, records=1).records[0]  # three pairs
    assert "two sides" in solve_line(3, json.dumps(three))["error"]


def test_solve_command_prints_one_json_object_a_line_and_fails_on_bad_records(tmp_path):
    from click.testing import CliRunner

    from whistsim.cli import main

    rec = whistsim.simulate("whist", 1, 2, strategies=["random"], records=1).records[0]
    path = tmp_path / "deals.jsonl"
    good = dict(rec, moves=rec["moves"][:36])
    path.write_text(json.dumps(good) + "\n\n" + json.dumps(dict(rec, moves=["3:AS"])) + "\n")
    out = CliRunner().invoke(main, ["solve", str(path), "--json"])
    lines = [json.loads(x) for x in out.stdout.splitlines()]
    assert out.exit_code == 1
    assert lines[0] == {"line": 0, "tricks": solve_record(good)["tricks"]}
    assert lines[1]["line"] == 2 and lines[1]["move"] == 0 and "error" in lines[1]
    ok = CliRunner().invoke(main, ["solve", str(path).replace("deals", "none")])
    assert ok.exit_code == 2 and "cannot read" in ok.output


def _three_deals():
    return whistsim.simulate("whist", 3, 5, rules={"unit": "deal"}, strategies=["random"], records=3).records


def test_a_table_cleared_for_a_new_deal_searches_it_as_a_fresh_table_does():
    # clear_table moves the table to its next generation and writes nothing else: the entries
    # of the one before count as empty (a stale table's entries hold, but change the search)
    first, second, _ = _three_deals()
    fresh = position_of({**second, "moves": []})
    value = fresh.value()
    tt = se.new_table()
    position_of({**first, "moves": []}, tt).value()
    stale = position_of({**second, "moves": []}, tt.copy())
    assert stale.value() == value
    assert int(stale.X[se.SNODES]) != int(fresh.X[se.SNODES])
    before = tt.copy()
    se.clear_table(tt)
    assert tt[-1, 0] == 1 and np.array_equal(tt[:-1], before[:-1])
    cleared = position_of({**second, "moves": []}, tt)
    assert cleared.value() == value and int(cleared.X[se.SNODES]) == int(fresh.X[se.SNODES])
    for bad in (tt[:, :-1], tt[:-1], tt[:-1].reshape(-1)):
        with pytest.raises(ValueError):
            se.clear_table(bad)


def test_a_table_whose_generations_run_out_is_zeroed_and_counts_again():
    # the last generation's clear zeroes every entry's first key word and starts again at the
    # first generation, whose own entries (the first deal's here) must not come back
    first, second, third = _three_deals()
    fresh = position_of({**third, "moves": []})
    value = fresh.value()
    tt = se.new_table()
    position_of({**first, "moves": []}, tt).value()  # generation 1
    tt[-1, 0] = memo.GENERATIONS - 2  # the last generation
    position_of({**second, "moves": []}, tt).value()
    se.clear_table(tt)
    assert tt[-1, 0] == 0
    assert (
        not tt[:-1]
        .reshape(-1, se.TT_COLS * memo.BUCKET)[:, memo.T_A * memo.BUCKET : (memo.T_A + 1) * memo.BUCKET]
        .any()
    )
    cleared = position_of({**third, "moves": []}, tt)
    assert cleared.value() == value and int(cleared.X[se.SNODES]) == int(fresh.X[se.SNODES])
    tt[-1, 0] = memo.GENERATIONS - 1  # no generation: never searched with
    with pytest.raises(ValueError):
        position_of({**third, "moves": []}, tt).value()
