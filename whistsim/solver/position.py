"""Positions from records, and their open-hand values (see :mod:`whistsim.games.dealt.search`).

A record's deal and moves are replayed on the engine (``games.dealt.records``);
the moves may stop anywhere, mid-trick included, and the position after them is
solved. Whist and Scotch Whist with two sides (4, 6 or 8 players) only.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from ..core.cards import card_name
from ..games.dealt import kernels as dealt_play
from ..games.dealt import records as dealt_records
from ..games.dealt import search as se
from ..games.dealt.engine import (
    ENGINE_ERRORS,
    MAX_PLAYERS,
    OVER,
    P_POINTS,
    R_PLAYERS,
    S_PHASE,
    S_TRICK_LEN,
    SCOTCH,
    from_power,
)
from ..games.scotch.rules import ScotchRules
from ..games.whist.rules import WhistRules
from ..harness.build import kernel
from ..harness.loop import REPLAY_SHORT
from ..harness.replay import RecordError, verdict

RULES = {"whist": WhistRules, "scotch": ScotchRules}


class Position:
    """A dealt game's position, ready to solve: the engine state and the search arrays."""

    def __init__(self, rules, buf: np.ndarray, tt: np.ndarray | None = None) -> None:
        self.rules = rules
        self.buf = buf
        self.tt = se.new_table() if tt is None else tt
        self.X = np.zeros(se.N_X, np.int64)
        self.pts_rank = np.zeros((4, 13), np.int64)
        self.mv = np.zeros((se.MAX_DEPTH, se.MOVE_SLOTS), np.int64)
        scratch = buf.copy()
        _card_points(scratch, self.pts_rank)
        self.reload()

    @property
    def core(self):
        return self.buf[0]["core"]

    @property
    def over(self) -> bool:
        return int(self.core["table"]["s"][S_PHASE]) == OVER

    def reload(self) -> None:
        """The search arrays from the engine state."""
        self.secured = int(_load(self.buf, self.pts_rank, self.X))

    @property
    def seat(self) -> int:
        return int(se.seat_to_play(self.X))

    @property
    def tricks_left(self) -> int:
        """Tricks from the one in progress (counted) to the end."""
        p = self.rules.players
        return (int(self.X[se.SLEFT]) + int(self.core["table"]["s"][S_TRICK_LEN])) // p

    def value(self, guess: int | None = None) -> int:
        """Side 0's open-hand value: Whist tricks from the trick in progress on; Scotch Whist the
        margin of side 0 over side 1 in the deal's final points. ``guess``, a likely value (of
        the search, without what is secured), starts the search; by default a quick play-out."""
        if self.over:
            return self.secured
        if guess is None:
            guess = se.playout(self.X, self.mv)
        return self.secured + int(se.mtdf(self.X, self.tt, self.mv, guess))

    def move_values(self) -> tuple[int, dict[int, int]]:
        """(seat to play, {card: value after it}) for every legal card."""
        out = np.zeros(64, np.int64)
        seat = int(se.move_values(self.X, self.tt, self.mv, out, se.playout(self.X, self.mv)))
        vals = {}
        for i in np.flatnonzero(out < se.INF):
            suit, bit = divmod(int(i), 16)
            vals[suit * 13 + int(from_power(bit))] = self.secured + int(out[i])
        return seat, vals

    def best(self) -> tuple[list[int], dict[int, int]]:
        """(best cards, in card order, {card: value}) for the seat to play."""
        seat, vals = self.move_values()
        side0 = int(self.X[se.OTEAM + seat]) == 0
        top = max(vals.values()) if side0 else min(vals.values())
        return sorted(c for c, v in vals.items() if v == top), vals

    def play(self, card: int) -> None:
        e = dealt_records.step(self.buf, np.int64(card))
        if e:
            raise ValueError(f"illegal card {card_name(card)}: {ENGINE_ERRORS[int(e)]}")
        self.reload()

    def line_points(self) -> list[int]:
        """The deal's final points per side when every player plays the lowest of its best cards
        (Scotch Whist; plays the position out)."""
        while not self.over:
            cards, _ = self.best()
            self.play(cards[0])
        return [int(x) for x in self.core["result"][P_POINTS, :2]]


@njit(cache=True)
def _card_points(buf, out):
    se.card_points(buf[0].core, out)


@njit(cache=True)
def _load(buf, pts_rank, X):
    c = buf[0].core
    hands = np.zeros((MAX_PLAYERS, 4), np.int64)
    for q in range(c.table.rules[R_PLAYERS]):
        for suit in range(4):
            hands[q, suit] = c.seats[q].bits[suit]
    return se.load(c.table, hands, pts_rank, X)


def from_hands(
    rules, hands: list[list[str]], leader: int, trump: str, tt: np.ndarray | None = None
) -> Position:
    """A position at the start of a trick from hands of any (equal) size, e.g. an ending:
    ``hands[seat]`` card codes, ``leader`` to lead, ``trump`` the trump suit (C D H S)."""
    from ..core.cards import SUITS, parse_card
    from ..games.dealt.kernels import new_state

    check_solvable(rules)
    buf = new_state(rules)
    for q, hand in enumerate(hands):
        for text in hand:
            c = parse_card(text)
            buf[0]["core"]["sets"][0, q, c // 13] |= 1 << (c % 13)
    p = rules.players
    dealt_records.start(buf, np.int64((leader - 1) % p), np.int64(SUITS.index(trump) * 13), np.int64(-1))
    return Position(rules, buf, tt)


def check_solvable(rules) -> None:
    if rules.kind == SCOTCH and (rules.n_teams != 2 or rules.sets != 1):
        raise RecordError(
            "the solver takes Scotch Whist with two sides and one hand each (4 players, "
            "6 in threes, 8 in fours)"
        )


def solver_game(record: Any) -> str:
    """The record's game, when the solver takes it; else RecordError."""
    name = record.get("game") if isinstance(record, dict) else None
    if not isinstance(name, str) or name not in RULES:
        raise RecordError(f"the solver takes records of whist and scotch, not {name!r}")
    return name


def position_of(record: Any, tt: np.ndarray | None = None) -> Position:
    """The position after a record's moves; RecordError / MoveError for a bad record."""
    name = solver_game(record)
    d = dealt_records.load(name, RULES[name], record)
    check_solvable(d.rules)
    dealt_records.start(d.buf, np.int64(d.dealer), np.int64(d.turnup), np.int64(d.aside))
    status, i, detail = kernel(dealt_play, None).replay_moves(d.buf, d.seats, d.cards)
    if status != REPLAY_SHORT or d.bad is not None:
        verdict(status, i, detail, record["moves"], d.bad, ENGINE_ERRORS,
                short="is to play", turn="is to play")  # fmt: skip
    return Position(d.rules, d.buf, tt)
