"""Hardening, third round (issue 36): no silently wrong numbers and no crashes.

A user's strategy gets copies of its view; Whist games that cannot finish are counted
and warned about; search players' budgets are bounded; ``solve`` judges each line on
its own; a byte order mark opens a records file; the kernel cache is private and a
kernel source edited there is never imported.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import textwrap
import warnings
from collections import namedtuple
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from numba import njit

import whistsim
from whistsim import api
from whistsim.cli import main
from whistsim.core.io import MAX_LINE
from whistsim.core.strategy import StrategyError, parse_spec
from whistsim.games import get_game, seating
from whistsim.harness import build
from whistsim.harness.users import user_view, user_wrote
from whistsim.solver import solve_file
from whistsim.tools.advice import WhistsimWarning

# users' functions that write (Whist), one function shared by the tests of it (the Welsh one that
# writes the table is in test_user_strategy.py, beside the other tests seating tests/data/faulty.py)
FAULTY_WHIST = str(Path(__file__).resolve().parent / "data" / "faulty_whist.py")


def write(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return str(path)


# ---- a user's strategy and its view ---------------------------------------------------------

_REC = np.dtype([("a", np.int64, (4,)), ("rng", np.uint64, (1,)), ("s", np.int32)])
_STATE = np.dtype([("table", _REC), ("seats", _REC, (2,)), ("scratch", _REC)])
_View = namedtuple("_View", ["seat", "table", "own", "scratch"])


@njit(cache=True)
def _steps_its_stream_and_scribbles(v):
    v.own.rng[0] += 5
    v.scratch.a[0] = 9
    return v.table.a[0] + 1


@njit(cache=True)
def _writes_the_table(v):
    v.table.a[1] += 1
    return 0


# Seat 1's call of a user's function as strategy 1003 or 1007, as a kernel makes it (see
# build._switch); module functions, cached, so that a second run loads them.
@njit(cache=True)
def _call_stepper(states):
    g = states[0]
    v = _View(1, g.table, g.seats[1], g.scratch)
    w, b = user_view(v)
    a = _steps_its_stream_and_scribbles(w)
    user_wrote(v, b, 1003)
    return a


@njit(cache=True)
def _call_writer(states):
    g = states[0]
    v = _View(1, g.table, g.seats[1], g.scratch)
    w, b = user_view(v)
    a = _writes_the_table(w)
    user_wrote(v, b, 1007)
    return a


def test_a_users_view_is_a_copy_its_stream_kept_its_scratch_dropped_a_write_refused():
    states = np.zeros(1, _STATE)
    states[0]["table"]["a"][0] = 41
    assert _call_stepper(states) == 42
    assert states[0]["seats"][1]["rng"][0] == 5  # its own stream advanced, as between decisions
    assert (states[0]["scratch"]["a"] == 0).all()  # the scratch it wrote was a copy
    with pytest.raises(ValueError, match=r"^user strategy 1007 wrote v\.table: a strategy may change only"):
        _call_writer(states)
    assert list(states[0]["table"]["a"]) == [41, 0, 0, 0]  # the game's table is untouched


def test_a_whist_user_strategy_that_writes_its_own_hand_is_named_not_another_seat():
    with pytest.raises(
        StrategyError,
        match=r"^game 0, seat 2 \(.*faulty_whist\.py:decide\): raised ValueError: it wrote v\.own",
    ):
        api.simulate(
            "whist",
            n=10,
            seed=3,
            strategies=["random", "random", f"{FAULTY_WHIST}:decide:write=own", "random"],
        )


def test_a_user_strategy_stepping_its_stream_and_writing_scratch_plays_as_the_builtin():
    spec = f"{FAULTY_WHIST}:decide:write=scratch"  # plays as random, writing its scratch deal
    user = api.simulate("whist", n=300, seed=5, strategies=[spec, "random", "random", "random"])
    builtin = api.simulate("whist", n=300, seed=5, strategies=["random"])
    a, b = user.summary().set_index("figure"), builtin.summary().set_index("figure")
    assert a["mean"].to_dict() == b["mean"].to_dict()


# ---- Whist games that cannot finish ---------------------------------------------------------


def _batch(rules: dict, n: int, strategies: tuple[str, ...]):
    g = get_game("whist")
    r = g.make_rules(None, None, rules)
    ids, params = seating("whist", [parse_spec(s) for s in strategies], 4)
    return g, r, g.play_batch(r, ids, params, seed=7, n=n)


def test_unfinished_games_are_a_figure_and_a_warning_and_honours_share_stays_a_share():
    g, r, b = _batch(
        {"revokes": True, "revoke_score": "deduct", "revoke_penalty": 100}, 12, ("random:revoke=0.5",)
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = g.measure(b, r)
    assert out["unfinished"].mean() > 0.5  # a penalty of 100 against a target of 10
    assert ((b.game["winner"] < 0) == (out["unfinished"] == 1)).all()
    assert ((0 <= out["honours_share"]) & (out["honours_share"] <= 1)).all()
    assert [str(w.message) for w in caught if issubclass(w.category, WhistsimWarning)] == [
        f"some games reached the cap of {r.max_deals()} deals with no winner (revoke_score=deduct lets a "
        "score fall): the figure 'unfinished' is their share; no side won them"
    ]
    assert not [f for f in g.figures if f.name == "unfinished"][0].is_exact(r)


def test_under_the_default_rules_unfinished_is_exactly_nothing_and_honours_share_unchanged():
    g, r, b = _batch({}, 200, ("heuristic",))
    with warnings.catch_warnings():
        warnings.simplefilter("error", WhistsimWarning)
        out = g.measure(b, r)
    assert (out["unfinished"] == 0).all()
    assert [f for f in g.figures if f.name == "unfinished"][0].is_exact(r)
    before = out["honours_total"] / np.maximum(out["points_total"], 1)  # the definition it had
    assert np.array_equal(out["honours_share"], before)


def test_simulate_shows_the_unfinished_share_with_its_warning():
    out = CliRunner().invoke(
        main,
        ["simulate", "--game", "whist", "--n", "8", "--rule", "revokes=true", "--rule", "revoke_score=deduct",
         "--rule", "revoke_penalty=100", "--strategy", "random:revoke=0.5", "--no-progress"],
    )  # fmt: skip
    assert out.exit_code == 0, out.output
    assert "unfinished" in out.output
    assert out.output.count("whistsim: warning: some games reached the cap of") == 1


# ---- search players' budgets ----------------------------------------------------------------


@pytest.mark.parametrize(
    "game,spec,expected",
    [
        ("welsh", "pimc:budget=1000000", "an integer from 1 to 10000"),
        ("welsh", "pimc2:budget=10001", "an integer from 1 to 10000"),
        ("whist", "pimc:worlds=1001", "an integer from 1 to 1000"),
        ("whist", "dd:worlds=17", "an integer from 1 to 16"),
    ],
)
def test_a_search_budget_past_about_a_second_a_decision_is_refused(game, spec, expected):
    players = 3 if game == "welsh" else 4
    with pytest.raises(StrategyError, match=f"expected {expected}$") as e:
        seating(game, [parse_spec(spec)], players)
    assert f"parameter {spec.split(':')[1]}: " in str(e.value)  # the value as typed, not 1e+06
    seating(game, [parse_spec(spec.rsplit("=", 1)[0] + "=" + expected.rsplit(" ", 1)[1])], players)


def test_the_strategies_listing_gives_the_bounds():
    welsh = CliRunner().invoke(main, ["strategies"])
    whist = CliRunner().invoke(main, ["strategies", "--game", "whist"])
    assert welsh.exit_code == whist.exit_code == 0
    assert "play-outs per decision, shared among its candidates (an integer from 1 to 10000)" in welsh.output
    assert "(an integer from 1 to 16)" in whist.output and "(an integer from 1 to 1000)" in whist.output


# ---- solve judges each line on its own ------------------------------------------------------


def _ending() -> dict:
    """A Whist deal two tricks from its end (cheap to solve)."""
    rec = whistsim.simulate("whist", 1, 4, rules={"unit": "deal"}, strategies=["random"], records=1).records[
        0
    ]
    return dict(rec, moves=rec["moves"][:44])


def test_solve_judges_each_line_as_replay_does_and_goes_on(tmp_path):
    good = json.dumps(_ending())
    path = tmp_path / "mixed.jsonl"
    with open(path, "w", encoding="utf-8") as f:
        f.write(good + "\n")
        f.write('{"game": "whist", "x": "' + "a" * MAX_LINE + '"}\n')  # longer than replay reads
        f.write('{"game": [], "rules": {}, "moves": []}\n')
        f.write(good[:-1] + ', "game": "whist"}\n')  # a repeated key
        f.write(good + "\n")
    out = list(solve_file(str(path)))
    assert [j["line"] for j in out] == [0, 1, 2, 3, 4]
    assert out[1] == {"line": 1, "move": None, "error": "the line is longer than 4 MiB"}
    assert out[2]["error"].startswith("the solver takes records of whist and scotch, not []")
    assert out[3] == {"line": 3, "move": None, "error": "bad JSON: key 'game' appears twice in an object"}
    assert out[3]["error"] == api.judge(3, good[:-1] + ', "game": "whist"}').error
    assert "tricks" in out[0] and out[4]["tricks"] == out[0]["tricks"]
    r = CliRunner().invoke(main, ["solve", str(path), "--json", "--no-progress"])
    assert r.exit_code == 1
    assert [json.loads(x)["line"] for x in r.output.splitlines()] == [0, 1, 2, 3, 4]


def test_a_solve_field_of_the_wrong_kind_is_that_lines_error(tmp_path):
    rec = _ending()
    path = tmp_path / "kinds.jsonl"
    path.write_text("\n".join(json.dumps(dict(rec, **{k: v})) for k, v in
                              (("hands", 7), ("moves", {"a": 1}), ("rules", [1]))) + "\n")  # fmt: skip
    out = list(solve_file(str(path)))
    assert [j["line"] for j in out] == [0, 1, 2] and all("error" in j for j in out)


# ---- a byte order mark ----------------------------------------------------------------------


def test_a_records_file_opening_with_a_byte_order_mark_is_read(tmp_path):
    rec = _ending()
    full = whistsim.simulate("whist", 1, 4, rules={"unit": "deal"}, strategies=["random"], records=1).records[
        0
    ]
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + (json.dumps(full) + "\n").encode())
    assert [j.ok for j in api.replay(str(path))] == [True]
    assert api.load_record(str(path), 0) == full
    shown = CliRunner().invoke(main, ["show", str(path)])
    assert shown.exit_code == 0, shown.output
    ending = tmp_path / "bom_ending.jsonl"
    ending.write_bytes(b"\xef\xbb\xbf" + (json.dumps(rec) + "\n").encode())
    assert "tricks" in next(solve_file(str(ending)))


# ---- the kernel cache -----------------------------------------------------------------------


def test_a_kernel_source_edited_in_the_cache_is_rewritten_and_never_run(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    marker = tmp_path / "tampered-code-ran"
    text = "# Generated by a test\nVALUE = 1\n"
    module = build.load(text)
    path = Path(module.__file__)
    assert path.parent == tmp_path / "kernels" and stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    with open(path, "a") as f:
        f.write(f"open({str(marker)!r}, 'w').close()\nVALUE = 2\n")
    build._LOADED.pop(module.__name__)
    sys.modules.pop(module.__name__)
    again = build.load(text)
    assert again.VALUE == 1 and not marker.exists()
    assert path.read_text() == text


def test_the_cache_folders_are_private(tmp_path):
    loose = tmp_path / "whistsim"
    loose.mkdir(mode=0o755)
    os.chmod(loose, 0o755)  # as an older version made it
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path)
    code = "import os, whistsim.core.cache as c; c.use_source_keyed_cache(); print(os.environ['NUMBA_CACHE_DIR'])"
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    folder = Path(r.stdout.strip())
    assert folder.parent == loose
    assert stat.S_IMODE(loose.stat().st_mode) == 0o700
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
