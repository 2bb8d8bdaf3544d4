"""Rule design (whistsim design): the race finds what is best by construction, drops only the worse,
re-measures on fresh deals, and gives one answer for a seed at any thread count and after a resume."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from whistsim import compare
from whistsim.cli import main
from whistsim.design import DesignInterrupted, design_from_dict, run_design
from whistsim.design.race import cs_half_width, measure_block
from whistsim.design.search import FINAL_START


def _spec(**over):
    """Scotch Whist, four random players: the target decides deals per game, exactly and monotonically
    (a game to a lower target ends on the same deal or sooner)."""
    data = {
        "game": "scotch", "seed": 11, "budget": 60_000, "block": 500, "final": 2_000,
        "rules": {"players": 4},
        "space": {"target": [21, 31, 41, 51]},
        "players": {"random": "random"},
        "objectives": [{"figure": "deals", "players": "random", "goal": "min"}],
    }  # fmt: skip
    data.update(over)
    return design_from_dict(data, name="tiny")


def _answer(r):
    cols = [c for c in r.summary().columns]
    return r.summary()[cols].to_csv(index=False), r.chosen


def test_the_race_finds_the_variant_best_by_construction(tmp_path):
    r = run_design(_spec(), out=tmp_path, threads_=1)
    best = r.variants[r.chosen[0]]
    assert best.params == {"target": 21}
    assert r.mode == "exhaustive" and len(r.variants) == 4  # target 41 is the standard rules themselves
    # the rest are dropped, the standard rules (target 41) among them, each by a variant shown better
    assert all(v.status == "dropped" for v in r.variants if v.id != best.id)
    assert r.spent < r.full_cost() or r.rounds == 1
    report = (tmp_path / "report.md").read_text()
    assert report.index("## Findings") < report.index("## What was run")
    assert (tmp_path / "summary.csv").is_file() and (tmp_path / "charts" / "variants.json").is_file()


def test_a_scoring_that_only_rescales_leaves_the_figure_tied_and_nothing_dropped(tmp_path):
    # Welsh Whist: the share of games a seat wins is the same under any rescaling of the points;
    # with Tens worth the same under both Taffy ranks in a pack without Taffies, the variants tie.
    spec = design_from_dict({
        "game": "welsh", "seed": 3, "budget": 20_000, "block": 500, "final": 1_000,
        "rules": {"players": 3, "taffies": 0},
        "space": {"taffy_rank": [10.5, 10]},
        "players": {"greedy": "greedy"},
        "objectives": [{"figure": "win[0]", "players": "greedy", "goal": "max"}],
    })  # fmt: skip
    r = run_design(spec, out=tmp_path, threads_=1)
    assert len(r.variants) == 2 and all(v.status == "racing" for v in r.variants)
    assert r.judge.identical(0, 0, 1)  # equal on every deal: no Taffy, so their rank never acts


def test_a_variant_the_race_drops_is_worse_when_measured_at_length(tmp_path):
    # A heuristic partnership against a random one: skill shows more in a longer game.
    spec = design_from_dict({
        "game": "scotch", "seed": 5, "budget": 400_000, "block": 1_000, "final": 2_000,
        "rules": {"players": 4},
        "space": {"target": [11, 41]},
        "players": {"skill": {"all": "random", "side0": "heuristic"}},
        "objectives": [{"figure": "side_won[0]", "players": "skill", "goal": "max"}],
    })  # fmt: skip
    r = run_design(spec, out=tmp_path, threads_=1)
    dropped = [v for v in r.variants if v.status == "dropped"]
    assert dropped, "the race settled nothing"
    loser = dropped[0]
    winner = r.variants[loser.by]
    rules = lambda v: {"target": (v.params or {"target": 41})["target"]}  # noqa: E731
    c = compare("scotch", players=4, rules=rules(loser), vs=rules(winner), n=20_000, seed=99,
                strategies=["heuristic", "random", "heuristic", "random"], first="rotate")  # fmt: skip
    row = c.summary().set_index("figure").loc["side_won[0]"]
    assert row["ci_low"] > 0, row  # the winner's side wins more, with 95% confidence, on other deals


def test_the_fresh_deals_are_none_the_search_played(tmp_path):
    spec = _spec()
    r = run_design(spec, out=tmp_path, threads_=1)
    assert r.rounds * spec.block <= spec.budget < FINAL_START  # search games lie below the budget
    x = measure_block(spec, spec.standard, FINAL_START, spec.final)
    assert r.finals[0].mean[0] == pytest.approx(float(x[0].mean()))
    searched = measure_block(spec, spec.standard, 0, spec.final)
    assert not np.array_equal(x, searched)  # other deals: not the search's first games again


def _optuna_spec(**over):
    # a space larger than 'exhaustive': Optuna's TPE draws the variants
    return _spec(space={"target": "15..60", "french": [False, True]}, exhaustive=4, batch=4, max_alive=8,
                 budget=80_000, **over)  # fmt: skip


def test_the_same_seed_gives_the_same_answer_at_any_thread_count(tmp_path):
    one = run_design(_optuna_spec(), out=tmp_path / "one", threads_=1)
    two = run_design(_optuna_spec(), out=tmp_path / "two", threads_=2)
    assert one.mode == "optuna" and len(one.variants) > 4
    assert _answer(one) == _answer(two)
    assert (tmp_path / "one" / "report.md").read_text().split("## What was run")[0] == (
        tmp_path / "two" / "report.md"
    ).read_text().split("## What was run")[0]


def test_a_run_resumed_after_an_interruption_gives_the_same_answer(tmp_path):
    whole = run_design(_optuna_spec(), out=tmp_path / "whole", threads_=1)

    def stop(blocks: int) -> None:
        if blocks == 7:  # mid-round: some of the round's blocks are kept, the rest replayed
            raise KeyboardInterrupt

    with pytest.raises(DesignInterrupted, match="--resume"):
        run_design(_optuna_spec(), out=tmp_path / "cut", threads_=1, on_block=stop)
    assert (tmp_path / "cut" / ".design-checkpoint.npz").is_file()
    resumed = run_design(_optuna_spec(), out=tmp_path / "cut", threads_=1, resume=True)
    assert _answer(resumed) == _answer(whole)
    assert not (tmp_path / "cut" / ".design-checkpoint.npz").exists()


def test_the_race_intervals_hold_at_every_round_and_narrow():
    widths = [cs_half_width(1.0, n, 1e-4, 2000) for n in (500, 2000, 8000, 32000)]
    assert widths == sorted(widths, reverse=True)
    # wider than a fixed-n interval at the same level: the price of looking after every round
    assert widths[1] > 3.89 / math.sqrt(2000)


BASE = """game = "whist"
seed = 1
budget = {budget}
block = 200
[space]
{space}
[players]
even = "random"
[[objectives]]
figure = "{figure}"
players = "even"
goal = "{goal}"
"""


@pytest.mark.parametrize(
    "change,words",
    [
        ({"space": "trump = [true, false]"}, "space.trump: not a rule of whist"),
        ({"space": "target = [5, 6]"}, "space.target=6"),
        ({"figure": "dealz"}, "not a figure of whist"),
        ({"space": ""}, "space: empty"),
        ({"budget": 10}, "budget 10 games is too small"),
        ({"goal": "fair", "figure": "deals"}, "goal fair needs a share of games won"),
        ({"figure": "side_won"}, "give one, e.g. side_won[0]"),
    ],
)
def test_a_bad_spec_is_one_line_naming_the_fault(tmp_path, change, words):
    fields = {"budget": 100_000, "space": "target = [5, 7]", "figure": "deals", "goal": "min", **change}
    path = tmp_path / "bad.toml"
    path.write_text(BASE.format(**fields))
    r = CliRunner().invoke(main, ["design", str(path), "--out", str(tmp_path / "out")])
    assert r.exit_code != 0
    lines = [line for line in r.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("whistsim: error:") and words in lines[0], r.output
    assert "Traceback" not in r.output and not (tmp_path / "out").exists()


def test_the_command_writes_the_report_and_says_its_findings(tmp_path):
    path = tmp_path / "ok.toml"
    path.write_text(BASE.format(budget=60_000, space="target = [5, 7]", figure="deals", goal="min"))
    out = tmp_path / "out"
    r = CliRunner().invoke(main, ["design", str(path), "--out", str(out), "--no-progress", "--threads", "1"])
    assert r.exit_code == 0, r.output
    assert "target 5" in r.output and (out / "report.md").is_file()
    assert Path(out / "summary.csv").read_text().splitlines()[0].startswith("variant,rules,standard,target")
