"""Welsh Whist decisions as record text (docs/records.md) and back."""

from __future__ import annotations

from ...core.cards import SUIT_WORDS, SUITS, TAFFY, card_name, parse_card, parse_suit, pretty_card
from ...harness.moves import parse_seat
from .engine import CHALLENGE_SEAT, DRAW, N_ACTIONS, NO_CHALLENGE, PASS, TAFFY_LEAD
from .rules import MAX_PLAYERS


def parse_action(text: str) -> int:
    """``"draw"``, ``"pass"``, ``"nochallenge"``, ``"challenge=2"``, ``"7H"``, ``"X"``, ``"X=S"``."""
    t = text.strip().lower()
    if t == "draw":
        return DRAW
    if t == "pass":
        return PASS
    if t == "nochallenge":
        return NO_CHALLENGE
    if t.startswith("challenge="):
        return CHALLENGE_SEAT + parse_seat(t[len("challenge=") :], MAX_PLAYERS)
    if t.startswith("x="):
        return TAFFY_LEAD + parse_suit(t[2:])
    return parse_card(t)


def action_name(a: int) -> str:
    """The record text of an action code."""
    if 0 <= a <= TAFFY:
        return card_name(a)
    if TAFFY_LEAD <= a < DRAW:
        return "X=" + SUITS[a - TAFFY_LEAD]
    if a == DRAW:
        return "draw"
    if a == PASS:
        return "pass"
    if a == NO_CHALLENGE:
        return "nochallenge"
    if CHALLENGE_SEAT <= a < N_ACTIONS:
        return f"challenge={a - CHALLENGE_SEAT}"
    return f"<action {a}>"


def action_words(a: int) -> str:
    """For people: ``"leads a Taffy as spades"``, ``"plays 10♥"``."""
    if 0 <= a <= TAFFY:
        return pretty_card(a)
    if TAFFY_LEAD <= a < DRAW:
        return f"a Taffy, naming {SUIT_WORDS[a - TAFFY_LEAD]}"
    return action_name(a)
