"""Why the best cheater gains under Akagiri's rule: measured on the study's own deals, said from its table.

The cheating study replays the cells it explains from their records through the game's engine
(whistsim/experiments/studies/cheating.py: `follow_game`, `measure_why`) and writes the table it reads to results/cheating/tables/why.csv; its finding
and its sentence on who pays are made from that table alone, so these tests hold the committed report's
words to the committed table.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import whistsim
from whistsim.experiments.studies import cheating as study
from whistsim.games.welsh.table import WelshDeal
from whistsim.harness.table import IllegalMove

ROOT = Path(__file__).parent.parent
RESULTS = ROOT / "results" / "cheating"
WHY = RESULTS / "tables" / "why.csv"
CHEATER = "counter:cheat=policy,cheat_hand=99,cheat_stake=1,cheat_weigh=0,challenge=always"
HONEST = "counter:cheat=0,challenge=always"


def _records(rule: str, n: int = 12) -> list[dict]:
    sim = whistsim.simulate("welsh", n=n, seed=11, preset="parlett", players=3, first="rotate",
                            rules={"revokes": True, "challenge": rule}, strategies=[CHEATER, HONEST, HONEST],
                            records=n, threads=1)  # fmt: skip
    return sim.records


@pytest.mark.parametrize("rule", ["akagiri", "parlett"])
def test_following_a_record_scores_every_pile_and_catch_as_the_engine_does(rule):
    caught = 0
    for rec in _records(rule):
        t = study.follow_game(rec, 0)
        assert t.pop("pile") == rec["result"]["points"]
        # the engine's own account of each challenge, move by move through the Python API
        g = whistsim.new_game(deal={**rec, "moves": []})
        events = []
        for m in rec["moves"]:
            g.play(m)
            events += g.events
        challenges = [(q, a, b) for kind, q, a, b in events if kind == "challenge"]
        assert t["caught"] == sum(1 for _, a, b in challenges if a == 0 and b)
        assert t["wrong"] == sum(1 for _, a, b in challenges if a == 0 and not b)
        assert t["false"] == sum(1 for kind, q, _, able in events if kind == "pass" and q == 0 and able)
        assert t["points"] == t["won"] + t["given"] + t["kept"]  # an honest player's hand is never taken
        caught += t["caught"]
    assert caught > 0  # the cheater was caught: the test saw catches


def test_a_record_whose_moves_run_on_after_the_deal_ends_is_refused():
    rec = _records("akagiri", 1)[0]
    with pytest.raises(ValueError, match="after the deal ends"):
        study.follow_game({**rec, "moves": [*rec["moves"], "0:draw"]}, 0)


def test_a_record_the_engine_would_not_play_is_refused():
    rec = _records("akagiri", 1)[0]
    with pytest.raises(ValueError, match="end before the deal does"):
        study.follow_game({**rec, "moves": rec["moves"][:-1]}, 0)
    first, move = rec["moves"][0].split(":", 1)
    with pytest.raises(ValueError, match="is seat .*'s to make"):
        study.follow_game({**rec, "moves": [f"{(int(first) + 1) % 3}:{move}", *rec["moves"][1:]]}, 0)
    lead = next(i for i, m in enumerate(rec["moves"]) if m.startswith("0:") and m != "0:draw")
    drawn = sum(m.endswith(":draw") for m in rec["moves"][:lead])
    unseen = next(c for c in reversed(rec["deck"][drawn:]) if c != "X")  # still in the stock: no one holds it
    with pytest.raises(IllegalMove, match="does not hold"):
        study.follow_game(
            {**rec, "moves": [*rec["moves"][:lead], f"0:{unseen}", *rec["moves"][lead + 1 :]]}, 0
        )


def _events(rec: dict) -> list[tuple[str, int, int, int]]:
    g = whistsim.new_game(deal={**rec, "moves": []})
    out = []
    for m in rec["moves"]:
        g.play(m)
        out += g.events
    return out


def test_a_pile_change_no_tally_places_stops_the_replay(monkeypatch):
    """The tallies come from the engine's events: one the replay does not know (here: the kept cards)
    leaves a pile's points unplaced, and the replay refuses to go on."""
    recs = [r for r in _records("akagiri") if any(kind == "keep" for kind, *_ in _events(r))]
    assert recs
    for rec in recs:
        study.follow_game(rec, 0)
    monkeypatch.setattr(study.ev, "KEEP", -1)
    for rec in recs:
        with pytest.raises(RuntimeError, match="no tally places|its tallies|points, not"):
            study.follow_game(rec, 0)


def test_a_catch_that_moves_other_points_than_the_hands_stops_the_replay(monkeypatch):
    rec = next(r for r in _records("akagiri") if study.follow_game(r, 0)["caught"])
    real = WelshDeal.hand_points
    monkeypatch.setattr(WelshDeal, "hand_points", lambda self, q: real(self, q) + 1)
    with pytest.raises(RuntimeError, match="a catch moved"):
        study.follow_game(rec, 0)


@pytest.mark.parametrize("rule", ["akagiri", "parlett"])
def test_every_caught_hand_goes_to_the_player_who_caught_it(rule):
    """Under Akagiri's rule onto his pile, under Parlett's into his hand: either way the points the cheater
    loses are the points the others take, and each catch is his left's or his right's."""
    for rec in _records(rule):
        t = study.follow_game(rec, 0)
        assert t["left_taken"] + t["right_taken"] == t["lost"]
        assert t["caught_cards"] >= t["caught"] >= t["caught_left"]
        assert (t["left_taken"] > 0) == (t["caught_left"] > 0)  # a caught hand holds a card


def _why() -> pd.DataFrame:
    return pd.read_csv(WHY)


def _findings() -> str:
    return (RESULTS / "report.md").read_text().split("## Findings", 1)[1].split("\n## ", 1)[0]


def test_the_committed_report_says_why_in_the_words_its_table_gives():
    report = (RESULTS / "report.md").read_text()
    df = _why()
    assert f"- {study.why_finding(df)}" in _findings()
    assert f"- {study.why_seats(df)}" in report.split("## Appendix", 1)[1]
    for rule in dict.fromkeys(df["rule"]):
        assert study.md_table(study.why_table(df, rule)) in report


def test_the_why_table_is_the_studys_own_games():
    df, paired = _why(), pd.read_csv(RESULTS / "paired.csv")
    for rule in dict.fromkeys(df["rule"]):
        mine = df[(df["rule"] == rule) & (df["figure"] == "points") & (df["play"] == "change")].iloc[0]
        theirs = paired[(paired["challenge"] == rule) & (paired["honest players"] == "counter:cheat=0")
                        & (paired["cheater"] == CHEATER.removesuffix(",challenge=always"))
                        & (paired["challenge policy"] == "always") & (paired["figure"] == "points[0]")]  # fmt: skip
        assert len(theirs) == 1
        assert mine["mean"] == pytest.approx(theirs["mean"].iloc[0], abs=1e-9)
        assert mine["n"] == theirs["n"].iloc[0]
    # the finding's gain is the one the study reports for the best cheater against those challengers
    gain = study._at(df, "akagiri", "points", "change")
    assert f"{gain.signed()} points per game in all" in _findings()
    assert re.search(
        rf"when the others always challenge, cheating pays: {re.escape(gain.signed())} ", _findings()
    )


def test_the_cheaters_points_add_up_by_where_they_came_from():
    df = _why()
    for rule in dict.fromkeys(df["rule"]):
        for play in ("honest", "cheat", "change"):
            parts = sum(study._at(df, rule, k, play).mean for k in study.SOURCES)
            assert parts == pytest.approx(study._at(df, rule, "points", play).mean, abs=1e-9), (rule, play)
        honest = {k: study._at(df, rule, k, "honest").mean for k in ("false", "caught", "lost")}
        assert honest == {"false": 0, "caught": 0, "lost": 0}
    # a wrong challenge gives the trick under Akagiri's rule only
    assert (
        study._at(df, "parlett", "given", "cheat").mean == 0 < study._at(df, "akagiri", "given", "cheat").mean
    )


def test_every_figure_of_the_why_table_has_its_interval_and_n():
    df = _why()
    shown = df[np.isfinite(df["mean"])]
    assert (shown["low"] <= shown["mean"] + 1e-12).all() and (shown["mean"] <= shown["high"] + 1e-12).all()
    assert (df["n"] == df["n"].iloc[0]).all() and df["n"].iloc[0] > 0
    events = df[df["events"].notna()]
    assert set(events["events"]) == {"tricks", "passes", "catches"}
    shares = df[df["unit"] == "%"].dropna(subset=["mean"])
    assert ((shares["low"] >= 0) & (shares["high"] <= 100)).all()


def test_the_finding_picks_its_words_from_the_table():
    df = _why()
    text = study.why_finding(df)
    stock = study._at(df, "akagiri", "caught_stock", "cheat")
    assert ("so that he plays on from cards drawn afresh" in text) == (stock.mean > 50)
    # the sources are named largest change first, each with its sign
    changes = [study._at(df, "akagiri", k, "change") for k in study.SOURCES]
    order = sorted(zip(study.SOURCES.values(), changes, strict=True), key=lambda t: -abs(t[1].mean))
    at = [text.index(f"{words} {e.signed()} (") for words, e in order]
    assert at == sorted(at)
    seats = study.why_seats(df)
    left, right = (study._at(df, "akagiri", f"{s}_points", "change").mean for s in ("left", "right"))
    assert seats.index(f"the player on his {'right' if right < left else 'left'} changes by") > 0
