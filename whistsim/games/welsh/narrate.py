"""``whistsim show`` for Welsh Whist: the rules, the deal told by the narrator, the result."""

from __future__ import annotations

from typing import Any

from ...core.cards import TAFFY
from ...harness.events import told
from ...harness.narrator import trick_story
from .engine import count_tens, new_state
from .records import read_record, replay, start, step
from .words import WORDS


def _rules_line(r) -> str:
    taffy = "Taffy ranks 10½" if r.taffy_rank == 10.5 else "Taffy equals a Ten"
    revokes = "false passes allowed" if r.revokes else "revokes forbidden"
    challenge = "no challenges" if r.challenge == "none" else f"{r.challenge} challenge rule"
    return (
        f"Welsh Whist · {r.players} players · {r.packs} packs + {r.taffies} Taffies · "
        f"{taffy} · {r.scoring.replace('_', '-')} scoring · {revokes} · {challenge}"
    )


def narrate(record: dict[str, Any]) -> str:
    """The deal told turn by turn; raises RecordError / MoveError like replay."""
    result = replay(record)  # judge it first: show only legal deals
    rules, stock, first, seats, actions = read_record(record)
    buf = new_state(rules.to_array())
    start(buf, stock, first)
    lines = [
        _rules_line(rules),
        f"Seat {first} takes the first turn; the stock holds {stock.size} cards.",
        "",
        *trick_story(told(buf, lambda b: b[0], seats, actions, step), WORDS),
        "",
        f"Result ({rules.scoring.replace('_', '-')} scoring)",
        "  seat  points  cards  Tens  Taffies",
    ]
    won = buf[0]["table"]["won"]
    for q in range(rules.players):
        taffies = int(won[q][TAFFY])
        tens = int(count_tens(won[q])) - taffies
        lines.append(f"  {q:>4}  {result['points'][q]:>6}  {result['won'][q]:>5}  {tens:>4}  {taffies:>7}")
    lines.append(f"  {result['tricks']} tricks, {result['turns']} turns")
    return "\n".join(lines)
