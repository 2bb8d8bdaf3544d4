"""Toy: a trick-taking game of two players defined outside whistsim, through the seam
every game uses (tests/test_harness.py). Its package holds only its rules and players."""

from dataclasses import asdict, dataclass

import numpy as np

from whistsim.cards import card_name, parse_card, pretty_card
from whistsim.figures import Figure, top_share
from whistsim.games import Game, register
from whistsim.harness import batch, events, moves, records
from whistsim.harness import replay as shared
from whistsim.options import Option, resolve
from whistsim.strategy import Registry

from . import engine, players

OPTIONS = (Option("players", "int", 2, "two players", (2,)),
           Option("ranks", "int", 6, "cards per suit, the highest ones (2 to 13)", tuple(range(2, 14))))  # fmt: skip


@dataclass(frozen=True)
class ToyRules:
    players: int = 2
    ranks: int = 6

    def deck(self) -> np.ndarray:
        return np.array([s * 13 + r for s in range(4) for r in range(13 - self.ranks, 13)], np.int64)


def play_batch(rules, ids, params, **kw):
    return batch.play_batch(engine, players, rules, ids, params, seat_columns=("tricks",), game_columns=("first", "moves"),
                        log_width=52, describe=card_name, **kw)  # fmt: skip


def make_record(rules, batch, i, seed, strategies) -> dict:
    buf, first, n = np.zeros(1, engine.STATE_DTYPE), int(batch.game["first"][i]), len(rules.deck())
    engine.deal(buf[0], rules.deck(), seed, batch.start + i, first)
    return {"game": "toy", "rules": asdict(rules), "first": first, "deck": [card_name(c) for c in buf[0]["deck"][:n]],
            "moves": moves.move_texts(batch.logs[i], card_name), "result": {"tricks": batch.seat["tricks"][i].tolist()},
            "seed": {"run": seed, "game": batch.start + i}, "strategies": strategies}  # fmt: skip


def _load(record):
    records.check_fields(record, ("first", "deck"), ("first", "deck"))
    rules = records.read_rules(record, GAME.rules_from_record)
    first, deck = (
        records.read_seat(record, "first", 2),
        records.read_deck(record, "deck", rules.deck(), "the Toy pack"),
    )
    buf = np.zeros(1, engine.STATE_DTYPE)
    buf[0]["deck"][: len(deck)] = deck
    engine.deal_deck(buf[0], len(deck), first)
    return (rules, buf, *records.read_moves(record, 2, parse_card, "card"))


def replay(record) -> dict:
    rules, buf, seats, cards, bad = _load(record)
    shared.replay_moves(
        engine, buf, seats, cards, record["moves"], bad, short="is to play", turn="is to play"
    )
    return {"tricks": buf[0]["table"]["tricks"].tolist()}


def narrate(record) -> str:
    result, (_, buf, seats, cards, _) = replay(record), _load(record)
    story = events.told(buf, lambda b: b[0], seats, cards, lambda b, a: shared.step(engine, b, a))
    return "\n".join(
        [f"Toy, seat {record['first']} leads", *events.plain_story(story, pretty_card), f"Tricks: {result}"]
    )


def measure(batch, rules) -> dict:
    tricks, win = batch.seat["tricks"], top_share(batch.seat["tricks"])
    return {f"{name}[{q}]": x[:, q] for name, x in (("tricks", tricks), ("win", win)) for q in range(2)}


GAME = register(Game(
    name="toy", title="Toy", presets=("toy",), options=OPTIONS,
    rules_of=lambda preset, players, over: ToyRules(**resolve(OPTIONS, {**over, "players": players or 2})),
    rules_from_record=lambda r: ToyRules(**resolve(OPTIONS, r, strict_complete=True, json_types=True)),
    play_batch=play_batch, make_record=make_record, replay=replay, narrate=narrate,
    figures=(Figure("tricks", "seat", "tricks per deal", "tricks the seat took"),
             Figure("win", "seat", "share of deals won", "1 for more tricks, 1/2 on a tie")),
    measure=measure, outcome=lambda b, r: (b.seat["tricks"], top_share(b.seat["tricks"])),
    players=Registry("toy", players.PLAYERS), players_of=lambda r: 2, sides_of=lambda r: 2,
))  # fmt: skip
