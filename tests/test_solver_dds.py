"""The open-hand solver against DDS (the field's double-dummy solver, through endplay): the same
Whist positions, from the first lead and mid-trick, have the same value in tricks."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("endplay")

from endplay.types import Card  # noqa: E402

import whistsim  # noqa: E402
from whistsim.bench.refs import (  # noqa: E402
    dds_ratios,
    dds_value,
    endplay_deal,
    format_dds,
    solver_against_dds,
)
from whistsim.solver import solve_at  # noqa: E402


def deals(n: int, seed: int) -> list[dict]:
    return whistsim.simulate("whist", n, seed, rules={"unit": "deal"}, strategies=["random"],
                             records=n).records[:n]  # fmt: skip


def test_full_deals_have_the_same_value_in_both_solvers():
    records = deals(40, 11)
    assert {r["trump"][-1] for r in records} == set("CDHS")  # every suit trumps in some deal
    for i, record in enumerate(records):
        ours = solve_at(record, 0)["tricks"][0]
        assert ours == dds_value(endplay_deal(record, 0)), f"deal {i}"


def test_positions_mid_trick_have_the_same_value_in_both_solvers():
    rng = np.random.default_rng(12)
    records = deals(300, 13)
    mid = 0
    for i, record in enumerate(records):
        n = int(rng.integers(1, 52))  # after 1 to 51 cards: the trick in progress at any stage
        mid += n % 4 != 0
        ours = solve_at(record, n)["tricks"]
        theirs = dds_value(endplay_deal(record, n))
        assert ours[0] == theirs, f"deal {i} after {n} cards: {ours[0]} and DDS {theirs}"
        assert sum(ours) == 13 - n // 4  # the trick in progress counted
    assert mid > 200


def test_the_deal_given_to_dds_holds_the_trick_in_progress_and_who_led_it():
    record = deals(1, 14)[0]
    deal = endplay_deal(record, 22)  # 5 tricks played, 2 cards of the sixth
    led = record["moves"][20:22]
    assert int(deal.first) == int(led[0].split(":")[0])
    assert deal.curtrick == [Card(m.split(":")[1][-1] + m.split(":")[1][:-1]) for m in led]
    assert sorted(len(hand) for _, hand in deal) == [7, 7, 8, 8]
    assert deal.trump.name[0].upper() == record["trump"][-1]


def test_the_bench_comparison_counts_agreement_and_gives_three_ratios_a_case():
    out = solver_against_dds(full=2, eight=3, rounds=1)
    assert [(c["n"], c["agree"]) for c in out.values()] == [(2, 2), (3, 3)]
    assert all(c["first_disagreement"] is None for c in out.values())
    ratios = dds_ratios(out)
    assert len(ratios) == 6 and all(v > 0 for v in ratios.values())
    assert "solver / DDS, Whist full deal: median time per position" in ratios
    for c in out.values():  # the trees' sizes: each search's completed tricks, and every node
        t = c["tricks_searched"]
        assert t["dds"]["mean"] > 0 and 0 < t["whistsim"]["mean"] < t["whistsim nodes"]["mean"]
    assert sum("tricks completed in the search" in line for line in format_dds(out)) == 2


def test_the_comparison_runs_when_endplay_does_not_give_dds_node_count(monkeypatch):
    # The count is read from a private field of endplay's result: without it, times and values stand.
    import endplay.dds

    solve_board = endplay.dds.solve_board
    monkeypatch.setattr(endplay.dds, "solve_board", lambda *a, **k: list(solve_board(*a, **k)))
    out = solver_against_dds(full=1, eight=1, rounds=1)
    assert [c["agree"] for c in out.values()] == [1, 1]
    lines = format_dds(out)
    assert sum("DDS's count not given by this endplay" in line for line in lines) == 2
