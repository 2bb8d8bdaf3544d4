"""A deal at the table: one game's engine stepped a move at a time, for ``whistsim play``
(:mod:`whistsim.tools.terminal`) and :class:`whistsim.game.GameState` alike.

A game gives a :class:`Deal` subclass (``games/<name>/table.py``, the ``Game.table`` field) that
says where its state keeps the seats and what one seat may see (:class:`View`); stepping,
asking the seated players and telling what a move did (in the game's words, through
:mod:`.narrator`) are shared here.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.cards import pretty_card
from ..core.options import WhistsimError
from . import events as ev
from .narrator import Words, table_lines


class IllegalMove(WhistsimError):
    """A typed move the rules do not allow now; the message says why."""


def cards_text(cards) -> str:
    return " ".join(pretty_card(int(c)) for c in cards) or "-"


@dataclass
class View:
    """What a seat may see now, as data: shown as plain text (``describe``) or with rich."""

    label: str  # "your hand (seat 0)"
    hand: list[int]  # cards in display order
    seat: int
    before: list[str] = field(default_factory=list)  # public facts shown before the trick
    after: list[str] = field(default_factory=list)  # ... and after it
    trick_label: str = ""
    trick: list[tuple[int, int]] | None = None  # (seat, card) played so far, when a trick is on
    trick_note: str = ""
    columns: list[str] = field(default_factory=list)  # the table of seats: public figures
    rows: list[list[Any]] = field(default_factory=list)

    def head(self) -> list[str]:
        """The plain lines above the table of seats."""
        lines = [f"{self.label}: {cards_text(self.hand)}", *self.before]
        if self.trick is not None:
            plays = "   ".join(f"{q}: {pretty_card(c)}" for q, c in self.trick)
            lines.append(f"{self.trick_label}: {plays}{self.trick_note}")
        return lines + self.after


class Deal(ABC):
    """One deal of a game, stepped a move at a time. A subclass is made as
    ``(game, rules, record, seed)``: the deal of ``record`` (its moves not made), the seats'
    random streams from ``seed``; it sets ``buf``, ``E`` (the game's engine: its state's
    indices), ``play`` (its kernel parts), ``step_kernel``, ``n_actions``, ``rules`` and
    ``words``, and says where the seats are."""

    buf: np.ndarray
    E: Any
    play: Any
    step_kernel: Any
    n_actions: int
    rules: Any
    words: Words
    given = False  # a deal given as text or a record, not dealt from the seed
    own_events: dict[int, str] = {}  # the names of event kinds the game's table adds to the engine's

    def event_name(self, kind: int) -> str:
        """An event kind's name: the engine's (harness/events.py) or the table's own."""
        return ev.NAMES[kind] if 0 <= kind < len(ev.NAMES) else self.own_events[kind]

    # -- what a game's subclass says
    @abstractmethod
    def holder(self):
        """The record holding the event buffer."""

    @abstractmethod
    def seats(self):
        """The seats' records (hand, strategy, params, rng)."""

    @abstractmethod
    def to_move(self) -> int:
        """The seat whose decision is owed."""

    @abstractmethod
    def over(self) -> bool:
        """Is the deal over?"""

    @abstractmethod
    def parse(self, text: str) -> int:
        """A move as typed -> its action; ValueError saying why not."""

    @abstractmethod
    def name(self, a: int) -> str:
        """An action as records write it."""

    @abstractmethod
    def decide(self) -> int:
        """The seated player's decision, asked now."""

    @abstractmethod
    def result(self) -> dict:
        """The deal's result, as its record holds it."""

    @abstractmethod
    def facts(self, seat: int) -> View:
        """What ``seat`` may see now."""

    @abstractmethod
    def describe(self, seat: int) -> list[str]:
        """:meth:`facts` as the lines ``whistsim play`` shows."""

    @abstractmethod
    def record(self, moves: list[str], seed: int, strategies: list[str]) -> dict:
        """The deal's record so far (docs/records.md)."""

    @classmethod
    def first_to_move(cls, record: dict, first: int, players: int) -> dict:
        """``record`` with seat ``first`` moving first, or one line on why this deal cannot."""
        raise WhistsimError(f"first seat {first}: the deal says who moves first")

    # -- shared
    def legal(self) -> list[str]:
        """The moves the seat to move may make now, as typed, in the engine's order."""
        step, buf = self.step_kernel.step, self.buf
        return [self.name(a) for a in range(self.n_actions) if step(buf.copy(), np.int64(a)) == 0]

    def seat_players(self, ids, params) -> None:
        """Seat the players of :func:`~whistsim.games.seating`'s ``ids`` and ``params``."""
        seats = self.seats()
        for q in range(len(ids)):  # the players' seats (the state holds room for the most)
            seats[q]["strategy"] = ids[q]
            seats[q]["params"][:] = params[q]

    def asked(self) -> int:
        """The decision of the player seated where a decision is owed; a user's function
        that raises is named in one line."""
        from ..core.strategy import USER_BASE, user_label

        q = self.to_move()
        try:
            return self.decide()
        except Exception as e:
            sid = int(self.seats()[q]["strategy"])
            if sid < USER_BASE:
                raise
            while isinstance(e, SystemError) and e.__cause__ is not None:  # Numba's wrapper
                e = e.__cause__
            text = " ".join(str(e).split())
            raise WhistsimError(
                f"seat {q} ({user_label(sid)}): raised {type(e).__name__}" + (f": {text}" if text else "")
            ) from None

    def choose(self) -> int:
        """The seated player's move, as the kernels' loop makes it: a move the rules force
        (Welsh Whist's pass when unable to follow, draw with an empty hand) is made without
        asking, any other is asked even when one card is legal, so the players' random
        streams, and so their play, are those of a simulation with the same seed."""
        a = int(self.step_kernel.forced(self.buf[0]))
        return a if a >= 0 else self.asked()

    def apply(self, a: int) -> tuple[str, list[tuple[int, int, int, int]]]:
        """Make move ``a``: (the move as a record writes it, the events it caused). Raises
        IllegalMove, the deal unchanged (the engine checks first), for one the rules refuse."""
        h = self.holder()
        seat = self.to_move()
        h["ev_on"], h["ev_n"] = 1, 0
        try:
            e = int(self.step_kernel.step(self.buf, np.int64(a)))
            events = ev.read_events(h)
        finally:
            h["ev_on"], h["ev_n"] = 0, 0
        if e != 0:
            raise IllegalMove(f"{self.name(a)} is illegal: {self.play.ENGINE_ERRORS[e]}")
        return f"{seat}:{self.name(a)}", events

    def story(self, events, seat: int) -> list[str]:
        """What ``events`` showed ``seat`` (-1: anyone at the table), in the game's words."""
        return table_lines(events, self.words, seat)

    def _result(self) -> dict:
        """A record's ``result``: none for a deal under way."""
        return {"result": self.result()} if self.over() else {}

    def _seed(self, seed: int, where: dict) -> dict:
        """A record's ``seed``: the run's seed and, for a deal dealt from it, where in the run."""
        return {"run": seed} if self.given else {"run": seed, **where}


__all__ = ["Deal", "IllegalMove", "View", "cards_text"]
