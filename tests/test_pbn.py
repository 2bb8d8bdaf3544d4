"""PBN files (docs/records.md, "PBN"): bridge deals read as Whist deals and written back;
read -> write -> read keeps every deal of a file of real-looking boards; trump and dealer come
from the arguments, the board's tags, or the documented defaults; a bad board is one line."""

import io
import json
from pathlib import Path

import pytest

import whistsim
from whistsim.core.options import WhistsimError
from whistsim.deals import format_deal, parse_deal, read_pbn, write_pbn
from whistsim.deals.pbn import boards

DATA = Path(__file__).parent / "data" / "real_deals.pbn"
DEAL = ("game", "rules", "dealer", "hands", "trump")


def _deal(r: dict) -> dict:
    return {k: r[k] for k in DEAL}


def test_every_board_of_the_file_is_a_52_card_deal_read_as_whist():
    records = read_pbn(DATA)
    assert len(records) == 8
    for r in records:
        cards = [c for hand in r["hands"][0] for c in hand]
        assert len(cards) == len(set(cards)) == 52 and r["moves"] == []
        assert whistsim.judge(0, json.dumps(r)).error.startswith("the moves stop before the deal ends")


def test_read_write_read_keeps_every_deal_of_the_file(tmp_path):
    first = read_pbn(DATA)
    out = tmp_path / "again.pbn"
    assert write_pbn(first, out) == 8
    second = read_pbn(out)
    assert [_deal(r) for r in second] == [_deal(r) for r in first]
    stream = io.StringIO()
    write_pbn(second, stream)
    assert stream.getvalue() == out.read_text()  # and writing it again writes the same file


def test_the_dealer_and_trump_come_from_the_boards_tags_where_they_fit():
    r = read_pbn(DATA)
    assert [x["dealer"] for x in r] == [0, 1, 2, 3, 2, 1, 1, 3]  # board 3 has no [Dealer]: its number's
    assert r[0]["trump"] == "JD"  # [Contract "3D"]: North deals and turns its lowest diamond
    assert r[1]["trump"] == "7S"  # 3NT: no suit, so East's lowest card of its highest suit
    assert r[2]["trump"] == "9H"  # 4HX doubled: hearts
    assert r[3]["trump"] == "3S"  # 6S
    assert r[4]["trump"] == "TH"  # [Trump "TH"]: the card itself
    assert r[5]["trump"] == "2C"  # [Trump "C"]
    assert r[6]["trump"] == "2H"  # no tag, the dealer void in spades: its lowest heart


def test_arguments_come_before_the_tags_and_first_names_the_dealers_left():
    r = read_pbn(DATA, trump="H", first="S", rules={"target": 5, "honours": False})
    assert {x["dealer"] for x in r} == {1}
    assert all(x["trump"][1] == "H" for x in r)
    assert r[0]["rules"] == {"target": 5, "honours": False, "revokes": False, "revoke_penalty": 3}
    assert [x["dealer"] for x in read_pbn(DATA, dealer=0, trump="S")] == [0] * 8
    with pytest.raises(
        WhistsimError, match="board 5 .*trump=TH: the turned card must be in the dealer's \\(seat N\\) hand"
    ):
        read_pbn(DATA, dealer=0)  # board 5's [Trump "TH"] is South's card
    with pytest.raises(
        WhistsimError, match="board 7 .*trump=S: the dealer \\(seat E\\) holds no spade to turn"
    ):
        read_pbn(DATA, trump="S", dealer="E")


def test_a_board_written_is_the_record_as_a_pbn_board_and_a_text_deal():
    r = read_pbn(DATA)[4]
    text = io.StringIO()
    write_pbn([r], text)
    tags = boards(text.getvalue())[0]
    assert tags["Deal"] == " ".join(format_deal(r).split()[1:5])
    assert (tags["Dealer"], tags["Trump"], tags["Board"], tags["Vulnerable"]) == ("S", "TH", "1", "None")
    assert list(tags)[:8] == ["Event", "Site", "Date", "Board", "West", "North", "East", "South"]


def test_simulated_records_go_out_as_pbn_and_come_back_the_same_deals(tmp_path):
    records = whistsim.simulate("whist", 3, 4, records=3, rules={"target": 5}).records
    out = tmp_path / "run.pbn"
    write_pbn(records, out)
    back = read_pbn(out, rules={"target": 5})
    assert [_deal(r) for r in back] == [_deal(r) for r in records]
    assert boards(out.read_text())[0]["North"] == records[0]["strategies"][0]
    # the moves of each record replay on the deal read back
    for r, b in zip(records, back, strict=True):
        assert whistsim.judge(0, json.dumps({**b, "moves": r["moves"], "result": r["result"]})).ok


def test_comments_escapes_inheritance_and_sections_are_passed_over():
    text = """% PBN 2.1
[Event "a \\"quoted\\" name"]
[Site "here"]
[Board "5"]
[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]
{ a comment

  with an empty line inside }
[Auction "N"]
1S Pass ; a bid's note
[Note "1:[not a tag]"]

[Event "#"]
[Site "#"]
[Board "6"]
[Deal "E:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]
"""
    found = boards(text)
    assert [b["Event"] for b in found] == ['a "quoted" name'] * 2 and found[1]["Site"] == "here"
    assert found[0]["Note"] == "1:[not a tag]"
    records = read_pbn(io.StringIO(text))
    assert [r["dealer"] for r in records] == [0, 1]  # boards 5 and 6: North and East deal
    assert records[1]["hands"][0][1][0] == "2S"  # East named first holds the spades


def test_a_latin_1_file_and_a_byte_stream_are_read():
    text = '[Event "Bridge à Paris"]\n[Board "1"]\n[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]\n'
    assert read_pbn(io.BytesIO(text.encode("latin-1")))[0]["hands"][0][0][-1] == "AS"


@pytest.mark.parametrize(
    "text, says",
    [
        (
            '[Board "3"]\n[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432."]\n',
            "board 3 (line 1): Whist is four hands of 13 cards",
        ),
        (
            '[Board "4"]\n[Deal "N:AKQJT98765432... - ..AKQJT98765432. ...AKQJT98765432"]\n',
            "board 4 (line 1): the deal gives only some hands ('-'); Whist needs all four",
        ),
        (
            '[Event ""]\n[Board "9"]\n[Deal "N:AKQJT9876543... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]\n',
            "board 9 (line 1): seat N holds 12 cards, expected 13",
        ),
        (
            '[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]\n[Dealer "Q"]\n'
            '\n[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT9876543A"]\n',
            "board 2 (line 4): seat W holds AC twice",
        ),
        ('[Event "no deal here"]\n', "no board with a [Deal] tag"),
        ("[Deal N:AKQ]\n", 'line 1: a tag is written [Name "value"]'),
    ],
)
def test_a_bad_board_is_one_line_naming_it(text, says):
    with pytest.raises(WhistsimError) as e:
        read_pbn(io.StringIO(text))
    assert "\n" not in str(e.value) and says in str(e.value), str(e.value)


def test_writing_refuses_other_games_and_writes_nothing_then(tmp_path):
    out = tmp_path / "x.pbn"
    scotch = whistsim.simulate("scotch", 1, 1, records=1).records[0]
    whist = read_pbn(DATA)[0]
    with pytest.raises(WhistsimError, match="record 1: only Whist deals are written as PBN, not 'scotch'"):
        write_pbn([whist, scotch], out)
    assert not out.exists()
    with pytest.raises(WhistsimError, match="cannot read .*nothing.pbn"):
        read_pbn(tmp_path / "nothing.pbn")


def test_the_notation_and_pbn_agree_on_a_whist_deal():
    r = read_pbn(DATA)[0]
    assert parse_deal(format_deal(r)) == r


def test_simulate_writes_its_deals_as_pbn_that_read_back_as_its_records(tmp_path):
    from click.testing import CliRunner

    from whistsim.cli import main

    recs, pbn = tmp_path / "d.jsonl", tmp_path / "d.pbn"
    args = ["simulate", "--game", "whist", "--n", "3", "--seed", "4", "--rule", "unit=deal", "--no-progress"]
    out = CliRunner().invoke(main, [*args, "--records", str(recs), "--pbn", str(pbn)])
    assert out.exit_code == 0, out.output
    records = [json.loads(line) for line in recs.read_text().splitlines()]
    boards = read_pbn(str(pbn))
    assert [b["hands"] for b in boards] == [r["hands"] for r in records]
    assert [b["trump"] for b in boards] == [r["trump"] for r in records]


def test_simulate_refuses_pbn_for_a_game_that_is_not_whist(tmp_path):
    from click.testing import CliRunner

    from whistsim.cli import main

    out = CliRunner().invoke(
        main, ["simulate", "--game", "scotch", "--n", "3", "--pbn", str(tmp_path / "d.pbn")]
    )
    assert out.exit_code != 0 and "PBN file holds Whist deals" in out.output
    assert not (tmp_path / "d.pbn").exists()
