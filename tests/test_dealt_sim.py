"""Scotch Whist and Whist simulated: totals, whole games, seeds, records, players, the CLI."""

from __future__ import annotations

import json

import numba
import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from test_dealt_support import SCOTCH4, WHIST, cards, lowest_legal, record, replay, state_after

import whistsim
from whistsim.cli import main
from whistsim.core.cards import card_name, parse_card
from whistsim.core.strategy import parse_spec
from whistsim.games import get_game, seating
from whistsim.games.dealt.engine import MAX_PLAYERS, S_SET
from whistsim.games.dealt.kernels import decide_now as decide_in
from whistsim.games.dealt.players import heuristic, pimc
from whistsim.games.dealt.records import hands_of, step

RANDOM, HEURISTIC, PIMC = range(3)

CONFIGS = [
    ("scotch", {"players": 2}),
    ("scotch", {"players": 3, "french": True}),
    ("scotch", {"players": 4}),
    ("scotch", {"players": 5, "odd_six": "aside"}),
    ("scotch", {"players": 5}),
    ("scotch", {"players": 6, "teams": "threes"}),
    ("scotch", {"players": 7, "odd_six": "aside", "french": True}),
    ("scotch", {"players": 8, "teams": "pairs"}),
    ("whist", {}),
    ("whist", {"honours": False, "target": 5}),
]


def _simulate(game, rules, n=60, records=20, strategies=("random",), seed=3, **kw):
    """Simulate; several strategies take the seats in turn."""
    p = get_game(game).make_rules(None, None, rules).players
    strategies = [strategies[q % len(strategies)] for q in range(p)]
    return whistsim.simulate(game, n=n, seed=seed, rules=rules, strategies=strategies, records=records, **kw)


@pytest.mark.parametrize("game, rules", CONFIGS)
def test_totals_and_replay_of_simulated_records(game, rules):
    sim = _simulate(game, rules)
    r = sim.rules
    assert len(sim.records) >= 20  # every deal of the first 20 games
    for rec in sim.records:
        rec = json.loads(json.dumps(rec))
        result = replay(rec)
        assert result == rec["result"]
        assert sum(result["tricks"]) == r.hand * r.sets
        if game == "whist":
            assert sum(result["tricks"]) == 13
            continue
        trump = parse_card(rec["trump"]) // 13
        aside = rec["aside"]
        laid = (
            {"J": 11, "A": 4, "K": 3, "Q": 2, "T": 10}.get(aside[0], 0)
            if aside and parse_card(aside) // 13 == trump
            else 0
        )
        french = 10 if r.french and trump != 1 and aside != "TD" else 0
        assert sum(result["honours"]) == 30 - laid + french  # 30 when no honour is laid aside
        dealt = [r.hand * r.sets * r.teams.count(t) for t in range(r.n_teams)]
        assert result["cards"] == [
            max(0, r.players * k - d) for k, d in zip(result["tricks"], dealt, strict=False)
        ]


@pytest.mark.parametrize("game, rules", [CONFIGS[2], CONFIGS[7], CONFIGS[8]])
def test_whole_games_pass_the_deal_left_to_the_target(game, rules):
    sim = _simulate(game, rules, n=200, records=5, keep_games=True, first=2)
    b = sim.batch
    r = sim.rules
    p = r.players
    by_game: dict[int, list] = {}
    for rec in sim.records:
        by_game.setdefault(rec["seed"]["game"], []).append(rec)
    for i, recs in by_game.items():
        assert [rec["seed"]["deal"] for rec in recs] == list(range(len(recs)))
        assert [rec["dealer"] for rec in recs] == [(2 - 1 + k) % p for k in range(len(recs))]
        assert len(recs) == b.game["deals"][i]
        total = np.sum([rec["result"]["points"] for rec in recs], axis=0)
        assert total.tolist() == b.side["points"][i].tolist() == b.side["score"][i].tolist()
    won = b.side["won"]
    assert (won.sum(axis=1) == 1).all()
    winner = won.argmax(axis=1)
    assert (b.side["score"][np.arange(b.n), winner] >= r.target).all()
    assert (b.game["winner"] == winner).all()
    for q in range(p):
        assert (b.seat["won"][:, q] == won[:, r.teams_tuple[q]]).all()
        assert (b.seat["lost"][:, q] == 1 - won[:, r.teams_tuple[q]]).all()
    assert b.game["deals"].max() <= r.max_deals()
    assert (b.side["tricks"].sum(axis=1) == b.game["deals"] * r.hand * r.sets).all()


def test_scotch_game_columns_for_the_studies():
    sim = _simulate("scotch", {"players": 4}, n=400, records=0, keep_games=True)
    b = sim.batch
    deals = b.game["deals"]
    assert (b.game["tens_caught"] <= deals).all() and b.game["tens_caught"].sum() > 0
    assert (b.seat["ten_caught"].sum(axis=1) == b.game["tens_caught"]).all()
    assert (b.side["tens"].sum(axis=1) == deals).all()  # the Ten of trumps is always won by someone
    assert set(np.unique(b.game["first_ten_side"])) <= {0, 1}
    assert (b.game["round_twice"] <= deals).all() and b.game["round_twice"].sum() > 0
    assert ((b.game["turnup_rank"] >= 4) & (b.game["turnup_rank"] <= 12)).all()
    assert (b.side["first_points"].sum(axis=1) >= 30).all()
    summary = sim.summary().set_index("figure")
    assert summary.loc["deals", "mean"] > 1 and 0 < summary.loc["ten_caught_per_deal", "mean"] < 1
    assert abs(summary.loc["side_won[0]", "mean"] + summary.loc["side_won[1]", "mean"] - 1) < 1e-12


def test_single_deals_with_unit_deal():
    sim = _simulate("whist", {"unit": "deal"}, n=300, records=0, keep_games=True)
    b = sim.batch
    assert (b.game["deals"] == 1).all() and set(np.unique(b.game["ended"])) <= {0, 2}
    assert (b.side["tricks"].sum(axis=1) == 13).all()
    share = sim.summary().set_index("figure").loc["honours_share", "mean"]
    assert 0 < share < 1


def test_a_game_depends_on_seed_and_index_alone():
    game = get_game("scotch")
    r = game.make_rules(None, 6, {"teams": "threes"})
    ids, params = seating("scotch", [parse_spec("heuristic")], 6)
    whole = game.play_batch(r, ids, params, seed=9, start=0, n=40)
    tail = game.play_batch(r, ids, params, seed=9, start=25, n=15)
    old = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        one = game.play_batch(r, ids, params, seed=9, start=0, n=40)
    finally:
        numba.set_num_threads(old)
    for cols in ("game", "side", "seat"):
        for k, v in getattr(whole, cols).items():
            assert (getattr(one, cols)[k] == v).all(), k
            assert (getattr(tail, cols)[k] == v[25:]).all(), k


def test_changing_a_player_leaves_the_deals_alone():
    a = _simulate("whist", {}, n=3, records=1, strategies=("random",))
    b = _simulate("whist", {}, n=3, records=1, strategies=("heuristic", "random", "random", "random"))
    assert a.records[0]["hands"] == b.records[0]["hands"]
    assert a.records[0]["moves"] != b.records[0]["moves"]


@pytest.mark.parametrize("game, rules", CONFIGS)
def test_heuristic_and_pimc_play_legally_everywhere(game, rules):
    sim = _simulate(
        game, {**rules, "unit": "deal"}, n=4, records=4, strategies=("pimc:worlds=2", "heuristic")
    )
    for rec in sim.records:
        assert replay(json.loads(json.dumps(rec))) == rec["result"]


def _edge(game, rules, a, b, n, seed=4):
    """Tricks (Whist) or points (Scotch) per deal that player ``a`` gains over ``b``: the
    same deals played twice, the two swapping sides, so seat and deal luck cancel."""
    col = "tricks" if game == "whist" else "points"
    diff = []
    for first, second in ((a, b), (b, a)):
        sim = _simulate(game, {**rules, "unit": "deal"}, n=n, records=0, strategies=(first, second),
                        keep_games=True, seed=seed)  # fmt: skip
        side = sim.batch.side[col]
        diff.append(side[:, 0].mean() - side[:, 1].mean())
    return (diff[0] - diff[1]) / 2


def test_heuristic_beats_random():
    assert _edge("whist", {}, "heuristic", "random", 1000) > 1
    assert _edge("scotch", {"players": 4}, "heuristic", "random", 1000) > 3


def test_pimc_beats_heuristic():
    assert _edge("whist", {}, "pimc:worlds=8", "heuristic", 150) > 0.2
    assert _edge("scotch", {"players": 4}, "pimc:worlds=8", "heuristic", 150) > 0.5


def _heuristic_state(hands, trump, moves, **params):
    rec = record("scotch", SCOTCH4, 3, [hands], trump, moves)
    buf = state_after(rec)
    seats = buf[0]["core"]["seats"]
    seats["strategy"][:] = HEURISTIC
    seats["params"][:, : len(heuristic.DEFAULTS)] = heuristic.DEFAULTS
    for key, value in params.items():
        seats["params"][:, list(heuristic.PARAMS).index(key)] = value
    return buf


TEN_HANDS = [cards("JH 6C 7C 8C 9C TC JC QC KC"), cards("6H 6D 7D 8D 9D TD JD QD KD"),
             cards("TH 7H 6S 7S 8S 9S TS JS QS"), cards("AH KH QH 8H 9H AC AD AS KS")]  # fmt: skip


def test_heuristic_plays_the_ten_into_partners_hand():
    assert decide_in(_heuristic_state(TEN_HANDS, "9H", ["0:JH", "1:6H"])) == parse_card("TH")
    assert decide_in(_heuristic_state(TEN_HANDS, "9H", ["0:JH", "1:6H"], ten_to_partner=0)) == parse_card(
        "7H"
    )


def test_heuristic_leads_two_rounds_of_trumps_with_jack_and_ace():
    hands = [cards("JH AH 6C 7C 8C 9C TC JC QC"), cards("6H 6D 7D 8D 9D TD JD QD KD"),
             cards("TH 7H 6S 7S 8S 9S TS JS QS"), cards("KC KH QH 8H 9H AC AD AS KS")]  # fmt: skip
    buf = _heuristic_state(hands, "9H", [])
    assert decide_in(buf) == parse_card("JH")
    for card in ("JH", "6H", "7H", "8H"):
        step(buf, parse_card(card))
    assert decide_in(buf) == parse_card("AH")  # the second round at once
    assert decide_in(_heuristic_state(hands, "9H", [], two_rounds=0)) // 13 != 2


# Seat 3 (last to play to seat 0's lead) holds J K of trumps (hearts) without the A: a tenace.
LEFT_HANDS = [cards("QC 8C AH TH 6D 7D 8D 6S 7S"), cards("6C 9C 6H QH 9D TD JD 8S 9S"),
              cards("7C TC 7H 8H QD KD AD TS JS"), cards("JC KC AC JH KH 9H QS KS AS")]  # fmt: skip


def test_heuristic_placing_the_lead_left_never_overtakes_the_left_hand_opponent():
    moves = ["0:QC", "1:6C", "2:7C"]  # the left-hand opponent (seat 0) is winning; seat 3 plays last
    book = decide_in(_heuristic_state(LEFT_HANDS, "9H", moves))
    assert book == parse_card("KC")  # the book: last to play, win it cheaply
    assert decide_in(_heuristic_state(LEFT_HANDS, "9H", moves, place_left=1)) == parse_card("JC")
    # only with a tenace: J K with the A is none
    no_tenace = [LEFT_HANDS[0][:2] + ["JH"] + LEFT_HANDS[0][3:], LEFT_HANDS[1], LEFT_HANDS[2],
                 LEFT_HANDS[3][:3] + ["AH"] + LEFT_HANDS[3][4:]]  # fmt: skip
    assert decide_in(_heuristic_state(no_tenace, "9H", moves, place_left=1)) == parse_card("KC")


# Seat 0 leads holding J K of trumps without the A, the top club, and diamonds and spades it cannot win.
LEAD_HANDS = [cards("JH KH AC 6C 7C 6D 7D 9S TS"), cards("6H 7H 8C 9C TC 8D 9D 6S 7S"),
              cards("8H TH JC QC KC TD JD 8S JS"), cards("9H QH AH QD KD AD QS KS AS")]  # fmt: skip


def test_heuristic_placing_the_lead_left_leads_low_where_it_holds_no_top_card():
    lead = {
        k: card_name(decide_in(_heuristic_state(LEAD_HANDS, "9H", [], **kw)))
        for k, kw in {"book": {}, "no_tenace_play": {"tenace": 0}, "place_left": {"place_left": 1}}.items()
    }
    assert lead == {"book": "6C", "no_tenace_play": "AC", "place_left": "6D"}
    # keeping off the lead: the longest plain suit, low; placing it: diamonds, seven cards out above its
    # best, rather than spades (four) or clubs (its Ace is the top card)


def test_heuristic_playing_only_for_the_ten_hunts_it_with_trumps_and_cashes_nothing():
    assert decide_in(_heuristic_state(LEAD_HANDS, "9H", [], ten_only=1)) == parse_card("JH")  # from the top
    no_court = [cards("6H 7H AC 6C 7C 6D 7D 9S TS"), cards("JH KH 8C 9C TC 8D 9D 6S 7S")] + LEAD_HANDS[2:]
    assert decide_in(_heuristic_state(no_court, "9H", [], tenace=0)) == parse_card("AC")  # cash the Ace
    assert decide_in(_heuristic_state(no_court, "9H", [], ten_only=1)) == parse_card("6C")  # lead low
    moves = ["0:QC", "1:6C", "2:7C"]  # seat 3, last, could win the club trick with its King
    assert decide_in(_heuristic_state(LEFT_HANDS, "9H", moves, ten_only=1)) == parse_card("JC")


# Seat 0 holds every club; seat 2 (an opponent of seat 3) the Ten of trumps, seat 3 the K and A.
VOID_HANDS = [cards("6C 7C 8C 9C TC JC QC KC AC"), cards("7H JH QH TD JD QD KD 9S TS"),
              cards("TH 6H 6D 7D 8D 9D 6S 7S 8S"), cards("KH 8H 9H AH AD JS QS KS AS")]  # fmt: skip


def test_heuristic_playing_only_for_the_ten_trumps_a_plain_trick_only_to_catch_it():
    low_ruff = ["0:6C", "1:9S", "2:6H"]
    assert decide_in(_heuristic_state(VOID_HANDS, "9H", low_ruff)) == parse_card("8H")  # the book over-trumps
    assert decide_in(_heuristic_state(VOID_HANDS, "9H", low_ruff, ten_only=1)) == parse_card("JS")  # discards
    ten_ruff = ["0:6C", "1:9S", "2:TH"]
    assert decide_in(_heuristic_state(VOID_HANDS, "9H", ten_ruff, ten_only=1)) == parse_card("KH")  # the Ten


def test_heuristic_new_settings_are_off_by_default_and_known_to_search_players():
    assert len(heuristic.DEFAULTS) == len(heuristic.PARAMS)
    assert heuristic.DEFAULTS == tuple(float(p.default) for p in heuristic.PARAMS.values())
    assert list(heuristic.PARAMS).index("place_left") == heuristic.P_PLACE_LEFT
    assert list(heuristic.PARAMS).index("ten_only") == heuristic.P_TEN_ONLY
    assert heuristic.PARAMS["place_left"].default == heuristic.PARAMS["ten_only"].default == 0.0


def test_heuristic_whist_second_hand_low_third_hand_high():
    hands = [[cards("5C 6C 7C 8C 9C TC 2D 3D 4D 5D 2H 3H 4H"), cards("2C QC 6D 7D 8D 9D TD JD QD KD AD 2S 3S"),
              cards("3C KC 5H 6H 7H 8H 9H TH JH QH KH AH 4S"), cards("4C JC AC 5S 6S 7S 8S 9S TS JS QS KS AS")]]  # fmt: skip
    rec = record("whist", WHIST, 3, hands, "AS", ["0:5C"])
    buf = state_after(rec)
    seats = buf[0]["core"]["seats"]
    seats["strategy"][:] = HEURISTIC
    seats["params"][:, : len(heuristic.DEFAULTS)] = heuristic.DEFAULTS
    assert decide_in(buf) == parse_card("2C")  # second hand low
    step(buf, parse_card("2C"))
    assert decide_in(buf) == parse_card("KC")  # third hand high


def test_pimc_samples_only_what_the_seat_has_not_seen():
    rec = record("scotch", SCOTCH4, 3, [TEN_HANDS], "9H", ["0:6C", "1:6D", "2:6S", "3:AC", "3:AD"])
    buf = state_after(rec)  # seats 1 and 2 showed out of clubs; seat 3 leads
    seats = buf[0]["core"]["seats"]
    seats["strategy"][:] = PIMC
    seats["rng"][:, 0] = np.arange(1, MAX_PLAYERS + 1, dtype=np.uint64)
    own = {parse_card(c) for c in TEN_HANDS[3]} - {parse_card("AC"), parse_card("AD")}
    played = {parse_card(c) for c in ("6C", "6D", "6S", "AC", "AD")}
    for _ in range(200):
        slots = pimc.sample_deal(buf, 3)
        seen = set()
        for q in range(3):
            held = [s * 13 + r for s in range(4) for r in range(13) if (int(slots[q, s]) >> r) & 1]
            assert len(held) == 8 and not any(c // 13 == 0 for c in held if q in (1, 2))
            seen |= set(held)
        assert seen | own | played == set(get_game("scotch").make_rules(None, 4, {}).pack())
        assert not seen & own
    assert int(buf[0]["core"]["table"]["s"][S_SET]) == 0


def test_pimc_keeps_the_turn_up_with_the_dealer():
    rec = record("scotch", {**SCOTCH4, "players": 2, "teams": [0, 1]}, 1, *_two_player_deal())
    buf = state_after(rec)
    buf[0]["core"]["seats"]["rng"][:, 0] = 7
    for _ in range(50):
        slots = pimc.sample_deal(buf, 0)
        turnup = parse_card(rec["trump"])
        assert (int(slots[2 * MAX_PLAYERS + 1, turnup // 13]) >> (turnup % 13)) & 1


def _two_player_deal():
    r = get_game("scotch").make_rules(None, 2, {})
    hands, turnup, _ = hands_of(r, np.array(r.pack(), np.int8), 1)
    return hands, card_name(turnup)


def test_lowest_legal_helper_follows_suit():
    rec = record("scotch", SCOTCH4, 3, [TEN_HANDS], "9H", ["0:6C"])
    assert lowest_legal(state_after(rec)) == parse_card("6D")  # seat 1 void in clubs: its lowest card


def test_cli_simulate_records_replay_and_show(tmp_path):
    runner = CliRunner()
    path = tmp_path / "s.jsonl"
    out = runner.invoke(main, ["simulate", "--game", "scotch", "--players", "6", "--rule", "teams=threes", "--n", "50",
                               "--records", str(path), "--max-records", "2", "--strategy", "heuristic"])  # fmt: skip
    assert out.exit_code == 0, out.output
    assert "side_won[1]" in out.output and "ten_caught_per_deal" in out.output
    out = runner.invoke(main, ["replay", str(path), "--json"])
    assert out.exit_code == 0 and all("points" in json.loads(x) for x in out.stdout.splitlines())
    out = runner.invoke(main, ["show", str(path)])
    assert out.exit_code == 0 and "Trick 6" in out.output and "Result" in out.output
    out = runner.invoke(main, ["simulate", "--game", "whist", "--n", "20", "--strategy", "1=pimc:worlds=2"])
    assert out.exit_code == 0 and "honours_share" in out.output
    out = runner.invoke(main, ["rules", "--game", "scotch"])
    assert "odd_six" in out.output and "french" in out.output


def test_cli_bad_input_is_one_line_and_fails(tmp_path):
    runner = CliRunner()
    for args, match in [
        (["simulate", "--game", "scotch", "--rule", "colour=red"], "unknown rule 'colour'"),
        (
            ["simulate", "--game", "scotch", "--players", "4", "--rule", "teams=threes"],
            "with 4 players the sides are pairs",
        ),
        (["simulate", "--game", "whist", "--players", "5"], "four players"),
        (["simulate", "--game", "whist", "--rule", "target=6"], "expected one of 5, 7, 10"),
        (["simulate", "--game", "scotch", "--players", "3", "--rule", "players=4"], "but 3 players"),
        (["simulate", "--game", "whist", "--strategy", "smart"], "unknown strategy 'smart'"),
    ]:
        out = runner.invoke(main, args)
        assert out.exit_code != 0 and match in out.output and len(out.output.strip().splitlines()) == 1, (
            out.output
        )
    rec = record("whist", WHIST, 0, [[cards("AS")]], "AS", [])
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(rec) + "\n{not json\n")
    out = runner.invoke(main, ["replay", str(path), "--json"])
    lines = [json.loads(x) for x in out.stdout.splitlines()]
    assert out.exit_code != 0
    assert lines[0]["move"] is None and "hands" in lines[0]["error"]
    assert lines[1]["line"] == 1 and "bad JSON" in lines[1]["error"]


@pytest.mark.parametrize(
    "game, rules", CONFIGS + [("whist", {"unit": "deal"}), ("scotch", {"revokes": True})]
)
def test_random_seats_own_loop_plays_as_the_shared_loop(game, rules):
    """With every seat ``random`` the kernel plays deals in a loop of its own: the same cards from
    the same streams, so every column, every logged deal and the state it leaves are the same."""
    g = get_game(game)
    r = g.make_rules(None, rules.get("players"), {k: v for k, v in rules.items() if k != "players"})
    ids, params = seating(game, [parse_spec("random")], r.players)
    old = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        fast, slow = (
            g.play_batch(r, ids, params, seed=11, n=150, log_games=20, shared_loop=shared)
            for shared in (False, True)
        )
    finally:
        numba.set_num_threads(old)
    for cols in ("game", "side", "seat"):
        for k, v in getattr(slow, cols).items():
            assert (getattr(fast, cols)[k] == v).all(), k
    assert len(fast.logs) == len(slow.logs) >= 20
    for a, b in zip(fast.logs, slow.logs, strict=True):
        assert (a == b).all()


@pytest.mark.parametrize("game, rules", CONFIGS + [("whist", {"unit": "deal"})])
@pytest.mark.parametrize("specs", [["heuristic"], ["heuristic", "random"], ["random", "heuristic:tenace=0"]])
def test_plain_seats_own_loop_plays_as_the_shared_loop(game, rules, specs):
    """With every seat ``random`` or ``heuristic`` (some of each, or not) and no revokes the kernel
    plays deals a trick at a time in a loop of its own: the same cards from the same streams, so
    every column and every logged deal are the same as through the shared loop."""
    g = get_game(game)
    r = g.make_rules(None, rules.get("players"), {k: v for k, v in rules.items() if k != "players"})
    ids, params = seating(game, [parse_spec(specs[q % len(specs)]) for q in range(r.players)], r.players)
    old = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        own, shared = (
            g.play_batch(r, ids, params, seed=13, n=120, log_games=15, shared_loop=s) for s in (False, True)
        )
    finally:
        numba.set_num_threads(old)
    for cols in ("game", "side", "seat"):
        for k, v in getattr(shared, cols).items():
            assert (getattr(own, cols)[k] == v).all(), k
    assert len(own.logs) == len(shared.logs) >= 15
    for a, b in zip(own.logs, shared.logs, strict=True):
        assert (a == b).all()


@given(
    st.sampled_from(CONFIGS),
    st.lists(st.booleans(), min_size=8, max_size=8),
    st.lists(st.integers(0, 1), min_size=5, max_size=5),
    st.integers(1, 13),
    st.integers(0, 2**31),
)
def test_plain_seats_own_loop_property(config, heuristic_seats, flags, draw, seed):
    """Any mix of ``random`` and ``heuristic`` seats, any of the heuristic's settings, any seed:
    the own loop plays every game as the shared loop does."""
    game, rules = config
    g = get_game(game)
    r = g.make_rules(None, rules.get("players"), {k: v for k, v in rules.items() if k != "players"})
    two, tenace, ten, place, only = flags
    smart = (f"heuristic:two_rounds={two},tenace={tenace},ten_to_partner={ten},draw_trumps={draw},"
             f"place_left={place},ten_only={only}")  # fmt: skip
    specs = [parse_spec(smart if heuristic_seats[q] else "random") for q in range(r.players)]
    ids, params = seating(game, specs, r.players)
    old = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        own, shared = (
            g.play_batch(r, ids, params, seed=seed, n=12, log_games=4, shared_loop=s) for s in (False, True)
        )
    finally:
        numba.set_num_threads(old)
    for cols in ("game", "side", "seat"):
        for k, v in getattr(shared, cols).items():
            assert (getattr(own, cols)[k] == v).all(), k
    assert len(own.logs) == len(shared.logs)
    for a, b in zip(own.logs, shared.logs, strict=True):
        assert (a == b).all()
