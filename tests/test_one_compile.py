"""Each Numba function of whistsim compiles once per argument types, never again for a literal.

Numba types a constant argument (``f(x, 0)``, ``f(v, True)``, or a local that starts as ``0``
before a loop counts it up) as ``Literal[int](0)`` and compiles the function for it besides the
``int64`` one that other callers need: a second compile of the same code. The runs of
``tests/data/typed_run.py`` take every game through its own loop and the shared one, pimc
included, as far as Numba's typing; then no function of whistsim
may hold two signatures that are one with their literals made plain, and the ones fixed for it
hold one signature.
"""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

# Played in a process of its own on an empty cache, so that every function it reaches is typed
# there, and with only the seated players compiled. That process types each function and does not
# lower it (Numba fixes a signature when it types the function and its callers), see its file.
TYPED_RUN = Path(__file__).parent / "data" / "typed_run.py"

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
    "whistsim.games.ohhell.engine.round_played",
]


@pytest.fixture(scope="module")
def signatures(tmp_path_factory) -> dict[str, list[str]]:
    env = {k: v for k, v in os.environ.items() if k != "WHISTSIM_ALL_PLAYERS"}
    env["NUMBA_CACHE_DIR"] = str(tmp_path_factory.mktemp("kernels"))
    # What little it compiles whole (the per-run values' functions), unoptimised: signatures are
    # fixed before LLVM optimises.
    env["NUMBA_OPT"] = "0"
    out = subprocess.run([sys.executable, str(TYPED_RUN)], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def _plain(sig: str) -> str:
    """A signature's text with its literals made plain (``Literal[int](0)`` as ``int64``)."""
    return re.sub(
        r"Literal\[(\w+)\]\([^)]*\)",
        lambda m: {"int": "int64", "bool": "bool"}.get(m.group(1), m.group(0)),
        sig,
    )


def test_no_function_is_compiled_again_for_a_literal_argument(signatures):
    twice = {}
    for name, sigs in signatures.items():
        plain = [_plain(s) for s in sigs]
        if len(set(plain)) < len(plain):
            twice[name] = sorted(sigs)
    assert twice == {}


@pytest.mark.parametrize("name", FIXED)
def test_a_function_once_called_with_a_literal_compiles_once(signatures, name):
    assert len(signatures[name]) == 1, signatures[name]
