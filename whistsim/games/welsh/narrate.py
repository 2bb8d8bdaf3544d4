"""``whistsim show`` for Welsh Whist: a deal told trick by trick, for card players."""

from __future__ import annotations

from typing import Any

from ...cards import SUIT_WORDS, TAFFY, TEN, pretty_card
from .engine import (
    CHALLENGE,
    CHALLENGE_SEAT,
    DRAW,
    FOLLOW,
    NO_CHALLENGE,
    OVER,
    PASS,
    S_KEPT,
    S_LAST_HOLDER,
    S_LED_SUIT,
    S_PHASE,
    S_TOP,
    S_TRICK_LEN,
    S_WINNER,
    TAFFY_LEAD,
    TURN,
    new_state,
)
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
    s = t["s"]
    lines = [
        _rules_line(rules),
        f"Seat {first} takes the first turn; the stock holds {stock.size} cards.",
        "",
    ]
    draws: list[str] = []
    trick: list[str] = []
    n_tricks = 0

    def flush_draws() -> None:
        if draws:
            lines.append("  draws  " + "   ".join(draws))
            draws.clear()

    for seat, a in zip(seats.tolist(), actions.tolist(), strict=True):
        phase = int(s[S_PHASE])
        if phase == TURN and a == DRAW:
            draws.append(f"{seat}: {pretty_card(int(buf[0]['deck'][s[S_TOP]]))}")
        elif phase == TURN:
            flush_draws()
            n_tricks += 1
            if TAFFY_LEAD <= a < DRAW:
                trick = [f"seat {seat} leads a Taffy as {SUIT_WORDS[a - TAFFY_LEAD]}"]
            else:
                trick = [f"seat {seat} leads {pretty_card(a)}"]
        elif phase == FOLLOW:
            if a == PASS:
                held = buf[0]["seats"][seat]["hand"]
                suit = int(s[S_LED_SUIT])
                able = held[TAFFY] > 0 or held[suit * 13 : suit * 13 + 13].any()
                trick.append(f"{seat} passes" + (" (falsely)" if able else ""))
            else:
                trick.append(f"{seat} plays {action_words(a)}")
        elif phase == CHALLENGE:
            if a == NO_CHALLENGE:
                lines.append(f"         seat {seat} does not challenge")
            else:
                target = a - CHALLENGE_SEAT
                caught = bool(buf[0]["seats"][target]["revoked"])
                lines.append(
                    f"         seat {seat} challenges seat {target}: "
                    + ("caught revoking" if caught else "wrongly accused")
                )
        step(buf, a)
        if phase in (TURN, FOLLOW) and a != DRAW and int(s[S_PHASE]) != FOLLOW:
            # The trick is settled; its cards stay on the table until the next lead.
            winner = int(s[S_WINNER])
            cards = [int(c) for c in t["trick_card"][: int(s[S_TRICK_LEN])]]
            tens = sum(c == TAFFY or c % 13 == TEN for c in cards)
            worth = (
                f", {tens} Ten{'s' if tens != 1 else ''}/Taff{'ies' if tens != 1 else 'y'}" if tens else ""
            )
            lines.append(f"Trick {n_tricks:<3} " + " · ".join(trick))
            lines.append(
                f"         → seat {winner} wins {_cards(cards)} ({len(cards)} card{'s' * (len(cards) != 1)}{worth})"
            )
    flush_draws()
    if int(s[S_PHASE]) == OVER and int(s[S_LAST_HOLDER]) >= 0:
        lines.append(f"Seat {int(s[S_LAST_HOLDER])} is last with cards and keeps {int(s[S_KEPT])}.")
    lines.append("")
    lines.append(f"Result ({rules.scoring.replace('_', '-')} scoring)")
    lines.append("  seat  points  cards  Tens  Taffies")
    won = t["won"]
    for q in range(rules.players):
        tens = int(sum(won[q][suit * 13 + TEN] for suit in range(4)))
        lines.append(
            f"  {q:>4}  {result['points'][q]:>6}  {result['won'][q]:>5}  {tens:>4}  {int(won[q][TAFFY]):>7}"
        )
    lines.append(f"  {result['tricks']} tricks, {result['turns']} turns")
    return "\n".join(lines)
