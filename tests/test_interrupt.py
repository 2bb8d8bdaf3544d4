"""Ctrl-C (SIGINT) on every long command: it stops soon, says so in one line, exits 130 and keeps
what finished. Each run is started with a slow player or a large n, so that the signal comes mid-run
(once the command shows it is playing); the bound on the time to stop is generous: these are not
speed tests, they check that a command stops at all rather than finishing its chunk of minutes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from whistsim.core.options import plural

WAIT_S = 900.0  # a cold start compiles kernels first; a command that never gets going fails the test
STOP_S = 30.0  # generous: a chunk of pimc games is about half a second; the bound is for a loaded CI


class Run:
    """A whistsim command in a subprocess, its output read as it comes."""

    def __init__(self, args: list[str], cwd: Path, stdin=subprocess.DEVNULL) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "whistsim", *args], cwd=cwd, stdin=stdin,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
        self.out, self.err = bytearray(), bytearray()
        self.readers = [threading.Thread(target=self._read, args=(f, buf), daemon=True)
                        for f, buf in ((self.proc.stdout, self.out), (self.proc.stderr, self.err))]  # fmt: skip
        for t in self.readers:
            t.start()

    @staticmethod
    def _read(f, buf: bytearray) -> None:
        for chunk in iter(lambda: os.read(f.fileno(), 4096), b""):
            buf.extend(chunk)

    def wait_for(self, seen, within: float = WAIT_S) -> None:
        """Until ``seen(stdout, stderr)`` is true: the command is mid-run (it fails, never hangs)."""
        t0 = time.perf_counter()
        while not seen(self.out.decode(errors="replace"), self.err.decode(errors="replace")):
            assert self.proc.poll() is None, (self.out.decode(), self.err.decode())
            if time.perf_counter() - t0 > within:
                self.proc.kill()
                raise AssertionError(f"not seen within {within:.0f} s: {self.err.decode(errors='replace')}")
            time.sleep(0.1)

    def interrupt(self) -> tuple[int, float, str, str]:
        """SIGINT; returns (exit status, seconds it took to stop, stdout, stderr)."""
        t0 = time.perf_counter()
        self.proc.send_signal(signal.SIGINT)
        rc = self.proc.wait()
        took = time.perf_counter() - t0
        for t in self.readers:
            t.join()
        return rc, took, self.out.decode(), self.err.decode()


def _lines(err: str) -> list[str]:
    """stderr's lines, the progress bar's redrawn lines left out."""
    return [x for x in err.replace("\r", "\n").splitlines() if x.startswith("whistsim: ")]


def _stopped(rc: int, took: float, err: str, start: str = "whistsim: interrupted") -> str:
    lines = _lines(err)
    assert rc == 130 and took < STOP_S, (rc, took, err)
    assert "Traceback" not in err and lines and lines[-1].startswith(start), err
    assert sum(x.startswith("whistsim: interrupted") for x in lines) == 1, err
    return lines[-1]


def _eta(out: str, err: str) -> bool:  # the one-line estimate: the timed start is over, play goes on
    return "whistsim: about " in err


def test_ctrl_c_stops_a_pimc_tournament_keeping_the_decks_played_in_every_arrangement(tmp_path):
    csv = tmp_path / "ranking.csv"
    run = Run(["tournament", "--players", "3", "--strategies", "random,pimc", "--n", "1000000", "--threads", "1",
               "--progress", "--csv", str(csv)], tmp_path)  # fmt: skip
    run.wait_for(_eta)
    rc, took, out, err = run.interrupt()
    line = _stopped(rc, took, err, "whistsim: interrupted after ")
    decks = int(line.split("after ")[1].split(" of")[0].replace(",", ""))
    assert decks > 0 and f"6 seat arrangements x {plural(decks, 'deck')}" in out and "pimc" in out
    rows = [row.split(",") for row in csv.read_text().splitlines()[1:]]
    games = {row[0]: [int(row[1]), int(row[2])] for row in rows}
    # every arrangement, the same decks: each strategy in all 6 games of a deck, at 9 seats in them
    assert games == {"pimc": [6 * decks, 9 * decks], "random": [6 * decks, 9 * decks]}


def test_ctrl_c_stops_a_pimc_comparison_with_the_table_of_the_deals_played(tmp_path):
    run = Run(["compare", "--strategy", "pimc", "--vs", "scoring=five_penalty", "--n", "1000000", "--threads",
               "1", "--progress", "--json"], tmp_path)  # fmt: skip
    run.wait_for(_eta)
    rc, took, out, err = run.interrupt()
    line = _stopped(rc, took, err, "whistsim: interrupted after ")
    deals = int(line.split("after ")[1].split(" of")[0].replace(",", ""))
    doc = json.loads(out)
    assert deals > 0 and doc["n"] == deals and all(f["n"] == deals for f in doc["figures"])


def test_ctrl_c_stops_an_experiment_keeping_its_checkpoint_for_resume(tmp_path):
    spec = tmp_path / "slow.toml"
    spec.write_text('name = "slow"\ntitle = "pimc, slowly"\nquestion = "-"\ngame = "welsh"\nn = 100000\n'
                    'seed = 1\nchunk = 2\nheadline = ["points[0]"]\n[rules]\nplayers = 3\n[seats]\n'
                    'all = "pimc"\n')  # fmt: skip
    out = tmp_path / "out"
    run = Run(["experiment", str(spec), "--out", str(out), "--threads", "1", "--no-progress"], tmp_path)
    run.wait_for(lambda o, e: (out / ".checkpoint.json").exists())
    rc, took, _, err = run.interrupt()
    line = _stopped(rc, took, err)
    assert "--resume" in line
    state = json.loads((out / ".checkpoint.json").read_text())
    assert state["done"] >= 1 and state["total"]["games"] == 2 * state["done"]
    assert not (out / "report.md").exists()


def test_ctrl_c_stops_odds_while_it_measures_deals(tmp_path):
    # Random players (odds' default: a kernel the suite compiles anyway, not one with pimc for this
    # test alone); the estimate is shown for runs of over a minute: 100 million deals is minutes.
    run = Run(["odds", "--game", "whist", "--n", "100000000", "--threads", "1", "--score", "0-0"], tmp_path)
    run.wait_for(_eta)
    rc, took, out, err = run.interrupt()
    _stopped(rc, took, err)
    assert out == ""


def test_ctrl_c_stops_a_bench_between_the_pieces_of_a_timed_run(tmp_path):
    run = Run(
        ["bench", "--seconds", "600", "--repeats", "1", "--no-openspiel", "--memory-games", "0"], tmp_path
    )
    time.sleep(5)  # loading the kernels, or playing a 10-minute timed run: either way it must stop
    rc, took, out, err = run.interrupt()
    _stopped(rc, took, err)
    assert out == "" and list(tmp_path.iterdir()) == []


def test_ctrl_c_stops_claims_keeping_the_verdicts_printed(tmp_path):
    run = Run(["claims", "--game", "welsh", "--n", "100000000"], tmp_path)
    run.wait_for(lambda o, e: o.count("\n") >= 1)  # the table's header: the claims are being measured
    time.sleep(2)
    rc, took, out, err = run.interrupt()
    _stopped(rc, took, err)
    assert out.startswith("id ")  # the lines printed are kept


def test_ctrl_c_stops_the_odds_study_keeping_its_checkpoint_for_resume(tmp_path):
    # The study is an experiment: Ctrl-C after its first chunk keeps that chunk for --resume, and no report.
    out = tmp_path / "odds"
    run = Run(
        ["odds-study", "--n", "10000000", "--threads", "1", "--no-progress", "--out", str(out)], tmp_path
    )
    run.wait_for(lambda o, e: (out / ".checkpoint.json").exists())
    rc, took, _, err = run.interrupt()
    line = _stopped(rc, took, err)
    assert "--resume" in line
    state = json.loads((out / ".checkpoint.json").read_text())
    assert state["done"] >= 1 and not (out / "report.md").exists()


@pytest.mark.parametrize("command", ["replay", "solve"])
def test_ctrl_c_stops_a_streaming_command_keeping_the_lines_it_printed(tmp_path, command):
    recs = tmp_path / "deals.jsonl"
    subprocess.run([sys.executable, "-m", "whistsim", "simulate", "--game", "whist", "--n", "3", "--seed", "4",
                    "--records", str(recs)], check=True, capture_output=True)  # fmt: skip
    first = recs.read_text().splitlines()[0] + "\n"
    with subprocess.Popen(["cat", "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE) as feed:
        run = Run([command, "-"], tmp_path, stdin=feed.stdout)
        feed.stdin.write(first.encode())  # one record, and standard input left open: it waits for more
        feed.stdin.flush()
        run.wait_for(lambda o, e: o.count("\n") >= 1)
        rc, took, out, err = run.interrupt()
        feed.stdin.close()
    _stopped(rc, took, err)
    assert out.count("\n") == 1 and out.startswith("line "), out


def test_ctrl_c_ends_play_cleanly_at_the_prompt(tmp_path):
    with subprocess.Popen(["cat", "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE) as feed:
        run = Run(["play", "--game", "whist", "--seed", "5"], tmp_path, stdin=feed.stdout)
        run.wait_for(lambda o, e: "your hand" in o)
        rc, took, out, err = run.interrupt()
        feed.stdin.close()
    _stopped(rc, took, err)


def test_ctrl_c_stops_a_pimc_simulation_within_its_first_games(tmp_path):
    run = Run(["simulate", "--strategy", "pimc", "--n", "1000000", "--threads", "1", "--progress"], tmp_path)
    run.wait_for(_eta)
    rc, took, out, err = run.interrupt()
    line = _stopped(rc, took, err, "whistsim: interrupted after ")
    played = int(line.split("after ")[1].split(" of")[0].replace(",", ""))
    assert played > 0 and f"{played:,} games in" in out
