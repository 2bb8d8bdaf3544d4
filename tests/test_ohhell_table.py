"""Oh Hell at the table: a whole game of rounds (bids, then cards) through ``new_game``/GameState,
``whistsim play`` and the browser table's JSON API; what a seat sees; the hook at the table."""

from __future__ import annotations

import json
import re

import pytest
from cli_helpers import run
from serve_helpers import cards_named

import whistsim
from whistsim.api import judge
from whistsim.core.cards import card_name
from whistsim.core.strategy import parse_spec
from whistsim.games import get_game
from whistsim.games.ohhell.table import forbidden
from whistsim.harness.table import IllegalMove
from whistsim.tools.advice import idle_rules, ineffective
from whistsim.tools.terminal import Table, play_game

SMALL = {"schedule": "fixed", "tricks": 3}  # three rounds of three cards, one deal each for 3 players
CLI_SMALL = ("--game", "ohhell", "--players", 3, "--rule", "schedule=fixed", "--rule", "tricks=3")


def small(seed: int) -> whistsim.GameState:
    return whistsim.new_game("ohhell", seed=seed, players=3, rules=SMALL)


def hands(g) -> list[set[str]]:
    """Every seat's unplayed cards now (read from the state: the test's eyes, not a seat's)."""
    seats = g._d.seats()
    return [
        {card_name(s * 13 + r) for s in range(4) for r in range(13) if (int(seats[q]["bits"][s]) >> r) & 1}
        for q in range(g.players)
    ]


def unseen(g, seat: int) -> set[str]:
    """The cards ``seat`` may not see: the others' unplayed cards."""
    held = hands(g)
    return set().union(*(h for q, h in enumerate(held) if q != seat))


def test_a_whole_game_of_scripted_moves_bids_then_cards_every_round_and_its_record_replays():
    g = small(4)
    rounds, bids, told = 0, 0, []
    while not g.done:
        legal = g.legal_moves()
        q = g.to_move
        bidding = legal[0].startswith("bid ")
        assert all(m.startswith("bid ") == bidding for m in legal)  # bids or cards, never both
        if bidding:
            assert g.view(q).hand and all(m in [f"bid {n}" for n in range(4)] for m in legal)
        lines = g.play(legal[-1] if bidding else legal[0])
        assert lines == g.told and lines
        if bidding:
            bids += 1
            assert lines[0] == f"seat {q} {legal[-1].replace('bid', 'bids')}"
        rounds += any(re.fullmatch(r"  round \d is scored:", x) for x in lines)
        told += lines
    assert rounds == 3 and bids == 9 and len(g.moves) == 9 + 27
    assert "round 2 of 3: seat 0 deals 3 cards each" in "\n".join(told)
    points = [0, 0, 0]
    for line in told:  # the totals told round by round end at the record's points
        m = re.fullmatch(
            r"    (?:seat )?(\d) bid \d, took \d \((?:made|missed)\): [+-]\d+, total (-?\d+)", line
        )
        if m:
            points[int(m.group(1))] = int(m.group(2))
    assert points == g.result()["points"]
    j = judge(0, json.dumps(g.record()))
    assert j.ok, j.error
    assert g.view(0).seats[0].keys() == {
        "seat",
        "bid",
        "tricks",
        "hand",
        "last_round",
        "points",
        "shown_void_in",
    }


def test_whistsim_play_with_piped_lines_plays_every_round_and_the_record_replays(tmp_path):
    path = tmp_path / "ohhell.jsonl"
    r = run("play", *CLI_SMALL, "--seed", 1, "--seat", 2, "--record", path, input="?\n" + "\n" * 200)
    assert r.exit_code == 0, r.output
    out = r.output
    assert "players: 0=pimc, 1=pimc, 2=you; seed 1" in out
    assert "legal moves: 1) bid 0" in out and "you bid " in out
    for k in (1, 2, 3):
        assert f"round {k} is scored:" in out
    assert "round 3 of 3: seat 1 deals 3 cards each" in out
    assert "the deal is over: points [" in out
    record = json.loads(path.read_text())
    assert judge(0, json.dumps(record)).ok and record["strategies"] == ["pimc", "pimc", "you"]
    assert run("replay", path).exit_code == 0


def test_the_hooks_forbidden_bid_is_refused_in_one_line_and_changes_nothing():
    g = small(1)
    while forbidden(g._d.holder()["table"]["s"], g.players) is None:
        g.play_bot("heuristic")
    dealer = g.to_move
    x = forbidden(g._d.holder()["table"]["s"], g.players)
    assert f"bid {x}" not in g.legal_moves()
    assert f"the hook: the dealer, seat {dealer}, may not bid {x}" in g.view(dealer).facts
    moves = g.moves
    with pytest.raises(IllegalMove) as e:
        g.play(f"bid {x}")
    assert str(e.value) == (
        f"bid {x} is illegal: the hook: the dealer may not bid so that the bids add up to the number of tricks"
    )
    assert g.moves == moves and g.to_move == dealer
    # at the terminal: the refusal is one line, and the dealer is asked again
    t = Table("ohhell", players=3, rules=SMALL, seat=2, seed=1)
    t.advance()
    x = forbidden(t.d.holder()["table"]["s"], 3)
    assert x is not None  # seat 2 deals the first round and bids last
    out = play_game("ohhell", players=3, rules=SMALL, seat=2, seed=1, moves=[f"bid {x}", "quit"])
    refused = [line for line in out.transcript if line.startswith("illegal: ")]
    assert refused == [f"illegal: bid {x} is illegal: the hook: the dealer may not bid so that the bids add "
                       "up to the number of tricks"]  # fmt: skip
    assert not out.finished


@pytest.mark.parametrize("seed", [2, 7])
def test_no_view_or_told_line_names_another_seats_unplayed_card(seed):
    g = whistsim.new_game("ohhell", seed=seed, players=4, rules={"schedule": "down", "tricks": 4})
    seen = 0
    while not g.done:
        for q in range(g.players):
            v = g.view(q)
            shown = cards_named(str(v) + " ".join(v.facts) + json.dumps(v.seats, ensure_ascii=False))
            assert not shown & unseen(g, q), (q, sorted(shown & unseen(g, q)), str(v))
            assert set(v.hand) == hands(g)[q]
            seen += 1
        before = unseen(g, -1)  # every unplayed card
        g.play_bot("random")
        played = g.moves[-1].split(":")[1]
        leaked = cards_named(" ".join(g.told)) & (before - {played})
        if not any("deals" in x for x in g.told):  # a new round's turned card is public
            assert not leaked, g.told
        else:
            turned = {card_name(int(g._d.holder()["table"]["s"][g._d.E.S_TURNUP]))}
            assert leaked <= turned, g.told
    assert seen > 4 * 40


def test_the_default_player_is_pimc_and_idle_settings_are_named():
    assert get_game("ohhell").default_player == "pimc"
    rules = get_game("ohhell").make_rules(None, 3, {"points_per_trick": 2})
    assert idle_rules("ohhell", rules, {"points_per_trick"}) == [
        "rule points_per_trick=2 has no effect: scoring=ten_plus_bid counts no points a trick "
        "(trick_plus_ten and minus_difference do)"
    ]
    full = get_game("ohhell").make_rules(
        None, 4, {"no_trump_rounds": "largest", "schedule": "fixed", "tricks": 13}
    )
    spec = parse_spec("heuristic:trump_weight=2")
    said = ineffective("ohhell", full, [spec], given={"no_trump_rounds"})
    assert (
        len(said) == 2 and "no card is left to turn" in said[0] and "trump_weight=2 has no effect" in said[1]
    )


def test_the_browser_tables_json_api_plays_a_whole_game_showing_no_hidden_card():
    from whistsim.serve import create_app

    client = create_app().test_client()
    assert "ohhell" in [x["name"] for x in client.get("/api/games").json["games"]]
    r = client.post("/api/tables", json={"game": "ohhell", "seed": 3, "seat": 1, "rules": {"players": 3, **SMALL},
                                         "players": ["heuristic"] * 3, "hint": "heuristic"})  # fmt: skip
    assert r.status_code == 201, r.json
    s, token = r.json, r.json["token"]
    mirror = small(3)
    trumps = {d["trump"] for d in mirror.record()["deals"] if d["trump"]}
    bid_seen = False
    while True:
        for e in s["log"][len(mirror.moves) :]:
            mirror.play(e["move"])
        assert mirror.moves == [e["move"] for e in s["log"]]
        now = {k: v for k, v in s.items() if k not in ("log", "last_trick")}  # the table as it is now
        leaked = cards_named(json.dumps(now, ensure_ascii=False)) & unseen(mirror, 1)
        assert not leaked, sorted(leaked)
        for e in s["log"]:  # what a move told names its own card, or a new round's turned card
            text = " ".join(e["lines"])
            named = cards_named(text) - {e["move"].split(":")[1]}
            assert not named or ("deals" in text and named <= trumps), e
        if s["over"]:
            break
        assert s["your_move"] and s["legal"]
        bid_seen |= s["legal"][0].startswith("bid ")
        r = client.post(f"/api/tables/{token}/move", json={"move": s["legal"][0]})
        assert r.status_code == 200, r.json
        s = r.json
    assert bid_seen and s["result"] == mirror.result() and s["tricks_done"] == 9
    tricks = client.get(f"/api/tables/{token}/review").json["tricks"]  # bids are no trick's plays
    assert len(tricks) == 9 and all(len(t["plays"]) == 3 and t["winner"] is not None for t in tricks)
    assert not any(c.startswith("bid") for t in tricks for _, c in t["plays"])
    line = client.get(f"/api/tables/{token}/record.jsonl").data.decode()
    assert judge(0, line).ok
