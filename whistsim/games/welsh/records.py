"""Welsh Whist game records (records.md, ``welsh``): writing, reading and replay.

Replay runs the record's moves through the same engine the simulations use.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from ...batch import Batch
from ...cards import card_name, parse_card
from ...harness.build import kernel
from ...harness.moves import move_texts, parse_moves
from ...harness.replay import MoveError, RecordError, verdict
from ...options import RuleError
from . import play
from .engine import ENGINE_ERRORS, S_TRICKS, S_TURNS, new_state, players, reset, score
from .moves import action_name, parse_action
from .play import deal_stock
from .rules import WelshRules

RECORD_KEYS = {"game", "rules", "first", "deck", "moves", "result", "seed", "strategies"}


def rules_kernel():
    """The harness's loops over Welsh Whist's rules, no players seated: replay and step."""
    return kernel(play, None)


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


def step(buf: np.ndarray, action: int) -> int:
    """Check and, if legal, apply one decision; returns the engine's error code (0: done)."""
    return int(rules_kernel().step(buf, np.int64(action)))


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
        "moves": move_texts(batch.logs[i], action_name),
        "result": {
            "points": [int(x) for x in batch.seat["points"][i]],
            "won": [int(x) for x in batch.seat["cards_won"][i]],
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
    seats, actions, bad = parse_moves(moves, rules.players, parse_action)
    return rules, stock, first, seats, actions, bad


def replay(record: Any) -> dict[str, Any]:
    """Judge one record: its replayed ``result``, or RecordError / MoveError."""
    rules, stock, first, seats, actions, bad = _read(record)
    buf = new_state(rules.to_array())
    start(buf, stock, np.int64(first))
    status, i, detail = rules_kernel().replay_moves(buf, seats, actions)
    what = action_name(int(actions[i])) if status > 0 else ""
    verdict(status, i, detail, record["moves"], bad, ENGINE_ERRORS,
            short="owes a decision", turn="owes the next decision", what=what)  # fmt: skip
    return result_of(buf)
