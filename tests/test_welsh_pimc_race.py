"""pimc's racing (``race``): over the same sampled deals, a candidate whose gain over the
play-out policy's own choice is not above zero by ``race`` standard errors, from the 4th deal
on, is played out no more; the search ends when no alternative is left; ``race=off`` plays
every candidate on every deal (the default; ``tests/test_pimc_speed.py`` replays pinned
games of it). Hand-made situations, the search's own counts of deals per candidate."""

from __future__ import annotations

import numpy as np
import pytest
from welsh_deals import Deal, dealt
from welsh_search import searched

from whistsim.core.strategy import StrategyError, parse_spec
from whistsim.games import seating
from whistsim.games.welsh.moves import action_name
from whistsim.games.welsh.players import pimc


def search(d: Deal, spec: str, prune: bool = True) -> tuple[str, dict[str, int]]:
    """The decision ``spec`` takes for the owing seat, and the deals each candidate was played
    out on (``prune`` off: a candidate that can no longer be taken is played out all the same)."""
    buf = d.buf.copy()
    ids, params = seating("welsh", [parse_spec(spec)], d.rules.players)
    buf[0]["seats"][d.seat]["strategy"] = ids[d.seat]
    buf[0]["seats"][d.seat]["params"][:] = params[d.seat]
    cands = np.zeros(pimc.MAX_CANDIDATES, np.int64)
    deals = np.zeros(pimc.MAX_CANDIDATES, np.int64)
    i = searched(buf, d.seat, cands, deals, prune, True)
    k = int((deals > 0).sum())
    return action_name(int(cands[i])), {
        action_name(int(c)): int(n) for c, n in zip(cands[:k], deals[:k], strict=True)
    }


def test_a_clearly_worse_candidate_is_dropped_at_the_first_look():
    # Seat 1 answers a led Ten holding QH, AH, 2H: the 2H gives the Ten away.
    d = dealt([["TH", "5H", "6D"], ["QH", "AH", "2H"], ["2C", "3C", "4C"]])
    d.play("0:TH")
    took, deals = search(d, "pimc:budget=200,race=0.5")
    assert took == "AH"
    assert list(deals)[0] == "AH"  # the play-out policy's own choice, played on every deal it takes
    assert deals["2H"] == pimc.RACE_MIN
    # race=off, unpruned: every candidate on every one of budget / candidates deals, the same decision
    took_off, off = search(d, "pimc:budget=200,race=off", prune=False)
    assert took_off == "AH"
    assert set(off.values()) == {200 // len(off)}
    assert sum(deals.values()) < sum(off.values()) / 2
    # pruned (the default): the 2H, which can no longer be taken, stops early; the same decision
    took_pruned, pruned = search(d, "pimc:budget=200,race=off")
    assert took_pruned == "AH"
    assert pruned["2H"] < off["2H"]
    assert pruned["AH"] < off["AH"]  # with no other candidate left, the first is not played out either


def test_a_clearly_better_candidate_is_still_taken():
    # Seat 1 answers a led 4H: its policy plays low (3H); taking the trick with the 6H pays.
    d = dealt([["4H", "JH", "AH"], ["3H", "6H", "3C"], ["9C", "9H", "9D"]])
    d.play("0:4H")
    took, deals = search(d, "pimc:budget=200,race=0.5")
    assert list(deals) == ["3H", "6H"] and took == "6H"
    assert deals["6H"] == 200 // 2  # never dropped: its gain stays above zero
    assert search(d, "pimc:budget=200,race=off")[0] == "6H"


def test_the_search_ends_when_no_alternative_is_left():
    # Seat 0 with four Aces while the stock lasts: its policy draws; leading an Ace is
    # dropped after some deals and the search stops there, short of its 100 deals.
    d = dealt([["AH", "AS", "AD", "AC"], ["2C", "3C", "4C", "5C"], ["6C", "7C", "8C", "9C"]])
    took, deals = search(d, "pimc:budget=200,race=0.5")
    assert took == "draw" and len(deals) == 2
    assert pimc.RACE_MIN <= deals["draw"] == max(deals.values()) < 100
    assert (deals["draw"] - pimc.RACE_MIN) % pimc.RACE_ROUND == 0  # it looks every RACE_ROUND deals
    took_off, off = search(d, "pimc:budget=200,race=off", prune=False)
    assert took_off == "draw" and off == {"draw": 100, "AC": 100}


def test_too_few_deals_to_look_at_are_never_raced():
    d = dealt([["TH", "5H", "6D"], ["QH", "AH", "2H"], ["2C", "3C", "4C"]])
    d.play("0:TH")
    a, deals = search(d, "pimc:budget=12,race=0.5")  # 4 deals per candidate: no look before the last
    assert set(deals.values()) == {4}
    assert search(d, "pimc:budget=12,race=off", prune=False) == (a, deals)


def test_a_higher_race_drops_later():
    d = dealt([["TH", "5H", "6D"], ["QH", "AH", "2H"], ["2C", "3C", "4C"]])
    d.play("0:TH")
    played = [sum(search(d, f"pimc:budget=200,race={r}")[1].values()) for r in (0, 0.5, 3, 10)]
    assert played == sorted(played)
    assert played[-1] <= 200


@pytest.mark.parametrize("bad", ["pimc:race=maybe", "pimc:race=-1", "pimc:race=11", "pimc2:race=on"])
def test_race_takes_off_or_a_number_of_standard_errors(bad):
    with pytest.raises(StrategyError):
        seating("welsh", [parse_spec(bad)], 3)


def test_racing_is_off_by_default():
    d = dealt([["TH", "5H", "6D"], ["QH", "AH", "2H"], ["2C", "3C", "4C"]])
    d.play("0:TH")
    assert search(d, "pimc:budget=200") == search(d, "pimc:budget=200,race=off")
    assert search(d, "pimc2:budget=200") == search(d, "pimc2:budget=200,race=off")
