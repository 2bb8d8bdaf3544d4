"""``whistsim serve``: the table's JSON API (Flask's test client), its errors, and the command."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
import urllib.request

import pytest
from cli_helpers import run
from serve_helpers import Mirror, cards_named, check_hidden

import whistsim
from whistsim.core.options import WhistsimError
from whistsim.core.strategy import parse_spec
from whistsim.games import get_game
from whistsim.serve import create_app, make_server
from whistsim.serve.sessions import Tables, UnknownTable

FAST = {"welsh": "counter", "scotch": "heuristic", "whist": "heuristic"}


@pytest.fixture(scope="module")
def client():
    return create_app().test_client()


def new_table(client, **body):
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.json
    return r.json


def play_out(client, game, seed, seat=0, pick=None, **setup):
    """A whole deal through the JSON API, every answer checked for hidden cards on the wire."""
    rng = random.Random(seed)
    players = [FAST[game]] * get_game(game).players_of(
        get_game(game).make_rules(setup.get("preset"), None, {})
    )
    s = new_table(client, game=game, seed=seed, seat=seat, players=players, hint=FAST[game], **setup)
    token = s["token"]
    mirror = Mirror(game, seat, seed, preset=setup.get("preset"), rules=setup.get("rules"))
    mirror.follow(s["log"])
    check_hidden(json.dumps(s, ensure_ascii=False).encode(), mirror, "the new table")
    asked = 0
    while not s["over"]:
        assert s["your_move"] and s["legal"], s
        if asked < 5:  # the hint, too, is checked on the wire
            r = client.post(f"/api/tables/{token}/hint")
            assert r.status_code == 200 and r.json["hint"] in s["legal"]
            check_hidden(r.data, mirror, "the hint")
            asked += 1
        move = pick(s) if pick else rng.choice(s["legal"])
        r = client.post(f"/api/tables/{token}/move", json={"move": move})
        assert r.status_code == 200, r.json
        s = r.json
        mirror.follow(s["log"])
        check_hidden(r.data, mirror, f"after {move}")
        r = client.get(f"/api/tables/{token}")
        check_hidden(r.data, mirror, "the state")
    assert mirror.g.done
    return token, s, mirror


@pytest.mark.parametrize(
    "game,seed,setup",
    [
        ("whist", 5, {}),
        ("welsh", 3, {}),
        ("welsh", 8, {"rules": {"challenge": "parlett", "revokes": "true"}}),
        ("scotch", 2, {"preset": "french"}),
    ],  # fmt: skip
)
def test_no_answer_holds_a_card_another_seat_or_the_stock_holds(client, game, seed, setup):
    token, s, mirror = play_out(client, game, seed, seat=1, **setup)
    assert s["result"] == mirror.g.result()
    r = client.get(f"/api/tables/{token}/record.jsonl")
    assert r.status_code == 200 and "attachment" in r.headers["Content-Disposition"]
    assert whistsim.judge(0, r.data.decode().strip()).ok


def test_the_record_is_not_sent_before_the_deal_is_over(client):
    s = new_table(client, game="whist", seed=1, players=["heuristic"] * 4)
    for path in ("record.jsonl", "review"):
        r = client.get(f"/api/tables/{s['token']}/{path}")
        assert r.status_code == 400 and "once the deal is over" in r.json["error"]


def test_the_bots_move_until_it_is_your_turn_and_the_page_is_told_what_they_did(client):
    s = new_table(client, game="whist", seed=4, seat=2, players=["heuristic"] * 4)
    assert s["your_move"] and s["to_move"] == 2
    assert [e["seat"] for e in s["log"]] == [0, 1]
    assert s["log"][0]["lines"][0].startswith("seat 0 leads ")
    assert [q for q, _ in s["trick"]] == [0, 1]
    assert s["seats"][2]["player"] == "you" and s["seats"][1]["player"] == "heuristic"


def test_an_illegal_card_is_refused_with_the_reason_and_changes_nothing(client):
    s = new_table(client, game="whist", seed=5, players=["heuristic"] * 4)
    token = s["token"]
    before = client.get(f"/api/tables/{token}").json
    mine = set(s["hand"])
    not_mine = next(c for c in ("KD", "AH", "2C", "QS", "7D") if c not in mine)
    for move, words in (
        (not_mine, "the player does not hold that card"),
        ("zz", "legal now"),
        (7, "a move is a few characters of text"),
        ("7H" * 5000, "a move is a few characters of text"),
    ):
        r = client.post(f"/api/tables/{token}/move", json={"move": move})
        assert r.status_code == 400, r.json
        assert words in r.json["error"] and "\n" not in r.json["error"]
    assert client.get(f"/api/tables/{token}").json == before


def test_a_card_of_another_suit_when_you_can_follow_is_refused(client):
    s = new_table(client, game="whist", seed=4, seat=2, players=["heuristic"] * 4)
    led = s["trick"][0][1][-1]
    off = [c for c in s["hand"] if c[-1] != led]
    assert set(s["legal"]) < set(s["hand"]) and off
    r = client.post(f"/api/tables/{s['token']}/move", json={"move": off[0]})
    assert r.status_code == 400 and r.json["error"].startswith(f"{off[0]} is illegal")


def test_a_move_after_the_deal_is_over_is_refused(client):
    token, _, _ = play_out(client, "whist", 9, pick=lambda s: s["legal"][0])
    r = client.post(f"/api/tables/{token}/move", json={"move": "2C"})
    assert r.status_code == 400 and r.json["error"] == "the deal is over"
    assert client.post(f"/api/tables/{token}/hint").status_code == 400


def test_a_game_that_does_not_exist_is_404_with_one_line(client):
    r = client.post("/api/tables", json={"game": "bridge"})
    assert r.status_code == 404 and r.json["error"].startswith("unknown game 'bridge'")
    r = client.get("/api/games/scoth")
    assert r.status_code == 404 and "did you mean scotch?" in r.json["error"]
    r = client.get("/?game=bridge")
    assert r.status_code == 404 and b"unknown game" in r.data
    assert client.get("/api/tables/nosuchtoken").status_code == 404
    assert client.get("/table/nosuchtoken").status_code == 404


@pytest.mark.parametrize(
    "body,cli",
    [
        ({"game": "welsh", "rules": {"packs": "x"}}, ["--game", "welsh", "--rule", "packs=x"]),
        ({"game": "welsh", "rules": {"nosuch": "1"}}, ["--game", "welsh", "--rule", "nosuch=1"]),
        ({"game": "whist", "rules": {"target": "8"}}, ["--game", "whist", "--rule", "target=8"]),
        ({"game": "welsh", "preset": "parlet"}, ["--game", "welsh", "--preset", "parlet"]),
    ],  # fmt: skip
)
def test_a_bad_rule_value_gets_the_cli_line(client, body, cli):
    r = client.post("/api/tables", json=body)
    assert r.status_code == 400
    out = run("play", *cli, input="")
    assert out.exit_code == 2
    assert out.stderr.strip() == f"whistsim: error: {r.json['error']}"


def test_bad_players_seats_and_seeds_get_one_line(client):
    cases = [({"game": "welsh", "players": ["zz"]}, "seat 0: unknown strategy 'zz'"),
             ({"game": "welsh", "hint": "heuristic"}, "hint player: unknown strategy 'heuristic'"),
             ({"game": "welsh", "players": ["x.py:f"]}, "built-in players only"),
             ({"game": "welsh", "seat": 3}, "seat 3: expected a seat from 0 to 2"),
             ({"game": "welsh", "seed": "abc"}, "seed 'abc': expected a whole number"),
             ({"game": "whist", "players": ["heuristic"] * 5}, "at most 4 player specs"),
             ({"game": "french", "preset": "scotch"}, "French Whist is Scotch Whist's preset french")]  # fmt: skip
    for body, words in cases:
        r = client.post("/api/tables", json=body)
        assert r.status_code == 400 and words in r.json["error"], (body, r.json)
    r = client.post("/api/tables", data="not json", content_type="text/plain")
    assert r.status_code == 400 and r.json["error"] == "expected a JSON body"


def test_undo_takes_back_your_last_card_and_the_bots_moves_since(client):
    s0 = new_table(client, game="whist", seed=6, seat=1, players=["heuristic"] * 4)
    token = s0["token"]
    s1 = client.post(f"/api/tables/{token}/move", json={"move": s0["legal"][0]}).json
    s2 = client.post(f"/api/tables/{token}/move", json={"move": s1["legal"][-1]}).json
    assert len(s2["log"]) > len(s1["log"])
    u = client.post(f"/api/tables/{token}/undo").json
    assert u["undone"] == len(s2["log"]) - len(s1["log"])
    assert {k: u[k] for k in ("hand", "log", "trick", "seats")} == {
        k: s1[k] for k in ("hand", "log", "trick", "seats")
    }
    again = client.post(f"/api/tables/{token}/move", json={"move": s1["legal"][-1]}).json
    assert again["log"] == s2["log"]  # the bots decide as they did
    client.post(f"/api/tables/{token}/undo")
    u0 = client.post(f"/api/tables/{token}/undo").json
    assert u0["log"] == s0["log"] and not u0["can_undo"]
    r = client.post(f"/api/tables/{token}/undo")
    assert r.status_code == 400 and r.json["error"].startswith("nothing to undo")


def test_the_bots_are_the_players_chosen_for_their_seats(client):
    s = new_table(client, game="whist", seed=11, seat=0, players=["heuristic", "random", "pimc", "heuristic"])
    g = whistsim.new_game("whist", seed=11)
    g.play(s["legal"][0])
    for q, player in ((1, "random"), (2, "pimc"), (3, "heuristic")):
        assert g.to_move == q
        g.play_bot(player)
    r = client.post(f"/api/tables/{s['token']}/move", json={"move": s["legal"][0]}).json
    assert [e["move"] for e in r["log"][:4]] == g.moves


def test_the_last_trick_and_the_account_come_from_the_public_moves(client):
    token, s, mirror = play_out(client, "whist", 12, pick=lambda s: s["legal"][-1])
    review = client.get(f"/api/tables/{token}/review").json
    assert len(review["tricks"]) == 13 and s["last_trick"] == review["tricks"][-1]
    plays = [f"{q}:{c}" for t in review["tricks"] for q, c in t["plays"]]
    assert plays == mirror.g.moves
    assert sum(t["winner"] in (0, 2) for t in review["tricks"]) == mirror.g.result()["tricks"][0]


def test_each_of_your_cards_costs_what_the_open_hand_solver_says(client):
    from whistsim.solver import solve_record

    token, _, mirror = play_out(client, "whist", 13, seat=3, pick=lambda s: s["legal"][0])
    review = client.get(f"/api/tables/{token}/review").json
    rec = mirror.g.record()
    mine = [i for i, m in enumerate(rec["moves"]) if m.startswith("3:")]
    assert [r["move"] for r in review["costs"]] == [i + 1 for i in mine] and review["cost_unit"] == "trick"
    for row, i in zip(review["costs"], mine, strict=True):
        cut = {**{k: v for k, v in rec.items() if k != "result"}, "moves": rec["moves"][:i]}
        solved = solve_record(cut, moves=True)
        value = {m["card"]: m["tricks"][1] for m in solved["moves"]}  # seat 3 is side 1
        assert row["cost"] == max(value.values()) - value[row["card"]] >= 0
    assert review["cost_total"] == sum(r["cost"] for r in review["costs"])


def test_welsh_whist_has_no_card_costs_but_says_why(client):
    token, _, _ = play_out(client, "welsh", 21, pick=lambda s: s["legal"][0])
    review = client.get(f"/api/tables/{token}/review").json
    assert review["costs"] is None and "dealt games" in review["costs_note"]


def test_the_setup_offers_the_games_rule_options_and_players_the_cli_lists(client):
    games = client.get("/api/games").json["games"]
    assert [g["name"] for g in games] == ["welsh", "scotch", "french", "whist", "ohhell"]
    for g in games:
        game = get_game(g["game"])
        keys = [o.key for o in game.options if not (g["name"] == "french" and o.key == "french")]
        assert [o["key"] for o in g["options"]] == keys
        docs = {o.key: o.doc for o in game.options}
        assert all(o["doc"] == docs[o["key"]] for o in g["options"])
        assert [p["name"] for p in g["players"]] == [n for n, _, _ in game.players.describe()]
        assert g["default_player"] == get_game(g["game"]).default_player
        parse_spec(g["default_player"])
    welsh = games[0]
    assert (
        welsh["seats"] == {"parlett": 3, "akagiri": 3}
        and welsh["options"][0]["doc"] == "number of players, 2 to 12"
    )
    assert games[2]["presets"] == ["french"]
    page = client.get("/").data.decode()
    assert 'href="/studies"' in page and "French Whist" in page


def test_a_french_whist_table_is_scotch_whist_with_its_preset(client):
    s = new_table(client, game="french", seed=2, players=["heuristic"] * 4)
    assert s["title"] == "French Whist" and s["game"] == "scotch"
    assert s["hand"] == whistsim.new_game("scotch", preset="french", seed=2).view(0).hand


def test_tables_are_bounded_and_the_oldest_goes_first():
    class Dummy:
        pass

    t = Tables(limit=3)
    tokens = [t.add(Dummy()) for _ in range(4)]
    assert len(t) == 3 and len(set(tokens)) == 4
    with pytest.raises(UnknownTable):
        t.get(tokens[0])
    t.get(tokens[1])  # used: now the newest
    t.add(Dummy())
    with pytest.raises(UnknownTable):
        t.get(tokens[2])
    assert t.get(tokens[1]) is not None


def test_a_port_in_use_or_out_of_range_is_one_line():
    server = make_server("127.0.0.1", 0)
    try:
        with pytest.raises(WhistsimError, match=r"^cannot serve at http://127.0.0.1:\d+: "):
            make_server("127.0.0.1", server.port)
    finally:
        server.server_close()
    with pytest.raises(WhistsimError, match="expected a port from 0 to 65535"):
        make_server("127.0.0.1", 70000)


def _start(*args):
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    p = subprocess.Popen([sys.executable, "-m", "whistsim", "serve", *args], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=env)  # fmt: skip
    return p, p.stdout.readline()


def test_serve_prints_its_address_answers_and_stops_cleanly_on_ctrl_c():
    p, line = _start()
    try:
        assert line.startswith("whistsim: serving at http://127.0.0.1:") and line.rstrip().endswith(
            "(Ctrl-C to stop)"
        )
        url = line.split()[3]
        with urllib.request.urlopen(url + "/", timeout=30) as r:
            assert r.status == 200 and b"Sit down at a table" in r.read()
        with urllib.request.urlopen(url + "/api/games/whist", timeout=30) as r:
            assert json.load(r)["title"] == "Whist"
    finally:
        time.sleep(0.2)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=30)
    assert p.returncode == 0 and out.strip() == "whistsim: stopped" and err == "", (out, err)


def test_serving_beyond_localhost_says_the_table_is_reachable_from_the_network():
    p, line = _start("--host", "0.0.0.0")
    try:
        assert line.startswith("whistsim: serving at http://0.0.0.0:")
    finally:
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=30)
    assert err.strip() == (
        "whistsim: warning: serving on 0.0.0.0: the table is reachable from the network, not only this machine"
    )


def test_a_bad_port_is_one_line_from_the_command():
    r = run("serve", "--port", "70000")
    assert r.exit_code == 2 and r.stderr.strip().startswith("whistsim: error: --port 70000")


def test_the_wire_check_catches_another_hand_by_code_or_by_name():
    mirror = Mirror("whist", 0, 5)
    other = mirror.g.record()["hands"][0][1]  # seat 1's hand
    check_hidden(json.dumps({"hand": mirror.g.view(0).hand}).encode(), mirror, "own hand")
    for leak in (
        json.dumps(other),
        f"seat 1 holds {other[0][:-1].replace('T', '10')}{'♣♦♥♠'['CDHS'.index(other[0][-1])]}",
    ):
        with pytest.raises(AssertionError, match="held by another seat"):
            check_hidden(leak.encode(), mirror, "a leak")
    assert cards_named("TC 10♣ 7♥ A♠ xAC 17H") == {"TC", "7H", "AS"}
