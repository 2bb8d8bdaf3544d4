"""Welsh Whist's deal at the table tells what cards are worth on a pile, read-only: a hand's, the trick's
and the last holder's kept cards' points (whistsim/games/welsh/table.py), as a replay that tallies where
points go needs them (the cheating study's `follow_game`)."""

from __future__ import annotations

import pytest

import whistsim
from whistsim.core.cards import FIVE, TAFFY, TEN
from whistsim.games import get_game
from whistsim.harness import events as ev


def _value(c: int, scoring: str) -> int:
    if c == TAFFY or c % 13 == TEN:
        return 10
    return -5 if scoring == "five_penalty" and c % 13 == FIVE else 1


def _deals(scoring: str, n: int = 6):
    sim = whistsim.simulate("welsh", n=n, seed=5, preset="parlett", players=3, first="rotate",
                            rules={"revokes": True, "challenge": "akagiri", "scoring": scoring},
                            strategies=["greedy:cheat=1,challenge=always", "greedy:cheat=0,challenge=always",
                                        "greedy:cheat=0,challenge=always"], records=n, threads=1)  # fmt: skip
    g = get_game("welsh")
    for rec in sim.records:
        yield rec, g.table(g, g.rules_from_record(rec["rules"]), {**rec, "moves": []}, 0)


@pytest.mark.parametrize("scoring", ["standard", "five_penalty"])
def test_hand_trick_and_kept_points_are_the_cards_values(scoring):
    kept = 0
    for rec, d in _deals(scoring):
        assert d.points() == [0, 0, 0] and d.kept_points() == 0
        for m in rec["moves"]:
            before = d.points()
            _, events = d.apply(d.parse(m.split(":", 1)[1]))
            for q in range(3):
                hand = d.buf[0]["seats"][q]["hand"]
                assert d.hand_points(q) == sum(_value(c, scoring) * int(hand[c]) for c in range(53))
            after = d.points()
            won = {q: d.trick_points() for kind, q, _, _ in events if kind == ev.TRICK}
            for kind, q, a, _ in events:
                if kind == ev.TRICK:
                    t = d.buf[0]["table"]
                    cards = [int(c) for c in t["trick_card"][:a]]
                    assert won[q] == sum(_value(c, scoring) for c in cards)
                    if not any(k == ev.KEEP for k, *_ in events):  # the winner's pile grows by the trick
                        assert after[q] - before[q] == won[q]
                challenged = any(k == ev.CHALLENGE for k, *_ in events)  # (a challenge moves points too)
                if kind == ev.KEEP and not challenged:  # the holder's pile grows by its kept cards and trick
                    assert after[q] - before[q] == d.kept_points() + won.get(q, 0)
                    kept += 1
        assert d.over() and d.points() == rec["result"]["points"]
    assert kept > 0


def test_a_hand_has_no_points_of_its_own_under_piles_scoring():
    rec, d = next(_deals("piles", 1))
    for m in rec["moves"][:6]:
        d.apply(d.parse(m.split(":", 1)[1]))
    with pytest.raises(ValueError, match="piles scoring"):
        d.hand_points(0)
    with pytest.raises(ValueError, match="piles scoring"):
        d.kept_points()
