"""``hoarder``'s ``lead`` parameter: what it leads while the stock lasts, all else as a hoarder.

``lead=sure`` must lead only a card that cannot lose the trick given what its seat can see:
each case is a hand-made situation, and simulated deals check that every such lead won."""

from __future__ import annotations

import numpy as np
import pytest
from welsh_deals import Deal, dealt, decision

from whistsim.core.cards import TAFFY, TEN, card_name
from whistsim.core.strategy import StrategyError, parse_spec
from whistsim.games import seating
from whistsim.games.welsh import engine as E
from whistsim.games.welsh.moves import action_name


def test_by_default_it_draws_and_each_lead_policy_leads_its_card():
    d = dealt([["JH", "AS", "4D"], ["2C", "3C", "7C"], ["5C", "6C", "8C"]])
    assert d.stock_left > 0
    assert decision(d, "hoarder") == "draw"
    assert decision(d, "hoarder:lead=never") == "draw"
    assert decision(d, "hoarder:lead=high") == "AS"  # its highest card of Jack or better
    assert decision(d, "hoarder:lead=aces_kings") == "AS"
    assert (
        decision(d, "hoarder:lead=sure") == "AS"
    )  # nothing beats it: the other Ace would be played after it
    d = dealt([["JH", "KS", "4D"], ["2C", "3C", "7C"], ["5C", "6C", "8C"]])
    assert decision(d, "hoarder:lead=aces_kings") == "KS"
    assert (
        decision(d, "hoarder:lead=sure") == "draw"
    )  # an unseen Ace of spades or of hearts could beat either


def test_lead_high_and_aces_kings_draw_without_such_a_card():
    d = dealt([["JH", "4D"], ["2C", "3C"], ["5C", "6C"]])
    assert decision(d, "hoarder:lead=high") == "JH"
    assert decision(d, "hoarder:lead=high,rank=10") == "draw"  # only Queens or better
    assert decision(d, "hoarder:lead=aces_kings") == "draw"


def test_lead_sure_leads_a_king_whose_only_better_card_it_holds():
    # One pack, no Taffies: its own Ace is the only card above its King.
    d = dealt([["KS", "AS", "2D"], ["2C", "3C", "4C"], ["5C", "6C", "7C"]], packs=1, taffies=0)
    assert decision(d, "hoarder:lead=sure") == "KS"
    d = dealt([["KS", "2D"], ["2C", "3C"], ["5C", "6C"]], packs=1, taffies=0)
    assert decision(d, "hoarder:lead=sure") == "draw"  # the Ace of spades is unseen


@pytest.mark.parametrize(("rank", "lead"), [(10.5, "draw"), (10.0, "TS")])
def test_lead_sure_and_the_taffys_rank(rank, lead):
    # One pack and one Taffy, unseen in the stock; seat 0 has led the spades above its Ten. At
    # 10 1/2 the Taffy could beat the Ten; equal to a Ten, it would lose to the Ten led first.
    d = dealt([["AS", "KS", "QS", "JS", "TS", "2D"], ["2C", "3C", "4C", "5C", "6C", "7C"],
               ["8C", "9C", "TC", "JC", "QC", "KC"]], packs=1, taffies=1, taffy_rank=rank)  # fmt: skip
    for card in ("AS", "KS", "QS", "JS"):
        d.play(f"0:{card}", "1:pass", "2:pass", "1:draw", "2:draw")
    assert d.seat == 0 and d.stock_left > 0 and d.hand(0) == ["2D", "TS"]
    assert decision(d, "hoarder:lead=sure") == lead
    assert decision(d, "hoarder:lead=high") == "draw"  # nothing of Jack or better left


def test_the_lead_parameter_takes_words_only():
    with pytest.raises(StrategyError):
        seating("welsh", [parse_spec("hoarder:lead=2")], 3)
    with pytest.raises(StrategyError):
        seating("welsh", [parse_spec("hoarder:lead=high,rank=13")], 3)


def _highest(d: Deal) -> int:
    """The answer with most power (a Taffy, else the highest card of the suit led), else PASS."""
    own = d.buf[0]["seats"][d.seat]["hand"]
    suit = int(d.s[E.S_LED_SUIT])
    for r in range(12, TEN, -1):
        if own[suit * 13 + r] > 0:
            return suit * 13 + r
    if own[TAFFY] > 0:
        return TAFFY
    for r in range(TEN, -1, -1):
        if own[suit * 13 + r] > 0:
            return suit * 13 + r
    return E.PASS


@pytest.mark.parametrize("rank", [10.5, 10.0])
def test_every_sure_lead_wins_its_trick_against_the_strongest_answers(rank):
    rng = np.random.default_rng(7)
    leads = 0
    for _ in range(2):
        deck = [card_name(int(c)) for c in rng.permutation(Deal(taffy_rank=rank).rules.deck())]
        d = Deal(deck, taffy_rank=rank)
        mine = False
        while d.phase != E.OVER:
            if d.phase == E.TURN and d.seat == 0 and d.stock_left > 0:
                a = decision(d, "hoarder:lead=sure")
                mine = a != "draw"
                leads += mine
                d.play(f"0:{a}")
            elif d.phase == E.TURN:  # the others draw two turns in three while the stock lasts
                lead = d.stock_left == 0 or d.hand(d.seat) and rng.random() < 1 / 3
                d.play(f"{d.seat}:{decision(d, 'greedy') if lead else 'draw'}")
            else:
                d.play(f"{d.seat}:{action_name(_highest(d))}")
            if mine and d.phase != E.FOLLOW:
                assert d.s[E.S_WINNER] == 0, d.moves[-4:]
                mine = False
    assert leads >= 5


# ---- pimc:search=stock: it searches its turns while the stock lasts, and only those ---------------


def test_pimc_searching_the_stock_only_answers_and_plays_on_as_the_hoarder():
    d = dealt([["TH", "5H", "6D"], ["QH", "AH", "2H"], ["2C", "3C", "4C"]])
    d.play("0:TH")
    assert decision(d, "pimc:search=stock,budget=40") == decision(d, "hoarder") == "AH"
    d = dealt([["JH", "4D"], ["2C", "3C"], ["5C", "6C"]], packs=1, taffies=0)
    while d.stock_left > 0:
        d.draws(d.seat)
    for _ in range(3):
        a = decision(d, "hoarder")
        assert decision(d, "pimc:search=stock,budget=40") == a
        d.play(f"{d.seat}:{a}")


def test_pimc_searching_the_stock_searches_its_turns_while_the_stock_lasts():
    # The same stream, the same search: on a turn while the stock lasts it decides as pimc does.
    for hands in (
        [["AS", "2D"], ["2C", "3C"], ["5C", "6C"]],
        [["TH", "KH", "X"], ["2C", "3C", "4C"], ["5C", "6C", "7C"]],
    ):
        d = dealt(hands)
        assert d.stock_left > 0
        assert decision(d, "pimc:search=stock,budget=60") == decision(d, "pimc:budget=60")
