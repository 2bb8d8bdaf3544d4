"""Kernels compiled at one optimisation level (``NUMBA_OPT``) are never loaded at another."""

import os
import subprocess
import sys
from pathlib import Path

from whistsim.core.cache import checkout_key

HASH = checkout_key()[:16]

RUN = (
    "import whistsim, numba\nfrom whistsim.core.rng import stream_start\nstream_start(1, 2, 3)\n"
    "print(numba.config.CACHE_DIR, sum(stream_start.stats.cache_hits.values()))"
)


def test_the_level_names_the_cache_folder_so_no_level_loads_anothers_kernels(tmp_path):
    # Numba's cache index is keyed by signature, CPU and bytecode, not by the level it optimised at.
    def run(opt, cache=str(tmp_path)):
        env = {k: v for k, v in os.environ.items() if k != "NUMBA_OPT"}
        env["NUMBA_CACHE_DIR"] = cache
        if opt is not None:
            env["NUMBA_OPT"] = opt
        out = subprocess.run([sys.executable, "-c", RUN], env=env, capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        folder, hits = out.stdout.split()
        return Path(folder).name, int(hits)

    assert run(None) == (HASH, 0)  # the default level: compiled
    assert run("1") == (HASH + "-O1", 0)  # compiled again, not loaded from the default's folder
    assert run(None) == (HASH, 1)  # the default's kernel, not the one compiled at level 1
    assert run("1") == (HASH + "-O1", 1)
    assert run("max") == (HASH + "-Omax", 0)
    assert run("3") == (HASH, 1)  # the default, named
    # A child at another level than the process that chose its folder: the folder of its own level.
    assert run(None, cache=str(tmp_path / (HASH + "-O1"))) == (HASH, 1)
    assert run("1", cache=str(tmp_path / HASH)) == (HASH + "-O1", 1)
