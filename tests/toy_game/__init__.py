"""Toy: a trick-taking game of two players defined outside whistsim, through the seam every game
uses (tests/test_harness.py): its rules and players; the harness plays, replays and tells it."""

from dataclasses import asdict, dataclass

import numpy as np

from whistsim.core.cards import card_name, parse_card
from whistsim.core.figures import Figure, top_share
from whistsim.core.options import Option, resolve
from whistsim.core.strategy import Registry
from whistsim.games import Game, register
from whistsim.harness import batch, events, moves, narrator, records, replay

from . import engine, players

OPTIONS = (
    Option("players", "int", 2, "two players", (2,)),
    Option("ranks", "int", 6, "cards per suit, the highest ones (2 to 13)", tuple(range(2, 14))),
)
FIGURES = (
    Figure("tricks", "seat", "tricks per deal", "tricks the seat took"),
    Figure("win", "seat", "share of deals won", "1 for more tricks, 1/2 on a tie"),
)


@dataclass(frozen=True)
class ToyRules:
    players: int = 2
    ranks: int = 6

    def deck(self) -> np.ndarray:
        return np.array([s * 13 + r for s in range(4) for r in range(13 - self.ranks, 13)], np.int64)


def play_batch(rules, ids, params, **kw):
    kw.update(seat_columns=("tricks",), game_columns=("first", "moves"), log_width=52, describe=card_name)
    return batch.play_batch(engine, players, rules, ids, params, **kw)


def make_record(rules, played, i, seed, strategies) -> dict:
    buf, first, game = np.zeros(1, engine.STATE_DTYPE), int(played.game["first"][i]), played.start + i
    engine.shuffle_stock(buf[0], rules.deck(), seed, game, 2)
    deck = [card_name(c) for c in buf[0]["deck"][: len(rules.deck())]]
    texts, result = moves.move_texts(played.logs[i], card_name), {"tricks": played.seat["tricks"][i].tolist()}
    head = dict(game="toy", rules=asdict(rules), first=first, deck=deck, moves=texts, result=result)
    return {**head, "seed": {"run": seed, "game": game}, "strategies": strategies}


def _load(record):
    records.check_fields(record, ("first", "deck"), ("first", "deck"))
    rules = records.read_rules(record, GAME.rules_from_record)
    first = records.read_seat(record, "first", 2)
    deck = records.read_deck(record, "deck", rules.deck(), "the Toy pack")
    buf = np.zeros(1, engine.STATE_DTYPE)
    buf[0]["deck"][: len(deck)] = deck
    engine.deal_deck(buf[0], len(deck), first)
    return (rules, buf, *records.read_moves(record, 2, parse_card, "card"))


def replay_record(record) -> dict:
    _, buf, seats, acts, bad = _load(record)
    replay.replay_moves(engine, buf, seats, acts, record["moves"], bad, short="is to play", turn="is to play")
    return {"tricks": buf[0]["table"]["tricks"].tolist()}


def narrate(record) -> str:
    result, (_, buf, seats, cards, _) = replay_record(record), _load(record)
    told = events.told(buf, lambda b: b[0], seats, cards, lambda b, a: replay.step(engine, b, a))
    return "\n".join([f"Toy, seat {record['first']} leads", *narrator.deal_lines(told), f"Tricks: {result}"])


def measure(played, rules) -> dict:
    tricks, win = played.seat["tricks"], top_share(played.seat["tricks"])
    return {f"{name}[{q}]": x[:, q] for name, x in (("tricks", tricks), ("win", win)) for q in range(2)}


GAME = register(
    Game(
        name="toy",
        title="Toy",
        presets=("toy",),
        options=OPTIONS,
        rules_of=lambda preset, n, over: ToyRules(**resolve(OPTIONS, {**over, "players": n or 2})),
        rules_from_record=lambda r: ToyRules(**resolve(OPTIONS, r, strict_complete=True, json_types=True)),
        play_batch=play_batch,
        make_record=make_record,
        replay=replay_record,
        narrate=narrate,
        figures=FIGURES,
        measure=measure,
        outcome=lambda b, r: (b.seat["tricks"], top_share(b.seat["tricks"])),
        players=Registry("toy", players.PLAYERS),
    )
)
