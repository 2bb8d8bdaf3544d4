"""The Welsh studies of the draw phase, the last player and the Taffy's rank: each study's own
reading at a tiny n leads the report with its findings (each with a 95% CI and n), at most six,
and at most six charts titled in words."""

from pathlib import Path

import pytest

from whistsim.experiments.reading import study
from whistsim.experiments.run import run_experiment
from whistsim.experiments.spec import load_spec

SPECS = Path(__file__).parent.parent / "experiments"


@pytest.mark.parametrize("name", ["draw_phase", "last_player", "taffy_rank"])
def test_the_study_reads_its_own_findings_first(tmp_path, name):
    spec = load_spec(SPECS / f"{name}.toml")
    res = run_experiment(spec, out=tmp_path, n=300)
    own = study(spec.analysis).analyse(res)
    assert 1 <= len(own.findings) <= 6 and all("95% CI" in f and "n=" in f for f in own.findings[:2])
    assert 1 <= len(own.charts) <= 6
    for c in own.charts:
        assert "[" not in c.title and "_" not in c.title, c.title  # figures named in words
        assert c.xlabel and "(95%" in c.ylabel
        assert all(s.y and len(set(s.y)) > 1 for s in c.series), c.title  # no empty or constant series
        assert len({s.label for s in c.series}) == len(c.series)
    report = (tmp_path / "report.md").read_text()
    assert own.findings[0] in report


def test_taffy_rank_at_10_half_the_ten_never_takes_a_taffy(tmp_path):
    spec = load_spec(SPECS / "taffy_rank.toml")
    res = run_experiment(spec, write=False, n=300)
    for c in spec.cells:
        ten = res.estimate(c.index, "taffy_ten_ten")
        assert (ten.mean == 0) == (c.value("rules.taffy_rank") == 10.5)
