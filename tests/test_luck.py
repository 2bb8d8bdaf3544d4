"""Luck against skill: each deal's open-hand par beside its score."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import whistsim
from whistsim.cli import main
from whistsim.experiments.report import HOW_TO_READ
from whistsim.solver import solve_record
from whistsim.solver.luck import deals, par_of, pars, split


def test_whist_par_is_trick_points_of_the_open_hand_tricks_plus_honours_as_dealt():
    rec = whistsim.simulate(
        "whist", 1, 6, rules={"unit": "deal"}, strategies=["heuristic"], records=1
    ).records[0]
    t0, t1 = solve_record({**rec, "moves": []})["tricks"]
    h = rec["result"]["honours"]
    assert t0 + t1 == 13
    assert par_of(rec) == max(0, t0 - 6) - max(0, t1 - 6) + h[0] - h[1]


def test_scotch_par_is_the_solver_margin_and_play_is_what_the_deal_scored_beyond_it():
    df = deals("scotch", 6, 3, ["heuristic"], players=4)
    sim = whistsim.simulate("scotch", 6, 3, rules={"unit": "deal"}, strategies=["heuristic"], records=6)
    for row, rec in zip(df.itertuples(), sim.records, strict=True):
        assert row.par == solve_record({**rec, "moves": []})["margin"]
        assert row.actual == rec["result"]["points"][0] - rec["result"]["points"][1]
        assert row.play == row.actual - row.par


def test_the_same_deals_under_every_strength_share_their_par():
    a = deals("scotch", 5, 9, ["random"], players=4)
    b = deals("scotch", 5, 9, ["heuristic"], players=4)
    assert a["par"].tolist() == b["par"].tolist()


def test_deals_solved_on_several_threads_get_the_pars_of_one_at_a_time():
    from whistsim.games.dealt import search

    recs = whistsim.simulate(
        "scotch", 8, 4, players=4, rules={"unit": "deal"}, strategies=["random"], records=8
    ).records
    cache: dict = {}
    assert pars(recs + recs[:3], cache, threads=3) == [par_of(r) for r in recs + recs[:3]]
    assert len(cache) == 8  # each deal solved once
    # the threads overlap only if the search lets go of the GIL
    assert search.mtdf.targetoptions["nogil"] and search.move_values.targetoptions["nogil"]


def test_when_the_score_is_the_par_the_cards_decide_everything():
    par = np.arange(40) % 7 - 3
    s = split(pd.DataFrame({"par": par, "actual": par, "play": 0 * par}))
    assert s["cards_share"] == (1.0, 1.0, 1.0) and s["play"][0] == 0


def test_when_the_score_ignores_the_cards_their_share_is_small():
    rng = np.random.default_rng(1)
    par = rng.integers(-10, 10, 400)
    actual = rng.integers(-10, 10, 400)
    s = split(pd.DataFrame({"par": par, "actual": actual, "play": actual - par}))
    low, high = s["cards_share"][1], s["cards_share"][2]
    assert 0 <= low <= s["cards_share"][0] <= high < 0.05
    assert abs(s["play_share"][0] + s["cards_share"][0] - 1) < 1e-12


def test_simulate_solve_prints_the_split_and_refuses_games_it_cannot_solve():
    out = CliRunner().invoke(main, ["simulate", "--game", "scotch", "--n", "8", "--strategy", "heuristic",
                                    "--rule", "unit=deal", "--solve"])  # fmt: skip
    assert out.exit_code == 0 and "share the cards decide (R²)" in out.output
    out = CliRunner().invoke(main, ["simulate", "--game", "welsh", "--n", "8", "--solve"])
    assert out.exit_code == 2 and "solver takes whist and scotch" in out.output


def _result(rng):
    """The luck study's result over made-up deals: each cell's par, and a margin near it."""
    from whistsim.experiments import load_spec
    from whistsim.experiments.reading import analyse
    from whistsim.experiments.results import ExperimentResult, Tally

    spec = load_spec("experiments/luck_skill.toml").with_n(60)
    tally = Tally.empty(len(spec.cells), 0)
    tally.games, tally.chunks = 60, 1
    for c in spec.cells:
        par = rng.integers(-10, 10, 60)
        actual = par + rng.integers(-3, 4, 60)
        for name, x in (
            ("par", par),
            ("actual", actual),
            ("play", actual - par),
            ("abs_play", abs(actual - par)),
        ):
            tally.cells[c.index].add(name, x)
    return ExperimentResult(spec, tally, 1.0, reader=analyse), spec


def test_the_split_read_from_the_tally_is_the_split_of_the_deals():
    from whistsim.experiments.studies.luck_skill import split as read

    rng = np.random.default_rng(2)
    res, spec = _result(rng)
    rng = np.random.default_rng(2)
    par = rng.integers(-10, 10, 60)
    actual = par + rng.integers(-3, 4, 60)
    want = split(pd.DataFrame({"par": par, "actual": actual, "play": actual - par}))
    got = read(res, 0)
    assert np.allclose(got["cards_share"], want["cards_share"], rtol=1e-12)
    assert np.allclose(got["play"], want["play"], rtol=1e-12) and got["sd_par"] == pytest.approx(
        want["sd_par"]
    )


def test_the_study_report_opens_with_findings_and_each_chart_has_its_data_beside_it(tmp_path):
    import json

    from whistsim.experiments.report import write_outputs

    res, spec = _result(np.random.default_rng(4))
    write_outputs(res, tmp_path)
    text = (tmp_path / "report.md").read_text()
    assert text.startswith("# Luck against skill\n\n" + HOW_TO_READ + "\n")
    found = text.split("## Findings")[1].split("## What was run")[0]
    sentences = [line for line in found.splitlines() if line.startswith("- ")]
    assert 1 <= len(sentences) <= 6 and all("95% CI" in s and "n=" in s for s in sentences)
    pngs = sorted((tmp_path / "charts").glob("*.png"))
    assert 1 <= len(pngs) <= 6
    for png in pngs:
        side = json.loads(png.with_suffix(".json").read_text())
        assert side["title"] and side["xlabel"] and side["ylabel"]
        for s in side["series"]:
            assert len(s["x"]) == len(s["y"]) == len(s["low"]) == len(s["high"]) > 0
            assert all(lo <= y <= hi for y, lo, hi in zip(s["y"], s["low"], s["high"], strict=True))
    table = text.split("## The split per player strength and rule variant")[1].split("\n## ")[0]
    assert (
        len(
            [line for line in table.splitlines() if line.startswith("| Whist") or line.startswith("| Scotch")]
        )
        == 16
    )
    summary = pd.read_csv(tmp_path / "summary.csv")
    assert {"par", "actual", "play", "abs_play"} <= set(summary["figure"])


def test_the_pipeline_measures_par_and_the_margin_of_the_deals_it_plays():
    from whistsim.experiments import load_spec, run_experiment

    spec = load_spec("experiments/luck_skill.toml").with_n(6)
    res = run_experiment(spec, write=False)
    cell = next(c for c in spec.cells if spec.game_of(c) == "scotch" and c.players == ("heuristic",) * 4
                and not c.rules.french)  # fmt: skip
    df = deals("scotch", 6, spec.seed, ["heuristic"], players=4)  # seat 0 leads every deal, as in the spec
    for name in ("par", "actual", "play"):
        assert res.estimate(cell.index, name).mean == pytest.approx(df[name].mean(), abs=1e-12)
