"""The ``whistsim`` command: help, bad input as one line, replay's output, show, atomic records."""

import json
import os
import re

import pytest
from click.testing import CliRunner
from welsh_deals import Deal

from whistsim.cli import main
from whistsim.core import io

CARD_CODE = re.compile(r"\b[2-9TJQKA][CDHS]\b")


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def one_line_error(r, *words):
    """Bad input: non-zero exit, one line on stderr naming the problem, no traceback."""
    assert r.exit_code != 0
    assert not isinstance(r.exception, Exception) or isinstance(r.exception, SystemExit), r.exception
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("whistsim: error: ")
    assert "Traceback" not in r.output
    for w in words:
        assert w in lines[0]
    return lines[0]


@pytest.fixture(scope="module")
def example():
    """A hand-made deal (docs/records.md's example, played on), as a complete record with result."""
    d = Deal(["7H", "X", "TS", "KS"]).play("0:draw", "1:draw", "2:draw", "0:7H", "1:X", "2:pass")
    result = d.finish()
    return {**d.record(), "result": result}


def write_lines(path, lines):
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


# ---- help ----------------------------------------------------------------------------


def test_every_command_has_help_with_an_example():
    assert main.commands
    for name, cmd in main.commands.items():
        r = run(name, "--help")
        assert r.exit_code == 0, name
        assert "Example" in r.output, name
        assert f"whistsim {name}" in r.output, name
        assert cmd.get_short_help_str(), name


def test_main_help_has_an_example():
    r = run("--help")
    assert r.exit_code == 0 and "Example" in r.output and "whistsim simulate" in r.output


# ---- bad input -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--rule", "foo=1"], ["unknown rule 'foo'"]),
        (["--rule", "scoring=golf"], ["scoring", "golf"]),
        (["--rule", "revokes=maybe"], ["revokes"]),
        (["--rule", "taffy_rank=11"], ["taffy_rank"]),
        (["--rule", "revokes"], ["KEY=VALUE"]),
        (["--players", "1"], ["players=1"]),
        (["--players", "13"], ["players=13"]),
        (["--rule", "packs=0"], ["packs=0"]),
        (["--rule", "players=1"], ["players=1"]),
        (["--rule", "players=5", "--players", "4"], ["players=5"]),
        (["--preset", "nope"], ["unknown preset 'nope'"]),
        (["--game", "golf"], ["unknown game 'golf'"]),
        (["--first", "-1"], ["first seat"]),
        (["--first", "seat"], ["first seat"]),
        (["--first", "3"], ["first seat 3"]),
        (["--n", "-1"], ["n=-1"]),
        (["--seed", "-1"], ["seed"]),
        (["--strategy", "nobody"], ["nobody"]),
        (["--strategy", "7=random"], ["7"]),
    ],
)
def test_simulate_bad_input_is_one_line(args, words):
    one_line_error(run("simulate", "--n", 10, *args), *words)


def test_simulate_runs_and_prints_figures():
    r = run("simulate", "--n", 50, "--seed", 3, "--preset", "akagiri", "--players", 4,
            "--rule", "challenge=akagiri", "--rule", "revokes=true")  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "challenge=akagiri" in r.output and "revokes=true" in r.output
    for fig in ("points[0]", "points[3]", "turns", "tricks", "total_points"):
        assert fig in r.output


# ---- records are written atomically ------------------------------------------------------


def test_records_written(tmp_path, example):
    path = tmp_path / "games.jsonl"
    r = run("simulate", "--n", 20, "--seed", 5, "--records", path, "--max-records", 7)
    assert r.exit_code == 0, r.output
    lines = path.read_text().splitlines()
    assert len(lines) == 7
    assert [json.loads(x)["seed"]["game"] for x in lines] == list(range(7))
    assert os.listdir(tmp_path) == ["games.jsonl"]
    r = run("replay", path)
    assert r.exit_code == 0 and r.stdout.count("\n") == 7


def test_no_records_file_when_the_run_fails(tmp_path):
    path = tmp_path / "games.jsonl"
    one_line_error(run("simulate", "--n", 20, "--records", path, "--rule", "nope=1"))
    assert os.listdir(tmp_path) == []


def test_failed_write_leaves_no_file_and_keeps_the_old_one(tmp_path, monkeypatch):
    path = tmp_path / "games.jsonl"
    calls = []

    def failing_dumps(record):
        calls.append(1)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        return json.dumps(record)

    monkeypatch.setattr(io, "dumps", failing_dumps)
    one_line_error(run("simulate", "--n", 10, "--records", path), "No space left on device")
    assert os.listdir(tmp_path) == []  # no partial file, no temporary file
    path.write_text("old\n")
    calls.clear()
    one_line_error(run("simulate", "--n", 10, "--records", path))
    assert path.read_text() == "old\n" and os.listdir(tmp_path) == ["games.jsonl"]


def test_atomic_write_on_error(tmp_path):
    path = tmp_path / "out.txt"
    with pytest.raises(RuntimeError):
        with io.atomic_write(path) as f:
            f.write("half")
            raise RuntimeError("stop")
    assert os.listdir(tmp_path) == []


def test_unwritable_records_path(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    one_line_error(run("simulate", "--n", 5, "--records", blocker / "games.jsonl"), "cannot write")


# ---- replay ------------------------------------------------------------------------------


def test_replay_json_shapes(tmp_path, example):
    bad_move = {**example, "moves": [*example["moves"][:3], "0:8H", *example["moves"][4:]]}
    mismatch = {**example, "result": {**example["result"], "tricks": 0}}
    short = {**example, "moves": example["moves"][:10]}
    lines = [
        json.dumps(example),
        "",
        json.dumps(bad_move),
        "{oops",
        json.dumps(mismatch),
        "   ",
        json.dumps(short),
    ]
    r = run("replay", write_lines(tmp_path / "r.jsonl", lines), "--json")
    assert r.exit_code != 0
    out = [json.loads(x) for x in r.stdout.splitlines()]
    res = example["result"]
    assert out[0] == {"line": 0, **res}
    assert out[1]["line"] == 2 and out[1]["move"] == 3 and list(out[1]) == ["line", "move", "error"]
    assert "does not hold" in out[1]["error"]
    assert out[2]["line"] == 3 and out[2]["move"] is None and out[2]["error"].startswith("bad JSON")
    assert out[3] == {"line": 4, **res, "mismatch": True, "stored": mismatch["result"]}
    assert out[4]["line"] == 6 and out[4]["move"] == 10 and "stop before" in out[4]["error"]
    assert len(out) == 5


def test_replay_exit_zero_when_all_judged_fine(tmp_path, example):
    r = run("replay", write_lines(tmp_path / "r.jsonl", [json.dumps(example)] * 2), "--json")
    assert r.exit_code == 0
    assert r.stdout.splitlines() == [
        json.dumps({"line": k, **example["result"]}, separators=(",", ":")) for k in (0, 1)
    ]


def test_replay_non_zero_on_mismatch_alone(tmp_path, example):
    mismatch = {**example, "result": {**example["result"], "turns": 1}}
    r = run("replay", write_lines(tmp_path / "r.jsonl", [json.dumps(mismatch)]))
    assert r.exit_code != 0 and "MISMATCH" in r.output


def test_replay_text_output(tmp_path, example):
    extra = {**example, "moves": [*example["moves"], "0:draw"]}
    r = run("replay", write_lines(tmp_path / "r.jsonl", [json.dumps(example), json.dumps(extra), "[]"]))
    assert r.exit_code != 0
    lines = r.stdout.splitlines()
    assert lines[0] == f"line 0: {json.dumps(example['result'])}"
    assert lines[1].startswith(f"line 1: rejected at move {len(example['moves'])}: ")
    assert lines[2] == "line 2: rejected at record: a record must be a JSON object"


def test_replay_standard_input(example):
    r = run("replay", "-", "--json", input=json.dumps(example) + "\n\n" + json.dumps(example) + "\n")
    assert r.exit_code == 0
    assert [json.loads(x)["line"] for x in r.stdout.splitlines()] == [0, 2]


@pytest.mark.parametrize("target", ["missing.jsonl", "."])
def test_replay_unreadable_source(tmp_path, target):
    one_line_error(run("replay", tmp_path / target), "cannot read")


def test_replay_binary_file(tmp_path, example):
    path = tmp_path / "r.jsonl"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe\n" + json.dumps(example).encode() + b"\n")
    r = run("replay", path, "--json")
    assert r.exit_code != 0 and "Traceback" not in r.output
    out = [json.loads(x) for x in r.stdout.splitlines()]
    assert out[-1] == {"line": 3, **example["result"]}
    assert all(o["move"] is None for o in out[:-1])


# ---- show ------------------------------------------------------------------------------


def test_show_is_readable(tmp_path, example):
    r = run("show", write_lines(tmp_path / "r.jsonl", ["", json.dumps(example)]), "--line", 1)
    assert r.exit_code == 0, r.output
    text = r.stdout
    assert "10♥" in text and "K♠" in text and "Taffy" in text
    assert "seat 0 leads 7♥" in text
    assert "1 plays Taffy" in text  # seat 1 follows the 7♥ with the Taffy
    assert not CARD_CODE.search(text)  # no record codes such as TH
    for q, pts in enumerate(example["result"]["points"]):
        assert re.search(rf"^\s+{q}\s+{pts}\s", text, re.M)


def test_show_taffy_lead_names_suit(tmp_path):
    d = Deal(["X", "7H", "8S"]).draws(0, 1, 2).play("0:X=S", "1:pass", "2:8S")
    d.finish()
    r = run("show", write_lines(tmp_path / "r.jsonl", [json.dumps(d.record())]))
    assert r.exit_code == 0 and "leads a Taffy as spades" in r.stdout


@pytest.mark.parametrize(
    ("lines", "line", "words"),
    [([""], 0, "blank"), (["{x"], 0, "bad JSON"), (["{}"], 3, "no line 3"), (["[1]"], 0, "JSON object")],
)
def test_show_bad_input(tmp_path, lines, line, words):
    one_line_error(run("show", write_lines(tmp_path / "r.jsonl", lines), "--line", line), words)


def test_show_illegal_record(tmp_path, example):
    bad = {**example, "moves": example["moves"][:5]}
    one_line_error(run("show", write_lines(tmp_path / "r.jsonl", [json.dumps(bad)])), "move 5")
    one_line_error(
        run("show", write_lines(tmp_path / "r.jsonl", [json.dumps({**example, "deck": []})])), "deck"
    )


# ---- rules -------------------------------------------------------------------------------


def test_rules_lists_options_and_presets():
    r = run("rules", "--game", "welsh")
    assert r.exit_code == 0
    for key in (
        "players",
        "packs",
        "taffies",
        "taffy_rank",
        "scoring",
        "revokes",
        "challenge",
        "parlett",
        "akagiri",
    ):
        assert key in r.output


@pytest.mark.parametrize(
    ("args", "hint"),
    [
        (["--game", "scoth"], "did you mean scotch?"),
        (["--game", "french"], "did you mean --game scotch --preset french?"),
        (["--preset", "parlet"], "did you mean 'parlett'?"),
        (["--game", "whist", "--rule", "tarrget=5"], "did you mean 'target'?"),
        (["--rule", "scoring=five_penalt"], "did you mean 'five_penalty'?"),
        (["--game", "whist", "--rule", "unit=dael"], "did you mean 'deal'?"),
        (["--strategy", "0=greddy"], "did you mean 'greedy'?"),
        (["--game", "whist", "--strategy", "0=heuristc"], "did you mean 'heuristic'?"),
        (["--strategy", "0=greedy:chet=0.5"], "did you mean 'cheat'?"),
        (["--strategy", "0=greedy:cheat=smrt"], "did you mean 'smart'?"),
        (["--first", "rotat"], "did you mean 'rotate'?"),
    ],
)
def test_a_near_miss_is_named_in_the_one_line_error(args, hint):
    one_line_error(run("simulate", "--n", 1, *args), hint)


def test_near_misses_in_a_spec_are_named(tmp_path):
    base = 'name = "x"\ntitle = "x"\nquestion = "x"\ngame = "welsh"\nn = 10\nseed = 1\n'
    for extra, hint in [('analysis = "scorin"\n', "did you mean 'scoring'?"),
                        ('headline = ["pionts[0]"]\n', "did you mean 'points[0]'?"),
                        ('[rules]\nscorin = "piles"\n', "did you mean 'scoring'?")]:  # fmt: skip
        spec = tmp_path / "x.toml"
        spec.write_text(base + extra)
        one_line_error(run("experiment", spec, "--check"), hint)
