"""One model of cheating: the cheating study and the claims judge a challenge rule by the same best response.

The family of cheat policies and the best-response computation (with its control for picking the best
of many) live in whistsim/experiments/cheaters.py; experiments/cheating.toml, the study's analysis and
the claims' cheating section all use them. The committed results are read as files, by the rule, so that
these tests stay true when `make experiments` and `whistsim claims` regenerate them.
"""

from __future__ import annotations

import json
import math
import re
import tomllib
from pathlib import Path

import pandas as pd
import pytest

from whistsim.claims import FAILS, HOLDS, ClaimRun, Figure
from whistsim.claims import welsh as claims_welsh
from whistsim.experiments import cheaters as C
from whistsim.experiments import run_experiment, spec_from_dict
from whistsim.experiments.studies import cheating as study

ROOT = Path(__file__).parent.parent
SPEC = ROOT / "experiments" / "cheating.toml"
RESULTS = ROOT / "results" / "cheating"
CLAIMS = ROOT / "results" / "claims.json"


# ---- one family, one best response ----------------------------------------------------------------


def test_the_claims_and_the_study_take_their_cheaters_from_one_family():
    assert claims_welsh.CH is C and study.C is C
    assert claims_welsh.POLICIES == list(C.FAMILY) and claims_welsh.RATES == list(C.RATES)
    assert claims_welsh.CHALLENGERS == list(C.CHALLENGERS)
    assert tuple(claims_welsh.SKILLS_CHEAT) == C.STRENGTHS


def test_the_study_spec_sweeps_every_cheater_of_the_family_against_every_challenger():
    data = tomllib.loads(SPEC.read_text())
    seen: dict[str, list[str]] = {}
    challengers = set()
    for grid in data["sweep"]:
        (honest,) = grid["seats"]["others"]
        strength, policy = C.policy_of(honest)
        assert policy == C.HONEST
        cheaters = grid["seats"]["0"]
        seen.setdefault(strength, cheaters)
        assert cheaters == [C.player(strength, p) for p in (C.HONEST, *C.FAMILY)]
        if "all" in grid["seats"]:
            challengers.add(tuple(str(c) for c in grid["seats"]["all"]["challenge"]))
    assert tuple(seen) == C.STRENGTHS
    assert challengers == {C.CHALLENGERS}
    assert data["baseline"]["seats"]["0"] == [C.player(s, C.HONEST) for s in C.STRENGTHS]


def test_every_policy_of_the_family_reads_back_from_its_player_and_has_its_own_words():
    for strength in C.STRENGTHS:
        for p in (C.HONEST, *C.FAMILY):
            assert C.policy_of(C.player(strength, p, "always")) == (strength, p)
    texts = [C.words(p) for p in C.FAMILY]
    assert all(t.startswith("passes falsely") and "cheat" not in t and "=" not in t for t in texts)
    assert len(set(texts)) == len(texts)


def _fake_gains(ctx, skill, rule, policy, challenger, what):
    """A cheater's gain decided by its policy and challenger alone, so the claims run without games."""
    k = C.FAMILY.index(policy)
    mean = {"never": 20.0, "always": -1.0, "0.5": 0.1, "smart": 2.0}[challenger or "never"] - 0.01 * k
    return Figure(mean, mean - 0.3 - 0.01 * k, mean + 0.3 + 0.01 * k, 20_000)


def test_the_claims_judge_a_challenger_by_the_best_response_of_the_model(monkeypatch):
    calls = []
    real = C.best_response

    def spy(gains, margin=C.MARGIN):
        calls.append((dict(gains), margin))
        return real(gains, margin)

    monkeypatch.setattr(claims_welsh, "_cheat_gain", _fake_gains)
    monkeypatch.setattr(C, "best_response", spy)
    ctx = ClaimRun(n=20_000, seed=2026)
    out = claims_welsh._cures("points", C.MARGIN)(ctx, "greedy")
    assert [set(g) for g, _ in calls] == [set(C.FAMILY)] * len(C.CHALLENGERS)
    bests = [real(g, m) for g, m in calls]
    deterring = min(bests, key=lambda b: b.value.mean)
    assert (out.figure.mean, out.figure.low, out.figure.high) == (
        deterring.value.mean, deterring.value.low, deterring.value.high)  # fmt: skip
    # cured against 'always' (every cheater below a point), so the claim holds for this strength
    assert out.verdict == HOLDS and deterring.cured
    calls.clear()
    some = claims_welsh._easy("some")(ctx, "greedy")
    assert len(calls) == 1 and some.figure.mean == real(*calls[0]).value.mean


def test_the_study_judges_each_challenger_by_the_best_response_of_the_model():
    spec = tomllib.loads(SPEC.read_text())
    family = ("0.5", "smart", C.FAMILY[-1])
    spec.update(n=300, chunk=300, name="tiny_cheating", sweep=[{
        "rules": {"challenge": ["parlett"]}, "seats": {
            "others": ["greedy:cheat=0"], "0": [C.player("greedy", p) for p in (C.HONEST, *family)],
            "all": {"challenge": ["always", "smart"]}},
    }], baseline={"seats": {"0": ["greedy:cheat=0"]}})  # fmt: skip
    result = run_experiment(spec_from_dict(spec), write=False)
    verdicts = study.honest_best(result)
    assert set(verdicts) == {("greedy", "parlett", "always"), ("greedy", "parlett", "smart")}
    for (_, _, challenger), b in verdicts.items():
        cells = [c for c in result.spec.cells if C.policy_of(c.players[0])[1] != C.HONEST
                 and f"challenge={challenger}" in c.players[1]]  # fmt: skip
        gains = {C.policy_of(c.players[0])[1]: result.difference(c.index, "points[0]")[0] for c in cells}
        assert set(gains) == set(family)
        assert b == C.best_response(gains)
    tried = "\n".join(result.analysis().method)  # what was run names each cheater tried, in words
    assert "each of 3 cheaters in turn" in tried
    for p in family:
        assert C.words(p) in tried


# ---- the best response and its control for picking the best ------------------------------------


GAINS = {
    "a": C.Gain(0.8, 0.2, 1.4, 1000),
    "b": C.Gain(0.5, 0.45, 0.55, 1000),  # a smaller gain, known more closely
    "c": C.Gain(-3.0, -4.0, -2.0, 1000),
}


def test_the_best_response_is_at_least_every_policys_gain():
    b = C.best_response(GAINS)
    assert b.policy == "a" and b.tried == 3
    for p, g in GAINS.items():
        w = b.widened[p]
        assert b.value.mean >= g.mean and b.value.low >= w.low and b.value.high >= w.high
    # the best response's low end comes from the closely known 'b', not from the best mean
    assert b.value.low == b.widened["b"].low > b.widened["a"].low
    assert b.value.low <= b.value.mean <= b.value.high


def test_the_best_response_is_at_least_every_cheaters_gain_in_the_committed_study():
    for key, b in _study_best().items():
        for p, g in b.raw.items():
            assert b.value.mean >= g.mean and b.value.high >= b.widened[p].high, (key, p)


def test_picking_the_best_of_several_widens_every_interval():
    g = C.Gain(1.0, 0.5, 1.5, 20_000)
    assert C.widen(g, 1) == g
    w = C.widen(g, 29)
    assert w.mean == g.mean and w.low < g.low and w.high > g.high
    assert w.high - w.low > C.widen(g, 5).high - C.widen(g, 5).low > g.high - g.low
    exact = C.Gain(2.0, 2.0, 2.0, 20_000)  # the same gain in every game: nothing to widen
    assert C.widen(exact, 29) == exact
    # one cheater shown to gain on his own is not shown to gain once he is the best of 29
    alone = C.best_response({"x": C.Gain(0.3, 0.02, 0.58, 1000)})
    picked = C.best_response({"x": C.Gain(0.3, 0.02, 0.58, 1000),
                              **{f"y{i}": C.Gain(-5.0, -5.5, -4.5, 1000) for i in range(28)}})  # fmt: skip
    assert alone.verdict == C.PAYS and picked.verdict == C.SMALL and picked.value.low < 0


@pytest.mark.parametrize(
    "gains,verdict,cured",
    [
        ({"x": C.Gain(2.0, 1.0, 3.0, 100)}, C.PAYS, False),
        ({"x": C.Gain(-2.0, -3.0, -1.0, 100)}, C.HONEST_BEST, True),
        ({"x": C.Gain(0.1, -0.4, 0.6, 100)}, C.SMALL, True),
        ({"x": C.Gain(0.5, -1.0, 2.0, 100)}, C.UNDECIDED, None),
    ],
)
def test_a_best_response_pays_cures_or_is_undecided_by_its_widened_interval(gains, verdict, cured):
    b = C.best_response(gains)
    assert b.verdict == verdict and b.cured is cured


# ---- the committed study and the committed claims agree --------------------------------------------


def _study_best() -> dict[tuple[str, str, str], C.BestResponse]:
    """The committed study's best responses, recomputed from paired.csv with the model."""
    df = pd.read_csv(RESULTS / "paired.csv", dtype=str, keep_default_na=False)
    df = df[(df.figure == "points[0]") & (df.axis == "cheater")]
    found: dict[tuple[str, str, str], dict[str, C.Gain]] = {}
    for r in df.to_dict("records"):
        strength, policy = C.policy_of(r["cheater"])
        rule = r["challenge"]
        key = (strength, rule, r["challenge policy"] if rule != "none" else "-")
        g = C.Gain(float(r["mean"]), float(r["ci_low"]), float(r["ci_high"]), int(r["n"]))
        found.setdefault(key, {})[policy] = g
    assert found, "results/cheating/paired.csv has no cheater's gains"
    return {k: C.best_response(g) for k, g in found.items()}


def _claim(cid: str, reading: str) -> dict:
    claims = json.loads(CLAIMS.read_text())
    (c,) = [c for c in claims if c["id"] == cid]
    (r,) = [r for r in c["readings"] if r["id"] == reading]
    return r


def test_the_committed_study_tried_the_whole_family_against_every_challenger():
    best = _study_best()
    for strength in C.STRENGTHS:
        assert set(best[(strength, "none", "-")].raw) == set(C.FAMILY)
        for rule in ("parlett", "akagiri"):
            for ch in C.CHALLENGERS:
                assert set(best[(strength, rule, ch)].raw) == set(C.FAMILY)


def test_the_committed_report_gives_each_challengers_verdict_as_its_table_decides():
    report = (RESULTS / "report.md").read_text()
    findings = report.split("## Findings", 1)[1].split("\n## ", 1)[0]
    assert (
        f"each of {len(C.FAMILY)} cheaters in turn"
        in report.split("## What was run", 1)[1].split("\n## ", 1)[0]
    )
    for (strength, rule, ch), b in _study_best().items():
        if rule == "none":
            continue
        head = f"Under {study.rule_words(rule)}, among {study.strength_words(strength)}: "
        line = next(x for x in findings.splitlines() if head in x)
        said = re.search(rf"when the others {re.escape(study.challenger_words(ch))}, ([^:]+):", line)
        assert said and said.group(1) == study.VERDICT_WORDS[b.verdict], (strength, rule, ch)


def _claims_verdict(bests: list[C.BestResponse]) -> str:
    """The claims' rule for 'the challenge rule polices cheating': cured against some challenger."""
    if any(b.cured for b in bests):
        return HOLDS
    return FAILS if all(b.cured is False for b in bests) else "undecided"


def test_the_committed_study_and_claims_agree_that_the_challenge_rule_polices_cheating_or_not():
    best = _study_best()
    reading = _claim("parlett_cures", "points")
    for skill, claimed in reading["skill"].items():
        figure = reading["figures"][skill]
        mine = [best[(skill, "parlett", ch)] for ch in C.CHALLENGERS]
        ours = _claims_verdict(mine)
        deterring = min(mine, key=lambda b: b.value.mean)
        if figure["n"] == deterring.value.n:  # the same games: the very same numbers
            assert claimed == ours, skill
            assert math.isclose(figure["mean"], deterring.value.mean, rel_tol=1e-9, abs_tol=1e-9)
        else:  # different samples: never opposite verdicts
            assert {claimed, ours} != {HOLDS, FAILS}, skill


def test_the_committed_study_and_claims_agree_that_cheating_pays_with_no_rule():
    best = _study_best()
    reading = _claim("easy_to_cheat", "some")
    for skill, claimed in reading["skill"].items():
        b = best[(skill, "none", "-")]
        ours = HOLDS if b.verdict == C.PAYS else FAILS if b.value.high <= 0 else "undecided"
        assert {claimed, ours} != {HOLDS, FAILS}, skill
        if reading["figures"][skill]["n"] == b.value.n:
            assert claimed == ours, skill
