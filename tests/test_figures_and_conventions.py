"""Figures that explain themselves, warnings for settings with no effect, estimates, --json everywhere."""

import io
import json
import warnings

import numpy as np
import pytest
from click.testing import CliRunner

import whistsim
from whistsim.cli import main
from whistsim.core import eta
from whistsim.games import get_game
from whistsim.tools.advice import WhistsimWarning, ineffective


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


# ---- figures: units and meanings ---------------------------------------------------


@pytest.mark.parametrize("game", ["welsh", "scotch", "whist"])
def test_figures_lists_every_declared_figure_with_unit_and_meaning(game):
    r = run("figures", "--game", game, "--json")
    assert r.exit_code == 0, r.output
    rows = json.loads(r.stdout)["figures"]
    assert len(rows) == len(get_game(game).figures)
    assert all(row["unit"] and row["meaning"] for row in rows)
    text = run("figures", "--game", game).output
    assert all(row["figure"] in text for row in rows)


def test_simulate_prints_the_unit_beside_each_figure_and_win_rates_with_ties():
    r = run("simulate", "--n", 300, "--seed", 1)
    assert r.exit_code == 0, r.output
    lines = {
        line.split()[0]: line
        for line in r.output.splitlines()
        if line and not line.startswith(("welsh", "players"))
    }
    assert "cards per game" in lines["cards_won[0]"]
    assert "share of games won" in lines["win[0]"]
    assert "top_tie" in lines


def test_exact_only_when_constant_by_the_rules_not_when_a_sample_did_not_vary():
    # Welsh: every card of the stock is drawn, and without revokes no pass is false.
    sim = whistsim.simulate("welsh", 200, 3)
    figs = {f["figure"]: f for f in sim.to_json()["figures"]}
    assert figs["draws"]["exact"] and figs["false_passes"]["exact"] and figs["total_points"]["exact"]
    # piles scoring: the total depends on the piles' heights
    piles = {
        f["figure"]: f
        for f in whistsim.simulate("welsh", 200, 3, rules={"scoring": "piles"}).to_json()["figures"]
    }
    assert not piles["total_points"]["exact"]
    # revokes allowed but nobody revokes: zero in this sample, yet not exact
    sim = whistsim.simulate("whist", 200, 3, rules={"revokes": True}, strategies=["random:revoke=0"])
    figs = {f["figure"]: f for f in sim.to_json()["figures"]}
    assert figs["revokes"]["mean"] == 0 and figs["revokes"]["sd"] == 0 and not figs["revokes"]["exact"]
    assert "exact" not in sim.format().split("revokes", 1)[1].splitlines()[0]


def test_summary_gives_shares_of_games_wilson_intervals_inside_0_1():
    sim = whistsim.simulate("whist", 50, 2)
    t = sim.summary().set_index("figure")
    assert "unit" in t.columns
    assert 0 <= t.loc["counted_out", "ci_low"] <= t.loc["counted_out", "ci_high"] <= 1


# ---- warnings about settings with no effect ------------------------------------------


def test_cheating_with_revokes_off_and_challenges_without_a_rule_are_warned():
    r = get_game("welsh").make_rules()
    lines = ineffective("welsh", r, ["cheater:rate=0.2,challenge=smart"])
    assert len(lines) == 2 and "revokes are off" in lines[0] and "no challenge rule" in lines[1]
    assert ineffective("welsh", r, ["cheater"])  # the cheater's own default cannot act either
    on = get_game("welsh").make_rules(None, None, {"revokes": True, "challenge": "parlett"})
    assert ineffective("welsh", on, ["cheater:rate=0.2,challenge=smart"]) == []
    assert ineffective("welsh", r, ["random", "greedy:cheat=0"]) == []
    assert ineffective("whist", get_game("whist").make_rules(), ["random:revoke=0.3"])


def test_every_player_parameter_that_the_rules_never_consult_is_warned():
    welsh = get_game("welsh")
    off = welsh.make_rules(None, None, {})
    on = welsh.make_rules(None, None, {"revokes": True, "challenge": "parlett"})
    # cheat=policy's own parameters: nothing without revokes, nothing unless cheat=policy
    (line,) = ineffective("welsh", off, ["greedy:cheat_hand=3"])
    assert "cheat_hand=3 has no effect" in line and "revokes are off" in line
    (line,) = ineffective("welsh", on, ["counter:cheat=smart,cheat_stake=1,cheat_weigh=0.5"])
    assert "cheat_stake=1, cheat_weigh=0.5 have no effect" in line and "cheat is smart" in line
    assert ineffective("welsh", on, ["counter:cheat=policy,cheat_stake=1"]) == []
    # the heuristic's advice for one game only
    scotch, whist = get_game("scotch").make_rules(), get_game("whist").make_rules()
    (line,) = ineffective("scotch", scotch, ["heuristic:draw_trumps=3"])
    assert "draw_trumps=3 has no effect" in line and "Whist only" in line
    lines = ineffective("whist", whist, ["heuristic:tenace=0,two_rounds=0,ten_to_partner=0"])
    assert len(lines) == 3 and all("Scotch Whist only" in x for x in lines)
    assert ineffective("scotch", scotch, ["heuristic:tenace=0"]) == []
    assert ineffective("whist", whist, ["heuristic:draw_trumps=3"]) == []


def test_simulate_warns_once_per_setting_in_one_line_each():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        whistsim.simulate("welsh", 10, 0, strategies=["cheater:rate=0.2,challenge=smart"])
    assert sum(issubclass(w.category, WhistsimWarning) for w in caught) == 2
    r = run("simulate", "--n", 10, "--strategy", "2=cheater:rate=0.2,challenge=smart")
    assert r.exit_code == 0
    warned = [line for line in r.stderr.splitlines() if line.startswith("whistsim: warning: ")]
    assert len(warned) == 2


def test_a_revoke_option_is_idle_when_revokes_are_off_or_never_claimed():
    from whistsim.tools.advice import idle_rules

    whist, scotch = get_game("whist"), get_game("scotch")
    off = whist.make_rules(None, None, {"revoke_penalty": 5, "claim": 0.5})
    lines = idle_rules("whist", off, ["revoke_penalty", "claim"])
    assert len(lines) == 2 and all("revokes are off" in x for x in lines)
    assert lines[0].startswith("rule revoke_penalty=5 has no effect")
    never = whist.make_rules(None, None, {"revokes": True, "claim": 0, "revoke_score": "deduct"})
    (line,) = idle_rules("whist", never, ["revokes", "claim", "revoke_score"])
    assert "revoke_score=deduct" in line and "claim=0, so no revoke is claimed" in line
    on = whist.make_rules(None, None, {"revokes": True, "revoke_penalty": 5})
    assert idle_rules("whist", on, ["revokes", "revoke_penalty"]) == []
    assert idle_rules("whist", off, []) == []  # the defaults are never blamed
    (line,) = idle_rules("scotch", scotch.make_rules(None, 4, {"revoke_loss": "player"}), ["revoke_loss"])
    assert "revoke_loss=player has no effect" in line
    (line,) = idle_rules("scotch", scotch.make_rules(None, 4, {"odd_six": "aside"}), ["odd_six"])
    assert "with 5 or 7 players only (here 4)" in line
    assert idle_rules("scotch", scotch.make_rules(None, 5, {"odd_six": "aside"}), ["odd_six"]) == []
    # a Welsh challenge rule acts with revokes off: every challenge made fails
    welsh = get_game("welsh")
    assert idle_rules("welsh", welsh.make_rules(None, 3, {"challenge": "parlett"}), ["challenge"]) == []


def test_an_idle_rule_option_is_warned_in_one_line_by_each_command():
    for args in (["simulate", "--game", "whist", "--rule", "claim=0.3", "--n", 5],
                 ["compare", "--game", "whist", "--rule", "claim=0.3", "--vs", "honours=false", "--n", 5]):  # fmt: skip
        r = run(*args)
        assert r.exit_code == 0, r.output
        warned = [x for x in r.stderr.splitlines() if x.startswith("whistsim: warning: ")]
        assert warned == ["whistsim: warning: rule claim=0.3 has no effect: revokes are off "
                          "(--rule revokes=true allows them)"]  # fmt: skip


# ---- estimates before long runs -------------------------------------------------------


def test_the_timed_start_plays_the_first_games_once_each_in_order():
    played = []
    done, secs = eta.timed_start(lambda start, k, played=played: played.append((start, k)), 10_000)
    assert played[0] == (0, eta.PROBE_GAMES)
    assert all(a + k == b for (a, k), (b, _) in zip(played, played[1:], strict=False))
    assert sum(k for _, k in played) == done <= 10_000 and secs >= 0


def test_a_run_expected_over_a_minute_is_announced_in_one_line():
    out = io.StringIO()
    assert eta.announce(100, 1.0, 1_000_000, out=out) is not None  # ~2.8 h to go
    assert out.getvalue().count("\n") == 1 and "to go" in out.getvalue()
    quiet = io.StringIO()
    assert eta.announce(100, 0.001, 1000, out=quiet) is None and quiet.getvalue() == ""


def test_a_timed_run_plays_every_unit_once_in_order_with_or_without_its_bar():
    from whistsim.games.runner import timed_run

    for progress in (False, True):
        played = []
        done = timed_run(
            5000, lambda start, k, played=played: played.append((start, k)), progress=progress, per=6
        )
        assert done == 5000 and played[0][0] == 0
        assert all(a + k == b for (a, k), (b, _) in zip(played, played[1:], strict=False))
        assert sum(k for _, k in played) == 5000


def test_a_slow_players_chunks_give_every_thread_games(monkeypatch):
    """A chunk sized by time alone holds one game of a player slower than CHUNK_SECONDS a game
    (dd on whole deals): after the timed first one, every chunk gives each thread work."""
    import numba

    from whistsim.games import runner

    clock = [0.0]
    monkeypatch.setattr(runner.time, "perf_counter", lambda: clock[0])
    sizes = []

    def play(start, k):
        sizes.append(k)
        clock[0] += 10.0 * k  # ten seconds a unit: time alone would ask for one

    fewest = runner.PER_THREAD * numba.get_num_threads()
    assert runner.by_time(10 * fewest + 3, play) == 10 * fewest + 3
    assert sizes[0] == runner.FIRST_CHUNK
    assert all(k == fewest for k in sizes[1:-1]) and 1 <= sizes[-1] <= fewest


def test_a_small_batch_is_split_among_the_threads():
    from whistsim.harness.loop import BLOCK, block_size

    assert block_size(1, 2) == 1
    assert block_size(5, 2) == 2 and block_size(8, 4) == 2  # every thread gets a work item
    assert block_size(10_000, 2) == BLOCK  # a big batch: full blocks
    for n in range(1, 200):
        for t in (1, 2, 3, 8):
            b = block_size(n, t)
            assert 1 <= b <= BLOCK and -(-n // b) >= min(n, t)


def test_the_timed_start_changes_no_tournament():
    kw = dict(game="welsh", players=3, n=600, seed=4, first="rotate")
    a, b = (
        whistsim.tournament(["random", "greedy"], **kw),
        whistsim.tournament(["random", "greedy"], **kw, progress=True),
    )
    assert a.decks == b.decks and np.array_equal(a.points, b.points)


def test_the_timed_start_changes_no_result():
    a = whistsim.simulate("welsh", 3000, 9, records=3)
    b = whistsim.simulate("welsh", 3000, 9, records=3, progress=True)
    sa, sb = a.summary(), b.summary()
    assert list(sa.figure) == list(sb.figure) and list(sa.n) == list(sb.n) and a.records == b.records
    # the same games, summed in other chunks: equal up to floating-point rounding
    assert np.allclose(sa[["mean", "sd"]], sb[["mean", "sd"]], rtol=1e-12, atol=1e-12)


# ---- --json on every command that prints results -------------------------------------


def test_every_result_command_speaks_json(tmp_path):
    recs = tmp_path / "g.jsonl"
    assert run("simulate", "--n", 20, "--records", recs).exit_code == 0
    for args in (
        ("simulate", "--n", 50, "--json"),
        ("show", recs, "--json"),
        ("rules", "--game", "scotch", "--json"),
        ("strategies", "--game", "whist", "--json"),
        ("figures", "--json"),
        ("tournament", "--game", "whist", "--strategies", "random,heuristic", "--n", 40, "--json"),
        ("compare", "--n", 30, "--vs", "revokes=true", "--json"),
    ):
        r = run(*args)
        assert r.exit_code == 0, (args, r.output)
        assert isinstance(json.loads(r.stdout), dict), args
    for line in run("replay", recs, "--json").stdout.splitlines():
        assert isinstance(json.loads(line), dict)


def test_rules_and_strategies_columns_are_aligned():
    lines = [line for line in run("rules", "--game", "whist").output.splitlines() if line.startswith("  ")]
    assert len({line.index(" default ") for line in lines}) == 1


# ---- the Python API --------------------------------------------------------------------


def test_the_api_is_importable_from_whistsim_with_examples():
    for name in ("simulate", "tournament", "compare", "run_experiment", "load_results", "play_game"):
        f = getattr(whistsim, name)
        assert ">>>" in (f.__doc__ or ""), name


def test_games_is_a_tidy_table_one_row_per_game_and_seat():
    sim = whistsim.simulate("welsh", 120, 5, keep_games=True)
    df = sim.games()
    assert len(df) == 120 * 3 and {"game", "seat", "turn", "points", "cards_won", "win", "draws"} <= set(
        df.columns
    )
    means = sim.summary().set_index("figure")["mean"]
    for q in range(3):
        assert df[df.seat == q].points.mean() == pytest.approx(means[f"points[{q}]"])
    assert (df.groupby("game").win.sum().round(9) == 1).all()
    dealt = whistsim.simulate("scotch", 30, 5, keep_games=True).games()
    assert len(dealt) == 30 * 4 and (dealt.groupby(["game", "side"]).seat_won.nunique() == 1).all()
    with pytest.raises(whistsim.WhistsimError, match="keep_games"):
        whistsim.simulate("welsh", 5, 0).games()


def test_help_texts_carry_no_restructuredtext_markup():
    for name in main.commands:
        text = run(name, "--help").output
        assert "``" not in text and ":class:" not in text and ":func:" not in text, name


def test_experiment_speaks_json(tmp_path):
    r = run("experiment", "experiments/five_penalty.toml", "--n", 200, "--out", tmp_path / "fp", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["name"] == "five_penalty" and out["cells"] == 12 and out["games"] == 200
    assert out["findings"] and {"figure", "mean", "ci_low", "ci_high", "n"} <= set(out["summary"][0])


def test_an_experiment_expected_over_a_minute_says_so_once_from_its_first_second_of_play(monkeypatch, capsys):
    from types import SimpleNamespace

    from whistsim.experiments import run as run_mod

    clock = [100.0]
    monkeypatch.setattr(run_mod.time, "perf_counter", lambda: clock[0])
    spec = SimpleNamespace(n=1_000_000, cells=[0, 1], name="x")
    bar = run_mod._Progress(spec, lambda k: None, 0, None, 10**8)
    bar.update(500)  # the first batch: it may have compiled, so it is not timed
    for _ in range(3):
        clock[0] += 0.5
        bar.update(1000)
    bar.close()
    said = [x for x in capsys.readouterr().err.replace("\r", "\n").splitlines() if x.startswith("whistsim:")]
    # 2,000 games in 1 s, about 2,000,000 to go: one line, about 17 min
    assert len(said) == 1 and "about 17 min to go" in said[0], said


def test_an_experiment_with_a_stopping_rule_or_a_short_run_says_nothing(monkeypatch, capsys):
    from types import SimpleNamespace

    from whistsim.experiments import run as run_mod

    clock = [0.0]
    monkeypatch.setattr(run_mod.time, "perf_counter", lambda: clock[0])
    for n, until in ((1_000_000, 0.5), (5_000, None)):
        bar = run_mod._Progress(SimpleNamespace(n=n, cells=[0], name="x"), lambda k: None, 0, until, 10**8)
        for _ in range(4):
            clock[0] += 0.5
            bar.update(1000)
        bar.close()
    assert "whistsim:" not in capsys.readouterr().err
