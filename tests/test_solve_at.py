"""The solver at any point of a deal: a record cut at move N, a deal written as text or read from
PBN, each card's cost in a played deal, and a Whist deal's table per trump suit and leader."""

from __future__ import annotations

import csv
import io
import json
import re
import shlex

import pytest
from click.testing import CliRunner

import whistsim
from whistsim.cli import main
from whistsim.deals import format_deal, parse_deal, read_pbn
from whistsim.solver import card_costs, dd_table, solve_at, solve_record
from whistsim.solver.table import table_rows

ONE_SUIT_EACH = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
PBN = "tests/data/real_deals.pbn"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture(scope="module")
def whist():
    """A Whist deal played out by random players (quick to solve at every card)."""
    return whistsim.simulate("whist", n=1, seed=1, records=1).records[0]


@pytest.fixture(scope="module")
def scotch():
    return whistsim.simulate("scotch", n=1, seed=2, players=4, records=1).records[0]


def write(tmp_path, *records):
    path = tmp_path / "deals.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


# ---- a position from a text deal is the position replayed ----------------------------------


@pytest.mark.parametrize(("game", "n"), [("whist", 22), ("scotch", 30)])
def test_a_position_from_a_text_deal_equals_the_same_position_replayed(game, n, whist, scotch):
    record = whist if game == "whist" else scotch
    from_record = solve_at(record, n, moves=True)
    text = format_deal(record)
    again = {**parse_deal(text), "moves": record["moves"][:n]}
    assert solve_record(again, moves=True) == from_record
    assert from_record["seat"] == int(record["moves"][n].split(":")[0])  # mid-trick: the next to play


def test_a_text_deal_solves_as_its_record_from_the_first_lead(whist):
    out = run("solve", "--deal", format_deal(whist), "--json")
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout) == solve_at(whist, 0)


# ---- --at -------------------------------------------------------------------------------------


def test_at_beyond_the_moves_is_a_one_line_error_naming_the_line(tmp_path, whist):
    path = write(tmp_path, whist, {**whist, "moves": whist["moves"][:10]})
    r = run("solve", path, "--at", 12)
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert r.stderr.strip() == "whistsim: error: line 1: --at 12: the record has only 10 moves"
    with pytest.raises(whistsim.WhistsimError, match="only 52 moves"):
        solve_at(whist, 53)


def test_at_solves_each_record_after_its_first_n_moves(tmp_path, whist):
    r = run("solve", write(tmp_path, whist), "--at", 20, "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout) == {"line": 0, **solve_record({**whist, "moves": whist["moves"][:20]})}


# ---- --each: the errors of a played deal ---------------------------------------------------------


@pytest.mark.parametrize("game", ["whist", "scotch"])
def test_each_card_costs_at_least_zero_and_the_costs_account_for_the_result(game, whist, scotch):
    record = whist if game == "whist" else scotch
    costs = card_costs(record)
    cards = costs["cards"]
    assert len(cards) == len(record["moves"])
    assert all(c["cost"] >= 0 for c in cards)  # no revokes under these rules: the best card keeps the value
    assert any(c["cost"] > 0 for c in cards)  # random players err
    for a, b in zip(cards[:-1], cards[1:], strict=True):
        assert a["after"] == b["before"]
    for side in (0, 1):
        assert costs["lost"][side] == sum(c["cost"] for c in cards if c["side"] == side)
    result = record["result"]
    if game == "whist":
        assert costs["start"] == solve_at(record, 0)["tricks"][0]
        taken = result["tricks"][0]
    else:
        assert costs["start"] == solve_at(record, 0)["margin"]
        taken = result["points"][0] - result["points"][1]
    # what side 0 took, less its open-hand par, is side 1's costs less its own
    assert costs["end"] == taken
    assert taken - costs["start"] == -costs["lost"][0] + costs["lost"][1]


def test_a_costly_card_is_worth_what_solving_its_position_says(whist):
    costs = card_costs(whist)
    c = next(c for c in costs["cards"] if c["cost"] > 0 and c["move"] % 4)  # a card in mid-trick
    k = c["move"]
    at = solve_at(whist, k, moves=True)  # side 0's tricks from the trick in progress, per card
    won = _side0_tricks(whist, k)
    values = {m["card"]: won + m["tricks"][0] for m in at["moves"]}
    best = max(values.values()) if c["side"] == 0 else min(values.values())
    assert (values[c["card"]], best) == (c["after"], c["before"])
    assert c["best"] == at["best"] and c["card"] not in at["best"]


def _side0_tricks(record, k):
    """Side 0's (seats 0 and 2) tricks finished before move ``k``: the highest trump, else the
    highest card of the suit led."""
    trump = record["trump"][1]
    rank = "23456789TJQKA".index
    won = 0
    for t in range(k // 4):
        trick = [m.split(":") for m in record["moves"][4 * t : 4 * t + 4]]
        led = trick[0][1][1]
        seat, _ = max(trick, key=lambda sc: (sc[1][1] == trump, sc[1][1] == led, rank(sc[1][0])))
        won += int(seat) % 2 == 0
    return won


# ---- the open-hand table ------------------------------------------------------------------------


def test_table_with_one_full_suit_each_goes_to_the_side_holding_the_trumps_whoever_leads():
    # N spades, E hearts, S diamonds, W clubs: nobody can follow a lead, so the one hand holding
    # trumps ruffs or wins every trick
    t = dd_table(ONE_SUIT_EACH)
    assert len(t) == 16 and set(t["leader"]) == set("NESW")
    for trump, ns in {"S": 13, "H": 0, "D": 13, "C": 0}.items():
        cells = t[t["trump"] == trump]
        assert (cells["tricks_ns"] == ns).all() and (cells["tricks_ew"] == 13 - ns).all(), trump


def test_table_with_all_the_trumps_in_one_hand_gives_that_side_every_trick():
    # N holds every spade and nothing else: a lead of spades wins, a lead of another suit is ruffed
    deal = "N:AKQJT98765432... .AKQJT98.AKQ.AKQ .765432.JT98.JT9 ..765432.8765432"
    cells = [r for r in table_rows(deal) if r["trump"] == "S"]
    assert [r["tricks"] for r in cells] == [[13, 0]] * 4


def test_table_agrees_with_solving_the_record_dealt_with_that_trump():
    deal = read_pbn(PBN)[0]  # quick to solve under every trump
    rows = {(r["trump"], r["leader"]): r["tricks"] for r in table_rows(deal)}
    hands = deal["hands"][0]
    for i, trump in enumerate("SHDC"):
        # a dealer holding the suit turns one of it; the leader is the seat on its left
        dealers = [q for q in range(4) if any(c[1] == trump for c in hands[q])]
        dealer = dealers[i % len(dealers)]
        turned = next(c for c in hands[dealer] if c[1] == trump)
        record = {**deal, "dealer": dealer, "trump": turned, "moves": []}
        assert solve_record(record)["tricks"] == rows[trump, "NESW"[(dealer + 1) % 4]], trump


def test_table_as_json_and_csv(tmp_path):
    r = run("solve", "--deal", ONE_SUIT_EACH, "--table", "--json")
    assert r.exit_code == 0, r.output
    table = json.loads(r.stdout)["table"]
    assert len(table) == 16 and table[0] == {"trump": "S", "leader": "N", "tricks": [13, 0]}
    r = run("solve", "--deal", ONE_SUIT_EACH, "--table", "--csv", "-")
    assert r.exit_code == 0, r.output
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    assert len(rows) == 16 and rows[4] == {"trump": "H", "leader": "N", "tricks_ns": "0", "tricks_ew": "13"}
    assert "open-hand tricks of N-S" in r.stderr  # the table for a person goes to standard error


def test_table_is_for_whist_deals(tmp_path, scotch):
    r = run("solve", write(tmp_path, scotch), "--table", "--json")
    assert r.exit_code == 1
    assert "for Whist deals" in json.loads(r.stdout)["error"]


# ---- sources: PBN ----------------------------------------------------------------------------


def test_a_pbn_file_is_solved_board_by_board():
    deals = read_pbn(PBN)
    r = run("solve", PBN, "--json")
    assert r.exit_code == 0, r.output
    out = [json.loads(x) for x in r.stdout.splitlines()]
    assert [o["deal"] for o in out] == list(range(1, len(deals) + 1))
    assert all(sum(o["tricks"]) == 13 for o in out)
    assert out[0] == {"deal": 1, **solve_record(deals[0])}


# ---- the CLI -------------------------------------------------------------------------------


def test_each_as_text_json_and_csv(tmp_path, whist):
    path = write(tmp_path, whist)
    costs = card_costs(whist)
    r = run("solve", path, "--each", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout) == {"line": 0, **costs}
    r = run("solve", path, "--each")
    lost = costs["lost"]
    assert f"tricks lost: side 0 {lost[0]}, side 1 {lost[1]}" in r.stdout
    out = tmp_path / "errors.csv"
    r = run("solve", path, "--each", "--csv", out)
    assert r.exit_code == 0, r.output
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 52 and rows[0]["line"] == "0"
    assert [int(x["cost"]) for x in rows] == [c["cost"] for c in costs["cards"]]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--each", "--table"], "give one of them"),
        (["--at", "3", "--each"], "--at judges one position"),
        (["--csv", "x.csv"], "--csv writes the rows of --each or --table"),
        (["--at", "-1"], "0 or more"),
    ],
)
def test_options_that_do_not_go_together_are_one_line_errors(tmp_path, whist, args, words):
    r = run("solve", write(tmp_path, whist), *args)
    assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1 and words in r.stderr, r.output
    r = run("solve", write(tmp_path, whist), "--deal", ONE_SUIT_EACH)
    assert r.exit_code == 2 and "one of them" in r.stderr


def test_the_help_example_runs_and_gives_numbers_that_are_not_all_zero(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = run("solve", "--help").output
    lines = [x.strip() for x in text.split("Example:")[1].split("\n\n")[0].splitlines() if x.strip()]
    assert len(lines) == 4 and all(x.startswith("whistsim ") for x in lines)
    outs = []
    for line in lines:
        r = run(*shlex.split(line)[1:])
        assert r.exit_code == 0, (line, r.output)
        outs.append(r.stdout)
    assert re.findall(r"tricks (\d+)-(\d+)", outs[1])  # --at 20: 8 tricks to play in every deal
    assert all(int(a) + int(b) == 8 for a, b in re.findall(r"tricks (\d+)-(\d+)", outs[1]))
    assert any(int(c) > 0 for c in re.findall(r"[0-9A-Z]{2}:(\d+)", outs[1]))
    rows = list(csv.DictReader(open("errors.csv")))
    assert rows and any(int(x["cost"]) > 0 for x in rows)
    assert len(re.findall(r"leads((?:\s+\d+){4})", outs[3])) == 4
    assert any(int(v) > 0 for v in re.findall(r"\d+", " ".join(re.findall(r"leads((?:\s+\d+){4})", outs[3]))))


# ---- show --costs ------------------------------------------------------------------------------


def test_show_prints_the_deal_as_text_and_marks_each_costly_card(tmp_path, whist):
    path = write(tmp_path, whist)
    plain = run("show", path)
    assert plain.exit_code == 0, plain.output
    assert plain.stdout.splitlines()[0] == f"Deal: {format_deal(whist)}"
    assert "(-" not in plain.stdout
    r = run("show", path, "--costs")
    assert r.exit_code == 0, r.output
    costs = card_costs(whist)
    costly = [c for c in costs["cards"] if c["cost"]]
    marks = re.findall(r"\(-(\d+)\)", r.stdout)
    assert [int(m) for m in marks] == [c["cost"] for c in costly]  # in the order played; the rest unmarked
    assert len(re.findall(r"kept the value", r.stdout)) == len(costly)
    assert f"side 0 lost {costs['lost'][0]} trick" in r.stdout
    j = json.loads(run("show", path, "--costs", "--json").stdout)
    assert j["costs"] == costs and j["deal"] == format_deal(whist) and "(-" in j["text"]


def test_show_costs_of_a_game_the_solver_does_not_take_is_one_line(tmp_path):
    welsh = whistsim.simulate("welsh", n=1, seed=1, records=1).records[0]
    r = run("show", write(tmp_path, welsh), "--costs")
    assert r.exit_code == 2 and r.stderr.strip().splitlines() == [
        "whistsim: error: --costs: the solver takes records of whist and scotch, not 'welsh'"
    ]
