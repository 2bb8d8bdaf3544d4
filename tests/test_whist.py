"""Whist: each rule point on a hand-made deal, and games to 5, 7 and 10."""

from __future__ import annotations

import pytest
from test_dealt_support import WHIST, autoplay, record, replay, state_after

from whistsim.core.cards import RANKS
from whistsim.core.options import RuleError
from whistsim.core.strategy import parse_spec
from whistsim.games import MoveError, RecordError, seating
from whistsim.games.dealt.engine import P_HONOURS, P_PENALTY, P_TRICK_POINTS, S_WINNER, count_out
from whistsim.games.dealt.kernels import new_state
from whistsim.games.whist import GAME
from whistsim.games.whist.rules import WhistRules


def suit(s: str) -> list[str]:
    return [r + s for r in RANKS]


def one_suit_each(**rules) -> dict:
    """Seat 0 (the dealer, turning 2♠) holds every spade, 1 hearts, 2 diamonds, 3 clubs."""
    return record("whist", {**WHIST, **rules}, 0, [[suit("S"), suit("H"), suit("D"), suit("C")]], "2S")


def swap(rec: dict, a: str, b: str) -> dict:
    """The deal with cards ``a`` and ``b`` exchanged between their holders."""
    hands = [[[b if c == a else a if c == b else c for c in h] for h in s] for s in rec["hands"]]
    return {**rec, "hands": hands}


def test_one_trick_point_per_trick_above_six_and_four_for_all_honours():
    rec = autoplay(one_suit_each())
    assert rec["moves"][:4] == ["1:2H", "2:2D", "3:2C", "0:2S"]  # elder hand leads; seat 0 ruffs
    result = replay(rec)
    assert result["tricks"] == [13, 0]
    assert result["trick_points"] == [7, 0]
    assert result["honours"] == [4, 0]
    assert result["points"] == [11, 0]


def test_honours_off_score_nothing():
    result = replay(autoplay(one_suit_each(honours=False)))
    assert result["honours"] == [0, 0] and result["points"] == [7, 0]


def test_three_honours_score_two_and_partners_hold_them_together():
    rec = swap(one_suit_each(), "AS", "2H")  # the Ace of trumps to the other side
    assert replay(autoplay(rec))["honours"] == [2, 0]
    rec = swap(swap(one_suit_each(), "AS", "2D"), "KS", "3D")  # A K with seat 2, Q J with seat 0
    assert replay(autoplay(rec))["honours"] == [4, 0]
    rec = swap(swap(one_suit_each(), "AS", "2H"), "KS", "3H")  # two each: nobody scores
    assert replay(autoplay(rec))["honours"] == [0, 0]


def test_trick_points_follow_the_tricks_on_any_deal():
    rec = swap(swap(swap(one_suit_each(), "AS", "2H"), "KS", "3H"), "QS", "2C")
    result = replay(autoplay(rec))
    assert sum(result["tricks"]) == 13
    assert result["trick_points"] == [max(0, t - 6) for t in result["tricks"]]
    assert result["points"] == [
        a + b for a, b in zip(result["trick_points"], result["honours"], strict=False)
    ]


def test_revoke_penalty_of_three_to_the_other_side():
    rec = swap(one_suit_each(revokes=True), "2H", "2D")  # seat 2 holds one heart, 2♥
    rec = autoplay({**rec, "moves": ["1:3H", "2:3D"]})  # seat 2 does not follow
    result = replay(rec)
    assert result["revokes"] == [[2, 0]]
    assert result["tricks"] == [13, 0]
    assert result["points"] == [11, 3]  # 7 by tricks and 4 by honours; 3 for the revoke
    five = replay({**rec, "rules": {**rec["rules"], "revoke_penalty": 5}})
    assert five["points"] == [11, 5]
    with pytest.raises(MoveError, match="can follow suit"):
        replay({**rec, "rules": {**rec["rules"], "revokes": False}})


def test_the_winner_of_a_trick_leads_the_next():
    rec = autoplay(swap(one_suit_each(), "AH", "3S"))  # seat 1 holds a trump and seat 0 a heart
    buf = state_after(rec, 4)
    s = buf[0]["core"]["table"]["s"]
    assert rec["moves"][4].startswith(f"{int(s[S_WINNER])}:")


def _counted(scores, parts, dealer=3):
    buf = new_state(WhistRules.make())
    g = buf[0]
    g["core"]["table"]["score"][:2] = scores
    for row, pts in parts.items():
        g["core"]["result"][row][:2] = pts
    return count_out(g["core"], dealer, g["order"]), g["core"]["table"]["score"][:2].tolist()


def test_count_out_revoke_then_tricks_then_honours():
    assert _counted([8, 9], {P_TRICK_POINTS: [2, 0], P_HONOURS: [0, 2]}) == (0, [10, 11])
    assert _counted([8, 9], {P_TRICK_POINTS: [0, 0], P_HONOURS: [2, 0], P_PENALTY: [0, 3]}) == (1, [10, 12])
    assert _counted([3, 2], {P_TRICK_POINTS: [1, 0]}) == (-1, [4, 2])


def _games(rules: dict, n: int = 400, strategies=("random",), seed: int = 2):
    r = GAME.make_rules(None, None, rules)
    ids, params = seating("whist", [parse_spec(strategies[q % len(strategies)]) for q in range(4)], 4)
    return r, GAME.play_batch(r, ids, params, seed=seed, n=n)


@pytest.mark.parametrize("target", [5, 7, 10])
def test_games_to_five_seven_or_ten(target):
    r, b = _games({"target": target})
    won = b.side["won"]
    score = b.side["score"]
    assert (won.sum(axis=1) == 1).all() and (b.game["ended"] == 0).all()
    winner = won.argmax(axis=1)
    rows = range(b.n)
    assert (score[rows, winner] >= target).all()
    both = b.game["counted_out"] == 1  # both sides passed the target in the last deal
    assert (score[rows, 1 - winner][both] >= target).all() and (score[rows, 1 - winner][~both] < target).all()
    assert (score == b.side["points"]).all()
    assert (b.game["deals"] >= 1).all() and b.game["deals"].max() <= r.max_deals()
    assert b.game["deals"].mean() > {5: 1.5, 7: 2.5, 10: 3.5}[target]


def test_longer_games_need_more_deals():
    means = [_games({"target": t, "honours": False}, 1000)[1].game["deals"].mean() for t in (5, 7, 10)]
    assert means[0] < means[1] < means[2]


def test_revokes_in_play_cost_three_points_each():
    r, b = _games({"revokes": True, "unit": "deal"}, 400, ("random:revoke=0.5", "random:revoke=0"))
    rev = b.seat["revokes"]
    assert rev[:, 1].sum() == 0 and rev[:, 3].sum() == 0 and rev[:, 0].sum() > 0
    assert (b.side["penalty"][:, 1] == 3 * (rev[:, 0] + rev[:, 2])).all()
    assert (b.side["penalty"][:, 0] == 0).all()


def test_whist_rules_and_records_reject_bad_input():
    with pytest.raises(RuleError, match="expected one of 5, 7, 10"):
        WhistRules.make(target=6)
    with pytest.raises(RuleError, match="four players"):
        GAME.make_rules(None, 5, {})
    with pytest.raises(RuleError, match="unknown rule 'teams'"):
        WhistRules.make(teams="pairs")
    rec = autoplay(one_suit_each())
    for bad, match in [
        ({**rec, "aside": None}, "unknown field 'aside'"),
        (
            {**rec, "rules": {k: v for k, v in WHIST.items() if k != "revoke_penalty"}},
            "missing rule 'revoke_penalty'",
        ),
        ({**rec, "rules": {**WHIST, "players": 4}}, "unknown rule 'players'"),
        ({**rec, "trump": "2H"}, "not in the dealer's"),
        ({**rec, "hands": [[suit("S")[:12], suit("H"), suit("D"), suit("C")]]}, "does not hold 13"),
    ]:
        with pytest.raises(RecordError, match=match):
            replay(bad)


def _claims(rules: dict, result: dict, revokes: list[tuple[int, int]]):
    """A finished deal's score (rows of ``c.result``: [side 0, side 1]) after the game's claims."""
    from whistsim.games.dealt.engine import P_POINTS, claims

    buf = new_state(WhistRules.make(**rules))
    core = buf[0]["core"]
    for row, pts in result.items():
        core["result"][row][:2] = pts
    for j, (seat, trick) in enumerate(revokes):
        core["revokes"][j] = (seat, trick)
    core["n_revokes"] = len(revokes)
    buf[0]["claim_rng"][0] = 12345
    claims(core, buf[0]["claim_rng"])
    drew = int(buf[0]["claim_rng"][0]) != 12345
    assert drew == (rules.get("claim", 1) < 1)  # every revoke noticed: no claim is drawn
    res = core["result"]
    return res[P_PENALTY][:2].tolist(), res[P_POINTS][:2].tolist()


def test_claimed_revoke_penalty_added_to_the_other_side_by_default():
    from whistsim.games.dealt.engine import P_POINTS

    # seat 2 (side 0) revoked once: the deal's record gave side 1 the 3 points
    deal = {P_TRICK_POINTS: [1, 0], P_PENALTY: [0, 3], P_POINTS: [1, 3]}
    assert _claims({"revokes": True}, deal, [(2, 4)]) == ([0, 3], [1, 3])


def test_claimed_revoke_penalty_deducted_from_the_revokers():
    from whistsim.games.dealt.engine import P_POINTS

    deal = {P_TRICK_POINTS: [1, 0], P_PENALTY: [0, 3], P_POINTS: [1, 3]}
    assert _claims({"revokes": True, "revoke_score": "deduct"}, deal, [(2, 4)]) == ([-3, 0], [-2, 0])
    # two revokes, one by each side, each penalised against its own side
    deal = {P_TRICK_POINTS: [0, 2], P_PENALTY: [3, 3], P_POINTS: [3, 5]}
    got = _claims({"revokes": True, "revoke_score": "deduct"}, deal, [(1, 0), (0, 5)])
    assert got == ([-3, -3], [-3, -1])


def test_an_unnoticed_revoke_scores_nothing():
    from whistsim.games.dealt.engine import P_POINTS

    deal = {P_TRICK_POINTS: [1, 0], P_HONOURS: [2, 0], P_PENALTY: [0, 3], P_POINTS: [3, 3]}
    for score in ("add", "deduct"):
        assert _claims({"revokes": True, "claim": 0, "revoke_score": score}, deal, [(2, 4)]) == (
            [0, 0],
            [3, 0],
        )


def test_a_deducted_penalty_lowers_the_game_score_below_zero():
    scores = _counted([0, 4], {P_TRICK_POINTS: [1, 0], P_PENALTY: [-3, 0]})
    assert scores == (-1, [-2, 4])


def test_claims_and_deductions_in_play():
    strategies = ("random:revoke=0.5", "random:revoke=0")
    rules = {"revokes": True, "unit": "deal"}
    _, add = _games(rules, 400, strategies)
    _, deduct = _games({**rules, "revoke_score": "deduct"}, 400, strategies)
    rev = deduct.seat["revokes"]
    assert (deduct.seat["revokes"] == add.seat["revokes"]).all()  # the same deals, the same plays
    assert (deduct.side["penalty"][:, 0] == -3 * (rev[:, 0] + rev[:, 2])).all()
    assert (deduct.side["penalty"][:, 1] == 0).all()
    assert (deduct.side["points"] == add.side["points"] - add.side["penalty"] + deduct.side["penalty"]).all()
    _, unseen = _games({**rules, "claim": 0}, 400, strategies)
    assert (unseen.side["penalty"] == 0).all()
    assert (unseen.side["points"] == add.side["points"] - add.side["penalty"]).all()
    _, half = _games({**rules, "claim": 0.5}, 2000, strategies)
    claimed = half.side["penalty"][:, 1].sum() / 3
    assert 0.4 < claimed / half.seat["revokes"].sum() < 0.6


def test_deducted_games_end_unfinished_only_past_the_bound():
    r, b = _games({"revokes": True, "revoke_score": "deduct"}, 200, ("random:revoke=0.3",))
    assert r.max_deals() == 8 * WhistRules.make(revokes=True).max_deals()
    finished = b.game["ended"] == 0
    assert (b.side["won"].sum(axis=1) == finished).all()
    assert (b.game["deals"][~finished] == r.max_deals()).all()


def test_records_keep_the_deal_as_scored_and_leave_the_game_options_out():
    # claim and revoke_score decide how deals make a game: a record is the deal, which replay re-scores
    for rules in ({"revoke_score": "deduct"}, {"claim": 0.5}):
        r = GAME.make_rules(None, None, {"revokes": True, **rules})
        assert r.to_record() == WhistRules.make(revokes=True).to_record()
        ids, params = seating("whist", [parse_spec("random:revoke=0.3")] * 4, 4)
        b = GAME.play_batch(r, ids, params, seed=5, n=3, log_games=3)
        for i in range(len(b.logs)):
            rec = GAME.make_record(r, b, i, 5, ["random:revoke=0.3"] * 4)
            assert GAME.replay(rec) == rec["result"]


def test_revoke_score_and_claim_reject_bad_values():
    with pytest.raises(RuleError, match=r"^rule revoke_score='take': expected one of add, deduct$"):
        WhistRules.make(revoke_score="take")
    for bad in (-0.1, 1.5):
        with pytest.raises(RuleError, match=r"^rule claim=.*: expected a chance from 0 to 1$"):
            WhistRules.make(claim=bad)


def _heuristic_to_play(rec: dict, **params) -> int:
    from whistsim.games.dealt.kernels import decide_now
    from whistsim.games.dealt.players import PLAYERS, heuristic

    buf = state_after(rec)
    seats = buf[0]["core"]["seats"]
    seats["strategy"][:] = PLAYERS.index(heuristic)
    seats["params"][:, : len(heuristic.DEFAULTS)] = heuristic.DEFAULTS
    for key, value in params.items():
        seats["params"][:, list(heuristic.PARAMS).index(key)] = value
    return decide_now(buf)


def test_heuristic_revokes_deliberately_only_to_take_a_trick_it_cannot_win_by_following():
    from whistsim.core.cards import parse_card

    # seat 2 holds 2♥, K♥ and the 3♠ of trumps among its diamonds
    rec = swap(swap(swap(one_suit_each(revokes=True), "2H", "2D"), "3S", "3D"), "KH", "4D")
    ace = {**rec, "moves": ["1:AH"]}  # following cannot beat the Ace
    assert _heuristic_to_play(ace) == parse_card("2H")
    assert _heuristic_to_play(ace, revoke=1) == parse_card("3S")
    three = {**rec, "moves": ["1:3H"]}  # the King would win it: follow (second hand low)
    assert _heuristic_to_play(three, revoke=1) == parse_card("2H")
    honest = {**ace, "rules": {**ace["rules"], "revokes": False}}
    assert _heuristic_to_play(honest, revoke=1) == parse_card("2H")


def _outcomes(rows: list[dict]) -> dict:
    """Whist's how-the-game-was-won figures of hand-made games: each row a game's per-side columns."""
    import numpy as np

    from whistsim.core.batch import Batch
    from whistsim.games.dealt.figures import whist_outcomes

    keys = ("won", "score", "honours", "first_points", "penalty", "tricks", "points")
    side = {k: np.array([r[k] for r in rows]) for k in keys}
    return {
        k: v.tolist() for k, v in whist_outcomes(Batch(0, {}, {}, side), WhistRules.make(target=10)).items()
    }


def test_figures_of_how_a_whist_game_was_won():
    games = [
        # won 10-6 with 4 honours: 6 without them, short of 10: the honours won it; behind after deal 1
        {
            "won": [1, 0],
            "score": [10, 6],
            "honours": [4, 2],
            "first_points": [0, 3],
            "penalty": [0, 0],
            "tricks": [7, 6],
            "points": [1, 0],
        },
        # won 11-2 with 2 honours: 9 without them, short of 10 too; ahead after deal 1
        {
            "won": [0, 1],
            "score": [2, 11],
            "honours": [0, 2],
            "first_points": [0, 2],
            "penalty": [-3, 0],
            "tricks": [4, 9],
            "points": [0, 5],
        },
        # won 10-8 without honours; level after deal 1; the losers held honours
        {
            "won": [1, 0],
            "score": [10, 8],
            "honours": [0, 4],
            "first_points": [2, 2],
            "penalty": [0, 3],
            "tricks": [6, 7],
            "points": [0, 1],
        },
        # unfinished (deducted penalties): nobody won
        {
            "won": [0, 0],
            "score": [9, -1],
            "honours": [0, 0],
            "first_points": [1, 0],
            "penalty": [0, -6],
            "tricks": [8, 5],
            "points": [2, 0],
        },
    ]
    out = _outcomes(games)
    assert out["won_on_honours"] == [1, 1, 0, 0]
    assert out["honours_scored"] == [1, 1, 1, 0]
    assert out["first_leader_won"] == [0.0, 1.0, 0.5, 0.0]
    assert out["penalty[0]"] == [0, -3, 0, 0] and out["penalty[1]"] == [0, 0, 3, -6]
    # which side took more tricks, and more points (the trump_length study reads them of single deals)
    assert out["more_tricks[0]"] == [1, 0, 0, 1] and out["more_tricks[1]"] == [0, 1, 1, 0]
    assert out["more_points[0]"] == [1, 0, 0, 1] and out["more_points[1]"] == [0, 1, 1, 0]
