"""Feedback on every wait: a first compile is announced, long commands say how long first and
show a bar, and odds do not depend on the thread count."""

import importlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from types import SimpleNamespace

import numba
import pytest
from click.testing import CliRunner

from whistsim.cli import main
from whistsim.core import eta
from whistsim.games.dealt import kernels as dealt_play
from whistsim.harness import build

odds_module = importlib.import_module("whistsim.tools.odds")  # the package's ``odds`` is the function

NOTICE = "whistsim: compiling the kernel for these players (first run only, about "


def _cli(*args, env=None, cwd=None):
    return subprocess.run([sys.executable, "-m", "whistsim", *map(str, args)], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=1200)  # fmt: skip


def test_a_first_compile_is_announced_once_and_a_second_run_says_nothing(tmp_path):
    # One real compile (Oh Hell, random players, into an empty cache): the one slow test here. Oh
    # Hell's kernel for random seats is the quickest to compile (alone, cold: 8 s of CPU, Whist's 13 s).
    env = {k: v for k, v in os.environ.items() if k != "WHISTSIM_ALL_PLAYERS"}
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "cache")
    first = _cli("simulate", "--game", "ohhell", "--n", 1, "--json", env=env)
    assert first.returncode == 0, first.stderr
    notices = [line for line in first.stderr.splitlines() if line.startswith("whistsim: compiling")]
    assert len(notices) == 1 and notices[0].startswith(NOTICE), first.stderr
    assert json.loads(first.stdout)["n"] == 1  # standard output is the result alone
    times = json.loads((tmp_path / "cache" / build.TIMES_FILE).read_text())
    assert all(x > 0 for v in times.values() for x in v) and times  # the next estimate's measure
    again = _cli("simulate", "--game", "ohhell", "--n", 1, "--json", env=env)
    assert again.returncode == 0 and "compiling" not in again.stderr, again.stderr
    assert json.loads(again.stdout)["n"] == 1


def test_cached_reads_numbas_index_of_the_kernel_module(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    (tmp_path / "kernels_abc").mkdir()
    (tmp_path / "kernels_abc" / "whistsim_kernel_1234.play_games-88.py311.nbi").write_bytes(b"")
    assert build.cached("whistsim_kernel_1234")
    assert not build.cached("whistsim_kernel_5678")
    assert not build.cached("whistsim_kernel_12")  # a prefix of a cached one is another module


def test_the_compile_estimate_is_units_times_the_median_measured_here_for_its_kind(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "0123abcd"))
    prior = build.PRIOR_S_PER_UNIT
    assert build.estimate_s("g.play", 3) == 3 * prior[False, True]
    assert build.estimate_s("g.play (whole game)", 3) == 3 * prior[True, True]
    assert build.estimate_s("g.play (own loop) (whole game)", 1) == prior[True, False]
    (tmp_path / build.TIMES_FILE).write_text(
        json.dumps({"g.play": [2.0, 9.0, 4.0], "h.play (whole game)": [30.0], "h.play (own loop)": [1.5]})
    )
    assert build.estimate_s("g.play", 3) == 12.0  # this game's median, 4 s a unit
    assert build.estimate_s("h.play", 2) == 8.0  # no record of its own: other games' of the kind
    assert build.estimate_s("g.play (whole game)", 2) == 60.0
    assert build.estimate_s("g.play (own loop)", 1) == 1.5  # only the own loop's compiles count
    assert build.estimate_s("g.play (own loop) (whole game)", 1) == prior[True, False]
    (tmp_path / build.TIMES_FILE).write_text("{not json")
    assert build.estimate_s("g.play", 1) == prior[False, True]  # a broken record: the prior


def test_the_compile_notice_goes_to_standard_error_once_per_module(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "0123abcd"))
    text = f"# a kernel module never compiled ({time.time()})\n"
    line = build.announce_compile(text, dealt_play, 3, True, False)
    assert line is not None and line.startswith(NOTICE) and line.endswith(" s)")
    assert build.announce_compile(text, dealt_play, 3, True, False) is None
    out = capsys.readouterr()
    assert out.out == "" and out.err == line + "\n"
    user = build.announce_compile(text + "#\n", dealt_play, 2, True, True)
    assert "a user's strategy is compiled every run" in user


def test_odds_are_byte_identical_on_one_thread_and_two():
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("one core: no second thread to compare with")
    args = ["odds", "--game", "whist", "--preset", "short", "--n", 3000, "--boot", 7, "--json"]
    one = CliRunner().invoke(main, [str(a) for a in [*args, "--threads", 1]])
    two = CliRunner().invoke(main, [str(a) for a in [*args, "--threads", 2]])
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    assert one.stdout == two.stdout


def test_odds_say_how_long_each_long_stage_takes_then_show_bars(monkeypatch):
    monkeypatch.setattr(eta, "ANNOUNCE_AFTER_S", -1.0)  # every stage counts as long
    monkeypatch.setattr(odds_module, "PROBE_SECONDS", 0.0)
    args = ["odds", "--game", "whist", "--preset", "short", "--n", 3000, "--boot", 7, "--score", "2-3"]
    r = CliRunner().invoke(main, [*map(str, args), "--progress"])
    assert r.exit_code == 0, r.output
    assert "whistsim: about " in r.stderr and " to go for 3,000 deals (from " in r.stderr
    assert " to go for 7 bootstrap resamples (" in r.stderr
    assert "resample" in r.stderr.split("bootstrap resamples (")[-1]  # the bar after the line
    quiet = CliRunner().invoke(main, [*map(str, args), "--no-progress"])
    assert quiet.stdout == r.stdout and "%|" not in quiet.stderr and "to go for 7 bootstrap" in quiet.stderr


def test_a_watch_says_how_long_the_rest_takes_from_the_items_after_the_first(monkeypatch, capsys):
    clock = [100.0]
    monkeypatch.setattr(eta, "time", SimpleNamespace(perf_counter=lambda: clock[0]))
    monkeypatch.setattr(eta, "ANNOUNCE_AFTER_S", 60.0)
    w = eta.Watch(101, "record", progress=True)
    clock[0] += 30.0  # the first item (it may have compiled): the clock starts when it ends
    w.tick()
    clock[0] += 2.0
    w.tick()  # one item in 2 s: the 99 left take 198 s
    line = capsys.readouterr().err.splitlines()[0]
    assert line == "whistsim: about 3 min to go for 100 records (from the first 1: 0.5 records/s)"
    w.echo("a result")
    w.close()
    assert capsys.readouterr().out == "a result\n"


def test_a_watch_of_a_stream_of_unknown_length_shows_no_estimate(monkeypatch, capsys):
    monkeypatch.setattr(eta, "ANNOUNCE_AFTER_S", 0.0)
    monkeypatch.setattr(eta, "PROBE_SECONDS", 0.0)
    w = eta.Watch(None, "record")
    for _ in range(3):
        w.tick()
    w.close()
    assert capsys.readouterr().err == ""


def test_solve_on_a_file_says_how_long_first_and_keeps_its_results_on_standard_output(tmp_path, monkeypatch):
    monkeypatch.setattr(eta, "ANNOUNCE_AFTER_S", -1.0)
    monkeypatch.setattr(eta, "PROBE_SECONDS", 0.0)
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(["{not json"] * 5) + "\n")  # judged without the solver: quick
    r = CliRunner().invoke(main, ["solve", str(path), "--json", "--progress"])
    assert r.exit_code == 1
    assert [json.loads(x)["line"] for x in r.stdout.splitlines()] == [0, 1, 2, 3, 4]
    assert " to go for 4 records (from the first " in r.stderr


def test_ctrl_c_stops_odds_within_seconds_while_it_resamples(tmp_path):
    # Scotch Whist in three sides: about a second a resample; the line saying how long the
    # resamples take comes after the first block, so the signal lands mid-resampling.
    args = ["odds", "--game", "scotch", "--players", 6, "--n", 300, "--boot", 4000, "--score", "30-20-10"]
    proc = subprocess.Popen([sys.executable, "-m", "whistsim", *map(str, args)], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    err: list[str] = []
    reader = threading.Thread(target=lambda: err.extend(iter(proc.stderr.readline, "")), daemon=True)
    reader.start()
    t0 = time.perf_counter()
    while not any("bootstrap resamples" in line for line in err):
        assert proc.poll() is None, "".join(err)
        assert time.perf_counter() - t0 < 900, "".join(err)  # a cold start compiles first
        time.sleep(0.1)
    t1 = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    rc = proc.wait(timeout=60)
    took = time.perf_counter() - t1
    reader.join()
    assert rc == 130 and err[-1] == "whistsim: interrupted\n", "".join(err)
    assert took < 15, took  # a block is a resample per thread: about a second; generous for a loaded CI
    assert proc.stdout.read() == ""


def test_play_from_says_how_long_first_when_asked_and_plays_the_same_games(monkeypatch, capsys):
    monkeypatch.setattr(eta, "ANNOUNCE_AFTER_S", -1.0)
    s = odds_module.setting("whist", preset="short")
    shown = odds_module.play_from(s, (2, 3), 0, 500, 7, progress=True)
    assert " to go for 500 games (from the first " in capsys.readouterr().err
    assert shown.equals(odds_module.play_from(s, (2, 3), 0, 500, 7))


def test_luck_ticks_once_per_deal_solved_and_never_for_a_deal_already_solved():
    from whistsim import simulate
    from whistsim.solver.luck import pars

    recs = simulate("whist", 6, 3, rules={"unit": "deal"}, records=6).records
    ticks: list[int] = []
    cache: dict = {}
    first = pars(recs + recs[:2], cache, threads=2, tick=lambda: ticks.append(1))
    assert len(ticks) == 6
    assert pars(recs, cache, tick=lambda: ticks.append(1)) == first[:6] and len(ticks) == 6
