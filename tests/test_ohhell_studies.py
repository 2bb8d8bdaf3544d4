"""The Oh Hell studies' findings against their own tables (results/ohhell_*/paired.csv, summary.csv):
each verdict is recomputed from every comparison it speaks of, with the same adjustment for their
number, so a regenerated run cannot say more than its tables show."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

from whistsim.core.stats import Estimate, holm, p_two_sided

RESULTS = Path(__file__).resolve().parents[1] / "results"
HOOK = [n for n in ("ohhell_hook", "ohhell_hook_pimc") if (RESULTS / n / "paired.csv").is_file()]
SCORING = [n for n in ("ohhell_scoring", "ohhell_scoring_pimc") if (RESULTS / n / "paired.csv").is_file()]


def _findings(name: str) -> list[str]:
    text = (RESULTS / name / "report.md").read_text(encoding="utf-8")
    block = text.split("## Findings", 1)[1].split("\n## ", 1)[0]
    return [line[2:] for line in block.split("\n") if line.startswith("- ")]


def _est(row) -> Estimate:
    return Estimate(float(row["mean"]), float(row["sd"]), int(row["n"]))


def _adjusted(rows: pd.DataFrame) -> list[float]:
    return holm([p_two_sided(_est(r)) for _, r in rows.iterrows()])


@pytest.mark.parametrize("name", HOOK)
def test_hook_cost_counts_every_setting_clear_after_adjustment(name):
    paired = pd.read_csv(RESULTS / name / "paired.csv")
    rows = paired[(paired["axis"] == "hook") & (paired["figure"] == "dealer_points")]
    adj = _adjusted(rows)
    lose = sum(a < 0.05 and m < 0 for a, m in zip(adj, rows["mean"], strict=True))
    first = _findings(name)[0]
    assert f"adjusted for the {len(rows)} comparison" in first
    if "in every setting played" in first:
        assert lose == len(rows)
    else:
        m = re.search(r"costs the dealer points in (\d+) of (\d+) settings", first)
        assert m and int(m.group(1)) == lose and int(m.group(2)) == len(rows), first


@pytest.mark.parametrize("name", HOOK)
def test_hook_never_lets_the_bids_add_up(name):
    summary = pd.read_csv(RESULTS / name / "summary.csv")
    exact = summary[(summary["figure"] == "bids_exact") & (summary["hook"].astype(str) == "True")]
    assert len(exact) and (exact["mean"] == 0).all()


@pytest.mark.parametrize("name", SCORING)
def test_scoring_verdict_is_the_best_scoring_and_clear_only_after_adjustment(name):
    paired = pd.read_csv(RESULTS / name / "paired.csv")
    summary = pd.read_csv(RESULTS / name / "summary.csv")
    seat = "seat 0 plays"
    weak = paired.loc[paired["axis"] == seat, "baseline"].iloc[0].split(seat + "=")[1].split(",")[0]
    comps = paired[(paired["axis"] == "scoring") & (paired["figure"] == "win[0]") & (paired[seat] != weak)]
    adj = _adjusted(comps)
    strong = summary[(summary["figure"] == "win[0]") & (summary[seat] != weak)]
    forms = strong["label"].str.contains("cards a hand").map({True: "single hand", False: "full game"})
    words = {"ten_plus_bid": '"10 + bid"', "trick_plus_ten": '"a point a trick + 10"', "minus_difference": '"minus the miss"'}  # fmt: skip
    for form, sentence in zip(("full game", "single hand"), _findings(name)[:2], strict=False):
        mine = strong[forms == form]
        best = mine.loc[mine["mean"].idxmax(), "scoring"]
        assert f"skill shows most under the {words[best]} scoring" in sentence, sentence
        ccomp = comps[comps["label"].str.contains("cards a hand") == (form == "single hand")]
        cadj = [a for a, (_, r) in zip(adj, comps.iterrows(), strict=True) if r.name in ccomp.index]
        beaten = [
            a < 0.05 and ((r["scoring"] == best) == (r["mean"] > 0))
            for a, (_, r) in zip(cadj, ccomp.iterrows(), strict=True)
            if best in (r["scoring"], r["baseline"].split("scoring=")[1].split(",")[0])
        ]
        assert ("clearly more than under every other scoring" in sentence) == (bool(beaten) and all(beaten))
        assert f"adjusted for the {len(comps)} comparisons" in sentence
