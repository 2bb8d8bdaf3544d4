"""``whistsim show`` for the dealt games: a deal told trick by trick, for card players."""

from __future__ import annotations

from typing import Any

from ...cards import ACE, JACK, KING, QUEEN, SUIT_SYMBOLS, SUIT_WORDS, TEN, pretty_card
from .engine import DIAMONDS, S_SET, S_TRICK_LEN, S_WINNER, SCOTCH
from .records import load, replay, start, step

HONOUR_POINTS = {JACK: 11, ACE: 4, KING: 3, QUEEN: 2, TEN: 10}


def _hand(masks, q: int) -> str:
    """One hand, suit by suit, high cards first."""
    parts = []
    for suit in (3, 2, 1, 0):
        m = int(masks[q, suit])
        ranks = [pretty_card(suit * 13 + r)[:-1] for r in range(12, -1, -1) if (m >> r) & 1]
        parts.append(SUIT_SYMBOLS[suit] + (" ".join(ranks) if ranks else "—"))
    return "  ".join(parts)


def _worth(rules, trump: int, cards: list[int]) -> str:
    """Scotch: the counting cards a trick holds."""
    if rules.kind != SCOTCH:
        return ""
    got = [
        f"{pretty_card(c)} {HONOUR_POINTS[c % 13]}"
        for c in cards
        if c // 13 == trump and c % 13 in HONOUR_POINTS
    ]
    if rules.french and trump != DIAMONDS and DIAMONDS * 13 + TEN in cards:
        got.append(f"{pretty_card(DIAMONDS * 13 + TEN)} 10")
    return f", taking {', '.join(got)}" if got else ""


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
    t = core["table"]
    s = t["s"]
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
    trick: list[str] = []
    n = 0
    for seat, card in zip(d.seats.tolist(), d.cards.tolist(), strict=False):
        before = int(s[S_SET])
        held = core["seats"][seat]["bits"].copy()
        led = int(t["trick_card"][0]) // 13 if int(s[S_TRICK_LEN]) > 0 else -1
        revoke = led >= 0 and card // 13 != led and int(held[led]) != 0
        if not trick:
            trick.append(f"seat {seat} leads {pretty_card(card)}")
        else:
            trick.append(f"{seat} plays {pretty_card(card)}" + (" (revoke)" if revoke else ""))
        step(buf, card)
        if int(s[S_TRICK_LEN]) == 0:
            n += 1
            winner = int(s[S_WINNER])
            cards = [int(c) for c in t["trick_card"][:p]]
            lines.append(f"Trick {n:<3} " + " · ".join(trick))
            worth = _worth(rules, trump, cards)
            lines.append(f"          → seat {winner} wins (side {rules.teams_tuple[winner]}){worth}")
            trick = []
            if int(s[S_SET]) != before:
                lines.append(f"Set {int(s[S_SET]) + 1}: seat {winner} leads.")
    lines.append("")
    keys = [k for k in result if k != "revokes"]
    lines.append("Result")
    lines.append("  side  " + "  ".join(f"{k:>12}" for k in keys))
    for side in range(rules.n_teams):
        lines.append(f"  {side:>4}  " + "  ".join(f"{result[k][side]:>12}" for k in keys))
    if result["revokes"]:
        lines.append("  revokes (seat, trick): " + ", ".join(f"({a}, {b})" for a, b in result["revokes"]))
    return "\n".join(lines)
