"""The claims check: the registry, verdicts from CIs, and the totals of the sources measured."""

from __future__ import annotations

import json
import math

from click.testing import CliRunner

from whistsim.claims import NOT_CHECKED, Claim, ClaimResult, check_claims, registry, to_markdown
from whistsim.cli import main
from whistsim.experiments import verdicts as V
from whistsim.stats import Estimate


def test_every_welsh_claim_of_rules_md_is_registered():
    ids = [c.id for c in registry(["welsh"])]
    assert len(ids) == len(set(ids))
    assert {
        "total_216", "total_216_akagiri", "total_178_five_penalty", "three_best", "leading_catches",
        "little_advantage", "easy_to_cheat", "parlett_cures", "akagiri_cures",
    } <= set(ids)  # fmt: skip
    for c in registry(["welsh"]):
        assert c.source.split()[0] in ("Parlett", "Akagiri") and c.text


def test_verdicts_follow_the_confidence_interval():
    tight = Estimate(168.0, 0.0, 1000)
    assert V.equals(tight, 168, 0.5) == V.HOLDS
    assert V.equals(tight, 178, 0.5) == V.FAILS
    wide = Estimate(1.0, 20.0, 100)  # CI about -3 to 5
    assert V.positive(wide) == V.UNDECIDED
    assert V.positive(Estimate(1.0, 2.0, 10_000)) == V.HOLDS
    assert V.positive(Estimate(-1.0, 2.0, 10_000)) == V.FAILS
    assert V.not_positive(Estimate(-1.0, 2.0, 10_000)) == V.HOLDS
    assert V.small(Estimate(0.1, 2.0, 10_000), 1.0) == V.HOLDS
    assert V.small(Estimate(3.0, 2.0, 10_000), 1.0) == V.FAILS
    assert V.small(wide, 1.0) == V.UNDECIDED
    assert V.combine([V.HOLDS, V.UNDECIDED]) == V.UNDECIDED and V.combine([V.HOLDS, V.FAILS]) == V.FAILS


def test_the_totals_are_measured_and_178_does_not_hold():
    r = CliRunner().invoke(
        main, ["claims", "--only", "total_216", "--only", "total_178_five_penalty", "--n", "300", "--json"]
    )
    assert r.exit_code == 0, r.output
    rows = {d["id"]: d for d in map(json.loads, r.output.strip().splitlines())}
    assert rows["total_216"]["verdict"] == V.HOLDS and rows["total_216"]["mean"] == 216
    five = rows["total_178_five_penalty"]
    # Two packs hold 8 Fives, each -5 instead of +1: 216 - 48 = 168, in every game.
    assert five["mean"] == 168 and five["ci_low"] == five["ci_high"] == 168 and five["n"] == 300
    assert five["verdict"] == V.FAILS and five["source"] == "Parlett"


def test_a_claim_whose_players_are_missing_is_reported_not_checked():
    def boom(ctx):
        raise AssertionError("must not run")

    c = Claim("x", "welsh", "a claim", "Parlett", boom, ("no_such_player",))
    (r,) = check_claims([c], n=10)
    assert r.verdict == NOT_CHECKED and "no_such_player" in r.note and r.estimate.n == 0


def test_markdown_table_and_one_line_errors(tmp_path):
    est = Estimate(168.0, 0.0, 300)
    c = registry(["welsh"])[2]
    md = to_markdown([ClaimResult(c, "points", est, V.FAILS, "note")], n=300, seed=1)
    assert "| claim | source | measured | mean [95% CI] | n | verdict |" in md
    assert "168 (every game)" in md and "**does not hold**" in md
    out = tmp_path / "claims.md"
    r = CliRunner().invoke(main, ["claims", "--only", "total_216", "--n", "50", "--markdown", str(out)])
    assert r.exit_code == 0 and out.read_text().startswith("# The claims check")
    r = CliRunner().invoke(main, ["claims", "--only", "astrology"])
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "unknown claim" in r.output
    r = CliRunner().invoke(main, ["claims", "--n", "1"])
    assert r.exit_code == 2 and "--n 1" in r.output
    r = CliRunner().invoke(main, ["claims", "--list"])
    assert r.exit_code == 0 and "three_best" in r.output


def test_claim_results_serialise_without_nan():
    c = registry(["welsh"])[0]
    d = ClaimResult(c, "x", Estimate(math.nan, math.nan, 0), NOT_CHECKED).to_json()
    assert d["mean"] is None and d["ci_low"] is None and json.dumps(d)


def test_the_illustrative_hand_of_catch_the_ten_holds():
    (c,) = [c for c in registry(["scotch"]) if c.id == "worked_hand"]
    (r,) = check_claims([c], n=10)
    assert r.verdict == V.HOLDS and r.estimate.mean == 30 and "[0, 2]" in r.note
