"""The one telling of a deal: every game's events (:mod:`.events`) said in the game's words.

Two forms: :func:`table_lines`, a line for each thing a move did as a seat at the table sees it
(``whistsim play``, ``GameState.told``, the web table; :func:`deal_lines`, every card seen, for
a game whose ``show`` is that plain), and :func:`trick_story`, the deal trick by trick
(``whistsim show``). A game gives only its :class:`Words`: how its cards, leads and won tricks
are said; the narrator says the rest alike for every game.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..core.cards import pretty_card
from ..core.options import plural
from .events import CHALLENGE, COUNT, DRAW, FOLLOW, KEEP, LEAD, NO_CHALLENGE, PASS, REVOKE, SET, TRICK

Event = tuple[int, int, int, int]
MARGIN = " " * 10  # under a trick's first play: the width of "Trick 1   "


class Words:
    """How one game says a card, a lead and a won trick. The defaults suit a plain trick-taking
    game; a game overrides what it says otherwise (``games/<name>/words.py``)."""

    def card(self, card: int) -> str:
        """A card as played or drawn."""
        return pretty_card(card)

    def lead(self, card: int, suit: int) -> str:
        """A card as led; ``suit``: the suit the lead named (a Welsh Whist Taffy names one)."""
        return self.card(card)

    def taken(self, cards: int, worth: int) -> str:
        """What follows "wins the trick" at the table: the trick's size."""
        return f" ({plural(cards, 'card')})"

    def worth(self, worth: int) -> str:
        """What a won trick was worth, after its size in the deal's story ("" for nothing)."""
        return ""

    def won(self, seat: int, cards: list[int], worth: int, counted: list[tuple[int, int]]) -> str:
        """What follows "→ seat N wins" in the deal's story: the trick's cards, size and worth
        (``counted``: the cards that counted points in it, with their points)."""
        named = " ".join(self.card(c) for c in cards)
        return f" {named} ({plural(len(cards), 'card')}{self.worth(worth)})"


PLAIN = Words()  # a game that says nothing its own way


def _verb(word: str, you: bool) -> str:
    return word if you else word + ("es" if word.endswith("s") else "s")


def table_lines(events: Iterable[Event], words: Words, seat: int = -1, every_card: bool = False) -> list[str]:
    """The lines a seat at the table sees for ``events``: ``seat`` is "you" (-1: no seat of the
    deal). Another's drawn card, a false pass and a revoke are no one's to see, unless the deal
    is told with ``every_card`` seen (a record told whole)."""
    events = list(events)
    revoked = {q for kind, q, _, _ in events if kind == REVOKE}
    out = []
    for kind, q, a, b in events:
        you = q == seat
        who = "you" if you else f"seat {q}"
        if kind == DRAW:
            out.append(f"{who} {_verb('draw', you)} {words.card(a)}" if you or every_card else f"{who} draws")
        elif kind == LEAD:
            out.append(f"{who} {_verb('lead', you)} {words.lead(a, b)}")
        elif kind == FOLLOW:
            out.append(
                f"{who} {_verb('play', you)} {words.card(a)}" + (" (revoke)" * (every_card and q in revoked))
            )
        elif kind == PASS:
            out.append(f"{who} {_verb('pass', you)}" + (" (falsely)" * (every_card and b == 1)))
        elif kind == TRICK:
            out.append(f"  -> {who} {_verb('win', you)} the trick{words.taken(a, b)}")
        elif kind == CHALLENGE:
            target = "you" if a == seat else f"seat {a}"
            verdict = "caught revoking" if b else "wrongly accused"
            out.append(f"  {who} {_verb('challenge', you)} {target}: {verdict}")
        elif kind == KEEP:
            out.append(f"{who} {'are' if you else 'is'} last with cards and {_verb('keep', you)} {a}")
        elif kind == SET:
            out.append(f"the next set of hands is taken up; {who} {_verb('lead', you)}")
    return out


def deal_lines(moves: Iterable[tuple[int, int, list[Event]]], words: Words = PLAIN) -> list[str]:
    """The deal told a move at a time, every card seen, from the moves of :func:`.events.told`:
    :func:`table_lines` for a game whose ``show`` is that plain."""
    return [line for _, _, events in moves for line in table_lines(events, words, every_card=True)]


def trick_story(moves: Iterable[tuple[int, int, list[Event]]], words: Words) -> list[str]:
    """The deal told trick by trick, every card seen, from the moves of :func:`.events.told`:
    draws grouped between tricks, each trick on a line with its winner below, challenges, new
    sets, and who kept cards at the end."""
    lines: list[str] = []
    draws: list[str] = []
    trick: list[str] = []
    cards: list[int] = []
    counted: list[tuple[int, int]] = []
    n, kept = 0, ""

    def flush_draws() -> None:
        if draws:
            lines.append("  draws  " + "   ".join(draws))
            draws.clear()

    for _, _, events in moves:
        revoked = {q for kind, q, _, _ in events if kind == REVOKE}
        for kind, q, a, b in events:
            if kind == DRAW:
                draws.append(f"{q}: {words.card(a)}")
            elif kind == LEAD:
                flush_draws()
                n += 1
                trick, cards = [f"seat {q} leads {words.lead(a, b)}"], [a]
            elif kind == FOLLOW:
                trick.append(f"{q} plays {words.card(a)}" + " (revoke)" * (q in revoked))
                cards.append(a)
            elif kind == PASS:
                trick.append(f"{q} passes" + " (falsely)" * (b == 1))
            elif kind == COUNT:
                counted.append((a, b))
            elif kind == TRICK:
                lines.append(f"Trick {n:<3} " + " · ".join(trick))
                lines.append(f"{MARGIN}→ seat {q} wins{words.won(q, cards, b, counted)}")
                counted = []
            elif kind == CHALLENGE:
                verdict = "caught revoking" if b else "wrongly accused"
                lines.append(f"{MARGIN}seat {q} challenges seat {a}: {verdict}")
            elif kind == NO_CHALLENGE:
                lines.append(f"{MARGIN}seat {q} does not challenge")
            elif kind == KEEP:
                kept = f"Seat {q} is last with cards and keeps {a}."
            elif kind == SET:
                lines.append(f"Set {a + 1}: seat {q} leads.")
    flush_draws()
    return lines + [kept] * bool(kept)


__all__ = ["Words", "PLAIN", "table_lines", "deal_lines", "trick_story", "MARGIN"]
