"""The tables being played, held server side: one :class:`Seat` per browser table, by token.

A :class:`Seat` is a person's seat at one deal: a :class:`whistsim.game.GameState`, the other
seats' players (moved by ``play_bot`` when it is their turn) and the public story so far.
What it hands the page (:meth:`Seat.state`) is built from ``GameState.view(seat)``, the moves
and the public event lines alone: never another hand, the stock's order, or the record before
the deal is over.
"""

from __future__ import annotations

import secrets
import threading
from collections import Counter, OrderedDict
from dataclasses import dataclass, field
from typing import Any

from ..core.options import WhistsimError
from ..game import GameState, IllegalMove, new_game

MAX_TABLES = 100  # tables held at once; the least recently used goes first
MAX_TOKEN = 64  # characters: a longer token is no table's
MAX_MOVE = 32  # characters: a longer move is no move, and is not echoed back whole
_SOLVED = ("whist", "scotch")  # the dealt games the open-hand solver takes


class UnknownTable(WhistsimError):
    """A token that names no table held now (never made, or dropped as the oldest)."""


@dataclass
class Setup:
    """How a table was set up: enough to deal it again from the start (undo)."""

    game: str  # the engine's game, by its registry name
    preset: str | None
    rules: dict[str, str]  # option key -> value as typed, as ``--rule KEY=VALUE``
    seat: int
    seed: int
    players: list[str]  # one player spec per seat; the person's seat holds the hint player
    hint: str

    @property
    def title(self) -> str:
        from ..games import get_game

        if self.game == "scotch":
            return "French Whist" if self.preset == "french" else "Scotch Whist"
        return get_game(self.game).title

    def deal(self) -> GameState:
        return new_game(self.game, seed=self.seed, preset=self.preset, rules=dict(self.rules))


@dataclass
class Entry:
    """One move as the table saw it: who, the move as a record writes it, the public lines."""

    seat: int
    move: str
    lines: list[str]
    events: list[tuple[str, int, int, int]] = field(default_factory=list)  # as the engine reported them
    yours: bool = False
    forced: bool = False  # the person's only legal move, made for them


@dataclass
class Seat:
    """A person's seat at one deal, with the built-in players in the others."""

    setup: Setup
    g: GameState = field(init=False)
    log: list[Entry] = field(default_factory=list)
    chosen: list[str] = field(default_factory=list)  # the person's own choices, for undo
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _review: dict | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.g = self.setup.deal()
        self.advance()

    @property
    def seat(self) -> int:
        return self.setup.seat

    # -- moving
    def _make(self, move: str | None, *, forced: bool = False) -> None:
        """One move for the seat to move: ``move`` as typed, or None for its built-in player."""
        g, q = self.g, self.g.to_move
        mine = q == self.seat
        before = Counter(g.view(q).hand) if mine else None
        if move is None:  # play_bot draws from the seat's random stream, as a simulation's player
            g.play_bot(self.setup.players[q])
            lines = g.told
        else:
            lines = g.play(move)
        if before is not None:  # the person's own draw is theirs to see (their hand shows it anyway)
            drawn = list((Counter(g.view(q).hand) - before).elements())
            lines = [_you_drew(line, q, drawn) for line in lines]
        self.log.append(Entry(q, g.moves[-1], lines, g.events, yours=mine, forced=forced))
        self._review = None

    def advance(self) -> None:
        """The built-in players move until it is the person's move or the deal is over; the
        person's only legal move is made for them, as ``whistsim play`` does."""
        while not self.g.done:
            if self.g.to_move == self.seat:
                legal = self.g.legal_moves()
                if len(legal) != 1:
                    return
                self._make(legal[0], forced=True)
            else:
                self._make(None)

    def move(self, text: Any) -> None:
        """The person's move; IllegalMove (the state unchanged) for one not allowed now."""
        if self.g.done:
            raise IllegalMove("the deal is over")
        if self.g.to_move != self.seat:
            raise IllegalMove(f"it is seat {self.g.to_move}'s move, not yours")
        if not isinstance(text, str) or len(text) > MAX_MOVE:
            shown = repr(text) if len(repr(text)) <= MAX_MOVE else f"{repr(text)[:MAX_MOVE]}..."
            raise IllegalMove(f"{shown}: a move is a few characters of text, as records write it (7H, draw)")
        self._make(text.strip())
        self.chosen.append(text.strip())
        self.advance()

    def undo(self) -> int:
        """Take back the person's last choice and the others' moves since, dealing again from the
        start with the same seed and rules: the players decide as they did. Returns how many
        moves were taken back."""
        if not self.chosen:
            raise IllegalMove("nothing to undo: you have chosen no move yet")
        keep, before = self.chosen[:-1], len(self.g.moves)
        self.g, self.log, self.chosen, self._review = self.setup.deal(), [], [], None
        self.advance()
        for text in keep:
            self.move(text)
        return before - len(self.g.moves)

    def hint(self) -> str:
        if self.g.done or self.g.to_move != self.seat:
            raise IllegalMove("it is not your move")
        return self.g.suggest(self.setup.hint)

    # -- what the page is shown
    def state(self) -> dict[str, Any]:
        """The table as the person's seat may see it (JSON-ready)."""
        g, seat = self.g, self.seat
        v = g.view(seat)
        mine = not g.done and g.to_move == seat
        tricks = self.tricks()
        done = [t for t in tricks if t["winner"] is not None]
        out: dict[str, Any] = {
            "game": g.game,
            "title": self.setup.title,
            "seat": seat,
            "players": g.players,
            "seed": self.setup.seed,
            "to_move": g.to_move,
            "your_move": mine,
            "over": g.done,
            "hand": v.hand,
            "legal": g.legal_moves() if mine else [],
            "trick": [[q, c] for q, c in v.trick],
            "facts": v.facts,
            "seats": [
                {**row, "player": "you" if q == seat else self.setup.players[q]}
                for q, row in enumerate(v.seats)
            ],
            "log": [
                {"seat": e.seat, "move": e.move, "lines": e.lines, "yours": e.yours, "forced": e.forced}
                for e in self.log
            ],
            "last_trick": done[-1] if done else None,
            "tricks_done": len(done),
            "can_undo": bool(self.chosen),
            "hint_player": self.setup.hint,
        }
        if g.done:
            out["result"] = g.result()
        return out

    def tricks(self) -> list[dict[str, Any]]:
        """The tricks so far from the moves and their public lines: who played what, who won."""
        out: list[dict[str, Any]] = []
        cur: dict[str, Any] | None = None
        for e in self.log:  # read from the engine's events: a draw or a bid plays no card to a trick
            kinds = {k for k, *_ in e.events}
            if kinds & {"challenge", "nochallenge"}:
                if cur is None and out:  # a challenge of the trick just won
                    out[-1]["lines"] += e.lines
                elif cur is not None:
                    cur["lines"] += e.lines
                continue
            if not kinds & {"lead", "follow", "pass"}:
                continue
            if cur is None:
                cur = {"number": len(out) + 1, "plays": [], "lines": [], "winner": None}
            cur["plays"].append([e.seat, e.move.partition(":")[2]])
            cur["lines"] += e.lines
            won = next((q for k, q, *_ in e.events if k == "trick"), None)
            if won is not None:
                cur["winner"] = won
                out.append(cur)
                cur = None
        if cur is not None:
            out.append(cur)
        return out

    def record(self) -> dict:
        """The deal's record, once it is over (before, it would show every hand and the stock)."""
        if not self.g.done:
            raise WhistsimError("the record is shown once the deal is over")
        return self.g.record()

    def review(self) -> dict[str, Any]:
        """After the deal: the record's result, the account trick by trick and, for Whist and
        Scotch Whist with two sides, what each of the person's cards cost against perfect
        open-hand play (the solver's value of the best card minus that of the card played)."""
        if not self.g.done:
            raise WhistsimError("the account is shown once the deal is over")
        if self._review is None:
            self._review = {"result": self.g.result(), "tricks": self.tricks(), **self._costs()}
        return self._review

    def _costs(self) -> dict[str, Any]:
        if self.g.game not in _SOLVED:
            return {
                "costs": None,
                "costs_note": "card costs are given for the dealt games (Whist, Scotch Whist)",
            }
        from ..solver import card_costs

        try:
            judged = card_costs(self.g.record())
        except WhistsimError as e:  # the solver takes two sides only (e.g. not Scotch Whist solo)
            return {"costs": None, "costs_note": str(e)}
        rows = [
            {"move": c["move"] + 1, "card": c["card"], "best": c.get("best", [c["card"]]), "cost": c["cost"],
             "revoke": c.get("revoke", False)}
            for c in judged["cards"]
            if c["seat"] == self.seat
        ]  # fmt: skip
        unit = judged["unit"].removesuffix("s")
        return {"costs": rows, "cost_unit": unit, "cost_total": sum(r["cost"] for r in rows),
                "par": judged["start"], "made": judged["end"]}  # fmt: skip


def _you_drew(line: str, seat: int, drawn: list[str]) -> str:
    from ..core.cards import parse_card, pretty_card

    if line == f"seat {seat} draws" and len(drawn) == 1:
        return f"you draw {pretty_card(parse_card(drawn[0]))}"
    return line


class Tables:
    """The tables held now, by token: at most :data:`MAX_TABLES`, the least recently used
    dropped first; safe across the server's threads."""

    def __init__(self, limit: int = MAX_TABLES) -> None:
        self.limit = limit
        self._lock = threading.Lock()
        self._held: OrderedDict[str, Seat] = OrderedDict()

    def add(self, seat: Seat) -> str:
        token = secrets.token_urlsafe(16)
        with self._lock:
            self._held[token] = seat
            while len(self._held) > self.limit:
                self._held.popitem(last=False)
        return token

    def get(self, token: str) -> Seat:
        with self._lock:
            held = self._held.get(token) if isinstance(token, str) and len(token) <= MAX_TOKEN else None
            if held is None:
                raise UnknownTable("no such table (it may have been closed to make room): start a new one")
            self._held.move_to_end(token)
            return held

    def __len__(self) -> int:
        with self._lock:
            return len(self._held)
