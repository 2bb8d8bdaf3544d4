"""Dealing under a declared constraint (docs/deals.md): the language, the kernel's dealing, the wiring."""

import hashlib
import json
import time

import numpy as np
import pytest
from cli_helpers import one_line_error, run
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

import whistsim
from whistsim.core.options import WhistsimError
from whistsim.core.strategy import parse_spec
from whistsim.deals.constraints import compile_where, parse, prepare, said
from whistsim.games import get_game, seating


def whist_rules(**kw):
    return get_game("whist").make_rules(None, None, {"unit": "deal", **kw})


def deals(where, n=200, seed=3, game="whist", rules=None, **kw):
    rules = {"unit": "deal"} if rules is None and game != "welsh" else (rules or {})
    return whistsim.simulate(game, n=n, seed=seed, rules=rules, records=n, where=where, first="rotate", **kw)


# ---- the language -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text,back",
    [
        ("side0.trumps >= 9", "side0.trumps >= 9"),
        ("N.spades == 5 and S.spades >= 3", "(N.spades == 5 and S.spades >= 3)"),
        ("dealer holds AS KS", "dealer holds AS KS"),
        ("side1.honours >= 3 or trump == hearts", "(side1.honours >= 3 or trump == hearts)"),
        ("not (N.spades + S.spades >= 8)", "not (N.spades + S.spades >= 8)"),
        ("(N.hearts = 4) and not E.clubs < 2", "(N.hearts == 4 and not (E.clubs < 2))"),
    ],
)
def test_a_constraint_parses_and_reads_back(text, back):
    assert said(parse(text)) == back


@pytest.mark.parametrize(
    "text,word",
    [
        ("N.spadez >= 3", "'spadez'"),
        ("Q.spades >= 3", "'Q'"),
        ("N.spades", "'N.spades'"),
        ("N.spades >=", "ends"),
        ("dealer holds AS ZZ", "'ZZ'"),
        ("trump == 3", "trump == 3"),
        ("(N.spades > 1", "'('"),
        ("N.spades > 1 $", "'$'"),
        ("top12.tens > 1", "'top12'"),
        ("side2.trumps > 1", "'side2'"),
        ("N.points > 1", "N.points"),
        ("N.taffies > 0", "N.taffies"),
        ("", "nothing"),
        ("N.spades > 1 S.spades", "'S.spades'"),
    ],
)
def test_a_bad_constraint_is_one_line_naming_the_word(text, word):
    with pytest.raises(WhistsimError) as e:
        compile_where(text, "whist", whist_rules())
    assert "\n" not in str(e.value) and word in str(e.value)


def test_welsh_constrains_its_stock_not_the_players():
    rules = get_game("welsh").make_rules(None, 3, {})
    compile_where("top12.tens >= 2 and top20.taffies >= 1", "welsh", rules)
    for text, word in [
        ("N.spades > 1", "stock"),
        ("trump == hearts", "no trump"),
        ("top999.tens > 1", "stock"),
    ]:
        with pytest.raises(WhistsimError, match=word):
            compile_where(text, "welsh", rules)


def test_a_constraint_that_can_never_hold_is_refused_by_counting():
    with pytest.raises(WhistsimError, match="can never hold: N.spades is 0 to 13"):
        prepare("N.spades >= 14", "whist", whist_rules())
    with pytest.raises(WhistsimError, match="can never hold when N deals"):
        prepare("N.trumps == 0", "whist", whist_rules(), -1)


# ---- the kernel's deals ------------------------------------------------------------------------------

SUITS = ["spades", "hearts", "diamonds", "clubs", "trumps", "honours", "tens"]
HANDS = ["N", "E", "S", "W", "side0", "side1", "dealer"]
OPS = ["==", "!=", "<", "<=", ">", ">="]


@st.composite
def constraints(draw, depth=2):
    if depth == 0 or draw(st.booleans()):
        kind = draw(st.sampled_from(["count", "count", "holds", "trump"]))
        if kind == "count":
            what = draw(st.sampled_from(SUITS))
            top = 4 if what in ("honours", "tens") else 13
            return f"{draw(st.sampled_from(HANDS))}.{what} {draw(st.sampled_from(OPS))} {draw(st.integers(0, top))}"
        if kind == "holds":
            cards = draw(
                st.lists(st.sampled_from(["AS", "KH", "QD", "JC", "TS", "2H"]), min_size=1, max_size=2)
            )
            return f"{draw(st.sampled_from(HANDS))} holds {' '.join(cards)}"
        return f"trump {draw(st.sampled_from(['==', '!=']))} {draw(st.sampled_from(SUITS[:4]))}"
    a, b = draw(constraints(depth - 1)), draw(constraints(depth - 1))
    joined = f"({a}) {draw(st.sampled_from(['and', 'or']))} ({b})"
    return f"not ({joined})" if draw(st.integers(0, 4)) == 0 else joined


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(constraints())
def test_every_deal_dealt_meets_the_constraint(text):
    try:
        sim = deals(text, n=40)
    except WhistsimError as e:
        assert "\n" not in str(e)
        reject()
    c = compile_where(text, "whist", sim.rules)
    assert [i for i, r in enumerate(sim.records) if not c.holds(r)] == []
    assert sim.drawn >= sim.deals == 40


@pytest.mark.parametrize(
    "game,rules,text",
    [
        ("scotch", {"players": 6, "unit": "deal"}, "side1.points >= 20 and seat3.trumps >= 2"),
        ("scotch", {"players": 5, "odd_six": "aside", "unit": "deal"}, "dealer.trumps >= 3"),
        ("scotch", {"players": 2, "unit": "deal"}, "seat0.trumps == 6"),
        ("scotch", {"french": True, "unit": "deal"}, "side0.points >= 30"),
        ("welsh", {"players": 4}, "top12.tens >= 3 or top8.taffies >= 1"),
        ("whist", {}, "side1.trumps >= 8 and dealer holds AS"),  # whole games: every deal
    ],
)
def test_other_games_deal_what_their_constraint_asks(game, rules, text):
    sim = whistsim.simulate(game, n=60, seed=5, rules=rules, records=60, where=text, first="rotate")
    c = compile_where(text, game, sim.rules)
    assert sim.records and all(c.holds(r) for r in sim.records)


def _columns(batch):
    return {k: v.tolist() for part in (batch.seat, batch.game, batch.side) for k, v in part.items()}


@pytest.mark.parametrize(
    "game,rules,text",
    [("whist", {}, "side0.trumps >= 9 and N.hearts <= 3"), ("whist", {}, "N.spades + S.spades >= 8"),
     ("welsh", {}, "top10.tens >= 2")],
)  # fmt: skip
def test_same_deals_at_any_thread_count_and_batch_size(game, rules, text):
    g = get_game(game)
    r = g.make_rules(None, None, rules)
    program = compile_where(text, game, r).program
    ids, params = seating(game, [parse_spec("random")], g.players_of(r))
    one = g.play_batch(r, ids, params, seed=9, start=0, n=24, log_games=24, where=program)
    parts = [
        g.play_batch(r, ids, params, seed=9, start=s, n=k, log_games=k, where=program)
        for s, k in ((0, 5), (5, 19))
    ]
    assert _columns(one) == _columns(whistsim.core.batch.Batch.concat(parts))
    skip = 1 if game == "whist" else 0  # a logged deal's first entry is its game's place in the batch
    assert [x.tolist()[skip:] for x in one.logs] == [x.tolist()[skip:] for p in parts for x in p.logs]
    a = whistsim.simulate(game, n=30, seed=9, rules=rules, records=30, where=text, threads=1)
    b = whistsim.simulate(game, n=30, seed=9, rules=rules, records=30, where=text, threads=2)
    assert a.records == b.records and a.drawn == b.drawn


def test_without_a_constraint_the_deals_are_todays():
    # the digest of these records as the code before constraints wrote them
    out = []
    for game, rules in [("whist", {}), ("scotch", {"players": 6}), ("welsh", {})]:
        sim = whistsim.simulate(game, n=4, seed=11, rules=rules, records=4)
        assert sim.drawn == sim.deals
        for rec in sim.records:
            keys = ("hands", "trump", "deck", "dealer", "moves", "result")
            out.append(json.dumps({k: rec.get(k) for k in keys}, sort_keys=True))
    digest = hashlib.sha256("\n".join(out).encode()).hexdigest()
    assert digest == "39702c2a8b81a495700b300ab87fcbeb6a144ac5b2ced477a8f5e7bfd48d418c"


def _trumps(records, side_of):
    out = []
    for r in records:
        t = r["trump"][1]
        held = [sum(c[1] == t for c in r["hands"][0][q]) for q in range(4)]
        out.append(side_of(held))
    return np.array(out)


def _chi2(a, b):
    """Two-sample chi-square statistic and degrees of freedom over the values seen."""
    values = sorted(set(a) | set(b))
    ca = np.array([np.sum(a == v) for v in values], float)
    cb = np.array([np.sum(b == v) for v in values], float)
    keep = (ca + cb) >= 10
    ca, cb = ca[keep], cb[keep]
    total = ca + cb
    ea, eb = total * ca.sum() / total.sum(), total * cb.sum() / total.sum()
    return float(((ca - ea) ** 2 / ea + (cb - eb) ** 2 / eb).sum()), int(keep.sum()) - 1


def test_the_direct_method_deals_as_rejection_does():
    direct = deals("side0.trumps >= 8", n=3000, seed=1)
    rejected = deals("not (side0.trumps < 8)", n=3000, seed=2)
    assert compile_where("side0.trumps >= 8", "whist", whist_rules()).direct == "side0.trumps"
    assert compile_where("not (side0.trumps < 8)", "whist", whist_rules()).direct is None
    assert direct.drawn == direct.deals < rejected.drawn / 3  # about 1 deal in 4 has 8 or more
    for side_of in (lambda h: h[0] + h[2], lambda h: h[0], lambda h: h[1]):
        stat, df = _chi2(_trumps(direct.records, side_of), _trumps(rejected.records, side_of))
        assert stat < df + 6 * np.sqrt(2 * df)  # loose: far beyond the 99.9th percentile fails
    suits = [sum(r["trump"][1] == s for r in direct.records) for s in "CDHS"]
    assert min(suits) > 600  # the trump suit uniform (750 each expected)


def test_the_direct_method_reaches_the_rarest_lengths():
    # with the dealer rotating, side 1 cannot hold all 13 when side 0 deals (the turned card is the dealer's)
    with pytest.raises(WhistsimError, match="side1.trumps can never hold when N deals"):
        deals("side1.trumps == 13", n=50)
    sim = whistsim.simulate(
        "whist", n=50, seed=3, rules={"unit": "deal"}, records=50, where="side1.trumps == 13", first=0
    )
    assert sim.drawn == 50  # seat 0 leads, so W deals: one draw a deal
    assert all(_trumps(sim.records, lambda h: h[1] + h[3]) == 13)


# ---- the wiring --------------------------------------------------------------------------------------


def test_an_impossible_constraint_is_a_one_line_error_fast():
    for text, why in (
        ("N.spades >= 14", "can never hold"),
        ("N.spades == 13 and S.spades == 13", "no deal of"),
    ):
        t = time.perf_counter()
        r = run("simulate", "--game", "whist", "--n", "10", "--where", text)
        assert time.perf_counter() - t < 20
        one_line_error(r, f"where {text!r}", why)
        assert "Traceback" not in r.output


def test_results_say_what_they_were_dealt_under():
    from whistsim.tools.comparison import compare

    res = run(
        "simulate", "--game", "whist", "--n", "20", "--rule", "unit=deal", "--where", "dealer holds AS KS"
    )
    assert res.exit_code == 0, res.output
    assert "dealt under: dealer holds AS KS (" in res.output and "deals drawn per deal played" in res.output
    sim = deals("dealer holds AS KS", n=20)
    assert sim.to_json()["where"] == "dealer holds AS KS" and sim.drawn_per_deal > 2
    assert sim.summary().attrs["where"] == "dealer holds AS KS"
    c = compare("whist", rules={"unit": "deal"}, vs={"honours": False}, n=30, where="side0.honours >= 3")
    assert c.where == "side0.honours >= 3" and c.to_json()["drawn_per_deal"] > 1
    from whistsim.tools.odds import odds

    df = odds(
        "whist", n=300, seed=1, preset="short", score="3-1", dealer=0, boot=4, where="dealer.honours >= 3"
    )
    assert df.attrs["where"] == "dealer.honours >= 3" and df.attrs["drawn_per_deal"] > 1


def test_an_experiment_sweeps_constraints():
    from whistsim.experiments.spec import SpecError, spec_from_dict

    spec = spec_from_dict(
        {
            "game": "whist",
            "n": 10,
            "seed": 1,
            "rules": {"unit": "deal"},
            "sweep": {"where": ["side0.trumps == 2", "side0.trumps == 11"]},
        }
    )
    assert [c.where for c in spec.cells] == ["side0.trumps == 2", "side0.trumps == 11"]
    assert spec.cells[0].deck != spec.cells[1].deck  # not paired: they deal different deals
    with pytest.raises(SpecError, match="spadez"):
        spec_from_dict({"game": "whist", "n": 10, "seed": 1, "where": "N.spadez > 1"})
