"""The engine's one step of a card played to a trick (``engine.to_trick``), which the own loops
and pimc's play-outs call with the trick's running values in locals, leaves the table as the
engine's ``apply`` leaves it: a whole deal of an ordered pack (leads, follows, showing out,
trumping in, the winner changing), Scotch and French Whist and Whist, card by card."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from whistsim.games import get_game
from whistsim.games.dealt import engine as E
from whistsim.games.dealt.kernels import new_state
from whistsim.games.dealt.rules import R_KIND, R_PLAYERS, SCOTCH


@njit(cache=True)
def _lowest_or_highest(c, k):
    """A legal card: the highest of the suit led on even tricks, else the lowest card held of
    the first suit that may be played (so seats show out and trump in)."""
    s = c.table.s
    own = c.seats[s[E.S_SEAT]]
    led = s[E.S_LED]
    for suit in range(4):
        m = E.legal_mask(own, led, suit, 0)
        if m:
            if k % 2 == 0 and suit == led:
                r = 0
                while m >> (r + 1):
                    r += 1
                return suit * 13 + r
            r = 0
            while not (m >> r) & 1:
                r += 1
            return suit * 13 + r
    return -1


@njit(cache=True)
def _step_against_apply(buf, ref_buf, out):
    """Play the deal in ``buf`` by :func:`_lowest_or_highest`, each card once by ``to_trick`` on
    ``ref_buf`` (a copy kept in step, the trick's values read from its table) and once by
    ``apply`` on ``buf``; counts into ``out``: cards, differences, cards that showed out, cards
    that took the trick's lead from an earlier card."""
    c = buf[0].core
    ref = ref_buf[0].core
    t = c.table
    u = ref.table
    s = t.s
    p = t.rules[R_PLAYERS]
    scotch = t.rules[R_KIND] == SCOTCH
    won = np.int64(0)
    while s[E.S_PHASE] != E.OVER:
        seat = s[E.S_SEAT]
        i = s[E.S_TRICK_LEN]
        a = _lowest_or_highest(c, s[E.S_TRICK])
        own = ref.seats[seat]
        us = u.s
        best_before = us[E.S_BEST]
        led, best, best_pw, followed, won = E.to_trick(
            u, own, seat, i, a // 13, a % 13, us[E.S_LED], us[E.S_TRUMP], scotch, us[E.S_BEST],
            us[E.S_BEST_POWER], us[E.S_ALL_FOLLOWED], won, True,
        )  # fmt: skip
        E.apply(c, a)
        out[0] += 1
        out[2] += i > 0 and a // 13 != led
        out[3] += i > 0 and best == i and best_before != i
        bad = own.n != c.seats[seat].n or won & (np.int64(1) << np.int64(a)) == 0
        for suit in range(4):
            bad |= own.bits[suit] != c.seats[seat].bits[suit] or u.played[suit] != t.played[suit]
            for q in range(p):
                bad |= u.void[q, suit] != t.void[q, suit] or u.leads[q, suit] != t.leads[q, suit]
        for q in range(p):
            bad |= u.first_lead[q] != t.first_lead[q]
        bad |= u.trick_card[i] != t.trick_card[i] or u.trick_seat[i] != t.trick_seat[i]
        if i + 1 < p:  # the trick goes on: its running values as apply keeps them
            bad |= led != s[E.S_LED] or followed != s[E.S_ALL_FOLLOWED]
            bad |= best != s[E.S_BEST] or best_pw != s[E.S_BEST_POWER]
            bad |= best != us[E.S_BEST] or best_pw != us[E.S_BEST_POWER]
        else:  # apply took the trick: its winner is the step's best card's seat
            bad |= u.trick_seat[best] != s[E.S_WINNER]
        out[1] += bad
        E.copy_table(u, t)  # the next card from the engine's table
        for q in range(p):
            for suit in range(4):
                ref.seats[q].bits[suit] = c.seats[q].bits[suit]
            ref.seats[q].n = c.seats[q].n
    return out


CASES = [("whist", None, {}), ("scotch", None, {}), ("scotch", "french", {"players": 5, "odd_six": "aside"})]


@pytest.mark.parametrize("game,preset,rules", CASES)
def test_a_card_played_by_the_step_leaves_the_table_as_apply_leaves_it(game, preset, rules):
    g = get_game(game)
    r = g.make_rules(preset, rules.get("players", 4), {k: v for k, v in rules.items() if k != "players"})
    buf, ref = new_state(r), new_state(r)
    deck = r.deck().astype(np.int8)  # the pack in order: every seat holds a few cards of each suit
    _deal(buf, deck)
    _deal(ref, deck)
    out = _step_against_apply(buf, ref, np.zeros(4, np.int64))
    assert out[0] == len(deck) - (1 if r.aside else 0)
    assert out[2] > 0 and out[3] > 0  # seats showed out, and later cards took the trick
    assert out[1] == 0, f"{out[1]} of {out[0]} cards left the table otherwise than apply"


@njit(cache=True)
def _deal(buf, deck):
    E.deal_from_deck(buf[0].core, deck, 0)


@njit(cache=True)
def _trick(buf, cards, trump):
    """Seats 0, 1, ... play ``cards`` to one trick by the step alone, from locals; returns (the
    place of the card winning it, 1 if every card followed suit, the trick's cards)."""
    c = buf[0].core
    t = c.table
    scotch = t.rules[R_KIND] == SCOTCH
    led, best, best_pw, followed, won = -1, 0, 0, 1, np.int64(0)
    for i in range(cards.shape[0]):
        a = cards[i]
        own = c.seats[i]
        own.bits[a // 13] |= np.int64(1) << np.int64(a % 13)
        own.n += 1
        led, best, best_pw, followed, won = E.to_trick(
            t, own, i, i, a // 13, a % 13, led, trump, scotch, best, best_pw, followed, won, True
        )
    return best, followed, won


@pytest.mark.parametrize(
    "game,cards,winner,followed",
    [
        ("scotch", ["AH", "JH", "6S", "KH"], 1, 0),  # the Scotch trump Jack heads the trumps
        ("whist", ["AH", "JH", "6S", "KH"], 0, 0),  # in Whist the Ace does
        ("whist", ["9S", "AS", "2H", "AH"], 3, 0),  # a trump takes a plain suit; the higher trump wins
        ("whist", ["9S", "TS", "AD", "2S"], 1, 0),  # a discard never wins
        ("whist", ["9S", "TS", "JS", "QS"], 3, 1),  # everyone followed
    ],
)
def test_the_step_finds_the_tricks_winner_and_the_voids_shown(game, cards, winner, followed):
    from whistsim.core.cards import parse_card

    r = get_game(game).make_rules(None, 4, {})
    buf = new_state(r)
    buf[0]["core"]["table"]["first_lead"][:] = -1  # as a deal starts
    codes = np.array([parse_card(x) for x in cards], np.int64)
    hearts = 2
    best, all_followed, won = _trick(buf, codes, hearts)
    assert (best, all_followed) == (winner, followed)
    assert won == sum(1 << int(x) for x in codes)
    table = buf[0]["core"]["table"]
    led = int(codes[0]) // 13
    shown = [q for q in range(4) if table["void"][q, led]]
    assert shown == [q for q in range(4) if int(codes[q]) // 13 != led]
    assert list(table["trick_card"][:4]) == list(codes) and list(table["trick_seat"][:4]) == [0, 1, 2, 3]
    assert table["s"][E.S_BEST] == winner  # kept on the table for the players
    assert all(int(x) == 0 for x in buf[0]["core"]["seats"]["bits"][:4].ravel())  # each card left its hand
    assert table["leads"][0, led] == 1 and table["first_lead"][0] == led
