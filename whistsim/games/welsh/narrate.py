"""``whistsim show`` for Welsh Whist: a deal told trick by trick, for card players."""

from __future__ import annotations

from typing import Any

from ...cards import SUIT_WORDS, TAFFY, pretty_card
from ...harness import events as ev
from ...harness.events import told
from .engine import count_tens, new_state
from .moves import action_words
from .records import read_record, replay, start, step


def _cards(cards: list[int]) -> str:
    return " ".join(pretty_card(c) for c in cards)


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
    t = buf[0]["table"]
    lines = [
        _rules_line(rules),
        f"Seat {first} takes the first turn; the stock holds {stock.size} cards.",
        "",
    ]
    draws: list[str] = []
    trick: list[str] = []
    n_tricks = 0
    kept = ""

    def flush_draws() -> None:
        if draws:
            lines.append("  draws  " + "   ".join(draws))
            draws.clear()

    for _, _, events in told(buf, lambda b: b[0], seats, actions, step):
        for kind, q, a, b in events:
            if kind == ev.DRAW:
                draws.append(f"{q}: {pretty_card(a)}")
            elif kind == ev.LEAD:
                flush_draws()
                n_tricks += 1
                what = f"a Taffy as {SUIT_WORDS[b]}" if a == TAFFY else pretty_card(a)
                trick = [f"seat {q} leads {what}"]
            elif kind == ev.FOLLOW:
                trick.append(f"{q} plays {action_words(a)}")
            elif kind == ev.PASS:
                trick.append(f"{q} passes" + (" (falsely)" if b else ""))
            elif kind == ev.TRICK:  # its cards stay on the table until the next lead
                cards = [int(c) for c in t["trick_card"][:a]]
                worth = f", {b} Ten{'s' if b != 1 else ''}/Taff{'ies' if b != 1 else 'y'}" if b else ""
                lines.append(f"Trick {n_tricks:<3} " + " · ".join(trick))
                lines.append(f"         → seat {q} wins {_cards(cards)} ({a} card{'s' * (a != 1)}{worth})")
            elif kind == ev.CHALLENGE:
                verdict = "caught revoking" if b else "wrongly accused"
                lines.append(f"         seat {q} challenges seat {a}: {verdict}")
            elif kind == ev.NO_CHALLENGE:
                lines.append(f"         seat {q} does not challenge")
            elif kind == ev.KEEP:
                kept = f"Seat {q} is last with cards and keeps {a}."
    flush_draws()
    if kept:
        lines.append(kept)
    lines.append("")
    lines.append(f"Result ({rules.scoring.replace('_', '-')} scoring)")
    lines.append("  seat  points  cards  Tens  Taffies")
    won = t["won"]
    for q in range(rules.players):
        taffies = int(won[q][TAFFY])
        tens = int(count_tens(won[q])) - taffies
        lines.append(f"  {q:>4}  {result['points'][q]:>6}  {result['won'][q]:>5}  {tens:>4}  {taffies:>7}")
    lines.append(f"  {result['tricks']} tricks, {result['turns']} turns")
    return "\n".join(lines)
