"""Welsh Whist records against docs/records.md, field by field, and replay's judgements."""

import copy
import json
import re

import pytest
from welsh_deals import Deal

from whistsim import api
from whistsim.core.cards import parse_card
from whistsim.games import MoveError, RecordError
from whistsim.games.welsh.records import replay, stock_order
from whistsim.games.welsh.rules import WelshRules

RULE_KEYS = ["players", "packs", "taffies", "taffy_rank", "scoring", "revokes", "challenge"]
MOVE = re.compile(r"^\d+:(draw|pass|nochallenge|challenge=\d+|X|X=[CDHS]|[2-9TJQKA][CDHS])$")

# The docs/records.md example, played on to the end with the tests' fixed policy.
EXAMPLE_MOVES = ["0:draw", "1:draw", "2:draw", "0:7H", "1:X", "2:pass", "1:draw"]


@pytest.fixture(scope="module")
def example():
    d = Deal(["7H", "X", "TS"]).play(*EXAMPLE_MOVES)
    result = d.finish()
    return {**d.record(), "result": result}


def judge(record) -> dict:
    return api.judge(0, json.dumps(record)).to_json()


def rejected(record) -> dict:
    out = judge(record)
    assert set(out) == {"line", "move", "error"}, out
    assert out["error"] and "\n" not in out["error"]
    return out


# ---- what we write ---------------------------------------------------------------


@pytest.fixture(scope="module")
def simulated():
    rules = {"challenge": "akagiri", "revokes": True}
    return api.simulate("welsh", n=5, seed=11, preset="akagiri", players=5, rules=rules,
                        first="rotate", records=5).records  # fmt: skip


def test_record_fields(simulated):
    for k, rec in enumerate(simulated):
        assert list(rec) == ["game", "rules", "first", "deck", "moves", "result", "seed", "strategies"]
        assert rec["game"] == "welsh"
        assert rec["first"] == k % 5  # rotated
        assert rec["seed"] == {"run": 11, "game": k}
        assert rec["strategies"] == ["random"] * 5


def test_record_rules_written_in_full_with_json_types(simulated):
    rules = simulated[0]["rules"]
    assert list(rules) == RULE_KEYS  # every option, no preset name
    assert rules == {"players": 5, "packs": 3, "taffies": 6, "taffy_rank": 10, "scoring": "standard",
                     "revokes": True, "challenge": "akagiri"}  # fmt: skip
    assert type(rules["taffy_rank"]) is int and type(rules["revokes"]) is bool
    assert json.loads(json.dumps(rules)) == rules
    parlett = WelshRules.make("parlett", 3).to_record()
    assert parlett["taffy_rank"] == 10.5 and json.dumps(parlett["taffy_rank"]) == "10.5"


def test_record_deck_is_the_stock_top_first(simulated):
    rec = simulated[1]
    assert len(rec["deck"]) == 162
    stock = stock_order(WelshRules.from_record(rec["rules"]), 11, 1)
    assert [parse_card(c) for c in rec["deck"]] == stock.tolist()
    # The first move is a draw of deck[0] by the first seat.
    d = Deal(rec["deck"], first=rec["first"], **rec["rules"])
    d.play(rec["moves"][0])
    assert rec["moves"][0] == f"{rec['first']}:draw"
    assert d.hand(rec["first"]) == [rec["deck"][0]]


def test_record_moves_are_seat_colon_action(simulated):
    for rec in simulated:
        bad = [m for m in rec["moves"] if not MOVE.match(m)]
        assert not bad
        assert any(m.endswith(":pass") for m in rec["moves"])


def test_record_result_fields(simulated):
    for rec in simulated:
        res = rec["result"]
        assert list(res) == ["points", "won", "tricks", "turns"]
        assert len(res["points"]) == len(res["won"]) == 5
        assert all(type(x) is int for x in res["points"] + res["won"] + [res["tricks"], res["turns"]])
        assert sum(res["won"]) == 162
        draws = sum(m.endswith(":draw") for m in rec["moves"])
        # turns: draws plus leads; tricks: leads.
        assert draws == 162 and res["turns"] == draws + res["tricks"]


def test_simulated_records_replay(simulated):
    for rec in simulated:
        assert replay(rec) == rec["result"]


# ---- hand-written records ------------------------------------------------------------


def test_records_md_example_replays(example):
    assert replay(example) == example["result"]
    assert judge(example) == {"line": 0, **example["result"]}


def test_record_without_result_is_judged(example):
    rec = {k: v for k, v in example.items() if k != "result"}
    assert judge(rec) == {"line": 0, **example["result"]}


def test_readers_accept_10_and_lower_case(example):
    rec = copy.deepcopy(example)
    rec["deck"] = [c.lower().replace("t", "10") for c in rec["deck"]]
    rec["moves"] = [m.lower() for m in rec["moves"]]
    assert replay(rec) == example["result"]


def test_mismatch_reports_replayed_and_stored(example):
    rec = copy.deepcopy(example)
    rec["result"]["points"][0] += 1
    out = judge(rec)
    assert out == {"line": 0, **example["result"], "mismatch": True, "stored": rec["result"]}
    assert not api.judge(0, json.dumps(rec)).ok


# ---- malformed records: move is null ---------------------------------------------------


def without(d: dict, key: str) -> dict:
    return {k: v for k, v in d.items() if k != key}


def with_rules(example, **kw) -> dict:
    return {**example, "rules": {**example["rules"], **kw}}


@pytest.mark.parametrize(
    ("text", "words"),
    [("{not json", "bad JSON"), ('{"game": "welsh",', "bad JSON"), ("[1, 2]", "JSON object"),
     ('"welsh"', "JSON object"), ("[" * 100_000, "bad JSON"), ('{"first": ' + "9" * 5000 + "}", "bad JSON")],
)  # fmt: skip
def test_bad_json(text, words):
    out = api.judge(4, text).to_json()
    assert out["line"] == 4 and out["move"] is None and words in out["error"]


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda r: without(r, "rules"), "missing field 'rules'"),
        (lambda r: without(r, "deck"), "missing field 'deck'"),
        (lambda r: without(r, "moves"), "missing field 'moves'"),
        (lambda r: without(r, "first"), "missing field 'first'"),
        (lambda r: {**r, "comment": "x"}, "unknown field 'comment'"),
        (lambda r: {**r, "rules": without(r["rules"], "challenge")}, "missing rule 'challenge'"),
        (lambda r: with_rules(r, trumps=True), "unknown rule 'trumps'"),
        (lambda r: with_rules(r, scoring="golf"), "scoring"),
        (lambda r: with_rules(r, taffy_rank=11), "taffy_rank"),
        (lambda r: with_rules(r, players="3"), "players"),  # a record's rules are typed
        (lambda r: with_rules(r, revokes="false"), "revokes"),
        (lambda r: with_rules(r, packs=2.5), "packs"),
        (lambda r: with_rules(r, players=1), "players"),
        (lambda r: with_rules(r, packs=0), "packs"),
        (lambda r: {**r, "rules": "parlett"}, "'rules' must be an object"),
        (lambda r: with_rules(r, taffies=5), "2 packs and 5 Taffies"),  # the deck no longer matches
        (lambda r: {**r, "first": 3}, "'first'"),
        (lambda r: {**r, "first": True}, "'first'"),
        (lambda r: {**r, "deck": r["deck"][:-1]}, "packs"),
        (lambda r: {**r, "deck": [*r["deck"], "X"]}, "packs"),
        (lambda r: {**r, "deck": ["TD" if c == "TH" else c for c in r["deck"]]}, "packs"),
        (lambda r: {**r, "deck": ["1H", *r["deck"][1:]]}, "not a card: '1H'"),
        (lambda r: {**r, "deck": "7H X TS"}, "'deck'"),
        (lambda r: {**r, "moves": "0:draw"}, "'moves'"),
    ],
)
def test_malformed_records_name_the_problem(example, change, words):
    out = rejected(change(copy.deepcopy(example)))
    assert out["move"] is None
    assert words in out["error"]
    with pytest.raises(RecordError):
        replay(change(copy.deepcopy(example)))


@pytest.mark.parametrize(
    ("game", "words"),
    [("golf", "unknown game 'golf'"), (None, "unknown game None"), (["welsh"], "unknown game")],
)
def test_unknown_game(example, game, words):
    out = rejected({**example, "game": game})
    assert out["move"] is None and words in out["error"]


# ---- illegal moves: move is their index -------------------------------------------------


def with_moves(example, moves) -> dict:
    return {**example, "moves": moves}


def test_moves_stop_early(example):
    for cut in (0, 1, 50, len(example["moves"]) - 1):
        out = rejected(with_moves(example, example["moves"][:cut]))
        assert out["move"] == cut
        assert "stop before the deal ends" in out["error"]


def test_extra_moves(example):
    moves = example["moves"]
    for extra in (["0:draw"], ["2:pass", "1:draw"], ["nonsense"]):
        out = rejected(with_moves(example, moves + extra))
        assert out["move"] == len(moves)
        assert "after the deal ended" in out["error"]


def test_illegal_move(example):
    moves = [*EXAMPLE_MOVES[:4], "1:pass"]  # seat 1 holds the Taffy: it must follow
    out = rejected(with_moves(example, moves + example["moves"][5:]))
    assert out["move"] == 4
    assert "'1:pass' is illegal" in out["error"] and "can follow" in out["error"]


def test_move_out_of_turn(example):
    moves = ["0:draw", "2:draw", *example["moves"][2:]]
    out = rejected(with_moves(example, moves))
    assert out["move"] == 1
    assert "out of turn" in out["error"] and "seat 1" in out["error"]


def test_card_not_held(example):
    moves = [*EXAMPLE_MOVES[:3], "0:8H", *example["moves"][4:]]
    out = rejected(with_moves(example, moves))
    assert out["move"] == 3
    assert "does not hold" in out["error"]


@pytest.mark.parametrize(
    ("move", "words"),
    [("0:jump", "not a card"), ("zero:draw", "seat"), ("3:draw", "seat below 3"), ("0draw", "seat"),
     (5, "not a string"), ("0:challenge=x", "not a seat"), ("0:X=Z", "not a suit")],
)  # fmt: skip
def test_unreadable_move(example, move, words):
    moves = [*EXAMPLE_MOVES[:3], move, *example["moves"][4:]]
    out = rejected(with_moves(example, moves))
    assert out["move"] == 3
    assert words in out["error"]


def test_first_problem_is_reported_in_move_order(example):
    # An illegal move before an unreadable one: the illegal one is the error.
    moves = [*EXAMPLE_MOVES[:3], "0:8H", "0:jump", *example["moves"][5:]]
    assert rejected(with_moves(example, moves))["move"] == 3


def test_taffy_lead_must_name_suit_in_records(example):
    d = Deal(["X", "7H", "8S"]).draws(0, 1, 2)
    rec = {**d.record(), "moves": [*d.moves, "0:X"]}
    out = rejected(rec)
    assert out["move"] == 3 and "name its suit" in out["error"]


def test_other_records_still_judged(tmp_path, example):
    lines = [json.dumps(example), "", "{bad", json.dumps(with_moves(example, [])), "  ", json.dumps(example)]
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join(lines) + "\n")
    out = [j.to_json() for j in api.replay(str(path))]
    assert [o["line"] for o in out] == [0, 2, 3, 5]  # blank lines skipped but counted
    assert [("error" in o) for o in out] == [False, True, True, False]
    assert out[1]["move"] is None and out[2]["move"] == 0


def test_undecodable_line_rejected_alone(tmp_path, example):
    path = tmp_path / "r.jsonl"
    path.write_bytes(b"\xff\xfe{}\n" + json.dumps(example).encode() + b"\n")
    out = [j.to_json() for j in api.replay(str(path))]
    assert out[0] == {"line": 0, "move": None, "error": "the line is not UTF-8 text"}
    assert out[1] == {"line": 1, **example["result"]}


def test_move_error_carries_index():
    with pytest.raises(MoveError) as e:
        replay(Deal([]).record())
    assert e.value.index == 0
