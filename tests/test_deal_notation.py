"""Deals as text (docs/records.md, "Deals as text"): the notation round-trips for every game,
a parsed deal replays to the result of the record it came from, bad text is one line, and a
game started from a deal (Python or ``whistsim play --deal``) gives a record replay accepts."""

import json

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import whistsim
from whistsim.cli import main
from whistsim.core.options import WhistsimError
from whistsim.deals import format_deal, parse_deal

DEAL_FIELDS = {
    "whist": ("game", "rules", "dealer", "hands", "trump"),
    "scotch": ("game", "rules", "dealer", "hands", "trump", "aside"),
    "welsh": ("game", "rules", "first", "deck"),
}

# Every game, player count and pack the notation has to say: (game, simulate's keyword arguments).
CONFIGS = [
    ("whist", {}),
    ("whist", {"preset": "short", "rules": {"revokes": True, "revoke_penalty": 5}}),
    *[("scotch", {"players": p}) for p in range(2, 9)],
    ("scotch", {"players": 5, "rules": {"odd_six": "aside"}}),
    ("scotch", {"players": 7, "rules": {"odd_six": "aside", "target": 31}}),
    ("scotch", {"players": 6, "rules": {"teams": "threes"}}),
    ("scotch", {"players": 8, "rules": {"teams": "pairs", "revokes": True}}),
    ("scotch", {"preset": "french"}),
    ("scotch", {"preset": "french", "players": 2}),
    ("scotch", {"preset": "french", "players": 3}),
    *[("welsh", {"players": p}) for p in (2, 3, 4, 5, 6)],
    *[("welsh", {"preset": "akagiri", "players": p}) for p in (3, 4, 6)],
    ("welsh", {"players": 3, "rules": {"packs": 1, "taffies": 0}}),
    (
        "welsh",
        {
            "players": 4,
            "rules": {"packs": 3, "taffies": 7, "scoring": "piles", "challenge": "parlett", "revokes": True},
        },
    ),  # fmt: skip
]

WHIST = "whist N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"


def _records(game: str, kw: dict, seed: int) -> list[dict]:
    return whistsim.simulate(game, 1, seed, records=1, **kw).records


@settings(max_examples=60, deadline=None)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**31 - 1))
def test_the_notation_keeps_every_games_deal_and_rules(config, seed):
    game, kw = config
    for r in _records(game, kw, seed):
        text = format_deal(r)
        back = parse_deal(text)
        assert {k: back[k] for k in DEAL_FIELDS[game]} == {k: r[k] for k in DEAL_FIELDS[game]}, text
        assert back["moves"] == [] and set(back) == {*DEAL_FIELDS[game], "moves"}
        assert format_deal(back) == text


@settings(max_examples=25, deadline=None)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**31 - 1))
def test_a_deal_read_from_its_text_replays_the_original_moves_to_the_original_result(config, seed):
    game, kw = config
    r = _records(game, kw, seed)[-1]
    back = parse_deal(format_deal(r))
    j = whistsim.judge(0, json.dumps({**back, "moves": r["moves"], "result": r["result"]}))
    assert j.ok and j.result == r["result"], j


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c[0]}-{c[1]}" if isinstance(c, tuple) else None)
def test_every_configuration_round_trips_on_a_fixed_seed(config):
    game, kw = config
    for r in _records(game, kw, 11):
        assert {k: parse_deal(format_deal(r))[k] for k in DEAL_FIELDS[game]} == {
            k: r[k] for k in DEAL_FIELDS[game]
        }


# ---- how the text may be written ------------------------------------------------------------


def test_whist_hands_are_read_from_the_seat_named_first_clockwise():
    north_first = parse_deal(WHIST + " trump=2S")
    west_first = parse_deal(
        "whist W:2.5432.5432.5432 AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 trump=2S"
    )
    numbered = parse_deal(WHIST.replace("N:", "0:") + " trump=2S dealer=3")
    assert north_first == west_first == numbered
    assert north_first["hands"][0][0] == [
        "QC",
        "KC",
        "AC",
        "QD",
        "KD",
        "AD",
        "QH",
        "KH",
        "AH",
        "JS",
        "QS",
        "KS",
        "AS",
    ]


def test_the_dealer_is_the_last_seat_unless_named_and_first_names_the_dealers_left():
    assert parse_deal(WHIST + " trump=2S")["dealer"] == 3
    assert parse_deal(WHIST + " trump=AS dealer=N")["dealer"] == 0
    assert parse_deal(WHIST + " trump=AS first=E")["dealer"] == 0
    assert parse_deal(WHIST + " trump=TS dealer=1")["dealer"] == 1


def test_a_trump_suit_turns_the_dealers_lowest_card_of_it_and_by_default_its_highest_suit():
    assert parse_deal(WHIST + " dealer=S trump=H")["trump"] == "6H"
    assert parse_deal(WHIST + " dealer=S")["trump"] == "3S"
    assert parse_deal(WHIST)["trump"] == "2S"  # West deals: its only spade
    assert (
        parse_deal("whist N:...AKQJT98765432 .AKQJT98765432.. AKQJT98765432... ..AKQJT98765432.")["trump"]
        == "2D"
    )


def test_voids_tens_and_small_letters_are_read_as_people_write_them():
    plain = parse_deal(WHIST + " trump=2S")
    assert parse_deal(WHIST.lower().replace("whist n:", "N:").replace("t", "10") + " trump=2s") == plain
    void = parse_deal(
        "whist N:AKQJT98765432... -.AKQJT98765432.-.- ..AKQJT98765432. ...AKQJT98765432 trump=2C"
    )
    assert void["hands"][0][1][0] == "2H"


def test_rules_come_from_words_in_the_text_and_from_the_caller_when_they_agree():
    r = parse_deal(WHIST + " trump=2S target=5 honours=false")
    assert r["rules"] == {"target": 5, "honours": False, "revokes": False, "revoke_penalty": 3}
    assert parse_deal(WHIST + " trump=2S", preset="short")["rules"] == r["rules"]
    assert (
        parse_deal(WHIST + " trump=2S target=5", rules={"target": "5", "honours": False})["rules"]
        == r["rules"]
    )
    with pytest.raises(WhistsimError, match="the text says target=5, but the rules given say target=7"):
        parse_deal(WHIST + " trump=2S target=5", rules={"target": 7})


def test_the_game_is_named_by_its_word_by_the_caller_or_by_the_shape_of_the_deal():
    french = "0:AKQ.AK.AK.AK JT9.QJ.QJ.QJ 876.T9.T9.T9 .876.876.876 dealer=0 trump=AS"
    assert parse_deal(french)["rules"]["french"] is False  # four hands of nine: Scotch Whist
    assert parse_deal("french " + french)["rules"]["french"] is True
    assert parse_deal(french, "french") == parse_deal("french " + french)
    assert parse_deal(WHIST + " trump=2S")["game"] == parse_deal(WHIST[6:] + " trump=2S")["game"] == "whist"
    stock = " ".join(c for c in [f"{r}{s}" for s in "CDHS" for r in "23456789TJQKA"] * 2) + " X X"
    welsh = parse_deal("stock: " + stock + " players=4 first=2")
    assert welsh["game"] == "welsh" and welsh["first"] == 2 and welsh["deck"][-1] == "X"
    assert welsh["rules"]["packs"] == 2 and welsh["rules"]["taffies"] == 2 and welsh["rules"]["players"] == 4
    assert parse_deal(stock, "welsh", players=4, rules={"taffy_rank": 10})["rules"]["taffy_rank"] == 10


def test_scotch_sets_are_parted_by_a_slash_and_the_card_laid_aside_is_a_word():
    r = _records("scotch", {"players": 2}, 4)[0]
    text = format_deal(r)
    assert text.count(" / ") == 2
    aside = _records("scotch", {"players": 7, "rules": {"odd_six": "aside"}}, 4)[0]
    assert f"aside={aside['aside']}" in format_deal(aside)
    assert parse_deal(format_deal(aside))["rules"]["odd_six"] == "aside"


# ---- bad text: one line each -----------------------------------------------------------------

E13 = "KQJT.AK73.T2.T95"
GOOD = f"whist N:A75.J5.AKJ.A8742 {E13} 96.42.Q98754.J63 8432.QT986.63.KQ"
PERFECT = "whist N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
STOCK = " ".join(f"{r}{s}" for s in "CDHS" for r in "23456789TJQKA")


@pytest.mark.parametrize(
    "text, kw, says",
    [
        ("", {}, "the text is empty"),
        (GOOD.replace(E13, "KQJT.AK73.T2.T9"), {}, "seat E holds 12 cards, expected 13"),
        (GOOD.replace(E13, "KQJT.AK73.T2.T9A"), {}, "AC is dealt twice (seat N and seat E)"),
        (GOOD.replace(E13, "KQJT.AK73.T2.T9Z"), {}, "'Z' in 'KQJT.AK73.T2.T9Z' is not a rank"),
        (GOOD.replace(E13, "KQJT.AK73.T2"), {}, "seat E: 'KQJT.AK73.T2' has 3 suits, expected 4"),
        (GOOD + " trump=AS", {}, "trump=AS: the turned card must be in the dealer's (seat W) hand"),
        (GOOD + " trump=7X", {}, "trump=7X: not a card"),
        (PERFECT + " dealer=E trump=S", {}, "deal: trump=S: the dealer (seat E) holds no spade to turn"),
        (GOOD + " dealer=Q", {}, "dealer= 'Q': expected a seat number"),
        (GOOD + " dealer=7", {}, "dealer= 7: expected a seat from 0 to 3"),
        (GOOD + " dealer=N first=N", {}, "the first to play is the dealer's left, seat E"),
        (GOOD + " target=6", {}, "rule target='6': expected one of 5, 7, 10"),
        (GOOD + " colour=red", {}, "unknown rule 'colour'"),
        (GOOD + " trump=2C trump=3C", {}, "trump= is given twice"),
        ("whist N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432.", {}, "Whist is four hands of 13 cards"),
        ("bridge " + GOOD[6:], {}, "unknown game 'bridge'"),
        (GOOD, {"game": "scotch"}, "the text is a whist deal, but the game asked for is scotch"),
        (
            "scotch 0:AKQ.AK.AK.AK JT9.QJ.QJ.QJ 876.T9.T9.T9 .876.876.8762",
            {},
            "seat 3 holds 10 cards, expected 9",
        ),
        (
            "scotch 0:AKQ.AK.AK.AK JT9.QJ.QJ.QJ 876.T9.T9.T9 .876.876.872 trump=AS dealer=0",
            {},
            "seat 3 holds 2C, which is not in the pack for 4 players (6 to Ace)",
        ),
        (
            "scotch 0:AKQ.AK.AK.AK JT9.QJ.QJ.QJ 876.T9.T9.T9 .876.876.876 dealer=0 trump=AS",
            {"players": 5},
            "the deal has 4 players, but 5 were asked for",
        ),
        ("scotch 0:AKQ.AK.AK.AK.Q JT9.QJ.QJ.QJ 876.T9.T9.T9", {}, "has 5 suits"),
        ("scotch 0:AKQ.AK.. JT9.QJ.. 876.T9..", {}, "with 3 players the deal is 2 set(s) of hands"),
        ("scotch N:AKQ... JT9... 876...", {}, "seat letters N E S W are for four players"),
        ("welsh stock: " + STOCK + " 2C", {}, "the stock is not whole packs: it holds 2C twice but 3C once"),
        ("welsh stock: " + STOCK + " ZZ", {}, "stock card 53: 'ZZ' is not a card"),
        ("welsh stock: " + STOCK + " trump=2C", {}, "trump= is not a Welsh Whist word"),
        ("welsh stock: " + STOCK + " players=3 first=3", {}, "first= 3: expected a seat from 0 to 2"),
        ("welsh players=13 stock: " + STOCK, {}, "Welsh Whist takes 2 to 12 players"),
    ],
)
def test_bad_deal_text_is_one_line_saying_what_is_wrong(text, kw, says):
    with pytest.raises(WhistsimError) as e:
        parse_deal(text, **kw)
    message = str(e.value)
    assert message.startswith("deal: ") and "\n" not in message, message
    assert says in message, message


def test_the_card_laid_aside_is_required_when_the_rules_lay_one_aside_and_must_not_be_dealt():
    r = _records("scotch", {"players": 5, "rules": {"odd_six": "aside"}}, 2)[0]
    text = format_deal(r)
    without = text.replace(f" aside={r['aside']}", "")
    with pytest.raises(WhistsimError, match="aside= must name the card laid aside"):
        parse_deal(without + " odd_six=aside")
    dealt = r["hands"][0][0][0]
    with pytest.raises(WhistsimError, match=f"the card laid aside, {dealt}, is also dealt to seat 0"):
        parse_deal(text.replace(f"aside={r['aside']}", f"aside={dealt}"))


def test_a_record_with_a_bad_deal_cannot_be_formatted():
    r = _records("whist", {}, 1)[0]
    bad = {**r, "trump": "XX"}
    with pytest.raises(WhistsimError, match="^deal: trump: not a card"):
        format_deal(bad)
    with pytest.raises(WhistsimError, match="unknown game"):
        format_deal({**r, "game": "bridge"})


# ---- a game started from a deal ----------------------------------------------------------------

TEXTS = [
    WHIST + " trump=2S",
    "french 0:AKQ.AK.AK.AK JT9.QJ.QJ.QJ 876.T9.T9.T9 .876.876.876 dealer=0 trump=AS",
]


@pytest.mark.parametrize("config", [CONFIGS[0], CONFIGS[2], CONFIGS[7], CONFIGS[10], CONFIGS[15]])
def test_a_game_started_from_a_text_deal_and_played_by_bots_is_judged_ok(config):
    game, kw = config
    text = format_deal(_records(game, kw, 8)[0])
    g = whistsim.new_game(deal=text, seed=3)
    assert g.moves == [] and g.record()["seed"] == {"run": 3}
    while not g.done:
        g.play_bot("random")
    record = g.record()
    assert {k: record[k] for k in DEAL_FIELDS[game]} == {k: parse_deal(text)[k] for k in DEAL_FIELDS[game]}
    j = whistsim.judge(0, json.dumps(record))
    assert j.ok and j.result == record["result"], j


@pytest.mark.parametrize("text", TEXTS)
def test_the_heuristic_player_finishes_a_hand_written_deal(text):
    g = whistsim.new_game(deal=text, seed=1)
    while not g.done:
        g.play_bot("heuristic")
    assert whistsim.judge(0, json.dumps(g.record())).ok


def test_a_record_given_as_the_deal_is_played_from_its_moves():
    r = _records("whist", {}, 6)[0]
    whole = whistsim.new_game(deal=r)
    assert whole.done and whole.result() == r["result"]
    half = whistsim.new_game(deal={**r, "moves": r["moves"][:20], "result": None})
    assert half.moves == r["moves"][:20] and half.to_move == int(r["moves"][20].split(":")[0])
    assert whistsim.new_game(deal={k: v for k, v in r.items() if k != "moves"}).moves == []


def test_a_game_from_a_deal_says_plainly_what_it_cannot_take():
    r = _records("whist", {}, 6)[0]
    with pytest.raises(WhistsimError, match="a record carries its own rules"):
        whistsim.new_game(deal=r, rules={"target": 5})
    with pytest.raises(
        WhistsimError, match="first seat 2: in this deal seat 0, the dealer's left, plays first"
    ):
        whistsim.new_game(deal=WHIST + " trump=2S", first=2)
    with pytest.raises(WhistsimError, match="deal: move 0: .*it is seat"):
        whistsim.new_game(deal={**r, "moves": ["3:" + r["moves"][0].split(":")[1]]})
    welsh = format_deal(_records("welsh", {}, 1)[0])
    assert whistsim.new_game(deal=welsh, first=2).to_move == 2


# ---- whistsim play --deal ------------------------------------------------------------------------


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def test_play_deal_plays_the_given_deal_and_writes_a_record_replay_accepts(tmp_path):
    out = tmp_path / "d.jsonl"
    r = run("play", "--deal", TEXTS[1], "--strategy", "heuristic", "--hint", "heuristic", "--record", out,
            input="\n" * 40)  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "French Whist" in r.output or "french=true" in r.output
    assert "(the deal is the one given)" in r.output
    record = json.loads(out.read_text())
    assert record["hands"] == parse_deal(TEXTS[1])["hands"] and record["rules"]["french"] is True
    assert whistsim.judge(0, json.dumps(record)).ok


def test_play_deal_file_reads_a_pbn_board_or_a_record_line(tmp_path):
    record = _records("scotch", {"players": 3}, 2)[0]
    line = tmp_path / "r.jsonl"
    line.write_text(json.dumps(record) + "\n")
    out = tmp_path / "d.jsonl"
    r = run("play", "--deal-file", line, "--strategy", "random", "--hint", "random", "--seat", "2", "--record", out,
            input="\n" * 40)  # fmt: skip
    assert r.exit_code == 0, r.output
    assert json.loads(out.read_text())["hands"] == record["hands"]
    r = run("play", "--deal-file", "tests/data/real_deals.pbn", "--strategy", "random", "--hint", "random",
            "--record", out, input="\n" * 40)  # fmt: skip
    assert r.exit_code == 0, r.output
    assert json.loads(out.read_text())["hands"] == whistsim.read_pbn("tests/data/real_deals.pbn")[0]["hands"]


def test_play_with_a_bad_deal_is_one_line_and_status_two():
    r = run("play", "--deal", GOOD + " trump=AS")
    assert r.exit_code == 2
    assert (
        r.stderr.strip()
        == "whistsim: error: deal: trump=AS: the turned card must be in the dealer's (seat W) hand"
    )
    r = run("play", "--deal", GOOD, "--game", "welsh")
    assert r.exit_code == 2 and "the game asked for is welsh" in r.stderr
