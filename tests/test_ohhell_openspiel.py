"""Oh Hell against OpenSpiel's ``oh_hell``: the same deals and moves give the same legal moves
at every step and the same returns, under the options that match (docs/rules.md, Oh Hell)."""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")

import whistsim  # noqa: E402
from whistsim.core.cards import parse_card  # noqa: E402
from whistsim.games.ohhell.engine import BID_BASE  # noqa: E402
from whistsim.games.ohhell.kernels import parse_action  # noqa: E402
from whistsim.games.ohhell.records import legal_moves, load, step  # noqa: E402
from whistsim.games.ohhell.rules import OhHellRules  # noqa: E402
from whistsim.harness.moves import parse_moves  # noqa: E402


def to_spiel(rules: OhHellRules, a: int) -> int:
    """A whistsim move as an OpenSpiel action: its cards are rank * num_suits + suit over the
    pack's ranks from the lowest (whistsim's pack is the highest ``ranks`` of each suit), its
    bids follow the cards. Suits map by index (OpenSpiel orders them C D S H): any one-to-one
    map of suits and of ranks in order keeps every rule."""
    if a >= BID_BASE:
        return rules.cards + a - BID_BASE
    return (a % 13 - (13 - rules.ranks)) * rules.suits + a // 13


def agree(record: dict) -> int:
    """Play one whistsim record in OpenSpiel, checking each step; returns the steps checked."""
    rules = OhHellRules.from_record(record["rules"])
    game = pyspiel.load_game("oh_hell", rules.openspiel_params())
    p, n, deal = rules.players, rules.largest, record["deals"][0]
    s = game.new_initial_state()
    s.apply_action(n)  # the number of tricks: one outcome when fixed
    s.apply_action(deal["dealer"])
    for k in range(p * n):  # OpenSpiel deals card k to player k % p
        s.apply_action(to_spiel(rules, parse_card(deal["hands"][k % p][k // p])))
    s.apply_action(to_spiel(rules, parse_card(deal["trump"])))
    buf = load(record).buf
    seats, actions, bad = parse_moves(record["moves"], p, parse_action, "move")
    assert bad is None
    for q, a in zip(seats, actions, strict=True):
        assert s.current_player() == q
        assert sorted(to_spiel(rules, x) for x in legal_moves(buf)) == sorted(s.legal_actions())
        s.apply_action(to_spiel(rules, int(a)))
        assert step(buf, int(a)) == 0
    assert s.is_terminal()
    assert [int(x) for x in s.returns()] == record["result"]["points"]
    return len(actions)


MATCHED = [
    {"players": 3},
    {"players": 4, "scoring": "minus_difference"},
    {"players": 5, "tricks": 3, "points_per_trick": 2},
    {"players": 6, "tricks": 1, "scoring": "minus_difference", "points_per_trick": 3},
    {"players": 7, "tricks": 7},
    {"players": 3, "suits": 2, "ranks": 5, "tricks": 3},
    {"players": 4, "suits": 1, "ranks": 13, "tricks": 2, "scoring": "minus_difference"},
]


@pytest.mark.parametrize("rules", MATCHED)
def test_whistsim_and_openspiel_agree_on_legal_moves_and_returns(rules):
    sim = whistsim.simulate("ohhell", n=40, seed=11, preset="openspiel", rules=rules, records=40,
                            first="rotate")  # fmt: skip
    steps = sum(agree(r) for r in sim.records)
    assert steps == 40 * OhHellRules.make("openspiel", **rules).max_moves()
    assert {r["deals"][0]["dealer"] for r in sim.records} == set(range(rules["players"]))


def test_rules_without_an_openspiel_match_say_why():
    with pytest.raises(whistsim.WhistsimError, match="the hook"):
        OhHellRules.make("openspiel", hook=False).openspiel_params()
    with pytest.raises(whistsim.WhistsimError, match="one round"):
        OhHellRules.make("standard").openspiel_params()
