"""Experiments: spec checks, paired cells, streaming tallies, resume, Dask, reports and every command's help."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from spec_helpers import write_spec as write

from whistsim.cli import main
from whistsim.core.stats import Moments
from whistsim.experiments import (
    ExperimentInterrupted,
    SpecError,
    load_results,
    load_spec,
    run_experiment,
    spec_from_dict,
)
from whistsim.experiments.reading import study
from whistsim.experiments.results import CoMoments, Tally

BASE = """
name = "tiny"
title = "A tiny cheating study"
game = "welsh"
n = 600
seed = 5
chunk = 250
headline = ["points[0]", "challenges_won"]
analysis = "cheating"

[rules]
preset = "parlett"
players = 3
revokes = true

[seats]
all = "random:cheat=0"

[sweep]
rules.challenge = ["none", "akagiri"]
seats.0.cheat = [0, 1]

[baseline]
seats.0.cheat = 0
"""

SCOTCH_STUDIES = ["scotch_ten", "scotch_seats", "scotch_revokes", "french", "scotch_points"]


def tiny(**over) -> dict:
    """The BASE spec as a dict, with top-level keys replaced."""
    import tomllib

    d = tomllib.loads(BASE)
    d.update(over)
    return d


# ---- spec checks ------------------------------------------------------------------

BAD = [
    ("unknown key", "colour = 3\n" + BASE, "unknown key 'colour'"),
    ("wrong type n", BASE.replace("n = 600", 'n = "many"'), "n='many': expected an integer"),
    ("n zero", BASE.replace("n = 600", "n = 0"), "n=0"),
    ("negative seed", BASE.replace("seed = 5", "seed = -1"), "seed=-1"),
    ("first", BASE.replace('name = "tiny"', 'name = "tiny"\nfirst = "last"'), "first='last'"),
    ("rule wrong type", BASE.replace("players = 3", 'players = "3"'), "rules.players='3': expected an integer"),
    ("unknown rule", BASE.replace("revokes = true", "revokes = true\ncolour = 1"), "rules.colour: unknown rule"),
    ("bad rule value", BASE.replace('["none", "akagiri"]', '["none", "sometimes"]'), "challenge"),
    ("unknown preset", BASE.replace('preset = "parlett"', 'preset = "welsh"'), "unknown preset"),
    ("sweep not a list", BASE.replace("seats.0.cheat = [0, 1]", "seats.0.cheat = 1"), "sweep seats.0.cheat=1: expected a list"),
    ("sweep empty", BASE.replace("seats.0.cheat = [0, 1]", "seats.0.cheat = []"), "sweep seats.0.cheat: an empty list"),
    ("sweep bad axis", BASE.replace("rules.challenge", "table.challenge"), "sweep table.challenge"),
    ("sweep unknown rule", BASE.replace("rules.challenge", "rules.colour"), "sweep rules.colour: unknown rule"),
    ("sweep wrong type", BASE.replace('["none", "akagiri"]', "[1, 2]"), "sweep rules.challenge=1: expected a string"),
    ("unknown strategy", BASE.replace('all = "random:cheat=0"', 'all = "oracle"'), "unknown strategy 'oracle'"),
    ("unknown parameter", BASE.replace('all = "random:cheat=0"', 'all = "random:colour=1"'), "no parameter 'colour'"),
    ("seat out of range", BASE.replace("seats.0.cheat", "seats.4.cheat").replace("[baseline]\nseats.4", "[baseline]\nseats.4"), "seat 4 is named but there are only 3 seats"),
    ("cheat without revokes", BASE.replace("revokes = true", "revokes = false"), "a false pass needs revokes=true"),
    ("baseline not swept", BASE.replace("seats.0.cheat = 0\n", "seats.0.cheat = 0.5\n"), "baseline.seats.0.cheat=0.5: not one of the swept values"),
    ("baseline unknown axis", BASE + "rules.players = 3\n", "baseline.rules.players: not a sweep axis"),
    ("headline unknown", BASE.replace('["points[0]", "challenges_won"]', '["points[7]"]'), "figure 'points[7]' is not measured"),
    ("analysis unknown", BASE.replace('analysis = "cheating"', 'analysis = "astrology"'), "analysis='astrology'"),
    ("pairs across decks", BASE.replace("seats.0.cheat = [0, 1]", "seats.0.cheat = [0, 1]\nrules.taffies = [4, 6]").replace(
        "[baseline]\nseats.0.cheat = 0", "[baseline]\nrules.taffies = 4"), "cannot be paired"),
    ("duplicate cells", BASE.replace("seats.0.cheat = [0, 1]", "seats.0.cheat = [0, 1]\nseats.all.draw = [0.5, 0.5]"), "listed twice"),
    ("not TOML", BASE + "\n[[[", "not valid TOML"),
    ("seat without a player", BASE.replace('all = "random:cheat=0"', '0 = "random:cheat=0"'), "seat 1 has no player"),
]  # fmt: skip


@pytest.mark.parametrize("label,text,reason", BAD, ids=[b[0] for b in BAD])
def test_bad_spec_is_refused_before_anything_runs(tmp_path, label, text, reason):
    spec = write(tmp_path, text)
    out = tmp_path / "out"
    r = CliRunner().invoke(main, ["experiment", str(spec), "--out", str(out)])
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("whistsim: error: "), r.output
    assert reason in lines[0]
    assert "Traceback" not in r.output
    assert not out.exists()


def test_bad_command_line_values_are_refused_before_anything_runs(tmp_path):
    spec = write(tmp_path, BASE)
    for args, reason in ((["--n", "0"], "n=0"), (["--workers", "999"], "--workers 999"),
                         (["--until-ci", "-1"], "--until-ci -1"), (["--records", "100000"], "--records 100000")):  # fmt: skip
        out = tmp_path / "out"
        r = CliRunner().invoke(main, ["experiment", str(spec), "--out", str(out), *args])
        assert r.exit_code == 2 and reason in r.output and not out.exists(), (args, r.output)


def test_missing_spec_file_is_one_line(tmp_path):
    r = CliRunner().invoke(main, ["experiment", str(tmp_path / "nope.toml")])
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "cannot read" in r.output


def test_check_lists_cells_without_playing(tmp_path):
    r = CliRunner().invoke(main, ["experiment", str(write(tmp_path, BASE)), "--check"])
    assert r.exit_code == 0, r.output
    assert "4 cells" in r.output and r.output.count("cell ") == 4
    assert "2 paired comparisons" in r.output


def test_shipped_specs_are_valid():
    specs = sorted(Path(__file__).parent.parent.glob("experiments/*.toml"))
    assert {p.stem for p in specs} >= {
        "cheating",
        "five_penalty",
        "player_count",
        "seat_advantage",
        "taffy_rank",
        "leading",
        "draw_phase",
        "draw_phase_pimc",
        "last_player",
        *SCOTCH_STUDIES,
        "whist_honours",
        "whist_length",
        "whist_revokes",
        "skill_whist",
        "skill_scotch",
    }
    for p in specs:
        try:
            s = load_spec(p)
        except SpecError as e:
            if "unknown strategy" in str(e):  # the studies' players may not be built yet
                continue
            raise
        assert s.cells and s.headline, p


# ---- cells, pairing and streaming ---------------------------------------------------


def test_cells_expand_the_grid_and_union_of_grids():
    d = tiny(sweep=[{"rules": {"challenge": ["none"]}, "seats": {"0": {"cheat": [0, 1]}}},
                    {"rules": {"challenge": ["parlett", "akagiri"]}, "seats": {"0": {"cheat": [0, 1]}, "all": {"challenge": [0, 1]}}}])  # fmt: skip
    s = spec_from_dict(d)
    assert len(s.cells) == 2 + 2 * 2 * 2
    c = s.cells[-1]
    assert c.rules.challenge == "akagiri"
    assert c.players[0] == "random:cheat=1,challenge=1" and c.players[1] == "random:cheat=0,challenge=1"
    assert len(s.pairs) == 1 + 4


def test_ranges_and_player_sweeps():
    s = spec_from_dict(
        tiny(sweep={"rules": {"players": "3..5"}}, baseline={}, headline=["points[0]"], analysis=None)
    )
    assert [c.rules.players for c in s.cells] == [3, 4, 5]
    assert [len(c.players) for c in s.cells] == [3, 4, 5]


def test_cells_with_the_same_deck_see_the_same_deals(tmp_path):
    d = tiny(
        sweep={"rules": {"challenge": ["none", "parlett"], "taffies": [4, 6]}}, baseline={}, analysis=None
    )
    run_experiment(spec_from_dict(d, name="pairs"), out=tmp_path, n=300, records=5)
    decks = {}
    for f in sorted((tmp_path / "records").glob("cell-*.jsonl")):
        recs = [json.loads(line) for line in f.read_text().splitlines()]
        assert [r["seed"]["game"] for r in recs] == list(range(5))
        decks[f.stem] = [tuple(r["deck"]) for r in recs]
        key = (recs[0]["rules"]["challenge"], recs[0]["rules"]["taffies"])
        decks[key] = decks.pop(f.stem)
    # Same deck (4 Taffies) under two challenge rules: identical stocks game by game.
    assert decks[("none", 4)] == decks[("parlett", 4)]
    assert decks[("none", 6)] == decks[("parlett", 6)]
    # Another deck: other stocks, and the five games' stocks differ from each other.
    assert decks[("none", 4)] != decks[("none", 6)]
    assert len(set(decks[("none", 4)])) == 5


def test_paired_differences_are_per_game_differences(tmp_path):
    res = run_experiment(load_spec(write(tmp_path, BASE)), out=tmp_path / "out", rows=True)
    rows = pd.read_parquet(tmp_path / "out" / "rows")
    assert len(rows) == 600 * 4
    s = res.spec
    for j, p in enumerate(s.pairs):
        a = rows[rows.cell == p.cell].sort_values("game")["points[0]"].to_numpy()
        b = rows[rows.cell == p.base].sort_values("game")["points[0]"].to_numpy()
        e = res.tally.paired[j].estimate("points[0]")
        assert e.n == 600
        assert math.isclose(e.mean, float((a - b).mean()), abs_tol=1e-9)
        assert math.isclose(e.sd, float((a - b).std(ddof=1)), rel_tol=1e-9)
    summ = res.summary()
    for c in s.cells:
        x = rows[rows.cell == c.index]["challenges_won"].to_numpy()
        m = summ[(summ.cell == c.index) & (summ.figure == "challenges_won")].iloc[0]
        assert m.n == 600 and math.isclose(m["mean"], x.mean(), abs_tol=1e-9)


def test_seat_rotation_is_measured_not_mixed(tmp_path):
    # first="rotate" (the default): game g's first player is seat g % 3, and pos_points[k]
    # follows turn order, so seat advantage is measured apart from the players in the seats.
    d = tiny(sweep={}, baseline={}, analysis=None)
    run_experiment(spec_from_dict(d), out=tmp_path, n=300, rows=True)
    rows = pd.read_parquet(tmp_path / "rows").sort_values("game")
    g = rows.game.to_numpy()
    pts = rows[["points[0]", "points[1]", "points[2]"]].to_numpy()
    for k in range(3):
        assert (rows[f"pos_points[{k}]"].to_numpy() == pts[np.arange(len(g)), (g + k) % 3]).all()
    fixed = run_experiment(spec_from_dict({**d, "first": 0}), n=300, write=False)
    for k in range(3):
        assert fixed.estimate(0, f"pos_points[{k}]") == fixed.estimate(0, f"points[{k}]")


def test_two_grids_that_give_one_cell_are_refused():
    d = tiny(
        sweep=[{"rules": {"challenge": ["none"]}}, {"rules": {"challenge": ["none", "akagiri"]}}], baseline={}
    )
    with pytest.raises(SpecError, match="the same cell as cell 0"):
        spec_from_dict(d)


def test_moments_and_comoments_merge_exactly_like_one_pass():
    rng = np.random.default_rng(1)
    x = rng.integers(0, 5, 1000).astype(float)
    y = x * 0.3 + rng.random(1000)
    a, whole = CoMoments(), CoMoments.of(x, y)
    for i in range(0, 1000, 137):
        a.merge(CoMoments.of(x[i : i + 137], y[i : i + 137]))
    r1, r2 = a.ratio(), whole.ratio()
    assert math.isclose(r1.mean, y.mean() / x.mean()) and math.isclose(r1.mean, r2.mean)
    assert math.isclose(r1.sd, r2.sd, rel_tol=1e-9)
    t = Tally.empty(1, 0)
    m = Moments()
    m.add("x", x)
    t.cells[0] = m
    assert Tally.from_json(json.loads(json.dumps(t.to_json()))).cells[0].estimate("x") == m.estimate("x")


# ---- interruption, resume, stopping rule, Dask ----------------------------------------------


def test_resume_gives_the_same_result_as_an_uninterrupted_run(tmp_path):
    spec = load_spec(write(tmp_path, BASE))
    run_experiment(spec, out=tmp_path / "a")

    def stop(k: int) -> None:
        if k == 1:
            raise KeyboardInterrupt

    with pytest.raises(ExperimentInterrupted) as e:
        run_experiment(spec, out=tmp_path / "b", on_chunk=stop)
    assert "2 finished chunk(s)" in e.value.message and "--resume" in e.value.message
    assert (tmp_path / "b" / ".checkpoint.json").is_file()
    assert not (tmp_path / "b" / "summary.csv").exists()
    r = CliRunner().invoke(
        main, ["experiment", str(tmp_path / "spec.toml"), "--out", str(tmp_path / "b"), "--resume"]
    )
    assert r.exit_code == 0, r.output
    for f in ("summary.csv", "paired.csv"):
        assert (tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes()
    assert not (tmp_path / "b" / ".checkpoint.json").exists()


def test_resume_refuses_a_checkpoint_of_another_spec(tmp_path):
    spec = load_spec(write(tmp_path, BASE))
    with pytest.raises(ExperimentInterrupted):
        run_experiment(spec, out=tmp_path / "b", on_chunk=lambda k: (_ for _ in ()).throw(KeyboardInterrupt))
    other = write(tmp_path, BASE.replace("seed = 5", "seed = 6"), "other.toml")
    r = CliRunner().invoke(main, ["experiment", str(other), "--out", str(tmp_path / "b"), "--resume"])
    assert r.exit_code == 2 and "different spec" in r.output


def test_until_ci_stops_deterministically_when_every_headline_ci_is_narrow(tmp_path):
    spec = spec_from_dict(
        tiny(
            headline=["challenges_won"],
            sweep={"rules": {"challenge": ["akagiri"]}, "seats": {"0": {"cheat": [0, 1]}}},
        )
    )
    a = run_experiment(spec, until_ci=0.3, write=False)
    b = run_experiment(spec, until_ci=0.3, write=False)
    assert a.games == b.games and a.games % spec.chunk == 0 and a.games > spec.chunk
    assert a.tally.to_json() == b.tally.to_json()
    assert "at most 0.3 wide" in a.stopped
    from whistsim.experiments.run import widest_ci

    assert widest_ci(spec, a.tally)[0] <= 0.3
    shorter = run_experiment(spec.with_n(a.games - spec.chunk), write=False)
    assert widest_ci(spec, shorter.tally)[0] > 0.3  # it stopped at the first chunk that met the rule
    capped = run_experiment(spec, until_ci=1e-6, max_n=500, write=False)
    assert capped.games == 500 and "--max-n" in capped.stopped


def test_a_local_dask_cluster_gives_the_local_result():
    distributed = pytest.importorskip("distributed")
    spec = spec_from_dict(tiny(chunk=150, histograms=["total_points"]))
    local = run_experiment(spec, write=False)
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:
        with distributed.Client(cluster) as client:
            remote = run_experiment(spec, client=client, write=False)
    assert remote.tally.chunks == local.tally.chunks == 4
    assert remote.tally.to_json() == local.tally.to_json()


# ---- outputs --------------------------------------------------------------------------------


def test_report_of_a_tiny_run(tmp_path):
    out = tmp_path / "out"
    r = CliRunner().invoke(main, ["experiment", str(write(tmp_path, BASE)), "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "With no challenge rule cheating" in r.output
    report = (out / "report.md").read_text()
    for section in ("# A tiny cheating study", "## What was run", "## Findings", "## Charts",
                    "## Headline figures per cell", "## Paired differences", "600 games per cell"):  # fmt: skip
        assert section in report, section
    assert "95% CI" in report and "n=600" in report
    charts = sorted((out / "charts").glob("*.png"))
    assert charts and all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in charts)
    for p in charts:
        assert f"charts/{p.name}" in report
    summary = pd.read_csv(out / "summary.csv")
    assert list(summary.columns[-6:]) == ["figure", "mean", "sd", "ci_low", "ci_high", "n"]
    assert set(summary.cell) == {0, 1, 2, 3} and (summary.n == 600).all()
    loaded = load_results(out)
    assert len(loaded.summary()) == len(summary) and loaded.paired() is not None
    assert not list(out.glob(".*.tmp"))


def test_python_api_returns_dataframes(tmp_path):
    res = run_experiment(load_spec(write(tmp_path, BASE)), write=False)
    s, p = res.summary(), res.paired()
    assert {
        "cell",
        "label",
        "challenge",
        "cheat[0]",
        "figure",
        "mean",
        "sd",
        "ci_low",
        "ci_high",
        "n",
    } <= set(s.columns)
    assert set(p.figure) == {"points[0]", "challenges_won"}
    c = res.cell(challenge="none", **{"seats.0.cheat": 1})
    assert res.difference(c.index, "points[0]")[1].value("seats.0.cheat") == 0
    assert any("95% CI" in f for f in res.findings())


def test_every_command_has_help_with_an_example():
    runner = CliRunner()
    r = runner.invoke(main, ["--help"])
    assert r.exit_code == 0 and "Example" in r.output
    assert {"experiment", "claims", "simulate"} <= set(main.commands)
    for name in main.commands:
        r = runner.invoke(main, [name, "--help"])
        assert r.exit_code == 0, name
        assert "Example" in r.output and f"whistsim {name}" in r.output, name


def test_threads_and_the_progress_bar_do_not_change_the_numbers(capsys):
    spec = spec_from_dict(tiny())
    a = run_experiment(spec, write=False)
    b = run_experiment(spec, write=False, workers=1, progress=True)
    c = run_experiment(spec, write=False, until_ci=100.0, progress=True)
    assert a.tally.to_json() == b.tally.to_json()
    assert c.games == spec.chunk and "game" in capsys.readouterr().err


@pytest.mark.parametrize(
    "name",
    [
        "cheating",
        "five_penalty",
        "player_count",
        "seat_advantage",
        "taffy_rank",
        "leading",
        "draw_phase",
        "draw_phase_pimc",
        "last_player",
        *SCOTCH_STUDIES,
    ],
)
def test_each_shipped_study_runs_small_and_reports(tmp_path, name):
    spec = load_spec(Path(__file__).parent.parent / "experiments" / f"{name}.toml")
    n = 12 if name == "draw_phase_pimc" else 120  # a searching player: a few games
    res = run_experiment(spec, out=tmp_path, n=n)
    report = (tmp_path / "report.md").read_text()
    findings = res.findings()
    assert findings and any("95% CI" in f for f in findings), findings
    charts = list((tmp_path / "charts").glob("*.png"))
    assert charts and all(f"charts/{p.name}" in report for p in charts)
    assert f"n={n}" in report
    # the standard (docs/reports.md): Findings first, at most six; at most six charts, each with its data
    assert report.split("\n## ", 1)[1].startswith("Findings") and len(findings) <= 6
    assert len(charts) <= 6 and "Left out" not in report, report
    from whistsim.experiments.charts import problems

    for p in charts:
        assert problems(json.loads(p.with_suffix(".json").read_text())) == [], p
    own = study(spec.analysis).analyse(res)
    assert own.findings and findings[: len(own.findings)] == own.findings
    if (
        name in SCOTCH_STUDIES
    ):  # issue 11's standard: at most six findings and charts, each finding with its CI
        assert len(own.findings) <= 6 and len(own.charts) <= 6, name
        assert all("95% CI" in f for f in own.findings), own.findings


def test_cells_that_differ_only_in_a_game_option_are_distinct():
    # claim and unit are left out of a deal's record, yet they make different cells and checkpoints
    d = {"game": "scotch", "n": 10, "seed": 1, "rules": {"revokes": True},
         "sweep": {"rules": {"claim": [0, 1]}}}  # fmt: skip
    spec = spec_from_dict(d)
    assert len(spec.cells) == 2
    one = spec_from_dict({**d, "sweep": {"rules": {"claim": [0.5]}}})
    two = spec_from_dict({**d, "sweep": {"rules": {"claim": [0.25]}}})
    assert one.fingerprint() != two.fingerprint()


# The Whist studies and the skill ladder (pimc is slow: the ladder runs at a handful of games).
@pytest.mark.parametrize(
    "name, n", [("whist_honours", 120), ("whist_length", 120), ("whist_revokes", 40), ("skill_whist", 8),
                ("skill_scotch", 8)],
)  # fmt: skip
def test_each_whist_study_runs_small_and_reports_its_findings_first(tmp_path, name, n):
    spec = load_spec(Path(__file__).parent.parent / "experiments" / f"{name}.toml")
    res = run_experiment(spec, out=tmp_path, n=n)
    report = (tmp_path / "report.md").read_text()
    own = study(spec.analysis).analyse(res)
    assert own.findings and all("95% CI" in f or "(" in f for f in own.findings), own.findings
    assert res.findings()[: len(own.findings)] == own.findings  # the study's own findings come first
    assert not any(f.startswith("(") for f in own.findings), own.findings  # no "cannot read" notes
    charts = list((tmp_path / "charts").glob("*.png"))
    assert charts and all(f"charts/{p.name}" in report for p in charts)
    assert f"n={n}" in report


def test_seats_of_a_side_take_one_player():
    s = spec_from_dict(
        {"game": "whist", "n": 8, "seed": 1, "seats": {"all": "random"},
         "sweep": {"seats": {"side0": ["random", "heuristic"]}}, "baseline": {"seats.side0": "random"}}
    )  # fmt: skip
    assert [c.players for c in s.cells] == [("random",) * 4, ("heuristic", "random", "heuristic", "random")]
    assert len(s.pairs) == 1
    s = spec_from_dict(
        {"game": "scotch", "n": 8, "seed": 1, "rules": {"players": 6, "teams": [0, 1, 0, 1, 0, 1]},
         "seats": {"all": "random"}, "sweep": {"seats": {"side1": ["heuristic"]}}}
    )  # fmt: skip
    assert s.cells[0].players == ("random", "heuristic") * 3
    for d, msg in [
        ({"game": "welsh", "sweep": {"seats": {"side0": ["greedy"]}}}, "welsh has no sides"),
        ({"game": "whist", "sweep": {"seats": {"side2": ["heuristic"]}}}, "only sides 0 to 1"),
        ({"game": "whist", "seats": {"side0": "heuristic"}}, "expected a seat number or 'all'"),
    ]:
        with pytest.raises(SpecError, match=msg):
            spec_from_dict({"n": 8, "seed": 1, **d})
