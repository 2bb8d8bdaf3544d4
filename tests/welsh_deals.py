"""Hand-made Welsh Whist deals for the tests: a written stock top and written moves.

A :class:`Deal` steps the rules engine (the one simulation and replay use) move by
move, so a test can look at hands, piles and whose turn it is between moves, and
:meth:`Deal.finish` plays the rest with a fixed legal policy and checks that the
record replays to the same result.
"""

from __future__ import annotations

import numpy as np

from whistsim.core.cards import TAFFY, card_name, parse_card
from whistsim.core.strategy import parse_spec
from whistsim.games import seating
from whistsim.games.welsh import engine as E
from whistsim.games.welsh.kernels import decide_now
from whistsim.games.welsh.moves import action_name, parse_action
from whistsim.games.welsh.records import replay, result_of, start, step
from whistsim.games.welsh.rules import WelshRules


def make_stock(rules: WelshRules, top: list[str]) -> list[int]:
    """``top`` (card codes, top first), then the rest of the stock in code order."""
    rest = [int(c) for c in rules.deck()]
    cards = [parse_card(c) for c in top]
    for c in cards:
        rest.remove(c)  # ValueError: more of a card than the stock holds
    return cards + rest


def rules_of(**kw) -> WelshRules:
    """Parlett's defaults (3 players, 2 packs, 4 Taffies) with ``kw`` changed."""
    return WelshRules(**kw)


class Deal:
    def __init__(self, top: list[str] = (), first: int = 0, **rules) -> None:
        self.rules = rules_of(**rules)
        self.stock = make_stock(self.rules, list(top))
        self.first = first
        self.moves: list[str] = []
        self.buf = E.new_state(self.rules.to_array())
        start(self.buf, np.array(self.stock, np.int8), first)

    # ---- what the table shows ------------------------------------------------

    @property
    def s(self) -> np.ndarray:
        return self.buf[0]["table"]["s"]

    @property
    def seat(self) -> int:
        return int(self.s[E.S_SEAT])

    @property
    def phase(self) -> int:
        return int(self.s[E.S_PHASE])

    @property
    def stock_left(self) -> int:
        return int(self.s[E.S_STOCK] - self.s[E.S_TOP])

    def hand(self, q: int) -> list[str]:
        return _names(self.buf[0]["seats"][q]["hand"])

    def won(self, q: int) -> list[str]:
        return _names(self.buf[0]["table"]["won"][q])

    def won_n(self, q: int) -> int:
        return int(self.buf[0]["table"]["won_n"][q])

    # ---- moves ---------------------------------------------------------------

    def play(self, *moves: str) -> Deal:
        """Make each move, which must be legal and owed by its seat."""
        for m in moves:
            seat, _, action = m.partition(":")
            assert int(seat) == self.seat, f"{m}: seat {self.seat} owes the decision"
            e = step(self.buf, parse_action(action))
            assert e == E.OK, f"{m}: {E.ENGINE_ERRORS[e]}"
            self.moves.append(m)
        return self

    def error(self, move: str) -> int:
        """The engine's error code for ``move`` by the owing seat (0: legal); nothing is applied."""
        seat, _, action = move.partition(":")
        assert int(seat) == self.seat, f"{move}: seat {self.seat} owes the decision"
        trial = self.buf.copy()
        return int(step(trial, parse_action(action)))

    def draws(self, *seats: int) -> Deal:
        return self.play(*(f"{q}:draw" for q in seats))

    def finish(self) -> dict:
        """Play on with :func:`policy` to the end; the record must replay to the same result."""
        while self.phase != E.OVER:
            self.play(f"{self.seat}:{action_name(policy(self))}")
        result = result_of(self.buf)
        assert replay(self.record()) == result
        return result

    def record(self) -> dict:
        return {
            "game": "welsh",
            "rules": self.rules.to_record(),
            "first": self.first,
            "deck": [card_name(c) for c in self.stock],
            "moves": list(self.moves),
        }


def policy(d: Deal) -> int:
    """Draw while the stock lasts, lead the lowest card, follow with the lowest legal card."""
    own = d.buf[0]["seats"][d.seat]["hand"]
    held = np.flatnonzero(own)
    if d.phase == E.TURN:
        if d.stock_left > 0:
            return E.DRAW
        c = int(held[0])
        return E.TAFFY_LEAD if c == TAFFY else c  # a lone Taffy names clubs
    if d.phase == E.FOLLOW:
        suit = int(d.s[E.S_LED_SUIT])
        for c in held:
            if c == TAFFY or c // 13 == suit:
                return int(c)
        return E.PASS
    return E.NO_CHALLENGE


def _names(counts: np.ndarray) -> list[str]:
    return [card_name(c) for c in range(53) for _ in range(int(counts[c]))]


def decision(deal: Deal, spec: str) -> str:
    """What ``spec`` decides for the seat owing the next decision of ``deal`` (the deal is untouched)."""
    buf = deal.buf.copy()
    ids, params = seating("welsh", [parse_spec(spec)], deal.rules.players)
    buf[0]["seats"][deal.seat]["strategy"] = ids[deal.seat]
    buf[0]["seats"][deal.seat]["params"][:] = params[deal.seat]
    return action_name(int(decide_now(buf)))


def dealt(hands: list[list[str]], **rules) -> Deal:
    """Seats 0, 1, 2 in turn draw the next card of their hands (hands of one length)."""
    top = [h[i] for i in range(len(hands[0])) for h in hands]
    return Deal(top, **rules).draws(*[0, 1, 2] * len(hands[0]))
