"""Play a given Scotch Whist deal out with players, for the claims that change a deal and replay it
(taking up the wrong hand). The deal is read from a record (docs/records.md); every card is chosen by
the seat's player through the same engine the simulations use, one decision at a time."""

from __future__ import annotations

from typing import Any

from ..core.rng import stream_start
from ..core.strategy import parse_spec
from ..games import get_game, seating
from ..games.dealt.engine import OVER, S_PHASE
from ..games.dealt.kernels import decide_now
from ..games.dealt.records import load, result_of, start, step


def play_deal(record: dict, strategies: list[str], seed: int, index: int) -> dict[str, Any]:
    """The deal of ``record`` (its moves ignored) played out by ``strategies`` (one, or one per seat);
    seat q's player draws from stream 1 + q of (``seed``, ``index``), as in a simulation. Its result."""
    g = get_game(record["game"])
    rules_cls = type(g.rules_from_record(record["rules"]))
    d = load(record["game"], rules_cls, {**record, "moves": []})
    p = d.rules.players
    ids, params = seating(record["game"], [parse_spec(s) for s in strategies], p)
    seats = d.buf[0]["core"]["seats"]
    seats["strategy"][:p] = ids
    seats["params"][:p] = params
    for q in range(p):
        seats["rng"][q, 0] = stream_start(seed, index, 1 + q)
    start(d.buf, d.dealer, d.turnup, d.aside)
    s = d.buf[0]["core"]["table"]["s"]
    while int(s[S_PHASE]) != OVER:
        e = step(d.buf, decide_now(d.buf))
        if e != 0:
            raise RuntimeError(f"a player's card was refused by the engine (error {e})")
    return result_of(d.buf, d.rules)


def exchange_hands(record: dict, seat: int, a: int, b: int) -> dict:
    """The record with ``seat``'s hands of sets ``a`` and ``b`` exchanged (taking up the wrong hand)."""
    hands = [[list(h) for h in s] for s in record["hands"]]
    hands[a][seat], hands[b][seat] = hands[b][seat], hands[a][seat]
    return {**record, "hands": hands}
