"""Reading a record's fields, the same for every game (records.md): one message per fault.

Each reader raises :class:`~whistsim.harness.replay.RecordError` naming the field,
so replay can report the record as malformed (move index null) and go on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from ..core.cards import parse_card
from ..core.options import RuleError
from .moves import parse_moves
from .replay import MoveError, RecordError

COMMON_FIELDS = frozenset({"game", "rules", "moves", "result", "seed", "strategies"})


def check_fields(record: Any, fields: Iterable[str], required: Iterable[str]) -> dict:
    """A JSON object with no field but the common ones and ``fields``, holding ``required``."""
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object")
    unknown = set(record) - COMMON_FIELDS - set(fields)
    if unknown:
        raise RecordError(f"unknown field {sorted(unknown)[0]!r}")
    for key in ("rules", *required, "moves"):
        if key not in record:
            raise RecordError(f"missing field {key!r}")
    return record


def read_rules(record: dict, rules_from_record: Callable[[Any], Any]) -> Any:
    try:
        return rules_from_record(record["rules"])
    except RuleError as e:
        raise RecordError(str(e)) from None


def read_seat(record: dict, key: str, players: int) -> int:
    value = record[key]
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < players:
        raise RecordError(f"{key!r} must be a seat from 0 to {players - 1}")
    return value


def read_deck(record: dict, key: str, pack: np.ndarray, what: str) -> np.ndarray:
    """A list of card codes holding exactly the cards of ``pack`` (``what`` says which)."""
    deck = record[key]
    if not isinstance(deck, list) or not all(isinstance(c, str) for c in deck):
        raise RecordError(f"{key!r} must be a list of card codes")
    try:
        cards = np.array([parse_card(c) for c in deck], np.int64)
    except ValueError as e:
        raise RecordError(f"{key}: {e}") from None
    if not np.array_equal(np.bincount(cards, minlength=53), np.bincount(pack, minlength=53)):
        raise RecordError(f"the {key} does not hold exactly {what}")
    return cards


def read_moves(
    record: dict, players: int, parse_action: Callable[[str], int], noun: str = "action"
) -> tuple[np.ndarray, np.ndarray, MoveError | None]:
    """Seats and actions up to the first unreadable move, and its error (see ``parse_moves``)."""
    if not isinstance(record["moves"], list):
        raise RecordError("'moves' must be a list")
    return parse_moves(record["moves"], players, parse_action, noun)
