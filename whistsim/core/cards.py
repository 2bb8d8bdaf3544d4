"""Cards as small ints, with paired helpers.

A card is ``suit * 13 + rank``: rank 0..12 is ``2..A``, suit 0..3 is ``C D H S``.
52 is the Taffy (a joker), which exists only in Welsh Whist.
"""

from __future__ import annotations

import numpy as np

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")
TAFFY = 52
N_TYPES = 53  # 52 suited cards and the Taffy

TEN = RANKS.index("T")
FIVE = RANKS.index("5")
JACK, QUEEN, KING, ACE = (RANKS.index(r) for r in "JQKA")


def card(rank: int, suit: int) -> int:
    return suit * 13 + rank


def rank_of(c: int) -> int:
    return c % 13


def suit_of(c: int) -> int:
    return c // 13


def parse_suit(text: str) -> int:
    s = text.strip().upper()
    if len(s) != 1 or s not in SUITS:
        raise ValueError(f"not a suit: {text!r} (expected one of C D H S)")
    return SUITS.index(s)


def parse_card(text: str) -> int:
    """``"TH"`` -> 34; also accepts ``"10h"`` and ``"X"`` (Taffy).

    >>> parse_card("TH"), parse_card("10h"), parse_card("2C")
    (34, 34, 0)
    """
    s = text.strip().upper()
    if s == "X":
        return TAFFY
    if s.startswith("10"):
        s = "T" + s[2:]
    if len(s) != 2 or s[0] not in RANKS or s[1] not in SUITS:
        raise ValueError(f"not a card: {text!r}")
    return card(RANKS.index(s[0]), SUITS.index(s[1]))


def card_name(c: int) -> str:
    """34 -> ``"TH"``: the record code.

    >>> card_name(34), card_name(parse_card("X"))
    ('TH', 'X')
    """
    if c == TAFFY:
        return "X"
    if not 0 <= c < 52:
        raise ValueError(f"not a card code: {c}")
    return RANKS[rank_of(c)] + SUITS[suit_of(c)]


def pretty_card(c: int) -> str:
    """34 -> ``"10♥"``: for people.

    >>> pretty_card(34), pretty_card(parse_card("AS"))
    ('10♥', 'A♠')
    """
    if c == TAFFY:
        return "Taffy"
    r = RANKS[rank_of(c)]
    return ("10" if r == "T" else r) + SUIT_SYMBOLS[suit_of(c)]


def pack(ranks: str = RANKS) -> list[int]:
    """One pack of the given ranks in every suit, in code order."""
    return sorted(card(RANKS.index(r), s) for s in range(4) for r in ranks)


# Bit counts and bit positions of 13-bit rank masks, for kernels that keep a
# hand's ranks in a suit as one int.
POPCOUNT13 = np.array([bin(m).count("1") for m in range(1 << 13)], np.int8)
