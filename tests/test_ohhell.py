"""Oh Hell: each rule point on a hand-made deal, the schedules, the scorings, records that
replay, properties of simulated games, and a pinned play-through."""

from __future__ import annotations

import numba
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import whistsim
from whistsim.core.cards import parse_card
from whistsim.core.options import RuleError
from whistsim.core.strategy import parse_spec
from whistsim.games import MoveError, RecordError, get_game, seating
from whistsim.games.ohhell.engine import BID_BASE, SCORINGS, bid_points, deal_round
from whistsim.games.ohhell.kernels import new_state
from whistsim.games.ohhell.records import legal_moves, load, replay, step
from whistsim.games.ohhell.rules import OhHellRules
from whistsim.harness import events as ev
from whistsim.harness.events import told

ONE = {"players": 3, "schedule": "fixed", "tricks": 1, "rounds": 1}  # one hand of one card


def rules_of(**over) -> dict:
    return OhHellRules.make("standard", **over).to_record()


def record(
    rules: dict, first: int, deals: list[tuple[list[list[str]], str | None]], moves: list[str]
) -> dict:
    p = rules["players"]
    return {"game": "ohhell", "rules": rules, "first": first, "moves": moves,
            "deals": [{"dealer": (first - 1 + k) % p, "hands": h, "trump": t} for k, (h, t) in enumerate(deals)]}  # fmt: skip


def test_a_trump_beats_the_suit_led_and_each_bid_made_scores_ten_plus_the_bid():
    rec = record(rules_of(**ONE), 0, [([["AH"], ["2S"], ["KH"]], "3S")],
                 ["0:bid 1", "1:bid 1", "2:bid 0", "0:AH", "1:2S", "2:KH"])  # fmt: skip
    assert replay(rec) == {"points": [0, 11, 10], "made": [0, 1, 1], "tricks": [0, 1, 0]}


def test_the_highest_card_of_the_suit_led_wins_when_no_trump_is_played():
    rec = record(rules_of(**ONE), 0, [([["QH"], ["2C"], ["KH"]], "3S")],
                 ["0:bid 0", "1:bid 0", "2:bid 0", "0:QH", "1:2C", "2:KH"])  # fmt: skip
    assert replay(rec)["tricks"] == [0, 0, 1]


def test_a_player_able_to_follow_suit_must():
    rules = rules_of(players=3, schedule="fixed", tricks=2, rounds=1)
    rec = record(rules, 0, [([["AH", "2C"], ["3H", "4S"], ["KH", "5C"]], "3S")],
                 ["0:bid 0", "1:bid 0", "2:bid 0", "0:AH", "1:4S"])  # fmt: skip
    with pytest.raises(MoveError, match="can follow suit") as e:
        replay(rec)
    assert e.value.index == 4


def test_the_hook_forbids_the_dealer_exactly_the_bid_that_makes_the_bids_add_up():
    for hook, dealer_bids in ((True, [BID_BASE + 0]), (False, [BID_BASE + 0, BID_BASE + 1])):
        rec = record(
            rules_of(**ONE, hook=hook), 0, [([["AH"], ["2S"], ["KH"]], "3S")], ["0:bid 0", "1:bid 0"]
        )
        d = load(rec)
        for a in d.actions:
            assert step(d.buf, int(a)) == 0
        assert legal_moves(d.buf) == dealer_bids
    rec = record(rules_of(**ONE), 0, [([["AH"], ["2S"], ["KH"]], "3S")], ["0:bid 0", "1:bid 0", "2:bid 1"])
    with pytest.raises(MoveError, match="the hook"):
        replay(rec)


def test_only_the_dealer_is_bound_by_the_hook():
    rec = record(rules_of(**ONE), 0, [([["AH"], ["2S"], ["KH"]], "3S")], ["0:bid 1"])
    d = load(rec)
    assert step(d.buf, int(d.actions[0])) == 0
    assert legal_moves(d.buf) == [BID_BASE, BID_BASE + 1]  # seat 1 may make the total 1


def test_bids_come_before_cards_and_run_from_0_to_the_hand_size():
    base = [([["AH"], ["2S"], ["KH"]], "3S")]
    with pytest.raises(MoveError, match="a bid is owed"):
        replay(record(rules_of(**ONE), 0, base, ["0:AH"]))
    with pytest.raises(MoveError, match="from 0 to the number of cards"):
        replay(record(rules_of(**ONE), 0, base, ["0:bid 2"]))
    with pytest.raises(MoveError, match="a card is owed"):
        replay(record(rules_of(**ONE), 0, base, ["0:bid 0", "1:bid 0", "2:bid 0", "0:bid 0"]))
    with pytest.raises(MoveError, match="out of turn"):
        replay(record(rules_of(**ONE), 0, base, ["1:bid 0"]))


@pytest.mark.parametrize(
    ("over", "sizes"),
    [
        ({"players": 4}, list(range(13, 0, -1)) + list(range(2, 14))),
        ({"players": 4, "schedule": "up"}, list(range(1, 14))),
        ({"players": 5, "schedule": "down"}, list(range(10, 0, -1))),
        ({"players": 3}, list(range(17, 0, -1)) + list(range(2, 18))),
        ({"players": 7, "tricks": 3}, [3, 2, 1, 2, 3]),
        ({"players": 6, "schedule": "fixed"}, [8] * 6),
        ({"players": 4, "schedule": "fixed", "tricks": 5, "rounds": 9}, [5] * 9),
    ],
)
def test_the_schedule_of_hand_sizes(over, sizes):
    r = OhHellRules.make("standard", **over)
    assert r.sizes() == sizes
    sim = whistsim.simulate("ohhell", n=2, seed=1, rules=over, records=1)
    assert [len(d["hands"][0]) for d in sim.records[0]["deals"]] == sizes


def test_no_trump_when_no_card_is_left_to_turn_or_by_the_no_trump_rule():
    full = whistsim.simulate(
        "ohhell", n=1, seed=2, rules={"players": 4, "schedule": "down", "tricks": 13}, records=1
    )
    assert [d["trump"] is None for d in full.records[0]["deals"]] == [True] + [False] * 12  # 52 dealt exactly
    rules = {"players": 5, "schedule": "down", "no_trump_rounds": "largest"}
    top = whistsim.simulate("ohhell", n=1, seed=2, rules=rules, records=1)
    assert [d["trump"] is None for d in top.records[0]["deals"]] == [True] + [False] * 9  # 2 cards were left
    rec = full.records[0]
    bad = {**rec, "deals": [{**rec["deals"][0], "trump": "AS"}, *rec["deals"][1:]]}
    with pytest.raises(RecordError, match="'trump' must be null"):
        replay(bad)


@pytest.mark.parametrize(
    ("scoring", "per", "bid", "took", "points"),
    [
        ("ten_plus_bid", 1, 3, 3, 13), ("ten_plus_bid", 1, 0, 0, 10), ("ten_plus_bid", 1, 2, 3, 0),
        ("trick_plus_ten", 1, 3, 3, 13), ("trick_plus_ten", 1, 2, 3, 3), ("trick_plus_ten", 2, 1, 1, 12),
        ("minus_difference", 1, 3, 3, 13), ("minus_difference", 1, 1, 4, -3), ("minus_difference", 2, 4, 1, -6),
        ("minus_difference", 1, 0, 0, 10),
    ],
)  # fmt: skip
def test_each_scoring(scoring, per, bid, took, points):
    rules = OhHellRules.make("standard", scoring=scoring, points_per_trick=per).to_array()
    assert bid_points(rules, bid, took) == points
    assert scoring in SCORINGS


def test_rules_out_of_range_are_one_line_errors():
    with pytest.raises(RuleError, match="3 to 7 players|expected one of"):
        OhHellRules.make("standard", players=8)
    with pytest.raises(RuleError, match="tricks=14"):
        OhHellRules.make("standard", players=4, tricks=14)
    with pytest.raises(RuleError, match="only schedule=fixed"):
        OhHellRules.make("standard", rounds=3)


def test_malformed_records_are_refused_in_one_line():
    sim = whistsim.simulate(
        "ohhell", n=1, seed=3, players=3, rules={"schedule": "fixed", "tricks": 2}, records=1
    )
    rec = sim.records[0]
    d0 = rec["deals"][0]
    for bad, why in (
        ({**rec, "deals": rec["deals"][:1]}, "list of 3 deals"),
        ({**rec, "deals": [{**d0, "dealer": 1}, *rec["deals"][1:]]}, "the dealer must be seat"),
        ({**rec, "deals": [{**d0, "hands": [d0["hands"][0]] * 3}, *rec["deals"][1:]]}, "twice"),
        ({**rec, "moves": ["0:bid x"]}, "not a bid"),
    ):
        with pytest.raises((RecordError, MoveError), match=why):
            replay(bad)


@pytest.mark.parametrize("players", [3, 4, 5, 7])
def test_the_deal_gives_card_j_to_the_jth_seat_from_the_dealers_left_and_turns_the_next(players):
    """The deck in order, dealt by each seat in turn: card ``j`` of the deck to the ``(j % p)``-th seat
    from the dealer's left, split by suit, the next card turned; the seats beyond the table empty."""
    r = OhHellRules.make("standard", players=players, schedule="fixed", tricks=51 // players, rounds=1)
    n = 51 // players
    g = new_state(r)[0]
    deck = np.arange(52, dtype=np.int8)[::-1].copy()  # the top card is the ace of spades
    for dealer in range(players):
        g["hands"][0] = -1  # what the last deal left, as if from a larger table
        deal_round(g, 0, deck, dealer)
        for j in range(players):
            q = (dealer + 1 + j) % players
            cards = [int(c) for c in deck[j : players * n : players]]
            assert [int(g["hands"][0, q, suit]) for suit in range(4)] == [
                sum(1 << (c % 13) for c in cards if c // 13 == suit) for suit in range(4)
            ]
        assert not g["hands"][0, players:].any()
        assert g["turnups"][0] == deck[players * n]


# ---- properties of simulated games ----------------------------------------------------------


def _sim(players: int, tricks: int, seed: int, strategies=("random",), **rules):
    over = {"players": players, "tricks": tricks, **rules}
    return whistsim.simulate("ohhell", n=3, seed=seed, rules=over, strategies=list(strategies), records=3)


@given(players=st.integers(3, 7), tricks=st.integers(1, 4), seed=st.integers(0, 2**40),
       schedule=st.sampled_from(["down-up", "up", "fixed"]), hook=st.booleans())  # fmt: skip
def test_every_card_is_in_one_place_and_every_round_has_as_many_tricks_as_cards(
    players, tricks, seed, schedule, hook
):
    sim = _sim(players, tricks, seed, schedule=schedule, hook=hook)
    r = OhHellRules.make("standard", players=players, tricks=tricks, schedule=schedule, hook=hook)
    for rec in sim.records:
        played = [parse_card(m.split(":")[1]) for m in rec["moves"] if "bid" not in m]
        at = 0
        for deal, n in zip(rec["deals"], r.sizes(), strict=True):
            held = [parse_card(c) for h in deal["hands"] for c in h]
            trump = [parse_card(deal["trump"])] if deal["trump"] else []
            assert len(set(held + trump)) == len(held) + len(trump) == players * n + len(trump)
            assert set(held + trump) <= set(r.pack())
            assert sorted(played[at : at + players * n]) == sorted(held)  # each card dealt is played once
            at += players * n
        d = load(rec)
        per_round, tricks_now = [], 0
        for _, _, events in told(d.buf, lambda b: b[0]["round"], d.seats, d.actions, step):
            tricks_now += sum(kind == ev.TRICK for kind, *_ in events)
            if any(kind in (ev.SET, ev.OVER) for kind, *_ in events):
                per_round.append(tricks_now)
                tricks_now = 0
        assert per_round == r.sizes()
        assert sum(rec["result"]["tricks"]) == sum(r.sizes())


@given(players=st.integers(3, 7), seed=st.integers(0, 2**40), scoring=st.sampled_from(SCORINGS))
def test_a_simulated_record_replays_to_its_result(players, seed, scoring):
    sim = _sim(players, 3, seed, strategies=("heuristic",), scoring=scoring)
    for rec in sim.records:
        assert replay(rec) == rec["result"]


def test_pimc_records_replay_to_their_results():
    sim = _sim(4, 4, 9, strategies=("pimc:worlds=4",))
    for rec in sim.records:
        assert replay(rec) == rec["result"]


def test_results_do_not_depend_on_threads_or_batch_size():
    g = get_game("ohhell")
    r = g.make_rules("standard", 4, {"tricks": 5})
    ids, params = seating("ohhell", [parse_spec("heuristic"), parse_spec("random"), parse_spec("pimc:worlds=2"),
                                     parse_spec("random")], 4)  # fmt: skip
    whole = g.play_batch(r, ids, params, seed=4, n=24)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        parts = [g.play_batch(r, ids, params, seed=4, start=s, n=k) for s, k in ((0, 5), (5, 19))]
    finally:
        numba.set_num_threads(before)
    for col in whole.seat:
        assert np.array_equal(whole.seat[col], np.concatenate([p.seat[col] for p in parts]))
    for col in whole.game:
        assert np.array_equal(whole.game[col], np.concatenate([p.game[col] for p in parts]))


def test_heuristic_makes_more_bids_than_random():
    sim = whistsim.simulate("ohhell", n=60, seed=6, strategies=["heuristic", "random", "random", "random"],
                            keep_games=True)  # fmt: skip
    made = sim.batch.seat["made"].mean(axis=0)
    assert made[0] > 2 * made[1:].max()


# ---- a pinned play-through ------------------------------------------------------------------

GOLDEN = {
    "game": "ohhell",
    "rules": {"players": 3, "schedule": "fixed", "tricks": 2, "rounds": 2, "hook": True, "no_trump_rounds": "off",
              "scoring": "ten_plus_bid", "points_per_trick": 1, "suits": 4, "ranks": 13},
    "first": 0,
    "deals": [{"dealer": 2, "hands": [["3H", "4H"], ["8D", "AH"], ["JD", "2H"]], "trump": "AD"},
              {"dealer": 0, "hands": [["AD", "8S"], ["JD", "QH"], ["2C", "4H"]], "trump": "6S"}],
    "moves": ["0:bid 0", "1:bid 1", "2:bid 0", "0:3H", "1:AH", "2:2H", "1:8D", "2:JD", "0:4H",
              "1:bid 0", "2:bid 0", "0:bid 1", "1:JD", "2:4H", "0:AD", "0:8S", "1:QH", "2:2C"],
    "result": {"points": [10, 21, 10], "made": [1, 2, 1], "tricks": [2, 1, 1]},
    "seed": {"run": 5, "game": 0},
    "strategies": ["heuristic", "heuristic", "heuristic"],
}  # fmt: skip


def test_the_pinned_game_is_dealt_played_and_scored_as_it_was():
    sim = whistsim.simulate("ohhell", n=1, seed=5, players=3, rules={"schedule": "fixed", "tricks": 2, "rounds": 2},
                            strategies=["heuristic"], records=1)  # fmt: skip
    assert sim.records[0] == GOLDEN
    assert replay(GOLDEN) == GOLDEN["result"]
    story = get_game("ohhell").narrate(GOLDEN)
    assert "Round 2: seat 0 deals 2 cards each, turns 6♠: spades are trumps; seat 1 bids first." in story
    assert "Bids: 0 bids 0 · 1 bids 1 · 2 bids 0 (total 1, under the 2 tricks)" in story
    assert "Trick 1   seat 1 leads J♦ · 2 plays 4♥ · 0 plays A♦ → seat 0 wins" in story
