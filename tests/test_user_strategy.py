"""Users' own strategies: ``PATH.py:FUNCTION`` in a seat, and the errors a user can make,
each one line naming the seat (and, in play, the game and the decision)."""

from __future__ import annotations

import json
import os
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from whistsim import api
from whistsim.cli import main
from whistsim.core.strategy import StrategyError, parse_spec
from whistsim.games import seating

EXAMPLE = str(Path(__file__).resolve().parents[1] / "experiments" / "strategies" / "cautious.py")
# The example's tests here and test_play_table.py's seat it beside random players alone: one kernel
# for them all (a user's function has a kernel of its own per set of built-ins seated, ~15 s cold).
# One user's function for every failing one (its ``fault`` chooses how), its tests all in this file
# so that one worker compiles its kernel once (~25 s cold), not one per file on each worker.
FAULTY = str(Path(__file__).resolve().parent / "data" / "faulty.py")


def write(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return str(path)


def test_the_shipped_example_plays_and_its_records_replay():
    sim = api.simulate(
        "welsh", n=3000, seed=2, strategies=[f"{EXAMPLE}:decide", "random", "random"], records=5
    )
    for i, record in enumerate(sim.records):
        assert api.judge(i, json.dumps(record)).ok
    assert sim.records[0]["strategies"][0] == f"{EXAMPLE}:decide"
    # It beats random play, as cautious play should.
    assert sim.moments.estimate("points[0]").low > sim.moments.estimate("points[1]").high


def test_a_user_strategy_takes_its_declared_parameters():
    never = api.simulate("welsh", n=400, seed=3, strategies=[f"{EXAMPLE}:decide:aces=0", "random", "random"])
    aces = api.simulate("welsh", n=400, seed=3, strategies=[f"{EXAMPLE}:decide:aces=1", "random", "random"])
    assert never.moments.estimate("tricks").mean != aces.moments.estimate("tricks").mean
    with pytest.raises(
        StrategyError, match=r"^seat 1: strategy '.*cautious.py:decide' has no parameter 'kings'"
    ):
        seating("welsh", [parse_spec("random"), parse_spec(f"{EXAMPLE}:decide:kings=1")], 2)


def test_a_user_strategy_sits_beside_the_builtins_in_the_cli():
    out = CliRunner().invoke(
        main,
        [
            "simulate",
            "--n",
            "200",
            "--seed",
            "1",
            "--strategy",
            f"1={EXAMPLE}:decide",
            "--strategy",
            "2=random",
        ],
    )
    assert out.exit_code == 0, out.output
    assert f"1={EXAMPLE}:decide" in out.output


def test_an_illegal_decision_names_the_game_the_seat_and_the_decision():
    # tests/data/faulty.py, shared with other tests of failing users' functions (one kernel)
    with pytest.raises(StrategyError) as e:
        api.simulate("welsh", n=10, seed=0, strategies=["random", "random", f"{FAULTY}:decide:fault=pass"])
    msg = str(e.value)
    assert (
        msg.startswith("game ")
        and ", seat 2 (" in msg
        and "faulty.py:decide): illegal decision 'pass'" in msg
    )
    assert "\n" not in msg


@pytest.mark.parametrize(
    "fault, words", [("index", ["raised IndexError"]), ("raise", ["raised ValueError: no more"])]
)
def test_a_user_function_that_fails_is_named_in_one_line(fault, words):
    spec = f"{FAULTY}:decide:fault={fault}"
    with pytest.raises(StrategyError) as e:
        api.simulate("welsh", n=50, seed=0, strategies=["random", "random", spec], threads=1)
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith("game 0, seat 2 (") and "faulty.py:decide" in msg
    for w in words:
        assert w in msg


def test_a_welsh_user_strategy_that_writes_the_table_is_named_in_one_line():
    # tests/data/faulty.py's "table" fault: a point more for itself, as issue 36 tried
    spec = f"{FAULTY}:decide:fault=table"
    with pytest.raises(StrategyError) as e:
        api.simulate("welsh", n=20, seed=1, strategies=["random", spec, "random"])
    assert e.value.args[0].startswith("game 0, seat 1 (")
    assert e.value.args[0].endswith(
        "faulty.py:decide): raised ValueError: it wrote v.table: a strategy may change only its own "
        "random stream, v.own.rng"
    )
    out = CliRunner().invoke(main, ["simulate", "--n", "20", "--strategy", f"1={spec}", "--no-progress"])
    assert out.exit_code == 2
    assert out.output.count("\n") == 1 and "seat 1 (" in out.output and "it wrote v.table" in out.output


@pytest.mark.parametrize(
    "name, body, message",
    [
        ("missing.py", None, "seat 2: strategy '{path}:decide': file '{path}' not found"),
        ("syntax.py", "def decide(v)\n    return 57\n", "cannot load {path}: SyntaxError: "),
        (
            "raises.py",
            "raise RuntimeError('no deck here')\n",
            "cannot load {path}: RuntimeError: no deck here",
        ),
        ("nofunc.py", "X = 1\n", "{path} has no function 'decide'"),
        ("plain.py", "def decide(v):\n    return 57\n", "'decide' must be a Numba function"),
        (
            "untyped.py",
            "from numba import njit\n@njit\ndef decide(v):\n    return v.no_such_field\n",
            "does not compile for game welsh: Unknown attribute 'no_such_field' of type WelshView "
            "(line 4: return v.no_such_field)",
        ),
        (
            "floaty.py",
            "from numba import njit\n@njit\ndef decide(v):\n    return 0.5\n",
            "does not compile for game welsh: it returns float64, not an integer action",
        ),
    ],
)
def test_user_strategy_errors_are_one_line(tmp_path, name, body, message):
    path = str(tmp_path / name) if body is None else write(tmp_path, name, body)
    with pytest.raises(StrategyError) as e:
        seating("welsh", [parse_spec(s) for s in ("random", "greedy", f"{path}:decide")], 3)
    msg = str(e.value)
    assert msg.startswith("seat 2: ")
    assert message.format(path=path) in msg
    assert "\n" not in msg


def test_the_cli_reports_a_broken_user_strategy_in_one_line(tmp_path):
    path = write(tmp_path, "broken.py", "def decide(v)\n")
    out = CliRunner().invoke(main, ["simulate", "--n", "5", "--strategy", f"0={path}:decide"])
    assert out.exit_code == 2
    lines = out.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("whistsim: error: seat 0: ")


def test_a_spec_without_a_function_is_refused(tmp_path):
    path = write(tmp_path, "x.py", "")
    with pytest.raises(StrategyError, match="name the function after the file"):
        seating("welsh", [parse_spec(f"{path}:")], 3)


def test_a_function_found_to_compile_is_not_checked_again_until_its_code_changes(tmp_path, monkeypatch):
    """The check compiles the function against the game's view (about 2 s); a function that passes
    is marked in the kernel cache by the hash of its code, so a later load of the same code compiles
    nothing, while the file edited so that it no longer compiles is checked, and refused, again."""
    from numba.core import event

    from whistsim.harness import users

    # the marks in a folder of the test's (NUMBA_CACHE_DIR itself is Numba's: it reloads it)
    monkeypatch.setattr(users, "_marks_folder", lambda: tmp_path / "checked")
    good = "from numba import njit\n@njit\ndef decide(v):\n    return -1\n"
    bad = "from numba import njit\n@njit\ndef decide(v):\n    return v.no_such_field\n"
    path = tmp_path / "mine.py"

    def load(text: str, stamp: int) -> int:
        """Seat the file's function as it reads now (a new time stamp: loaded afresh); the
        compiles the load made."""
        path.write_text(text)
        os.utime(path, ns=(stamp, stamp))
        with event.install_recorder("numba:compile") as rec:
            seating("welsh", [parse_spec(f"{path}:decide"), parse_spec("random")], 2)
        return len(rec.buffer)

    assert load(good, 10**18) > 0
    assert len(list((tmp_path / "checked").iterdir())) == 1
    assert load(good, 2 * 10**18) == 0
    with pytest.raises(StrategyError, match="no_such_field"):
        load(bad, 3 * 10**18)
    assert load(good, 4 * 10**18) == 0


def test_the_check_that_a_user_wrote_nothing_compares_bytes_and_compiles_no_array_view():
    """``users._same`` compares a user's copy of a record with the game's byte for byte. Through
    ``ndarray.view`` it compiled the view's checks and their message formatting (shapes as text) in
    every process that compiled a user's kernel, some 2 s of CPU; it reads the bytes itself now."""
    import numpy as np
    from numba import njit
    from numba.core import event

    from whistsim.harness.users import _same

    compiled: list[str] = []

    class Seen(event.Listener):
        def on_start(self, ev):
            compiled.append(getattr(getattr(ev.data.get("dispatcher"), "py_func", None), "__qualname__", ""))

        def on_end(self, ev):
            pass

    @njit
    def same(buf):
        return _same(buf[:1], buf[1:])

    # new record types, so that nothing compiled for them before in this process; 8-byte words
    # where the record's size divides into them (24), single bytes where it does not (11)
    for dt in (np.dtype([("x", np.int64), ("y", np.float64), ("z", np.int32, 2)]),
               np.dtype([("x", np.int8, 3), ("y", np.float64)])):  # fmt: skip
        buf = np.zeros(2, dt)
        with event.install_listener("numba:compile", Seen()):
            assert same(buf)
        last = np.zeros(2, dt)
        last.view(np.uint8)[-1] = 1  # the copy's last byte
        negative = np.zeros(2, dt)
        negative["y"][1] = -0.0  # equal as a number, not as bytes
        assert not same(last) and not same(negative)
    views = [name for name in compiled if "compatible_view" in name or "with_shape_context" in name]
    assert compiled and not views, views
