"""Each built-in Welsh Whist player on hand-made situations for the decision that defines it,
and the parameters every player takes (cheat, challenge), written as users write them."""

from __future__ import annotations

import numpy as np
import pytest
from welsh_deals import Deal

from whistsim.core.strategy import MAX_PARAMS, Param, StrategyError, parse_spec
from whistsim.games import get_game, seating
from whistsim.games.welsh import engine as E
from whistsim.games.welsh.kernels import decide_now as decide_state
from whistsim.games.welsh.moves import action_name


def decision(deal: Deal, spec: str) -> str:
    """What ``spec`` decides for the seat owing the next decision of ``deal`` (the deal is untouched)."""
    buf = deal.buf.copy()
    ids, params = seating("welsh", [parse_spec(spec)], deal.rules.players)
    seat = deal.seat
    buf[0]["seats"][seat]["strategy"] = ids[seat]
    buf[0]["seats"][seat]["params"][:] = params[seat]
    return action_name(int(decide_state(buf)))


def dealt(hands: list[list[str]], first: int = 0, **rules) -> Deal:
    """Each seat in turn from ``first`` draws the next card of its hand (hands of one length)."""
    p = rules.get("players", 3)
    assert len({len(h) for h in hands}) == 1
    top = [hands[(first + k) % p][i] for i in range(len(hands[0])) for k in range(p)]
    d = Deal(top, first=first, **rules)
    for _ in top:
        d.draws(d.seat)
    return d


# ---- the players --------------------------------------------------------------


def test_hunter_leads_its_high_card_while_the_stock_lasts():
    d = dealt([["JH", "4D"], ["2C", "3C"], ["5C", "6C"]])
    assert d.stock_left > 0
    assert decision(d, "hunter") == "JH"  # a Jack beats Tens and Taffies
    assert decision(d, "greedy") == "draw"  # greedy leads only Aces and Kings
    assert decision(d, "hoarder") == "draw"
    d = dealt([["JH", "AS", "4D"], ["2C", "3C", "7C"], ["5C", "6C", "8C"]])
    assert decision(d, "hunter") == "AS"  # the highest first, then the next
    d.play("0:AS", "1:pass", "2:pass", "1:draw", "2:draw")
    assert decision(d, "hunter") == "JH"
    assert decision(d, "hunter:rank=10") == "draw"  # only Queens or better


def seat_player(d: Deal, seat: int, spec: str) -> None:
    """Seat ``spec`` at ``seat`` of the deal itself (its memory, if it keeps one, lives there)."""
    ids, params = seating("welsh", [parse_spec(spec)], d.rules.players)
    d.buf[0]["seats"][seat]["strategy"] = ids[seat]
    d.buf[0]["seats"][seat]["params"][:] = params[seat]


def by_seated(d: Deal) -> str:
    """The seated player's decision for the seat owing one, made on the deal."""
    a = action_name(int(decide_state(d.buf)))
    d.play(f"{d.seat}:{a}")
    return a


def test_hunter_with_hold_draws_until_it_holds_enough_then_leads_them_all_without_drawing():
    first = [c for trio in zip(["JH", "AS", "QC", "4D"], ["2C", "3C", "7C", "8C"], ["5C", "6C", "9C", "TC"],
                               strict=True) for c in trio]  # fmt: skip
    later = ["2D", "3D", "4D", "5D", "6D", "7D", "KD", "8D", "9D", "2S"]  # drawn in this order
    d = Deal(first + later)
    d.draws(*[q for _ in range(4) for q in range(3)])
    assert decision(d, "hunter:hold=4") == "draw"  # three high cards: not yet four
    seat_player(d, 0, "hunter:hold=3")
    assert by_seated(d) == "AS"  # three held: the run starts, highest first
    d.play("1:pass", "2:pass").draws(1, 2)
    assert decision(d, "hunter:hold=3") == "draw"  # a seat that did not lead last turn would draw
    assert by_seated(d) == "QC"  # ... but its last turn was a lead: the run goes on with two held
    d.play("1:2C", "2:5C").draws(1, 2)
    assert by_seated(d) == "JH"  # the last one
    d.play("1:pass", "2:pass").draws(1, 2)
    assert by_seated(d) == "draw"  # none left: the run is over
    d.draws(1, 2)
    assert d.hand(0).count("KD") == 1
    assert decision(d, "hunter") == "KD" and decision(d, "hunter:hold=1") == "KD"  # the default leads it
    assert by_seated(d) == "draw"  # one high card drawn since the run: it holds on until it has three


def test_hunter_hold_1_plays_every_game_as_the_default():
    """hold=1 goes through the run's bookkeeping yet leads whenever it holds a high card, as hold=0 (the
    default) does: the same games, card for card; hold=3 plays others."""
    import whistsim

    def games(spec):
        sim = whistsim.simulate("welsh", 60, 4, preset="akagiri", players=3, records=60, threads=1,
                                strategies=[spec, "greedy", spec])  # fmt: skip
        return [r["moves"] for r in sim.records]

    default = games("hunter")
    assert games("hunter:hold=1") == default and games("hunter:hold=0") == default
    assert games("hunter:hold=3") != default


def test_hunter_stops_hunting_when_the_stock_is_out():
    d = dealt([["JH", "4D"], ["2C", "3C"], ["5C", "6C"]], packs=1, taffies=2)
    while d.stock_left > 0:
        d.draws(d.seat)
    held = d.hand(d.seat)
    a = decision(d, "hunter")
    assert a != "draw" and (a in held or a.startswith("X="))


def test_smart_cheater_passes_rather_than_give_up_a_taffy():
    d = dealt([["AH", "2S"], ["X", "2C"], ["3C", "4C"]], revokes=True)
    d.play("0:AH")
    assert d.phase == E.FOLLOW and d.seat == 1
    assert decision(d, "cheater") == "pass"  # the Taffy would lose to the Ace
    assert decision(d, "greedy:cheat=smart") == "pass"  # any player takes the parameter
    assert decision(d, "cheater:rate=0") == "X"
    assert decision(d, "greedy") == "X"  # honest by default
    assert decision(d, "random:cheat=always") == "pass"
    assert decision(d, "random:false_pass=never") == "X"


def test_smart_cheater_follows_when_it_has_a_cheap_card_or_revokes_are_forbidden():
    d = dealt([["AH", "2S"], ["X", "3H"], ["3C", "4C"]], revokes=True)
    d.play("0:AH")
    assert decision(d, "cheater") == "3H"
    d = dealt([["AH", "2S"], ["X", "2C"], ["3C", "4C"]], revokes=False)
    d.play("0:AH")
    assert decision(d, "cheater") == "X"


def test_smart_cheater_keeps_a_ten_it_would_lose_but_follows_with_one_that_wins():
    d = dealt([["AH", "2S"], ["TH", "2C"], ["3C", "4C"]], revokes=True)
    d.play("0:AH")
    assert decision(d, "cheater") == "pass"
    d = dealt([["4H", "2S"], ["TH", "2C"], ["3C", "4C"]], revokes=True)
    d.play("0:4H")
    assert decision(d, "cheater") == "TH"


def test_counter_leads_a_card_that_cannot_be_beaten():
    # One pack, no Taffies: its own Ace is the only card above its King.
    d = dealt([["KS", "AS", "2D"], ["2C", "3C", "4C"], ["5C", "6C", "7C"]], packs=1, taffies=0)
    assert decision(d, "counter") == "KS"  # the King cannot be beaten; the Ace is kept
    assert decision(d, "greedy") == "AS"
    # With the Ace of spades unseen, the King could be beaten: counter draws, greedy leads it.
    d = dealt([["KS", "2D"], ["2C", "3C"], ["5C", "6C"]], packs=1, taffies=0)
    assert decision(d, "counter") == "draw"
    assert decision(d, "greedy") == "KS"


def test_counter_leads_a_queen_once_the_aces_and_kings_are_played():
    d = dealt([["QH", "2H", "3H", "4D"], ["AH", "KH", "4S", "5S"], ["AH", "KH", "5C", "6C"]], taffies=0)
    d.play("0:draw", "1:AH", "2:KH", "0:2H", "2:AH", "0:3H", "1:KH")
    assert d.seat == 0 and d.phase == E.TURN and d.stock_left > 0
    assert decision(d, "counter") == "QH"  # nothing unseen beats it; an equal Queen loses to it
    assert decision(d, "greedy") == "draw"


def test_greedy_wins_a_trick_holding_a_ten_cheaply_and_otherwise_plays_low():
    d = dealt([["TH", "5H", "6D"], ["QH", "AH", "2H"], ["2C", "3C", "4C"]])
    d.play("0:TH")
    assert decision(d, "greedy") == "QH"  # the cheapest card that takes the Ten
    assert decision(d, "counter") == "AH"  # seat 2 might hold the other Ace or a King
    d = dealt([["5H", "TH", "6D"], ["QH", "AH", "2H"], ["2C", "3C", "4C"]])
    d.play("0:5H")
    assert decision(d, "greedy") == "2H"
    assert decision(d, "counter") == "2H"


def test_a_player_banks_a_ten_that_surely_wins_as_last_to_answer():
    d = dealt([["5H", "6D"], ["2C", "3C"], ["TH", "2H"]])
    d.play("0:5H", "1:pass")
    assert d.seat == 2
    assert decision(d, "greedy") == "TH"


def test_hoarder_draws_while_the_stock_lasts_then_leads():
    d = dealt([["AS", "2D"], ["2C", "3C"], ["5C", "6C"]])
    assert decision(d, "hoarder") == "draw"
    assert decision(d, "greedy") == "AS"
    d = dealt([["AS", "2D"], ["2C", "3C"], ["5C", "6C"]], packs=1, taffies=0)
    while d.stock_left > 0:
        d.draws(d.seat)
    assert decision(d, "hoarder") != "draw"


def test_random_draw_rate():
    d = dealt([["AS", "2D"], ["2C", "3C"], ["5C", "6C"]])
    assert decision(d, "random:draw=1") == "draw"
    assert decision(d, "random:draw=0") in ("AS", "2D")


def test_pimc_takes_a_ten_it_can_win():
    d = dealt([["TH", "5H", "6D"], ["QH", "AH", "2H"], ["2C", "3C", "4C"]])
    d.play("0:TH")
    assert decision(d, "pimc:budget=40") in ("QH", "AH")


# ---- challenges ---------------------------------------------------------------


def _passed_trick(n: int, lead: str, challenge: str = "akagiri") -> Deal:
    """Seat 0 leads ``lead``; seats 1 and 2, with ``n`` clubs and diamonds each, pass."""
    clubs = [f"{r}{s}" for s in "CD" for r in "23456789JQKA"]
    hands = [[lead] + [f"{r}S" for r in "23456789JQKA"][: n - 1], clubs[:n], clubs[12 : 12 + n]]
    d = dealt(hands, revokes=True, challenge=challenge)
    d.play(f"0:{lead}", "1:pass", "2:pass")
    assert d.phase == E.CHALLENGE and d.seat == 0
    return d


def test_challenge_never_always_and_a_chance():
    d = _passed_trick(3, "2H")
    assert decision(d, "greedy:challenge=never") == "nochallenge"
    assert decision(d, "greedy:challenge=0") == "nochallenge"
    assert decision(d, "greedy:challenge=always").startswith("challenge=")
    assert decision(d, "random:challenge=1").startswith("challenge=")


def test_smart_challenge_weighs_the_odds():
    # A passer holding 12 cards most likely had a heart or a Taffy; the trick is worth 1.
    assert decision(_passed_trick(12, "2H"), "greedy").startswith("challenge=")
    # A passer of one card most likely had neither, and losing would cost a Ten.
    assert decision(_passed_trick(1, "TH"), "greedy") == "nochallenge"
    assert decision(_passed_trick(12, "2H", "parlett"), "greedy").startswith("challenge=")


def test_a_false_pass_is_exposed_by_a_later_play_of_the_suit():
    d = dealt([["AH", "2S"], ["3H", "2C"], ["3C", "4C"]], revokes=True)
    d.play("0:AH", "1:pass", "2:pass", "1:3H")
    t = d.buf[0]["table"]
    assert list(t["exposed"][:3]) == [0, 1, 0]
    assert list(t["led"][:3]) == [1, 1, 0] and list(t["drawn"][:3]) == [2, 2, 2]


def test_a_caught_revoke_is_exposed_and_its_hand_is_piled():
    d = dealt([["2H", "2S"], ["3H", "2C"], ["3C", "4C"]], revokes=True, challenge="akagiri")
    d.play("0:2H", "1:pass", "2:pass", "0:challenge=1")
    t = d.buf[0]["table"]
    assert t["exposed"][1] == 1
    assert t["piled"].sum() == 2  # 3H and 2C went from the hand to seat 0's pile


# ---- specs and parameters -------------------------------------------------------


def test_every_builtin_declares_cheat_and_challenge_first():
    for name, params in get_game("welsh").players.available().items():
        assert list(params)[:2] == ["cheat", "challenge"], name
        assert len(params) <= MAX_PARAMS


def test_word_values_become_codes():
    ids, params = seating("welsh", [parse_spec("greedy:cheat=smart,challenge=never"),
                                    parse_spec("cheater:rate=0.2,challenge=always"),
                                    parse_spec("pimc:budget=50,aim=margin")], 3)  # fmt: skip
    assert list(params[0, :2]) == [-1.0, 0.0]
    assert list(params[1, :2]) == [0.2, 1.0]
    assert params[2, 2] == 50 and params[2, 5] == 1.0
    assert ids[0] != ids[1] != ids[2]


@pytest.mark.parametrize(
    "spec, message",
    [
        ("nobody", "seat 1: unknown strategy 'nobody'"),
        ("greedy:bluff=1", "seat 1: strategy 'greedy' has no parameter 'bluff'"),
        (
            "greedy:cheat=sometimes",
            "seat 1: strategy 'greedy' parameter cheat=sometimes: expected a number from 0 to 1",
        ),
        ("greedy:challenge=1.5", "seat 1: strategy 'greedy' parameter challenge=1.5"),
        ("pimc:aim=0", "seat 1: strategy 'pimc' parameter aim=0: expected points or margin"),
        ("cheater:rate=0.1,cheat=0.2", "seat 1: parameter 'cheat' of 'cheater' is given twice"),
    ],
)
def test_bad_specs_name_the_seat_and_the_parameter(spec, message):
    with pytest.raises(StrategyError) as e:
        seating("welsh", [parse_spec("random"), parse_spec(spec), parse_spec("random")], 3)
    assert message in str(e.value)
    assert "\n" not in str(e.value)


def test_spec_text_round_trips():
    s = parse_spec("greedy:cheat=smart,challenge=0.25")
    assert s.params == {"cheat": "smart", "challenge": 0.25}
    assert str(s) == "greedy:cheat=smart,challenge=0.25"
    u = parse_spec("dir/mine.py:decide:x=1")
    assert u.name == "dir/mine.py:decide" and u.user == ("dir/mine.py", "decide") and u.params == {"x": 1.0}
    with pytest.raises(StrategyError, match="not KEY=VALUE"):
        parse_spec("random:draw")


def test_param_codes():
    p = Param("smart", "doc", {"never": 0.0, "smart": -1.0}, 0.0, 1.0)
    assert p.code("SMART") == -1.0 and p.code(0.5) == 0.5 and p.code("0.5") == 0.5
    for bad in ("2", True, "nan", "maybe"):
        with pytest.raises(ValueError):
            p.code(bad)
    assert p.expected() == "a number from 0 to 1, never or smart"


def test_strategies_command_lists_players_and_parameters():
    from click.testing import CliRunner

    from whistsim.cli import main

    out = CliRunner().invoke(main, ["strategies", "--game", "welsh"])
    assert out.exit_code == 0, out.output
    for name in ("random", "greedy", "hunter", "hoarder", "counter", "cheater", "pimc"):
        assert f"\n{name}: " in out.output
    assert "cheat=0 (also false_pass, rate)" in out.output and "budget=100" in out.output


def test_cli_strategy_errors_are_one_line():
    from click.testing import CliRunner

    from whistsim.cli import main

    out = CliRunner().invoke(main, ["simulate", "--n", "5", "--strategy", "2=cheater:rate=lots"])
    assert out.exit_code == 2
    assert out.output.strip().splitlines() == [
        "whistsim: error: seat 2: strategy 'cheater' parameter rate=lots: expected a number from 0 to 1, "
        "never, always, smart or policy"
    ]


def test_seating_spreads_one_spec_and_counts_seats():
    ids, params = seating("welsh", [parse_spec("hoarder")], 4)
    assert len(set(ids.tolist())) == 1 and params.shape == (4, MAX_PARAMS)
    with pytest.raises(StrategyError, match="2 strategies given for 3 seats"):
        seating("welsh", [parse_spec("random"), parse_spec("greedy")], 3)
    assert np.all(params[:, 1] == -1.0)  # challenge=smart by default
