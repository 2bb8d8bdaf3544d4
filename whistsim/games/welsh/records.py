"""Welsh Whist game records (docs/records.md, ``welsh``): writing, reading and replay.

Replay runs the record's moves through the same engine the simulations use.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from ...core.batch import Batch
from ...core.cards import card_name
from ...harness import replay as shared
from ...harness.moves import move_texts
from ...harness.records import check_fields, read_deck, read_moves, read_rules, read_seat
from . import kernels
from .engine import S_TRICKS, S_TURNS, new_state, players, reset, score
from .kernels import deal_stock
from .moves import action_name, parse_action
from .rules import WelshRules


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
    return shared.step(kernels, buf, action)


@njit(cache=True)
def _points(buf):
    points = np.zeros(players(buf[0]), np.int64)
    score(buf[0].table, points)
    return points


def result(points, won, tricks: int, turns: int) -> dict[str, Any]:
    """A record's ``result`` (records.md), from the engine's counts: replayed or simulated."""
    return {"points": [int(x) for x in points], "won": [int(x) for x in won], "tricks": int(tricks),
            "turns": int(turns)}  # fmt: skip


def result_of(buf: np.ndarray) -> dict[str, Any]:
    """The record ``result`` of a finished deal."""
    t = buf[0]["table"]
    p = int(t["rules"][0])
    return result(_points(buf), t["won_n"][:p], t["s"][S_TRICKS], t["s"][S_TURNS])


def make_record(rules: WelshRules, batch: Batch, i: int, seed: int, strategies: list[str]) -> dict:
    """The record of logged game ``i`` of ``batch``."""
    game = batch.start + i
    stocks = getattr(batch, "stocks", None)  # dealt under a constraint (kernels.play_batch)
    stock = stocks[i] if stocks is not None else stock_order(rules, seed, game)
    first = int(batch.game["first"][i])
    record = {
        "game": "welsh",
        "rules": rules.to_record(),
        "first": first,
        "deck": [card_name(int(c)) for c in stock],
        "moves": move_texts(batch.logs[i], action_name),
        "result": result(
            batch.seat["points"][i],
            batch.seat["cards_won"][i],
            batch.game["tricks"][i],
            batch.game["turns"][i],
        ),  # fmt: skip
        "seed": {"run": seed, "game": game},
        "strategies": strategies,
    }
    return record


# ---- reading ---------------------------------------------------------------


def read_record(record: Any) -> tuple[WelshRules, np.ndarray, int, np.ndarray, np.ndarray]:
    """(rules, stock, first, seats, actions), or shared.RecordError / shared.MoveError."""
    rules, stock, first, seats, actions, bad = _read(record)
    if bad is not None:
        raise bad
    return rules, stock, first, seats, actions


def _read(record: Any) -> tuple[WelshRules, np.ndarray, int, np.ndarray, np.ndarray, shared.MoveError | None]:
    """As :func:`read_record`, but the moves only up to the first unreadable one, and its error.

    Replay plays that prefix first, so an earlier illegal or extra move is the one reported.
    """
    check_fields(record, ("first", "deck"), ("first", "deck"))
    rules = read_rules(record, WelshRules.from_record)
    first = read_seat(record, "first", rules.players)
    what = f"{rules.packs} packs and {rules.taffies} Taffies"
    stock = read_deck(record, "deck", rules.deck(), what).astype(np.int8)
    return (rules, stock, first, *read_moves(record, rules.players, parse_action))


def replay(record: Any) -> dict[str, Any]:
    """Judge one record: its replayed ``result``, or shared.RecordError / shared.MoveError."""
    rules, stock, first, seats, actions, bad = _read(record)
    buf = new_state(rules.to_array())
    start(buf, stock, np.int64(first))
    shared.replay_moves(kernels, buf, seats, actions, record["moves"], bad,
                        short="owes a decision", turn="owes the next decision", describe=action_name)  # fmt: skip
    return result_of(buf)
