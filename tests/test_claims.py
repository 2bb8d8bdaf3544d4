"""The claims check: decisions from CIs and Holm, each measure on a hand-made situation whose value is known,
the JSON shape, and output that points nowhere outside the repository."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from click.testing import CliRunner

import whistsim
from whistsim.claims import (
    DEPENDS_READING,
    DEPENDS_SKILL,
    FAILS,
    HOLDS,
    NOT_CHECKED,
    UNDECIDED,
    Claim,
    ClaimResult,
    Figure,
    Outcome,
    Reading,
    ReadingResult,
    above,
    below,
    check_claims,
    family,
    holm,
    registry,
    to_markdown,
    within,
)
from whistsim.claims.scotch import _holding, worked_record
from whistsim.claims.tricks import high_lead_catches, welsh_tricks
from whistsim.claims.welsh import _tops
from whistsim.cli import main

SHARED = "shared" + "/"
OUTSIDE = re.compile(r"\.\./shared|" + SHARED + "spec|" + SHARED + r"seeds|[Ss]eeds? 00[0-9]|\(00[0-9]\)")


# ---- the definitions, before anything runs ------------------------------------------------------------


def test_every_claim_is_quoted_read_and_sourced_before_anything_runs():
    claims = registry()
    ids = [c.id for c in claims]
    assert len(ids) == len(set(ids))
    assert {"total_216", "total_178_five_penalty", "three_best", "leading_catches", "little_advantage",
            "easy_to_cheat", "parlett_cures", "piles_simpler", "suit_round", "two_rounds", "ten_to_partner",
            "count_high", "count_out", "scientific_play", "several_deals"} <= set(ids)  # fmt: skip
    sources = open("docs/sources.md", encoding="utf-8").read()
    for c in claims:
        assert c.source in sources and c.quote and c.where and c.readings
        for r in c.readings:
            assert r.reading and r.measure and r.decision and len(r.skills) >= 2 or r.skills == ("exact",)
        if len(c.readings) > 1 and not c.parts:
            assert c.differ, c.id  # one sentence on what the verdict depends
        if c.source == "Akagiri 1995":
            assert c.translation and re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", c.quote)
    # Akagiri's optional rule makes revoking legal; the text claims nothing about curing it.
    assert "akagiri_cures" not in ids


def test_hedges_stay_in_the_quotations():
    by_id = {c.id: c for c in registry()}
    assert "まったく空振りのこともある" in by_id["leading_catches"].quote  # "sometimes misses entirely"
    assert "かなりの成功" in by_id["leading_catches"].quote  # "sometimes succeeds well"
    assert "but with a tenace" in by_id["two_rounds"].quote  # the advice's second half
    assert "assuming four Taffies" in by_id["total_178_five_penalty"].quote


# ---- decisions ---------------------------------------------------------------------------------------


def test_decisions_follow_the_interval():
    f = Figure(2.0, 1.0, 3.0, 100)
    assert above(f, 0) == HOLDS and above(f, 3) == FAILS and above(f, 2) == UNDECIDED
    assert below(f, 4) == HOLDS and below(f, 1) == FAILS and below(f, 2) == UNDECIDED
    assert within(f, 0, 4) == HOLDS and within(f, 5, 6) == FAILS and within(f, 1.5, 4) == UNDECIDED
    assert within(Figure.exactly(168, 300), 177.5, 178.5) == FAILS


def test_holm_adjusts_step_down():
    assert np.allclose(holm([0.01, 0.04, 0.03]), [0.03, 0.06, 0.06])
    assert holm([0.5]) == [0.5]
    # a family: every claimed direction shown -> holds; one opposite shown -> fails
    assert family([0.001, 0.002], [0.9, 0.9]) == HOLDS
    assert family([0.03, 0.04], [0.9, 0.9]) == UNDECIDED  # Holm: 0.03 x 2 = 0.06
    assert family([0.001, 0.04], [0.9, 0.9]) == HOLDS  # 0.001 x 2, then 0.04 x 1
    assert family([0.001, 0.6], [0.9, 0.001]) == FAILS


def test_wilson_shares_stay_in_unit_interval():
    for k, n in [(0, 10), (10, 10), (3, 7)]:
        f = Figure.share(k, n)
        assert 0 <= f.low <= f.mean <= f.high <= 1


def _result(verdicts_by_reading, parts=False):
    readings, results = [], []
    for i, vs in enumerate(verdicts_by_reading):
        r = Reading(f"r{i}", "a reading.", "a measure.", "a rule.", lambda ctx, s: None, ("a", "b"))
        readings.append(r)
        results.append(
            ReadingResult(r, {s: Outcome(Figure(1, 0, 2, 10), v) for s, v in zip("ab", vs, strict=True)})
        )
    c = Claim(
        "x", "welsh", "Parlett", "here", "words", "a claim", tuple(readings), differ="on what", parts=parts
    )
    return ClaimResult(c, results)


def test_a_claim_verdict_is_never_a_majority_vote():
    assert _result([(HOLDS, HOLDS), (HOLDS, HOLDS)]).verdict == HOLDS
    assert _result([(HOLDS, HOLDS), (FAILS, FAILS)]).verdict == DEPENDS_READING
    assert _result([(HOLDS, HOLDS), (HOLDS, HOLDS), (FAILS, FAILS)]).verdict == DEPENDS_READING
    assert _result([(HOLDS, FAILS)]).verdict == DEPENDS_SKILL
    # the parts of one piece of advice must all hold
    assert _result([(HOLDS, HOLDS), (FAILS, FAILS)], parts=True).verdict == FAILS
    assert _result([(HOLDS, HOLDS), (UNDECIDED, UNDECIDED)], parts=True).verdict == UNDECIDED
    # the whole advice is judged at each strength first: fails at one, undecided at the other
    assert _result([(HOLDS, HOLDS), (FAILS, UNDECIDED)], parts=True).verdict == f"{FAILS} (undecided with b)"
    assert _result([(FAILS, HOLDS), (HOLDS, FAILS)], parts=True).verdict == FAILS
    r = _result([(HOLDS, HOLDS), (FAILS, FAILS)])
    md = to_markdown([r], n=10, seed=1, n_search=5, chart="claims.png", errors=[], skipped=[])
    assert "on what" in md and "![" in md.splitlines()[2]


# ---- measures on hand-made situations ---------------------------------------------------------------

_RULES = {"players": 3, "packs": 2, "taffies": 4, "taffy_rank": 10.5, "scoring": "standard", "revokes": False,
          "challenge": "none"}  # fmt: skip


def test_high_leads_catch_the_tens_and_taffies_others_play_to_them():
    # Seat 0 draws the Ace of spades, 1 the Ten, 2 a Taffy. 0 leads the Ace: 1 must follow with the Ten,
    # 2 with the Taffy: the Ace wins both (two caught). 1 draws and leads K; 2 draws TH (no spade: pass);
    # 0 draws (its run ends) and passes on spades. 2 leads TH, 0 answers QH and wins (not 0's lead). Then 1
    # draws, 2 draws, and 0 leads QS, which 1 (holding 9S) answers and 0 wins: a new run catching nothing.
    rec = {"game": "welsh", "rules": _RULES, "first": 0,
           "deck": ["AS", "TS", "X", "KS", "TH", "5C", "QH", "9S", "2D", "QS"] + ["3C"] * 5,
           "moves": ["0:draw", "1:draw", "2:draw", "0:AS", "1:TS", "2:X",
                     "1:KS", "2:pass", "0:pass",
                     "2:draw", "0:draw", "1:draw", "2:TH", "0:pass", "1:pass",
                     "0:draw", "1:draw", "2:draw", "0:draw", "1:9S", "2:pass", "0:pass"]}  # fmt: skip
    tricks = welsh_tricks(rec)
    assert [(t.leader, t.lead, t.winner) for t in tricks] == [
        (0, "AS", 0),
        (1, "KS", 1),
        (2, "TH", 2),
        (1, "9S", 1),
    ]
    assert tricks[0].plays == ((0, "AS"), (1, "TS"), (2, "X")) and tricks[0].stock_left == 12
    assert high_lead_catches(rec, 0) == [[2]]
    assert high_lead_catches(rec, 1) == [[0], [0]]  # its draw between the two leads ends the first run


def test_a_lead_after_the_stock_is_out_is_not_a_high_lead_while_it_lasts():
    rec = {"game": "welsh", "rules": {**_RULES, "players": 2}, "first": 0, "deck": ["AS", "TS"],
           "moves": ["0:draw", "1:draw", "0:AS", "1:TS"]}  # fmt: skip
    (t,) = welsh_tricks(rec)
    assert t.stock_left == 0 and t.winner == 0 and high_lead_catches(rec, 0) == []


def test_the_per_run_reading_plays_a_hunter_whose_runs_are_several_leads_long():
    """leading_catches' runs: the plain hunter leads each high card on the turn after it draws it (every
    run one lead); the hunter of the per_run reading holds three and leads them one after another."""
    from whistsim.claims.welsh import HUNTER

    def runs(spec):
        sim = whistsim.simulate("welsh", 30, 3, preset="akagiri", players=3, rules={"scoring": "standard"},
                                strategies=[spec, "greedy", "greedy"], records=30)  # fmt: skip
        return [len(r) for rec in sim.records for r in high_lead_catches(rec, 0)]

    assert set(runs(HUNTER["game"])) == {1}
    held = runs(HUNTER["run"])
    assert max(held) == 3 and np.mean(held) > 2.5  # fewer only when it had to answer with one of them


def test_top_scorers_and_ties():
    pts = np.array([[10, 5, 10], [1, 2, 3]])
    assert _tops(pts).tolist() == [[True, False, True], [False, False, True]]


def test_the_holding_masks_of_the_two_rounds_advice():
    rec = worked_record()  # trumps hearts; A (seat 0) holds A and 9 of hearts: neither J A nor A K
    assert not _holding(rec, [{"J", "A"}, {"A", "K"}], {})
    rec = {**rec, "hands": [[["JH", "AH", "2C"], [], [], []]], "trump": "8H"}
    assert _holding(rec, [{"J", "A"}, {"A", "K"}], {})
    tenace = [{"J", "K"}, {"A", "Q"}]
    without = {frozenset({"J", "K"}): "A", frozenset({"A", "Q"}): "K"}
    assert not _holding({**rec, "hands": [[["JH", "KH", "AH"], [], [], []]]}, tenace, without)  # J K with A
    assert _holding({**rec, "hands": [[["JH", "KH", "9H"], [], [], []]]}, tenace, without)


def test_exact_claims_hold_exactly():
    res = check_claims([c for c in registry(["scotch"]) if c.id in ("worked_hand", "count_out")], n=10)
    for r in res:
        assert r.verdict == HOLDS and r.figure.exact
    assert "[0, 2]" in res[0].readings[0].primary.detail


def test_cheat_policy_reproduces_smart_and_always_play_exactly():
    """cheat=policy spans the old policies: with its defaults it is smart; with no limits it is rate 1."""

    def pts(spec):
        sim = whistsim.simulate("welsh", 300, 5, players=3, rules={"revokes": True},
                                strategies=[spec, "greedy", "greedy"], keep_games=True)  # fmt: skip
        return sim.batch.seat["points"], sim.batch.game["false_passes"]

    smart, pol = pts("greedy:cheat=smart"), pts("greedy:cheat=policy")
    assert np.array_equal(smart[0], pol[0]) and smart[1].sum() > 0
    always = pts("greedy:cheat=1")
    loose = pts("greedy:cheat=policy,cheat_hand=999,cheat_stake=0")
    assert np.array_equal(always[0], loose[0])
    # weighing what a catch costs, or a small hand limit, only ever removes false passes
    for tight in ("greedy:cheat=policy,cheat_weigh=0.3", "greedy:cheat=policy,cheat_hand=2"):
        assert pts(tight)[1].sum() < pol[1].sum()


# ---- output --------------------------------------------------------------------------------------------


def test_json_shape_and_no_path_outside_the_repository(tmp_path):
    md, js = tmp_path / "c.md", tmp_path / "c.json"
    r = CliRunner().invoke(main, ["claims", "--only", "total_178_five_penalty", "--only", "count_out",
                                  "--n", "60", "--n-search", "4", "--json", "--markdown", str(md),
                                  "--json-out", str(js)])  # fmt: skip
    assert r.exit_code == 0, r.output
    rows = [json.loads(x) for x in r.stdout.strip().splitlines()]
    assert rows == json.loads(js.read_text())
    for d in rows:
        assert {"id", "source", "quote", "verdict", "readings"} <= set(d)
        for rd in d["readings"]:
            assert {"reading", "measure", "mean", "ci", "n", "verdict", "skill"} <= set(rd)
            assert len(rd["ci"]) == 2 and rd["ci"][0] <= rd["mean"] <= rd["ci"][1] and rd["n"] >= 1
    five = rows[0]
    assert five["verdict"] == FAILS and five["readings"][0]["mean"] == 168 and five["source"] == "Parlett"
    assert set(five["readings"][0]["skill"]) == {"greedy", "pimc2"} and five["readings"][0]["unit"]
    assert five["deciding"]["unit"] == "points in all per game" and five["deciding"]["mean"] == 168
    assert (tmp_path / "c.png").stat().st_size > 1000
    from whistsim.experiments.charts import problems

    side = json.loads((tmp_path / "c-chart.json").read_text())  # c.json is the claims themselves
    assert side["png"] == "c.png" and problems(side) == [] and js.read_text() != ""
    for text in (r.output, md.read_text(), js.read_text()):
        assert not OUTSIDE.search(text)


def test_rows_and_one_line_errors():
    r = CliRunner().invoke(main, ["claims", "--only", "count_out"])
    assert r.exit_code == 0 and "count_out" in r.output and "holds" in r.output
    r = CliRunner().invoke(main, ["claims", "--only", "astrology"])
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "unknown claim" in r.output
    r = CliRunner().invoke(main, ["claims", "--n", "1"])
    assert r.exit_code == 2 and "--n 1" in r.output
    r = CliRunner().invoke(main, ["claims", "--list"])
    assert r.exit_code == 0 and "three_best" in r.output and "skill" in r.output


def test_the_time_estimate_is_fitted_from_two_shares_of_the_games(monkeypatch):
    """Each claim's time is a + b n: two timed shares of the run (after a warm-up) give it back exactly."""
    import time

    from whistsim.claims import ClaimRun, estimate_run

    clock = [0.0]
    monkeypatch.setattr(time, "perf_counter", lambda: clock[0])

    def run(cost_per_game):
        def go(ctx: ClaimRun, skill: str) -> Outcome:
            clock[0] += 0.5 + cost_per_game * ctx.n
            return Outcome(Figure.exactly(1.0), HOLDS)

        return go

    cs = [Claim(f"c{k}", "welsh", "Parlett", "here", "words", "a claim",
                (Reading("r", "a", "b", "c", run(k * 1e-3), ("greedy",)),)) for k in (1, 3)]  # fmt: skip
    plan = estimate_run(cs, n=25_600, seed=1)
    assert plan.seconds == pytest.approx({"c1": 0.5 + 25.6, "c3": 0.5 + 76.8})
    assert plan.total == pytest.approx(103.4) and plan.shares == "1/256 and 1/32"


def test_records_followed_in_python_are_capped_and_shrink_with_a_timed_start():
    from whistsim.claims import ClaimRun

    assert ClaimRun(20_000, 1).followed(10_000, 5000) == 5000
    assert ClaimRun(20_000, 1).followed(300, 5000) == 300
    assert ClaimRun(625, 1, scale=1 / 32).followed(312, 5000) == 156


def test_a_claims_run_with_progress_says_how_long_first_and_prints_the_same_rows(monkeypatch):
    import whistsim.core.eta

    args = ["claims", "--only", "count_out", "--only", "several_deals", "--n", "640", "--n-search", "64"]
    plain = CliRunner().invoke(main, [*args, "--no-progress"])
    monkeypatch.setattr(whistsim.core.eta, "ANNOUNCE_AFTER_S", 0.0)  # announce even this short run
    r = CliRunner().invoke(main, [*args, "--progress"])
    assert plain.exit_code == 0 and r.exit_code == 0, r.output
    assert r.stdout == plain.stdout and "several_deals" in r.stdout
    (line,) = [x for x in r.stderr.splitlines() if x.startswith("whistsim: about")]
    assert "to go for 2 claims (from a timed start at 1/256 and 1/32 of their games" in line
    assert r.stderr.startswith("whistsim: timing every claim on a small share of its games first")
    assert "whistsim: about" not in plain.stderr and "timing" not in plain.stderr


def test_a_claim_whose_players_are_missing_is_reported_not_checked():
    def boom(ctx, skill):
        raise AssertionError("must not run")

    c = Claim("x", "welsh", "Parlett", "here", "words", "a claim",
              (Reading("r", "a", "b", "c", boom, ("greedy", "pimc")),), needs=("no_such_player",))  # fmt: skip
    (r,) = check_claims([c], n=10)
    assert r.verdict == NOT_CHECKED and "no_such_player" in r.note and r.figure is None
    assert json.dumps(r.json())


def test_pile_points_rank_piles_with_shared_multipliers():
    from whistsim.claims.welsh import pile_points

    won = np.array([[3, 5, 5, 8], [2, 2, 2, 2]])
    tt = np.array([[1, 2, 0, 1], [1, 0, 3, 1]])
    assert pile_points(won, tt).tolist() == [[1, 4, 0, 3], [1, 0, 3, 1]]


def test_pile_points_match_the_engine_on_the_same_games():
    from whistsim.claims.welsh import pile_points

    kw = dict(players=4, strategies=["greedy"], keep_games=True)
    std = whistsim.simulate("welsh", 200, 3, rules={"scoring": "standard"}, **kw).batch
    pil = whistsim.simulate("welsh", 200, 3, rules={"scoring": "piles"}, **kw).batch
    ours = pile_points(std.seat["cards_won"], std.seat["tens"] + std.seat["taffies"])
    assert np.array_equal(ours, pil.seat["points"])  # greedy plays the same under both scorings


def test_scotch_tricks_follow_the_illustrative_hand():
    from whistsim.claims.tricks import scotch_tricks, ten_events

    rec = worked_record()
    tricks = scotch_tricks(rec)
    # The source's table: Y's King wins trick 1, A's Ace of clubs trick 2, ... B's Jack of trumps trick 9.
    assert [t.winner for t in tricks] == [1, 0, 1, 3, 3, 1, 0, 2, 2]
    # Trick 9 is a trump lead: Y's Ten follows suit (it is not trumping in) and B's Jack takes it; the Jack
    # is won by B, to whom it was dealt.
    assert ten_events(rec) == {"saved": False, "caught_trumping": False, "jack_kept": True}
    # A club lead instead: Y, last, trumps in with the Ten and wins: saved.
    saved = {**rec, "moves": rec["moves"][:-4] + ["2:9C", "3:8H", "0:TC", "1:TH"]}
    assert ten_events(saved) == {"saved": True, "caught_trumping": False, "jack_kept": True}
    # Z trumps in with the Ten, A's Queen of trumps after it wins: caught by a small honour.
    caught = {**rec, "moves": rec["moves"][:-4] + ["2:9C", "3:TH", "0:QH", "1:6C"]}
    assert ten_events(caught) == {"saved": False, "caught_trumping": True, "jack_kept": True}
    # the Ace of trumps is a small honour too ("cards or small honours": Ace, King, Queen)
    ace = {**rec, "moves": rec["moves"][:-4] + ["2:9C", "3:TH", "0:AH", "1:6C"]}
    assert ten_events(ace)["caught_trumping"] is True
    # The Jack won by another seat than its holder's is seen.
    lost = {**rec, "moves": rec["moves"][:-4] + ["2:JH", "3:8H", "0:TC", "1:TH"]}
    lost["hands"] = [[rec["hands"][0][0] + ["JH"]] + rec["hands"][0][1:]]
    assert ten_events(lost)["jack_kept"] is False


def test_skill_edge_and_closeness_per_game():
    from whistsim.claims.welsh import closeness, edge

    pts = np.array([[90, 72, 54], [72, 72, 72]])  # fair share 72
    assert np.allclose(edge(pts), [(90 - 63) / 72, 0.0])
    assert np.allclose(closeness(pts), [18 / 72, 0.0])


def test_taking_up_the_wrong_hand_replays_the_deal_with_the_hands_exchanged():
    from whistsim.claims.playout import exchange_hands, play_deal

    sim = whistsim.simulate("scotch", 20, 9, players=2, rules={"unit": "deal"}, strategies=["heuristic"],
                            records=20)  # fmt: skip
    for i, rec in enumerate(sim.records):
        # played out again by the same players with the same streams: the simulated deal, exactly
        assert play_deal(rec, ["heuristic"], 9, i) == {k: rec["result"][k] for k in rec["result"]}
    rec = sim.records[0]
    x = exchange_hands(rec, 0, 0, 1)
    assert x["hands"][0][0] == rec["hands"][1][0] and x["hands"][1][0] == rec["hands"][0][0]
    assert x["hands"][0][1] == rec["hands"][0][1] and x["hands"][2] == rec["hands"][2]
    assert rec["hands"][0][0] != x["hands"][0][0]  # the original is untouched
    res = play_deal(x, ["heuristic"], 9, 0)
    assert sum(res["honours"]) == 30  # every trump honour is won by someone


def test_the_report_lists_what_is_not_measured_and_why():
    from whistsim.claims import not_measured

    rows = not_measured()
    assert any("リボーク" in q and "not a claim" in why for _, _, q, _, why in rows)
    r = _result([(HOLDS, HOLDS)])
    md = to_markdown([r], n=10, seed=1, n_search=5, chart=None, errors=[], skipped=not_measured(["welsh"]))
    assert "## Assertions not measured" in md and "A judgement of enjoyment" in md
    assert "## Assertions not measured" not in to_markdown([r], n=10, seed=1, n_search=5, chart=None, errors=[],
                                                          skipped=[])  # fmt: skip
