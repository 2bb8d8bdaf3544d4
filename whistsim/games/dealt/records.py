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

from ...core.batch import Batch
from ...core.cards import card_name, parse_card
from ...harness import replay as shared
from ...harness.moves import move_texts
from ...harness.records import check_fields, read_moves, read_rules, read_seat
from . import kernels
from .engine import (
    MAX_SETS,
    MAX_TEAMS,
    P_CARDS,
    P_HONOURS,
    P_POINTS,
    P_TRICK_POINTS,
    P_TRICKS,
    S_ASIDE_CARD,
    S_TURNUP,
    SCOTCH,
    deal_from_deck,
    start_deal,
)
from .kernels import (
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
    moves = move_texts(row[L_MOVE : L_MOVE + int(row[L_MOVES])], card_name)
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
        raise shared.RecordError(f"{what}: {text!r} is not a card code")
    try:
        c = parse_card(text)
    except ValueError as e:
        raise shared.RecordError(f"{what}: {e}") from None
    if c >= 52:
        raise shared.RecordError(f"{what}: {text!r} is not a card of this game")
    return c


def read_deal(name: str, rules_cls: type, record: Any) -> tuple[DealtRules, int, np.ndarray, int, int]:
    """(rules, dealer, hand masks [sets, players, 4], turn-up, aside or -1) of a record."""
    fields = ("dealer", "hands", "trump", "aside") if name == "scotch" else ("dealer", "hands", "trump")
    check_fields(record, fields, ("dealer", "hands", "trump"))
    rules = read_rules(record, rules_cls.from_record)
    p = rules.players
    dealer = read_seat(record, "dealer", p)
    hands = record["hands"]
    shape = f"{rules.sets} set{'s' * (rules.sets > 1)} of {p} hands of {rules.hand} cards"
    if not isinstance(hands, list) or len(hands) != rules.sets:
        raise shared.RecordError(f"'hands' must be a list of {shape}")
    masks = np.zeros((MAX_SETS, p, 4), np.int64)
    seen: list[int] = []
    for k, hset in enumerate(hands):
        if not isinstance(hset, list) or len(hset) != p:
            raise shared.RecordError(f"'hands' must be a list of {shape}: set {k} is not a list of {p} hands")
        for q, hand in enumerate(hset):
            if not isinstance(hand, list) or len(hand) != rules.hand:
                raise shared.RecordError(
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
                raise shared.RecordError("'aside' must name the card laid aside (odd_six=aside)")
            aside = _card(value, "aside")
            seen.append(aside)
        elif value is not None:
            raise shared.RecordError("'aside' must be null: no card is laid aside under these rules")
    if sorted(seen) != sorted(rules.pack()):
        raise shared.RecordError(_wrong_pack(rules, seen))
    turnup = _card(record["trump"], "trump")
    if not (masks[rules.sets - 1, dealer, turnup // 13] >> (turnup % 13)) & 1:
        raise shared.RecordError(
            f"'trump' {record['trump']} is not in the dealer's (seat {dealer}) last hand"
        )
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


# ---- replay ------------------------------------------------------------------


@njit(cache=True)
def start(buf, dealer, turnup, aside):
    start_deal(buf[0].core, dealer, turnup, aside)


def step(buf: np.ndarray, card: int) -> int:
    """Check and, if legal, play one card; returns the engine's error code (0: done)."""
    return shared.step(kernels, buf, card)


class Loaded(NamedTuple):
    """A record read and its deal set up in a fresh state, ready to replay."""

    rules: DealtRules
    buf: np.ndarray
    dealer: int
    turnup: int
    aside: int
    seats: np.ndarray  # the moves up to the first unreadable one
    cards: np.ndarray
    bad: shared.MoveError | None  # the first unreadable move, if any


def load(name: str, rules_cls: type, record: Any) -> Loaded:
    rules, dealer, masks, turnup, aside = read_deal(name, rules_cls, record)
    seats, cards, bad = read_moves(record, rules.players, parse_card, "card")
    buf = new_state(rules)
    buf[0]["core"]["sets"][: rules.sets, : rules.players] = masks[: rules.sets]
    return Loaded(rules, buf, dealer, turnup, aside, seats, cards, bad)


def replay(name: str, rules_cls: type, record: Any) -> dict[str, Any]:
    """Judge one record: its replayed ``result``, or shared.RecordError / shared.MoveError."""
    d = load(name, rules_cls, record)
    buf, bad = d.buf, d.bad
    start(buf, np.int64(d.dealer), np.int64(d.turnup), np.int64(d.aside))
    shared.replay_moves(
        kernels, buf, d.seats, d.cards, record["moves"], bad, short="is to play", turn="is to play"
    )
    return result_of(buf, d.rules)


def result_of(buf: np.ndarray, rules: DealtRules) -> dict[str, Any]:
    core = buf[0]["core"]
    n = int(core["n_revokes"])
    revokes = [[int(core["revokes"][j, 0]), int(core["revokes"][j, 1])] for j in range(n)]
    return result_dict(rules.kind, core["result"], revokes, rules.n_teams)
