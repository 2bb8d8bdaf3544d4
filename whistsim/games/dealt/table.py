"""A dealt game (Scotch Whist, Whist) at the table: its first deal stepped a move at a time,
and what one seat may see (trumps, the trick, the sides' tricks and shown voids, the game
score), for ``whistsim play`` and ``GameState`` (harness/table.py)."""

from __future__ import annotations

import numpy as np

from ...core.cards import SUIT_SYMBOLS, SUIT_WORDS, card_name, parse_card, pretty_card
from ...core.options import WhistsimError
from ...core.rng import stream_start
from ...harness.build import kernel
from ...harness.table import Deal, View
from . import engine as E
from . import kernels as play
from . import records
from .words import words_of


class DealtDeal(Deal):
    """A dealt game's first deal, as the table needs it."""

    def __init__(self, game, rules, record: dict, seed: int) -> None:
        self.E, self.play, self.rules, self.words = E, play, rules, words_of(rules)
        self.base = record
        d = records.load(game.name, type(rules), {**record, "moves": []})
        self.buf = d.buf
        records.start(self.buf, np.int64(d.dealer), np.int64(d.turnup), np.int64(d.aside))
        for q in range(rules.players):
            self.buf[0]["core"]["seats"][q]["rng"][0] = stream_start(seed, 0, 1 + q)
        self.step_kernel = kernel(play, None)
        self.n_actions = 52

    @classmethod
    def first_to_move(cls, record: dict, first: int, players: int) -> dict:
        lead = (record["dealer"] + 1) % players
        if first != lead:  # the turned trump is the dealer's: the deal fixes who leads
            raise WhistsimError(
                f"first seat {first}: in this deal seat {lead}, the dealer's left, "
                "plays first (dealer= in the deal says who deals)"
            )
        return record

    def holder(self):
        return self.buf[0]["core"]

    def seats(self):
        return self.buf[0]["core"]["seats"]

    def to_move(self) -> int:
        return int(self.holder()["table"]["s"][E.S_SEAT])

    def over(self) -> bool:
        return int(self.holder()["table"]["s"][E.S_PHASE]) == E.OVER

    def parse(self, text: str) -> int:
        return parse_card(text.strip())

    def name(self, a: int) -> str:
        return card_name(a)

    def decide(self) -> int:
        return play.decide_now(self.buf)

    def result(self) -> dict:
        return records.result_of(self.buf, self.rules)

    def facts(self, seat: int) -> View:
        t = self.holder()["table"]
        s = t["s"]
        bits = self.holder()["seats"][seat]["bits"]
        hand = [su * 13 + r for su in range(4) for r in range(13) if (int(bits[su]) >> r) & 1]
        trump, r = int(s[E.S_TRUMP]), self.rules
        score = ", ".join(f"side {k} {int(t['score'][k])}" for k in range(r.n_teams))
        v = View(
            f"your hand (seat {seat}, side {int(t['team'][seat])})",
            hand,
            seat,
            before=[
                f"trumps: {SUIT_WORDS[trump]} (turned up: {pretty_card(int(s[E.S_TURNUP]))}, dealer seat "
                f"{int(s[E.S_DEALER])}); set {int(s[E.S_SET]) + 1} of {r.sets}"
            ],
            after=[f"game score before this deal: {score} (target {r.target})"],
            columns=["seat", "side", "tricks", "hand", "shown void in"],
        )
        n = int(s[E.S_TRICK_LEN])
        if n and int(s[E.S_LED]) >= 0:
            v.trick_label = f"trick (led by seat {int(s[E.S_LEADER])})"
            v.trick = [(int(t["trick_seat"][i]), int(t["trick_card"][i])) for i in range(n)]
        for q in range(r.players):
            void = "".join(SUIT_SYMBOLS[k] for k in range(4) if t["void"][q][k])
            v.rows.append([q, int(t["team"][q]), int(t["tricks"][q]), int(t["hand_n"][q]), void or "-"])
        return v

    def describe(self, seat: int) -> list[str]:
        v = self.facts(seat)
        lines = [*v.head(), "seat  side  tricks  hand  shown void in"]
        for q, side, tricks, n, void in v.rows:
            you = "  (you)" if q == seat else ""
            lines.append(f"{q:>4} {side:>5} {tricks:>7} {n:>5}  {void}{you}")
        return lines

    def record(self, moves: list[str], seed: int, strategies: list[str]) -> dict:
        out = {k: v for k, v in self.base.items() if k not in ("moves", "result", "seed", "strategies")}
        return {
            **out,
            "moves": moves,
            **self._result(),
            "seed": self._seed(seed, {"game": 0, "deal": 0}),
            "strategies": strategies,
        }
