"""``whistsim show`` for the dealt games: the rules, the deal and hands, the deal told by the
narrator, the result."""

from __future__ import annotations

from typing import Any

from ...core.cards import SUIT_SYMBOLS, SUIT_WORDS, pretty_card
from ...harness.events import told
from ...harness.narrator import trick_story
from .engine import SCOTCH
from .records import load, replay, start, step
from .words import words_of


def _hand(masks, q: int) -> str:
    """One hand, suit by suit, high cards first."""
    parts = []
    for suit in (3, 2, 1, 0):
        m = int(masks[q, suit])
        ranks = [pretty_card(suit * 13 + r)[:-1] for r in range(12, -1, -1) if (m >> r) & 1]
        parts.append(SUIT_SYMBOLS[suit] + (" ".join(ranks) if ranks else "—"))
    return "  ".join(parts)


def _rules_line(title: str, rules) -> str:
    if rules.kind == SCOTCH:
        sides = (
            "each for himself"
            if rules.n_teams == rules.players
            else "sides " + ",".join(map(str, rules.teams))
        )
        odd = f" · odd six {rules.odd_six}" if rules.players in (5, 7) else ""
        return (
            f"{title} · {rules.players} players · {sides}{odd} · {len(rules.pack())} cards · "
            f"game {rules.target} · revokes {'allowed' if rules.revokes else 'forbidden'}"
        )
    return (
        f"{title} · 4 players, 0-2 against 1-3 · game {rules.target} · honours {'on' if rules.honours else 'off'}"
        f" · revokes {'allowed' if rules.revokes else 'forbidden'} (penalty {rules.revoke_penalty})"
    )


def narrate(name: str, rules_cls: type, record: dict[str, Any]) -> str:
    """The deal told trick by trick; raises RecordError / MoveError like replay."""
    result = replay(name, rules_cls, record)  # judge it first: show only legal deals
    d = load(name, rules_cls, record)
    rules, buf = d.rules, d.buf
    title = rules.title
    start(buf, d.dealer, d.turnup, d.aside)
    core = buf[0]["core"]
    p = rules.players
    trump = d.turnup // 13
    lines = [
        _rules_line(title, rules),
        f"Seat {d.dealer} deals and turns {pretty_card(d.turnup)}: {SUIT_WORDS[trump]} are trumps; "
        f"seat {(d.dealer + 1) % p} leads.",
    ]
    if d.aside >= 0:
        lines.append(f"{pretty_card(d.aside)} is shown and laid aside.")
    for k in range(rules.sets):
        if rules.sets > 1:
            lines.append(f"Hands of set {k + 1}:")
        for q in range(p):
            lines.append(f"  seat {q} (side {rules.teams_tuple[q]}): {_hand(core['sets'][k], q)}")
    lines.append("")
    lines += trick_story(told(buf, lambda b: b[0]["core"], d.seats, d.cards, step), words_of(rules))
    lines.append("")
    keys = [k for k in result if k != "revokes"]
    lines.append("Result")
    lines.append("  side  " + "  ".join(f"{k:>12}" for k in keys))
    for side in range(rules.n_teams):
        lines.append(f"  {side:>4}  " + "  ".join(f"{result[k][side]:>12}" for k in keys))
    if result["revokes"]:
        lines.append("  revokes (seat, trick): " + ", ".join(f"({a}, {b})" for a, b in result["revokes"]))
    return "\n".join(lines)
