"""How Oh Hell says what happened (the narrator's words, harness/narrator.py): a trick is always
one card a seat, so a won trick is said by the winner's tricks against its bid; a bid, the bids'
total against the tricks, a round's score and the next round's deal are said here too, as the
engine reports no event for them (the table, games/ohhell/table.py, tells them from its state)."""

from __future__ import annotations

from ...core.cards import SUIT_WORDS, pretty_card
from ...core.options import plural
from ...harness.narrator import Words


def _verb(word: str, you: bool) -> str:
    return word if you else word + "s"


class OhHellWords(Words):
    def taken(self, cards: int, worth: int) -> str:
        return ""

    def bid(self, who: str, you: bool, n: int) -> str:
        """A seat's bid: ``seat 1 bids 2``."""
        return f"{who} {_verb('bid', you)} {n}"

    def bids_total(self, total: int, tricks: int) -> str:
        """The bids once all are made, against the tricks to be won."""
        if total == tricks:
            side = "exactly the tricks"
        else:
            side = f"{plural(abs(total - tricks), 'trick')} {'over' if total > tricks else 'under'}"
        return f"bids total {total} for {plural(tricks, 'trick')}: {side}"

    def took(self, tricks: int, bid: int) -> str:
        """After "wins the trick": the winner's tricks so far this round against its bid."""
        return f" ({plural(tricks, 'trick')} so far, bid {bid})"

    def scored(self, who: str, you: bool, bid: int, took: int, points: int, total: int) -> str:
        """A seat's round: its bid, its tricks, the points they scored and its running total."""
        made = "made" if bid == took else "missed"
        return f"{who} bid {bid}, took {took} ({made}): {points:+d}, total {total}"

    def trumps(self, turnup: int, by_rule: bool) -> str:
        """The round's trumps: the card turned, or why there are none."""
        if turnup >= 0:
            return f"turns {pretty_card(turnup)}: {SUIT_WORDS[turnup // 13]} are trumps"
        return "no trumps (" + ("by rule, the largest hand" if by_rule else "no card left to turn") + ")"

    def dealt(self, k: int, rounds: int, dealer: int, cards: int, trumps: str, elder: int) -> str:
        """A round's deal: who deals, how many cards each, the trumps, who bids first."""
        return (
            f"round {k + 1} of {rounds}: seat {dealer} deals {plural(cards, 'card')} each, {trumps}; "
            f"seat {elder} bids first"
        )


WORDS = OhHellWords()
