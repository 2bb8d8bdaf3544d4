"""Records of the dealt games (docs/records.md, ``scotch`` and ``whist``): writing, reading, replay.

A record is one deal. Replay plays its moves through the engine the
simulations use; the simulation's own result (logged by the batch kernel) is
what ``make_record`` writes, so replaying simulated records checks one against
the other.
"""

from __future__ import annotations

from typing import Any, NamedTuple

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
    MAX_SETS,
    MAX_TEAMS,
    OK,
    OVER,
    P_CARDS,
    P_HONOURS,
    P_POINTS,
    P_TRICK_POINTS,
    P_TRICKS,
    S_ASIDE_CARD,
    S_PHASE,
    S_SEAT,
    S_TURNUP,
    SCOTCH,
    apply,
    check,
    deal_from_deck,
    start_deal,
)
from .play import (
    L_DEAL,
    L_DEALER,
    L_DECK,
    L_GAME,
    L_MOVE,
    L_MOVES,
    L_RESULT,
    L_REVOKE_LIST,
    L_REVOKES,
    new_state,
)
from .rules import DealtRules

_WRONG_SEAT, _SHORT, _EXTRA = REPLAY_WRONG_SEAT, REPLAY_SHORT, REPLAY_EXTRA
COMMON_FIELDS = {"game", "rules", "dealer", "hands", "trump", "moves", "result", "seed", "strategies"}


# ---- the deal as card lists ------------------------------------------------


@njit(cache=True)
def _deal(buf, deck, dealer):
    deal_from_deck(buf[0].core, deck, dealer)


def _cards_of(bits: np.ndarray) -> list[str]:
    """Per-suit rank masks -> card codes, in code order."""
    return [card_name(s * 13 + r) for s in range(4) for r in range(13) if (int(bits[s]) >> r) & 1]


def hands_of(rules: DealtRules, deck: np.ndarray, dealer: int) -> tuple[list, int, int]:
    """(hands by set and seat, the turn-up, the card laid aside or -1) of a shuffled pack."""
    buf = new_state(rules)
    _deal(buf, deck.astype(np.int8), np.int64(dealer))
    core = buf[0]["core"]
    sets = [[_cards_of(core["sets"][k, q]) for q in range(rules.players)] for k in range(rules.sets)]
    s = core["table"]["s"]
    return sets, int(s[S_TURNUP]), int(s[S_ASIDE_CARD])


def result_dict(kind: int, parts: np.ndarray, revokes: list[list[int]], n_teams: int) -> dict[str, Any]:
    """A deal's ``result`` from the score rows (``c.result`` layout) and the revokes."""

    def row(k: int) -> list[int]:
        return [int(x) for x in parts[k, :n_teams]]

    if kind == SCOTCH:
        return {
            "honours": row(P_HONOURS),
            "cards": row(P_CARDS),
            "points": row(P_POINTS),
            "tricks": row(P_TRICKS),
            "revokes": revokes,
        }
    return {
        "tricks": row(P_TRICKS),
        "trick_points": row(P_TRICK_POINTS),
        "honours": row(P_HONOURS),
        "points": row(P_POINTS),
        "revokes": revokes,
    }


def make_record(name: str, rules: DealtRules, batch: Batch, i: int, seed: int, strategies: list[str]) -> dict:
    """The record of logged deal ``i`` of ``batch`` (deals of the first games, in order)."""
    row = batch.logs[i]
    game = batch.start + int(row[L_GAME])
    dealer = int(row[L_DEALER])
    deck = row[L_DECK : L_DECK + len(rules.pack())]
    hands, turnup, aside = hands_of(rules, deck, dealer)
    parts = row[L_RESULT:L_REVOKE_LIST].reshape(-1, MAX_TEAMS)
    n_rev = int(row[L_REVOKES])
    revokes = [[int(row[L_REVOKE_LIST + 2 * j]), int(row[L_REVOKE_LIST + 2 * j + 1])] for j in range(n_rev)]
    moves = [f"{int(x) >> 6}:{card_name(int(x) & 63)}" for x in row[L_MOVE : L_MOVE + int(row[L_MOVES])]]
    record: dict[str, Any] = {"game": name, "rules": rules.to_record(), "dealer": dealer, "hands": hands,
                              "trump": card_name(turnup)}  # fmt: skip
    if rules.kind == SCOTCH:
        record["aside"] = card_name(aside) if aside >= 0 else None
    record["moves"] = moves
    record["result"] = result_dict(rules.kind, parts, revokes, rules.n_teams)
    record["seed"] = {"run": seed, "game": game, "deal": int(row[L_DEAL])}
    record["strategies"] = strategies
    return record


# ---- reading -----------------------------------------------------------------


def _card(text: Any, what: str) -> int:
    if not isinstance(text, str):
        raise RecordError(f"{what}: {text!r} is not a card code")
    try:
        c = parse_card(text)
    except ValueError as e:
        raise RecordError(f"{what}: {e}") from None
    if c >= 52:
        raise RecordError(f"{what}: {text!r} is not a card of this game")
    return c


def read_deal(name: str, rules_cls: type, record: Any) -> tuple[DealtRules, int, np.ndarray, int, int]:
    """(rules, dealer, hand masks [sets, players, 4], turn-up, aside or -1) of a record."""
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object")
    fields = COMMON_FIELDS | ({"aside"} if name == "scotch" else set())
    unknown = set(record) - fields
    if unknown:
        raise RecordError(f"unknown field {sorted(unknown)[0]!r}")
    for key in ("rules", "dealer", "hands", "trump", "moves"):
        if key not in record:
            raise RecordError(f"missing field {key!r}")
    try:
        rules = rules_cls.from_record(record["rules"])
    except RuleError as e:
        raise RecordError(str(e)) from None
    p = rules.players
    dealer = record["dealer"]
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < p:
        raise RecordError(f"'dealer' must be a seat from 0 to {p - 1}")
    hands = record["hands"]
    shape = f"{rules.sets} set{'s' * (rules.sets > 1)} of {p} hands of {rules.hand} cards"
    if not isinstance(hands, list) or len(hands) != rules.sets:
        raise RecordError(f"'hands' must be a list of {shape}")
    masks = np.zeros((MAX_SETS, p, 4), np.int64)
    seen: list[int] = []
    for k, hset in enumerate(hands):
        if not isinstance(hset, list) or len(hset) != p:
            raise RecordError(f"'hands' must be a list of {shape}: set {k} is not a list of {p} hands")
        for q, hand in enumerate(hset):
            if not isinstance(hand, list) or len(hand) != rules.hand:
                raise RecordError(
                    f"'hands' must be a list of {shape}: set {k}, seat {q} does not hold {rules.hand}"
                )
            for text in hand:
                c = _card(text, f"hands (set {k}, seat {q})")
                masks[k, q, c // 13] |= 1 << (c % 13)
                seen.append(c)
    aside = -1
    if name == "scotch":
        value = record.get("aside")
        if rules.aside:
            if value is None:
                raise RecordError("'aside' must name the card laid aside (odd_six=aside)")
            aside = _card(value, "aside")
            seen.append(aside)
        elif value is not None:
            raise RecordError("'aside' must be null: no card is laid aside under these rules")
    if sorted(seen) != sorted(rules.pack()):
        raise RecordError(_wrong_pack(rules, seen))
    turnup = _card(record["trump"], "trump")
    if not (masks[rules.sets - 1, dealer, turnup // 13] >> (turnup % 13)) & 1:
        raise RecordError(f"'trump' {record['trump']} is not in the dealer's (seat {dealer}) last hand")
    return rules, dealer, masks, turnup, aside


def _wrong_pack(rules: DealtRules, seen: list[int]) -> str:
    pack = set(rules.pack())
    dup = sorted({c for c in seen if seen.count(c) > 1})
    if dup:
        return f"the deal holds {card_name(dup[0])} twice"
    extra = sorted(set(seen) - pack)
    if extra:
        return f"the deal holds {card_name(extra[0])}, which is not in this game's pack"
    return f"the deal lacks {card_name(sorted(pack - set(seen))[0])}"


def _parse_moves(moves: Any, players: int) -> tuple[np.ndarray, np.ndarray, MoveError | None]:
    """Seats and cards of the moves up to the first unreadable one, and its error."""
    if not isinstance(moves, list):
        raise RecordError("'moves' must be a list")
    seats = np.zeros(len(moves), np.int64)
    cards = np.zeros(len(moves), np.int64)
    for i, m in enumerate(moves):
        if not isinstance(m, str):
            return seats[:i], cards[:i], MoveError(i, f"move {m!r} is not a string")
        seat, sep, action = m.partition(":")
        if not sep or not seat.strip().isdigit() or int(seat) >= players:
            return (
                seats[:i],
                cards[:i],
                MoveError(i, f"move {m!r}: expected '<seat>:<card>' with a seat below {players}"),
            )
        try:
            cards[i] = parse_card(action)
        except ValueError as e:
            return seats[:i], cards[:i], MoveError(i, f"move {m!r}: {e}")
        seats[i] = int(seat)
    return seats, cards, None


# ---- replay ------------------------------------------------------------------


@njit(cache=True)
def start(buf, dealer, turnup, aside):
    start_deal(buf[0].core, dealer, turnup, aside)


@njit(cache=True)
def step(buf, card):
    """Check and, if legal, play one card; returns the engine's error code."""
    c = buf[0].core
    e = check(c, card)
    if e == OK:
        apply(c, card)
    return e


@njit(cache=True)
def _replay(buf, dealer, turnup, aside, seats, cards):
    """(status, move index, detail): 0 done, >0 engine error, <0 seat or length trouble."""
    c = buf[0].core
    start_deal(c, dealer, turnup, aside)
    s = c.table.s
    for i in range(cards.shape[0]):
        if s[S_PHASE] == OVER:
            return _EXTRA, i, 0
        if seats[i] != s[S_SEAT]:
            return _WRONG_SEAT, i, s[S_SEAT]
        e = check(c, cards[i])
        if e != OK:
            return e, i, 0
        apply(c, cards[i])
    if s[S_PHASE] != OVER:
        return _SHORT, cards.shape[0], s[S_SEAT]
    return OK, cards.shape[0], 0


class Loaded(NamedTuple):
    """A record read and its deal set up in a fresh state, ready to replay."""

    rules: DealtRules
    buf: np.ndarray
    dealer: int
    turnup: int
    aside: int
    seats: np.ndarray  # the moves up to the first unreadable one
    cards: np.ndarray
    bad: MoveError | None  # the first unreadable move, if any


def load(name: str, rules_cls: type, record: Any) -> Loaded:
    rules, dealer, masks, turnup, aside = read_deal(name, rules_cls, record)
    seats, cards, bad = _parse_moves(record["moves"], rules.players)
    buf = new_state(rules)
    buf[0]["core"]["sets"][: rules.sets, : rules.players] = masks[: rules.sets]
    return Loaded(rules, buf, dealer, turnup, aside, seats, cards, bad)


def replay(name: str, rules_cls: type, record: Any) -> dict[str, Any]:
    """Judge one record: its replayed ``result``, or RecordError / MoveError."""
    d = load(name, rules_cls, record)
    buf, bad = d.buf, d.bad
    status, i, detail = _replay(
        buf, np.int64(d.dealer), np.int64(d.turnup), np.int64(d.aside), d.seats, d.cards
    )
    raise_replay_error(status, i, detail, record["moves"], bad, ENGINE_ERRORS,
                       short="is to play", turn="is to play")  # fmt: skip
    return result_of(buf, d.rules)


def result_of(buf: np.ndarray, rules: DealtRules) -> dict[str, Any]:
    core = buf[0]["core"]
    n = int(core["n_revokes"])
    revokes = [[int(core["revokes"][j, 0]), int(core["revokes"][j, 1])] for j in range(n)]
    return result_dict(rules.kind, core["result"], revokes, rules.n_teams)
