"""Hostile input: outputs that never clobber, replay that never stops on one record, bounded
options and parameters, exact chunk-independent figures, one-line errors before the work."""

from __future__ import annotations

import copy
import json
import math
import os
import threading
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from whistsim import api
from whistsim.cli import main
from whistsim.core import io
from whistsim.core.options import RuleError, WhistsimError
from whistsim.core.stats import Moments
from whistsim.core.strategy import StrategyError, parse_spec
from whistsim.experiments import ExperimentInterrupted, load_spec, run_experiment, spec_from_dict
from whistsim.experiments.results import CoMoments, Tally
from whistsim.experiments.run import widest_ci
from whistsim.games import get_game, seating

GAMES = ("welsh", "scotch", "whist")


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def one_line_error(r, *words):
    assert r.exit_code == 2, (r.exit_code, r.output)
    assert not isinstance(r.exception, Exception) or isinstance(r.exception, SystemExit), r.exception
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("whistsim: error: "), r.stderr
    for w in words:
        assert w in lines[0], lines[0]
    return lines[0]


@pytest.fixture(scope="module")
def records() -> dict[str, list[dict]]:
    """A few valid records of every game."""
    out = {}
    for g in GAMES:
        sim = api.simulate(g, n=3, seed=1, records=3, threads=1)
        out[g] = sim.records
    return out


# ---- outputs never clobber what is not theirs ----------------------------------------


def test_writing_through_a_symlink_writes_its_target_and_keeps_the_link(tmp_path):
    target = tmp_path / "target.csv"
    target.write_text("old\n")
    link = tmp_path / "link.csv"
    link.symlink_to(target)
    with io.atomic_write(link) as f:
        f.write("new\n")
    assert link.is_symlink() and target.read_text() == "new\n"


def test_writing_to_a_fifo_writes_in_place(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    with io.atomic_write(fifo) as f:
        f.write("through the pipe\n")
    reader.join(10)
    assert got == ["through the pipe\n"]
    assert not fifo.is_file() and fifo.exists()  # still a FIFO, not replaced by a file
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


def test_dash_is_standard_output_for_file_options(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run("simulate", "--n", 20, "--csv", "-", "--threads", 1)
    assert r.exit_code == 0, r.output
    assert (
        "figure,mean" in r.stdout.replace(" ", "") or "figure" in r.stdout.splitlines()[-1] or "," in r.stdout
    )
    assert not (tmp_path / "-").exists()
    r = run("simulate", "--n", 3, "--records", "-", "--threads", 1)
    assert r.exit_code == 0, r.output
    lines = [x for x in r.stdout.splitlines() if x.startswith("{")]
    assert len(lines) == 3 and all(json.loads(x)["game"] == "welsh" for x in lines)
    assert not (tmp_path / "-").exists()


def test_a_killed_writers_temporary_file_is_cleaned_up(tmp_path):
    path = tmp_path / "out.csv"
    stale = tmp_path / ".out.csv.999999999.0badcafe.tmp"  # no such process
    stale.write_text("half")
    other = tmp_path / ".other.999999999.x.tmp"
    other.write_text("not ours")
    with io.atomic_write(path) as f:
        f.write("x")
    assert not stale.exists() and other.exists() and path.read_text() == "x"


def test_experiment_out_keeps_unrelated_charts(tmp_path):
    spec = spec_from_dict(TINY)
    charts = tmp_path / "charts"
    charts.mkdir()
    (charts / "mine.png").write_bytes(b"someone's picture")
    run_experiment(spec, out=tmp_path)
    ours = set(p.name for p in charts.glob("*.png")) - {"mine.png"}
    assert (charts / "mine.png").read_bytes() == b"someone's picture" and ours
    # a stale chart of this study (in its manifest) is removed, the user's file is not
    (charts / "gone.png").write_bytes(b"old")
    manifest = charts / ".whistsim-charts"
    manifest.write_text(manifest.read_text() + "gone.png\n")
    run_experiment(spec, out=tmp_path)
    assert not (charts / "gone.png").exists() and (charts / "mine.png").exists()


# ---- unwritable paths: one line, before the work, nothing created --------------------------


def test_unwritable_outputs_are_refused_before_the_work(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("")
    long_name = tmp_path / ("a" * 300)
    for args in [
        ("simulate", "--csv", tmp_path / "nonexistent" / "dir" / "x.csv"),
        ("simulate", "--records", afile / "sub"),
        ("simulate", "--csv", long_name),
        ("simulate", "--csv", "/proc/x"),
        ("tournament", "--strategies", "random,greedy", "--csv", afile / "x.csv"),
        ("tournament", "--strategies", "random,greedy", "--pairs-csv", long_name),
        ("claims", "--markdown", afile / "x.md"),
        ("bench", "--no-openspiel", "--csv", afile / "x.csv"),
        ("experiment", "experiments/cheating.toml", "--out", afile / "sub"),
        ("odds", "--game", "whist", "--out", afile / "x.csv"),
    ]:
        one_line_error(run(*args, "--n", 10**9) if args[0] in ("simulate", "tournament") else run(*args),
                       "cannot write")  # fmt: skip
    assert not (tmp_path / "nonexistent").exists()


def test_bench_options_are_checked(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for args, word in [
        (("--repeats", 0), "--repeats"),
        (("--seconds", "nan"), "--seconds"),
        (("--seconds", "inf"), "--seconds"),
        (("--memory-games", -5), "--memory-games"),
    ]:
        one_line_error(run("bench", "--no-openspiel", *args), word)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "args, words",
    [
        (("simulate", "--max-records", 3), ["--records"]),
        (("experiment", "experiments/cheating.toml", "--max-n", 100), ["--until-ci"]),
        (("simulate", "--strategy", "²=greedy"), ["ASCII"]),
        (("simulate", "--strategy", "0=greedy", "--strategy", "0=random"), ["twice"]),
        (("simulate", "--strategy", "greedy", "--strategy", "random"), ["twice"]),
        (("simulate", "--first", "²"), ["first seat"]),
        (("tournament", "--strategies", "random,greedy", "--first", "²"), ["first seat"]),
        (("simulate", "--nn", 3), ["--nn"]),
        (("simulate", "--n", "x"), ["--n"]),
        (("simulate", "--strategy", "random:draw=0.1,draw=0.2"), ["twice"]),
        (("simulate", "--game", "whist", "--rule", "revoke_penalty=1000000000"), ["revoke_penalty"]),
        (("simulate", "--game", "scotch", "--rule", f"target={2**63}"), ["target"]),
        (("simulate", "--game", "scotch", "--rule", "target=" + "9" * 5000), ["target"]),
        (("simulate", "--game", "scotch", "--players", 7, "--rule", "target=100000"), ["target"]),
    ],
)
def test_bad_command_lines_are_one_line(args, words):
    one_line_error(run(*args), *words)


# ---- replay: one verdict per record, streamed, never raising --------------------------------


def test_replay_judges_every_record_despite_malformed_fields(tmp_path, records):
    lines, valid = [], []
    for g in GAMES:
        rec = records[g][0]
        for key in rec:
            for bad in ("²", 2**63, -(2**63) - 1, 1e300, None, [], {}, "²:draw", ["²:x"]):
                r = copy.deepcopy(rec)
                r[key] = bad
                lines.append(json.dumps(r))
        valid.append(len(lines))
        lines.append(json.dumps(rec))
    lines.append('{"game": "welsh", "game": "welsh"}')
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n")
    out = list(api.replay(str(path)))
    assert [j.line for j in out] == list(range(len(lines)))
    assert "twice" in out[-1].error
    assert all(out[i].ok for i in valid)
    assert sum(j.error is not None for j in out) > len(lines) // 2


def test_a_duplicated_key_in_a_record_is_refused(records):
    text = json.dumps(records["welsh"][0])
    j = api.judge(0, text[:-1] + ', "seed": 1, "seed": 2}')
    assert j.error is not None and "twice" in j.error


def test_replay_streams_and_refuses_overlong_lines(tmp_path, records, monkeypatch):
    monkeypatch.setattr(io, "MAX_LINE", 1000)
    good = json.dumps(records["whist"][0])[:900]  # any text under the limit is judged on its own
    path = tmp_path / "long.jsonl"
    path.write_text("x" * 5000 + "\n" + good + "\n" + "y" * 5000)
    it = api.replay(str(path))
    first = next(it)  # a generator: the first verdict comes before the rest is read
    assert first.line == 0 and "longer than" in first.error
    rest = list(it)
    assert [j.line for j in rest] == [1, 2] and "longer than" in rest[1].error


def test_replay_gives_up_on_a_line_with_no_end():
    with pytest.raises(WhistsimError, match="no end"):
        list(api.replay("/dev/zero"))


def _mutations():
    junk = st.one_of(
        st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=False),
        st.text(max_size=6), st.lists(st.integers(-3, 60), max_size=3),
        st.lists(st.text(max_size=4), max_size=3), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    )  # fmt: skip
    return st.tuples(st.sampled_from(GAMES), st.integers(0, 2), st.integers(0, 10**6), junk, st.booleans())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_mutations())
def test_fuzzed_records_get_one_verdict_each_and_never_raise(records, case):
    j = api.judge(7, json.dumps(_mutated(records, case)))
    assert j.line == 7 and (j.ok or j.error is not None or j.stored is not None)
    json.dumps(j.to_json())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_mutations())
def test_fuzzed_records_get_one_verdict_each_from_solve_and_never_raise(records, case):
    """solve judges each line as replay does: the same mutations give a value or one error object."""
    from whistsim.solver import solve_line

    out = solve_line(7, json.dumps(_mutated(records, case)))
    assert out["line"] == 7
    if "error" in out:  # replay's error object, as replay gives it
        assert set(out) == {"line", "move", "error"} and isinstance(out["error"], str)
    else:
        assert len(out) > 1  # a value
    json.dumps(out)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_mutations())
def test_fuzzed_typed_lines_into_play_are_explained_and_never_raise(records, case):
    """The same junk typed at the table, and a record's moves with one of them replaced by it: every
    line is a move, a command or a bad line explained; play ends as the deal or the input does."""
    from whistsim.tools.terminal import PlayStopped, play_game

    game, i, where, junk, _ = case
    moves = [m.partition(":")[2] for m in records[game][i]["moves"]]
    moves[where % len(moves)] = json.dumps(junk) if where % 2 else str(junk)
    shown = []
    try:
        out = play_game(game, seed=1, strategies=["random"], hint="random", moves=moves, echo=shown.append)
        assert out.record["moves"]
    except PlayStopped as e:
        assert "moves" in e.game.record and not e.game.finished
    assert shown


def _mutated(records, case) -> dict:
    """A valid record with one field (top-level, or nested anywhere) replaced by junk."""
    game, i, where, junk, nested = case
    rec = copy.deepcopy(records[game][i])
    paths = list(_paths(rec))
    path = paths[where % len(paths)] if nested else paths[where % len(rec)][:1]
    obj = rec
    for k in path[:-1]:
        obj = obj[k]
    obj[path[-1]] = junk
    return rec


def _paths(obj, pre=()):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield (*pre, k)
            yield from _paths(v, (*pre, k))
    elif isinstance(obj, list):
        for k, v in enumerate(obj[:4]):
            yield (*pre, k)
            yield from _paths(v, (*pre, k))


# ---- bounded rules and parameters ------------------------------------------------------------


def test_rule_integers_are_bounded():
    with pytest.raises(RuleError, match="revoke_penalty"):
        get_game("whist").make_rules(None, None, {"revoke_penalty": 10**9})
    with pytest.raises(RuleError):
        get_game("scotch").make_rules(None, None, {"teams": [0, 2**63, 0, 1]})
    with pytest.raises(RuleError):
        get_game("welsh").make_rules(None, None, {"packs": 2**64})


@pytest.mark.parametrize(
    "game, spec",
    [
        ("welsh", "hunter:rank=1.9"), ("welsh", "pimc:budget=1.5"), ("welsh", "random:draw=2"),
        ("whist", "heuristic:draw_trumps=0"), ("whist", "heuristic:draw_trumps=-3"),
        ("whist", "pimc:worlds=-5"), ("whist", "pimc:worlds=0.5"), ("whist", "pimc:worlds=1e300"),
        ("whist", "pimc:worlds=100000000"), ("whist", "pimc:rollout=-7"), ("scotch", "random:revoke=99"),
        ("scotch", "heuristic:two_rounds=0.5"),
    ],
)  # fmt: skip
def test_player_parameters_out_of_range_are_refused(game, spec):
    with pytest.raises(StrategyError):
        seating(
            game, [parse_spec(spec)], get_game(game).players_of(get_game(game).make_rules(None, None, {}))
        )


@pytest.mark.parametrize("game", GAMES)
def test_every_built_in_parameter_has_a_range(game):
    from whistsim.core.strategy import params_of

    for m in get_game(game).players.players:
        for name, p in params_of(m).items():
            assert not p.numbers or (math.isfinite(p.low) and math.isfinite(p.high)), (m.NAME, name)


# ---- exact, chunk-independent figures ------------------------------------------------------


TINY = {
    "name": "tiny",
    "title": "tiny",
    "game": "welsh",
    "n": 300,
    "seed": 5,
    "chunk": 100,
    "headline": ["points[0]"],
    "rules": {"preset": "parlett", "players": 3},
    "seats": {"all": "random"},
    "sweep": {"seats.0.draw": [0.2, 0.8]},
    "baseline": {"seats.0.draw": 0.2},
}


def test_summary_is_byte_identical_whatever_the_chunk_size(tmp_path):
    for chunk in (100, 300, 37):
        run_experiment(spec_from_dict({**TINY, "chunk": chunk}), out=tmp_path / str(chunk))
    for f in ("summary.csv", "paired.csv"):
        a = (tmp_path / "100" / f).read_bytes()
        assert a == (tmp_path / "300" / f).read_bytes() == (tmp_path / "37" / f).read_bytes(), f


def test_moments_are_exact_in_any_grouping():
    rng = np.random.default_rng(3)
    x = rng.integers(-40, 200, 5000)
    f = rng.random(5000)
    whole, parts = Moments(), Moments()
    whole.add("x", x)
    whole.add("f", f)
    for i in range(0, 5000, 333):
        parts.add("x", x[i : i + 333])
        parts.add("f", f[i : i + 333])
    assert whole.estimate("x") == parts.estimate("x") and whole.estimate("f") == parts.estimate("f")
    assert math.isclose(whole.estimate("x").sd, x.std(ddof=1))


def test_an_undefined_ci_is_never_narrow_enough():
    spec = spec_from_dict(TINY)
    t = Tally.empty(len(spec.cells), len(spec.pairs))
    for c in range(len(spec.cells)):
        t.cells[c].add("points[0]", np.arange(10))
    t.ratios[0]["points[0]"] = CoMoments.of(np.zeros(10), np.ones(10))  # a rate with no denominator
    w, where = widest_ci(spec, t)
    assert w == math.inf and "has no CI" in where


def test_a_corrupted_checkpoint_is_refused(tmp_path):
    spec = spec_from_dict(TINY)
    with pytest.raises(ExperimentInterrupted):
        run_experiment(spec, out=tmp_path, on_chunk=lambda k: (_ for _ in ()).throw(KeyboardInterrupt))
    cp = tmp_path / ".checkpoint.json"
    good = json.loads(cp.read_text())
    for change in ({"done": -5}, {"total": None}, {"done": 2}, {"pending": {"x": {}}}, {"version": 1}):
        cp.write_text(json.dumps({**good, **change}))
        with pytest.raises(WhistsimError, match="corrupted"):
            run_experiment(spec, out=tmp_path, resume=True)


def test_sweeps_that_would_merge_or_inject_are_refused():
    from whistsim.experiments import SpecError

    for sweep in (
        {"seats.0.draw": [0.1234561, 0.1234562]},  # distinct values, never one label
        {"seats.0.draw": ["0.1,cheat=0.9"]},
        {"rules.players": "0..2000000000"},
    ):
        try:
            spec = spec_from_dict({**TINY, "sweep": sweep, "baseline": {}})
        except SpecError:
            continue
        assert "cheat" not in str(spec.cells[0].players)
        labels = [spec.cell_label(c) for c in spec.cells]
        assert len(set(labels)) == len(labels), sweep
    with pytest.raises(SpecError, match="at most"):
        spec_from_dict({**TINY, "sweep": {"rules.players": "0..200000000"}, "baseline": {}})
    with pytest.raises(SpecError, match="small integers"):
        spec_from_dict({**TINY, "sweep": {"rules.players": "0..2000000000"}, "baseline": {}})
    with pytest.raises(SpecError, match="not a number or a word"):
        spec_from_dict({**TINY, "sweep": {"seats.0.draw": ["0.1,cheat=0.9"]}, "baseline": {}})


def test_check_says_it_imports_strategy_files(tmp_path):
    d = {**TINY, "seats": {"all": "experiments/strategies/cautious.py:decide"},
         "sweep": {"rules.players": [3, 4]}, "baseline": {"rules.players": 3}}  # fmt: skip
    d["rules"] = {"preset": "parlett"}
    spec_path = tmp_path / "user.toml"
    spec_path.write_text(_toml(d))
    r = run("experiment", spec_path, "--check")
    assert r.exit_code == 0, r.output
    assert "importing the strategy files" in r.output and "cautious.py" in r.output
    assert load_spec(spec_path).cells


def _toml(d: dict, prefix: str = "") -> str:
    flat = [f"{k} = {json.dumps(v)}" for k, v in d.items() if not isinstance(v, dict)]
    tables = [_toml(v, f"{prefix}{k}.") for k, v in d.items() if isinstance(v, dict)]
    head = f"[{prefix[:-1]}]\n" if prefix else ""
    return head + "\n".join(flat) + "\n" + "".join(tables)


def test_simulate_streams_records_to_the_file(tmp_path):
    path = tmp_path / "r.jsonl"
    sim = api.simulate("welsh", n=600, seed=2, records=600, records_to=str(path), threads=1)
    assert sim.records == [] and sim.n_records == 600
    lines = path.read_text().splitlines()
    assert len(lines) == 600 and all(j.ok for j in api.replay(str(path)))
    assert Path(path).is_file()


# ---- users' strategies that misbehave -------------------------------------------------------


def test_sys_exit_in_a_user_file_is_an_error(tmp_path):
    path = tmp_path / "quits.py"
    path.write_text("import sys\nsys.exit(0)\n")
    with pytest.raises(StrategyError, match="SystemExit"):
        seating("welsh", [parse_spec(f"{path}:decide")], 3)


def test_a_corrupted_kernel_cache_entry_is_dropped_for_a_rebuild(tmp_path):
    import pickle

    from whistsim.core.cache import drop_corrupt

    good = tmp_path / "mod.f-1.py311.nbi"
    with open(good, "wb") as f:
        pickle.dump("0.60", f)
        f.write(pickle.dumps((1, {"a": 2})))
    bad = tmp_path / "sub" / "mod.g-2.py311.nbi"
    bad.parent.mkdir()
    bad.write_bytes(good.read_bytes()[:9])  # a crash mid-write
    data = tmp_path / "sub" / "mod.g-2.py311.1.nbc"
    data.write_bytes(b"x")
    assert drop_corrupt(tmp_path) == 1
    assert good.exists() and not bad.exists() and not data.exists()


def test_ctrl_c_stops_simulate_with_one_line_keeping_what_finished(tmp_path):
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "games.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-m", "whistsim", "simulate", "--n", str(10**9), "--records", str(out), "--threads", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    while proc.poll() is None and not any(p.stat().st_size > 0 for p in tmp_path.glob(".games.jsonl.*.tmp")):
        time.sleep(0.2)  # wait until games are being played and written
    proc.send_signal(signal.SIGINT)
    outp, err = proc.communicate()
    assert proc.returncode == 130 and len(err.strip().splitlines()) == 1, err
    assert err.startswith("whistsim: interrupted after "), err
    played = int(err.split("after ")[1].split(" of")[0].replace(",", ""))
    # what finished is kept: the summary of those games, and their records, whole
    assert f"{played:,} games in" in outp
    assert [p.name for p in tmp_path.iterdir()] == ["games.jsonl"]
    assert len(out.read_text().splitlines()) == played > 0
