"""Card codes (docs/rules.md: rank 23456789TJQKA + suit CDHS, X for a Taffy; readers take 10 and lower case)."""

import pytest

from whistsim.core.cards import TAFFY, card_name, pack, parse_card, parse_suit, pretty_card


def test_every_code_round_trips():
    for c in range(53):
        assert parse_card(card_name(c)) == c


def test_codes_by_example():
    assert card_name(parse_card("TH")) == "TH"
    assert parse_card("2C") == 0
    assert parse_card("AS") == 51
    assert parse_card("X") == TAFFY
    assert card_name(TAFFY) == "X"


@pytest.mark.parametrize("text", ["10h", "10H", "th", " TH ", "Th"])
def test_readers_accept_10_and_lower_case(text):
    assert parse_card(text) == parse_card("TH")


def test_lower_case_taffy():
    assert parse_card("x") == TAFFY


@pytest.mark.parametrize("text", ["", "1H", "TX", "HT", "10", "XX", "T", "11H", "JOKER", "X=S"])
def test_bad_codes_are_rejected(text):
    with pytest.raises(ValueError, match="not a card"):
        parse_card(text)


def test_bad_card_numbers_are_rejected():
    for c in (-1, 53, 100):
        with pytest.raises(ValueError):
            card_name(c)


def test_suits():
    assert [parse_suit(s) for s in "CDHSs"] == [0, 1, 2, 3, 3]
    with pytest.raises(ValueError, match="not a suit"):
        parse_suit("X")


def test_pretty_cards_for_people():
    assert pretty_card(parse_card("TH")) == "10♥"
    assert pretty_card(parse_card("KS")) == "K♠"
    assert pretty_card(parse_card("2C")) == "2♣"
    assert pretty_card(parse_card("AD")) == "A♦"
    assert pretty_card(TAFFY) == "Taffy"


def test_pack():
    assert pack() == list(range(52))
    assert len(pack("AKQJT9876")) == 36
