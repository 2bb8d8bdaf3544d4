"""How the dealt games say what happened (the narrator's words, harness/narrator.py): a trick
is always one card a seat, so it is said by the side that won it and the cards that counted."""

from __future__ import annotations

from ...harness.narrator import Words


class DealtWords(Words):
    def __init__(self, teams: tuple[int, ...] = ()) -> None:
        self.teams = teams  # each seat's side

    def taken(self, cards: int, worth: int) -> str:
        return ""

    def won(self, seat: int, cards: list[int], worth: int, counted: list[tuple[int, int]]) -> str:
        taking = (
            f", taking {', '.join(f'{self.card(c)} {points}' for c, points in counted)}" if counted else ""
        )
        return f" (side {self.teams[seat]}){taking}"


def words_of(rules) -> DealtWords:
    return DealtWords(tuple(rules.teams_tuple))
