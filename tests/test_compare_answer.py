"""``whistsim compare`` reads like an answer: the change in words, the figures it moved first (in
words with units), the rest after, the untouched ones in one line; B must differ from A."""

import json

import pytest
from cli_helpers import one_line_error, run

import whistsim
from whistsim.core.options import WhistsimError
from whistsim.tools.comparison import CHANGED, SAME, UNCLEAR, format_comparison


@pytest.fixture(scope="module")
def five():
    return whistsim.compare("welsh", vs={"scoring": "five_penalty"}, n=400, seed=4)


def test_the_five_penalty_moves_the_points_and_leaves_the_cards_identical(five):
    # random players never look at the scoring: the same deals are played the same way
    assert five.verdict("points[0]") == CHANGED and five.verdict("total_points") == CHANGED
    assert all(five.verdict(f"cards_won[{q}]") == SAME for q in range(3))
    assert five.verdict("draws") == SAME  # fixed by the rules, and equal under both
    assert five.change == "five-penalty scoring against standard scoring"
    assert five.title() == "Five-penalty scoring against standard scoring: Welsh Whist, 400 paired deals"


def test_the_summary_lists_changed_then_unclear_then_identical_each_in_declaration_order(five):
    t = five.summary()
    rank = {CHANGED: 0, UNCLEAR: 1, SAME: 2}
    assert list(t.verdict.map(rank)) == sorted(t.verdict.map(rank))
    assert set(t.figure) == set(five.figures)  # the full table, every figure
    changed = list(t.figure[t.verdict == CHANGED])
    assert changed == [c for c in five.figures if c in changed]
    assert t.set_index("figure").loc["points[0]", "meaning"] == "seat 0's score under the rules' scoring"
    doc = five.to_json()
    assert [f["figure"] for f in doc["figures"]] == list(t.figure) and doc["change"] == five.change


def test_the_table_answers_in_words_with_units_and_names_the_identical_in_one_line(five):
    text = format_comparison(five)
    lines = text.splitlines()
    assert lines[0] == five.title()
    changed_at = next(i for i, line in enumerate(lines) if line.startswith("Changed"))
    rest_at = next(i for i, line in enumerate(lines) if line.startswith("No clear change"))
    assert changed_at < rest_at
    points = next(line for line in lines if line.endswith("(points[0])"))
    assert lines.index(points) < rest_at
    assert "points per game" in points and "seat 0's score under the rules' scoring" in points
    total = next(line for line in lines if line.endswith("(total_points)"))
    assert "exact" in total and "-48" in total  # eight Fives at -5 instead of +1, every deal
    same = [line for line in lines if line.startswith("Identical in every deal")]
    assert len(same) == 1 and "cards_won[0-2]" in same[0] and "draws" in same[0]
    assert not [line for line in lines if line.endswith(("(cards_won[0])", "(draws)"))]  # no rows of zeros


def test_compare_without_vs_or_with_a_vs_that_changes_nothing_is_one_line():
    one_line_error(run("compare", "--n", 10), "give --vs")
    one_line_error(run("compare", "--vs", "scoring=standard", "--n", 10), "changes nothing")
    one_line_error(run("compare", "--vs", "preset=parlett", "--n", 10), "changes nothing")
    with pytest.raises(WhistsimError, match="changes nothing"):
        whistsim.compare("welsh", rules={"revokes": True}, vs={"revokes": "true"}, n=10)
    one_line_error(run("compare", "--vs", "preset=akagri", "--n", 10), "did you mean 'akagiri'?")


def test_a_preset_in_vs_starts_b_from_that_preset_with_as_rules_on_top():
    c = whistsim.compare(
        "welsh", players=5, rules={"scoring": "piles"}, vs={"preset": "akagiri"}, n=30, seed=1
    )
    assert (c.rules_b.packs, c.rules_b.taffies, c.rules_b.taffy_rank) == (3, 6, 10.0)  # Akagiri at 5 players
    assert c.rules_b.scoring == "piles" and c.rules_b.players == 5  # A's rules on top
    assert c.change.startswith(
        "the akagiri preset (packs 3, taffies 6 and taffy_rank 10) against the parlett"
    )
    r = run("compare", "--vs", "preset=akagiri", "--n", 20)
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith(
        "The akagiri preset (taffy_rank 10) against the parlett preset (taffy_rank 10.5)"
    )


def test_one_deal_gives_no_interval_in_compare_never_a_zero_width_one():
    r = run("compare", "--vs", "revokes=true", "--n", 1)
    assert r.exit_code == 0, r.output
    points = next(line for line in r.stdout.splitlines() if line.endswith("(points[0])"))
    assert "n too small" in points and "[" not in points.removesuffix("(points[0])") and "nan" not in r.stdout
    doc = json.loads(run("compare", "--vs", "revokes=true", "--n", 1, "--json").stdout)
    row = next(f for f in doc["figures"] if f["figure"] == "points[0]")
    assert row["ci_low"] is None and row["ci_high"] is None and "one game" in doc["note"]


def test_the_chart_has_one_panel_per_unit_and_a_title_in_words(five, tmp_path, monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.figure

    saved = []
    real = matplotlib.figure.Figure.savefig

    def keep(fig, *args, **kw):
        saved.append(fig)
        return real(fig, *args, **kw)

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", keep)
    five.chart(str(tmp_path / "c.png"))
    assert (tmp_path / "c.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    fig = saved[0]
    drawn = [r for r in five.rows() if r[8] != SAME]
    axes = [ax for ax in fig.axes if ax.get_xlabel()]
    assert sorted(ax.get_xlabel() for ax in axes) == sorted(f"B minus A, {u}" for u in {r[1] for r in drawn})
    assert fig._suptitle.get_text().startswith(five.title())
    labels = [t.get_text() for ax in axes for t in ax.get_yticklabels()]
    assert "seat 0's score under the rules' scoring (points[0])" in labels


def test_each_rule_sets_shares_have_wilsons_interval_inside_0_1(five):
    from whistsim.core.stats import wilson

    m = five.means("b").set_index("figure")
    for c in ("win[0]", "top_tie", "most_cards_wins"):
        assert (m.loc[c, "ci_low"], m.loc[c, "ci_high"]) == pytest.approx(wilson(m.loc[c, "mean"], 400))
        assert 0 <= m.loc[c, "ci_low"] <= m.loc[c, "ci_high"] <= 1
