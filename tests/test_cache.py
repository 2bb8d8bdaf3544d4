"""Each kernel is cached under a hash of what it is built from (its module and every module that
one imports), and nothing else: an edit to one game never recompiles another's kernels, and an
edited source is never run from a kernel compiled before the edit."""

import gc
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numba
import numpy as np
import pytest

import whistsim
from whistsim.core import cache as _cache
from whistsim.core import rng
from whistsim.core.cache import checkout_key, module_digest, prune, prune_kernels
from whistsim.core.imports import Graph, closure
from whistsim.harness import build

REPO = Path(whistsim.__file__).parent.parent


def _package(tmp_path):
    pkg = tmp_path / "pkg"
    for folder in ("games", "games/whist", "games/welsh"):
        (pkg / folder).mkdir(parents=True)
        (pkg / folder / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "games" / "whist" / "engine.py").write_text("from ...cards import ACE\nRULE = 1\n")
    (pkg / "games" / "welsh" / "players.py").write_text("from ...cards import ACE\nBID = 1\n")
    (pkg / "cards.py").write_text("ACE = 12\n")
    (pkg / "cli.py").write_text("from .games.whist import engine\nfrom .games.welsh import players\n")
    return pkg


def _key(pkg, module="pkg.games.whist.engine"):
    return module_digest(module, None, Graph(pkg))


def test_editing_the_engine_changes_its_cache_key(tmp_path):
    pkg = _package(tmp_path)
    before = _key(pkg)
    (pkg / "games" / "whist" / "engine.py").write_text("from ...cards import ACE\nRULE = 2\n")
    assert _key(pkg) != before


def test_editing_a_module_the_engine_imports_changes_its_cache_key(tmp_path):
    pkg = _package(tmp_path)
    before = _key(pkg)
    (pkg / "cards.py").write_text("ACE = 13\n")
    assert _key(pkg) != before


def test_editing_another_game_keeps_the_cache_key(tmp_path):
    pkg = _package(tmp_path)
    before, welsh = _key(pkg), _key(pkg, "pkg.games.welsh.players")
    (pkg / "games" / "welsh" / "players.py").write_text("from ...cards import ACE\nBID = 2\n")
    assert _key(pkg) == before and _key(pkg, "pkg.games.welsh.players") != welsh


def test_editing_the_cli_keeps_the_cache_key(tmp_path):
    pkg = _package(tmp_path)
    before = _key(pkg)
    (pkg / "cli.py").write_text("HELP = 'new wording'\n")
    assert _key(pkg) == before


def test_nothing_of_welsh_whist_is_in_what_the_whist_kernels_and_the_solver_are_built_from():
    graph = Graph()
    for module in ("whistsim.games.dealt.kernels", "whistsim.games.dealt.players", "whistsim.harness.loop",
                   "whistsim.harness.users", "whistsim.solver.position", "whistsim.solver.table"):  # fmt: skip
        used = closure(module, graph)
        assert not [m for m in used if m.startswith("whistsim.games.welsh")], module


def test_a_kernel_module_names_the_hash_of_the_modules_it_imports():
    from whistsim.games.dealt import kernels as play
    from whistsim.games.dealt import players

    text = build.source(play, players, [0, 1])
    digest = _cache.digest_of([play.__name__, "whistsim.harness.loop", players.__name__,
                               players.PLAYERS[0].__name__, players.PLAYERS[1].__name__])  # fmt: skip
    assert f"# Built from sources {digest}\n" in text
    assert "@template\n" in text and "\ntemplate = njit(cache=True)" in text  # the decorator, not a rewrite


def test_numba_caches_a_whistsim_function_under_its_modules_hash():
    if os.path.basename(numba.config.CACHE_DIR).startswith("whistsim-kernels-"):
        pytest.skip("the cache root is unwritable: a fresh temporary folder")
    assert os.path.basename(numba.config.CACHE_DIR) == checkout_key()
    digest = module_digest("whistsim.core.rng", rng.__file__)
    assert rng.stream_start.stats.cache_path == str(
        Path(numba.config.CACHE_DIR) / "modules" / "whistsim.core.rng" / digest
    )


def test_a_cache_dir_set_by_the_user_is_the_root_of_the_checkout_folder(tmp_path):
    # Else an edited player would run from a kernel cached before the edit.
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    code = "import whistsim, numba; print(numba.config.CACHE_DIR)"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == str(tmp_path / checkout_key())
    env["NUMBA_CACHE_DIR"] = out.stdout.strip()  # a child process keeps its parent's choice
    again = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert again.stdout.strip() == out.stdout.strip()


GAME = {
    "__init__.py": "",
    "rules.py": "from numba import njit\n\n\n@njit(cache=True)\ndef points():\n    return 1\n",
    "engine.py": (
        "from numba import njit\n\nfrom whistsim.core.cards import ACE\n\nfrom .rules import points\n\n\n"
        "@njit(cache=True)\ndef score():\n    return points() * 100 + ACE\n"
    ),
    "other.py": "from whistsim.core.cards import ACE\n\nBID = 1\n",  # a part the engine does not import
}
RUN = (
    "import whistsim\nfrom toygame.engine import score\nprint(score(), sum(score.stats.cache_hits.values()))"
)


def test_an_edit_to_a_module_a_cached_kernel_calls_takes_effect(tmp_path):
    # Numba alone would load score() from its cache after rules.py changed: its own file did not.
    game = tmp_path / "toygame"
    game.mkdir()
    for name, text in GAME.items():
        (game / name).write_text(text)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
           "PYTHONPATH": os.pathsep.join([str(tmp_path), str(REPO), os.environ.get("PYTHONPATH", "")])}  # fmt: skip

    def run():
        out = subprocess.run(
            [sys.executable, "-c", RUN], env=env, capture_output=True, text=True, cwd=tmp_path
        )
        assert out.returncode == 0, out.stderr
        return tuple(int(x) for x in out.stdout.split())

    ace = 12
    assert run() == (100 + ace, 0)  # compiled
    assert run() == (100 + ace, 1)  # from the cache
    (game / "other.py").write_text("from whistsim.core.cards import ACE\n\nBID = 2\n")
    assert run() == (100 + ace, 1)  # another part edited: still from the cache
    (game / "rules.py").write_text(GAME["rules.py"].replace("return 1", "return 2"))
    assert run() == (200 + ace, 0)  # compiled again, with the edit


def test_prune_removes_only_old_folders_beyond_the_newest(tmp_path):
    old = time.time() - 30 * 86400
    for i in range(5):
        (tmp_path / f"k{i}").mkdir()
        os.utime(tmp_path / f"k{i}", (old + i, old + i))
    (tmp_path / "fresh").mkdir()
    prune(tmp_path, keep=2)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fresh", "k4"]


def test_prune_removes_old_kernel_modules_and_numbas_cache_of_them(tmp_path):
    (tmp_path / "kernels").mkdir()
    (tmp_path / "kernels_abc").mkdir()
    old = time.time() - 30 * 86400
    for i, name in enumerate(["whistsim_kernel_old", "whistsim_kernel_new"]):
        path = tmp_path / "kernels" / f"{name}.py"
        path.write_text("")
        (tmp_path / "kernels_abc" / f"{name}.play_games-88.py311.nbi").write_bytes(b"")
        if i == 0:
            os.utime(path, (old, old))
    prune_kernels(tmp_path, keep=1)
    left = sorted(p.name for p in tmp_path.rglob("*") if p.is_file())
    assert left == ["whistsim_kernel_new.play_games-88.py311.nbi", "whistsim_kernel_new.py"]


# ---- two processes at once (the suite's workers, two runs) ----------------------------------------

SAVE = """
import sys, time
from pathlib import Path
from numba.core import caching
import whistsim  # saves under a lock
folder, tag = Path(sys.argv[1]), sys.argv[2]
while not (folder / "go").exists():
    time.sleep(0.001)
f = caching.IndexDataCacheFile(str(folder), "fn-1.py311", "stamp")
for i in range(60):
    f.save((tag, i), f"{tag} code {i}")
"""


def test_two_processes_saving_signatures_of_one_function_at_once_keep_each_ones_code(tmp_path):
    # Numba's own save: both took the first free file name, and the index named one's code for
    # the other's signature, or lost entries.
    from numba.core import caching

    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    procs = [subprocess.Popen([sys.executable, "-c", SAVE, str(tmp_path), tag], env=env) for tag in "ab"]
    time.sleep(2.0)  # both started, waiting
    (tmp_path / "go").touch()
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    f = caching.IndexDataCacheFile(str(tmp_path), "fn-1.py311", "stamp")
    assert {(t, i): f.load((t, i)) for t in "ab" for i in range(60)} == {
        (t, i): f"{t} code {i}" for t in "ab" for i in range(60)
    }


def test_imports_kept_by_two_processes_are_both_kept(tmp_path):
    path = tmp_path / _cache.IMPORTS_FILE
    _cache._keep_imports(path, {"a": ["x"]}, set())
    _cache._keep_imports(path, {"b": ["y"]}, set())  # started before the first kept its own
    assert json.loads(path.read_text()) == {"a": ["x"], "b": ["y"]}


def test_a_kernel_module_written_already_is_not_rewritten(tmp_path, monkeypatch):
    # Rewriting it changes its time stamp, so Numba's cache of it written by another process
    # meanwhile would be stale.
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    text = "X = 1\n# a kernel module written by two processes\n"
    path = tmp_path / "kernels" / f"{build._module_name(text)}.py"
    path.parent.mkdir()
    path.write_text(text)
    os.utime(path, (1e9, 1e9))
    assert build.load(text).X == 1
    assert path.stat().st_mtime == 1e9 and sorted(p.name for p in path.parent.iterdir()) == [path.name]


def test_a_kernel_module_edited_in_the_cache_is_replaced_not_imported(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    text = "X = 2\n# a kernel module edited in the cache\n"
    path = tmp_path / "kernels" / f"{build._module_name(text)}.py"
    path.parent.mkdir()
    path.write_text("X = 666\n")
    assert build.load(text).X == 2 and path.read_text() == text
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]


def test_numba_warning_that_a_function_cannot_be_cached_names_its_file():
    # It read the locator's _py_file, which SourcesLocator lacked (an AttributeError at NUMBA_OPT=0).
    import warnings
    from types import SimpleNamespace

    from numba.core import caching
    from numba.core.errors import NumbaWarning

    impl = caching.CompileResultCacheImpl(rng.stream_start.py_func)
    assert isinstance(impl.locator, _cache.SourcesLocator)
    cres = SimpleNamespace(lifted=[SimpleNamespace(can_cache=False)], fndesc=SimpleNamespace(qualname="f"))
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        assert impl.check_cachable(cres) is False
    assert [w.filename for w in seen if issubclass(w.category, NumbaWarning)] == [rng.__file__]


SLOW_KERNEL = """
import sys
import time
from pathlib import Path

from numba import njit, types
from numba.extending import intrinsic


@intrinsic
def one(typingctx):  # typed slowly, once: a long compile, announced by a file
    (Path(sys.argv[1]) / "compiling").touch()
    time.sleep(2.0)
    return types.int64(), lambda context, builder, sig, args: context.get_constant(types.int64, 1)


@njit(cache=True)
def f(x):
    return x + one()
"""
COMPILE = f"""
import sys, time
from pathlib import Path
from whistsim.harness import build
folder, role = Path(sys.argv[1]), sys.argv[2]
if role == "second":
    while not (folder / "compiling").exists():
        time.sleep(0.01)
k = build.load({SLOW_KERNEL!r})
print(k.f(1), sum(k.f.stats.cache_hits.values()), sum(k.f.stats.cache_misses.values()))
"""


def test_a_kernel_another_process_is_compiling_is_waited_for_and_loaded_not_compiled_again(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
           "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}  # fmt: skip
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", COMPILE, str(tmp_path), role], env=env, text=True, stdout=subprocess.PIPE
        )  # fmt: skip
        for role in ("first", "second")
    ]
    outs = [p.communicate(timeout=300)[0].split() for p in procs]
    assert [p.returncode for p in procs] == [0, 0]
    assert outs == [["2", "0", "1"], ["2", "1", "0"]]  # compiled by the first, loaded by the second


# ---- users' functions: keyed by what their code is built from ----------------------------------

HELPER = "from numba import njit\n\nSTEP = {step}\n\n\n@njit\ndef step():\n    return STEP\n"
USER = (
    "import numpy as np\nfrom numba import njit\n\nfrom whistsim.core.cards import ACE\n\n"
    "from {package}.helper import step\n\nW = np.array({weights})\n\n\n"
    "@njit\ndef decide(v):\n    return step() + W[0] + ACE\n"
)


def _user_package(tmp_path, package="mine", step=1, weights="[1, 2]"):
    pkg = tmp_path / package
    pkg.mkdir(exist_ok=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "helper.py").write_text(HELPER.format(step=step))
    (pkg / "strategy.py").write_text(USER.format(package=package, weights=weights))
    shutil.rmtree(pkg / "__pycache__", ignore_errors=True)  # a rewrite in the same second reads as unchanged
    return pkg


def _load_decide(tmp_path, package="mine"):
    """The user's function as a fresh import of its package (the modules of an earlier one dropped)."""
    for name in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
        del sys.modules[name]
    sys.path.insert(0, str(tmp_path))
    try:
        import importlib

        return importlib.import_module(f"{package}.strategy").decide
    finally:
        sys.path.remove(str(tmp_path))


def test_a_users_function_is_keyed_by_its_code_what_it_calls_and_the_values_it_reads(tmp_path):
    _user_package(tmp_path)
    first = _cache.function_digest(_load_decide(tmp_path))
    assert first is not None and _cache.function_digest(_load_decide(tmp_path)) == first  # same sources
    _user_package(tmp_path, step=2)  # a function it calls, in another file
    second = _cache.function_digest(_load_decide(tmp_path))
    _user_package(tmp_path, step=1, weights="[3, 2]")  # a global's value (frozen into the code)
    third = _cache.function_digest(_load_decide(tmp_path))
    assert len({first, second, third}) == 3
    _user_package(tmp_path)
    decide = _load_decide(tmp_path)
    decide.py_func.__globals__["W"] = np.array([9, 2])  # the value read, not the text, counts
    assert _cache.function_digest(decide) not in (first, None)


def test_an_edit_anywhere_in_a_users_file_changes_the_key(tmp_path):
    # An @overload or @intrinsic in the file changes compiled code the function's own text does not show.
    pkg = _user_package(tmp_path)
    first = _cache.function_digest(_load_decide(tmp_path))
    (pkg / "strategy.py").write_text((pkg / "strategy.py").read_text() + "\n# an overload here\n")
    assert _cache.function_digest(_load_decide(tmp_path)) != first


def test_a_users_file_edited_after_its_import_leaves_the_kernel_uncached(tmp_path, monkeypatch):
    # The code running is the old text's: keyed by the new text, a later run of the new text
    # would load it (an @overload edited in a helper changes no function's own code).
    monkeypatch.setattr(sys, "dont_write_bytecode", False)  # the import's stamp is its byte-code file
    for edited in ("helper.py", "strategy.py"):
        pkg = _user_package(tmp_path)
        decide = _load_decide(tmp_path)
        assert _cache.function_digest(decide) is not None
        (pkg / edited).write_text((pkg / edited).read_text() + "\n# edited after the import\n")
        assert _cache.function_digest(decide) is None, edited
        assert _cache.function_digest(_load_decide(tmp_path)) is not None  # imported again: keyed


def test_a_users_function_with_no_file_or_an_unknown_global_has_no_key(tmp_path, monkeypatch):
    from numba import njit

    space: dict = {"njit": njit, "TABLE": {1: 2}}
    exec("@njit\ndef typed_in(v):\n    return 1\n\n@njit\ndef reads_a_dict(v):\n    return TABLE[1]\n", space)
    assert _cache.function_digest(space["typed_in"]) is None  # a notebook's, python -c's: no file
    path = tmp_path / "reads.py"
    path.write_text(
        "from numba import njit\n\nTABLE = {1: 2}\n\n\n@njit\ndef decide(v):\n    return TABLE[1]\n"
    )
    spec = importlib.util.spec_from_file_location("reads", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert _cache.function_digest(module.decide) is None  # not importable by its name: cannot be loaded
    monkeypatch.setitem(sys.modules, "reads", module)
    assert _cache.function_digest(module.decide) is None  # a dict: no hash of its value here
    path.write_text(path.read_text().replace("{1: 2}", "(1, 2)"))
    spec.loader.exec_module(module)
    assert _cache.function_digest(module.decide) is not None  # a tuple has one


def test_a_strategy_file_is_keyed_by_the_text_it_was_run_from(tmp_path):
    # Edited between its loading and the kernel's build, the key is still the text that ran.
    from whistsim.core.strategy import load_user, parse_spec, user_function
    from whistsim.games import get_game

    path = tmp_path / "low.py"
    path.write_text(f"from numba import njit\n\n\n@njit\ndef decide(v):\n    return 0  # {tmp_path}\n")
    registry = get_game("welsh").players
    fn = user_function(load_user(registry, parse_spec(f"{path}:decide"), 0)[0])
    before = _cache.function_digest(fn)
    path.write_text(path.read_text().replace("return 0", "return 1"))
    assert _cache.function_digest(fn) == before and before is not None


# Both child scripts below: the toy game taking users' functions, and the kernels' functions
# each compiles counted (Numba's compile events).
COUNTED_TOY = """
from numba.core import event
import toy_game
from whistsim.harness.users import user_checker

object.__setattr__(toy_game.GAME.players, "check_user", user_checker(toy_game.engine))  # takes users'
compiled = []


class Count(event.Listener):
    def on_start(self, ev):
        fn = getattr(ev.data.get("dispatcher"), "py_func", None)
        if (getattr(fn, "__module__", None) or "").startswith("whistsim_kernel_"):
            compiled.append(fn.__name__)

    def on_end(self, ev):
        pass


event.register("numba:compile", Count())
"""
USER_RUN = (
    COUNTED_TOY
    + """
import sys
import whistsim

sim = whistsim.simulate("toy", n=20, seed=1, strategies=[sys.argv[1] + ":decide", "random"], threads=1, records=3)
print(",".join(m for r in sim.records for m in r["moves"]), len(compiled))  # what the strategy chose
"""
)
LOW_OR_HIGH = """
from numba import njit

# {token}


@njit
def decide(v):
    hand, led = v.own.hand, v.table.led
    for i in range(52):
        c = {order}
        s = c // 13
        if (hand[s] >> (c % 13)) & 1 and (led < 0 or hand[led] == 0 or s == led):
            return c
    return -1
"""


def _user_runs(tmp_path, path, n=1):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(REPO / "tests"), os.environ.get("PYTHONPATH", "")])}  # fmt: skip
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", USER_RUN, str(path)],
            env=env,
            text=True,
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )  # fmt: skip
        for _ in range(n)
    ]
    outs = [p.communicate(timeout=600) for p in procs]
    assert [p.returncode for p in procs] == [0] * n, outs
    return [(o.split()[0], int(o.split()[1])) for o, _ in outs]


def test_a_users_kernel_is_compiled_once_and_cached_until_the_users_file_changes(tmp_path):
    # The suite's cache folder (the toy game's own functions cached there); the token makes the
    # strategy's text new to it. Two processes at once: one compiles, the other loads what it
    # compiled (it waited, or came after).
    path = tmp_path / "lowest.py"
    path.write_text(LOW_OR_HIGH.format(token=tmp_path, order="i"))
    (low, n), (again, m) = _user_runs(tmp_path, path, n=2)
    assert low == again and sorted([n, m])[0] == 0 and n + m > 0
    path.write_text(LOW_OR_HIGH.format(token=tmp_path, order="51 - i"))
    [(high, compiles)] = _user_runs(tmp_path, path)
    assert compiles > 0 and high != low  # the edit took effect


ORDER_RUN = (
    COUNTED_TOY
    + """
import json, sys
import whistsim
from whistsim.core.strategy import parse_spec
from whistsim.games import seating
from whistsim.harness import build

specs = [p + ":decide" for p in sys.argv[1:]]
ids = seating("toy", [parse_spec(s) for s in specs], 2)[0]  # registered in this order
low, high = sorted(specs)
out = {"ids": [int(i) for i in ids], "runs": []}
for seats in ([high, "random"], [high, low], [low, high]):
    before = set(build._LOADED)
    sim = whistsim.simulate("toy", n=20, seed=1, strategies=seats, threads=1, records=3)
    out["runs"].append([sorted(set(build._LOADED) - before), [r["moves"] for r in sim.records]])
out["compiled"] = compiled
print(json.dumps(out))
"""
)


def test_a_users_kernel_is_the_same_whatever_order_its_functions_were_registered_in(tmp_path):
    # A kernel's text named a user by its id in this process (the order its file was loaded), so
    # another process that loaded another user's file first compiled the same kernel again.
    paths = []
    for name, order in (("low", "i"), ("high", "51 - i")):
        paths.append(tmp_path / f"{name}.py")
        paths[-1].write_text(LOW_OR_HIGH.format(token=tmp_path, order=order))  # new to the cache
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(REPO / "tests"), os.environ.get("PYTHONPATH", "")])}  # fmt: skip
    env.pop("WHISTSIM_ALL_PLAYERS", None)
    runs = []
    for order in (paths, paths[::-1]):
        out = subprocess.run([sys.executable, "-c", ORDER_RUN, *map(str, order)], env=env, cwd=tmp_path,
                             capture_output=True, text=True, timeout=600)  # fmt: skip
        assert out.returncode == 0, out.stderr
        runs.append(json.loads(out.stdout))
    first, second = runs
    assert first["ids"] == second["ids"] == [1000, 1001]  # by seat: each function has the other id there
    assert first["compiled"] and second["compiled"] == []  # the second loaded every kernel the first compiled
    assert first["runs"] == second["runs"]  # the same modules, the same games
    assert all(kernels for kernels, _ in first["runs"][:2])


def test_two_users_functions_with_no_hash_seated_alike_are_two_kernels():
    # Their text named them by their ids once; now by their hashes, and these have none (typed in).
    import toy_game
    from numba import njit

    from whistsim.core.strategy import USER_BASE

    space: dict = {"njit": njit}
    exec("@njit\ndef one(v):\n    return 0\n\n@njit\ndef other(v):\n    return 1\n", space)
    one, other = space["one"], space["other"]
    assert _cache.function_digest(one) is None and _cache.function_digest(other) is None
    texts = [build.source(toy_game.engine, toy_game.players, [], {USER_BASE: fn}) for fn in (one, other, one)]
    assert texts[0] != texts[1] and texts[0] == texts[2] and not build.cacheable(texts[0])


def _threshold_seen() -> int:
    """Numba only: 0. Typing a call records the collector's first threshold at that moment."""
    return 0


_SEEN: list[int] = []


@numba.extending.overload(_threshold_seen)
def _threshold_seen_typed():
    _SEEN.append(gc.get_threshold()[0])
    return lambda: 0


def test_a_compile_runs_with_the_collectors_passes_rarer_and_its_thresholds_back_after():
    """A compile's objects are mostly kept to its end: the collector passing over them at Python's
    default thresholds took an eighth of a kernel's compile (core/cache.py)."""

    @numba.njit
    def typed():
        return _threshold_seen()

    before = gc.get_threshold()
    assert before[0] < _cache.COMPILE_GC_THRESHOLD
    assert typed() == 0
    assert _SEEN == [_cache.COMPILE_GC_THRESHOLD]
    assert gc.get_threshold() == before


def _threshold_seen_off() -> int:
    """Numba only: 0. Like :func:`_threshold_seen`, for the test below (typed once per function)."""
    return 0


@numba.extending.overload(_threshold_seen_off)
def _threshold_seen_off_typed():
    _SEEN.append(gc.get_threshold()[0])
    return lambda: 0


def test_a_compile_leaves_automatic_collection_off_where_the_process_turned_it_off():
    @numba.njit
    def typed():
        return _threshold_seen_off()

    before = gc.get_threshold()
    gc.set_threshold(0)
    try:
        assert typed() == 0
        assert _SEEN[-1] == 0 and gc.get_threshold()[0] == 0
    finally:
        gc.set_threshold(*before)
