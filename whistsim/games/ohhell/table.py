"""Oh Hell at the table: a whole game (every round of the schedule) stepped a move at a time, bids
then cards, and what one seat may see (its hand, the trumps, the bids against the tricks, the
hook, the trick, tricks against bids, the round's points and the totals), for ``whistsim play``
and ``GameState`` (harness/table.py).

The engine reports no event for a bid, a round's score or the next deal (harness/events.py has
no kind for them); :meth:`OhHellDeal.apply` adds them, as kinds of this module's own, from the
state before and after the move, and :meth:`OhHellDeal.story` tells them in the game's words.
"""

from __future__ import annotations

from ...core.cards import SUIT_SYMBOLS
from ...core.rng import stream_start
from ...harness import events as ev
from ...harness.build import kernel
from ...harness.narrator import table_lines
from ...harness.table import Deal, View
from . import engine as E
from . import kernels as play
from . import players as roster
from . import records
from .words import WORDS

# What a move did beyond the engine's events: kinds of this table's own (the engine's are 0..11).
BID, BIDS_DONE, TOOK, ROUND_OVER, RESULT, SCORED, DEALT = range(100, 107)
NAMES = ("bid", "bids_done", "took", "round_over", "result", "scored", "dealt")


def forbidden(s, p: int) -> int | None:
    """The bid the hook forbids the dealer now: only once every other seat has bid (None: none)."""
    if int(s[E.S_PHASE]) != E.BID or int(s[E.S_BIDS_N]) != p - 1:
        return None
    x = int(s[E.S_HAND]) - int(s[E.S_BID_SUM])
    return x if 0 <= x <= int(s[E.S_HAND]) else None


class OhHellDeal(Deal):
    """A whole game of Oh Hell, as the table needs it."""

    own_events = dict(enumerate(NAMES, start=BID))

    def __init__(self, game, rules, record: dict, seed: int) -> None:
        self.E, self.play, self.rules, self.words = E, play, rules, WORDS
        self.base = record
        d = records.load({**record, "moves": []})
        self.buf, self.first = d.buf, d.first
        for q in range(rules.players):  # as a simulation's game 0: seat q draws on stream 1 + q
            self.buf[0]["round"]["seats"][q]["rng"][0] = stream_start(seed, 0, 1 + q)
        self.step_kernel = kernel(play, None)
        self.n_actions = E.BID_BASE + rules.largest + 1

    @classmethod
    def first_to_move(cls, record: dict, first: int, players: int) -> dict:
        # the hands stay where they are; the deal passes from the seat on ``first``'s right
        deals = [{**d, "dealer": (first - 1 + k) % players} for k, d in enumerate(record["deals"])]
        return {**record, "first": first, "deals": deals}

    def holder(self):
        return self.buf[0]["round"]

    def seats(self):
        return self.buf[0]["round"]["seats"]

    def to_move(self) -> int:
        return int(self.holder()["table"]["s"][E.S_SEAT])

    def over(self) -> bool:
        return int(self.holder()["table"]["s"][E.S_PHASE]) == E.OVER

    def parse(self, text: str) -> int:
        return play.parse_action(text)

    def name(self, a: int) -> str:
        return play.action_name(a)

    def decide(self) -> int:
        ids = [int(i) for i in self.seats()["strategy"][: self.rules.players]]
        return int(kernel(play, roster, ids).decide_now(self.buf))

    def result(self) -> dict:
        return records.result_of(self.buf, self.rules)

    # -- what a move did
    def apply(self, a: int) -> tuple[str, list[tuple[int, int, int, int]]]:
        t = self.holder()["table"]
        p, seat = self.rules.players, self.to_move()
        bidding = int(t["s"][E.S_PHASE]) == E.BID
        bids, tricks = [int(x) for x in t["bids"][:p]], [int(x) for x in t["tricks"][:p]]
        move, events = super().apply(a)  # an illegal move raises here, the state unchanged
        out: list[tuple[int, int, int, int]] = []
        if bidding:
            bids[seat] = a - E.BID_BASE
            out.append((BID, seat, bids[seat], 0))
            if all(b >= 0 for b in bids):
                out.append((BIDS_DONE, -1, sum(bids), int(t["s"][E.S_HAND])))
        for e in events:
            kind, q = e[0], e[1]
            if kind == ev.TRICK:
                tricks[q] += 1
                out += [e, (TOOK, q, tricks[q], bids[q])]
            elif kind in (ev.SET, ev.OVER):  # the round is scored: its points, then the next deal
                scored = int(t["s"][E.S_ROUND]) - (kind == ev.SET)
                out.append((ROUND_OVER, -1, scored, 0))
                for r in range(p):
                    out.append((RESULT, r, bids[r], tricks[r]))
                    out.append((SCORED, r, int(t["round_points"][r]), int(t["score"][r])))
                if kind == ev.SET:
                    out.append(
                        (DEALT, int(t["s"][E.S_DEALER]), int(t["s"][E.S_ROUND]), int(t["s"][E.S_TURNUP]))
                    )
                out.append(e)
            else:
                out.append(e)
        return move, out

    def story(self, events, seat: int) -> list[str]:
        w, p, out = self.words, self.rules.players, []
        result: dict[int, tuple[int, int]] = {}
        for e in events:
            kind, q, a, b = e
            you = q == seat
            who = "you" if you else f"seat {q}"
            if kind == BID:
                out.append(w.bid(who, you, a))
            elif kind == BIDS_DONE:
                out.append("  " + w.bids_total(a, b))
            elif kind == TOOK:
                out[-1] += w.took(a, b)
            elif kind == ROUND_OVER:
                out.append(f"  round {a + 1} is scored:")
            elif kind == RESULT:
                result[q] = (a, b)
            elif kind == SCORED:
                out.append("    " + w.scored(who, you, *result[q], a, b))
            elif kind == DEALT:
                by_rule = bool(self.buf[0]["no_trump"][a]) if 0 <= a < E.MAX_ROUNDS else False
                rounds = len(self.rules.sizes())
                out.append(w.dealt(a, rounds, q, self.rules.sizes()[a], w.trumps(b, by_rule), (q + 1) % p))
            elif kind not in (ev.SET, ev.OVER):
                out += table_lines([e], w, seat)
        return out

    # -- what a seat sees
    def facts(self, seat: int) -> View:
        t = self.holder()["table"]
        s, p, r, w = t["s"], self.rules.players, self.rules, self.words
        bits = self.seats()[seat]["bits"]
        hand = [su * 13 + k for su in range(4) for k in range(13) if (int(bits[su]) >> k) & 1]
        k, n, dealer = int(s[E.S_ROUND]), int(s[E.S_HAND]), int(s[E.S_DEALER])
        rounds = len(r.sizes())
        trumps = w.trumps(int(s[E.S_TURNUP]), bool(self.buf[0]["no_trump"][k]))
        bids = [int(x) for x in t["bids"][:p]]
        made = [b for b in bids if b >= 0]
        before = [f"round {k + 1} of {rounds}: {n} cards each, dealt by seat {dealer}; {trumps}"]
        said = ", ".join(f"seat {q} {bids[q]}" for q in range(p) if bids[q] >= 0) or "none yet"
        if int(s[E.S_PHASE]) == E.BID:
            before.append(f"bids: {said} (total {sum(made)} for {n} tricks)")
            x = forbidden(s, p)
            if r.hook and x is not None:
                before.append(f"the hook: the dealer, seat {dealer}, may not bid {x}")
            elif r.hook and int(s[E.S_BIDS_N]) < p - 1:
                before.append(
                    f"the hook: the dealer, seat {dealer}, bids last and may not make the bids total {n}"
                )
        elif not self.over():
            before.append(f"bids: {said}; {w.bids_total(sum(made), n)}; trick {int(s[E.S_TRICK]) + 1} of {n}")
        v = View(
            f"your hand (seat {seat})",
            hand,
            seat,
            before=before,
            columns=["seat", "bid", "tricks", "hand", "last round", "points", "shown void in"],
        )
        if int(s[E.S_PHASE]) == E.PLAY and int(s[E.S_TRICK_LEN]) > 0:
            v.trick_label = f"trick (led by seat {int(s[E.S_LEADER])})"
            v.trick = [
                (int(t["trick_seat"][i]), int(t["trick_card"][i])) for i in range(int(s[E.S_TRICK_LEN]))
            ]
        scored = k > 0 or self.over()  # a round has been scored: its points are on the table
        for q in range(p):
            void = "".join(SUIT_SYMBOLS[j] for j in range(4) if t["void"][q][j])
            last = f"{int(t['round_points'][q]):+d}" if scored else "-"
            v.rows.append(
                [q, bids[q] if bids[q] >= 0 else "-", int(t["tricks"][q]), int(t["hand_n"][q]), last,
                 int(t["score"][q]), void or "-"]
            )  # fmt: skip
        return v

    def describe(self, seat: int) -> list[str]:
        v = self.facts(seat)
        lines = [*v.head(), "seat  bid  tricks  hand  last round  points  shown void in"]
        for q, bid, tricks, n, last, points, void in v.rows:
            you = "  (you)" if q == seat else ""
            lines.append(f"{q:>4} {bid!s:>4} {tricks:>7} {n:>5} {last:>11} {points:>7}  {void}{you}")
        return lines

    def record(self, moves: list[str], seed: int, strategies: list[str]) -> dict:
        out = {k: v for k, v in self.base.items() if k not in ("moves", "result", "seed", "strategies")}
        return {
            **out,
            "moves": moves,
            **self._result(),
            "seed": self._seed(seed, {"game": 0}),
            "strategies": strategies,
        }


__all__ = ["OhHellDeal", "forbidden"]
