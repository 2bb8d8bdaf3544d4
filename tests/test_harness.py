"""The shared harness: a game defined outside whistsim (tests/toy_game, under 200 lines)
gets simulation, records, replay, show and experiments through the seam every game uses;
kernels hold only the players seated; engines report what moves did as events."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import toy_game
from click.testing import CliRunner

import whistsim
from whistsim.cli import main
from whistsim.experiments import run_experiment, spec_from_dict
from whistsim.games import get_game
from whistsim.games.welsh import kernels as welsh_play
from whistsim.games.welsh import players as welsh_players
from whistsim.harness import build
from whistsim.harness import events as ev

TOY = Path(toy_game.__file__).parent


def test_the_toy_game_fits_in_under_200_lines():
    assert sum(len(p.read_text().splitlines()) for p in TOY.glob("*.py")) < 200


def test_the_toy_game_simulates_by_its_own_rules():
    sim = whistsim.simulate("toy", n=2000, seed=3, strategies=["random"], first="rotate")
    s = sim.summary().set_index("figure")["mean"]
    assert s["tricks[0]"] + s["tricks[1]"] == pytest.approx(12)  # 24 cards: 12 tricks a deal
    assert s["win[0]"] + s["win[1]"] == pytest.approx(1)


def test_the_toy_games_records_replay_to_their_results_and_show():
    sim = whistsim.simulate("toy", n=20, seed=3, strategies=["random"], records=20)
    assert len(sim.records) == 20
    for i, rec in enumerate(sim.records):
        text = json.dumps(rec)
        j = whistsim.judge(i, text)
        assert j.ok and j.result == rec["result"]
    story = whistsim.show(sim.records[0])
    assert story.count("wins the trick") == 12 and "Tricks:" in story


def test_an_illegal_toy_move_is_named_by_the_shared_replay():
    rec = whistsim.simulate("toy", n=1, seed=3, records=1).records[0]
    moves = rec["moves"]
    lead = moves[0].split(":")[1]
    follower_cards = [m for m in moves[1:] if m.startswith(moves[1][0])]
    bad = {**rec, "moves": [moves[0], f"{moves[1][0]}:{lead}"] + moves[2:]}
    j = whistsim.judge(0, json.dumps(bad))
    assert j.move == 1 and "illegal" in j.error and follower_cards


def test_a_toy_record_with_a_wrong_pack_is_refused_by_the_shared_readers():
    rec = whistsim.simulate("toy", n=1, seed=3, records=1).records[0]
    j = whistsim.judge(0, json.dumps({**rec, "deck": rec["deck"][:-1]}))
    assert j.move is None and "does not hold exactly the Toy pack" in j.error


def test_the_toy_game_compares_two_rule_sets_and_tells_them_by_its_fields():
    c = whistsim.compare("toy", rules={"ranks": 4}, vs={"ranks": 6}, n=400, seed=1, strategies=["random"])
    assert "ranks 6" in c.change and "ranks 4" in c.change
    assert c.to_json()["rules_a"] == "players=2, ranks=4"
    sim = whistsim.simulate("toy", n=10, seed=1)
    assert sim.to_json()["rules"] == {"players": 2, "ranks": 6}


def test_the_toy_game_runs_an_experiment():
    spec = spec_from_dict(
        {
            "name": "toy",
            "game": "toy",
            "n": 400,
            "seed": 1,
            "seats": {"all": "random"},
            "sweep": {"rules.ranks": [4, 6]},
            "headline": ["tricks[0]"],
        }  # fmt: skip
    )
    result = run_experiment(spec, write=False, progress=False)
    table = result.summary()
    assert set(table["figure"]) >= {"tricks[0]", "tricks[1]", "win[0]", "win[1]"}


def test_the_cli_replays_and_shows_toy_records(tmp_path):
    sim = whistsim.simulate("toy", n=3, seed=3, records=3)
    path = tmp_path / "toy.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in sim.records))
    out = CliRunner().invoke(main, ["replay", str(path), "--json"])
    assert out.exit_code == 0, out.output
    assert len(out.stdout.splitlines()) == 3
    assert CliRunner().invoke(main, ["show", str(path)]).exit_code == 0


def test_a_kernel_holds_only_the_seated_players():
    text = build.source(welsh_play, welsh_players, [0, 1])
    assert "players.random as _player0" in text and "players.greedy as _player1" in text
    assert "pimc" not in text.split("# The shared loops.")[0]


def test_a_kernel_asked_for_again_is_not_built_again(monkeypatch):
    first = build.kernel(welsh_play, welsh_players, [0, 1])
    monkeypatch.setattr(build, "source", lambda *a, **k: pytest.fail("the source was built again"))
    assert build.kernel(welsh_play, welsh_players, [0, 1]) is first


def test_a_replay_checks_and_applies_each_move_through_the_kernels_step():
    """The rules are compiled once for a replay and a step both: ``replay_moves`` calls ``step``
    (each inlining check and apply was about 6 s more of Welsh Whist's first compile)."""
    module = build.kernel(toy_game.engine, None)
    names = module.replay_moves.py_func.__code__.co_names
    assert "step" in names and "check_move" not in names and "apply_move" not in names


def test_a_game_missing_a_rule_function_is_told_what_the_harness_needs():
    import types

    parts = types.ModuleType("half_a_game")
    with pytest.raises(TypeError, match="lacks what the harness needs: over, to_move"):
        build.source(parts, None, [])


def _counter_seated(monkeypatch, seed: int):
    """Counter in every seat under Parlett's rules (revokes off, no challenge rule: the prelude never
    decides), played by the kernel of the seated player alone: one kernel for the two tests below.
    Counter, not greedy or random: those the game's own loop plays, which asks no player's switch,
    while these tests compare the switch of the seated players with the every-player kernel's."""
    g = get_game("welsh")
    rules = g.make_rules("parlett", 3)
    ids, params = whistsim.games.seating("welsh", [whistsim.core.strategy.parse_spec("counter")], 3)
    monkeypatch.delenv("WHISTSIM_ALL_PLAYERS", raising=False)
    return g, rules, ids, params, g.play_batch(rules, ids, params, seed=seed, n=300)


def test_the_same_results_from_a_kernel_of_every_player_and_of_the_seated_ones(monkeypatch):
    g, rules, ids, params, seated = _counter_seated(monkeypatch, 4)
    monkeypatch.setenv("WHISTSIM_ALL_PLAYERS", "1")
    every = g.play_batch(rules, ids, params, seed=4, n=300)
    for k in seated.seat:
        assert np.array_equal(seated.seat[k], every.seat[k])


def test_a_kernel_with_a_users_function_seated_has_the_seated_players_alone(monkeypatch):
    # It is for that function alone: every player in it would only cost compile time.
    from numba import njit

    from whistsim.core.strategy import USER_BASE

    @njit
    def mine(v):
        return 0

    monkeypatch.setenv("WHISTSIM_ALL_PLAYERS", "1")
    k = build.kernel(welsh_play, welsh_players, [2, USER_BASE], {USER_BASE: mine})
    assert hasattr(k, "_player2") and not hasattr(k, "_player0") and getattr(k, f"_user{USER_BASE}") is mine
    assert hasattr(build.kernel(welsh_play, welsh_players, [2]), "_player0")  # no user: every player


def test_pass_events_say_truly_whether_the_pass_was_false():
    from whistsim.core.cards import TAFFY
    from whistsim.games.welsh.engine import S_LED_SUIT, new_state
    from whistsim.games.welsh.records import read_record, start, step

    sim = whistsim.simulate("welsh", n=30, seed=9, rules={"revokes": True},
                            strategies=["random:false_pass=0.5"], records=30)  # fmt: skip
    checked = 0
    for rec in sim.records:
        rules, stock, first, seats, actions = read_record(rec)
        buf = new_state(rules.to_array())
        start(buf, stock, first)
        buf[0]["ev_on"] = 1
        for seat, a in zip(seats, actions, strict=True):
            hand, led = buf[0]["seats"][seat]["hand"], int(buf[0]["table"]["s"][S_LED_SUIT])
            able = bool(hand[TAFFY] > 0 or hand[led * 13 : led * 13 + 13].any()) if 0 <= led < 4 else None
            buf[0]["ev_n"] = 0
            step(buf, int(a))
            for kind, q, _, false in ev.read_events(buf[0]):
                if kind == ev.PASS:
                    checked += 1
                    assert q == seat and bool(false) == able
    assert checked > 100


# tests/data/faulty_whist.py, as it plays (random, writing only its scratch deal), beside random
# players alone: test_hardening_3.py seats it so, and one kernel serves both files, and both
# games (Whist and Scotch Whist share the dealt kernel parts)
FAULTY_WHIST = str(Path(__file__).resolve().parent / "data" / "faulty_whist.py")


@pytest.mark.parametrize("game", ["whist", "scotch"])
def test_a_users_strategy_plays_the_dealt_games_and_its_records_replay(game):
    spec = f"{FAULTY_WHIST}:decide:write=scratch"
    sim = whistsim.simulate(game, n=40, seed=2, strategies=[spec, "random", "random", "random"], records=3)
    assert sim.n == 40 and sim.records[0]["strategies"][0] == spec
    for i, rec in enumerate(sim.records):
        assert whistsim.judge(i, json.dumps(rec)).ok
    before = set(build._LOADED)  # test_hardening_3.py's seating: no kernel of its own
    whistsim.simulate("whist", n=1, seed=0, strategies=["random", "random", spec, "random"])
    assert set(build._LOADED) == before


def test_a_kernel_without_the_prelude_plays_the_same_games_when_no_prelude_decision_arises(monkeypatch):
    g, rules, ids, params, lean = _counter_seated(monkeypatch, 6)
    assert not welsh_players.prelude_used(rules)
    assert "_prelude" not in build.source(welsh_play, welsh_players, [0], prelude=False)
    k = build.kernel(welsh_play, welsh_players, [0], prelude=True)
    assert "_prelude" in build.source(welsh_play, welsh_players, [0], prelude=True) and k is not None
    monkeypatch.setenv("WHISTSIM_ALL_PLAYERS", "1")  # every player, prelude included
    full = g.play_batch(rules, ids, params, seed=6, n=300)
    for key in lean.seat:
        assert np.array_equal(lean.seat[key], full.seat[key])


# ---- a game defined outside whistsim, found by name --------------------------------------------


def _cli_run(*args, env):
    # -P: the current folder is not on the path, as for the installed `whistsim` command
    return subprocess.run([sys.executable, "-P", "-m", "whistsim", *map(str, args)], cwd=TOY.parent.parent,
                          env={**os.environ, **env}, capture_output=True, text=True, timeout=1200)  # fmt: skip


def test_a_game_named_in_whistsim_games_is_found_by_simulate_replay_and_show(tmp_path):
    env, path = {"WHISTSIM_GAMES": "tests.toy_game"}, tmp_path / "toy.jsonl"
    sim = _cli_run("simulate", "--game", "toy", "--n", 100, "--records", path, env=env)
    assert sim.returncode == 0, sim.stderr
    assert "tricks[0]" in sim.stdout and len(path.read_text().splitlines()) == 100
    replayed = _cli_run("replay", path, "--json", env=env)
    assert replayed.returncode == 0, replayed.stderr
    assert len(replayed.stdout.splitlines()) == 100
    shown = _cli_run("show", path, env=env)
    assert shown.returncode == 0 and "wins the trick" in shown.stdout, shown.stderr


@pytest.fixture
def fresh_registry(monkeypatch):
    """The registry as a new process has it: no game from outside whistsim imported yet."""
    from whistsim import games

    monkeypatch.setattr(games, "_GAMES", {})
    monkeypatch.setattr(games, "_OUTSIDE", [])
    monkeypatch.delenv("WHISTSIM_GAMES", raising=False)
    return games


def test_a_game_module_that_does_not_import_is_one_line_naming_it(fresh_registry, monkeypatch):
    monkeypatch.setenv("WHISTSIM_GAMES", "tests.toy_game, no_such_games_module")
    monkeypatch.chdir(TOY.parent.parent)
    r = CliRunner().invoke(main, ["simulate", "--game", "toy", "--n", "10"])
    assert r.exit_code != 0 and r.stdout == ""
    assert r.stderr.splitlines() == [
        "whistsim: error: WHISTSIM_GAMES: no_such_games_module does not import: "
        "ModuleNotFoundError: No module named 'no_such_games_module'"
    ]


def test_a_game_of_an_installed_entry_point_is_found_by_name(fresh_registry, monkeypatch, tmp_path):
    dist = tmp_path / "toygames-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: toygames\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[whistsim.games]\ntoy = toy_game:GAME\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert "toy" in fresh_registry.game_names()
    assert fresh_registry.get_game("toy") is toy_game.GAME
    (dist / "entry_points.txt").write_text("[whistsim.games]\nbroken = no_such_games_module:GAME\n")
    monkeypatch.setattr(fresh_registry, "_OUTSIDE", [])
    with pytest.raises(
        whistsim.WhistsimError, match=r"^entry point broken \(no_such_games_module:GAME\) does not"
    ):
        fresh_registry.get_game("broken")


def test_a_users_function_seated_in_the_toy_game_plays_its_cards_out_of_its_hand():
    # A hand-made pack of four cards, a user's function on both seats that plays its highest
    # card: each card is played once, every card leaves its hand and two tricks are counted. The
    # user's call once sat inlined beside the toy's inlined view and move, and the move's writes
    # to the state's arrays were lost: the AS stayed in its hand, was played again, no trick counted.
    from numba import njit

    from whistsim.core.cards import card_name, parse_card
    from whistsim.core.strategy import USER_BASE

    @njit
    def highest(v):
        hand = v.own.hand
        for c in range(51, -1, -1):
            if (hand[c // 13] >> (c % 13)) & 1:
                return c
        return -1

    k = build.kernel(toy_game.engine, toy_game.players, [], {USER_BASE: highest})
    pack = np.array([parse_card(c) for c in ("AS", "KS", "QS", "JS")], np.int64)
    buf = np.zeros(1, toy_game.engine.STATE_DTYPE)
    buf[0]["seats"]["strategy"][:] = USER_BASE
    log = np.full(8, -1, np.int16)
    done = k.play_game(buf[0], pack, np.int64(1), np.int64(0), np.int64(0), log, True, np.zeros(1, np.int64))
    assert tuple(done) == (0, 4, 0)
    played = [card_name(int(m) % k.MOVE_SEAT) for m in log[:4]]
    assert played[0] == "AS" and sorted(played) == ["AS", "JS", "KS", "QS"]
    assert buf[0]["seats"]["hand"].sum() == 0 and buf[0]["table"]["tricks"].sum() == 2


FORKED = """
import os, signal
import whistsim

whistsim.simulate("welsh", n=40, seed=1, threads=2)  # the batch's thread pool made here
pid = os.fork()
if pid == 0:
    signal.alarm(120)  # a child waiting for the parent's pool's threads waits for ever
    whistsim.simulate("welsh", n=40, seed=1, threads=2)
    os._exit(0)
_, status = os.waitpid(pid, 0)
print(status)
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork")
def test_a_forked_process_plays_its_batches_on_threads_of_its_own():
    import numba

    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("one thread: no pool")
    out = subprocess.run([sys.executable, "-c", FORKED], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[-1] == "0"  # the child ended, not killed by its alarm
