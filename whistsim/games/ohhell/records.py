"""Oh Hell game records (docs/records.md, ``ohhell``): writing, reading and replay.

A record is one game: every round's deal (dealer, hands, turned card) and every move,
bids (``"2:bid 1"``) and cards (``"3:TH"``). Replay plays the moves through the engine
the simulations use, so replaying a simulated record checks one against the other.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit

from ...core.batch import Batch
from ...core.cards import card_name, parse_card
from ...harness import replay as shared
from ...harness.moves import move_texts
from ...harness.records import check_fields, read_moves, read_rules, read_seat
from . import kernels as play
from .engine import A_MADE, A_POINTS, A_TRICKS, BID_BASE, S_HAND, check, start_game
from .kernels import action_name, deal_all, new_state, parse_action
from .rules import OhHellRules


@njit(cache=True)
def _deal(buf, base_deck, seed, game, first):
    deal_all(buf[0], base_deck, seed, game, first)


@njit(cache=True)
def start(buf, first):
    start_game(buf[0], first)


@njit(cache=True)
def _legal(buf, out):
    c = buf[0].round
    n = 0
    for a in range(52):
        if check(c, a) == 0:
            out[n] = a
            n += 1
    for b in range(c.table.s[S_HAND] + 1):
        if check(c, BID_BASE + b) == 0:
            out[n] = BID_BASE + b
            n += 1
    return n


def legal_moves(buf: np.ndarray) -> list[int]:
    """Every legal move of the seat to move in ``buf[0]`` (cards, then bids), in code order."""
    out = np.zeros(128, np.int64)
    return [int(a) for a in out[: _legal(buf, out)]]


def step(buf: np.ndarray, action: int) -> int:
    """Check and, if legal, make one move; returns the engine's error code (0: done)."""
    return shared.step(play, buf, action)


def _cards(bits: np.ndarray) -> list[str]:
    return [card_name(s * 13 + r) for s in range(4) for r in range(13) if (int(bits[s]) >> r) & 1]


def deals_of(rules: OhHellRules, seed: int, game: int, first: int) -> list[dict[str, Any]]:
    """Every round's deal of game ``game`` of a run seeded ``seed``, as records write them."""
    buf = new_state(rules)
    _deal(buf, rules.deck(), np.int64(seed), np.int64(game), np.int64(first))
    p, out = rules.players, []
    for k in range(len(rules.sizes())):
        turnup = int(buf[0]["turnups"][k])
        out.append({"dealer": (first - 1 + k) % p, "hands": [_cards(buf[0]["hands"][k, q]) for q in range(p)],
                    "trump": card_name(turnup) if turnup >= 0 else None})  # fmt: skip
    return out


def result(points, made, tricks) -> dict[str, Any]:
    """A record's ``result`` (records.md): per seat, the game's points, bids made and tricks."""
    return {"points": [int(x) for x in points], "made": [int(x) for x in made],
            "tricks": [int(x) for x in tricks]}  # fmt: skip


def make_record(rules: OhHellRules, batch: Batch, i: int, seed: int, strategies: list[str]) -> dict:
    """The record of logged game ``i`` of ``batch``."""
    game, first = batch.start + i, int(batch.game["first"][i])
    s = batch.seat
    return {"game": "ohhell", "rules": rules.to_record(), "first": first,
            "deals": deals_of(rules, seed, game, first), "moves": move_texts(batch.logs[i], action_name),
            "result": result(s["points"][i], s["made"][i], s["tricks"][i]),
            "seed": {"run": seed, "game": game}, "strategies": strategies}  # fmt: skip


# ---- reading -----------------------------------------------------------------


def _card(text: Any, what: str, pack: set[int]) -> int:
    if not isinstance(text, str):
        raise shared.RecordError(f"{what}: {text!r} is not a card code")
    try:
        c = parse_card(text)
    except ValueError as e:
        raise shared.RecordError(f"{what}: {e}") from None
    if c not in pack:
        raise shared.RecordError(f"{what}: {text} is not in this game's pack")
    return c


def _read_deal(rules: OhHellRules, k: int, deal: Any, first: int, buf: np.ndarray) -> None:
    p, n, pack = rules.players, rules.sizes()[k], set(rules.pack())
    where = f"deal {k}"
    if not isinstance(deal, dict) or set(deal) != {"dealer", "hands", "trump"}:
        raise shared.RecordError(f"{where} must be an object of 'dealer', 'hands' and 'trump'")
    if deal["dealer"] != (first - 1 + k) % p or isinstance(deal["dealer"], bool):
        raise shared.RecordError(
            f"{where}: the dealer must be seat {(first - 1 + k) % p} (the deal passes left)"
        )
    hands = deal["hands"]
    if (
        not isinstance(hands, list)
        or len(hands) != p
        or not all(isinstance(h, list) and len(h) == n for h in hands)
    ):
        raise shared.RecordError(f"{where}: 'hands' must be {p} hands of {n} cards")
    seen: set[int] = set()
    for q, hand in enumerate(hands):
        for text in hand:
            c = _card(text, f"{where}, seat {q}", pack)
            if c in seen:
                raise shared.RecordError(f"{where} holds {card_name(c)} twice")
            seen.add(c)
            buf[0]["hands"][k, q, c // 13] |= 1 << (c % 13)
    left = p * n < rules.cards and not rules.no_trump()[k]
    if deal["trump"] is None:
        if left:
            raise shared.RecordError(f"{where}: 'trump' must name the card turned (cards are left to turn)")
        buf[0]["turnups"][k] = -1
        return
    if not left:
        raise shared.RecordError(f"{where}: 'trump' must be null (no card is turned in this round)")
    c = _card(deal["trump"], f"{where}, trump", pack)
    if c in seen:
        raise shared.RecordError(f"{where}: the trump {card_name(c)} is also in a hand")
    buf[0]["turnups"][k] = c


class Loaded(NamedTuple):
    """A record read and its game set up in a fresh state, ready to replay."""

    rules: OhHellRules
    buf: np.ndarray
    first: int
    seats: np.ndarray  # the moves up to the first unreadable one
    actions: np.ndarray
    bad: shared.MoveError | None  # the first unreadable move, if any


def load(record: Any) -> Loaded:
    check_fields(record, ("first", "deals"), ("first", "deals"))
    rules = read_rules(record, OhHellRules.from_record)
    first = read_seat(record, "first", rules.players)
    deals = record["deals"]
    rounds = len(rules.sizes())
    if not isinstance(deals, list) or len(deals) != rounds:
        raise shared.RecordError(f"'deals' must be a list of {rounds} deals, one per round")
    buf = new_state(rules)
    for k, deal in enumerate(deals):
        _read_deal(rules, k, deal, first, buf)
    seats, actions, bad = read_moves(record, rules.players, parse_action, "move")
    start(buf, np.int64(first))
    return Loaded(rules, buf, first, seats, actions, bad)


def replay(record: Any) -> dict[str, Any]:
    """Judge one record: its replayed ``result``, or shared.RecordError / shared.MoveError."""
    d = load(record)
    shared.replay_moves(play, d.buf, d.seats, d.actions, record["moves"], d.bad,
                        short="owes a move", turn="owes the next move", describe=action_name)  # fmt: skip
    return result_of(d.buf, d.rules)


def result_of(buf: np.ndarray, rules: OhHellRules) -> dict[str, Any]:
    acc, p = buf[0]["seat_acc"], rules.players
    return result(acc[A_POINTS, :p], acc[A_MADE, :p], acc[A_TRICKS, :p])
