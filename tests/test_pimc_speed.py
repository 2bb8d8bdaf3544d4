"""A faster pimc makes the same decisions: games replayed against ``golden/pimc_games.json``
(written from pimc before its speed work, by ``golden/pimc_games.py``)."""

import json

import numpy as np
import pytest
from golden.pimc_games import CASES, PATH, play
from numba import njit

import whistsim
from whistsim.games.dealt import records as R
from whistsim.games.dealt.engine import S_SEAT, apply, only_card
from whistsim.games.dealt.players.pimc import _last_trick, _value
from whistsim.games.scotch.rules import ScotchRules
from whistsim.games.whist.rules import WhistRules

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


@njit(cache=True)  # cached: a second run of the suite loads it
def _both(buf, sides):
    """Each side's value of the last trick by pimc's ``_last_trick``, then by playing it out."""
    c = buf[0].core
    fast = np.array([_last_trick(c, x) for x in range(sides)])
    while c.table.s[0] == 0:
        apply(c, only_card(c.seats[c.table.s[S_SEAT]]))
    return fast, np.array([_value(c, x) for x in range(sides)])


def test_last_trick_is_valued_as_the_engine_scores_it():
    """pimc values a play-out's last trick without playing it: the same value for every side as
    playing it through the engine (Whist tricks; Scotch and French points, several sets)."""
    cases = [
        ("whist", WhistRules, {}, None, 2),
        ("scotch", ScotchRules, {}, None, 2),
        ("scotch", ScotchRules, {"players": 2}, None, 2),
        ("scotch", ScotchRules, {"players": 5, "odd_six": "aside"}, "french", 5),
    ]
    for game, rules_cls, rules, preset, sides in cases:
        n = 12
        sim = whistsim.simulate(game, n, 4, preset=preset, rules={"unit": "deal", **rules},
                                strategies=["heuristic"], records=n)  # fmt: skip
        for rec in sim.records[:n]:
            p = len(rec["hands"][0])
            d = R.load(game, rules_cls, dict(rec, moves=rec["moves"][:-p]))
            R.start(d.buf, np.int64(d.dealer), np.int64(d.turnup), np.int64(d.aside))
            for card in d.cards:
                R.step(d.buf, int(card))
            fast, played = _both(d.buf, sides)
            assert (fast == played).all(), (game, rules, fast, played)
