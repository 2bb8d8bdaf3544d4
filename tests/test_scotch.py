"""Scotch Whist (Catch the Ten) and French Whist: each rule point on a hand-made deal."""

from __future__ import annotations

import json

import numpy as np
import pytest
from test_dealt_support import (
    SCOTCH4,
    autoplay,
    cards,
    record,
    replay,
    state_after,
    suit_swap,
)

from whistsim.api import judge, show
from whistsim.core.cards import card_name, parse_card
from whistsim.core.options import RuleError
from whistsim.core.strategy import parse_spec
from whistsim.games import MoveError, RecordError, seating
from whistsim.games.dealt.engine import (
    P_ACE,
    P_CARDS,
    P_JACK,
    P_KING,
    P_QUEEN,
    P_TEN,
    P_TEN_DEALT,
    S_SEAT,
    S_SET,
    S_WINNER,
    count_out,
    power,
)
from whistsim.games.dealt.kernels import ENDED_REVOKE, new_state
from whistsim.games.dealt.records import hands_of
from whistsim.games.scotch import GAME
from whistsim.games.scotch.rules import ScotchRules

# The illustrative hand at the end of Catch the Ten. The table lists the cards by
# player, A Y B Z, Z dealing; the player on the dealer's left (A) leads. Seats
# are numbered clockwise from the elder hand: A = 0, Y = 1, B = 2, Z = 3 (the
# dealer), so A-B are side 0 and Y-Z side 1.
A = cards("QD AC 7C 8S JD 7D AH 9H TC")
Y = cards("KD KC 9C JS 9S TS TD 6H TH")
B = cards("8D JC 6C KS AD QC 6D KH JH")
Z = cards("9D 8C 6S AS QS 7S QH 7H 8H")
# Trick by trick in play order: the winner of each trick leads the next.
WORKED_MOVES = (
    "0:QD 1:KD 2:8D 3:9D  1:KC 2:JC 3:8C 0:AC  0:7C 1:9C 2:6C 3:6S  1:JS 2:KS 3:AS 0:8S  3:QS 0:JD 1:9S 2:AD "
    "3:7S 0:7D 1:TS 2:QC  1:TD 2:6D 3:QH 0:AH  0:9H 1:6H 2:KH 3:7H  2:JH 3:8H 0:TC 1:TH"
).split()


def worked(**rules) -> dict:
    return record("scotch", {**SCOTCH4, **rules}, 3, [[A, Y, B, Z]], "8H", WORKED_MOVES)


def test_worked_hand_of_seed_001_replays_as_the_seed_scores_it():
    result = replay(worked())
    assert result["honours"] == [30, 0]  # A-B win 30 by honours
    assert result["cards"] == [0, 2]  # Y-Z win 2 by cards
    assert result["points"] == [30, 2]
    assert result["tricks"] == [4, 5]
    assert result["revokes"] == []


def test_worked_hand_replays_from_a_record_line():
    j = judge(0, json.dumps(worked()))
    assert j.ok and j.result["points"] == [30, 2]
    assert "seat 2 wins (side 0), taking J♥ 11, 10♥ 10" in show(worked())


def test_trump_order_is_j_a_k_q_and_plain_order_a_k_q_j():
    buf = state_after(worked(), 32)  # trick 9: B leads J♥ after tricks 7 (A♥ over Q♥) and 8 (K♥)
    t = buf[0]["core"]["table"]
    assert int(t["s"][S_WINNER]) == 2  # K♥ won trick 8
    buf = state_after(worked(), 28)
    assert int(buf[0]["core"]["table"]["s"][S_WINNER]) == 0  # A♥ beat Q♥ in trick 7
    # Hearts trumps; a deal where the Jack of trumps falls on the Ace, and a plain Queen beats a Jack.
    hands = [[cards("AH 6C 7C 8C 9C TC JC QC KC"), cards("KH 6D 7D 8D 9D TD JD QD KD"),
              cards("JH 6S 7S 8S 9S TS JS QS KS"), cards("QH AC AD AS 6H 7H 8H 9H TH")]]  # fmt: skip
    rec = record("scotch", SCOTCH4, 3, hands, "TH", ["0:AH", "1:KH", "2:JH", "3:QH"])
    buf = state_after(rec, 4)
    assert int(buf[0]["core"]["table"]["s"][S_WINNER]) == 2  # J beats A, K, Q of trumps
    assert sum(replay(autoplay(rec))["honours"]) == 30
    spades, hearts = 3, 2
    scotch_trump = [power(parse_card(c), hearts, spades, True) for c in ("JH", "AH", "KH", "QH", "TH", "6H")]
    assert scotch_trump == sorted(scotch_trump, reverse=True)
    plain = [power(parse_card(c), hearts, spades, True) for c in ("AS", "KS", "QS", "JS", "TS", "6S")]
    assert plain == sorted(plain, reverse=True) and min(scotch_trump) > max(plain)
    assert power(parse_card("AD"), hearts, spades, True) == -1  # a discard never wins
    whist_trump = [power(parse_card(c), hearts, spades, False) for c in ("AH", "KH", "QH", "JH")]
    assert whist_trump == sorted(whist_trump, reverse=True)  # Whist: A K Q J in trumps too


def test_the_ten_of_trumps_is_caught():
    """Y was dealt the Ten of hearts; B's Jack caught it in the last trick."""
    buf = state_after(worked())
    res = buf[0]["core"]["result"]
    assert res[P_TEN].tolist()[:2] == [10, 0]
    assert res[P_TEN_DEALT].tolist()[:2] == [0, 1]
    assert [res[k][0] for k in (P_JACK, P_ACE, P_KING, P_QUEEN)] == [11, 4, 3, 2]


def test_french_whist_ten_of_diamonds_counts_ten():
    # Y leads the ten of diamonds to trick 7, which A wins with the Ace of trumps.
    assert replay(worked(french=True))["honours"] == [40, 0]
    # With diamonds trumps the ten of diamonds is the Ten of trumps: it counts 10, once.
    rec = worked(french=True)
    rec = {**rec, "hands": suit_swap(rec["hands"], "H", "D"), "trump": "8D",
           "moves": [m[:2] + suit_swap(m[2:], "H", "D") for m in rec["moves"]]}  # fmt: skip
    assert replay(rec)["honours"] == [30, 0]
    assert replay({**rec, "rules": {**rec["rules"], "french": False}})["honours"] == [30, 0]


@pytest.mark.parametrize("players", [5, 7])
def test_five_or_seven_players_remove_the_six_of_spades(players):
    r = ScotchRules.make(players=players, odd_six="remove")
    assert len(r.pack()) == 35 and parse_card("6S") not in r.pack() and not r.aside
    assert r.hand == 35 // players
    deck = np.array(r.pack(), np.int8)
    hands, turnup, aside = hands_of(r, deck, players - 1)
    assert turnup == deck[34] and aside == -1
    assert card_name(int(deck[0])) in hands[0][0]  # the first card to the dealer's left
    assert card_name(int(deck[34])) in hands[0][players - 1]  # the last card, the turn-up, to the dealer


@pytest.mark.parametrize("players", [5, 7])
def test_five_or_seven_players_lay_the_36th_card_aside(players):
    r = ScotchRules.make(players=players, odd_six="aside")
    assert len(r.pack()) == 36 and r.aside and r.hand == 35 // players
    deck = np.array(r.pack()[::-1], np.int8)
    hands, turnup, aside = hands_of(r, deck, 0)
    assert turnup == deck[34] and aside == deck[35]  # the 35th turned, the 36th shown and laid aside
    assert card_name(int(deck[34])) in hands[0][0]
    dealt = [c for h in hands[0] for c in h]
    assert len(dealt) == 35 and card_name(aside) not in dealt


def test_five_players_score_cards_above_the_seven_dealt():
    # Catch the Ten: "If five play ... one player has taken in fifteen, and another ten; they score 8 and 3".
    hands = [[cards("QC JD 6H 8H JH AH 7S"), cards("KC 6D 7D AD 9H KS AS"), cards("7C TC AC KD QH KH JS"),
              cards("6C 8C 9C QD 7H 8S 9S"), cards("JC 8D 9D TD TH TS QS")]]  # fmt: skip
    rules = {**SCOTCH4, "players": 5, "teams": [0, 1, 2, 3, 4]}
    result = replay(autoplay(record("scotch", rules, 4, hands, "TH")))
    assert result["tricks"] == [3, 2, 2, 0, 0]
    assert result["cards"] == [8, 3, 3, 0, 0]
    assert result["points"] == [h + c for h, c in zip(result["honours"], result["cards"], strict=False)]


def test_five_players_aside_record_needs_the_aside_card():
    r = ScotchRules.make(players=5, odd_six="aside")
    deck = np.array(r.pack(), np.int8)
    hands, turnup, aside = hands_of(r, deck, 4)
    rec = autoplay(record("scotch", r.to_record(), 4, hands, card_name(turnup), aside=card_name(aside)))
    assert (rec["trump"], rec["aside"]) == ("KS", "AS")  # the pack in order: the Ace of trumps laid aside
    assert sum(replay(rec)["honours"]) == 30 - 4
    with pytest.raises(RecordError, match="'aside' must name"):
        replay({**rec, "aside": None})
    with pytest.raises(RecordError, match="lacks|twice"):
        replay({**rec, "aside": rec["hands"][0][0][0]})


def test_eight_players_play_without_the_sixes():
    r = ScotchRules.make(players=8)
    assert len(r.pack()) == 32 and r.hand == 4
    assert not any(c % 13 == 4 for c in r.pack())
    assert r.teams == (0, 1, 0, 1, 0, 1, 0, 1)
    assert ScotchRules.make(players=8, teams="pairs").teams == (0, 1, 2, 3, 0, 1, 2, 3)


def _sets_record(players: int) -> dict:
    r = ScotchRules.make(players=players)
    deck = np.array(r.pack(), np.int8)
    hands, turnup, _ = hands_of(r, deck, players - 1)
    return autoplay(record("scotch", r.to_record(), players - 1, hands, card_name(turnup)))


def test_two_players_three_hands_each_played_set_by_set():
    rec = _sets_record(2)
    hands = rec["hands"]
    assert len(hands) == 3 and all(len(h) == 6 for s in hands for h in s)
    # Each set is twelve cards dealt one at a time, the elder hand (seat 0) first.
    pack = ScotchRules.make(players=2).pack()
    assert hands[0][0] == [card_name(c) for c in pack[0:12:2]]
    assert hands[0][1] == [card_name(c) for c in pack[1:12:2]]
    assert rec["trump"] in hands[2][1]  # the last card dealt, in the dealer's last hand
    for k in (1, 2):
        buf = state_after(rec, 12 * k)  # after the last trick of set k
        s = buf[0]["core"]["table"]["s"]
        assert int(s[S_SET]) == k
        assert int(s[S_SEAT]) == int(s[S_WINNER])  # the winner of a set's last trick leads the next
        bits = buf[0]["core"]["seats"][0]["bits"]
        held = [card_name(su * 13 + r) for su in range(4) for r in range(13) if (int(bits[su]) >> r) & 1]
        assert sorted(held) == sorted(hands[k][0])  # the next hands are taken up
    result = replay(rec)
    assert sum(result["tricks"]) == 18 and sum(result["honours"]) == 30


def test_three_players_two_hands_each():
    rec = _sets_record(3)
    assert len(rec["hands"]) == 2 and all(len(h) == 6 for s in rec["hands"] for h in s)
    buf = state_after(rec, 18)
    s = buf[0]["core"]["table"]["s"]
    assert int(s[S_SET]) == 1 and int(s[S_SEAT]) == int(s[S_WINNER])
    result = replay(rec)
    assert sum(result["tricks"]) == 12 and len(result["points"]) == 3


@pytest.mark.parametrize(
    "players, teams, sides",
    [
        (2, "solo", (0, 1)),
        (3, (), (0, 1, 2)),
        (4, "pairs", (0, 1, 0, 1)),
        (5, (), (0, 1, 2, 3, 4)),
        (6, "pairs", (0, 1, 2, 0, 1, 2)),  # partners opposite, two adversaries between
        (6, "threes", (0, 1, 0, 1, 0, 1)),
        (7, "solo", tuple(range(7))),
        (8, "fours", (0, 1, 0, 1, 0, 1, 0, 1)),
        (8, "pairs", (0, 1, 2, 3, 0, 1, 2, 3)),
        (6, "1,0,1,0,1,0", (1, 0, 1, 0, 1, 0)),
    ],
)
def test_sides_by_number_of_players(players, teams, sides):
    assert ScotchRules.make(players=players, teams=teams).teams == sides


@pytest.mark.parametrize("teams, per_side", [("pairs", 12), ("threes", 18)])
def test_six_players_cards_count_above_the_number_dealt_to_the_side(teams, per_side):
    r = ScotchRules.make(players=6, teams=teams)
    deck = np.array(r.pack(), np.int8)
    hands, turnup, _ = hands_of(r, deck, 5)
    rec = autoplay(record("scotch", r.to_record(), 5, hands, card_name(turnup)))
    result = replay(rec)
    taken = [6 * t for t in result["tricks"]]
    assert result["cards"] == [max(0, x - per_side) for x in taken]


def test_bad_sides_and_player_counts_are_one_line_errors():
    for kw, match in [
        ({"players": 4, "teams": "threes"}, "with 4 players the sides are pairs"),
        ({"players": 6, "teams": "0,0,1,1,2,2"}, "with 6 players the sides are"),
        ({"players": 6, "teams": "0,1,0,1"}, "a side for each of the 6 seats"),
        ({"players": 9}, "2 to 8 players"),
        ({"players": 4, "teams": "0,2,0,2"}, "none skipped"),
        ({"odd_six": "keep"}, "expected one of remove, aside"),
        ({"claim": 1.5}, "chance from 0 to 1"),
        ({"colour": "red"}, "unknown rule 'colour'"),
    ]:
        with pytest.raises(RuleError, match=match) as e:
            ScotchRules.make(**kw)
        assert "\n" not in str(e.value)


def _counted(scores, parts, dealer=3, rules=None):
    """Count one deal's points out: ``parts`` maps a score row to per-side points."""
    r = rules or ScotchRules.make(players=4)
    buf = new_state(r)
    g = buf[0]
    g["core"]["table"]["score"][:2] = scores
    for row, pts in parts.items():
        g["core"]["result"][row][:2] = pts
    winner = count_out(g["core"], dealer, g["order"])
    return winner, g["core"]["table"]["score"][:2].tolist()


def test_count_out_order_ten_then_cards_then_a_k_q_then_jack():
    # Both pass 41: the Ten counts out first.
    assert _counted([35, 38], {P_CARDS: [8, 0], P_TEN: [0, 10]}) == (1, [43, 48])
    # Cards before the Ace.
    assert _counted([37, 39], {P_ACE: [4, 0], P_CARDS: [0, 2]}) == (1, [41, 41])
    # A, K, Q in that order.
    assert _counted([37, 38], {P_ACE: [4, 0], P_KING: [0, 3]}) == (0, [41, 41])
    assert _counted([38, 39], {P_KING: [0, 3], P_QUEEN: [3, 2]})[0] == 1
    # The Jack last: two for the Queen beat eleven for the Jack.
    assert _counted([30, 39], {P_JACK: [11, 0], P_QUEEN: [0, 2]}) == (1, [41, 41])
    # Cards for both: they count in turn from the dealer's left (dealer 3: side 0 first).
    assert _counted([40, 40], {P_CARDS: [1, 1]}, dealer=3)[0] == 0
    assert _counted([40, 40], {P_CARDS: [1, 1]}, dealer=0)[0] == 1
    # Nobody there.
    assert _counted([10, 20], {P_CARDS: [3, 0], P_TEN: [10, 0]}) == (-1, [23, 20])


def _games(rules: dict, strategies, n: int, seed: int = 1, log: int = 0):
    r = GAME.make_rules(None, None, rules)
    specs = [parse_spec(strategies[q % len(strategies)]) for q in range(r.players)]
    ids, params = seating("scotch", specs, r.players)
    return r, GAME.play_batch(r, ids, params, seed=seed, n=n, log_games=log)


def test_revokes_forbidden_is_an_illegal_move():
    rec = worked()
    moves = list(rec["moves"])
    moves[6] = "3:6S"  # Z holds ♣8 and must follow clubs
    with pytest.raises(MoveError, match="can follow suit") as e:
        replay({**rec, "moves": moves})
    assert e.value.index == 6


def test_a_revoke_is_recorded_with_its_trick():
    rec = worked(revokes=True)
    moves = list(rec["moves"])
    moves[4:8] = ["1:KC", "2:JC", "3:6S", "0:AC"]  # Z throws a spade though holding ♣8
    moves[8:12] = ["0:7C", "1:9C", "2:6C", "3:8C"]
    result = replay({**rec, "moves": moves})
    assert result["revokes"] == [[3, 1]]
    assert result["points"] == replay(rec)["points"]  # the penalty is the game's, not the deal's


def test_a_claimed_revoke_loses_the_game_for_the_side():
    r, b = _games({"players": 4, "revokes": True}, ["random:revoke=1", "random:revoke=0"], 300)
    ended = b.game["ended"] == ENDED_REVOKE
    assert ended.any() and b.game["revokes"][ended].min() >= 1
    revoker = b.game["revoker"][ended]
    assert set(revoker % 2) == {0}  # only seats 0 and 2 revoke
    assert (b.side["won"][ended, 0] == 0).all() and (b.side["won"][ended, 1] == 1).all()
    assert (b.seat["lost"][ended][:, [0, 2]] == 1).all() and (b.seat["won"][ended][:, [1, 3]] == 1).all()
    assert (b.game["winner"][ended] == -1).all()


def test_a_revoke_penalty_on_the_player_spares_the_partner():
    r, b = _games(
        {"players": 4, "revokes": True, "revoke_loss": "player"}, ["random:revoke=1", "random:revoke=0"], 200
    )
    ended = np.flatnonzero(b.game["ended"] == ENDED_REVOKE)
    assert ended.size
    for i in ended:
        q = b.game["revoker"][i]
        assert b.seat["lost"][i].tolist() == [int(s == q) for s in range(4)]
        assert b.seat["won"][i].tolist() == [s % 2 for s in range(4)]


def test_an_unclaimed_revoke_goes_on():
    r, b = _games({"players": 5, "revokes": True, "claim": 0.0}, ["random:revoke=1"], 200)
    assert b.game["revokes"].sum() > 0 and not (b.game["ended"] == ENDED_REVOKE).any()
    assert (b.game["winner"] >= 0).all()


def test_bad_records_are_one_line_errors():
    rec = worked()
    bad = [
        ({**rec, "rules": {**SCOTCH4, "colour": 1}}, "unknown rule 'colour'"),
        ({**rec, "rules": {k: v for k, v in SCOTCH4.items() if k != "target"}}, "missing rule 'target'"),
        ({**rec, "rules": {**SCOTCH4, "players": "4"}}, "expected an integer"),
        ({**rec, "trump": "8S"}, "not in the dealer's"),
        ({**rec, "hands": [[A, Y, B, Z[:-1] + ["AH"]]]}, "twice"),
        ({**rec, "hands": [[A, Y, B]]}, "not a list of 4 hands"),
        ({**rec, "hands": [[A, Y, B, Z[:-1] + ["2H"]]]}, "not in this game's pack"),
        ({**rec, "aside": "8H"}, "'aside' must be null"),
        ({**rec, "dealer": 4}, "'dealer' must be a seat"),
        ({k: v for k, v in rec.items() if k != "hands"}, "missing field 'hands'"),
        ({**rec, "deck": []}, "unknown field 'deck'"),
    ]
    for r, match in bad:
        with pytest.raises(RecordError, match=match) as e:
            replay(r)
        assert "\n" not in str(e.value)


@pytest.mark.parametrize(
    "moves, index, match",
    [
        (WORKED_MOVES[:-1], 35, "stop before the deal ends"),
        (WORKED_MOVES + ["0:AS"], 36, "after the deal ended"),
        (["1:KD"] + WORKED_MOVES[1:], 0, "out of turn: seat 0"),
        (["0:AS"] + WORKED_MOVES[1:], 0, "does not hold"),
        (["0:X"] + WORKED_MOVES[1:], 0, "not a card"),
        (["0-QD"] + WORKED_MOVES[1:], 0, "expected '<seat>:<card>'"),
        (WORKED_MOVES[:3] + ["3:ZZ"], 3, "not a card"),
    ],
)
def test_bad_moves_name_the_move(moves, index, match):
    with pytest.raises(MoveError, match=match) as e:
        replay({**worked(), "moves": moves})
    assert e.value.index == index
