"""``whistsim.new_game``: a deal played a move at a time on the kernels' own rules engine."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import whistsim
from whistsim.core.cards import RANKS, SUITS, parse_card, pretty_card
from whistsim.game import GameState, IllegalMove, new_game

# Every text a move could be, written independently of the engine's own list.
CARDS = [r + s for s in SUITS for r in RANKS]
WELSH_WORDS = ["X", "draw", "pass", "nochallenge", *(f"challenge={q}" for q in range(6)),
               *(f"X={s}" for s in SUITS)]  # fmt: skip


def candidates(g: GameState) -> list[str]:
    return CARDS + (WELSH_WORDS if g.game == "welsh" else [])


def own_cards(g: GameState, seat: int) -> set[int]:
    own = g._d.seats()[seat]
    if g.game == "welsh":
        return {c for c in range(53) if own["hand"][c] > 0}
    return {c for c in range(52) if (int(own["bits"][c // 13]) >> (c % 13)) & 1}


def trick_cards(g: GameState) -> set[int]:
    """The cards of the trick under way, or of the one just finished (face up either way)."""
    t = g._d.holder()["table"]
    return {int(c) for c in t["trick_card"][: int(t["s"][g._d.E.S_TRICK_LEN])]}


def cards_named(text: str) -> set[int]:
    names = {pretty_card(c): c for c in range(53)}
    return {
        names[w] for w in text.replace(":", " ").replace(",", " ").replace(")", " ").split() if w in names
    }


def snapshot(g: GameState):
    return g._d.buf.tobytes(), g.moves, g.to_move


# The same deals the kernels play: each seat's moves chosen by the player simulate seats there.
KERNEL_CASES = [
    ("welsh", None, {}, ["random"]),
    ("welsh", None, {}, ["greedy", "counter", "random"]),
    ("welsh", None, {"revokes": True, "challenge": "parlett"}, ["cheater", "greedy", "counter"]),
    ("welsh", None, {"revokes": True, "challenge": "parlett"}, ["random", "cheater:rate=0.3", "greedy"]),
    ("scotch", None, {}, ["heuristic", "random", "random", "heuristic"]),
    ("scotch", "french", {}, ["heuristic"]),
    ("whist", None, {}, ["heuristic", "random", "heuristic", "random"]),
    ("whist", None, {"revokes": True}, ["random"]),
]


@pytest.mark.parametrize("game,preset,rules,strategies", KERNEL_CASES)
@pytest.mark.parametrize("seed", [1, 8, 2026])
def test_a_deal_played_by_the_players_simulate_seats_is_the_deal_simulate_plays(game, preset, rules, strategies,
                                                                                  seed):  # fmt: skip
    sim = whistsim.simulate(game, 1, seed, preset=preset, rules=rules, strategies=strategies, records=1)
    g = new_game(game, seed=seed, preset=preset, rules=rules)
    seats = strategies * g.players if len(strategies) == 1 else strategies
    while not g.done:
        g.play_bot(seats[g.to_move])
    expected = sim.records[0]
    assert g.moves == expected["moves"]
    assert g.result() == expected["result"]
    record = g.record()
    assert {k: v for k, v in record.items() if k != "strategies"} == {
        k: v for k, v in expected.items() if k != "strategies"
    }
    assert whistsim.judge(0, json.dumps(record)).ok


def test_a_decision_the_rules_force_is_made_without_asking_the_player():
    # Welsh Whist, revokes allowed: a random player asked to follow draws a chance to pass falsely,
    # but a seat unable to follow must pass, and the kernels never ask it (engine.forced).
    rules = {"revokes": True, "challenge": "parlett"}
    sim = whistsim.simulate("welsh", 1, 1, rules=rules, strategies=["random"], records=1)
    g = new_game("welsh", seed=1, rules=rules)
    forced = 0
    while not g.done:
        if g._d.step_kernel.forced(g._d.buf[0]) >= 0:
            forced += 1
            before = snapshot(g)
            assert g.suggest("random") == g.legal_moves()[0] and snapshot(g) == before
        g.play_bot("random")
    assert forced and g.moves == sim.records[0]["moves"]


@pytest.mark.parametrize(
    "game,preset", [("welsh", None), ("scotch", None), ("scotch", "french"), ("whist", None)]
)
def test_typed_random_legal_moves_make_a_record_replay_accepts_with_the_objects_result(game, preset):
    import random

    rng = random.Random(7)
    g = new_game(game, seed=11, preset=preset)
    while not g.done:
        g.play(rng.choice(g.legal_moves()))
    j = whistsim.judge(0, json.dumps(g.record()))
    assert j.ok and j.result == g.result()
    assert set(g.record()["strategies"]) == {"typed"}


@settings(max_examples=6, deadline=None)
@given(
    game=st.sampled_from([("welsh", None, {}), ("welsh", None, {"revokes": True, "challenge": "parlett"}),
                          ("scotch", None, {}), ("scotch", "french", {}), ("whist", None, {"revokes": True})]),
    seed=st.integers(0, 2**31),
    data=st.data(),
)  # fmt: skip
def test_at_every_step_the_legal_moves_are_what_play_accepts_and_views_show_no_other_hand(game, seed, data):
    name, preset, rules = game
    g = new_game(name, seed=seed, preset=preset, rules=rules)
    public = set() if name == "welsh" else {int(g._d.holder()["table"]["s"][g._d.E.S_TURNUP])}
    while not g.done:
        legal = g.legal_moves()
        assert legal and len(set(legal)) == len(legal)
        before = snapshot(g)
        accepted = []
        for text in candidates(g):
            try:
                probe = g.copy()
                probe.play(text)
                accepted.append(g._d.name(g._d.parse(text)))
            except IllegalMove:
                with pytest.raises(IllegalMove):
                    g.play(text)  # refused on the state itself too, and it changes nothing
                assert snapshot(g) == before
        assert set(accepted) == set(legal)
        for seat in range(g.players):
            v = g.view(seat)
            own = own_cards(g, seat)
            assert {parse_card(c) for c in v.hand} == own
            assert {parse_card(c) for _, c in v.trick} <= trick_cards(g)  # the cards on the table, face up
            assert cards_named(str(v)) <= own | trick_cards(g) | public
        g.play(data.draw(st.sampled_from(legal)))
    assert whistsim.judge(0, json.dumps(g.record())).ok


def test_an_illegal_move_names_its_reason_and_changes_nothing():
    # Whist, revokes not allowed: seat 1 holding the led suit may not discard another.
    g = new_game("whist", seed=5)
    g.play("6C")
    hand = g.view(1).hand
    assert any(c.endswith("C") for c in hand)
    other = next(c for c in hand if not c.endswith("C"))
    before = snapshot(g)
    with pytest.raises(IllegalMove, match="illegal: ") as e:
        g.play(other)
    assert isinstance(e.value, whistsim.WhistsimError)
    assert snapshot(g) == before
    for bad, why in [
        ("ZZ", "not a card"),
        ("0:9C", "seat 1's move"),
        (7, "a move is text"),
        ("AS", "illegal"),
    ]:
        with pytest.raises(IllegalMove, match=why):
            g.play(bad)
        assert snapshot(g) == before


def test_a_move_written_with_its_seat_as_records_write_it_is_accepted():
    g = new_game("whist", seed=5)
    g.play("0:6C")
    assert g.moves == ["0:6C"] and g.to_move == 1


def test_before_the_end_there_is_no_result_and_after_it_no_move():
    g = new_game("whist", seed=3)
    with pytest.raises(whistsim.WhistsimError, match="not over: seat 0 to move"):
        g.result()
    assert "result" not in g.record() and g.record()["moves"] == []
    while not g.done:
        g.play_bot("random")
    assert g.to_move is None and g.legal_moves() == []
    for act in (lambda: g.play("2C"), lambda: g.play_bot("random"), lambda: g.suggest("heuristic")):
        with pytest.raises(IllegalMove, match="the deal is over"):
            act()
    assert g.record()["strategies"] == ["random"] * 4


def test_asking_a_player_changes_nothing_and_it_names_the_move_it_then_makes():
    g = new_game("welsh", seed=4, rules={"revokes": True, "challenge": "parlett"})
    for _ in range(30):
        before = snapshot(g)
        asked = g.suggest("cheater")
        assert snapshot(g) == before  # not even the seat's random stream moves
        assert g.play_bot("cheater") == asked
    assert len(g.moves) == 30


def test_asking_one_player_then_another_leaves_the_deal_as_if_none_was_asked():
    asked, plain = new_game("whist", seed=6), new_game("whist", seed=6)
    while not plain.done:
        asked.suggest("random")
        asked.suggest("heuristic")
        asked.play_bot("heuristic")
        plain.play_bot("heuristic")
    assert asked.moves == plain.moves and asked.result() == plain.result()


def test_a_copy_plays_on_alone_and_as_the_original_would():
    g = new_game("welsh", seed=5, rules={"revokes": True})
    for _ in range(12):
        g.play_bot("greedy")
    before = snapshot(g)
    twin = g.copy()
    while not twin.done:
        twin.play_bot("random")
    assert snapshot(g) == before and not g.done  # the original is untouched
    while not g.done:
        g.play_bot("random")
    assert g.moves == twin.moves and g.result() == twin.result()
    assert g.record() == twin.record()


def test_user_functions_bad_seats_and_bad_first_seats_are_one_line_errors():
    g = new_game("whist", seed=1)
    with pytest.raises(whistsim.WhistsimError, match="built-in player"):
        g.suggest("mine.py:decide")
    with pytest.raises(whistsim.WhistsimError, match="unknown strategy"):
        g.play_bot("nosuch")
    with pytest.raises(whistsim.WhistsimError, match="seat 4: expected a seat from 0 to 3"):
        g.view(4)
    with pytest.raises(whistsim.WhistsimError, match="seat True: expected a seat"):
        g.view(True)
    with pytest.raises(whistsim.WhistsimError, match="first seat 3: expected a seat from 0 to 2"):
        new_game("welsh", first=3)


def test_the_first_seat_chosen_moves_first_as_in_simulate():
    sim = whistsim.simulate("welsh", 1, 9, first=2, records=1)
    g = new_game("welsh", seed=9, first=2)
    assert g.to_move == 2 and g.record()["first"] == sim.records[0]["first"] == 2


def test_a_view_gives_the_seats_public_figures_by_name():
    g = new_game("whist", seed=5)
    g.play("6C")
    v = g.view(2)
    assert v.seat == 2 and v.trick == [(0, "6C")] and len(v.hand) == 13
    assert [s["hand"] for s in v.seats] == [12, 13, 13, 13]
    assert set(v.seats[0]) == {"seat", "side", "tricks", "hand", "shown_void_in"}
    assert any(line.startswith("trumps: ") for line in v.facts)
    assert str(v).splitlines()[0] == "your hand (seat 2, side 0): " + " ".join(
        pretty_card(parse_card(c)) for c in v.hand
    )


def test_what_happened_is_told_without_naming_a_drawn_card():
    g = new_game("welsh", seed=2)
    assert g.play("draw") == ["seat 0 draws"]


def test_dir_shows_every_public_name_the_lazy_ones_included():
    listed = dir(whistsim)
    for name in whistsim.__all__:
        assert name in listed, name
        assert getattr(whistsim, name) is not None
    assert {"compare", "play_game", "run_experiment", "load_results", "new_game"} <= set(whistsim.__all__)
    assert set(whistsim._LAZY) <= set(whistsim.__all__)


def test_each_moves_events_say_what_it_did_a_lead_opens_a_trick_and_the_winner_takes_it():
    g = new_game("whist", seed=4)
    q = g.to_move
    g.play(g.legal_moves()[0])
    assert [(k, s) for k, s, *_ in g.events] == [("lead", q)]
    while len(g.moves) < 4:
        g.play_bot("random")
    kinds = [k for k, *_ in g.events]
    assert kinds[0] == "follow" and "trick" in kinds
    winner = next(s for k, s, *_ in g.events if k == "trick")
    assert g.to_move == winner  # the trick's winner leads the next
    assert g.copy().events == g.events


def test_an_oh_hell_bid_plays_no_card_so_reports_no_trick_event():
    g = new_game("ohhell", seed=2)
    g.play(g.legal_moves()[0])
    assert g.moves[-1].partition(":")[2].startswith("bid")
    kinds = {k for k, *_ in g.events}
    assert "bid" in kinds and not kinds & {"lead", "follow", "trick"}
