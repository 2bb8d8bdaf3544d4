"""A deal played by a person at the terminal against the built-in players: ``whistsim play``.

A :class:`Table` holds one deal of any game that gives a table (``Game.table``: the
game's deal and what a seat sees, ``games/<name>/table.py``), set up by the same seed and
rules a simulation would use, with one seat for a person and the built-in players in
the others. It tells only what that seat may see (its own hand, the table, what others
showed: passes, voids, tricks), never another hand or the stock's order, in the game's
words (harness/narrator.py). :func:`play_game` runs a whole deal from a source of typed
moves and returns its record, which ``whistsim replay`` judges like any other.

>>> import whistsim
>>> moves = iter(lambda: "", None)  # an empty line plays the hint player's move
>>> out = whistsim.play_game("whist", seed=5, moves=moves)   # doctest: +SKIP
>>> out.record["result"]["points"]                             # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from ..core.cards import SUIT_WORDS, pretty_card
from ..core.io import LineWithoutEnd, bounded_lines
from ..core.options import WhistsimError
from ..core.strategy import StrategySpec, parse_spec
from ..game import deal_of, deal_record, first_deal
from ..games import get_game, seating
from ..harness import events as ev
from ..harness.table import IllegalMove, View

MAX_IDLE = 100  # lines in a row that take the deal no further before play stops (``yes zz``)
MAX_MOVE_LINE = 4096  # bytes: a typed line is a move or a command, never more
MAX_SKIP = 1 << 20  # bytes read looking for the end of an over-long line before play stops

COMMANDS = (
    ("MOVE", "a move as records write it: 7H, draw, pass, X=S, challenge=2, nochallenge"),
    ("N", "the Nth of your legal moves, as ? numbers them"),
    ("(empty line)", "take the hint player's move"),
    ("? or moves", "list your legal moves, numbered"),
    ("hint", "show the hint player's move without taking it"),
    ("last", "show the last complete trick"),
    ("undo", "take back your last move and the others' moves since"),
    ("quit", "stop; the moves so far go to --record, if given"),
    ("help", "this list"),
)


class UnreadableInput(WhistsimError):
    """The typed input cannot be read as lines (one with no end in :data:`MAX_SKIP` bytes)."""


class PlayStopped(WhistsimError):
    """Play stopped before the deal was over (the input ended, or gave too many lines in a
    row that took the deal no further); ``game`` holds the record of the moves so far."""

    def __init__(self, message: str, game: PlayedGame) -> None:
        super().__init__(message)
        self.game = game


def rich_view(view: View):
    """The view for a terminal, with rich: the hand grouped by suit, the trick, the table of seats."""
    from rich.console import Group
    from rich.table import Table as RichTable
    from rich.text import Text

    def card(c: int) -> Text:
        red = c < 52 and c // 13 in (1, 2)  # diamonds and hearts
        return Text(pretty_card(c), style="bold red" if red else "bold")

    hand = RichTable(show_header=False, box=None, padding=(0, 1))
    by_suit: dict[int, list[int]] = {}
    for c in view.hand:
        by_suit.setdefault(4 if c >= 52 else c // 13, []).append(c)
    for suit, cards in by_suit.items():
        name = SUIT_WORDS[suit] if suit < 4 else "Taffies"
        hand.add_row(Text(name, style="dim"), Text(" ").join(card(c) for c in cards))
    if not by_suit:
        hand.add_row("-")
    parts: list[Any] = [Text(view.label, style="bold"), hand, *(Text(line) for line in view.before)]
    if view.trick is not None:
        trick = Text(f"{view.trick_label}: ", style="bold")
        for i, (q, c) in enumerate(view.trick):
            trick.append(("   " if i else "") + f"{q}: ")
            trick.append_text(card(c))
        parts.append(trick + Text(view.trick_note))
    parts += [Text(line) for line in view.after]
    seats = RichTable(box=None, padding=(0, 1))
    for i, name in enumerate(view.columns):
        seats.add_column(name, justify="left" if i == len(view.columns) - 1 else "right")
    for row in view.rows:
        you = row[0] == view.seat
        cells = [*map(str, row[:-1]), f"{row[-1]}  (you)" if you else str(row[-1])]
        seats.add_row(*cells, style="bold" if you else None)
    parts.append(seats)
    return Group(*parts)


class Table:
    """One deal with a person in seat ``seat`` and built-in players elsewhere.

    Everything it shows is what that seat may see. Moves are typed as in
    records (``7H``, ``draw``, ``pass``, ``X=S``, ``challenge=2``,
    ``nochallenge``); :meth:`legal` lists them and :meth:`hint` suggests one.
    """

    def __init__(
        self,
        game: str | None = None,
        *,
        preset: str | None = None,
        players: int | None = None,
        rules: dict[str, Any] | None = None,
        seat: int = 0,
        strategies: Iterable[str | StrategySpec] | None = None,
        seed: int = 0,
        hint: str | None = None,
        deal: str | dict | None = None,
    ) -> None:
        given = None
        if (
            deal is not None
        ):  # the deal and its rules from the text or record; the seed seats only the players
            given = deal_record(deal, game, preset=preset, players=players, rules=rules)
            game = given["game"]
            g = get_game(game)
            r = g.rules_from_record(given["rules"])
        else:
            game = game or "welsh"
            g = get_game(game)
            r = g.make_rules(preset, players, dict(rules or {}))
        p = g.players_of(r)
        if not 0 <= seat < p:
            raise WhistsimError(f"--seat {seat}: expected a seat from 0 to {p - 1}")
        if strategies is None:  # the strongest fast player, as the hint
            strategies = (g.default_player,)
        specs = [s if isinstance(s, StrategySpec) else parse_spec(s) for s in strategies]
        if len(specs) == 1:
            specs = specs * p
        if len(specs) != p:
            raise WhistsimError(f"{len(specs)} strategies for {p} seats")
        if given is not None:  # a deal from the seed is simulated, which warns of idle settings once
            from .advice import warn_ineffective

            warn_ineffective(game, r, specs, given=dict(rules or {}))
        hint_spec = parse_spec(hint or g.default_player)
        seated = [hint_spec if q == seat else s for q, s in enumerate(specs)]
        ids, params = seating(game, seated, p)
        self.game, self.rules, self.seat, self.seed = game, r, seat, seed
        self.strategies = [("you" if q == seat else str(s)) for q, s in enumerate(specs)]
        self.hint_name = str(hint_spec)
        self.given = given is not None
        if given is not None:
            self.d = deal_of(g, r, given, seed)
        else:
            self.d = first_deal(g, r, seed, preset=preset, players=players, rules=rules, strategies=seated,
                                first=0)  # fmt: skip
        self.d.seat_players(ids, params)
        self.moves: list[str] = []
        self.chosen: list[str] = []  # the person's own moves as typed (not those with no choice)
        self._start = self.d.buf.copy()  # the deal before any move: undo plays it again from here
        self._trick: list[tuple[int, int, int, int]] = []  # the events of the trick under way
        self._last: list[tuple[int, int, int, int]] = []  # ... and of the last complete trick

    # -- what the person sees
    def to_move(self) -> int:
        return self.d.to_move()

    @property
    def over(self) -> bool:
        return self.d.over()

    def view(self) -> str:
        """What the person's seat may see now, as lines of text."""
        return "\n".join(self.d.describe(self.seat))

    def facts(self) -> View:
        """What the person's seat may see now, as data (for :func:`rich_view`)."""
        return self.d.facts(self.seat)

    def legal(self) -> list[str]:
        """The moves the seat to move may make now, as typed."""
        return self.d.legal()

    def hint(self) -> str:
        """The move the hint player would make for the person's seat."""
        if self.to_move() != self.seat:
            raise WhistsimError("it is not your move")
        only = self.legal()
        if len(only) == 1:
            return only[0]
        keep = self.d.buf.copy()  # asking must not use up the seat's random stream
        try:
            return self.d.name(self.d.asked())
        finally:
            self.d.buf[:] = keep

    # -- moving
    def _apply(self, a: int) -> list[tuple[int, int, int, int]]:
        move, events = self.d.apply(a)
        self.moves.append(move)
        for row in events:  # the last complete trick, as its events (``last_trick`` tells it)
            kind = row[0]
            if kind == ev.LEAD:
                self._trick = [row]
            elif kind in (ev.FOLLOW, ev.PASS) and self._trick:
                self._trick.append(row)
            elif kind == ev.TRICK and self._trick:
                self._last, self._trick = [*self._trick, row], []
            elif kind == ev.CHALLENGE and self._last:  # a challenge after it may move its cards
                self._last.append(row)
        return events

    def move(self, text: str) -> list[str]:
        """Make the person's move ``text``; returns what happened, as lines. Raises IllegalMove."""
        if self.over:
            raise IllegalMove("the deal is over")
        if self.to_move() != self.seat:
            raise IllegalMove("it is not your move")
        try:
            a = self.d.parse(text)
        except ValueError as e:
            raise IllegalMove(f"{text.strip()!r}: {e}; type ? for your legal moves") from None
        happened = self.d.story(self._apply(a), self.seat)
        self.chosen.append(text)
        return happened

    def undo(self) -> int:
        """Take back the person's last chosen move and the others' moves since; returns how
        many moves were taken back. The deal is played again from its start to that point:
        the built-in players decide as they did (their choices follow from the seed and the
        moves before them), so playing the same move again gives the same deal."""
        if not self.chosen:
            raise IllegalMove("nothing to undo: you have chosen no move yet")
        keep, before = self.chosen[:-1], len(self.moves)
        self.d.buf[:] = self._start
        self.moves, self.chosen, self._trick, self._last = [], [], [], []
        self.advance()
        for text in keep:
            self.move(text)
            self.advance()
        return before - len(self.moves)

    def last_trick(self) -> list[str]:
        """The last complete trick as the person saw it, as lines (none before the first)."""
        return self.d.story(self._last, self.seat)

    def advance(self) -> list[str]:
        """Let the built-in players move until it is the person's move or the deal is over;
        a move with no choice (the only legal one) is made for the person too."""
        lines: list[str] = []
        while not self.over:
            legal = self.legal()
            if self.to_move() == self.seat:
                if len(legal) != 1:
                    break
                lines.append(f"(your only move: {legal[0]})")
                a = self.d.parse(legal[0])
            else:
                a = self.d.choose()  # as a simulation's player, from the same random stream
            lines += self.d.story(self._apply(a), self.seat)
        return lines

    def result(self) -> dict:
        return self.d.result()

    def record(self) -> dict:
        """The deal's record (docs/records.md): ``whistsim replay`` judges it. Before the deal
        is over it has no ``result``, and replay judges every move and says where they stop."""
        return self.d.record(list(self.moves), self.seed, self.strategies)


@dataclass
class PlayedGame:
    """A deal played with :func:`play_game`: its record and result, and what was shown.

    ``finished`` is False when play stopped before the deal was over (``quit``, or
    :class:`PlayStopped`): the record then holds the moves so far and no ``result``, and
    ``result`` is empty."""

    record: dict
    result: dict
    transcript: list[str] = field(default_factory=list)
    finished: bool = True


def typed_lines(stream: BinaryIO, prompt: Callable[[], None] | None = None) -> Iterator[str | None]:
    """The lines of a byte stream as a person types them, each read in bounded memory.

    A line over :data:`MAX_MOVE_LINE` bytes comes through as None (the rest of it is read
    and dropped, a bounded chunk at a time); bytes that are not UTF-8 come through as
    surrogates, which :func:`play_game` refuses as a bad line. A line with no end within
    :data:`MAX_SKIP` bytes (``/dev/zero``) raises :class:`UnreadableInput`. ``prompt`` is
    called before each line is read.
    """
    lines = bounded_lines(stream, MAX_MOVE_LINE, MAX_SKIP)
    while True:
        if prompt is not None:
            prompt()
        try:
            raw = next(lines, b"")
        except LineWithoutEnd:
            raise UnreadableInput(f"the input has a line with no end in {MAX_SKIP >> 20} MiB") from None
        if raw == b"":
            return
        yield None if raw is None else raw.decode("utf-8", "surrogateescape").rstrip("\r\n")


def _bad_text(text: str | None) -> str | None:
    """Why a typed line cannot be a move or a command (None: it may be one)."""
    if text is None:
        return f"the line is longer than {MAX_MOVE_LINE} bytes"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "the line is not UTF-8 text"
    return None


def play_game(
    game: str | None = None,
    *,
    preset: str | None = None,
    players: int | None = None,
    rules: dict[str, Any] | None = None,
    seat: int = 0,
    strategies: Iterable[str | StrategySpec] | None = None,
    seed: int = 0,
    hint: str | None = None,
    moves: Iterable[str | None] | None = None,
    echo: Callable[[str], None] | None = None,
    show: Callable[[Table], None] | None = None,
    deal: str | dict | None = None,
) -> PlayedGame:
    """Play one deal of ``game`` from seat ``seat`` with typed ``moves``; return its record.

    Each item of ``moves`` is one line a person would type (:data:`COMMANDS`): a move as
    in records (``"7H"``, ``"draw"``, ``"pass"``, ``"X=S"``, ``"challenge=2"``), a number
    picking from the legal moves as ``"?"`` lists them, ``""`` for the hint player's move
    (``hint``, a strategy spec; default the strongest fast player), or ``"hint"``,
    ``"last"``, ``"undo"``, ``"quit"``, ``"help"``. A bad line (an illegal move, None for a
    line too long) is explained and the next one read; after :data:`MAX_IDLE` lines in a row
    that take the deal no further, or at the end of ``moves`` before the deal is over,
    :class:`PlayStopped` is raised, holding the record so far. ``"quit"`` returns that
    record (``finished`` False). Without ``moves``, every move is the hint's.
    ``strategies``: the other seats' players as specs (``"greedy"``,
    ``"cheater:rate=0.2"``), one for all or one per seat (the person's is ignored; default
    the hint's player). ``rules``: options by key, as ``--rule KEY=VALUE``. ``echo`` is told
    each line shown; ``show``, when given, shows the table's view instead of echoing it (the
    terminal's rich display: ``show=lambda t: console.print(rich_view(t.facts()))``).
    ``deal``: the deal to play, as text (:func:`whistsim.parse_deal`; ``game``, ``preset``,
    ``players`` and ``rules`` add to it) or a record with no moves; then ``seed`` decides only
    the built-in players' choices.

    >>> import json, whistsim
    >>> out = play_game("whist", seed=5)
    >>> whistsim.judge(0, json.dumps(out.record)).ok
    True
    """
    table = Table(game, preset=preset, players=players, rules=rules, seat=seat, strategies=strategies,
                  seed=seed, hint=hint, deal=deal)  # fmt: skip
    lines: list[str] = []

    def say(text: str) -> None:
        lines.append(text)
        if echo is not None:
            echo(text)

    def so_far() -> PlayedGame:
        return PlayedGame(table.record(), {}, lines, finished=False)

    source: Iterator[str | None] = iter(moves) if moves is not None else iter(lambda: "", None)
    say(f"{get_game(table.game).title}: {table.rules.describe()}")
    say("players: " + ", ".join(f"{q}={s}" for q, s in enumerate(table.strategies)) + f"; seed {seed}"
        + (" (the deal is the one given)" if table.given else ""))  # fmt: skip
    for line in table.advance():
        say(line)
    fresh = True  # the view is shown again only after a move, not after a command or a bad line
    idle, furthest = 0, len(table.moves)  # lines in a row that took the deal no further
    while not table.over:
        if fresh:
            say("")
            if show is None:
                say(table.view())
            else:  # the transcript keeps the plain text
                lines.append(table.view())
                show(table)
        fresh = False
        if len(table.moves) > furthest:
            idle, furthest = 0, len(table.moves)
        elif idle >= MAX_IDLE:
            raise PlayStopped(f"{MAX_IDLE} lines in a row took the deal no further; stopped", so_far())
        idle += 1
        try:
            raw = next(source)
        except StopIteration:
            raise PlayStopped("the input ended before the deal did", so_far()) from None
        except UnreadableInput as e:
            raise PlayStopped(f"{e}; stopped", so_far()) from None
        bad = _bad_text(raw)
        if bad is not None:
            say(f"illegal: {bad}; type help for the commands")
            continue
        text = (raw or "").strip()
        word = text.lower()
        if word in ("?", "moves"):
            say("legal moves: " + "  ".join(f"{i}) {m}" for i, m in enumerate(table.legal(), 1)))
            continue
        if word == "help":
            say("commands:")
            for name, what in COMMANDS:
                say(f"  {name:<13} {what}")
            continue
        if word == "hint":
            say(f"hint: {table.hint()}  ({table.hint_name}; an empty line takes it)")
            continue
        if word == "last":
            told = table.last_trick()
            say("last trick: " + "; ".join(x.strip() for x in told) if told else "no trick is complete yet")
            continue
        if word == "quit":
            say(f"you quit after {len(table.moves)} moves; the deal is not over")
            return so_far()
        if word == "undo":
            try:
                n = table.undo()
            except IllegalMove as e:
                say(str(e))
                continue
            say(f"took back {n} move{'s' * (n != 1)}")
            fresh = True
            continue
        if text == "":
            text = table.hint()
            say(f"> {text}  (hint: {table.hint_name})")
        elif text.isascii() and text.isdigit():  # the Nth of the numbered list ? shows
            legal = table.legal()
            if not 1 <= int(text) <= len(legal):
                say(f"illegal: {text}: there {'is' if len(legal) == 1 else 'are'} {len(legal)} legal "
                    f"move{'s' * (len(legal) != 1)}; type ? to list them")  # fmt: skip
                continue
            text = legal[int(text) - 1]
            say(f"> {text}")
        else:
            say(f"> {text}")
        try:
            happened = table.move(text)
        except IllegalMove as e:
            say(f"illegal: {e}")
            continue
        fresh = True
        for line in happened + table.advance():
            say(line)
    result = table.result()
    say("")
    say("the deal is over: " + ", ".join(f"{k} {v}" for k, v in result.items() if k != "revokes"))
    return PlayedGame(table.record(), result, lines)


__all__ = [
    "Table",
    "PlayedGame",
    "PlayStopped",
    "UnreadableInput",
    "IllegalMove",
    "View",
    "play_game",
    "typed_lines",
    "deal_record",
    "rich_view",
    "COMMANDS",
]
