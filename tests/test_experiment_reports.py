"""The report and chart standard (docs/reports.md), on every committed result and on a tiny run.

Charts are checked through the data written beside each PNG (``NAME.json``), not the pixels; the
committed results are walked, so a study added later is checked the same way.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from whistsim.experiments import run_experiment, spec_from_dict
from whistsim.experiments.charts import ChartError, as_data, code_names, draw, problems
from whistsim.experiments.report import write_outputs
from whistsim.experiments.results import MAX_CHARTS, Analysis, Chart, ChartSeries, ExperimentResult

RESULTS = Path(__file__).parent.parent / "results"
SENTENCE_END = re.compile(r"[.!?](?:\*|\)|\")?(?=\s+[A-Z\"*(]|\s*$)")


def findings_of(report: str) -> list[str]:
    """The Findings section's items; fails unless it is the report's first section."""
    sections = [line for line in report.splitlines() if line.startswith("## ")]
    assert sections and sections[0].strip() == "## Findings", sections[:2]
    body = report.split("## Findings", 1)[1].split("\n## ", 1)[0]
    return [
        re.sub(r"^(-|\d+\.)\s+", "", line).strip()
        for line in body.splitlines()
        if re.match(r"^(-|\d+\.)\s", line)
    ]


def sentences(text: str) -> int:
    return len(SENTENCE_END.findall(text.strip()))


def sidecars(root: Path) -> list[Path]:
    out = []
    for p in sorted(root.rglob("*.json")):
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and "series" in data and "png" in data:
            out.append(p)
    return out


def studies() -> list[Path]:
    """Every committed study folder (a report with a summary.csv)."""
    return sorted(p.parent for p in RESULTS.glob("*/report.md") if (p.parent / "summary.csv").is_file())


def test_the_sentence_counter():
    assert (
        sentences("With four players the Ten is caught in 31.2% of deals (95% CI 30.9–31.5%, n=100,000).")
        == 1
    )
    assert sentences("One, e.g. this. Two.") == 2
    assert findings_of("# T\n\nintro\n\n## Findings\n\n- A.\n- B.\n\n## What was run\n\n- x\n") == [
        "A.",
        "B.",
    ]


@pytest.mark.parametrize("folder", studies(), ids=lambda p: p.name)
def test_every_committed_report_opens_with_at_most_six_findings(folder):
    report = (folder / "report.md").read_text(encoding="utf-8")
    found = findings_of(report)
    assert 1 <= len(found) <= 6, found
    assert sum(sentences(f) for f in found) <= 6, found
    for f in found:
        assert "95% CI" in f or "n=" in f or "n = " in f, f
        assert not re.search(r"`[^`]*[\[_=][^`]*`", f), f  # no code names such as `tt[0]`
    assert "## What was run" in report
    assert report.index("## Findings") < report.index("## What was run")


@pytest.mark.parametrize("folder", [p for p in RESULTS.iterdir() if p.is_dir()], ids=lambda p: p.name)
def test_every_committed_chart_has_its_data_and_meets_the_standard(folder):
    pngs = sorted(folder.rglob("*.png"))
    assert len(pngs) <= MAX_CHARTS, [p.name for p in pngs]
    drawn = {}
    for side in sidecars(folder):
        data = json.loads(side.read_text(encoding="utf-8"))
        drawn[side.parent / data["png"]] = side
        assert problems(data) == [], (side, problems(data))
    for png in pngs:
        assert png in drawn, f"{png} has no data beside it"


def test_the_claims_chart_has_its_data_and_meets_the_standard():
    png = RESULTS / "claims.png"
    side = RESULTS / "claims-chart.json"
    assert png.is_file() and side.is_file()
    data = json.loads(side.read_text(encoding="utf-8"))
    assert data["png"] == "claims.png" and problems(data) == []
    claims = json.loads((RESULTS / "claims.json").read_text(encoding="utf-8"))
    assert sum(len(s["y"]) for s in data["series"]) == sum(1 for c in claims if c["readings"])


def _chart(**over) -> Chart:
    kw = dict(name="c", title="Points rise with the number of players", xlabel="players at the table",
              ylabel="points per game", series=[ChartSeries("greedy players", [2, 3], [1.0, 2.0], [0.5, 1.5], [1.5, 2.5])],
              n="n=1,000 games a point", players="rule-based players (greedy)")  # fmt: skip
    kw.update(over)
    return Chart(**kw)


def test_a_chart_is_drawn_with_its_data_beside_it(tmp_path):
    draw(_chart(), tmp_path / "c.png")
    data = json.loads((tmp_path / "c.json").read_text(encoding="utf-8"))
    assert (tmp_path / "c.png").read_bytes()[:4] == b"\x89PNG"
    assert data["png"] == "c.png" and data["series"][0]["y"] == [1.0, 2.0] and problems(data) == []
    assert data["caption"].startswith(
        "Rule-based players (greedy); n=1,000 games a point."
    )  # who and how many


@pytest.mark.parametrize(
    "over, why",
    [
        (dict(series=[]), "no series"),
        (dict(series=[ChartSeries("a", [], [], [], [])]), "empty"),
        (dict(series=[ChartSeries("a", [1], [1.0], [1.0], [1.0]), ChartSeries("a", [2], [2.0], [2.0], [2.0])]),
         "two series labelled 'a'"),
        (dict(kind="hist", series=[ChartSeries("standard scoring", [216], [1.0], [1.0], [1.0])]), "degenerate histogram"),
        (dict(series=[ChartSeries("a", [1], [float("nan")], [0.0], [1.0])]), "not finite"),
        (dict(series=[ChartSeries("a", [1], [2.0], [0.0], [1.0])]), "outside its CI"),
        (dict(title="tt[0] by seat 0 plays=hoarder"), "code name"),
        (dict(ylabel="rel_spread"), "code name"),
    ],
)  # fmt: skip
def test_a_chart_that_breaks_the_standard_is_refused(tmp_path, over, why):
    with pytest.raises(ChartError, match=re.escape(why)):
        draw(_chart(**over), tmp_path / "c.png")
    assert not (tmp_path / "c.png").exists() and not (tmp_path / "c.json").exists()


def test_code_names_are_found_and_plain_words_pass():
    assert code_names("tt[0] by seat 0 plays=hoarder, rel_spread") == ["tt[0]", "plays=h", "rel_spread"]
    assert code_names("Tens and Taffies won by seat 0 (n=1,000 games); seat 0 plays the hoarder") == []


TINY = {
    "name": "tiny_generic", "title": "A tiny study with no reading of its own", "game": "welsh", "n": 300,
    "seed": 3, "chunk": 150, "headline": ["points[0]", "last_keeps", "rel_spread", "win[0]", "edge[0]", "turns", "tt[0]"],
    "rules": {"preset": "parlett"}, "seats": {"all": "random"},
    "sweep": {"rules.players": [3, 4], "rules.scoring": ["standard", "piles"]},
    "baseline": {"rules.scoring": "standard"},
}  # fmt: skip


@pytest.fixture(scope="module")
def tiny_result() -> ExperimentResult:
    return run_experiment(spec_from_dict(TINY), write=False)


def test_a_tiny_spec_without_a_study_opens_with_six_plain_findings(tiny_result, tmp_path):
    write_outputs(tiny_result, tmp_path)
    report = (tmp_path / "report.md").read_text(encoding="utf-8")
    found = findings_of(report)
    assert 1 <= len(found) <= 6 and sum(sentences(f) for f in found) <= 6, found
    assert all("95% CI" in f and "n=300" in f for f in found), found
    assert not any(code_names(f.split("(95% CI")[0]) for f in found), found
    assert "## Appendix" in report and report.index("## Appendix") > report.index("## What was run")
    # the units are in the tables' headers
    assert "(points per game)" in report and "(share of games)" in report
    charts = sorted((tmp_path / "charts").glob("*.png"))
    assert 1 <= len(charts) <= 6
    for png in charts:
        data = json.loads(png.with_suffix(".json").read_text(encoding="utf-8"))
        assert problems(data) == [] and data["png"] == png.name
        assert f"charts/{png.name}" in report


def test_a_share_in_a_report_has_a_wilson_interval_inside_0_and_1(tiny_result):
    for c in tiny_result.spec.cells:
        for f in ("last_keeps", "win[0]"):
            e = tiny_result.reported(c.index, f)
            assert 0.0 <= e.low <= e.mean <= e.high <= 1.0


def test_a_refused_chart_is_left_out_and_named(tiny_result, tmp_path):
    bad = Chart("flat", "All players' points together never vary", "points per game (all players)",
                "share of games", [ChartSeries("standard scoring", [216], [1.0], [1.0], [1.0])], kind="hist")  # fmt: skip
    dup = _chart(
        name="dup",
        series=[ChartSeries("a", [1], [1.0], [1.0], [1.0]), ChartSeries("a", [2], [2.0], [2.0], [2.0])],
    )
    result = ExperimentResult(tiny_result.spec, tiny_result.tally, 1.0,
                              reader=lambda r: Analysis(["One finding (95% CI 1 to 2, n=300)."], [bad, dup, _chart()], []))  # fmt: skip
    write_outputs(result, tmp_path)
    report = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert sorted(p.name for p in (tmp_path / "charts").iterdir() if not p.name.startswith(".")) == [
        "c.json",
        "c.png",
    ]
    assert "Left out: a chart (chart 'flat'" in report and "degenerate histogram" in report
    assert "Left out: a chart (chart 'dup'" in report and "two series labelled 'a'" in report


def test_as_data_round_trips_what_is_drawn():
    d = as_data(_chart(reference=0.5, reference_label="a fair share"))
    assert d["reference"] == 0.5 and d["series"][0]["label"] == "greedy players"


def test_a_committed_study_is_the_codes_rerunning_its_spec_gives_its_summary_byte_for_byte(tmp_path):
    # The cheapest committed study (about 10 s of CPU), at its committed n and seed: the committed
    # results are what today's code writes, not what an older version wrote.
    from click.testing import CliRunner

    from whistsim.cli import main

    spec = Path(__file__).parent.parent / "experiments" / "player_count.toml"
    r = CliRunner().invoke(main, ["experiment", str(spec), "--out", str(tmp_path), "--no-progress"])
    assert r.exit_code == 0, r.output
    committed = RESULTS / "player_count" / "summary.csv"
    assert (tmp_path / "summary.csv").read_bytes() == committed.read_bytes()
