"""Figures that mean what they say, and the small words around them: shares' intervals inside
[0, 1], "n too small" where one game gives no interval, rules as users write them, replay's
last line, strict JSON, plurals, near misses by prefix, a refused repeat."""

import json
import math
import re
from types import SimpleNamespace

import numpy as np
import pytest
from cli_helpers import one_line_error, run

import whistsim
from whistsim.cli import main
from whistsim.core.options import RuleError, near, parse_assignments, plural
from whistsim.core.stats import cluster_share, wilson
from whistsim.core.tables import ci_text, is_share
from whistsim.tools.tournament import format_ranking

# ---- shares' intervals ---------------------------------------------------------------------


def test_a_share_of_five_games_has_wilsons_interval_inside_0_1_in_the_summary_and_the_table():
    sim = whistsim.simulate("welsh", 5, 0)
    t = sim.summary().set_index("figure")
    g = whistsim.games.get_game("welsh")
    shares = [c for c in t.index if is_share(g.figure(c))]
    assert {"win[0]", "win[1]", "win[2]", "top_tie", "last_keeps"} <= set(shares)
    for c in shares:
        p = t.loc[c, "mean"]
        assert (t.loc[c, "ci_low"], t.loc[c, "ci_high"]) == pytest.approx(wilson(p, 5))
        assert 0 <= t.loc[c, "ci_low"] <= p <= t.loc[c, "ci_high"] <= 1
    assert "-0." not in sim.format().split("win[0]", 1)[1]  # no bound below 0 in the table either


def test_what_a_share_is_comes_from_the_declaration_not_the_name():
    g = whistsim.games.get_game("welsh")
    assert is_share(g.figure("win[0]"))  # "share of games won", ties shared: values in [0, 1]
    assert is_share(g.figure("top_tie"))  # a declared rate
    assert not is_share(g.figure("rel_margin"))  # "share of points per player" can pass 1
    assert not is_share(g.figure("taffy_ten_taffy_share"))  # a ratio of means, not a per-game mean
    assert not is_share(whistsim.games.get_game("whist").figure("honours_share"))  # share of points


def test_a_cluster_share_uses_the_decks_spread_and_stays_inside_0_1():
    p, low, high = cluster_share(np.ones(40), 120)  # won every seat-game: Wilson at 120 trials
    assert p == 1 and high == 1 and (low, high) == pytest.approx(wilson(1.0, 120)) and low < 1
    x = np.array([0.0, 0.5, 1.0, 0.5] * 10)  # four decks' shares, repeated
    p, low, high = cluster_share(x, 80)
    n_eff = 0.5 * 0.5 / (x.var(ddof=1) / x.size)  # the trials a binomial of this spread would need
    assert (low, high) == pytest.approx(wilson(0.5, n_eff)) and 0 <= low < 0.5 < high <= 1
    assert math.isnan(cluster_share(np.array([0.5]), 3)[1])  # one deck: no interval


def test_a_tournaments_win_rate_keeps_inside_0_1_and_one_deck_says_n_too_small():
    t = whistsim.tournament(["random", "greedy"], "welsh", n=300, seed=2, threads=1)
    r = t.ranking
    assert (
        (0 <= r.win_low) & (r.win_low <= r.win_rate) & (r.win_rate <= r.win_high) & (r.win_high <= 1)
    ).all()
    assert (r.games == t.games).all() and (r.seat_games > r.games).all()  # two seats of three each game
    small = whistsim.tournament(["random", "greedy", "counter"], "welsh", n=3, seed=2, threads=1)
    assert small.decks == 1 and small.ranking.win_low.isna().all()
    text = format_ranking(small)
    assert "n too small" in text and "nan" not in text and "--n 12 or more" in text
    assert small.to_json()["note"].startswith("the interval bounds are null")


def test_a_claims_share_measured_on_every_deal_keeps_its_wilson_interval(monkeypatch):
    from whistsim.claims import HOLDS
    from whistsim.claims import scotch as claims_scotch

    monkeypatch.setattr(claims_scotch, "_events", lambda ctx, skill: [{"jack_kept": True}] * 500)
    out = claims_scotch._event("jack_kept", 1.0)(SimpleNamespace(seed=1), "heuristic")
    assert out.verdict == HOLDS and not out.figure.exact
    assert (out.figure.low, out.figure.high) == pytest.approx(wilson(1.0, 500)) and out.figure.low < 1


# ---- too few games for an interval -------------------------------------------------------------


def test_one_game_gives_no_interval_in_the_table_or_the_json():
    r = run("simulate", "--n", 1)
    assert r.exit_code == 0, r.output
    assert "nan" not in r.stdout and "n too small" in r.stdout.split("points[0]", 1)[1].splitlines()[0]
    assert "exact" in r.stdout.split("draws", 1)[1].splitlines()[0]  # fixed by the rules: still exact
    doc = json.loads(run("simulate", "--n", 1, "--json").stdout)
    points = next(f for f in doc["figures"] if f["figure"] == "points[0]")
    assert points["ci_low"] is None and points["ci_high"] is None and "one game" in doc["note"]
    assert "note" not in json.loads(run("simulate", "--n", 2, "--json").stdout)


def test_ci_text_says_n_too_small_never_nan_nor_a_zero_width_interval_from_one_game():
    assert ci_text(math.nan, math.nan, 1) == "n too small"
    assert ci_text(3.0, 3.0, 1) == "n too small"
    assert ci_text(1.0, 2.0, 10) == "[1, 2]" and ci_text(1.0, 1.0, 1, exact=True) == "exact"


def test_the_tournament_header_counts_games_in_words():
    r = run("tournament", "--strategies", "random,greedy,counter", "--n", 3, "--threads", 1)
    assert r.exit_code == 0, r.output
    assert "6 seat arrangements x 1 deck = 6 games" in r.stdout and "nan" not in r.stdout


# ---- rules, replay, help, words ------------------------------------------------------------------


def test_rules_shows_values_as_written_choices_in_words_and_what_each_preset_sets():
    out = run("rules", "--game", "welsh").stdout
    assert "False" not in out and "True" not in out and "|" not in out
    assert "default false" in out and "(standard, five_penalty or piles)" in out
    assert "- parlett: packs 2; taffies 4; taffy_rank 10.5" in out
    assert "- akagiri: packs 1 at 2, 2 at 3-4, 3 at 5-6" in out and "taffy_rank 10\n" in out
    doc = json.loads(run("rules", "--game", "whist", "--json").stdout)
    assert doc["preset_rules"] == {"long": {"4": {"target": 10, "honours": True}},
                                   "short": {"4": {"target": 5, "honours": False}}}  # fmt: skip


def test_replay_ends_with_a_count_on_stderr_and_says_an_empty_file(tmp_path):
    path = tmp_path / "g.jsonl"
    assert run("simulate", "--n", 3, "--records", path).exit_code == 0
    path.write_text(path.read_text() + "{oops\n")
    r = run("replay", path)
    assert r.exit_code == 1
    assert r.stderr.strip().splitlines()[-1] == "whistsim: replay: 4 records judged: 3 accepted, 1 rejected"
    assert "judged" not in r.stdout
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n\n")
    r = run("replay", empty)
    assert r.exit_code == 1 and r.stdout == "" and "holds no record" in r.stderr


def test_replay_json_is_strict_json_even_when_a_record_carries_nan(tmp_path):
    path = tmp_path / "g.jsonl"
    assert run("simulate", "--n", 1, "--records", path).exit_code == 0
    rec = json.loads(path.read_text())
    path.write_text(json.dumps({**rec, "result": {"points": [math.nan, math.inf, -math.inf]}}) + "\n")

    def refuse(word):
        raise ValueError(word)

    for args in (("--json",), ()):
        r = run("replay", path, *args)
        assert r.exit_code == 1 and "NaN" not in r.stdout and "Infinity" not in r.stdout
    line = run("replay", path, "--json").stdout.strip()
    assert json.loads(line, parse_constant=refuse)["stored"] == {"points": [None, None, None]}


def test_no_help_text_shows_a_doubled_percent_sign():
    from whistsim.cli import COMMAND_MODULES  # noqa: F401  (every command registered)

    for name in main.commands:
        text = run(name, "--help").output
        assert "%%" not in text, name
    assert "95% CIs" in run("compare", "--help").output


def test_plural_says_one_game_and_many_games():
    assert plural(1, "game") == "1 game" and plural(0, "game") == "0 games"
    assert plural(2000, "card") == "2,000 cards" and plural(2, "deal", "deals") == "2 deals"
    from whistsim.harness.events import TRICK
    from whistsim.harness.narrator import deal_lines

    story = deal_lines(iter([(0, 0, [(TRICK, 1, 1, 0)]), (0, 0, [(TRICK, 2, 3, 0)])]))
    assert story == ["  -> seat 1 wins the trick (1 card)", "  -> seat 2 wins the trick (3 cards)"]
    r = run("simulate", "--n", 1)
    assert "1 game in " in r.stdout and not re.search(r"\b1 games\b", r.stdout)


def test_the_progress_bar_ends_at_n_after_the_timed_start(monkeypatch):
    from whistsim.games import runner

    bars = []

    class Bar:
        def __init__(self, total, initial=0):
            self.total, self.n = total, initial
            bars.append(self)

        def update(self, k):
            self.n += k

        def close(self):
            pass

    monkeypatch.setattr(runner, "_progress", Bar)
    whistsim.simulate("welsh", 200, 1, progress=True)
    assert len(bars) == 1 and bars[0].total == 200 and bars[0].n == 200


# ---- near misses and repeats ---------------------------------------------------------------------


def test_a_prefix_gets_did_you_mean_for_values_keys_presets_and_strategies():
    assert near("five", ["standard", "five_penalty", "piles"]) == "; did you mean 'five_penalty'?"
    assert near("p", ["parlett", "piles", "akagiri"]) == "; did you mean 'parlett' or 'piles'?"
    one_line_error(run("simulate", "--rule", "scoring=five", "--n", 1), "did you mean 'five_penalty'?")
    one_line_error(run("simulate", "--rule", "scor=piles", "--n", 1), "did you mean 'scoring'?")
    one_line_error(run("simulate", "--preset", "aka", "--n", 1), "did you mean 'akagiri'?")
    one_line_error(run("simulate", "--strategy", "0=hoa", "--n", 1), "did you mean 'hoarder'?")


def test_a_rule_given_twice_is_refused_not_silently_last_wins():
    with pytest.raises(RuleError, match=r"rule 'scoring' is given twice \('piles' and 'standard'\)"):
        parse_assignments(["scoring=piles", " scoring = standard"])
    one_line_error(
        run("simulate", "--rule", "revokes=true", "--rule", "revokes=false", "--n", 1), "given twice"
    )


def test_odds_refuses_a_score_in_other_scripts_digits():
    one_line_error(run("odds", "--score", "٣-١", "--n", 10), "score '٣-١'")
