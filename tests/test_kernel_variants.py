"""A batch run's kernel compiles only what the run can reach: the conditions a game's template marks
``per_run`` (a constraint given, the game's own loop playing every deal) are taken once before the
run and written into the kernel as True or False, so Python drops the branches not taken before
Numba reads them; each set of values is a kernel module of its own (docs/architecture.md)."""

import numpy as np
import pytest

from whistsim.core.strategy import parse_spec
from whistsim.deals.constraints import compile_where
from whistsim.games import get_game, seating
from whistsim.games.dealt import kernels as dealt_play
from whistsim.games.dealt import players as dealt_players
from whistsim.games.ohhell import kernels as ohhell_play
from whistsim.games.ohhell import players as ohhell_players
from whistsim.games.welsh import engine as welsh_engine
from whistsim.games.welsh import kernels as welsh_play
from whistsim.games.welsh import players as welsh_players
from whistsim.harness import batch, build

W_RANDOM = welsh_players.PLAYERS.index(welsh_players.random)
D_RANDOM = dealt_players.PLAYERS.index(dealt_players.random)


def _names(parts, players, ids, per_run):
    module = build.load(build.source(parts, players, ids, per_run=per_run))
    return {getattr(getattr(f, "py_func", f), "__name__", "") for f in build.reached(module)}, module


def test_a_plain_welsh_run_reaches_neither_the_shared_loop_nor_the_constraint_dealer():
    names, module = _names(welsh_play, welsh_players, [W_RANDOM], (False, True, False))
    assert {"_plain_deal", "deal_stock", "reset", "record"} <= names
    assert not names & {"play_deal", "decide", "check_move", "_deal_where", "draw_deal"}
    assert build.reach(module, welsh_play)[0] is False


def test_a_welsh_run_through_the_shared_loop_under_a_constraint_reaches_both_and_not_the_own_loop():
    names, module = _names(welsh_play, welsh_players, [W_RANDOM], (True, False, False))
    assert {"play_deal", "decide", "_deal_where"} <= names
    assert not names & {"_plain_deal", "deal_stock"}
    assert build.reach(module, welsh_play)[0] is True


def test_random_whist_reaches_only_its_random_loop():
    names, _ = _names(dealt_play, dealt_players, [D_RANDOM], (False, True, True))
    assert "_random_deal" in names
    assert not names & {"_plain_deal", "play_deal", "decide", "draw_deal"}
    names, _ = _names(dealt_play, dealt_players, [D_RANDOM], (True, False, True))  # heuristic seated
    assert {"_plain_deal", "draw_deal"} <= names and not names & {"_random_deal", "play_deal"}


def test_a_kernel_for_no_run_in_particular_tests_the_conditions_as_written():
    text = build.source(welsh_play, welsh_players, [W_RANDOM])
    assert "if (extra.shape[0] > 1):" in text and "if (extra[0] == 0 and _all_plain(g)):" in text
    assert "per_run(" not in text and "# per run:" not in text
    fixed = build.source(welsh_play, welsh_players, [W_RANDOM], per_run=(False, True, False))
    assert "if False:" in fixed and "if True:" in fixed and "# per run: extra.shape[0] > 1 = False" in fixed
    other = build.source(welsh_play, welsh_players, [W_RANDOM], per_run=(False, False, False))
    assert build._module_name(fixed) != build._module_name(other)  # a module, and a cache, per variant


def test_a_wrong_number_of_per_run_values_is_refused():
    with pytest.raises(TypeError, match="1 per-run values for 3 conditions"):
        build.source(welsh_play, welsh_players, [W_RANDOM], per_run=(True,))


def test_a_per_run_condition_may_read_only_g_and_extra():
    ok = (
        "def play_game(g, base_deck, seed, game, first, log, logging, extra):\n"
        "    if per_run(extra[0] == 0 and f(g)):\n        return 1\n"
    )
    assert [c for _, _, c in build._marks(ok)] == ["extra[0] == 0 and f(g)"]
    arg = ok.replace("f(g)", "first > 0")
    with pytest.raises(TypeError, match="reads first"):
        build._marks(arg)
    local = ok.replace("    if per_run(", "    c = g.core\n    if per_run(").replace("f(g)", "f(c)")
    with pytest.raises(TypeError, match="reads c"):
        build._marks(local)


def test_the_per_run_values_are_those_of_the_run(monkeypatch):
    seen = []
    real = batch.per_run_values
    monkeypatch.setattr(batch, "per_run_values", lambda *a: seen.append(real(*a)) or seen[-1])
    welsh = get_game("welsh")
    rules = welsh.make_rules(None, 3, {})

    def run(specs, **kw):
        ids, params = seating("welsh", [parse_spec(s) for s in specs], 3)
        welsh_play.play_batch(rules, ids, params, seed=1, n=4, **kw)
        return seen[-1]

    assert run(["random"]) == (False, True, False)  # no greedy seat: greedy's code is not compiled
    assert run(["random", "greedy", "random"]) == (False, True, True)
    assert run(["random"], shared_loop=True) == (False, False, False)
    assert run(["hunter", "random", "random"]) == (False, False, False)
    where = compile_where("top12.tens >= 1", "welsh", rules).program
    assert run(["random"], where=where) == (True, True, False)
    oh = get_game("ohhell").make_rules(None, 4, {})
    ids, params = seating("ohhell", [parse_spec("random")], 4)
    ohhell_play.play_batch(oh, ids, params, seed=1, n=4)
    assert seen[-1] == (True,)  # Oh Hell's own loop for random seats
    ohhell_play.play_batch(oh, ids, params, seed=1, n=4, shared_loop=True)
    assert seen[-1] == (False,)


def test_a_compile_is_announced_by_what_the_run_reaches(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "0123abcd"))
    monkeypatch.setattr(build, "_announced", {})
    for per_run, shared in (((False, True, False), False), ((False, False, False), True)):
        text = build.source(welsh_play, welsh_players, [W_RANDOM], per_run=per_run)
        module = build.load(text)
        line = build.announce_compile(text, welsh_play, 2, True, False, module)
        key, units = build._announced[build._module_name(text)]
        assert line is not None and line.startswith("whistsim: compiling the kernel for these players")
        assert (build.OWN_LOOP not in key) == shared and units == (2 if shared else 1)
    assert np.all([x.startswith("whistsim: compiling") for x in capsys.readouterr().err.splitlines()])


def test_the_suites_setting_shares_one_kernel_with_the_conditions_as_written(monkeypatch):
    monkeypatch.setenv("WHISTSIM_ALL_PLAYERS", "1")
    one = build.kernel(welsh_play, welsh_players, [W_RANDOM], per_run=(False, True, False))
    assert build.kernel(welsh_play, welsh_players, [0, 1], per_run=(True, False, False)) is one
    assert build.kernel(welsh_play, welsh_players, [W_RANDOM]) is one
    text = open(one.__file__).read()
    assert "if (extra.shape[0] > 1):" in text and "# per run:" not in text


@pytest.mark.parametrize(
    ("game", "where"), [("welsh", "top12.tens >= 1"), ("whist", None), ("scotch", None), ("ohhell", None)]
)
def test_a_run_through_its_per_run_kernel_plays_the_games_of_the_kernel_as_written(monkeypatch, game, where):
    """What the suite's setting stands on: a run's kernel with its per-run values written in plays the
    same games as the one kernel the suite compiles (conditions tested as written, every player)."""
    used = []
    real = batch.kernel
    monkeypatch.setattr(batch, "kernel", lambda *a, **kw: used.append(real(*a, **kw)) or used[-1])
    g = get_game(game)
    rules = g.make_rules(None, 4 if game != "welsh" else 3, {})
    ids, params = seating(game, [parse_spec("random")], rules.players)
    kw = {} if where is None else {"where": compile_where(where, game, rules).program}
    parts = {"welsh": welsh_play, "ohhell": ohhell_play}.get(game, dealt_play)
    runs = []
    for every in ("", "1"):
        monkeypatch.setenv("WHISTSIM_ALL_PLAYERS", every)
        runs.append(parts.play_batch(rules, ids, params, seed=5, n=60, log_games=3, **kw))
    per_run, as_written = (open(k.__file__).read() for k in used)
    assert "# per run:" in per_run and "# per run:" not in as_written and "per_run(" not in as_written
    a, b = runs
    for k in a.seat:
        assert np.array_equal(a.seat[k], b.seat[k]), k
    for k in a.game:
        assert np.array_equal(a.game[k], b.game[k]), k
    assert all(np.array_equal(x, y) for x, y in zip(a.logs, b.logs, strict=True))


@pytest.mark.parametrize(("parts", "players"), [(welsh_play, welsh_players), (dealt_play, dealt_players)])
def test_the_players_switch_is_inlined_for_a_seating_and_compiled_once_for_every_player(parts, players):
    """Inlined, the switch's players are compiled again at each of its callers (the shared loop,
    ``decide_now``); holding every built-in player (the suite's kernel), it is a function of its own."""
    few = build.source(parts, players, range(len(players.PLAYERS) - 1))
    every = build.source(parts, players, range(len(players.PLAYERS)))
    assert '@njit(cache=True, inline="always")\ndef decide(sid, v):' in few
    assert "@njit(cache=True)\ndef decide(sid, v):" in every


@pytest.mark.parametrize(
    ("parts", "players"),
    [(welsh_play, welsh_players), (dealt_play, dealt_players), (ohhell_play, ohhell_players)],
)
def test_play_game_is_inlined_into_play_games_in_the_every_player_kernel_alone(parts, players):
    """Compiled on its own, ``play_game`` links all it calls (every player) into its module and
    optimises it, and ``play_games``, its one caller, does so again: in the every-player kernel (the
    suite's) it is inlined; a seating's kernel keeps it a function of its own (its text unchanged)."""
    every = build.load(build.source(parts, players, range(len(players.PLAYERS))))
    few = build.load(build.source(parts, players, [0]))
    assert every.play_game.targetoptions.get("inline") == "always"
    assert few.play_game.targetoptions.get("inline") is None
    assert "\ntemplate = njit(cache=True)  #" in build.source(parts, players, [0])


def test_the_dd_players_entry_is_inlined_into_the_switch_that_calls_it():
    """``dd.decide`` compiled on its own linked the solver and pimc into a module of its own and
    optimised them there, then again in the switch, its one caller (some 5 s of the dealt
    every-player kernel's cold compile); inlined, the solver's functions are its calls."""
    every = build.load(build.source(dealt_play, dealt_players, range(len(dealt_players.PLAYERS))))
    assert dealt_players.dd.decide.targetoptions.get("inline") == "always"
    assert (
        "_player3.decide(v)" in open(every.__file__).read() and dealt_players.PLAYERS[3] is dealt_players.dd
    )


def test_welsh_moves_in_the_every_player_loop_and_a_step_are_the_engines_one_compile_of_its_rules():
    """Holding every player (the suite's kernel), the shared loop makes each move by the engine's
    ``try_apply`` (compiled once, pimc calls it too), as the table's ``step`` does, instead of typing
    ``check`` and ``apply`` into each again; a seating's loop keeps them inlined (users' speed)."""
    every = build.load(build.source(welsh_play, welsh_players, range(len(welsh_players.PLAYERS))))
    few = build.load(build.source(welsh_play, welsh_players, [W_RANDOM]))
    assert welsh_engine.try_apply in build.reached(every)
    assert welsh_engine.try_apply not in build.reached(few)
    assert welsh_engine.try_apply in build.reached(build.kernel(welsh_play, None), "step")
