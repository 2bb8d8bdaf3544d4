"""The ``dd`` player: open-hand search over deals sampled from what its seat has seen."""

from __future__ import annotations

import json

import numpy as np
import pytest
from test_dealt_support import hidden_exchanges

import whistsim
from whistsim.core.strategy import parse_spec
from whistsim.games import seating
from whistsim.games.dealt import records as R
from whistsim.games.dealt.engine import S_SEAT
from whistsim.games.dealt.kernels import decide_now as decide_in
from whistsim.games.dealt.players.pimc import sample_deal
from whistsim.games.scotch.rules import ScotchRules
from whistsim.games.whist.rules import WhistRules
from whistsim.solver.position import Position

CASES = [
    ("whist", WhistRules, {}, "dd:worlds=3,tricks=5", 36),
    ("scotch", ScotchRules, {}, "dd:worlds=3", 20),
]


def state_at(game, rules_cls, rec, cut, spec):
    """The engine state after ``cut`` moves of a record, every seat played by ``spec``."""
    d = R.load(game, rules_cls, dict(rec, moves=rec["moves"][:cut]))
    R.start(d.buf, np.int64(d.dealer), np.int64(d.turnup), np.int64(d.aside))
    for card in d.cards:
        R.step(d.buf, int(card))
    ids, params = seating(game, [parse_spec(spec)], d.rules.players)
    core = d.buf[0]["core"]
    core["seats"]["strategy"][: d.rules.players] = ids
    core["seats"]["params"][: d.rules.players] = params
    core["seats"]["rng"][: d.rules.players, 0] = np.arange(1, d.rules.players + 1) * 977
    return d.rules, d.buf


@pytest.mark.parametrize("game,rules_cls,rules,spec,cut", CASES)
def test_dd_plays_whole_deals_by_the_rules(game, rules_cls, rules, spec, cut):
    sim = whistsim.simulate(game, 3, 8, rules={**rules, "unit": "deal"}, strategies=[spec], records=3)
    for rec in sim.records:
        assert whistsim.judge(0, json.dumps(rec)).ok


@pytest.mark.parametrize("game,rules_cls,rules,spec,cut", CASES)
def test_dd_plays_the_card_with_the_best_total_open_hand_value(game, rules_cls, rules, spec, cut):
    rec = whistsim.simulate(game, 1, 3, rules={"unit": "deal"}, strategies=["heuristic"], records=1).records[
        0
    ]
    for at in (cut, cut + 1, cut + 2):
        r, buf = state_at(game, rules_cls, rec, at, spec)
        core = buf[0]["core"]
        seat = int(core["table"]["s"][S_SEAT])
        chosen = int(decide_in(buf.copy()))
        # The same samples, from the same stream, solved one by one in Python.
        probe = buf.copy()
        sign = 1 if int(core["table"]["team"][seat]) == 0 else -1
        total: dict[int, int] = {}
        for _ in range(3):
            slots = sample_deal(probe, seat)
            world = buf.copy()
            for q in range(r.players):
                if q != seat:
                    world[0]["core"]["seats"][q]["bits"][:] = slots[q]
            _, vals = Position(r, world).move_values()
            for c, v in vals.items():
                total[c] = total.get(c, 0) + sign * v
        best = max(total.values())
        assert chosen == min(c for c, v in total.items() if v == best)


def test_dd_decides_on_what_its_seat_sees_alone():
    rec = whistsim.simulate(
        "whist", 1, 4, rules={"unit": "deal"}, strategies=["heuristic"], records=1
    ).records[0]
    r, buf = state_at("whist", WhistRules, rec, 37, "dd:worlds=4")
    before = int(decide_in(buf.copy()))
    # Exchange one card of a suit between two other seats that both hold that suit: the
    # voids shown, the hand sizes and the cards played stay as they were.
    swapped = 0
    for hidden in hidden_exchanges(buf):
        assert int(decide_in(hidden)) == before
        swapped += 1
    assert swapped > 0


def test_dd_plays_as_pimc_where_the_solver_does_not_go():
    # Six players in three pairs: three sides.
    sim = whistsim.simulate(
        "scotch", 2, 1, players=6, rules={"unit": "deal"}, strategies=["dd:worlds=2"], records=2
    )
    assert all(whistsim.judge(0, json.dumps(rec)).ok for rec in sim.records)
