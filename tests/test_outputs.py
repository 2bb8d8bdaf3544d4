"""Outputs: standard output holds one thing, two options never name one file, paths are checked
before any game, a replaced file keeps its mode, Ctrl-C stops a blocked write, the cleaner of
killed runs' temporaries removes only its own, and ``simulate --solve`` streams its deals."""

from __future__ import annotations

import io as pyio
import json
import os
import platform
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from whistsim.cli import main
from whistsim.core import io
from whistsim.core.options import WhistsimError

PNG = b"\x89PNG\r\n\x1a\n"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def one_line_error(r, *words):
    assert r.exit_code == 2, (r.exit_code, r.output)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("whistsim: error: "), r.stderr
    for w in words:
        assert w in lines[0], lines[0]
    return lines[0]


def command(*args) -> list[str]:
    return [sys.executable, "-m", "whistsim", *map(str, args)]


def whistsim(*args, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(command(*args), capture_output=True, timeout=900, **kw)


# ---- standard output holds one thing: what a program reads -----------------------------------


def test_simulate_records_to_a_pipe_are_read_back_by_replay():
    sim = whistsim("simulate", "--n", 5, "--records", "-", "--threads", 1)
    assert sim.returncode == 0, sim.stderr
    judged = whistsim("replay", "-", "--json", input=sim.stdout)
    assert judged.returncode == 0, judged.stdout
    verdicts = [json.loads(x) for x in judged.stdout.splitlines()]
    assert len(verdicts) == 5 and all("error" not in v for v in verdicts)
    assert b"5 games in" in sim.stderr and b"wrote 5 records to -" in sim.stderr


def test_simulate_csv_to_standard_output_is_only_the_csv():
    r = run("simulate", "--n", 20, "--csv", "-", "--threads", 1)
    assert r.exit_code == 0, r.output
    table = pd.read_csv(pyio.StringIO(r.stdout))
    assert {"figure", "unit", "mean", "ci_low", "ci_high", "n"} <= set(table.columns)
    assert (table["n"] == 20).all() and "20 games in" in r.stderr


@pytest.mark.parametrize("option, column", [("--csv", "strategy"), ("--pairs-csv", "a")])
def test_tournament_csvs_to_standard_output_are_only_the_csv(option, column):
    r = run(
        "tournament", "--strategies", "random,greedy", "--players", 3, "--n", 12, "--threads", 1, option, "-"
    )
    assert r.exit_code == 0, r.output
    table = pd.read_csv(pyio.StringIO(r.stdout))
    assert len(table) >= 1 and len(table.columns) > 2
    assert "seat arrangement" in r.stderr and "wrote -" in r.stderr


def test_bench_csv_to_standard_output_is_only_the_csv(monkeypatch):
    import whistsim.bench.speed as b

    row = {"engine": "whistsim", "game": "welsh", "players": 3, "strategy": "random", "threads": 1,
           "games_per_s": 1000.0, "deals_per_s": 1000.0}  # fmt: skip
    monkeypatch.setattr(b, "run", lambda *a, **k: {"rows": [row], "ratios": {"floor share": 0.7}})
    r = run("bench", "--no-openspiel", "--memory-games", 0, "--csv", "-")
    assert r.exit_code == 0, r.output
    assert pd.read_csv(pyio.StringIO(r.stdout)).to_dict("records") == [row]
    assert "floor share: 0.70" in r.stderr


def test_claims_json_out_to_standard_output_is_only_the_json():
    r = run("claims", "--only", "count_out", "--n", 60, "--json-out", "-")
    assert r.exit_code == 0, r.output
    claims = json.loads(r.stdout)
    assert [c["id"] for c in claims] == ["count_out"]
    assert "count_out" in r.stderr  # the row, for a person


def test_odds_out_to_standard_output_is_only_the_csv():
    r = run("odds", "--game", "whist", "--preset", "short", "--score", "3-1", "--n", 2000, "--boot", 20,
            "--threads", 1, "--out", "-")  # fmt: skip
    assert r.exit_code == 0, r.output
    table = pd.read_csv(pyio.StringIO(r.stdout))
    assert len(table) == 1 and 0 <= table["win_0"][0] <= 1
    assert "side 0 wins" in r.stderr and "wrote -" in r.stderr


def test_odds_chart_to_standard_output_is_a_png(tmp_path):
    import matplotlib.image

    table = tmp_path / "t.csv"
    r = run("odds", "--game", "whist", "--preset", "short", "--n", 2000, "--boot", 20, "--threads", 1,
            "--out", table, "--chart", "-")  # fmt: skip
    assert r.exit_code == 0, r.output
    assert r.stdout_bytes.startswith(PNG) and len(pd.read_csv(table)) > 1
    assert matplotlib.image.imread(pyio.BytesIO(r.stdout_bytes)).ndim == 3


def test_compare_chart_to_standard_output_is_a_png_and_the_table_goes_to_stderr():
    import matplotlib.image

    r = run(
        "compare",
        "--game",
        "welsh",
        "--vs",
        "scoring=five_penalty",
        "--n",
        40,
        "--threads",
        1,
        "--chart",
        "-",
    )
    assert r.exit_code == 0, r.output
    assert r.stdout_bytes.startswith(PNG)
    assert matplotlib.image.imread(pyio.BytesIO(r.stdout_bytes)).ndim == 3
    assert "wrote -" in r.stderr and len(r.stderr.splitlines()) > 3


def test_compare_chart_through_a_real_pipe_is_a_png(tmp_path):
    import matplotlib.image

    r = whistsim("compare", "--game", "welsh", "--vs", "scoring=five_penalty", "--n", 40, "--threads", 1,
                 "--chart", "-")  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(PNG) and matplotlib.image.imread(pyio.BytesIO(r.stdout)).ndim == 3


@pytest.mark.parametrize(
    "args",
    [
        ("simulate", "--records", "-", "--json"),
        ("simulate", "--csv", "-", "--json"),
        ("tournament", "--strategies", "random,greedy", "--pairs-csv", "-", "--json"),
        ("bench", "--no-openspiel", "--csv", "-", "--json"),
        ("claims", "--json-out", "-", "--json"),
        ("compare", "--vs", "scoring=five_penalty", "--chart", "-", "--json"),
        ("odds", "--game", "whist", "--out", "-", "--json"),
        ("odds", "--game", "whist", "--chart", "-"),  # the table itself goes to standard output
    ],
)
def test_a_dash_output_beside_json_on_standard_output_is_refused_before_the_work(args):
    t0 = time.perf_counter()
    one_line_error(run(*args), "prints to standard output", "give ")
    assert time.perf_counter() - t0 < 30  # refused before a game is played


@pytest.mark.parametrize(
    "args",
    [
        ("simulate", "--records", "-", "--csv", "-"),
        ("tournament", "--strategies", "random,greedy", "--csv", "-", "--pairs-csv", "-"),
        ("odds", "--game", "whist", "--out", "-", "--chart", "-"),
    ],
)
def test_two_outputs_on_standard_output_are_refused(args):
    one_line_error(run(*args), "both go to standard output")


@pytest.mark.skipif(not Path("/dev/stdout").exists(), reason="no /dev/stdout")
def test_dev_stdout_on_a_pipe_is_written_in_place_and_counts_as_standard_output():
    r = whistsim("simulate", "--n", 3, "--threads", 1, "--csv", "/dev/stdout")
    assert r.returncode == 0, r.stderr
    assert len(pd.read_csv(pyio.BytesIO(r.stdout))) > 3 and b"3 games in" in r.stderr


def test_an_output_that_is_where_standard_output_goes_counts_as_standard_output(tmp_path, monkeypatch):
    shown = tmp_path / "shown.txt"
    with open(shown, "w") as out:
        monkeypatch.setattr(sys, "stdout", out)
        assert io.check_outputs((shown, "--csv")) is True
        with pytest.raises(WhistsimError, match="both go to standard output"):
            io.check_outputs((shown, "--csv"), ("-", "--records"))
    assert io.check_outputs((tmp_path / "other.csv", "--csv")) is False


# ---- two outputs that are one file -----------------------------------------------------------


def test_outputs_that_resolve_to_one_file_are_refused_before_anything_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("same.jsonl").write_text("mine\n")
    Path("same.csv").symlink_to("same.jsonl")
    Path("hard.csv").write_text("kept\n")
    os.link("hard.csv", "hard.jsonl")
    before = sorted(p.name for p in tmp_path.iterdir())
    cases = [
        (("simulate", "--records", "same.jsonl", "--csv", "same.csv"), "same.jsonl"),  # a symlink
        (("simulate", "--records", "./x.jsonl", "--csv", "x.jsonl"), "x.jsonl"),  # ./
        (("simulate", "--records", "hard.jsonl", "--csv", "hard.csv"), "hard.csv"),  # a hard link
        (
            ("tournament", "--strategies", "random,greedy", "--csv", "t.csv", "--pairs-csv", "./t.csv"),
            "t.csv",
        ),
        (("odds", "--game", "whist", "--out", "o.png", "--chart", "o.png"), "o.png"),
        (("claims", "--markdown", "cl.png"), "cl.png"),  # the report and its chart beside it
        (("claims", "--markdown", "c.md", "--json-out", "c.png"), "c.png"),
    ]
    for args, name in cases:
        one_line_error(run(*args, "--n", 10**9), "are the same file", name)
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert Path("same.jsonl").read_text() == "mine\n" and Path("hard.jsonl").read_text() == "kept\n"


def test_the_null_device_takes_any_number_of_outputs():
    assert io.check_outputs((os.devnull, "--records"), (os.devnull, "--csv")) is False


# ---- every output path is checked before any game --------------------------------------------


def test_a_missing_folder_is_refused_before_any_game(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("")
    missing = tmp_path / "no" / "such"
    for args in [
        ("compare", "--vs", "scoring=five_penalty", "--n", 10**9, "--chart", missing / "c.png"),
        ("odds", "--game", "whist", "--n", 10**9, "--chart", missing / "c.png"),
        ("claims", "--n", 10**9, "--json-out", missing / "c.json"),
        ("claims", "--n", 10**9, "--markdown", missing / "c.md"),
        ("luck-skill", "--n-whist", 10**9, "--out", afile / "sub"),
        ("experiment", "experiments/cheating.toml", "--out", "-"),
    ]:
        t0 = time.perf_counter()
        one_line_error(run(*args), args[-2])
        assert time.perf_counter() - t0 < 30
    assert not (tmp_path / "no").exists() and not Path("-").exists()


# ---- a replaced file keeps its mode ----------------------------------------------------------


def test_a_replaced_file_keeps_its_mode_and_a_new_one_follows_the_umask(tmp_path):
    private = tmp_path / "private.csv"
    private.write_text("old\n")
    private.chmod(0o600)
    with io.atomic_write(private) as f:
        f.write("new\n")
    assert stat.S_IMODE(private.stat().st_mode) == 0o600 and private.read_text() == "new\n"
    umask = os.umask(0o027)
    try:
        with io.atomic_write(tmp_path / "fresh.csv") as f:
            f.write("x\n")
    finally:
        os.umask(umask)
    assert stat.S_IMODE((tmp_path / "fresh.csv").stat().st_mode) == 0o640


def test_a_replaced_hard_link_gets_a_new_file_and_the_other_link_keeps_the_old_content(tmp_path):
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    a.write_text("old\n")
    os.link(a, b)
    with io.atomic_write(a) as f:
        f.write("new\n")
    assert a.read_text() == "new\n" and b.read_text() == "old\n"
    assert a.stat().st_ino != b.stat().st_ino


# ---- the cleaner of killed runs' temporaries removes only its own ----------------------------


def test_the_stale_temporary_cleaner_removes_only_names_of_its_own_pattern(tmp_path):
    dead = 999_999_999  # above any pid
    ours = tmp_path / f".out.csv.{dead}.0badcafe.tmp"
    look_alikes = [
        f".out.csv.{dead}.backup.tmp",  # not 8 hex digits
        f".out.csv.{dead}.0BADCAFE.tmp",
        f".out.csv.{dead}.0badcafe.tmp.keep",
        f".out.csv.{dead}.0badcafe0.tmp",
        f".out.csv.0{dead}.0badcafe.tmp",  # a pid is never written with a leading zero
        f".out.csv.x{dead}.0badcafe.tmp",
        f".other.{dead}.0badcafe.tmp",  # another file's
    ]
    for name in [ours.name, *look_alikes]:
        (tmp_path / name).write_text("x")
    with io.atomic_write(tmp_path / "out.csv") as f:
        f.write("y")
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == sorted(["out.csv", *look_alikes])


def test_a_live_writers_temporary_is_kept(tmp_path):
    live = tmp_path / f".out.csv.{os.getppid()}.0badcafe.tmp"
    live.write_text("being written")
    with io.atomic_write(tmp_path / "out.csv") as f:
        f.write("y")
    assert live.exists()


# ---- Ctrl-C stops a write that blocks --------------------------------------------------------

BLOCKED_IN = {"x86_64": {"write": 1, "openat": 257}, "aarch64": {"write": 64, "openat": 56}}


def _wait_blocked(proc: subprocess.Popen, call: str, limit_s: float = 600) -> None:
    """Until the process has sat in the system call ``call`` for a second (a kernel load first)."""
    number = str(BLOCKED_IN[platform.machine()][call])
    since, end = None, time.monotonic() + limit_s
    while time.monotonic() < end:
        assert proc.poll() is None, proc.stderr.read()
        try:
            now = Path(f"/proc/{proc.pid}/syscall").read_text().split()[0]
        except OSError:
            now = None
        since = (since or time.monotonic()) if now == number else None
        if since is not None and time.monotonic() - since > 1:
            return
        time.sleep(0.1)
    raise AssertionError(f"never blocked in {call}")


def _stops_on_first_ctrl_c(proc: subprocess.Popen) -> str:
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise AssertionError("the first Ctrl-C did not stop a blocked write") from None
    err = proc.stderr.read().decode()
    assert proc.returncode == 130, err
    assert err.strip().splitlines()[-1].startswith("whistsim: interrupted"), err
    return err


def records_cmd(n: int, records) -> list[str]:
    """``whistsim simulate`` of ``n`` games on one thread, its records to ``records``."""
    return command("simulate", "--n", n, "--records", records, "--threads", 1)


needs_proc = pytest.mark.skipif(
    platform.machine() not in BLOCKED_IN or not Path("/proc/self/syscall").exists(),
    reason="reads /proc/PID/syscall",
)


@needs_proc
def test_ctrl_c_stops_a_write_to_a_fifo_with_no_reader(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    cmd = records_cmd(50, fifo)
    with subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) as proc:
        _wait_blocked(proc, "openat")  # opening a FIFO waits for a reader
        _stops_on_first_ctrl_c(proc)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo"]


@needs_proc
def test_ctrl_c_stops_records_to_a_pipe_nobody_reads():
    cmd = records_cmd(10**6, "-")
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        _wait_blocked(proc, "write")  # a pager that does not read: the pipe is full
        _stops_on_first_ctrl_c(proc)


def test_after_ctrl_c_a_write_nobody_reads_stops_and_one_with_room_goes_through():
    r, w = os.pipe()
    try:
        os.set_blocking(w, False)
        with pytest.raises(BlockingIOError):
            while True:
                os.write(w, b"x" * 4096)  # fill the pipe: its reader reads nothing
        os.set_blocking(w, True)
        watch = io._Watch()
        watch.asked = True  # Ctrl-C was pressed while the batch was played
        t0 = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            io._write_all(w, b"more\n", watch)
        assert time.monotonic() - t0 < 5
        while os.read(r, 1 << 16) and _readable(r):  # the reader empties the pipe
            pass
        io._write_all(w, b"y" * 10_000, watch)  # in pieces the pipe has room for
        assert os.read(r, 1 << 16) == b"y" * 10_000
    finally:
        os.close(r)
        os.close(w)


def _readable(fd: int) -> bool:
    import select

    return bool(select.select([fd], [], [], 0)[0])


def test_ctrl_c_while_records_go_to_standard_output_that_is_read_stops_after_the_batch(tmp_path):
    out = tmp_path / "out.jsonl"
    cmd = records_cmd(10**9, "-")
    with open(out, "wb") as sink, subprocess.Popen(cmd, stdout=sink, stderr=subprocess.PIPE) as proc:
        end = time.monotonic() + 600
        while proc.poll() is None and out.stat().st_size < 100_000 and time.monotonic() < end:
            time.sleep(0.1)  # until records are being written
        proc.send_signal(signal.SIGINT)
        err = proc.communicate(timeout=60)[1].decode()
    assert proc.returncode == 130 and "whistsim: interrupted after " in err, err
    played = int(err.split("interrupted after ")[1].split(" of")[0].replace(",", ""))
    lines = out.read_text().splitlines()
    assert len(lines) == played and all(json.loads(x)["game"] == "welsh" for x in lines)
    assert f"wrote {played:,} records to -" in err


# ---- simulate --solve streams its deals ------------------------------------------------------


def test_the_solve_summary_of_a_stream_in_small_batches_is_that_of_the_whole_list():
    import whistsim as ws
    from whistsim.solver.luck import summary_lines

    recs = ws.simulate(
        "scotch", 7, 4, players=4, rules={"unit": "deal"}, strategies=["random"], records=7
    ).records
    assert summary_lines(iter(recs), batch=3) == summary_lines(recs)
    assert summary_lines(iter([])) == ["solve: no deals recorded"]


def test_simulate_solve_with_records_to_standard_output_puts_only_records_there(tmp_path):
    r = run("simulate", "--game", "scotch", "--players", 4, "--rule", "unit=deal", "--n", 6, "--threads", 1,
            "--solve", "--records", "-")  # fmt: skip
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert len(lines) == 6 and all(json.loads(x)["game"] == "scotch" for x in lines)
    assert "open-hand par over 6 recorded deals" in r.stderr
    keep = tmp_path / "deals.jsonl"
    r = run("simulate", "--game", "scotch", "--players", 4, "--rule", "unit=deal", "--n", 6, "--threads", 1,
            "--solve", "--records", keep)  # fmt: skip
    assert r.exit_code == 0, r.output
    assert keep.read_text().splitlines() == lines and "open-hand par over 6" in r.stdout
