"""Every player plays thousands of games under every combination of rules; the kernel checks
each decision, and replay accepts every record kept."""

from __future__ import annotations

import itertools
import json

import pytest

from whistsim import api

COMBINATIONS = list(
    itertools.product(
        (10.5, 10.0), ("standard", "five_penalty", "piles"), (False, True), ("none", "parlett", "akagiri")
    )
)
FAST = ("random", "greedy", "hunter", "hoarder", "counter", "cheater")


def _seats(name: str, revokes: bool) -> list[str]:
    # Cheating only where a false pass is allowed; each challenge policy somewhere.
    cheat = ("0.3", "smart", "0") if revokes else ("0", "0", "0")
    return [
        f"{name}:cheat={cheat[0]},challenge=smart",
        f"{name}:cheat={cheat[1]},challenge=always",
        f"{name}:cheat={cheat[2]},challenge=0.5",
    ]


def _judge_all(sim: api.Simulation) -> None:
    assert sim.records
    for i, record in enumerate(sim.records):
        j = api.judge(i, json.dumps(record))
        assert j.ok, (j.error, j.stored, record["strategies"])


# every rule combination: some players' settings are idle under some; the warning is not the test
@pytest.mark.filterwarnings("ignore::whistsim.tools.advice.WhistsimWarning")
@pytest.mark.parametrize("name", FAST)
def test_every_player_under_every_rule_combination(name):
    totals = {"false_passes": 0.0, "challenges": 0.0}
    for k, (taffy, scoring, revokes, challenge) in enumerate(COMBINATIONS):
        players = (3, 2, 4, 5)[k % 4]
        sim = api.simulate(
            "welsh", n=1500, seed=k, players=players,
            rules={"taffy_rank": taffy, "scoring": scoring, "revokes": revokes, "challenge": challenge},
            strategies=(_seats(name, revokes) * 2)[:players], first="rotate", records=3,
        )  # fmt: skip
        _judge_all(sim)
        if scoring != "piles":
            total = sim.moments.estimate("total_points")
            assert total.sd == 0  # every card scores once, whoever takes it
        if revokes:
            totals["false_passes"] += sim.moments.estimate("false_passes").mean
            if challenge != "none":
                totals["challenges"] += sim.moments.estimate("challenges").mean
    assert totals["false_passes"] > 0 and totals["challenges"] > 0


# every rule combination: some players' settings are idle under some; the warning is not the test
@pytest.mark.filterwarnings("ignore::whistsim.tools.advice.WhistsimWarning")
def test_pimc_under_every_rule_combination():
    for k, (taffy, scoring, revokes, challenge) in enumerate(COMBINATIONS):
        players = (3, 2, 4)[k % 3]
        seats = ["pimc:budget=4,challenge=smart", "cheater:challenge=always", "random"][:players]
        seats += ["hoarder"] * (players - len(seats))
        if revokes:
            seats[0] += ",cheat=smart"
        sim = api.simulate(
            "welsh", n=64, seed=100 + k, players=players, preset="akagiri" if k % 2 else "parlett",
            rules={"taffy_rank": taffy, "scoring": scoring, "revokes": revokes, "challenge": challenge},
            strategies=seats, first="rotate", records=4,
        )  # fmt: skip
        _judge_all(sim)
