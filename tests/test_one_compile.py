"""Each Numba function of whistsim compiles once per argument types, never again for a literal.

Numba types a constant argument (``f(x, 0)``, ``f(v, True)``, or a local that starts as ``0``
before a loop counts it up) as ``Literal[int](0)`` and compiles the function for it besides the
``int64`` one that other callers need: a second compile of the same code. The runs below play
every game through its own loop and the shared one, pimc included, in a fresh process; then no
function of whistsim may hold a literal signature, and the ones fixed for it hold one signature.
"""

import json
import os
import subprocess
import sys

import pytest

WORKLOADS = r"""
import json, sys, warnings
import whistsim
from numba.core.dispatcher import Dispatcher

warnings.simplefilter("ignore")
whistsim.simulate("welsh", n=20, seed=3)
whistsim.simulate("welsh", n=2, seed=3, strategies=["pimc:budget=4", "hunter", "hoarder"])
whistsim.simulate("whist", n=4, seed=3)
whistsim.simulate("whist", n=1, seed=3, strategies=["pimc:worlds=2", "heuristic", "random", "heuristic"])
whistsim.simulate("ohhell", n=2, seed=3)
found = {}
for name, module in list(sys.modules.items()):
    if name.startswith("whistsim"):
        for fn in list(vars(module).values()):
            if isinstance(fn, Dispatcher):
                key = fn.py_func.__module__ + "." + fn.py_func.__qualname__
                found[key] = [str(sig) for sig in fn.overloads]
json.dump(found, sys.stdout)
"""

# Called with a literal somewhere before (issue 35), each now with typed arguments alone.
FIXED = [
    "whistsim.core.rng.stream_start",
    "whistsim.games.welsh.players.common.lead_high",
    "whistsim.games.welsh.engine.empty_hand",
    "whistsim.games.welsh.engine._move_hand_to_pile",
    "whistsim.games.welsh.engine.count_tens",
    "whistsim.games.dealt.engine.load_set",
    "whistsim.games.dealt.kernels._tally_deal",
    "whistsim.games.dealt.players.pimc._prepare",
    "whistsim.games.ohhell.engine.start_round",
]


@pytest.fixture(scope="module")
def signatures() -> dict[str, list[str]]:
    out = subprocess.run(
        [sys.executable, "-c", WORKLOADS], env=dict(os.environ), capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_no_function_is_compiled_for_a_literal_argument(signatures):
    literal = {name: sigs for name, sigs in signatures.items() if any("Literal[" in s for s in sigs)}
    assert literal == {}


@pytest.mark.parametrize("name", FIXED)
def test_a_function_once_called_with_a_literal_compiles_once(signatures, name):
    assert len(signatures[name]) == 1, signatures[name]
