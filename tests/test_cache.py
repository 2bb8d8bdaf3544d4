"""The kernel cache folder follows the sources, so an edited engine is never served stale."""

import os

import numba
import pytest

from whistsim._cache import cache_root, sources_hash


def test_editing_any_source_file_changes_the_cache_key(tmp_path):
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "engine.py").write_text("RULE = 1\n")
    (tmp_path / "play.py").write_text("KERNEL = 1\n")
    before = sources_hash(tmp_path)
    (tmp_path / "games" / "engine.py").write_text("RULE = 2\n")
    assert sources_hash(tmp_path) != before


def test_unchanged_sources_keep_their_cache_key(tmp_path):
    (tmp_path / "engine.py").write_text("RULE = 1\n")
    assert sources_hash(tmp_path) == sources_hash(tmp_path)


def test_numba_caches_whistsim_kernels_under_the_source_hash():
    if not os.environ.get("NUMBA_CACHE_DIR", "").startswith(str(cache_root())):
        pytest.skip("NUMBA_CACHE_DIR was chosen by the user (or the cache root is unwritable)")
    assert numba.config.CACHE_DIR == str(cache_root() / sources_hash())
