"""The dealt games' pimc spends its worlds: equivalent cards merged, candidates raced (docs/pimc.md)."""

from __future__ import annotations

import math

import numpy as np
from test_dealt_support import SCOTCH4, WHIST, cards, hidden_exchanges, record, state_after

from whistsim.core.cards import parse_card
from whistsim.games.dealt.kernels import decide_now
from whistsim.games.dealt.players import PLAYERS, pimc

# Whist, dealer 3, spades trumps: seat 1 holds 6C 8C 9C, and the 7C is seat 0's
WHIST_HANDS = [[cards("7C 2D 3D 4D 5D 6D 2H 3H 4H 5H 6H 7H 8H"), cards("6C 8C 9C 7D 8D 9D TD 9H TH JH QH KH AH"),
                cards("2C 3C 4C 5C JD QD KD AD 2S 3S 4S 5S 6S"), cards("TC JC QC KC AC 7S 8S 9S TS JS QS KS AS")]]  # fmt: skip
# Scotch Whist, dealer 3, hearts trumps (the 9H turned up)
SCOTCH_HANDS = [[cards("JH 6C 7C 8C 9C TC JC QC KC"), cards("6H 6D 7D 8D 9D TD JD QD KD"),
                 cards("TH 7H 6S 7S 8S 9S TS JS QS"), cards("AH KH QH 8H 9H AC AD AS KS")]]  # fmt: skip


def _classes(buf, seat):
    lows, highs = pimc.classes_of(buf, seat)
    name = {parse_card(c): c for s in "CDHS" for c in (r + s for r in "23456789TJQKA")}
    return sorted((name[int(a)], name[int(b)]) for a, b in zip(lows, highs, strict=True))


def _as_pimc(buf, **params):
    seats = buf[0]["core"]["seats"]
    seats["strategy"][:] = PLAYERS.index(pimc)
    for i, (key, p) in enumerate(pimc.PARAMS.items()):
        seats["params"][:, i] = params.get(key, p.default)
    seats["rng"][:, 0] = 12345
    return buf


def test_pimc_knows_its_place_among_the_players():
    assert PLAYERS.index(pimc) == pimc.ID


def test_equivalent_cards_are_one_candidate():
    # leading, Scotch: the clubs 6 to K are one class; the trump Jack counts, a class of its own
    buf = state_after(record("scotch", SCOTCH4, 3, SCOTCH_HANDS, "9H"))
    assert _classes(buf, 0) == [("6C", "KC"), ("JH", "JH")]


def test_a_card_in_the_trick_parts_its_neighbours_and_a_finished_trick_joins_them():
    buf = state_after(record("whist", WHIST, 3, WHIST_HANDS, "AS", ["0:7C"]))
    assert _classes(buf, 1) == [("6C", "6C"), ("8C", "9C")]  # the 8 beats the 7 on the table, the 6 not
    moves = ["0:7C", "1:9C", "2:2C", "3:TC", "3:JC", "0:2D"]  # the 7C gone with the first trick
    buf = state_after(record("whist", WHIST, 3, WHIST_HANDS, "AS", moves))
    assert _classes(buf, 1) == [("6C", "8C")]


def test_whist_trumps_merge_but_scotch_counting_cards_do_not():
    buf = state_after(record("whist", WHIST, 3, WHIST_HANDS, "AS", ["0:2H"]))
    assert _classes(buf, 1) == [("9H", "AH")]  # Whist counts tricks only
    moves = ["0:6C", "1:6D", "2:6S", "3:AC"]  # seat 3 wins with the AC and leads
    buf = state_after(record("scotch", SCOTCH4, 3, SCOTCH_HANDS, "9H", moves))
    assert _classes(buf, 3) == [
        ("8H", "9H"),
        ("AD", "AD"),
        ("AH", "AH"),
        ("KH", "KH"),
        ("KS", "AS"),
        ("QH", "QH"),
    ]


def test_a_forced_class_is_played_without_a_search():
    moves = ["0:7C", "1:9C", "2:2C", "3:TC", "3:JC", "0:2D"]
    buf = _as_pimc(state_after(record("whist", WHIST, 3, WHIST_HANDS, "AS", moves)))
    before = buf[0]["core"]["seats"]["rng"].copy()
    assert decide_now(buf) == parse_card("6C")  # the lowest of 6C 8C, one class
    assert (buf[0]["core"]["seats"]["rng"] == before).all()  # no world sampled
    buf = _as_pimc(state_after(record("whist", WHIST, 3, WHIST_HANDS, "AS", moves)), merge=0)
    assert decide_now(buf) in (parse_card("6C"), parse_card("8C"))
    assert (buf[0]["core"]["seats"]["rng"] != before).any()  # without merge both are played out


def test_the_race_drops_only_clear_losers_and_never_the_leader():
    # the value of each candidate (column) in each world (row); the last row holds _race's totals
    vals = np.array([[3, 1, 3, 2], [3, 1, 2, 2], [2, 0, 3, 1], [3, 1, 2, 2], [0, 0, 0, 0]], np.float64)
    alive = np.ones(4, np.bool_)
    assert pimc._race(vals, 4, alive, 4, 2.0) == 2
    assert alive.tolist() == [True, False, True, False]  # behind by 2 and 1 in every world: dropped
    alive = np.ones(4, np.bool_)  # 0.25 behind on average, standard error 0.48: kept at 2, dropped at 0.4
    assert pimc._race(vals, 4, alive, 4, 0.4) == 1 and alive.tolist() == [True, False, False, False]
    alive = np.array([True, False, True, True])  # a dropped candidate stays dropped
    assert pimc._race(vals, 4, alive, 4, 2.0) == 2 and not alive[1]


def _plain_race(vals, w, alive, z):
    """The race as stated: the leader the first of the best totals, each live candidate's mean
    paired deficit to it against ``z`` standard errors (sums in the worlds' order, as the search's)."""
    totals = {j: sum(vals[i, j] for i in range(w)) for j in range(len(alive)) if alive[j]}
    lead = max(totals, key=totals.get)  # the first of the best
    for j in totals:
        if j != lead:
            deficits = [vals[i, lead] - vals[i, j] for i in range(w)]
            mean = sum(deficits) / w
            se = math.sqrt(sum((d - mean) * (d - mean) for d in deficits) / (w - 1) / w)
            if mean > 0 and mean > z * se:
                alive[j] = False
    return int(alive.sum())


def test_the_race_keeps_its_totals_as_the_leader_sums_them():
    # search races after every world from RACE_FROM on; _race's running totals pick the leader
    # (and so drop the candidates) the plain statement does, values in thirds too (three sides)
    gen = np.random.default_rng(5)
    drops = 0
    for _ in range(300):
        worlds, n = 16, int(gen.integers(2, 8))
        vals = np.zeros((worlds + 1, n))
        vals[:worlds] = gen.integers(-4, 5, (worlds, n)) / 3 + gen.integers(0, 2, n)
        alive = np.ones(n, np.bool_)
        ref = alive.copy()
        for w in range(pimc.RACE_FROM, worlds):
            assert pimc._race(vals, w, alive, n, 1.0) == _plain_race(vals, w, ref, 1.0)
            assert alive.tolist() == ref.tolist()
        drops += n - int(alive.sum())
    assert drops > 300


def test_merged_and_raced_pimc_decides_on_what_its_seat_sees_alone():
    # Exchange the lowest card of a suit between two other seats that both hold it (never the
    # turn-up): the voids shown, the hand sizes and the cards played stay as they were.
    moves = ["0:7C", "1:9C", "2:2C", "3:TC", "3:QC"]  # seat 0 showed out of clubs
    for seat_moves in (moves[:1], moves):
        buf = _as_pimc(state_after(record("whist", WHIST, 3, WHIST_HANDS, "AS", seat_moves)))
        before = decide_now(buf.copy())
        swapped = 0
        for hidden in hidden_exchanges(buf):
            assert decide_now(hidden) == before
            swapped += 1
        assert swapped > 0
