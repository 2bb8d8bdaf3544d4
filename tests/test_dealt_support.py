"""Helpers for the dealt-game tests (Scotch Whist, Whist): hand-made deals as records.

No tests here: the other test_scotch / test_whist / test_dealt modules import it.
"""

from __future__ import annotations

import numpy as np

from whistsim.core.cards import card_name, parse_card
from whistsim.games import get_game
from whistsim.games.dealt.engine import OVER, S_LED, S_PHASE, S_SEAT, S_TURNUP
from whistsim.games.dealt.records import load, start, step

SCOTCH4 = {
    "players": 4,
    "teams": [0, 1, 0, 1],
    "odd_six": "remove",
    "french": False,
    "target": 41,
    "revokes": False,
}
WHIST = {"target": 10, "honours": True, "revokes": False, "revoke_penalty": 3}


def cards(text: str) -> list[str]:
    """``"AS KS 7H"`` -> ``["AS", "KS", "7H"]``."""
    return text.split()


def record(game: str, rules: dict, dealer: int, hands: list, trump: str, moves=(), aside=None) -> dict:
    """A record written by hand; ``hands`` is a list of sets of per-seat card lists."""
    rec = {
        "game": game,
        "rules": dict(rules),
        "dealer": dealer,
        "hands": hands,
        "trump": trump,
        "moves": list(moves),
    }
    if game == "scotch":
        rec["aside"] = aside
    return rec


def started(rec: dict):
    """The record's deal, started: (loaded, state buffer)."""
    g = get_game(rec["game"])
    rules_cls = type(g.rules_from_record(rec["rules"]))
    d = load(rec["game"], rules_cls, rec)
    start(d.buf, d.dealer, d.turnup, d.aside)
    return d, d.buf


def lowest_legal(buf) -> int:
    """The lowest card (code order) the player to play may play without revoking."""
    core = buf[0]["core"]
    s = core["table"]["s"]
    bits = core["seats"][int(s[S_SEAT])]["bits"]
    led = int(s[S_LED])
    suits = [led] if led >= 0 and bits[led] else range(4)
    for suit in suits:
        m = int(bits[suit])
        if m:
            return suit * 13 + (m & -m).bit_length() - 1
    raise AssertionError("the player holds no card")


def autoplay(rec: dict, policy=lowest_legal) -> dict:
    """The record with its moves (after any given) played out by ``policy``."""
    d, buf = started(rec)
    s = buf[0]["core"]["table"]["s"]
    for m in rec["moves"]:
        assert step(buf, parse_card(m.split(":")[1])) == 0, m
    moves = list(rec["moves"])
    while int(s[S_PHASE]) != OVER:
        seat = int(s[S_SEAT])
        card = policy(buf)
        assert step(buf, card) == 0
        moves.append(f"{seat}:{card_name(card)}")
    return {**rec, "moves": moves}


def replay(rec: dict) -> dict:
    return get_game(rec["game"]).replay(rec)


def state_after(rec: dict, n: int | None = None):
    """The state buffer after the record's first ``n`` moves (all by default)."""
    d, buf = started(rec)
    for m in rec["moves"][:n]:
        assert step(buf, parse_card(m.split(":")[1])) == 0, m
    return buf


def suit_swap(text_cards, a: str, b: str):
    """Exchange two suits in card codes (a deal stays legal under any suit permutation)."""
    swap = {a: b, b: a}
    if isinstance(text_cards, str):
        return text_cards[0] + swap.get(text_cards[1], text_cards[1])
    return [suit_swap(x, a, b) for x in text_cards]


def deck_of(rules, order: list[str]) -> np.ndarray:
    return np.array([parse_card(c) for c in order], np.int8)


def hidden_exchanges(buf):
    """Copies of ``buf`` in which two other seats that both hold a suit have exchanged their
    lowest cards of it (not the turn-up): the voids shown, the hand sizes and the cards played
    stay as they were, so a player that reads only its seat's view decides alike in every one."""
    core = buf[0]["core"]
    seat = int(core["table"]["s"][S_SEAT])
    turnup = int(core["table"]["s"][S_TURNUP])
    others = [q for q in range(4) if q != seat]
    for suit in range(4):
        for i, a in enumerate(others):
            for b in others[i + 1 :]:
                ba, bb = (int(core["seats"][q]["bits"][suit]) for q in (a, b))
                ca, cb = ba & -ba, bb & -bb
                if (
                    ba
                    and bb
                    and turnup not in (suit * 13 + ca.bit_length() - 1, suit * 13 + cb.bit_length() - 1)
                ):
                    hidden = buf.copy()
                    h = hidden[0]["core"]["seats"]
                    h[a]["bits"][suit] = ba ^ ca ^ cb
                    h[b]["bits"][suit] = bb ^ cb ^ ca
                    yield hidden
