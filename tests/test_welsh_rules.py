"""Welsh Whist rule points (docs/rules.md section 1), each on a hand-made deal.

A deal's stock starts with hand-written cards (the rest follows in code order) and
its moves are written out; :class:`welsh_deals.Deal` steps them through the engine.
Unless a test says otherwise: 3 players, 2 packs and 4 Taffies, Taffy 10½,
standard scoring, revokes forbidden, no challenges, seat 0 first.
"""

import numpy as np
import pytest
from welsh_deals import Deal

from whistsim.core.cards import RANKS, SUITS
from whistsim.core.options import RuleError
from whistsim.games.welsh import GAME
from whistsim.games.welsh import engine as E
from whistsim.games.welsh.engine import new_state
from whistsim.games.welsh.records import result_of
from whistsim.games.welsh.rules import WelshRules

RANKS_HIGH_FIRST = RANKS[::-1]

# ---- leading and following ---------------------------------------------------


def test_taffy_led_names_suit():
    d = Deal(["X", "7H", "8S"]).draws(0, 1, 2)  # 0: X, 1: 7H, 2: 8S
    assert d.error("0:X") == E.E_TAFFY_NEEDS_SUIT
    d.play("0:X=S")
    assert d.s[E.S_LED_SUIT] == SUITS.index("S")
    assert d.error("1:7H") == E.E_WRONG_SUIT  # hearts do not follow a Taffy named spades
    d.play("1:pass")
    assert d.error("2:pass") == E.E_MUST_FOLLOW  # 8S follows it
    d.play("2:8S")
    assert d.won(0) == ["8S", "X"]


def test_taffy_led_names_suit_other_suit():
    d = Deal(["X", "7H", "8S"]).draws(0, 1, 2)
    d.play("0:X=H")
    assert d.error("1:pass") == E.E_MUST_FOLLOW
    d.play("1:7H")
    assert d.error("2:8S") == E.E_WRONG_SUIT
    d.play("2:pass")
    assert d.won(0) == ["7H", "X"]
    assert d.hand(2) == ["8S"]


def test_taffy_always_follows_and_follows_as_plain_x():
    d = Deal(["7H", "X", "X"]).draws(0, 1, 2)
    d.play("0:7H")
    assert d.error("1:pass") == E.E_MUST_FOLLOW
    assert d.error("1:X=H") == E.E_FOLLOW_NAMES_SUIT
    d.play("1:X", "2:X")
    assert d.won(1) == ["7H", "X", "X"]  # equal Taffies: the first played wins


@pytest.mark.parametrize("rank", [10.5, 10.0])
def test_taffy_after_ten(rank):
    # A Ten led, a Taffy follows: 10½ beats the Ten; equal to a Ten, the Ten was first.
    d = Deal(["TH", "X", "2C"], taffy_rank=rank).draws(0, 1, 2)
    d.play("0:TH", "1:X", "2:pass")
    winner = 1 if rank == 10.5 else 0
    assert d.won(winner) == ["TH", "X"]
    assert d.won(1 - winner) == []


def test_taffy_10_5_beats_ten():
    d = Deal(["TH", "X", "2C"], taffy_rank=10.5).draws(0, 1, 2)
    d.play("0:TH", "1:X", "2:pass")
    assert d.won_n(1) == 2


def test_taffy_equal_to_ten_first_played_wins():
    # Both orders: whichever of the Ten and the Taffy is played first wins.
    d = Deal(["TH", "X", "2C"], taffy_rank=10.0).draws(0, 1, 2)
    d.play("0:TH", "1:X", "2:pass")
    assert d.won(0) == ["TH", "X"]
    d = Deal(["X", "TH", "2C"], taffy_rank=10.0).draws(0, 1, 2)
    d.play("0:X=H", "1:TH", "2:pass")
    assert d.won(0) == ["TH", "X"]
    d = Deal(["2H", "TH", "X"], taffy_rank=10.0).draws(0, 1, 2)
    d.play("0:2H", "1:TH", "2:X")
    assert d.won(1) == ["2H", "TH", "X"]


@pytest.mark.parametrize("rank", [10.5, 10.0])
def test_taffy_led_loses_to_jack_beats_nine(rank):
    d = Deal(["X", "JH", "9H"], taffy_rank=rank).draws(0, 1, 2)
    d.play("0:X=H", "1:JH", "2:9H")
    assert d.won(1) == ["9H", "JH", "X"]


def test_equal_cards_first_played_wins():
    d = Deal(["2H", "KH", "KH"]).draws(0, 1, 2)
    d.play("0:2H", "1:KH", "2:KH")
    assert d.won(1) == ["2H", "KH", "KH"]
    assert d.won(2) == []


def test_equal_cards_leader_first_wins():
    d = Deal(["KH", "KH", "2C"]).draws(0, 1, 2)
    d.play("0:KH", "1:KH", "2:pass")
    assert d.won(0) == ["KH", "KH"]


def test_highest_of_suit_led_wins():
    # Off-suit cards cannot be played, so a trick is always one suit (plus Taffies).
    d = Deal(["5D", "AD", "QD"]).draws(0, 1, 2)
    d.play("0:5D", "1:AD", "2:QD")
    assert d.won(1) == ["5D", "QD", "AD"]


def test_rank_order_is_a_high():
    for hi, lo in zip(RANKS_HIGH_FIRST, RANKS_HIGH_FIRST[1:], strict=False):
        d = Deal([f"{lo}S", f"{hi}S", "2C"]).draws(0, 1, 2)
        d.play(f"0:{lo}S", f"1:{hi}S", "2:pass")
        assert d.won_n(1) == 2, (hi, lo)


def test_followers_answer_from_leaders_left():
    d = Deal(["AH", "2H", "3H"], first=2).draws(2, 0, 1)
    d.play("2:AH")
    assert d.seat == 0
    d.play("0:2H")
    assert d.seat == 1
    d.play("1:3H")
    assert d.won(2) == ["2H", "3H", "AH"]


def test_card_not_held_is_illegal():
    d = Deal(["7H", "8H", "9H"]).draws(0, 1, 2)
    assert d.error("0:8H") == E.E_NOT_HELD
    assert d.error("0:X=H") == E.E_NOT_HELD
    d.play("0:7H")
    assert d.error("1:9H") == E.E_NOT_HELD


def test_a_turn_is_draw_or_lead():
    d = Deal(["7H", "8H", "9H"]).draws(0, 1, 2)
    for move in ("0:pass", "0:nochallenge", "0:challenge=1"):
        assert d.error(move) == E.E_NOT_ON_TURN
    d.play("0:7H")
    assert d.error("1:draw") == E.E_NOT_WHEN_FOLLOWING


# ---- whose turn ---------------------------------------------------------------


def test_turn_passes_to_leaders_left_not_winner():
    d = Deal(["2H", "3H", "AH"]).draws(0, 1, 2)
    d.play("0:2H", "1:3H", "2:AH")
    assert d.won(2) == ["2H", "3H", "AH"]
    assert (d.phase, d.seat) == (E.TURN, 1)  # winning gives no lead


def test_turn_passes_to_leaders_left_wraps_round():
    d = Deal(["AH", "2H", "3H"], first=2).draws(2, 0, 1)
    d.play("2:AH", "0:2H", "1:3H")
    assert (d.phase, d.seat) == (E.TURN, 0)


def test_records_md_example():
    # docs/records.md: seat 1's Taffy wins the trick; the turn passes to seat 1, the leader's left.
    d = Deal(["7H", "X", "TS"])
    d.play("0:draw", "1:draw", "2:draw", "0:7H", "1:X", "2:pass")
    assert d.won(1) == ["7H", "X"]
    d.play("1:draw")


def test_after_a_draw_the_turn_passes_left():
    d = Deal([]).draws(0)
    assert d.seat == 1


def test_empty_hand_must_draw():
    d = Deal(["7H", "2C", "3D"])
    leads = [f"0:{r}{s}" for r in RANKS for s in SUITS] + [f"0:X={s}" for s in SUITS]
    assert all(d.error(m) == E.E_NOT_HELD for m in leads)
    d.draws(0, 1, 2).play("0:7H", "1:pass", "2:pass", "1:draw", "2:draw")
    assert d.hand(0) == []
    assert all(d.error(m) != E.OK for m in leads)
    assert d.error("0:draw") == E.OK


# ---- the end of the stock ------------------------------------------------------

CD = [f"{r}{s}" for s in "CD" for r in RANKS]
HS = [f"{r}{s}" for s in "HS" for r in RANKS]


def two_player_split(scoring: str = "standard") -> Deal:
    """2 players, 1 pack: seat 0 draws all clubs and diamonds, seat 1 hearts and spades."""
    top = [c for pair in zip(CD, HS, strict=True) for c in pair]
    return Deal(top, players=2, packs=1, taffies=0, scoring=scoring).draws(*[0, 1] * 26)


def test_cannot_draw_from_empty_stock():
    d = two_player_split()
    assert d.stock_left == 0
    assert d.seat == 0
    assert d.error("0:draw") == E.E_STOCK_EMPTY
    assert d.error("0:2C") == E.OK


def test_last_player_keeps_cards_in_own_pile():
    d = two_player_split()
    # Nobody can follow: each leads in turn and wins their own card.
    for i in range(26):
        d.play(f"0:{CD[i]}", "1:pass")
        if i < 25:
            d.play(f"1:{HS[i]}", "0:pass")
    # Seat 0 is out of cards; seat 1, the last with cards, keeps its AS.
    assert d.phase == E.OVER
    assert (d.s[E.S_LAST_HOLDER], d.s[E.S_KEPT]) == (1, 1)
    assert d.won(1) == HS
    assert d.won(0) == CD
    # Standard scoring: two Tens and 24 other cards each.
    assert d.finish() == {"points": [44, 44], "won": [26, 26], "tricks": 51, "turns": 103}


def three_player_dropout() -> Deal:
    """3 players, 1 pack. Seat 2 draws a spade and leads it next turn, ten times;
    seats 0 and 1 draw the rest, so the stock runs out on seat 1's draw while seat 2's
    hand is empty. Seat 0 draws 4S just before seat 2's last lead and must follow."""
    others = iter(f"{r}{s}" for s in "CDH" for r in RANKS)
    spades = iter(["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S"])
    top, moves = [], []
    for k in range(1, 22):
        top.append({20: "4S", 21: "3S"}.get(k) or next(others))
        top.append("2S" if k == 21 else next(others))
        moves += ["0:draw", "1:draw"]
        if k <= 19 and k % 2:
            top.append(next(spades))
            moves.append("2:draw")
        elif k <= 20:
            moves += [f"2:{top[-3]}", "0:4S" if k == 20 else "0:pass", "1:pass"]
    return Deal(top, players=3, packs=1, taffies=0).play(*moves)


def test_dropout_when_stock_and_hand_empty():
    d = three_player_dropout()
    assert d.stock_left == 0
    assert d.hand(2) == []
    assert d.won_n(2) == 11  # its ten spades and seat 0's 4S
    assert (d.phase, d.seat) == (E.TURN, 0)  # seat 2 is out: skipped after seat 1
    d.play("0:3S", "1:2S")  # seat 2 does not answer
    assert (d.phase, d.seat) == (E.TURN, 1)
    d.play("1:3C", "0:2C")
    assert (d.phase, d.seat) == (E.TURN, 0)  # the leader's left is out: the next in play
    result = d.finish()
    assert result["won"][2] == 11
    assert sum(result["won"]) == 52


# ---- scoring ------------------------------------------------------------------


def points(piles: dict[int, list[str]], players: int = 3, scoring: str = "standard") -> list[int]:
    """Score winnings piles set directly into a state."""
    from whistsim.core.cards import parse_card

    rules = WelshRules(players=players, scoring=scoring)
    buf = new_state(rules.to_array())
    t = buf["table"]
    for q, cards in piles.items():
        for c in cards:
            t["won"][0, q, parse_card(c)] += 1
        t["won_n"][0, q] = len(cards)
    return result_of(buf)["points"]


PILES = {0: ["TH", "X", "5C", "2D"], 1: ["5S", "5H", "AS"], 2: []}


def test_standard_scoring_10_per_ten_and_taffy_1_per_other():
    assert points(PILES) == [10 + 10 + 1 + 1, 1 + 1 + 1, 0]


def test_five_penalty_each_five_scores_minus_5():
    assert points(PILES, scoring="five_penalty") == [10 + 10 - 5 + 1, -5 - 5 + 1, 0]


def test_piles_scoring_smallest_pile_scores_1_per_ten():
    # Pile heights 1, 2, 3: multipliers 1, 2, 3 per Ten and Taffy.
    piles = {0: ["TH", "2C", "3C"], 1: ["TS"], 2: ["X", "TD"]}
    assert points(piles, scoring="piles") == [3 * 1, 1 * 1, 2 * 2]


def test_piles_scoring_equal_piles_share_multiplier():
    # Heights 3, 1, 2, 2 (seats 0..3): multipliers 3, 1, 2, 2; then the 1, 2, 2, 3 of docs/rules.md.
    piles = {0: ["TC", "TD", "4C"], 1: ["TH"], 2: ["TS", "2C"], 3: ["X", "3C"]}
    assert points(piles, players=4, scoring="piles") == [3 * 2, 1, 2, 2]
    piles = {0: ["2C", "2D"], 1: ["2H"], 2: ["X", "X", "X", "TC"], 3: ["TD", "3C"]}
    assert points(piles, players=4, scoring="piles") == [0, 0, 3 * 4, 2 * 1]


def test_piles_scoring_all_equal():
    piles = {0: ["TC"], 1: ["2C"], 2: ["X"]}
    assert points(piles, scoring="piles") == [1, 0, 1]


@pytest.mark.parametrize(
    ("scoring", "expected"), [("standard", [44, 44]), ("five_penalty", [32, 32]), ("piles", [2, 2])]
)
def test_scoring_of_a_whole_deal(scoring, expected):
    # Nobody can ever follow, so each pile is the player's own 26 cards.
    assert two_player_split(scoring).finish()["points"] == expected


# ---- revokes -----------------------------------------------------------------


def test_revokes_forbidden_pass_while_able_rejected():
    d = Deal(["7H", "2H", "KS"]).draws(0, 1, 2).play("0:7H")
    assert d.error("1:pass") == E.E_MUST_FOLLOW
    d.play("1:2H")
    assert d.error("2:pass") == E.OK  # unable to follow: a true pass


def test_revokes_allowed_false_pass_accepted():
    d = Deal(["7H", "2H", "KS"], revokes=True).draws(0, 1, 2).play("0:7H")
    d.play("1:pass")  # holding 2H
    assert d.hand(1) == ["2H"]
    assert d.buf[0]["false_passes"] == 1
    assert d.error("2:KS") == E.E_WRONG_SUIT  # a card that does not follow is never playable
    d.play("2:pass")
    assert d.buf[0]["false_passes"] == 1


def test_revokes_allowed_taffy_holder_may_pass():
    d = Deal(["7H", "X", "KS"], revokes=True).draws(0, 1, 2).play("0:7H", "1:pass")
    assert d.buf[0]["false_passes"] == 1


# ---- challenges ----------------------------------------------------------------


def challenge_deal(rule: str, seat1: str, seat2: str, revokes: bool = True) -> Deal:
    """0 holds 7H AC, 1 holds ``seat1`` 3C, 2 holds KS ``seat2``; 0 leads 7H; 1 and 2 pass."""
    d = Deal(["7H", seat1, "KS", "AC", "3C", seat2], revokes=revokes, challenge=rule)
    return d.draws(0, 1, 2, 0, 1, 2).play("0:7H", "1:pass", "2:pass")


def test_parlett_challenge_caught_leader_takes_passers_hand():
    d = challenge_deal("parlett", "2H", "QD")
    assert (d.phase, d.seat) == (E.CHALLENGE, 0)  # the leader challenges
    d.play("0:challenge=1")  # 1 held 2H: a false pass
    assert d.hand(0) == ["3C", "AC", "2H"]
    assert d.hand(1) == []
    assert d.hand(2) == ["QD", "KS"]
    assert d.won(0) == ["7H"]
    assert (d.phase, d.seat) == (E.TURN, 1)
    assert (d.s[E.S_CHALLENGES], d.s[E.S_CHALLENGES_WON]) == (1, 1)


def test_parlett_challenge_caught_holding_taffy():
    d = challenge_deal("parlett", "X", "QD")
    d.play("0:challenge=1")
    assert d.hand(0) == ["3C", "AC", "X"]
    assert d.hand(1) == []


def test_parlett_challenge_failed_passer_takes_leaders_hand():
    d = challenge_deal("parlett", "2H", "QD")
    d.play("0:challenge=2")  # 2 held KS QD: an honest pass
    assert d.hand(2) == ["AC", "QD", "KS"]
    assert d.hand(0) == []
    assert d.hand(1) == ["3C", "2H"]
    assert d.won(0) == ["7H"]
    assert (d.phase, d.seat) == (E.TURN, 1)
    assert (d.s[E.S_CHALLENGES], d.s[E.S_CHALLENGES_WON]) == (1, 0)


def test_parlett_leader_not_winner_challenges():
    d = Deal(["7H", "9H", "KS"], revokes=True, challenge="parlett").draws(0, 1, 2)
    d.play("0:7H", "1:9H", "2:pass")
    assert (d.phase, d.seat) == (E.CHALLENGE, 0)


def test_akagiri_winner_challenges():
    d = Deal(["7H", "9H", "KS"], revokes=True, challenge="akagiri").draws(0, 1, 2)
    d.play("0:7H", "1:9H", "2:pass")
    assert (d.phase, d.seat) == (E.CHALLENGE, 1)


def test_akagiri_challenge_caught_hand_goes_to_challengers_winnings():
    d = Deal(["7H", "9H", "KS", "AC", "3C", "4H"], revokes=True, challenge="akagiri")
    d.draws(0, 1, 2, 0, 1, 2).play("0:7H", "1:9H", "2:pass")  # 2 holds 4H
    d.play("1:challenge=2")
    assert d.won(1) == ["4H", "7H", "9H", "KS"]
    assert d.hand(2) == []
    assert d.hand(1) == ["3C"]
    assert (d.phase, d.seat) == (E.TURN, 1)
    assert d.s[E.S_CHALLENGES_WON] == 1


def test_akagiri_challenge_failed_passer_takes_trick():
    d = Deal(["7H", "9H", "KS", "AC", "3C", "QD"], revokes=True, challenge="akagiri")
    d.draws(0, 1, 2, 0, 1, 2).play("0:7H", "1:9H", "2:pass")  # 2 holds KS QD
    d.play("1:challenge=2")
    assert d.won(2) == ["7H", "9H"]
    assert d.won(1) == []
    assert d.hand(2) == ["QD", "KS"]
    assert (d.phase, d.seat) == (E.TURN, 1)
    assert d.s[E.S_CHALLENGES_WON] == 0


@pytest.mark.parametrize("rule", ["parlett", "akagiri"])
def test_challenge_decision_owed_even_without_revokes_and_fails(rule):
    d = challenge_deal(rule, "2C", "QD", revokes=False)
    assert (d.phase, d.seat) == (E.CHALLENGE, 0)
    d.play("0:challenge=1")
    if rule == "parlett":
        assert d.hand(1) == ["2C", "3C", "AC"]
        assert d.hand(0) == []
    else:
        assert d.won(1) == ["7H"]
        assert d.won(0) == []
    assert d.s[E.S_CHALLENGES_WON] == 0


@pytest.mark.parametrize("rule", ["parlett", "akagiri"])
def test_challenge_owed_when_passer_hand_empty(rule):
    d = Deal(["7H", "2C", "3D"], challenge=rule).draws(0, 1, 2)
    d.play("0:7H", "1:pass", "2:pass", "0:nochallenge", "1:2C", "2:pass", "0:pass")
    assert d.hand(0) == []
    assert (d.phase, d.seat) == (E.CHALLENGE, 1)
    d.play("1:challenge=0")
    assert (d.phase, d.seat) == (E.TURN, 2)


@pytest.mark.parametrize("rule", ["parlett", "akagiri"])
def test_challenge_decisions(rule):
    d = challenge_deal(rule, "2H", "QD")
    assert d.error("0:challenge=0") == E.E_NOT_A_PASSER  # the leader did not pass
    assert d.error("0:challenge=11") == E.E_NOT_A_PASSER  # no such seat
    assert d.error("0:draw") == E.E_NOT_WHEN_CHALLENGING
    assert d.error("0:pass") == E.E_NOT_WHEN_CHALLENGING
    d.play("0:nochallenge")
    assert d.hand(0) == ["AC"]
    assert d.hand(1) == ["3C", "2H"]
    assert (d.phase, d.seat) == (E.TURN, 1)


@pytest.mark.parametrize("rule", ["parlett", "akagiri"])
def test_no_challenge_owed_without_a_pass(rule):
    d = Deal(["7H", "8H", "9H"], challenge=rule).draws(0, 1, 2).play("0:7H", "1:8H", "2:9H")
    assert (d.phase, d.seat) == (E.TURN, 1)


def test_no_challenge_owed_under_rule_none():
    d = challenge_deal("none", "2H", "QD")
    assert (d.phase, d.seat) == (E.TURN, 1)


@pytest.mark.parametrize("rule", ["none", "parlett", "akagiri"])
def test_challenge_deals_finish_and_replay(rule):
    # The challenge phase also works through the end of a deal and in records.
    d = challenge_deal(rule, "2H", "QD")
    if rule != "none":
        d.play("0:challenge=1")
    result = d.finish()
    assert sum(result["won"]) == 108


# ---- presets and options -------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 13))
def test_preset_parlett_two_packs_four_taffies(players):
    r = WelshRules.make("parlett", players)
    assert (r.players, r.packs, r.taffies, r.taffy_rank) == (players, 2, 4, 10.5)
    assert (r.scoring, r.revokes, r.challenge) == ("standard", False, "none")
    assert r.stock_size == 108


@pytest.mark.parametrize(("players", "packs"), [(2, 1), (3, 2), (4, 2), (5, 3), (6, 3), (7, 4), (8, 4)])
def test_preset_akagiri_packs_by_players(players, packs):
    r = WelshRules.make("akagiri", players)
    assert (r.packs, r.taffies, r.taffy_rank) == (packs, 2 * packs, 10.0)
    assert (r.scoring, r.revokes, r.challenge) == ("standard", False, "none")
    assert r.stock_size == 54 * packs  # Akagiri 1995: 108, 162, 216 cards


def test_default_preset_is_parlett():
    assert GAME.make_rules() == WelshRules.make("parlett")
    assert GAME.presets[0] == "parlett"


def test_overrides_after_preset():
    r = WelshRules.make("akagiri", 5, challenge="akagiri", revokes="true", taffies="0")
    assert (r.packs, r.taffies, r.challenge, r.revokes) == (3, 0, "akagiri", True)
    r = WelshRules.make("parlett", 3, taffy_rank="10", scoring="piles", packs=3)
    assert (r.taffy_rank, r.scoring, r.packs) == (10.0, "piles", 3)


def test_players_as_a_rule_picks_akagiri_packs():
    assert GAME.make_rules("akagiri", None, {"players": "7"}).packs == 4


@pytest.mark.parametrize(
    "overrides",
    [{"players": 1}, {"players": 13}, {"packs": 0}, {"taffies": -1}, {"packs": 17},
     {"taffy_rank": 11}, {"scoring": "golf"}, {"revokes": "maybe"}, {"challenge": "duel"},
     {"players": "three"}, {"nonsense": 1}],
)  # fmt: skip
def test_bad_rules_are_one_line_errors(overrides):
    with pytest.raises(RuleError) as e:
        WelshRules.make("parlett", **overrides)
    assert "\n" not in str(e.value)
    assert next(iter(overrides)) in str(e.value)


def test_unknown_preset():
    with pytest.raises(RuleError, match="unknown preset 'nope'"):
        WelshRules.make("nope")


def test_rules_round_trip_through_records():
    for r in (WelshRules.make("parlett", 3), WelshRules.make("akagiri", 7, scoring="piles", revokes=True)):
        assert WelshRules.from_record(r.to_record()) == r
    assert WelshRules.make("akagiri", 3).to_record()["taffy_rank"] == 10
    assert isinstance(WelshRules.make("akagiri", 3).to_record()["taffy_rank"], int)


def test_unshuffled_deck_holds_packs_and_taffies():
    r = WelshRules(packs=3, taffies=5)
    counts = np.bincount(r.deck(), minlength=53)
    assert (counts[:52] == 3).all() and counts[52] == 5


def test_players_said_twice_must_agree():
    assert GAME.make_rules("parlett", 4, {"players": "4"}).players == 4
    with pytest.raises(RuleError, match="players=5"):
        GAME.make_rules("parlett", 4, {"players": "5"})


@pytest.mark.parametrize("scoring", ["standard", "five_penalty"])
def test_a_piles_score_is_the_sum_of_its_cards_values(scoring):
    from whistsim.games.welsh.engine import card_value, new_state, score
    from whistsim.games.welsh.rules import SCORINGS

    rules = WelshRules.make("parlett", 3, scoring=scoring)
    rng = np.random.default_rng(5)
    for _ in range(20):
        buf = new_state(rules.to_array())
        t = buf[0]["table"]
        t["won"][:3] = rng.integers(0, 3, (3, 53))
        t["won_n"][:3] = t["won"][:3].sum(axis=1)
        points = np.zeros(3, np.int64)
        score(t, points)
        code = SCORINGS.index(scoring)
        expected = [sum(int(t["won"][q, c]) * card_value(c, code) for c in range(53)) for q in range(3)]
        assert points.tolist() == expected
