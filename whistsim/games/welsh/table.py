"""Welsh Whist at the table: its deal stepped a move at a time, and what one seat may see
(the stock left, the trick, the seats' points, piles and shown voids), for ``whistsim play``
and ``GameState`` (harness/table.py)."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ...core.cards import SUIT_SYMBOLS, SUIT_WORDS, TAFFY, card_name
from ...core.rng import stream_start
from ...harness.build import kernel
from ...harness.table import Deal, View
from . import engine as E
from . import kernels as play
from . import moves, records
from .rules import R_SCORING
from .words import WORDS


class WelshDeal(Deal):
    """Welsh Whist's deal, as the table needs it."""

    def __init__(self, game, rules, record: dict, seed: int) -> None:
        self.E, self.play, self.rules, self.words = E, play, rules, WORDS
        _, stock, first, _, _ = records.read_record({**record, "moves": []})
        self.stock, self.first = stock, first
        self.buf = E.new_state(rules.to_array())
        records.start(self.buf, stock, np.int64(first))
        for q in range(rules.players):
            self.buf[0]["seats"][q]["rng"][0] = stream_start(seed, 0, 1 + q)
        self.step_kernel = kernel(play, None)
        self.n_actions = E.N_ACTIONS

    @classmethod
    def first_to_move(cls, record: dict, first: int, players: int) -> dict:
        return {**record, "first": first}

    def holder(self):
        return self.buf[0]

    def seats(self):
        return self.buf[0]["seats"]

    def to_move(self) -> int:
        return int(self.buf[0]["table"]["s"][E.S_SEAT])

    def over(self) -> bool:
        return int(self.buf[0]["table"]["s"][E.S_PHASE]) == E.OVER

    def parse(self, text: str) -> int:
        return moves.parse_action(text)

    def name(self, a: int) -> str:
        return moves.action_name(a)

    def decide(self) -> int:
        return play.decide_now(self.buf)

    def result(self) -> dict:
        return records.result_of(self.buf)

    # -- read-only figures for a replay that tallies where points go (the cheating study)
    def points(self) -> list[int]:
        """Each seat's points now: its winnings pile as the engine scores it."""
        return [int(x) for x in records._points(self.buf)]

    def hand_points(self, seat: int) -> int:
        """What ``seat``'s hand would add to a winnings pile: the engine's card values summed over it."""
        return int(_card_values(self._additive()) @ self.buf[0]["seats"][seat]["hand"])

    def trick_points(self) -> int:
        """What the cards of the trick on the table (the last one, once it is taken) add to a pile."""
        t = self.buf[0]["table"]
        return int(_card_values(self._additive())[t["trick_card"][: t["s"][E.S_TRICK_LEN]]].sum())

    def kept_points(self) -> int:
        """What the cards the last holder kept at the end added to its pile (0 before the end)."""
        s = self.buf[0]["table"]["s"]
        return int(E.pile_points(self._additive(), 1, s[E.S_KEPT], s[E.S_KEPT_TT], s[E.S_KEPT_FIVES]))

    def _additive(self) -> int:
        """The scoring rule's code; a pile's points are its cards' values summed, except under piles
        scoring (a pile's height counts), where a hand has no points of its own."""
        rule = int(self.buf[0]["table"]["rules"][R_SCORING])
        if rule == E.PILES:
            raise ValueError("under piles scoring a card's points hang on its pile's height")
        return rule

    def facts(self, seat: int) -> View:
        t = self.buf[0]["table"]
        s = t["s"]
        p = self.rules.players
        hand = self.buf[0]["seats"][seat]["hand"]
        cards = [c for c in range(53) for _ in range(int(hand[c]))]
        points = records._points(self.buf)
        v = View(
            f"your hand (seat {seat})",
            sorted(cards, key=_order),
            seat,
            before=[f"stock: {int(s[E.S_STOCK] - s[E.S_TOP])} cards left"],
            columns=["seat", "points", "cards won", "hand", "shown void in"],
        )
        if int(s[E.S_PHASE]) in (E.FOLLOW, E.CHALLENGE):
            led = int(s[E.S_LED_SUIT])
            v.trick_label = (
                f"trick (led by seat {int(s[E.S_LEADER])}, {SUIT_WORDS[led] if 0 <= led < 4 else '?'})"
            )
            v.trick = [
                (int(t["trick_seat"][i]), int(t["trick_card"][i])) for i in range(int(s[E.S_TRICK_LEN]))
            ]
            passed = [q for q in range(p) if t["passed"][q]]
            v.trick_note = f"; passed: {', '.join(map(str, passed))}" if passed else ""
        for q in range(p):
            void = "".join(SUIT_SYMBOLS[k] if k < 4 else "X" for k in range(5) if t["void"][q][k])
            v.rows.append([q, int(points[q]), int(t["won_n"][q]), int(t["hand_n"][q]), void or "-"])
        return v

    def describe(self, seat: int) -> list[str]:
        v = self.facts(seat)
        lines = [*v.head(), "seat   points  cards won  hand  shown void in"]
        for q, pts, won, n, void in v.rows:
            you = "  (you)" if q == seat else ""
            lines.append(f"{q:>4} {pts:>8} {won:>10} {n:>5}  {void}{you}")
        return lines

    def record(self, moves: list[str], seed: int, strategies: list[str]) -> dict:
        return {
            "game": "welsh",
            "rules": self.rules.to_record(),
            "first": self.first,
            "deck": [card_name(int(c)) for c in self.stock],
            "moves": moves,
            **self._result(),
            "seed": self._seed(seed, {"game": 0}),
            "strategies": strategies,
        }


@lru_cache
def _card_values(rule: int) -> np.ndarray:
    """Each card's points in a winnings pile under scoring rule ``rule`` (the engine's card_value)."""
    return np.array([E.card_value(c, rule) for c in range(53)], np.int64)


def _order(c: int) -> tuple[int, int]:
    return (4, 0) if c == TAFFY else (c // 13, c % 13)
