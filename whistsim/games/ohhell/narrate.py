"""``whistsim show`` for Oh Hell: a game told round by round, bids then tricks, for card players."""

from __future__ import annotations

from typing import Any

from ...core.cards import SUIT_SYMBOLS, SUIT_WORDS, parse_card, pretty_card
from ...core.options import plural
from ...harness import events as ev
from ...harness.events import told
from .engine import BID_BASE
from .records import load, replay, step


def _hand(cards: list[str]) -> str:
    """One hand, suit by suit, high cards first."""
    codes = sorted((parse_card(c) for c in cards), reverse=True)
    parts = []
    for suit in (3, 2, 1, 0):
        ranks = [pretty_card(c)[:-1] for c in codes if c // 13 == suit]
        parts.append(SUIT_SYMBOLS[suit] + (" ".join(ranks) if ranks else "—"))
    return "  ".join(parts)


def _round_header(k: int, deal: dict, n: int, p: int) -> list[str]:
    trump = deal["trump"]
    turned = (f"turns {pretty_card(parse_card(trump))}: {SUIT_WORDS[parse_card(trump) // 13]} are trumps"
              if trump else "no trumps")  # fmt: skip
    lines = [f"Round {k + 1}: seat {deal['dealer']} deals {plural(n, 'card')} each, {turned}; "
             f"seat {(deal['dealer'] + 1) % p} bids first."]  # fmt: skip
    lines += [f"  seat {q}: {_hand(h)}" for q, h in enumerate(deal["hands"])]
    return lines


def narrate(record: dict[str, Any]) -> str:
    """The game told round by round; raises RecordError / MoveError like replay."""
    result = replay(record)  # judge it first: show only legal games
    d = load(record)
    rules, p, sizes = d.rules, d.rules.players, d.rules.sizes()
    lines = [f"Oh Hell · {p} players · {rules.describe()}", ""]
    k = 0
    lines += _round_header(0, record["deals"][0], sizes[0], p)
    bids: list[str] = []
    trick: list[str] = []
    tricks = 0
    before = [0] * p
    for seat, a, events in told(d.buf, lambda b: b[0]["round"], d.seats, d.actions, step):
        if a >= BID_BASE:
            bids.append(f"{seat} bids {a - BID_BASE}")
            if len(bids) == p:
                total = sum(int(b.rsplit(" ", 1)[1]) for b in bids)
                side = "exactly" if total == sizes[k] else ("over" if total > sizes[k] else "under")
                lines.append(f"  Bids: {' · '.join(bids)} (total {total}, {side} the {sizes[k]} tricks)")
                bids = []
            continue
        for kind, q, c, _ in events:
            if kind == ev.LEAD:
                trick = [f"seat {q} leads {pretty_card(c)}"]
            elif kind == ev.FOLLOW:
                trick.append(f"{q} plays {pretty_card(c)}")
            elif kind == ev.TRICK:
                tricks += 1
                lines.append(f"  Trick {tricks:<3} " + " · ".join(trick) + f" → seat {q} wins")
            elif kind in (ev.SET, ev.OVER):
                score = [int(x) for x in d.buf[0]["round"]["table"]["score"][:p]]
                pts = [s - b for s, b in zip(score, before, strict=True)]
                lines.append("  Points: " + " · ".join(f"seat {i} {x:+d}" for i, x in enumerate(pts)))
                before, tricks, k = score, 0, k + 1
                if kind == ev.SET:
                    lines += ["", *_round_header(k, record["deals"][k], sizes[k], p)]
    lines += ["", "Result (points, bids made, tricks per seat)"]
    lines += [
        f"  seat {q}: {result['points'][q]:>5}  {result['made'][q]:>3}  {result['tricks'][q]:>4}"
        for q in range(p)
    ]
    return "\n".join(lines)
