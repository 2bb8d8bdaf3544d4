"""How the claims' verdicts combine (every pair of strengths, readings, parts), which figure a row shows,
the report's words, and the claims checked with the open-hand solver on the illustrative hand."""

from __future__ import annotations

import itertools
import json
import re

import numpy as np
import pytest

from whistsim.claims import (
    DEFINITION,
    DEPENDS_READING,
    DEPENDS_SKILL,
    FAILS,
    HOLDS,
    NOT_A_CLAIM,
    NOT_CHECKED,
    UNDECIDED,
    Claim,
    ClaimResult,
    ClaimRun,
    Figure,
    Outcome,
    Reading,
    ReadingResult,
    check_claims,
    combine,
    combine_readings,
    counted,
    registry,
    to_markdown,
)

# the combination of two strengths, every pair (order does not matter): the table
EXPECTED = {
    (HOLDS, HOLDS): HOLDS,
    (FAILS, FAILS): FAILS,
    (UNDECIDED, UNDECIDED): UNDECIDED,
    (HOLDS, FAILS): DEPENDS_SKILL,
    (HOLDS, UNDECIDED): f"{HOLDS} (undecided with b)",
    (FAILS, UNDECIDED): f"{FAILS} (undecided with b)",
}


@pytest.mark.parametrize(("a", "b"), list(itertools.product([HOLDS, FAILS, UNDECIDED], repeat=2)))
def test_two_strengths_combine_as_the_definition_says_for_every_pair(a, b):
    key = (a, b) if (a, b) in EXPECTED else (b, a)
    want = EXPECTED[key].replace("with b", "with " + ("b" if b == UNDECIDED else "a"))
    assert combine({"a": a, "b": b}) == want


def test_a_reading_not_a_claim_of_fact_stays_so():
    assert combine({"a": NOT_A_CLAIM, "b": NOT_A_CLAIM}) == NOT_A_CLAIM
    assert combine_readings({"x": NOT_A_CLAIM, "y": NOT_A_CLAIM}) == NOT_A_CLAIM


def test_depends_on_the_reading_only_when_fair_readings_reach_opposite_verdicts():
    assert combine_readings({"x": HOLDS, "y": FAILS}) == DEPENDS_READING
    assert combine_readings({"x": f"{HOLDS} (undecided with b)", "y": FAILS}) == DEPENDS_READING
    assert combine_readings({"x": HOLDS, "y": UNDECIDED}) == f"{HOLDS} (undecided under reading `y`)"
    assert combine_readings({"x": FAILS, "y": UNDECIDED}) == f"{FAILS} (undecided under reading `y`)"
    assert combine_readings({"x": HOLDS, "y": f"{HOLDS} (undecided with b)"}) == (
        f"{HOLDS} (undecided with b under reading `y`)"
    )
    assert combine_readings({"x": HOLDS, "y": HOLDS}) == HOLDS
    assert combine_readings({"x": HOLDS, "y": DEPENDS_SKILL}) == DEPENDS_SKILL
    assert combine_readings({"x": UNDECIDED, "y": UNDECIDED}) == UNDECIDED


def _claim(cells: list[dict[str, tuple[str, float]]], parts: bool = False, unit: str = "points per game"):
    readings, results = [], []
    for i, by_skill in enumerate(cells):
        r = Reading(
            f"r{i}", "a reading.", "a measure.", "a rule.", lambda ctx, s: None, tuple(by_skill), unit=unit
        )
        readings.append(r)
        outs = {s: Outcome(Figure(m, m - 1, m + 1, 10), v) for s, (v, m) in by_skill.items()}
        results.append(ReadingResult(r, outs))
    c = Claim(
        "x", "welsh", "Parlett", "here", "words", "a claim", tuple(readings), differ="on what", parts=parts
    )
    return ClaimResult(c, results)


def test_the_row_shows_the_figure_that_decides_the_verdict():
    # holds at both: the strongest player's figure
    r = _claim([{"greedy": (HOLDS, 1.0), "pimc2": (HOLDS, 2.0)}])
    assert r.verdict == HOLDS and r.deciding.skill == "pimc2" and r.figure.mean == 2.0
    # holds beside undecided: the holding figure, with the strength it was measured at
    r = _claim([{"greedy": (HOLDS, 1.0), "pimc2": (UNDECIDED, 2.0)}])
    assert r.verdict == f"{HOLDS} (undecided with search players)" and r.deciding.skill == "greedy"
    # fails in one part of a piece of advice: the failing part, not the first reading
    r = _claim([{"a": (HOLDS, 1.0), "b": (HOLDS, 1.5)}, {"a": (FAILS, -3.0), "b": (FAILS, -4.0)}], parts=True)
    assert r.verdict == FAILS and r.deciding.reading.id == "r1" and r.figure.mean == -4.0
    # depends on the reading: the failing figure, and a holding one beside it
    r = _claim([{"a": (HOLDS, 1.0), "b": (HOLDS, 1.5)}, {"a": (FAILS, -3.0), "b": (FAILS, -4.0)}])
    assert r.verdict == DEPENDS_READING and r.deciding.outcome.verdict == FAILS
    assert r.holding.outcome.verdict == HOLDS
    row = (
        to_markdown([r], n=10, seed=1, n_search=5, chart=None, errors=[], skipped=[])
        .split("| `x` |", 1)[1]
        .splitlines()[0]
    )
    assert "does not hold: -4.00 points per game" in row and "holds: 1.50 points per game" in row
    js = r.json()["deciding"]
    assert js["unit"] == "points per game" and js["skill"] == "b" and js["mean"] == -4.0


def test_the_definition_paragraph_says_how_verdicts_combine():
    md = to_markdown([_claim([{"a": (HOLDS, 1.0), "b": (HOLDS, 1.0)}])], n=10, seed=1, n_search=5, chart=None,
                     errors=[], skipped=[])  # fmt: skip
    assert DEFINITION in md
    for words in ("both hold: **holds**", "one holds and the other is undecided: **holds (undecided with X)**",
                  "the same for **does not hold**", "one holds and the other does not: **depends on skill**",
                  "**depends on the reading** only when fair readings reach opposite verdicts",
                  "for a verdict that does not hold, the failing part", "with its unit"):  # fmt: skip
        assert words in DEFINITION
    assert "(../docs/reports.md#how-to-read-this)" in md


def test_counts_of_claims_read_as_english():
    assert counted({HOLDS: 10, FAILS: 1, DEPENDS_SKILL: 3}) == "10 hold, 1 does not hold, 3 depend on skill"
    assert counted({HOLDS: 1, FAILS: 2}) == "1 holds, 2 do not hold"


PLAIN_BANNED = re.compile(r"pimc|Holm|Wilson|Bonferroni|preset")
CHEATING = {"easy_to_cheat", "parlett_cures"}  # their words are the cheating study's (a model of its own)


def test_the_claims_speak_in_plain_words():
    for c in registry():
        if c.id in CHEATING:
            continue
        texts = [c.short, c.differ, *(w for d in c.dropped for w in d)]
        for r in c.readings:
            texts += [r.reading, r.measure, r.decision, r.unit]
            assert r.unit, (c.id, r.id)  # every figure has its unit
        for t in texts:
            assert not PLAIN_BANNED.search(t), (c.id, t)


def test_the_report_keeps_code_names_for_what_was_run():
    res = check_claims(
        [c for c in registry(["scotch"]) if c.id in ("trick5_second_round", "count_out")], n=10
    )
    from whistsim.claims import not_measured, source_errors

    md = to_markdown(res, n=10, seed=1, n_search=5, chart=None, errors=source_errors(["scotch"]),
                     skipped=not_measured(["scotch"]))  # fmt: skip
    body, run = md.split("## What was run", 1)
    assert not PLAIN_BANNED.search(body) and "Wilson" in run and "--n-search 5" in run


def test_the_search_strength_is_the_default_strongest_player_and_n_search_its_games():
    from whistsim.claims import scotch, welsh, whist

    assert welsh.SEARCH == "pimc2" and scotch.PIMC == "pimc" and whist.SEARCH == "pimc"
    ctx = ClaimRun(20_000, 1, n_search=120)
    assert ctx.games("pimc2") == 120 and ctx.games("pimc") == 120 and ctx.games("greedy") == 20_000
    for c in registry():
        for r in c.readings:
            if r.skills != ("exact",) and c.id not in CHEATING:
                assert r.skills[-1] in ("pimc2", "pimc"), (c.id, r.id)


def test_a_claim_needing_a_missing_player_parameter_is_reported_not_checked():
    def boom(ctx, skill):
        raise AssertionError("must not run")

    c = Claim("x", "scotch", "Catch the Ten", "here", "words", "a claim",
              (Reading("r", "a", "b", "c", boom, ("heuristic", "pimc"), unit="u"),),
              needs=("heuristic", "heuristic.no_such_parameter"))  # fmt: skip
    (r,) = check_claims([c], n=10)
    assert r.verdict == NOT_CHECKED and "`no_such_parameter` parameter" in r.note and r.figure is None
    assert json.dumps(r.json())


def test_the_first_players_edge_is_first_mover_minus_the_others_mean():
    from whistsim.claims.welsh import first_edge

    pts = np.array([[90, 72, 54], [60, 80, 76]])
    assert first_edge(pts, np.array([0, 1])).tolist() == [90 - 63, 80 - 68]


def test_what_the_play_moves_between_sides_in_the_illustrative_hand():
    import whistsim
    from whistsim.claims.scotch import worked_record
    from whistsim.claims.tricks import moved_points

    rec = worked_record()
    rec["result"] = whistsim.games.get_game("scotch").replay(rec)
    # Z's Queen of trumps is won by A (trick 7), Y's Ten by B (trick 9); Y-Z take 2 for cards
    assert moved_points(rec) == {"J": 0, "A": 0, "K": 0, "Q": 2, "T": 10, "cards": 2}


def test_the_illustrative_hands_reasoning_checked_with_the_open_hand_solver():
    ids = ("trick3_marked", "trick5_second_round", "trick7_j_or_k", "trick8_catch")
    res = {r.claim.id: r for r in check_claims([c for c in registry(["scotch"]) if c.id in ids], n=10)}
    t3 = res["trick3_marked"]
    # the fact holds (Z was not dealt the Ten), the reason not: with it, trumping in is not his best card
    assert [rr.verdict for rr in t3.readings] == [HOLDS, FAILS] and t3.verdict == FAILS
    assert t3.deciding.reading.id == "open_hand" and t3.figure.mean < 0
    assert res["trick5_second_round"].verdict == HOLDS
    assert res["trick7_j_or_k"].verdict == HOLDS and res["trick7_j_or_k"].readings[1].primary.figure.mean > 0
    t8 = res["trick8_catch"]
    # with the Jack, B catches the Ten in every line; without it, Z's Jack ducking under A's 9 beats B
    assert t8.readings[0].verdict == HOLDS and t8.readings[1].verdict == FAILS
    assert "the Jack with Y: 2 of 2; the Jack with Z: 1 of 2" in t8.readings[1].primary.detail


def test_the_chart_counts_verdicts_in_english_and_gives_units_n_and_players(tmp_path):
    from whistsim.claims import draw_chart

    items = [_claim([{"greedy": (HOLDS, 1.0), "pimc2": (HOLDS, 2.0)}]).json() for _ in range(2)]
    items[1]["id"] = "y"
    draw_chart(items, str(tmp_path / "c.png"))
    side = json.loads((tmp_path / "c-chart.json").read_text())
    from whistsim.experiments.charts import problems

    assert side["title"].startswith("Of 2 claims, 2 hold:") and problems(side) == []
    assert side["n"].startswith("n=10 to 10 ") and "search players" in side["players"]
    (series,) = side["series"]
    assert all("points per game" in x and "n=10" in x and "search players" in x for x in series["x"])


def test_the_deciding_figure_carries_the_line_its_decision_compares_with(tmp_path):
    from dataclasses import replace

    from whistsim.claims import chart, draw_chart

    r = _claim([{"greedy": (HOLDS, 1.0), "pimc2": (HOLDS, 2.0)}])
    assert "line" not in r.json()["deciding"]  # no line, none drawn
    lined = ClaimResult(replace(r.claim, readings=(replace(r.claim.readings[0], line=0.5),)),
                        [replace(r.readings[0], reading=replace(r.readings[0].reading, line=0.5))])  # fmt: skip
    assert lined.json()["deciding"]["line"] == 0.5
    # the chart takes the line from the claims' JSON alone: no registry of claims is read to draw it
    chart([lined], str(tmp_path / "a.png"))
    draw_chart([lined.json()], str(tmp_path / "b.png"))
    unlined = lined.json()
    del unlined["deciding"]["line"]
    draw_chart([unlined], str(tmp_path / "c.png"))
    a, b, c = ((tmp_path / f"{x}.png").read_bytes() for x in "abc")
    assert a == b and a != c
