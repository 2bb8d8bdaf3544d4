"""``whistsim play`` as a table worth sitting at: strong seats by default, the prompt's commands
(undo, last, hint, quit, a numbered menu, help), the record to standard output, and input
that cannot grow memory or run forever."""

import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from whistsim.api import judge, simulate
from whistsim.cli import main
from whistsim.core.options import WhistsimError
from whistsim.harness import build
from whistsim.tools.terminal import (
    COMMANDS,
    MAX_IDLE,
    MAX_MOVE_LINE,
    MAX_SKIP,
    IllegalMove,
    PlayStopped,
    Table,
    UnreadableInput,
    play_game,
    typed_lines,
)

ROOT = Path(__file__).resolve().parents[1]
CAUTIOUS = str(ROOT / "experiments" / "strategies" / "cautious.py") + ":decide"


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def _stops_short(record: dict) -> None:
    """An unfinished deal's record: every move legal, replay says where they stop."""
    assert "result" not in record
    j = judge(0, json.dumps(record))
    assert j.move == len(record["moves"]) and j.error.startswith("the moves stop before the deal ends"), j


# ---- who sits at the table -------------------------------------------------------------


def _said_defaults(clause: str, games) -> dict[str, str]:
    """``pimc2 for welsh, pimc for scotch, whist and ohhell`` -> {game: player}."""
    words = clause.replace(",", " ").split()
    said, player = {}, None
    for i, w in enumerate(words):
        if i + 1 < len(words) and words[i + 1] == "for":
            player = w
        elif w in games:
            said[w] = player
    return said


def test_the_play_help_names_each_games_default_player_as_the_registry_has_it():
    from whistsim.games import NAMES, get_game

    registry = {name: get_game(name).default_player for name in NAMES}
    text = " ".join(run("play", "--help").output.split())
    for lead in ("default the hint's player: ", "default: the strongest fast player: "):  # --strategy, --hint
        clause = text.split(lead, 1)[1].split(")", 1)[0]
        assert _said_defaults(clause, NAMES) == registry, clause


def test_the_other_seats_hold_the_hint_player_unless_a_strategy_is_given():
    from whistsim.games import NAMES, get_game

    defaults = {name: get_game(name).default_player for name in NAMES}  # each game's own
    assert defaults == {"welsh": "pimc2", "scotch": "pimc", "whist": "pimc", "ohhell": "pimc"}
    t = Table("whist", seed=1)
    assert t.strategies == ["you", "pimc", "pimc", "pimc"] and t.hint_name == "pimc"
    r = run("play", "--game", "welsh", "--seed", 1, "--strategy", "1=greedy", input="quit\n")
    assert r.exit_code == 0, r.output
    assert "players: 0=you, 1=greedy, 2=pimc2; seed 1" in r.output
    r = run("play", "--game", "whist", "--seed", 1, "--strategy", "random", input="quit\n")
    assert "players: 0=you, 1=random, 2=random, 3=random; seed 1" in r.output


# ---- the prompt's commands -------------------------------------------------------------


@pytest.mark.parametrize("game", ["welsh", "whist"])
def test_undo_takes_back_the_last_choice_and_the_others_moves_since_and_the_same_choice_replays(game):
    t = Table(game, seed=3)
    t.advance()
    before = []
    for _ in range(3):
        before.append((list(t.moves), t.d.buf.copy()))
        t.move(t.hint())
        t.advance()
    played = list(t.moves)
    taken = t.undo()
    moves, buf = before[-1]
    assert t.moves == moves and taken == len(played) - len(moves) and taken >= 1
    assert (t.d.buf == buf).all()  # the very state before that choice, random streams included
    t.move(t.hint())
    t.advance()
    assert t.moves == played  # the built-in players answer as they did
    t2 = Table(game, seed=3)
    t2.advance()
    with pytest.raises(IllegalMove, match="nothing to undo"):
        t2.undo()


def test_undo_hint_last_and_the_menu_leave_the_deal_as_hints_alone_play_it():
    plain = play_game("whist", seed=3)
    lines = ["", "", "last", "undo", "undo", "hint", "?", "1", "undo", "moves", *[""] * 200]
    mixed = play_game("whist", seed=3, moves=lines)
    assert mixed.record == plain.record and mixed.finished
    shown = mixed.transcript
    assert sum(x.startswith("took back ") for x in shown) == 3
    assert any(x.startswith("last trick: ") and x.endswith(" the trick") for x in shown)


def test_hint_shows_the_move_without_taking_it_and_an_empty_line_takes_it():
    out = play_game("whist", seed=5, moves=["hint", "hint", "", "quit"])
    shown = out.transcript
    hints = [x for x in shown if x.startswith("hint: ")]
    assert len(hints) == 2 and hints[0] == hints[1] and "(pimc; an empty line takes it)" in hints[0]
    move = hints[0].split()[1]
    taken = [x for x in shown if x.startswith("> ")]
    assert taken == [f"> {move}  (hint: pimc)"]
    assert sum(m.startswith("0:") for m in out.record["moves"]) == 1


def test_last_shows_the_last_complete_trick_and_says_when_there_is_none():
    t = Table("whist", seed=2)
    t.advance()
    assert t.last_trick() == []
    out = play_game("whist", seed=2, moves=["last", "", "last", "quit"])
    lasts = [x for x in out.transcript if x.startswith(("last trick", "no trick"))]
    assert lasts[0] == "no trick is complete yet"
    # the trick told is the four cards of the record's first trick, and who won it
    first = [m.split(":")[1] for m in out.record["moves"][:4]]
    from whistsim.core.cards import parse_card, pretty_card

    told = lasts[1]
    assert [pretty_card(parse_card(c)) in told for c in first] == [True] * 4
    assert re.search(r"-> (you|seat \d) wins? the trick", told)


def test_a_number_picks_from_the_numbered_menu_and_one_out_of_range_is_refused():
    t = Table("whist", seed=4)
    t.advance()
    legal = t.legal()
    out = play_game("whist", seed=4, moves=["?", "0", str(len(legal) + 1), "2", "quit"])
    shown = out.transcript
    menu = next(x for x in shown if x.startswith("legal moves: "))
    assert menu == "legal moves: " + "  ".join(f"{i}) {m}" for i, m in enumerate(legal, 1))
    refused = [x for x in shown if x.startswith("illegal: ") and "legal move" in x]
    assert len(refused) == 2
    assert f"> {legal[1]}" in shown and out.record["moves"][len(t.moves)] == f"0:{legal[1]}"


def test_help_lists_every_command_at_the_prompt_and_in_the_help_text():
    out = play_game("whist", seed=1, moves=["help", "quit"])
    listed = out.transcript[out.transcript.index("commands:") + 1 :][: len(COMMANDS)]
    assert [x.strip().split("  ")[0] for x in listed] == [name for name, _ in COMMANDS]
    text = run("play", "--help").output
    for name, what in COMMANDS:
        assert name in text and " ".join(what.split()[:3]) in " ".join(text.split()), name


def test_quit_writes_the_moves_so_far_as_a_record_replay_judges_and_exits_0(tmp_path):
    out = play_game("welsh", seed=3, moves=["", "", "quit"])
    assert not out.finished and out.result == {} and out.record["moves"]
    _stops_short(out.record)
    path = tmp_path / "so_far.jsonl"
    r = run("play", "--game", "whist", "--seed", 3, "--record", path, input="\n\nquit\n")
    assert r.exit_code == 0, r.output
    assert "you quit after " in r.output and "a record of an unfinished deal" in r.output
    record = json.loads(path.read_text())
    assert len(record["moves"]) > 2
    _stops_short(record)
    replayed = run("replay", path, "--json")
    verdict = json.loads(replayed.stdout.splitlines()[0])
    assert replayed.exit_code != 0 and verdict["move"] == len(record["moves"])


def test_the_input_ending_before_the_deal_saves_the_moves_so_far_and_says_so_in_one_line(tmp_path):
    path = tmp_path / "cut.jsonl"
    r = run("play", "--game", "whist", "--seed", 1, "--record", path, input="\n\n")
    assert r.exit_code == 2
    err = r.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(
        "whistsim: error: the input ended before the deal did; wrote the "
    )
    _stops_short(json.loads(path.read_text()))
    with pytest.raises(PlayStopped, match="input ended") as e:
        play_game("whist", seed=1, moves=[""])
    _stops_short(e.value.game.record)


# ---- standard output holds the record alone --------------------------------------------


def test_record_to_standard_output_holds_the_record_alone_and_the_table_goes_to_standard_error():
    r = run("play", "--game", "whist", "--seed", 5, "--record", "-", input="\n" * 300)
    assert r.exit_code == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 1 and judge(0, lines[0]).ok
    assert "your hand" in r.stderr and "wrote the record to standard output" in r.stderr
    replayed = run("replay", "-", input=r.stdout)
    assert replayed.exit_code == 0 and replayed.stdout.startswith("line 0: ")


def test_yes_piped_into_play_with_record_to_stdout_is_read_by_replay():
    whistsim = [sys.executable, "-m", "whistsim"]
    with tempfile.TemporaryFile() as err:  # a file, not a pipe no one reads: the table is long
        yes = subprocess.Popen(["yes", ""], stdout=subprocess.PIPE)
        play = subprocess.Popen([*whistsim, "play", "--game", "whist", "--seed", "7", "--record", "-"],
                                stdin=yes.stdout, stdout=subprocess.PIPE, stderr=err)  # fmt: skip
        yes.stdout.close()
        replay = subprocess.run(
            [*whistsim, "replay", "-"], stdin=play.stdout, capture_output=True, timeout=600
        )
        play.stdout.close()
        play.wait(timeout=600)
        yes.kill()
        yes.wait()
        err.seek(0)
        assert b"your hand" in err.read()
    assert play.returncode == 0 and replay.returncode == 0, replay.stderr
    assert replay.stdout.decode().startswith("line 0: {")


# ---- the output path, before play ------------------------------------------------------


def test_a_record_path_in_a_missing_folder_fails_at_once_before_any_move(tmp_path):
    missing = tmp_path / "no" / "such" / "game.jsonl"
    r = run("play", "--game", "whist", "--record", missing, input="\n" * 300)
    assert r.exit_code == 2 and "your hand" not in r.output
    why = f"cannot write there: folder {missing.parent} does not exist"
    assert r.stderr.strip() == f"whistsim: error: --record {missing}: {why}"
    assert not missing.parent.exists()


# ---- hostile input: bounded memory and time --------------------------------------------


def test_typed_lines_read_a_long_line_in_bounded_pieces_and_stop_at_a_line_with_no_end():
    long_line = b"x" * (MAX_MOVE_LINE * 3) + b"\n"
    assert list(typed_lines(io.BytesIO(long_line + b"7H\r\n\xff\n"))) == [None, "7H", "\udcff"]
    assert list(typed_lines(io.BytesIO(b"x" * (MAX_MOVE_LINE + 1)))) == [None]  # ends at the end

    class Zeros(io.RawIOBase):  # /dev/zero: never a line end; counts what was asked of it
        asked = 0

        def readinto(self, b):
            self.asked += len(b)
            b[:] = bytes(len(b))
            return len(b)

        def readable(self):
            return True

    z = Zeros()
    with pytest.raises(UnreadableInput, match="no end in 1 MiB"):
        list(typed_lines(io.BufferedReader(z, 8192)))
    assert z.asked <= MAX_SKIP + (256 << 10)


def test_bad_lines_a_byte_not_utf8_or_a_line_too_long_are_explained_and_play_goes_on():
    r = run("play", "--game", "whist", "--seed", 5, input=b"\xff\n" + b"x" * 10_000 + b"\n" + b"\n" * 300)
    assert r.exit_code == 0, r.stderr
    assert "illegal: the line is not UTF-8 text" in r.output
    assert f"illegal: the line is longer than {MAX_MOVE_LINE} bytes" in r.output
    assert "the deal is over" in r.output


def test_lines_that_take_the_deal_no_further_stop_play_after_a_bound_with_the_record_saved(tmp_path):
    path = tmp_path / "zz.jsonl"
    r = run("play", "--game", "whist", "--seed", 5, "--record", path, input="zz\n" * 1000)
    assert r.exit_code == 2
    assert r.stdout.count("illegal: 'zz'") == MAX_IDLE
    assert r.stderr.strip().startswith(f"whistsim: error: {MAX_IDLE} lines in a row took the deal no further")
    _stops_short(json.loads(path.read_text()))
    # undoing and making the same move again takes it no further either: it ends too
    with pytest.raises(PlayStopped, match="no further"):
        play_game("whist", seed=5, moves=["", *["undo", ""] * 200])


def _peak(producer: list[str], args: list[str], timeout: float = 600) -> tuple[int, float, str]:
    """(exit status, peak RSS in MB, standard error) of ``whistsim ARGS`` fed by ``producer``."""
    with tempfile.TemporaryFile() as err:
        feed = subprocess.Popen(producer, stdout=subprocess.PIPE)
        p = subprocess.Popen([sys.executable, "-m", "whistsim", *args], stdin=feed.stdout,
                             stdout=subprocess.DEVNULL, stderr=err)  # fmt: skip
        feed.stdout.close()
        deadline = time.monotonic() + timeout
        try:
            while True:  # wait4: this child's own peak, not the largest of every child so far
                pid, status, usage = os.wait4(p.pid, os.WNOHANG)
                if pid:
                    break
                assert time.monotonic() < deadline, f"{producer} into play did not end"
                time.sleep(0.05)
        finally:
            feed.kill()
            feed.wait()
            if not pid:
                p.kill()
                p.wait()
        p.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        return p.returncode, usage.ru_maxrss / 1024, err.read().decode()


@pytest.mark.skipif(shutil.which("yes") is None or shutil.which("head") is None, reason="needs yes and head")
def test_endless_or_huge_input_into_play_ends_soon_in_bounded_memory():
    # a baseline: the same command ended by its first line, to compare peaks with
    base, base_mb, _ = _peak(["printf", "quit\n"], ["play", "--game", "whist"])
    assert base == 0
    for producer, why in [
        (["head", "-c", "400M", "/dev/zero"], "a line with no end in 1 MiB"),
        (["cat", "/dev/zero"], "a line with no end in 1 MiB"),
        (["yes", "zz"], f"{MAX_IDLE} lines in a row"),
    ]:
        rc, mb, err = _peak(producer, ["play", "--game", "whist"])
        assert rc == 2 and why in err, (producer, err)
        assert mb < base_mb + 64, (producer, mb, base_mb)  # the 400 MB stream once peaked at 16 GB


# ---- users' strategies at the table ----------------------------------------------------


def test_a_users_strategy_plays_a_seat_and_gives_the_hint():
    # beside random players alone, as test_user_strategy.py seats it: its kernel serves both files
    r = run("play", "--game", "welsh", "--seed", 2, "--strategy", f"1={CAUTIOUS}", "--strategy", "2=random",
            "--hint", CAUTIOUS, input="\n" * 3000)  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "players: 0=you, 1=" in r.output and "cautious.py:decide, 2=random" in r.output
    assert "(hint: " in r.output and "the deal is over" in r.output
    before = set(build._LOADED)  # test_user_strategy.py's seating: no kernel of its own
    simulate("welsh", n=1, seed=0, strategies=[CAUTIOUS, "random", "random"])
    assert set(build._LOADED) == before
    # a user's function that raises at the table is named in one line (the same seating: the
    # kernels compiled above serve it)
    t = Table("welsh", seed=2, strategies=["random", CAUTIOUS, "random"], hint=CAUTIOUS)
    t.advance()

    def raises():
        raise IndexError("index 99 is out of bounds for axis 0 with size 53")

    t.d.decide = raises
    with pytest.raises(WhistsimError) as e:
        t.hint()
    # the file as first named in this process (a test before may have named it by a relative path)
    assert re.fullmatch(
        r"seat 0 \((\S*/)?experiments/strategies/cautious\.py:decide\): "
        r"raised IndexError: index 99 is out of bounds for axis 0 with size 53",
        str(e.value),
    ), str(e.value)


def test_a_text_only_standard_input_is_read_as_bytes_a_bounded_line_at_a_time():
    from whistsim.cli.play import _Encoded

    text = io.StringIO("7H\n" + "x" * (3 * MAX_MOVE_LINE) + "\ndraw\n")
    assert list(typed_lines(_Encoded(text))) == ["7H", None, "draw"]
