"""The kernel cache folder follows what the kernels are built from, and nothing else."""

import os
import subprocess
import sys
import time

import numba
import pytest

from whistsim._cache import prune, sources_hash


def _package(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "games").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "games" / "__init__.py").write_text("from . import engine\n")
    (pkg / "games" / "engine.py").write_text("from ..cards import ACE\nRULE = 1\n")
    (pkg / "cards.py").write_text("ACE = 12\n")
    (pkg / "cli.py").write_text("HELP = 'old'\n")
    return pkg


def test_editing_the_engine_changes_the_cache_key(tmp_path):
    pkg = _package(tmp_path)
    before = sources_hash(pkg)
    (pkg / "games" / "engine.py").write_text("from ..cards import ACE\nRULE = 2\n")
    assert sources_hash(pkg) != before


def test_editing_a_module_the_engine_imports_changes_the_cache_key(tmp_path):
    pkg = _package(tmp_path)
    before = sources_hash(pkg)
    (pkg / "cards.py").write_text("ACE = 13\n")
    assert sources_hash(pkg) != before


def test_editing_the_cli_keeps_the_cache_key(tmp_path):
    pkg = _package(tmp_path)
    before = sources_hash(pkg)
    (pkg / "cli.py").write_text("HELP = 'new wording'\n")
    assert sources_hash(pkg) == before


def test_prune_removes_only_old_folders_beyond_the_newest(tmp_path):
    old = time.time() - 30 * 86400
    for i in range(5):
        (tmp_path / f"k{i}").mkdir()
        os.utime(tmp_path / f"k{i}", (old + i, old + i))
    (tmp_path / "fresh").mkdir()
    prune(tmp_path, keep=2)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fresh", "k4"]


def test_numba_caches_whistsim_kernels_under_the_source_hash():
    if os.path.basename(numba.config.CACHE_DIR).startswith("whistsim-kernels-"):
        pytest.skip("the cache root is unwritable: a fresh temporary folder")
    assert os.path.basename(numba.config.CACHE_DIR) == sources_hash()


def test_a_cache_dir_set_by_the_user_is_the_root_of_the_source_hash_folders(tmp_path):
    # Else an edited player would run from a kernel cached before the edit.
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    code = "import whistsim, numba; print(numba.config.CACHE_DIR)"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == str(tmp_path / sources_hash())
    env["NUMBA_CACHE_DIR"] = out.stdout.strip()  # a child process keeps its parent's choice
    again = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert again.stdout.strip() == out.stdout.strip()


def test_editing_a_game_found_by_name_changes_the_cache_key(tmp_path):
    pkg = _package(tmp_path)
    (pkg / "games" / "welsh").mkdir()
    (pkg / "games" / "welsh" / "__init__.py").write_text("RULE = 'lead'\n")  # imported by name only
    before = sources_hash(pkg)
    (pkg / "games" / "welsh" / "__init__.py").write_text("RULE = 'draw'\n")
    assert sources_hash(pkg) != before
