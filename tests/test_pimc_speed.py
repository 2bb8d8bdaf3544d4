"""A faster pimc makes the same decisions: games replayed against ``golden/pimc_games.json``
(written from pimc before its speed work, by ``golden/pimc_games.py``)."""

import json

import pytest
from golden.pimc_games import CASES, PATH, play

GOLDEN = json.loads(PATH.read_text(encoding="utf-8"))


def test_every_case_is_pinned():
    assert sorted(GOLDEN) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_pimc_games_are_unchanged(name):
    got = play(CASES[name])
    want = GOLDEN[name]
    changed = [i for i, (a, b) in enumerate(zip(got["records"], want["records"], strict=False)) if a != b]
    assert not changed, f"records {changed} of {len(want['records'])} differ"
    assert got["records"] == want["records"]
    assert got["summary"] == want["summary"]
