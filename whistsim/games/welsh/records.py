"""Welsh Whist game records (docs/records.md, ``welsh``): writing, reading and replay.

Replay runs the record's moves through the same engine the simulations use.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from ...batch import Batch
from ...cards import card_name, parse_card
from ...options import RuleError
from ..base import (
    REPLAY_EXTRA,
    REPLAY_SHORT,
    REPLAY_WRONG_SEAT,
    MoveError,
    RecordError,
    raise_replay_error,
)
from .engine import (
    ENGINE_ERRORS,
    OK,
    OVER,
    S_PHASE,
    S_SEAT,
    S_TRICKS,
    S_TURNS,
    apply,
    check,
    new_state,
    players,
    reset,
    score,
)
from .moves import action_name, decode_log, parse_action
from .play import deal_stock
from .rules import WelshRules

RECORD_KEYS = {"game", "rules", "first", "deck", "moves", "result", "seed", "strategies"}
_WRONG_SEAT, _SHORT, _EXTRA = REPLAY_WRONG_SEAT, REPLAY_SHORT, REPLAY_EXTRA


@njit(cache=True)
def _stock_order(buf, base_deck, seed, game):
    deal_stock(buf[0], base_deck, seed, game)


def stock_order(rules: WelshRules, seed: int, game: int) -> np.ndarray:
    """The shuffled stock of game ``game`` of a run seeded ``seed``, top first."""
    buf = new_state(rules.to_array())
    base = rules.deck()
    _stock_order(buf, base, np.int64(seed), np.int64(game))
    return buf[0]["deck"][: base.size].copy()


@njit(cache=True)
def start(buf, stock, first):
    g = buf[0]
    g.deck[: stock.shape[0]] = stock
    reset(g, stock.shape[0], first)


@njit(cache=True)
def step(buf, action):
    """Check and, if legal, apply one decision; returns the engine's error code."""
    e = check(buf[0], action)
    if e == OK:
        apply(buf[0], action)
    return e


@njit(cache=True)
def _replay(buf, stock, first, seats, actions):
    """(status, move index, detail): status 0 done, >0 engine error, <0 seat/length trouble."""
    g = buf[0]
    g.deck[: stock.shape[0]] = stock
    reset(g, stock.shape[0], first)
    s = g.table.s
    for i in range(actions.shape[0]):
        if s[S_PHASE] == OVER:
            return _EXTRA, i, 0
        if seats[i] != s[S_SEAT]:
            return _WRONG_SEAT, i, s[S_SEAT]
        e = check(g, actions[i])
        if e != OK:
            return e, i, 0
        apply(g, actions[i])
    if s[S_PHASE] != OVER:
        return _SHORT, actions.shape[0], s[S_SEAT]
    return OK, actions.shape[0], 0


@njit(cache=True)
def _points(buf):
    points = np.zeros(players(buf[0]), np.int64)
    score(buf[0].table, points)
    return points


def result_of(buf: np.ndarray) -> dict[str, Any]:
    """The record ``result`` of a finished deal."""
    t = buf[0]["table"]
    p = int(t["rules"][0])
    return {
        "points": [int(x) for x in _points(buf)],
        "won": [int(x) for x in t["won_n"][:p]],
        "tricks": int(t["s"][S_TRICKS]),
        "turns": int(t["s"][S_TURNS]),
    }


def make_record(rules: WelshRules, batch: Batch, i: int, seed: int, strategies: list[str]) -> dict:
    """The record of logged game ``i`` of ``batch``."""
    game = batch.start + i
    stock = stock_order(rules, seed, game)
    first = int(batch.game["first"][i])
    record = {
        "game": "welsh",
        "rules": rules.to_record(),
        "first": first,
        "deck": [card_name(int(c)) for c in stock],
        "moves": decode_log(batch.logs[i]),
        "result": {
            "points": [int(x) for x in batch.seat["points"][i]],
            "won": [int(x) for x in batch.seat["won"][i]],
            "tricks": int(batch.game["tricks"][i]),
            "turns": int(batch.game["turns"][i]),
        },
        "seed": {"run": seed, "game": game},
        "strategies": strategies,
    }
    return record


# ---- reading ---------------------------------------------------------------


def read_record(record: Any) -> tuple[WelshRules, np.ndarray, int, np.ndarray, np.ndarray]:
    """(rules, stock, first, seats, actions), or RecordError / MoveError."""
    rules, stock, first, seats, actions, bad = _read(record)
    if bad is not None:
        raise bad
    return rules, stock, first, seats, actions


def _read(record: Any) -> tuple[WelshRules, np.ndarray, int, np.ndarray, np.ndarray, MoveError | None]:
    """As :func:`read_record`, but the moves only up to the first unreadable one, and its error.

    Replay plays that prefix first, so an earlier illegal or extra move is the one reported.
    """
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object")
    unknown = set(record) - RECORD_KEYS
    if unknown:
        raise RecordError(f"unknown field {sorted(unknown)[0]!r}")
    for key in ("rules", "first", "deck", "moves"):
        if key not in record:
            raise RecordError(f"missing field {key!r}")
    try:
        rules = WelshRules.from_record(record["rules"])
    except RuleError as e:
        raise RecordError(str(e)) from None
    first = record["first"]
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < rules.players:
        raise RecordError(f"'first' must be a seat from 0 to {rules.players - 1}")
    deck = record["deck"]
    if not isinstance(deck, list) or not all(isinstance(c, str) for c in deck):
        raise RecordError("'deck' must be a list of card codes")
    try:
        stock = np.array([parse_card(c) for c in deck], np.int8)
    except ValueError as e:
        raise RecordError(f"deck: {e}") from None
    if not np.array_equal(np.bincount(stock, minlength=53), np.bincount(rules.deck(), minlength=53)):
        raise RecordError(f"the deck does not hold exactly {rules.packs} packs and {rules.taffies} Taffies")
    moves = record["moves"]
    if not isinstance(moves, list):
        raise RecordError("'moves' must be a list")
    seats = np.zeros(len(moves), np.int64)
    actions = np.zeros(len(moves), np.int64)
    for i, m in enumerate(moves):
        try:
            seats[i], actions[i] = _parse_move(i, m, rules.players)
        except MoveError as e:
            return rules, stock, first, seats[:i], actions[:i], e
    return rules, stock, first, seats, actions, None


def _parse_move(i: int, move: Any, players: int) -> tuple[int, int]:
    if not isinstance(move, str):
        raise MoveError(i, f"move {move!r} is not a string")
    seat, sep, action = move.partition(":")
    if not sep or not seat.strip().isdigit() or int(seat) >= players:
        raise MoveError(i, f"move {move!r}: expected '<seat>:<action>' with a seat below {players}")
    try:
        return int(seat), parse_action(action)
    except ValueError as e:
        raise MoveError(i, f"move {move!r}: {e}") from None


def replay(record: Any) -> dict[str, Any]:
    """Judge one record: its replayed ``result``, or RecordError / MoveError."""
    rules, stock, first, seats, actions, bad = _read(record)
    buf = new_state(rules.to_array())
    status, i, detail = _replay(buf, stock, first, seats, actions)
    what = action_name(int(actions[i])) if status > 0 else ""
    raise_replay_error(status, i, detail, record["moves"], bad, ENGINE_ERRORS,
                       short="owes a decision", turn="owes the next decision", what=what)  # fmt: skip
    return result_of(buf)
