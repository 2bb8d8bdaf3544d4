"""whistsim odds: the chance of winning from any score, by DP over measured deals.

The DP is checked against hand-worked chances, against the engine's own count-out
(part by part, sides from the dealer's left), and against whole games played on
by the engine from a given score (the dealt kernel's start score).
"""

from __future__ import annotations

import json
from math import comb

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

import whistsim
from whistsim.cli import main
from whistsim.core.options import WhistsimError
from whistsim.games.dealt import kernels
from whistsim.games.dealt.engine import N_PARTS, P_CARDS, P_HONOURS, P_TRICK_POINTS
from whistsim.games.dealt.engine import count_out as count_out_deal
from whistsim.tools.odds import (
    count_out,
    distribution,
    measure,
    play_from,
    setting,
    solve,
    solve_distribution,
)

CARDS = 2  # Scotch count-out parts: ten, ten_diamonds, cards, ace, king, queen, jack


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def race(s, p_num: int, n: int):
    """A hand-made distribution: each deal gives one point to side 0 (``p_num`` of ``n`` deals)
    or one to side 1, whoever deals."""
    parts = np.zeros((n * s.period, len(s.parts), s.sides), np.int16)
    for d in range(s.period):
        rows = slice(d * n, (d + 1) * n)
        parts[rows, CARDS, 1] = 1
        parts[d * n : d * n + p_num, CARDS, 1] = 0
        parts[d * n : d * n + p_num, CARDS, 0] = 1
    dealer = np.repeat(np.arange(s.period), n)
    return distribution(parts, dealer, s.period)


# ---- the DP on hand-made distributions -------------------------------------------------------


def test_race_to_two_matches_the_hand_formula():
    # P(A wins from 0-0) = p^2 + 2 p^2 (1 - p): AA, ABA, BAA.
    s = setting("scotch", players=4, rules={"target": 2})
    V = solve_distribution(s, race(s, 3, 10))
    p = 0.3
    assert V[0, 0, 0] == pytest.approx(p**2 + 2 * p**2 * (1 - p), abs=1e-12)
    assert V[0, 1, 0] == pytest.approx(p**2 + 2 * p**2 * (1 - p), abs=1e-12)
    assert V[s.target * 1 + 1, 0, 0] == pytest.approx(p, abs=1e-12)  # 1-1: the next deal decides


@given(st.integers(1, 9), st.integers(1, 9))
def test_race_to_any_target_is_the_negative_binomial_sum(k, target):
    s = setting("scotch", players=4, rules={"target": target})
    V = solve_distribution(s, race(s, k, 10))
    p = k / 10
    want = sum(comb(target - 1 + j, j) * p**target * (1 - p) ** j for j in range(target))
    assert V[0, 0, 0] == pytest.approx(want, abs=1e-12)
    assert np.allclose(V.sum(axis=2), 1.0)


@given(st.integers(0, 2**32 - 1), st.integers(3, 8))
def test_a_higher_score_never_lowers_the_chance(seed, target):
    # Coupling: with the same deals to come, a side with more points reaches the target no later.
    rng = np.random.default_rng(seed)
    s = setting("scotch", players=4, rules={"target": target})
    n = 12
    parts = np.zeros((n * s.period, len(s.parts), 2), np.int16)
    for i in range(n * s.period):
        part = rng.integers(0, len(s.parts))
        parts[i, part, rng.integers(0, 2)] = rng.integers(1, 4)
        parts[i, rng.integers(0, len(s.parts)), rng.integers(0, 2)] += rng.integers(0, 3)
    dealer = np.arange(n * s.period) % s.period
    V = solve_distribution(s, distribution(parts, dealer, s.period)).reshape(target, target, s.period, 2)
    assert (V[1:, :, :, 0] >= V[:-1, :, :, 0] - 1e-12).all()
    assert (V[:, 1:, :, 1] >= V[:, :-1, :, 1] - 1e-12).all()
    assert np.allclose(V.sum(axis=3), 1.0)


# ---- count-out: the engine's order, resolved exactly ----------------------------------------


def engine_count_out(s, score, parts, dealer):
    """The winner by the engine's own count-out (games.dealt.engine.count_out)."""
    buf = kernels.new_state(s.rules, 1)
    g = buf[0]
    res = np.zeros((N_PARTS, 8), np.int64)
    for j, row in enumerate(s.parts):
        res[row, : s.sides] = parts[j]
    g["core"]["result"][:] = res
    g["core"]["table"]["score"][: s.sides] = score
    return count_out_deal(g["core"], dealer, g["order"])


def test_scotch_the_ten_counts_out_before_cards():
    # 35-38 to 41: side 0 takes the Ten and the Ace (14), side 1 four cards and the Jack (15);
    # both pass 41, but the Ten counts first: side 0 wins. Without the Ten, cards come first.
    s = setting("scotch", players=4)
    parts = np.zeros((7, 2), np.int64)
    parts[0, 0], parts[3, 0] = 10, 4  # ten, ace
    parts[CARDS, 1], parts[6, 1] = 4, 11  # cards, jack
    score = np.array([35, 38], np.int64)
    order = np.array(s.order(0), np.int64)
    assert count_out(score, parts, order, 41) == 0 == engine_count_out(s, score, parts, 0)
    parts[0, 0], parts[4, 0] = 0, 3  # side 0 takes A K (7), not the Ten: side 1's cards come first
    assert count_out(score, parts, order, 41) == 1 == engine_count_out(s, score, parts, 0)
    # And the DP, given that one deal for sure, says the same.
    dist = distribution(parts[None].astype(np.int16).repeat(2, 0), np.array([0, 1]), s.period)
    V = solve_distribution(s, dist)
    assert V[35 * 41 + 38, 0, 1] == 1.0


def test_scotch_three_sides_count_out_in_turn_from_the_dealers_left():
    # 6 players in pairs (sides 0 1 2 0 1 2): seat 0 deals, so seat 1's side counts first.
    s = setting("scotch", players=6)
    assert s.order(0) == [1, 2, 0] and s.order(1) == [2, 0, 1] and s.period == 3
    parts = np.zeros((7, 3), np.int64)
    parts[CARDS] = [6, 6, 6]
    score = np.array([38, 38, 38], np.int64)
    for dealer, first in ((0, 1), (1, 2), (2, 0)):
        order = np.array(s.order(dealer), np.int64)
        assert count_out(score, parts, order, 41) == first == engine_count_out(s, score, parts, dealer)


def test_whist_tricks_count_out_before_honours():
    # 4-3 to 5: side 0 makes the odd trick (1), side 1 holds three honours (2): tricks first.
    s = setting("whist", preset="short", rules={"honours": True})
    parts = np.zeros((3, 2), np.int64)
    parts[1, 0] = 1
    parts[2, 1] = 2
    score = np.array([4, 3], np.int64)
    for dealer in range(4):
        order = np.array(s.order(dealer), np.int64)
        assert count_out(score, parts, order, 5) == 0 == engine_count_out(s, score, parts, dealer)


@given(st.integers(0, 2**32 - 1))
def test_the_dp_lookup_agrees_with_the_engines_count_out(seed):
    # Random scores and random deals: the engine, the walk and the DP's lookup pick one winner.
    rng = np.random.default_rng(seed)
    s = setting("scotch", players=6, rules={"target": 12})
    parts = rng.integers(0, 5, (1, 7, 3)).astype(np.int16)
    parts[0, CARDS, 0] += 1
    dealer = int(rng.integers(0, 6))
    score = rng.integers(0, 12, 3).astype(np.int64)
    order = np.array(s.order(dealer), np.int64)
    want = engine_count_out(s, score, parts[0].astype(np.int64), dealer)
    assert count_out(score, parts[0].astype(np.int64), order, 12) == want
    if want >= 0:
        dist = distribution(parts.repeat(3, 0), np.arange(3), 3)
        V = solve_distribution(s, dist)
        idx = int(np.ravel_multi_index(tuple(score), (12, 12, 12)))
        assert V[idx, dealer % 3, want] == 1.0


# ---- measuring deals, and games from a score -------------------------------------------------


@pytest.mark.parametrize("game,players", [("whist", None), ("scotch", 4)])
def test_measured_parts_add_up_to_the_points_of_single_deal_games(game, players):
    # Deal i is game i's first deal with seat i mod P leading: simulate(unit=deal, first=rotate).
    s = setting(game, players=players)
    parts, dealer = measure(s, 300, 5)
    sim = whistsim.simulate(game, 300, 5, players=players, rules={"unit": "deal"}, first="rotate",
                            keep_games=True)  # fmt: skip
    assert (parts.sum(axis=1) == sim.batch.side["points"]).all()
    assert (dealer == (np.arange(300) - 1) % s.players).all()


def test_start_score_plays_games_on_from_that_score():
    # Short whist (no honours) from 4-4: the first deal's odd trick ends every game.
    s = setting("whist", preset="short")
    b = kernels.play_batch(s.rules, s.ids, s.params, seed=3, n=200, first=1, start_score=(4, 4))
    assert (b.game["deals"] == 1).all()
    winner = b.game["winner"]
    assert (b.side["score"][np.arange(200), winner] >= 5).all()
    assert (b.side["tricks"][np.arange(200), winner] >= 7).all()
    assert (b.side["score"][np.arange(200), 1 - winner] == 4).all()


@pytest.mark.parametrize("score", [(5, 0), (1,), (1, 2, 3), (-1, 0)])
def test_start_score_must_be_one_score_per_side_short_of_the_target(score):
    s = setting("whist", preset="short")
    with pytest.raises(WhistsimError, match="start score"):
        kernels.play_batch(s.rules, s.ids, s.params, seed=0, n=1, start_score=score)


# ---- the method against whole games ----------------------------------------------------------


@pytest.mark.parametrize(
    "game,kw,score,dealer",
    [
        ("whist", {"preset": "short"}, (0, 0), 0),
        ("whist", {"preset": "short"}, (3, 1), 1),
        ("whist", {"preset": "long", "rules": {"target": 5}}, (0, 0), 1),
        ("scotch", {"players": 4}, (0, 0), 0),
        ("scotch", {"players": 4}, (30, 20), 1),
    ],
)
def test_dp_chances_agree_with_whole_games_played_from_the_score(game, kw, score, dealer):
    # Independent seeds; "agree": the DP's 95% interval and the games' Wilson interval overlap.
    s = setting(game, **kw)
    sol = solve(s, 30_000, 11, boot=40)
    p, lo, hi = sol.chance(score, dealer, 0)
    direct = play_from(s, score, dealer, 8_000, 12).iloc[0]
    assert lo <= p <= hi and hi - lo < 0.03
    assert lo <= direct["high"] and direct["low"] <= hi, (p, lo, hi, direct.to_dict())


# ---- the API and the command -----------------------------------------------------------------


def test_api_odds_returns_one_row_per_score_and_dealer_class():
    df = whistsim.odds("whist", 2_000, 1, preset="short", boot=5)
    assert len(df) == 5 * 5 * 2  # scores 0..4 each side, side 0 or side 1 dealing
    assert list(df.columns) == ["dealer", "score_0", "score_1", "win_0", "win_0_low", "win_0_high",
                                "win_1", "win_1_low", "win_1_high", "n_deals"]  # fmt: skip
    assert np.allclose(df["win_0"] + df["win_1"], 1.0)
    assert ((df["win_0_low"] <= df["win_0"]) & (df["win_0"] <= df["win_0_high"])).all()
    assert (df["win_0_low"] >= 0).all() and (df["win_0_high"] <= 1).all()
    one = whistsim.odds("whist", 2_000, 1, preset="short", boot=5, score="3-1", dealer=2)
    row = df[(df.dealer == 0) & (df.score_0 == 3) & (df.score_1 == 1)].iloc[0]
    assert len(one) == 1 and one.iloc[0]["dealer"] == 2 and one.iloc[0]["win_0"] == row["win_0"]


def test_three_sides_table_covers_every_score_and_dealer_class():
    df = whistsim.odds("scotch", 300, 2, players=6, boot=2, rules={"target": 12})
    assert len(df) == 12**3 * 3
    assert np.allclose(df[["win_0", "win_1", "win_2"]].sum(axis=1), 1.0)


def test_cli_table_as_csv_and_json(tmp_path):
    r = run("odds", "--preset", "short", "--n", 2000, "--boot", 5)
    assert r.exit_code == 0, r.output
    lines = r.stdout.strip().splitlines()
    assert lines[0] == "dealer,score_0,score_1,win_0,win_0_low,win_0_high,win_1,win_1_low,win_1_high,n_deals"
    assert len(lines) == 1 + 50
    r = run("odds", "--preset", "short", "--n", 2000, "--boot", 5, "--score", "2-3", "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["n_deals"] == 2000 and doc["boot"] == 5 and doc["dealer_period"] == 2
    assert len(doc["rows"]) == 1 and doc["rows"][0]["score_0"] == 2 and doc["rows"][0]["score_1"] == 3
    out, chart = tmp_path / "t.json", tmp_path / "t.png"
    r = run("odds", "--preset", "short", "--n", 2000, "--boot", 5, "--out", out, "--chart", chart)
    assert r.exit_code == 0, r.output
    assert len(json.loads(out.read_text())["rows"]) == 50 and chart.read_bytes()[:4] == b"\x89PNG"


def test_cli_score_prints_each_sides_chance():
    r = run("odds", "--preset", "short", "--n", 2000, "--boot", 5, "--score", "4-0")
    assert r.exit_code == 0, r.output
    assert "from 4-0, seat 0 dealing next:" in r.output and "side 1 wins" in r.output


@pytest.mark.parametrize(
    "args,message",
    [
        (["--preset", "short", "--score", "5-0"], "must be short of the target 5"),
        (["--score", "10-2"], "must be short of the target 10"),
        (["--score", "6:2"], "expected one score per side (2), like 0-0"),
        (["--score", "6-2-1"], "expected one score per side (2)"),
        (["--score", "-1-2"], "expected one score per side"),
        (["--score", "1-1", "--dealer", "4"], "dealer 4: expected a seat from 0 to 3"),
        (["--game", "welsh"], "odds are for whist and scotch"),
        (["--game", "scotch", "--rule", "revokes=true"], "claimed revoke"),
        (["--rule", "revokes=true", "--rule", "revoke_score=deduct"], "can fall below 0"),
        (["--rule", "unit=deal"], "whole games"),
        (["--game", "scotch", "--players", "8", "--rule", "teams=pairs"], "too many"),
        (["--n", "0"], "at least 1 deal"),
        (["--boot", "1"], "at least 2 bootstrap"),
        (["--score", "1-1", "--chart", "x.png"], "leave out --score"),
    ],
)
def test_bad_input_is_one_line(args, message):
    r = run("odds", "--n", 100, *args)
    assert r.exit_code == 2
    assert r.output.startswith("whistsim: error:") and message in r.output
    assert len(r.output.strip().splitlines()) == 1


def test_scotch_revokes_are_modelled_only_when_never_claimed():
    # claim=0: a revoke is never claimed, so the game is count-out alone; any claim ends it otherwise.
    assert setting("scotch", players=4, rules={"revokes": True, "claim": 0}).rules.revokes
    with pytest.raises(WhistsimError, match="claimed revoke"):
        setting("scotch", players=4, rules={"revokes": True, "claim": 0.5})


def test_whist_deducted_penalties_are_modelled_only_when_never_claimed():
    assert setting("whist", rules={"revokes": True, "revoke_score": "deduct", "claim": 0}).rules.revokes
    assert (
        setting("whist", rules={"revokes": True, "claim": 0.5}).rules.claim == 0.5
    )  # added: scores only rise
    with pytest.raises(WhistsimError, match="can fall below 0"):
        setting("whist", rules={"revokes": True, "revoke_score": "deduct"})


def test_whist_points_parts_are_the_engines_count_out_rows():
    assert setting("whist").parts == (kernels.P_PENALTY, P_TRICK_POINTS, P_HONOURS)
    assert setting("scotch").parts[CARDS] == P_CARDS


# ---- the study -------------------------------------------------------------------------------


def test_the_odds_study_writes_findings_with_figures_cis_and_n(tmp_path):
    from whistsim.experiments import load_spec, run_experiment
    from whistsim.experiments.charts import problems
    from whistsim.experiments.studies.game_odds import options

    spec = load_spec("experiments/game_odds.toml").with_n(600)
    with options(boot=3, boot_three_sides=2, check_games=60):
        run_experiment(spec, out=tmp_path / "game_odds")
    out = tmp_path / "game_odds"
    text = (out / "report.md").read_text()
    findings = text.split("## Findings")[1].split("## What was run")[0].strip().splitlines()
    findings = [f for f in findings if f.strip()]
    assert len(findings) == 6
    for f in findings:
        assert "95% CI" in f and "n = " in f, f
    assert "## The method against whole games" in text and "Whist to 10, honours on | 6-2 |" in text
    names = {str(p.relative_to(out)) for p in out.rglob("*")}
    assert {"report.md", "summary.csv", "histograms.csv", "charts/leader_wins.png"} <= names
    assert "charts/heatmap_whist_10_honours.png" in names
    assert {"tables/check.csv", "tables/honours.csv", "tables/table_whist_7_no_honours.csv"} <= names
    assert "`tables/honours.csv`: honours on against off" in text  # each study file said in the report
    check = pd.read_csv(out / "tables" / "check.csv")
    assert len(check) == 8 and set(check["games"]) == {60}
    for png in out.glob("charts/*.png"):
        side = json.loads(png.with_suffix(".json").read_text())
        assert side["png"] == png.name and problems(side) == [], (png.name, problems(side))


SMALL = {
    "name": "odds_small", "game": "whist", "n": 300, "seed": 3, "chunk": 128, "measure": "game_odds",
    "analysis": "game_odds", "histograms": ["outcome"], "rules": {"unit": "deal"}, "seats": {"all": "heuristic"},
    "sweep": [{"game": ["whist"], "rules.target": [5], "rules.honours": [True, False]},
              {"game": ["scotch"], "rules.players": [4]}],
    "baseline": {"rules.honours": True},
}  # fmt: skip


@pytest.fixture(scope="module")
def small_runs():
    """The small spec run in chunks of 128 deals and of 300 (one chunk), each solved."""
    from whistsim.experiments import run_experiment
    from whistsim.experiments.spec import spec_from_dict
    from whistsim.experiments.studies.game_odds import options, solutions

    out = {}
    with options(boot=3, boot_three_sides=2):
        for chunk in (128, 300):
            res = run_experiment(spec_from_dict({**SMALL, "chunk": chunk}), write=False)
            out[chunk] = (res, solutions(res))
    return out


def test_the_odds_studys_tables_are_odds_solve_on_the_same_deals(small_runs):
    res, sols = small_runs[128]
    assert res.tally.chunks == 3
    for key, kw in (("whist_5_honours", {"rules": {"target": 5, "honours": True}}),
                    ("whist_5_no_honours", {"rules": {"target": 5, "honours": False}}),
                    ("scotch_4", {"players": 4})):  # fmt: skip
        game = key.split("_")[0]
        direct = solve(setting(game, strategies=["heuristic"], **kw), 300, 3, boot=2)
        assert np.array_equal(sols[key].V, direct.V), key
        assert np.array_equal(sols[key].first, direct.first), key
        assert sols[key].n == 300


def test_the_odds_study_gives_the_same_tables_whatever_the_chunk_size(small_runs):
    (a, sa), (b, sb) = small_runs[128], small_runs[300]
    assert a.tally.chunks != b.tally.chunks
    assert [h["outcome"] for h in a.tally.hists] == [h["outcome"] for h in b.tally.hists]
    for key in sa:
        assert np.array_equal(sa[key].V, sb[key].V) and np.array_equal(sa[key].se, sb[key].se), key
        assert np.array_equal(sa[key].first_reps, sb[key].first_reps), key
    # Honours off is kept beside honours on, deal by deal: the joint codes are wider than 64 bits.
    assert max(max(h["outcome"]) for h in a.tally.hists).bit_length() > 64


def test_dealer_classes_are_seats_alike_after_rotating_the_table():
    assert setting("whist").period == 2  # the same players all round: only the dealer's side matters
    assert setting("whist", strategies=["heuristic", "random"] * 2).period == 2
    assert setting("whist", strategies=["heuristic", "random", "random", "random"]).period == 4
    assert setting("scotch", players=6).period == 3
    assert setting("scotch", players=6, rules={"teams": "threes"}).period == 2


def test_one_seed_gives_one_table_whatever_the_threads():
    a = whistsim.odds("whist", 3_000, 4, preset="short", boot=6, threads=1)
    b = whistsim.odds("whist", 3_000, 4, preset="short", boot=6, threads=2)
    assert (a["win_0"] == b["win_0"]).all()
    assert np.allclose(a["win_0_low"], b["win_0_low"], rtol=0, atol=1e-9)


# ---- memory: a run keeps its deals' outcomes, not their parts ---------------------------------


def old_distribution(parts, dealer, period):
    """distribution() as it was, on every deal at once: the reference for the one built chunk by chunk."""
    n, n_parts, k = parts.shape
    cls = dealer % period
    outcomes, offsets, index, counts = [], [0], np.zeros(n, np.int64), []
    for d in range(period):
        rows = np.flatnonzero(cls == d)
        u, inv, cnt = np.unique(parts[rows].reshape(rows.size, -1), axis=0, return_inverse=True,
                                return_counts=True)  # fmt: skip
        index[rows] = offsets[-1] + inv.ravel()
        outcomes.append(u.reshape(-1, n_parts, k))
        counts.append(cnt)
        offsets.append(offsets[-1] + len(u))
    return np.concatenate(outcomes).astype(np.int64), np.array(offsets), index, np.concatenate(counts)


@pytest.mark.parametrize("spread", [2, 40])  # few outcomes (a byte a deal), and over 256 (two bytes)
def test_outcomes_gathered_in_chunks_are_every_deals_at_once(spread):
    from whistsim.tools.odds import Outcomes

    rng = np.random.default_rng(spread)
    n, period = 5000, 2
    parts = rng.integers(0, spread, (n, 3, 2)).astype(np.int16)
    parts[:, 1, 0] += 1  # every deal scores
    dealer = rng.integers(0, 4, n)
    want = old_distribution(parts, dealer, period)
    cuts = np.unique(np.concatenate([[0, n], rng.integers(1, n, 12)]))
    acc = Outcomes(n, period, (3, 2))
    for a, b in zip(cuts[:-1], cuts[1:], strict=True):
        acc.add(int(a), dealer[a:b] % period, parts[a:b])
    for dist in (acc.distribution(), distribution(parts, dealer, period)):
        assert (dist.outcomes == want[0]).all() and (dist.offsets == want[1]).all()
        assert (dist.index == want[2]).all() and (dist.counts == want[3]).all()
        assert dist.index.itemsize == (1 if len(dist.counts) <= 256 else 2)
    assert (len(want[3]) > 256) == (spread == 40)


def test_a_run_keeps_about_a_byte_a_deal_not_its_parts(monkeypatch):
    # It kept every deal's parts, errors and deals drawn (44 bytes a deal for Whist), its index and
    # each resample's weights: 10**8 deals reserved several GB. Now a code a deal, chunks aside.
    import functools
    import tracemalloc

    from whistsim.games.runner import by_time
    from whistsim.tools import odds as tool

    monkeypatch.setattr(tool, "by_time", functools.partial(by_time, most=4096))  # chunks: small, any n
    monkeypatch.setattr(tool, "WEIGHTS_BLOCK", 4096, raising=False)
    s = setting("whist", preset="short")
    solve(s, 3000, 1, boot=2)  # compiled and warm
    peak = {}
    for n in (20_000, 120_000):
        tracemalloc.start()
        try:
            solve(s, n, 1, boot=2)
            peak[n] = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    per_deal = (peak[120_000] - peak[20_000]) / 100_000
    assert per_deal < 3, per_deal
