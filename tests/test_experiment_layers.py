"""The experiments package's anatomy: studies found by name, executors interchangeable, figures declared."""

from __future__ import annotations

import ast
import math
import tomllib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import whistsim.experiments as experiments
from whistsim.core.figures import points_declared
from whistsim.core.stats import Estimate, Share, proportion, wilson
from whistsim.experiments import LocalExecutor, Run, SpecError, spec_from_dict
from whistsim.experiments.figures import figure_unit, is_rate, is_ratio, ratios
from whistsim.experiments.reading import study
from whistsim.experiments.spec import study_names

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "whistsim" / "experiments"

SPEC = {
    "name": "layers", "game": "welsh", "n": 500, "seed": 11, "chunk": 100,
    "headline": ["points[0]", "last_keeps", "catch_rate"],
    "rules": {"preset": "parlett", "players": 3, "revokes": True, "challenge": "parlett"},
    "seats": {"all": "random:cheat=0"},
    "sweep": {"seats": {"0": {"cheat": [0, 1]}}},
    "baseline": {"seats": {"0": {"cheat": 0}}},
}  # fmt: skip


def test_every_shipped_spec_names_a_study_module_found_by_name():
    for path in sorted((ROOT / "experiments").glob("*.toml")):
        name = tomllib.loads(path.read_text(encoding="utf-8")).get("analysis")
        if name is None:
            continue
        assert name in study_names(), path
        assert (PACKAGE / "studies" / f"{name}.py").is_file()
        assert callable(study(name).analyse), name


def test_an_unknown_study_is_a_one_line_spec_error():
    with pytest.raises(SpecError) as e:
        spec_from_dict({**SPEC, "analysis": "astrology"})
    text = str(e.value)
    assert "\n" not in text and "analysis='astrology'" in text and "cheating" in text


def test_a_path_is_not_a_study_name():
    with pytest.raises(SpecError):
        spec_from_dict({**SPEC, "analysis": "../run"})


def test_the_spec_module_imports_no_reading_report_or_run():
    tree = ast.parse((PACKAGE / "spec.py").read_text(encoding="utf-8"))
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.level == 1}
    assert imported <= {"figures"}, imported


def test_no_framework_module_names_a_game_figure():
    """Only a study's own module (studies/NAME.py) may name a game's figures; the framework reads
    the declarations (it may name the points figures it derives itself: whistsim.core.figures.points_declared)."""
    games = [_game(g) for g in ("welsh", "scotch", "whist")]
    derived = {f.name for f in points_declared()}
    rules = {o.key for g in games for o in g.options}  # a rule may share a figure's name (revokes)
    own = {f.name for g in games for f in g.figures} - derived - rules
    for path in PACKAGE.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        found = [n for n in own for q in ('"', "'") if f"{q}{n}{q}" in text or f"{q}{n}[" in text]
        assert not found, (path.name, found)


def _game(name):
    from whistsim.games import get_game

    return get_game(name)


class Reversed:
    """An executor that plays every chunk, then hands them back last first (as a cluster might)."""

    def map(self, job, chunks, progress):
        done = [job(k) for k in chunks]
        yield from reversed(done)


def test_every_executor_gives_the_local_tally(tmp_path):
    spec = spec_from_dict(SPEC)
    local = Run(spec, write=False).play(LocalExecutor())
    shuffled = Run(spec, out=tmp_path, write=True).play(Reversed())
    assert local.tally.chunks == shuffled.tally.chunks == 5
    assert local.tally.to_json() == shuffled.tally.to_json()
    assert not (tmp_path / ".checkpoint.json").exists() and (tmp_path / "summary.csv").is_file()


def test_run_experiment_is_a_local_run():
    spec = spec_from_dict(SPEC)
    a = experiments.run_experiment(spec, write=False)
    b = Run(spec, write=False).play()
    assert a.tally.to_json() == b.tally.to_json()
    assert a.findings() == b.findings()


# ---- figures, as the games declare them ---------------------------------------------


def test_units_rates_and_ratios_come_from_the_declaration():
    assert figure_unit("welsh", "points[2]") == "points per game"
    assert figure_unit("welsh", "no_such_figure") == "per game"
    assert is_rate("welsh", "last_keeps") and not is_rate("welsh", "points[0]")
    assert is_ratio("welsh", "catch_rate") and ratios("welsh")["catch_rate"] == (
        "challenges_won",
        "false_passes",
    )
    assert is_rate("whist", "side_won[1]")


def test_a_share_is_reported_with_a_wilson_interval():
    spec = spec_from_dict(SPEC)
    res = Run(spec, write=False).play()
    e = res.estimate(0, "last_keeps")
    r = res.reported(0, "last_keeps")
    assert isinstance(r, Share) and (r.mean, r.n) == (e.mean, e.n)
    assert (r.low, r.high) == pytest.approx(wilson(e.mean, e.n))
    assert 0.0 <= r.low <= r.mean <= r.high <= 1.0
    assert type(res.reported(0, "points[0]")) is Estimate  # points keep their t interval
    assert "the last player left holding cards kept some" in " ".join(res.findings())


def test_wilson_matches_the_proportion_and_stays_in_the_unit_interval_at_the_ends():
    assert wilson(0.0, 50)[0] == 0.0 and wilson(0.0, 50)[1] > 0
    assert wilson(1.0, 50)[1] == 1.0 and wilson(1.0, 50)[0] < 1
    p, low, high = proportion(13, 40)
    assert (low, high) == wilson(p, 40)
    # Wilson's interval inverts the score test: the p0 with (p - p0)^2 = z^2 p0 (1 - p0) / n
    z2, n = 1.959963984540054**2, 40
    a, b, c = 1 + z2 / n, -(2 * p + z2 / n), p * p
    roots = sorted((-b + s * math.sqrt(b * b - 4 * a * c)) / (2 * a) for s in (-1, 1))
    assert (low, high) == pytest.approx(roots, rel=1e-12)
    assert (low, high) == pytest.approx((0.200845, 0.479823), abs=1e-6)
    assert math.isnan(wilson(0.5, 0)[0])


@given(st.integers(1, 10_000), st.data())
def test_wilson_holds_the_share_inside_zero_and_one(n, data):
    k = data.draw(st.integers(0, n))
    low, high = wilson(k / n, n)
    assert 0.0 <= low <= k / n <= high <= 1.0


def test_a_game_axis_gives_each_grid_its_game_and_holds_its_rules_to_that_game():
    from whistsim.experiments import spec_from_dict
    from whistsim.experiments.spec import SpecError

    spec = spec_from_dict({"game": "whist", "n": 4, "seed": 1, "rules": {"unit": "deal"},
                           "sweep": [{"game": ["whist"], "rules.honours": [True, False]},
                                     {"game": ["scotch"], "rules.french": [False, True]}]})  # fmt: skip
    assert [spec.game_of(c) for c in spec.cells] == ["whist", "whist", "scotch", "scotch"]
    assert spec.games() == ["whist", "scotch"] and spec.cells[3].rules.french
    with pytest.raises(SpecError, match="rules.honours: unknown rule"):
        spec_from_dict(
            {"game": "whist", "n": 4, "seed": 1, "sweep": {"game": ["scotch"], "rules.honours": [True]}}
        )
    with pytest.raises(SpecError, match=r"rules.players: unknown rule \(whist\)"):
        spec_from_dict({"game": "whist", "n": 4, "seed": 1, "rules": {"players": 4},
                        "sweep": [{"game": ["whist", "scotch"]}]})  # fmt: skip
    with pytest.raises(SpecError, match="measure='lucky': unknown"):
        spec_from_dict({"game": "whist", "n": 4, "seed": 1, "measure": "lucky"})


def test_a_run_of_two_games_plays_each_cell_in_its_own_game():
    from whistsim.experiments import run_experiment, spec_from_dict

    base = {"game": "whist", "n": 30, "seed": 2, "rules": {"unit": "deal"}}
    both = run_experiment(spec_from_dict({**base, "sweep": [{"game": ["whist", "scotch"]}]}), write=False)
    for cell, game in enumerate(("whist", "scotch")):
        alone = run_experiment(spec_from_dict({**base, "game": game}), write=False)
        assert (
            both.summary().query(f"cell == {cell}")["figure"].tolist() == alone.summary()["figure"].tolist()
        )
        for f in alone.summary()["figure"]:
            x, y = both.estimate(cell, f).mean, alone.estimate(0, f).mean
            assert x == y or (math.isnan(x) and math.isnan(y)), (game, f)
