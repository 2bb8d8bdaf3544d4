"""The bench's floor kernels play the same games as whistsim's random players (never a timing)."""

import numpy as np

from whistsim.bench.floor import W_PLAYERS, W_STOCK, welsh_floor, whist_floor
from whistsim.core.strategy import parse_spec
from whistsim.games import get_game, seating


def test_welsh_floor_deals_out_the_whole_stock():
    n = 300
    out = np.zeros((n, W_PLAYERS), np.int64)
    moves = welsh_floor(n, 5, out)
    # every card ends in a pile: 12 Tens and Taffies worth 10, 96 other cards worth 1
    assert (out.sum(axis=1) == 10 * 12 + (W_STOCK - 12)).all()
    assert moves > n * W_STOCK  # every card drawn, most led or played later


def test_welsh_floor_is_the_same_game_as_random_play():
    n = 2000
    out = np.zeros((n, W_PLAYERS), np.int64)
    floor_moves = welsh_floor(n, 5, out) / n
    g = get_game("welsh")
    rules = g.make_rules("parlett", 3, {})
    ids, params = seating("welsh", [parse_spec("random")], 3)
    batch = g.play_batch(rules, ids, params, seed=5, n=n)
    # decisions per deal agree (about 297, sd about 11 per deal: 1% is some 9 standard errors)
    assert abs(floor_moves / batch.game["moves"].mean() - 1) < 0.01


def test_whist_floor_plays_thirteen_tricks():
    n = 500
    out = np.zeros((n, 2), np.int64)
    assert whist_floor(n, 3, out) == 52 * n
    assert (out.sum(axis=1) == 13).all()
    assert 6.0 < out[:, 0].mean() < 7.0


def test_pimc_decisions_count_each_seats_moves():
    from whistsim.bench.speed import pimc_decisions

    for game, preset, p, other in (("welsh", "parlett", 3, "greedy"), ("whist", None, 4, "heuristic")):
        g = get_game(game)
        rules = g.make_rules(preset, p, {})
        ids, params = seating(game, [parse_spec(other)], p)
        batch = g.play_batch(rules, ids, params, seed=5, n=20, log_games=20)
        counts = [pimc_decisions(game, batch, p, seat) for seat in range(p)]
        if game == "welsh":
            assert sum(counts) == batch.game["moves"].sum() and min(counts) > 0
        else:
            assert counts[0] == 13 * batch.game["deals"].sum()  # a card to each of 13 tricks a deal


def test_decision_timing_keeps_only_positions_owing_a_choice_and_times_each_player():
    from whistsim.bench.decisions import positions, seconds_per_decision
    from whistsim.games.welsh import engine as E
    from whistsim.games.welsh.rules import WelshRules

    rules = WelshRules()
    states = positions(rules, [["greedy", "random", "greedy"]], games=1, every=5)
    assert states and all(int(b[0]["table"]["s"][E.S_PHASE]) != E.OVER for b in states)
    assert seconds_per_decision(states[:3], "greedy", rules.players) >= 0.0


def test_peak_memory_is_the_childs_own_not_the_parents():
    # ru_maxrss keeps the parent's resident size at the fork: the bench, with every kernel loaded,
    # once reported 840 MB for a run that takes 215.
    from whistsim.bench.speed import peak_memory_mb

    parent = np.ones(60_000_000)  # 480 MB resident in this process
    assert parent.sum() > 0
    assert peak_memory_mb(1000) < 450


def test_each_reference_ratio_has_its_own_key():
    from whistsim.bench.speed import Row, _ratios

    rows = [
        Row("whistsim", "ohhell", 4, "random", 1, 500_000.0, 500_000.0, 1),
        Row("openspiel-c++", "oh_hell", 4, "random", 1, 25_000.0, 25_000.0, 1),
        Row("openspiel-python", "oh_hell", 4, "random", 1, 2_500.0, 2_500.0, 1),
        Row("whistsim", "whist", 4, "random", 1, 120_000.0, 1_200_000.0, 1),
        Row("openspiel-c++", "bridge", 4, "random", 1, 40_000.0, 40_000.0, 1),
    ]
    ratios = _ratios(rows)
    assert ratios["ohhell 4p random games / openspiel C++ oh_hell play-outs, per core"] == 20.0
    assert ratios["ohhell 4p random games / openspiel Python oh_hell play-outs, per core"] == 200.0
    assert ratios["whist deals / openspiel C++ bridge play-outs, per core"] == 30.0


def test_dds_comparison_is_reported_with_its_agreement():
    from whistsim.bench.speed import format_report

    case = {"n": 4, "rounds": 1, "agree": 3, "first_disagreement": {"deal": 2, "whistsim": 7, "dds": 6},
            "whistsim": {"median_s": 0.02, "mean_s": 0.03, "p95_s": 0.1},
            "dds": {"median_s": 0.01, "mean_s": 0.01, "p95_s": 0.05},
            "ratio": {"median": 2.0, "mean": 3.0, "p95": 2.0}}  # fmt: skip
    text = format_report({"rows": [], "ratios": {}, "dds": {"full deal": case}})
    assert "whistsim / DDS 2.00, 3.00, 2.00; same value 3 of 4" in text
    assert "NOT THE SAME: position 2: whistsim 7, DDS 6 tricks" in text


def test_bench_without_endplay_says_how_to_install_it_before_timing_anything(monkeypatch):
    import sys

    import pytest

    import whistsim.bench.speed as b
    from whistsim.core.options import WhistsimError

    monkeypatch.setitem(sys.modules, "endplay", None)  # import endplay: ImportError
    monkeypatch.setattr(b, "_case", lambda *a: pytest.fail("timed a case"))
    with pytest.raises(WhistsimError, match=r"pip install -e '\.\[bench\]'"):
        b.run(openspiel=True)
