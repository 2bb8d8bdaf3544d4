"""A game played one move at a time from Python: :func:`new_game` and :class:`GameState`.

The state is the rules engine the kernels run (the game's deal at the table,
``Game.table``, a :class:`whistsim.harness.table.Deal`, stepped by the same compiled
``step`` and asked by the same compiled players), so a deal played here with the moves
a built-in player chooses is the deal ``simulate`` plays for that seed. Moves are written as in
records (``"7H"``, ``"draw"``, ``"pass"``, ``"X=S"``, ``"challenge=2"``,
``"nochallenge"``). For Scotch Whist and Whist, whose games run over several
deals to a target, the state is the game's first deal, as ``whistsim play``
and each record are one deal.

>>> import json, whistsim
>>> g = whistsim.new_game("whist", seed=5)
>>> g.to_move, g.legal_moves()[:3]       # seat 0 leads: any card it holds
(0, ['5C', '6C', 'AC'])
>>> g.play("KD")                         # doctest: +ELLIPSIS
Traceback (most recent call last):
...
whistsim.harness.table.IllegalMove: KD is illegal: the player does not hold that card
>>> g.play("6C")                         # what the table saw
['seat 0 leads 6♣']
>>> g.view(1).trick, len(g.view(1).hand)  # seat 1 sees its own 13 cards and the trick
([(0, '6C')], 13)
>>> g.suggest("heuristic")               # what a built-in player would do for seat 1
'9C'
>>> while not g.done:                    # the built-in players finish the deal
...     _ = g.play_bot("heuristic")
>>> g.result()["points"]
[0, 1]
>>> whistsim.judge(0, json.dumps(g.record())).ok
True
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .core.cards import card_name
from .core.options import WhistsimError
from .core.strategy import StrategySpec, parse_spec
from .games import Game, get_game, seating
from .harness.table import Deal, IllegalMove, View

_SEATED = re.compile(r"^\s*(\d+)\s*:(.*)$")  # "2:7H", a move as a record writes it


@dataclass(frozen=True)
class SeatView:
    """What one seat may see: its own hand, the trick on the table and the public facts.

    ``hand`` and ``trick`` hold card names as moves are written (``"TH"``; ``"X"`` is a
    Taffy); ``facts`` are the public lines (stock left, trumps, scores); ``seats`` one dict
    per seat of its public figures (cards won or tricks, cards in hand, suits it has shown
    void in). ``str(view)`` is the text ``whistsim play`` shows that seat.
    """

    seat: int
    hand: list[str]
    trick: list[tuple[int, str]]
    facts: list[str]
    seats: list[dict[str, Any]]
    text: str = field(repr=False)

    def __str__(self) -> str:
        return self.text


class GameState:
    """One deal of a game, played a move at a time; made by :func:`new_game`.

    ``legal_moves()`` lists what the seat ``to_move`` may do; ``play(move)`` makes one
    (an illegal move raises :class:`IllegalMove` with the reason and changes nothing);
    ``play_bot(player)`` lets a built-in player make it and ``suggest(player)`` only asks;
    ``view(seat)`` is what a seat may see; ``copy()`` a state to try a line of play on;
    ``record()`` the record so far; ``done`` and ``result()`` the end.
    """

    def __init__(self, game: str, rules, deal, seed: int) -> None:
        self.game, self.rules, self.seed = game, rules, seed
        self._d = deal
        self._p = get_game(game).players_of(rules)
        self._moves: list[str] = []
        self._by: list[list[str]] = [[] for _ in range(self._p)]  # who made each seat's moves
        self._seated: str | None = None  # the player every seat holds now: one kernel per player asked
        self._told: list[str] = []  # what the last move did, as the table saw it
        self._events: list[tuple[int, int, int, int]] = []  # and as the engine reported it

    # -- where the deal stands
    @property
    def done(self) -> bool:
        """Is the deal over?"""
        return self._d.over()

    @property
    def to_move(self) -> int | None:
        """The seat whose decision is owed (None once the deal is over)."""
        return None if self.done else self._d.to_move()

    @property
    def players(self) -> int:
        """The number of seats."""
        return self._p

    @property
    def moves(self) -> list[str]:
        """The moves made so far, as a record writes them (``"<seat>:<move>"``)."""
        return list(self._moves)

    @property
    def told(self) -> list[str]:
        """What the last move did (by :meth:`play` or :meth:`play_bot`), as anyone at the
        table saw it: the lines :meth:`play` returns."""
        return list(self._told)

    @property
    def events(self) -> list[tuple[str, int, int, int]]:
        """What the last move did as the engine reported it: ``(kind, seat, a, b)`` rows, the kinds
        named as in :mod:`whistsim.harness.events` (``"lead"``, ``"follow"``, ``"trick"``, ...) or by
        the game's table (Oh Hell's ``"bid"``, ``"scored"``, ...)."""
        return [(self._d.event_name(k), q, a, b) for k, q, a, b in self._events]

    def legal_moves(self) -> list[str]:
        """Every move the seat to move may make now, in the engine's order (none once over)."""
        return [] if self.done else self._d.legal()

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may see now: never another hand or the stock's order."""
        seat = _seat_number(seat, self._p, "seat")
        v: View = self._d.facts(seat)
        keys = [c.replace(" ", "_") for c in v.columns]  # "shown void in" -> shown_void_in
        seats = [dict(zip(keys, row, strict=True)) for row in v.rows]
        return SeatView(
            seat=seat,
            hand=[card_name(c) for c in v.hand],
            trick=[(q, card_name(c)) for q, c in (v.trick or [])],
            facts=[*v.before, *v.after],
            seats=seats,
            text="\n".join(self._d.describe(seat)),
        )

    # -- moving
    def play(self, move: str) -> list[str]:
        """Make ``move`` for the seat to move; returns what happened, as anyone at the table
        saw it (a card drawn by a seat is not named). Raises :class:`IllegalMove` with the
        reason, the state unchanged, for a move the rules do not allow now."""
        return self._make(self._parse(move), "typed")

    def suggest(self, player: str | StrategySpec = "random") -> str:
        """The move the built-in ``player`` (a spec: ``"heuristic"``, ``"cheater:rate=0.2"``)
        would make for the seat to move; nothing changes, not even the seat's random stream."""
        keep, seated = self._d.buf.copy(), self._seated
        try:
            self._seat(player)
            return self._d.name(self._d.choose())
        finally:  # the seats' players too: the state is byte for byte as it was
            self._d.buf[:] = keep
            self._seated = seated

    def play_bot(self, player: str | StrategySpec = "random") -> str:
        """Let the built-in ``player`` make the move for the seat to move, from that seat's
        random stream as a simulation's player would; returns the move made."""
        self._seat(player)
        a = self._d.choose()
        self._make(a, str(self._seated))
        return self._d.name(a)

    def _seat(self, player: str | StrategySpec) -> None:
        if self.done:
            raise IllegalMove("the deal is over")
        spec = player if isinstance(player, StrategySpec) else parse_spec(str(player))
        if spec.user is not None:
            raise WhistsimError(f"{spec.name}: play_bot and suggest take a built-in player")
        if str(spec) != self._seated:
            # Every seat holds the same player, so one compiled kernel serves each player asked.
            self._d.seat_players(*seating(self.game, [spec], self._p))
            self._seated = str(spec)

    def _parse(self, move: Any) -> int:
        if self.done:
            raise IllegalMove("the deal is over")
        if not isinstance(move, str):
            raise IllegalMove(
                f"{move!r}: a move is text, as records write it (legal now: {self._legal_text()})"
            )
        text = move
        seated = _SEATED.match(move)
        if seated:
            if int(seated.group(1)) != self.to_move:
                raise IllegalMove(f"{move.strip()!r}: it is seat {self.to_move}'s move")
            text = seated.group(2)
        try:
            return self._d.parse(text)
        except ValueError as e:
            raise IllegalMove(f"{move.strip()!r}: {e} (legal now: {self._legal_text()})") from None

    def _legal_text(self) -> str:
        return " ".join(self.legal_moves())

    def _make(self, a: int, by: str) -> list[str]:
        seat = self.to_move
        move, events = self._d.apply(a)  # an illegal move raises, changing nothing
        self._moves.append(move)
        if by not in self._by[seat]:
            self._by[seat].append(by)
        self._told = self._d.story(events, -1)  # told to no seat of the deal (the narrator): no hidden card
        self._events = list(events)
        return list(self._told)

    def copy(self) -> GameState:
        """An independent copy, to try a line of play without touching this one
        (the seats' random streams are copied too: the copy's players draw as this one's would)."""
        d = copy.copy(self._d)
        d.buf = self._d.buf.copy()
        out = GameState(self.game, self.rules, d, self.seed)
        out._moves, out._by, out._seated = list(self._moves), [list(b) for b in self._by], self._seated
        out._told = list(self._told)
        out._events = list(self._events)
        return out

    # -- the end
    def result(self) -> dict:
        """The deal's result, as its record holds it (points, cards won or tricks, ...)."""
        if not self.done:
            raise WhistsimError(f"the deal is not over: seat {self.to_move} to move")
        return self._d.result()

    def record(self) -> dict:
        """The record of the deal so far (docs/records.md): once the deal is over,
        ``whistsim replay`` and :func:`whistsim.judge` judge it like any other.
        ``strategies`` says who made each seat's moves (``typed``: :meth:`play`)."""
        return self._d.record(self.moves, self.seed, ["+".join(b) or "none" for b in self._by])

    def __repr__(self) -> str:
        where = "over" if self.done else f"seat {self.to_move} to move"
        return f"<GameState {self.game} seed={self.seed}: {where}, {len(self._moves)} moves made>"


def new_game(
    game: str | None = None,
    *,
    seed: int = 0,
    preset: str | None = None,
    players: int | None = None,
    rules: dict[str, Any] | None = None,
    first: int | None = None,
    deal: str | dict | None = None,
) -> GameState:
    """A deal of ``game`` (default ``welsh``) to play a move at a time: the first deal
    ``simulate`` plays with ``seed`` (game 0), seat ``first`` (default 0) moving first.
    ``preset``, ``players`` and ``rules`` (option keys to values, as ``--rule KEY=VALUE``) as
    for :func:`whistsim.simulate`; French Whist is Scotch Whist's preset ``french``.

    ``deal`` plays a deal you choose: text in the notation of :func:`whistsim.parse_deal`
    (the game, its rules and who deals or moves first written in it or given here), or a
    record (docs/records.md) whose rules and deal are taken as they are and whose moves, if
    any, are made. ``seed`` then decides only the built-in players' choices.

    >>> g = new_game("scotch", preset="french", seed=2)
    >>> g.players, g.to_move, g.view(0).hand
    (4, 0, ['7C', 'QC', '9D', 'TD', 'TH', 'JH', 'KH', '8S', '9S'])
    >>> g.play(g.suggest("heuristic"))
    ['seat 0 leads 7♣']
    >>> g = new_game(deal="whist N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432 trump=2S")
    >>> g.to_move, g.view(0).facts[0]      # West dealt and turned the two of spades: North leads
    (0, 'trumps: spades (turned up: 2♠, dealer seat 3); set 1 of 1')
    """
    if deal is not None:
        return _given(game, deal, seed, preset, players, rules, first)
    g = get_game(game or "welsh")
    r = g.make_rules(preset, players, dict(rules or {}))
    first = _seat_number(0 if first is None else first, g.players_of(r), "first seat")
    # The deal is a function of (seed, game 0) alone: random players make it cheapest to read.
    d = first_deal(g, r, seed, preset=preset, players=players, rules=rules, first=first)
    return GameState(g.name, r, d, seed)


def _given(game, deal, seed: int, preset, players, rules, first) -> GameState:
    """:func:`new_game` of a deal given as text or a record."""
    record = deal_record(deal, game, preset=preset, players=players, rules=rules)
    g = get_game(record["game"])
    r = g.rules_from_record(record["rules"])
    p = g.players_of(r)
    if first is not None:
        first = _seat_number(first, p, "first seat")
        if g.table is not None:  # the game's table says whether the deal lets that seat move first
            record = g.table.first_to_move(record, first, p)
    state = GameState(g.name, r, deal_of(g, r, {**record, "moves": []}, seed), seed)
    for i, move in enumerate(record["moves"]):
        if not isinstance(move, str):
            raise WhistsimError(f'deal: move {i} {move!r} is not text such as "0:7H"')
        try:
            state._make(state._parse(move), "record")
        except IllegalMove as e:
            raise WhistsimError(f"deal: move {i}: {e}") from None
    return state


# -- the deal at the table: dealt from a seed, or given (shared with whistsim.tools.terminal's Table)


def _table(g: Game) -> type[Deal]:
    """The game's deal at the table; one line for a game that has none."""
    if g.table is None:
        raise WhistsimError(f"{g.title} has no table to play at (its Game gives no table)")
    return g.table


def first_deal(g: Game, r, seed: int, /, **how) -> Deal:
    """The deal a simulation with ``seed`` plays first (its first deal, for the dealt games), of
    game ``g`` under rules ``r``, ready to step; ``how``: :func:`whistsim.simulate`'s arguments
    (preset, players, rules as given, ...)."""
    from .api import simulate

    table = _table(g)
    return table(g, r, simulate(g.name, 1, seed, records=1, **how).records[0], seed)


def deal_of(g: Game, r, record: dict, seed: int) -> Deal:
    """The deal of ``record`` (checked by :func:`deal_record`) ready to step, under rules ``r``;
    ``seed`` gives the players' random streams alone. Its record says so: ``seed`` holds the run's
    seed and no game, as the deal was not dealt from it."""
    d = _table(g)(g, r, record, seed)
    d.given = True
    return d


def deal_record(
    deal: str | dict,
    game: str | None = None,
    *,
    preset: str | None = None,
    players: int | None = None,
    rules: dict[str, Any] | None = None,
) -> dict:
    """The record of a deal given as text (:func:`whistsim.parse_deal`: ``game``, ``preset``,
    ``players`` and ``rules`` add to its words) or as a record (its own rules; moves, if any, are
    the caller's to make). One line on a bad deal."""
    from .deals.notation import parse_deal, read_deal_record

    if isinstance(deal, str):
        return parse_deal(deal, game, preset=preset, players=players, rules=rules)
    if not isinstance(deal, dict):
        raise WhistsimError(f"deal: a deal is text or a record, not {type(deal).__name__}")
    if preset is not None or players is not None or rules:
        raise WhistsimError(
            "deal: a record carries its own rules; preset, players and rules are for a deal as text"
        )
    record = read_deal_record(deal)
    if game is not None and game != record["game"] and not (game == "french" and record["game"] == "scotch"):
        raise WhistsimError(f"deal: the record is a {record['game']} deal, but the game asked for is {game}")
    return record


def _seat_number(seat: Any, p: int, what: str) -> int:
    """``seat`` as a seat number of ``p`` seats (a bool is not one)."""
    if isinstance(seat, bool) or not isinstance(seat, int | np.integer) or not 0 <= seat < p:
        raise WhistsimError(f"{what} {seat!r}: expected a seat from 0 to {p - 1}")
    return int(seat)


__all__ = ["GameState", "IllegalMove", "SeatView", "new_game"]
