"""Trick-by-trick facts read from game records, for the claims that count what particular plays did.

Records (docs/records.md) hold the deck and every decision, so a deal can be
followed move by move in plain Python: who led what, who answered with what,
who won. Claims read only a few thousand records, so this stays out of the
kernels.
"""

from __future__ import annotations

from dataclasses import dataclass

RANKS = "23456789TJQKA"
TEN_RANK = RANKS.index("T")


@dataclass(frozen=True)
class WelshTrick:
    leader: int
    lead: str  # the card led (a Taffy lead as "X=S")
    stock_left: int  # cards left in the stock when it was led
    plays: tuple[tuple[int, str], ...]  # (seat, card) in play order, the lead first; passes left out
    winner: int
    move: int  # the lead's index in the record's moves


def _welsh_power(card: str, suit: str, taffy_is_ten: bool) -> int:
    if card.startswith("X"):
        return 2 * TEN_RANK if taffy_is_ten else 2 * TEN_RANK + 1
    return 2 * RANKS.index(card[0]) if card[1] == suit else -1


def welsh_tricks(record: dict) -> list[WelshTrick]:
    """Every trick of a Welsh Whist record, in order (records with challenges are not followed)."""
    rules = record["rules"]
    if rules["challenge"] != "none":
        raise ValueError("welsh_tricks follows deals without challenges only")
    p, deck = rules["players"], record["deck"]
    taffy_is_ten = float(rules["taffy_rank"]) == 10.0
    top, hand_n = 0, [0] * p
    moves = [(int(m.split(":", 1)[0]), m.split(":", 1)[1]) for m in record["moves"]]
    out, i = [], 0
    while i < len(moves):
        seat, act = moves[i]
        at = i
        i += 1
        if act == "draw":
            top += 1
            hand_n[seat] += 1
            continue
        stock_left = len(deck) - top
        hand_n[seat] -= 1
        suit = act.split("=")[1] if act.startswith("X") else act[1]
        plays = [(seat, act)]
        best, winner = _welsh_power(act, suit, taffy_is_ten), seat
        answer = [(seat + k) % p for k in range(1, p)]
        for q in [q for q in answer if top < len(deck) or hand_n[q] > 0]:
            s2, a2 = moves[i]
            i += 1
            if s2 != q:
                raise ValueError(f"move {i - 1}: seat {s2} answers where seat {q} should")
            if a2 == "pass":
                continue
            hand_n[q] -= 1
            plays.append((q, a2))
            pw = _welsh_power(a2, suit, taffy_is_ten)
            if pw > best:
                best, winner = pw, q
        out.append(WelshTrick(seat, act, stock_left, tuple(plays), winner, at))
    return out


def is_welsh_ten(card: str) -> bool:
    """A Ten or a Taffy: the cards worth 10."""
    return card.startswith("X") or card[0] == "T"


def high_lead_catches(record: dict, seat: int) -> list[list[int]]:
    """What ``seat``'s leads while the stock lasted caught: the Tens and Taffies others played to them,
    when the lead won. One list per run of successive such leads (a draw by ``seat`` ends a run), one
    count per lead."""
    draws = [i for i, m in enumerate(record["moves"]) if m == f"{seat}:draw"]
    runs: list[list[int]] = []
    last = None  # the move index of the previous lead of the current run
    for t in welsh_tricks(record):
        if t.leader != seat:
            continue
        if t.stock_left == 0:
            last = None
            continue
        caught = sum(1 for _, c in t.plays[1:] if is_welsh_ten(c)) if t.winner == seat else 0
        if last is None or any(last < d < t.move for d in draws):
            runs.append([])
        runs[-1].append(caught)
        last = t.move
    return runs


# ---- Scotch Whist ------------------------------------------------------------------------------------

SMALL_HONOURS = "AKQ"  # "cards or small honours": the trump honours below the Jack
HONOURS = {"J": 11, "A": 4, "K": 3, "Q": 2, "T": 10}  # what each trump honour counts
TRUMP_ORDER = "6789TQKAJ"  # trumps, low to high: the Jack is best
PLAIN_ORDER = "6789TJQKA"


@dataclass(frozen=True)
class ScotchTrick:
    leader: int
    plays: tuple[tuple[int, str], ...]  # (seat, card) in play order
    winner: int


def scotch_power(card: str, led: str, trump: str) -> int:
    if card[1] == trump:
        return 100 + TRUMP_ORDER.index(card[0])
    return PLAIN_ORDER.index(card[0]) if card[1] == led else -1


def scotch_tricks(record: dict) -> list[ScotchTrick]:
    """Every trick of a Scotch Whist deal of 4 to 8 players (one set of hands), in order."""
    if len(record["hands"]) != 1:
        raise ValueError("scotch_tricks follows deals of one set (4 to 8 players)")
    p = record["rules"]["players"]
    trump = record["trump"][1]
    moves = [(int(m.split(":")[0]), m.split(":")[1]) for m in record["moves"]]
    leader = (record["dealer"] + 1) % p
    out = []
    for k in range(0, len(moves), p):
        plays = tuple(moves[k : k + p])
        if plays[0][0] != leader:
            raise ValueError(f"move {k}: seat {plays[0][0]} leads where seat {leader} should")
        led = plays[0][1][1]
        winner = max(plays, key=lambda sc: (scotch_power(sc[1], led, trump), -plays.index(sc)))[0]
        out.append(ScotchTrick(leader, plays, winner))
        leader = winner
    return out


def holder(record: dict, card: str) -> int:
    """The seat a card was dealt to (-1: not dealt)."""
    for seat, hand in enumerate(record["hands"][0]):
        if card in hand:
            return seat
    return -1


def ten_events(record: dict) -> dict[str, bool]:
    """What happened to the Ten of trumps in a deal: ``saved`` (its holder, last to play to a plain suit it
    lacks, trumped in with it and won), ``caught_trumping`` (it was played trumping in and a small honour,
    the Ace, King or Queen of trumps, played after it won the trick: the source's "cards or small honours"
    are the Ace, King and Queen), and ``jack_kept`` (the Jack of trumps was won by the seat it was dealt to,
    or not dealt)."""
    trump = record["trump"][1]
    ten, jack = "T" + trump, "J" + trump
    teams = record["rules"]["teams"]
    out = {"saved": False, "caught_trumping": False, "jack_kept": True}
    for t in scotch_tricks(record):
        seats = [s for s, _ in t.plays]
        cards = [c for _, c in t.plays]
        led = cards[0][1]
        if jack in cards:
            out["jack_kept"] = t.winner == holder(record, jack)
        if ten in cards and led != trump:
            i = cards.index(ten)
            if i == len(cards) - 1 and teams[t.winner] == teams[seats[i]]:
                out["saved"] = True
            later = cards[i + 1 :]
            win = cards[seats.index(t.winner)]
            if i > 0 and win in later and win[0] in SMALL_HONOURS and teams[t.winner] != teams[seats[i]]:
                out["caught_trumping"] = True
    return out


def moved_points(record: dict) -> dict[str, int]:
    """What the play of a deal moved between sides, element by element: for each trump honour (``J``,
    ``A``, ``K``, ``Q``, ``T``) its count when a side other than the one dealt it won it (0 when its own
    side won it, or it was not dealt), and ``cards``, the points for cards (every one of them comes from
    play: cards taken above those dealt)."""
    trump = record["trump"][1]
    teams = record["rules"]["teams"]
    out = dict.fromkeys(HONOURS, 0)
    for t in scotch_tricks(record):
        for _, card in t.plays:
            if card[1] == trump and card[0] in HONOURS and teams[t.winner] != teams[holder(record, card)]:
                out[card[0]] = HONOURS[card[0]]
    out["cards"] = int(sum(record["result"]["cards"]))
    return out
