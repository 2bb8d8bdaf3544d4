"""``whistsim play``: a deal against the built-in players, typed or scripted, shown as the seat sees it."""

import json

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from whistsim.api import judge
from whistsim.cli import main
from whistsim.core.cards import parse_card
from whistsim.tools.terminal import IllegalMove, Table, play_game


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


@pytest.mark.parametrize("game", ["welsh", "scotch", "whist"])
def test_scripted_play_on_hints_finishes_the_deal_and_its_record_replays(game, tmp_path):
    path = tmp_path / "game.jsonl"
    r = run("play", "--game", game, "--seed", 5, "--record", path, input="\n" * 2000)
    assert r.exit_code == 0, r.output
    assert "the deal is over" in r.output
    lines = path.read_text().splitlines()
    assert len(lines) == 1
    j = judge(0, lines[0])
    assert j.ok, (j.error, j.stored)
    record = json.loads(lines[0])
    assert record["strategies"][0] == "you"
    replayed = run("replay", path)
    assert replayed.exit_code == 0, replayed.output


def test_typed_moves_equal_to_the_hints_make_the_same_deal_as_hints_alone():
    t = Table("whist", seed=3)
    t.advance()
    typed = []
    while not t.over:
        move = t.hint()
        typed.append(move)
        t.move(move)
        t.advance()
    auto = play_game("whist", seed=3)
    assert auto.record == t.record()
    # the same deal from typed lines, with a "?" and an illegal move among them
    mixed = play_game("whist", seed=3, moves=["?", "ZZ", *typed])
    assert mixed.record == auto.record
    assert any(line.startswith("legal moves: ") for line in mixed.transcript)
    assert any(line.startswith("illegal: ") for line in mixed.transcript)


def test_an_illegal_move_is_explained_and_the_same_seat_is_asked_again():
    # Welsh Whist with revokes forbidden: a pass while able to follow is refused.
    t = Table("welsh", seed=1, strategies=["greedy"])
    t.advance()
    while not t.over:
        own = t.d.buf[0]["seats"][0]
        follow = t.d.buf[0]["table"]["s"][t.d.E.S_PHASE] == t.d.E.FOLLOW
        if follow and "pass" not in t.legal():
            before = list(t.moves)
            with pytest.raises(IllegalMove, match="revokes are not allowed"):
                t.move("pass")
            assert t.moves == before and t.to_move() == 0
            break
        assert own is not None
        t.move(t.hint())
        t.advance()
    else:
        pytest.fail("seat 0 never had to follow")


def test_the_legal_moves_listed_are_exactly_those_the_rules_accept():
    t = Table("scotch", seed=2)
    t.advance()
    legal = t.legal()
    hand = t.view().splitlines()[0]
    assert legal and all(t.d.step_kernel.step(t.d.buf.copy(), parse_card(m)) == 0 for m in legal)
    for c in range(52):
        if t.d.step_kernel.step(t.d.buf.copy(), c) == 0:
            assert t.d.name(c) in legal
    assert hand.startswith("your hand (seat 0")


def test_the_view_shows_only_what_the_seat_may_see():
    # Whist: at the start the only cards shown are the seat's own hand and the turn-up.
    t = Table("whist", seed=4, seat=1)
    t.advance()
    own = {c for c in range(52) if (int(t.d.seats()[1]["bits"][c // 13]) >> (c % 13)) & 1}
    turnup = int(t.d.holder()["table"]["s"][t.d.E.S_TURNUP])
    played = [
        int(x)
        for x in t.d.holder()["table"]["trick_card"][: int(t.d.holder()["table"]["s"][t.d.E.S_TRICK_LEN])]
    ]
    shown = _cards_in(t.view())
    assert shown <= own | {turnup} | set(played)
    # Welsh: after the first draws the seat sees its own cards only, never the stock or other hands.
    w = Table("welsh", seed=4)
    w.advance()
    hand = w.d.buf[0]["seats"][0]["hand"]
    assert _cards_in(w.view()) <= {c for c in range(53) if hand[c] > 0}


def _cards_in(text: str) -> set[int]:
    from whistsim.core.cards import pretty_card

    names = {pretty_card(c): c for c in range(53)}
    return {names[w] for w in text.replace(":", " ").split() if w in names}


def test_others_draws_are_told_without_the_card():
    out = play_game("welsh", seed=6)
    draws = [line for line in out.transcript if "draws" in line]
    assert draws and all(line.endswith("draws") for line in draws)


def test_bad_seat_and_input_ending_early_are_one_line_errors():
    r = run("play", "--game", "whist", "--seat", 9, input="")
    assert r.exit_code == 2 and "--seat 9" in r.stderr
    r = run("play", "--game", "whist", "--seed", 1, input="\n\n")
    assert r.exit_code == 2 and "input ended" in r.stderr


def _trick_cards(t) -> set[int]:
    table = t.d.holder()["table"]
    s = table["s"]
    n = int(s[t.d.E.S_TRICK_LEN])
    return {int(c) for c in table["trick_card"][:n]}


def _own_cards(t) -> set[int]:
    own = t.d.seats()[t.seat]
    if t.game == "welsh":
        return {c for c in range(53) if own["hand"][c] > 0}
    return {c for c in range(52) if (int(own["bits"][c // 13]) >> (c % 13)) & 1}


@settings(max_examples=8, deadline=None)
@given(game=st.sampled_from(["welsh", "scotch", "whist"]), seed=st.integers(0, 2**31), seat=st.integers(0, 2))
def test_at_every_decision_the_view_shows_no_card_the_seat_may_not_see(game, seed, seat):
    t = Table(game, seed=seed, seat=seat)
    t.advance()
    public = set()
    if game != "welsh":
        public.add(int(t.d.holder()["table"]["s"][t.d.E.S_TURNUP]))
    while not t.over:
        assert _cards_in(t.view()) <= _own_cards(t) | _trick_cards(t) | public
        t.move(t.hint())
        t.advance()
    assert judge(0, json.dumps(t.record())).ok


@pytest.mark.parametrize("game", ["welsh", "scotch", "whist"])
def test_the_terminal_display_shows_the_plain_views_facts_with_the_hand_by_suit(game):
    from rich.console import Console

    from whistsim.core.cards import SUIT_WORDS, pretty_card
    from whistsim.tools.terminal import rich_view

    t = Table(game, seed=5)
    t.advance()
    t.move(t.hint())
    t.advance()
    v = t.facts()
    console = Console(width=100, record=True, force_terminal=False)
    console.print(rich_view(v))
    text = console.export_text()
    lines = text.splitlines()
    assert lines[0] == v.label and v.hand
    for suit in sorted({c // 13 for c in v.hand if c < 52}):  # one line per suit, its cards in order
        row = next(x for x in lines if x.split() and x.split()[0] == SUIT_WORDS[suit])
        assert row.split()[1:] == [pretty_card(c) for c in v.hand if c < 52 and c // 13 == suit]
    for line in [*v.before, *v.after]:  # the public facts, as in the plain view
        assert line in lines and line in t.view()
    mine = next(x for x in lines if x.split()[:1] == ["0"])
    assert "(you)" in mine and [*map(str, v.rows[0][:-1]), v.rows[0][-1]] == mine.split()[:5]


def test_piped_play_stays_plain_text():
    r = run("play", "--game", "whist", "--seed", 5, input="\n" * 200)
    assert r.exit_code == 0 and "your hand (seat 0, side 0): " in r.output and "\x1b[" not in r.output
