"""``whistsim compare``: two rule sets on the same deals, differences taken game by game."""

import json

import numpy as np
from click.testing import CliRunner

import whistsim
from whistsim.cli import main


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_a_change_with_no_effect_under_these_players_leaves_every_figure_identical():
    # the chance of claiming a revoke, with revokes forbidden: there is nothing to claim
    c = whistsim.compare("whist", vs={"claim": 0.5}, n=300, seed=2)
    t = c.summary()
    assert len(t) > 10 and (t.n == 300).all()
    assert (t["diff"] == 0).all() and (t.ci_low == 0).all() and (t.ci_high == 0).all()
    assert np.allclose(t.mean_a, t.mean_b, equal_nan=True) and (t.verdict == "identical").all()


def test_a_difference_is_exact_only_when_the_rules_fix_it_not_when_a_sample_did_not_vary():
    c = whistsim.compare("welsh", vs={"scoring": "five_penalty"}, n=40, seed=4)
    from whistsim.tools.comparison import format_comparison

    # fixed by the rules under both: the pack's points, the cards drawn, challenges (no challenge rule)
    assert {"total_points", "draws", "challenges_won"} <= c.exact and "points[0]" not in c.exact
    # cards won by seat 0 did not differ in these games (random play ignores the scoring), but could have
    t = c.summary().set_index("figure")
    assert t.loc["cards_won[0]", "diff"] == 0 and t.loc["cards_won[0]", "ci_low"] == 0
    assert "cards_won[0]" not in c.exact
    lines = format_comparison(c).splitlines()
    assert "exact" in next(line for line in lines if line.endswith("(total_points)"))
    assert not any(line.endswith("(cards_won[0])") for line in lines)  # identical: named in one line
    assert "cards_won[0-2]" in next(line for line in lines if line.startswith("Identical in every deal"))


def test_the_five_penalty_costs_six_points_for_each_five_in_the_packs_on_the_same_deals():
    # Two packs hold eight Fives, each scoring -5 instead of 1: 48 points fewer in all, every deal.
    c = whistsim.compare("welsh", vs={"scoring": "five_penalty"}, n=500, seed=4)
    t = c.summary().set_index("figure")
    assert t.loc["total_points", "diff"] == -48
    assert t.loc["total_points", "ci_low"] == t.loc["total_points", "ci_high"] == -48
    # random players never look at the scoring: the same deals are played the same way
    for q in range(3):
        assert t.loc[f"cards_won[{q}]", "diff"] == 0
    assert t.loc["points[0]", "ci_high"] < 0


def test_compare_cli_prints_units_and_json(tmp_path):
    r = run("compare", "--game", "whist", "--vs", "honours=false", "--n", 400, "--seed", 1)
    assert r.exit_code == 0, r.output
    assert "B - A" in r.output and "points per game" in r.output
    assert r.output.startswith("Without honours against with honours: Whist, 400 paired deals")
    chart = tmp_path / "d.png"
    r = run("compare", "--game", "whist", "--vs", "honours=false", "--n", 400, "--json", "--chart", chart)
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    rows = {f["figure"]: f for f in out["figures"]}
    assert rows["honours_total"]["mean_b"] == 0 and rows["honours_total"]["n"] == 400
    assert rows["honours_total"]["exact"] is False and all(
        isinstance(f["exact"], bool) for f in rows.values()
    )
    assert (
        rows["honours_total"]["ci_low"] <= rows["honours_total"]["diff"] <= rows["honours_total"]["ci_high"]
    )
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_compare_refuses_a_bad_rule_in_one_line():
    r = run("compare", "--vs", "scoring=nonsense", "--n", 10)
    assert r.exit_code == 2 and r.stderr.startswith("whistsim: error: ") and len(r.stderr.splitlines()) == 1


def test_the_timed_start_and_bar_change_no_comparison():
    quiet = whistsim.compare("whist", vs={"honours": False}, n=700, seed=6).summary()
    shown = whistsim.compare("whist", vs={"honours": False}, n=700, seed=6, progress=True).summary()
    assert list(quiet.figure) == list(shown.figure) and (quiet.n == shown.n).all()
    assert np.allclose(quiet[["mean_a", "mean_b", "diff"]], shown[["mean_a", "mean_b", "diff"]], rtol=1e-12)


def test_a_comparison_is_the_experiment_of_two_cells_played_by_the_experiments_run():
    from whistsim.experiments import run_experiment
    from whistsim.games import get_game
    from whistsim.tools.comparison import two_cells

    c = whistsim.compare("welsh", vs={"scoring": "five_penalty"}, n=300, seed=5)
    g = get_game("welsh")
    ra, rb = g.make_rules(None, None, {}), g.make_rules(None, None, {"scoring": "five_penalty"})
    spec = two_cells("welsh", ra, rb, c.strategies, c.strategies, n=300, seed=5, first=-1, where=None,
                     figures=c.figures)  # fmt: skip
    assert [p.cell for p in spec.pairs] == [1] and [p.base for p in spec.pairs] == [0]
    res = run_experiment(spec, write=False)
    for f in c.figures:
        assert c.diff.estimate(f) == res.tally.paired[0].estimate(f)
        assert c.a.estimate(f) == res.tally.estimate(0, f) and c.b.estimate(f) == res.tally.estimate(1, f)


def test_a_stopped_comparison_keeps_the_parts_played_and_says_it_was_stopped():
    asked = []

    def stop():
        asked.append(1)
        return len(asked) >= 2  # after the second part

    c = whistsim.compare("whist", vs={"honours": False}, n=10**7, seed=1, stop=stop)
    assert c.interrupted and 0 < c.n < 10**7
    assert all(r[7] == c.n for r in c.rows())


def test_a_comparison_under_a_constraint_gives_the_exact_count_of_deals_drawn_per_deal_played():
    from whistsim.tools.comparison import format_comparison

    where = "side0.honours >= 3"
    c = whistsim.compare("whist", rules={"unit": "deal"}, vs={"honours": False}, n=300, seed=3, where=where)
    sim = whistsim.simulate("whist", 300, 3, rules={"unit": "deal"}, where=where, first="rotate")  # A's deals
    assert c.drawn_per_deal == sim.drawn_per_deal > 1
    assert (
        f"dealt under: {where} ({sim.drawn_per_deal:,.2f} deals drawn per deal played)"
        in format_comparison(c)
    )


def test_an_oh_hell_comparison_counts_whole_games_the_unit_its_game_declares():
    from whistsim.tools.comparison import format_comparison

    c = whistsim.compare("ohhell", vs={"hook": False}, n=30, seed=1)
    assert c.title().endswith("Oh Hell, 30 paired games")
    assert "the same 30 games under both, each figure's difference (B - A) taken game by game" in (
        format_comparison(c)
    )
    assert whistsim.compare("welsh", vs={"scoring": "piles"}, n=3, seed=1).title().endswith("3 paired deals")
