"""``pimc2``: pimc that draws on every turn while the stock lasts and searches every other
decision as pimc does. Hand-made situations for each rule point, then whole games under every
combination of rules (each decision checked by the engine, each record replayed)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from test_strategies_play import COMBINATIONS
from welsh_deals import Deal, dealt, decision

from whistsim import api
from whistsim.core.cards import card_name
from whistsim.core.strategy import StrategyError, parse_spec
from whistsim.games import seating
from whistsim.games.welsh import engine as E
from whistsim.games.welsh.players import pimc, pimc2


def test_its_search_parameters_sit_in_pimcs_slots():
    # pimc.search reads budget, playout, caution, aim and race from the slots pimc declares them in.
    assert list(pimc2.PARAMS)[:6] == list(pimc.PARAMS)[:6]
    assert list(pimc2.PARAMS).index("race") == list(pimc.PARAMS).index("race") == pimc.P_RACE
    assert pimc2.PARAMS["race"] == pimc.PARAMS["race"]
    for key in ("playout", "aim"):
        assert pimc2.PARAMS[key].words == pimc.PARAMS[key].words


@pytest.mark.parametrize(
    "hands",
    [
        [["AS", "2D"], ["2C", "3C"], ["5C", "6C"]],  # an Ace no one can beat: counter would lead it
        [["TH", "KH", "X"], ["2C", "3C", "4C"], ["5C", "6C", "7C"]],  # a Taffy and a Ten to bank
        [["AH", "AS", "AD", "AC"], ["2C", "3C", "4C", "5C"], ["6C", "7C", "8C", "9C"]],
    ],
)
def test_it_draws_on_each_turn_while_the_stock_lasts(hands):
    d = dealt(hands)
    assert d.seat == 0 and d.stock_left > 0
    assert decision(d, "counter") != "draw" or hands[0][0] == "TH"
    assert decision(d, "pimc2:budget=60") == "draw"
    # stock=search: pimc with the same budget, on the same stream
    assert decision(d, "pimc2:budget=60,stock=search") == decision(d, "pimc:budget=60")


def test_it_answers_as_pimc_searches_while_the_stock_lasts():
    d = dealt([["TH", "5H", "6D"], ["QH", "AH", "2H"], ["2C", "3C", "4C"]])
    d.play("0:TH")
    assert d.phase == E.FOLLOW and d.seat == 1 and d.stock_left > 0
    assert decision(d, "pimc2:budget=60") == decision(d, "pimc:budget=60") == "AH"


def test_after_the_stock_it_leads_and_answers_as_pimc_with_its_budget():
    d = dealt([["JH", "4D", "AS"], ["2C", "3C", "KS"], ["5C", "6C", "QH"]], packs=1, taffies=0)
    while d.stock_left > 0:
        d.draws(d.seat)
    seen = 0
    while d.phase != E.OVER and seen < 12:
        a = decision(d, "pimc:budget=40")
        assert decision(d, "pimc2:budget=40") == a
        assert d.phase != E.TURN or a != "draw"
        d.play(f"{d.seat}:{a}")
        seen += 1
    assert seen >= 6


def test_with_the_stock_empty_it_leads_a_card_it_holds():
    d = dealt([["2D"], ["2C"], ["5C"]], packs=1, taffies=0)
    while d.stock_left > 0:
        d.draws(d.seat)
    assert d.phase == E.TURN
    a = decision(d, "pimc2:budget=30")
    assert a != "draw" and a in d.hand(d.seat)


def test_the_stock_parameter_takes_words_only():
    with pytest.raises(StrategyError):
        seating("welsh", [parse_spec("pimc2:stock=1")], 3)
    with pytest.raises(StrategyError):
        seating("welsh", [parse_spec("pimc2:budget=0")], 3)


def test_the_same_seed_plays_the_same_games_and_another_seed_others():
    seats = ["pimc2:budget=8", "pimc:budget=8", "hoarder"]
    a = api.simulate("welsh", n=6, seed=3, strategies=seats, first="rotate", records=6)
    b = api.simulate("welsh", n=6, seed=3, strategies=seats, first="rotate", records=6)
    c = api.simulate("welsh", n=6, seed=4, strategies=seats, first="rotate", records=6)
    assert [r["moves"] for r in a.records] == [r["moves"] for r in b.records]
    assert [r["moves"] for r in a.records] != [r["moves"] for r in c.records]


def test_in_a_whole_game_it_draws_on_every_turn_while_the_stock_lasts_then_leads():
    rng = np.random.default_rng(5)
    deck = [card_name(int(c)) for c in rng.permutation(Deal().rules.deck())]
    d = Deal(deck)
    draws = leads = 0
    while d.phase != E.OVER:
        spec = "pimc2:budget=6" if d.seat == 0 else ("greedy", "hunter")[d.seat - 1]
        a = decision(d, spec)
        if d.seat == 0 and d.phase == E.TURN:
            if d.stock_left > 0:
                assert a == "draw" or d.hand(0) == []
                draws += 1
            else:
                leads += 1
        d.play(f"{d.seat}:{a}")
    assert draws >= 20 and leads >= 5


# every rule combination: some players' settings are idle under some; the warning is not the test
@pytest.mark.filterwarnings("ignore::whistsim.tools.advice.WhistsimWarning")
def test_under_every_rule_combination_its_decisions_are_legal_and_records_replay():
    for k, (taffy, scoring, revokes, challenge) in enumerate(COMBINATIONS):
        players = (3, 2, 4)[k % 3]
        seats = ["pimc2:budget=4,challenge=smart", "pimc:budget=4", "cheater:challenge=always"][:players]
        seats += ["hoarder"] * (players - len(seats))
        if revokes:
            seats[0] += ",cheat=smart"
        sim = api.simulate(
            "welsh", n=24, seed=300 + k, players=players, preset="akagiri" if k % 2 else "parlett",
            rules={"taffy_rank": taffy, "scoring": scoring, "revokes": revokes, "challenge": challenge},
            strategies=seats, first="rotate", records=2,
        )  # fmt: skip
        for i, record in enumerate(sim.records):
            j = api.judge(i, json.dumps(record))
            assert j.ok, (j.error, record["strategies"])
        assert np.isfinite(sim.moments.estimate("points[0]").mean)
