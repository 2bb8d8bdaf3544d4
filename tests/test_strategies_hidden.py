"""A strategy sees only what its seat may know: change every hidden card (the other hands,
the order of the stock) and neither the view the kernel builds nor any decision changes."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from whistsim.core.cards import TAFFY
from whistsim.core.strategy import parse_spec
from whistsim.games import seating
from whistsim.games.welsh import engine as E
from whistsim.games.welsh.kernels import deal_stock
from whistsim.games.welsh.kernels import decide_now as decide_state
from whistsim.games.welsh.records import step
from whistsim.games.welsh.rules import WelshRules

STRATEGIES = ["random", "greedy", "hunter", "hunter:hold=3", "hoarder", "counter", "cheater:challenge=smart",
              "greedy:cheat=0.5,challenge=0.5", "pimc:budget=12", "hoarder:lead=sure", "hoarder:lead=high",
              "pimc:search=stock,budget=12", "pimc2:budget=12", "pimc2:budget=12,stock=search",
              "pimc:budget=40,race=0", "pimc2:budget=40,race=0.5"]  # fmt: skip


@njit(cache=True)
def _view(buf, seat, table_out, own_out):
    """The view the kernel hands a strategy, copied out: its scalars, its table, its own record."""
    v = E.seat_view(buf[0], seat)
    table_out[0] = v.table
    own_out[0] = v.own
    return np.array([v.seat, v.players, v.phase, v.stock_left, v.leader, v.led_suit, v.trick_len])


def view(buf: np.ndarray, seat: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    t = np.zeros(1, E.TABLE_DTYPE)
    o = np.zeros(1, E.SEAT_DTYPE)
    scalars = _view(buf, seat, t, o)
    return scalars, t, o


def same(a: np.ndarray, b: np.ndarray) -> bool:
    """Field by field (padding bytes between fields are no one's business)."""
    return all(np.array_equal(a[name], b[name]) for name in a.dtype.names)


def set_hand(buf: np.ndarray, q: int, counts: np.ndarray) -> None:
    own = buf[0]["seats"][q]
    own["hand"][:] = counts
    own["suit_n"][:] = [counts[s * 13 : s * 13 + 13].sum() for s in range(4)]
    own["bits"][:] = [sum(1 << r for r in range(13) if counts[s * 13 + r]) for s in range(4)]
    own["types"] = int((counts > 0).sum())
    own["held"][:] = 0
    for c in range(52):
        own["held"][E.WORD_OF[c]] += int(counts[c]) * int(E.BYTE_OF[c])


def hide_differently(buf: np.ndarray, seat: int, rng: np.random.Generator) -> np.ndarray:
    """The same table and the same hand for ``seat``; every other hand and the stock reshuffled."""
    out = buf.copy()
    g = out[0]
    p = int(g["table"]["rules"][0])
    top, stock = int(g["table"]["s"][E.S_TOP]), int(g["table"]["s"][E.S_STOCK])
    others = [q for q in range(p) if q != seat]
    pool = list(g["deck"][top:stock])
    for q in others:
        pool += [c for c in range(53) for _ in range(int(g["seats"][q]["hand"][c]))]
    rng.shuffle(pool)
    for q in others:
        h = int(g["table"]["hand_n"][q])
        set_hand(out, q, np.bincount(np.array(pool[:h], np.int64), minlength=53).astype(np.int16))
        pool = pool[h:]
        g["seats"][q]["rng"][0] = rng.integers(0, 2**63)
        g["seats"][q]["revoked"] = rng.integers(0, 2)
    g["deck"][top:stock] = pool
    g["rng"][0] = rng.integers(0, 2**63)
    return out


def positions(rules: WelshRules, seed: int, every: int) -> list[np.ndarray]:
    """States of one game played by a mix of players, every ``every``-th decision."""
    buf = E.new_state(rules.to_array())
    specs = [parse_spec(s) for s in ("greedy:cheat=0.5,challenge=always", "random", "cheater")][
        : rules.players
    ]
    specs += [parse_spec("counter")] * (rules.players - len(specs))
    ids, params = seating("welsh", specs, rules.players)
    buf[0]["seats"]["strategy"][: rules.players] = ids
    buf[0]["seats"]["params"][: rules.players] = params
    g = buf[0]
    deal_stock_buf(buf, rules, seed)
    out = []
    i = 0
    while g["table"]["s"][E.S_PHASE] != E.OVER:
        if i % every == 0:
            out.append(buf.copy())
        assert step(buf, decide_state(buf)) == E.OK
        i += 1
    return out


def deal_stock_buf(buf: np.ndarray, rules: WelshRules, seed: int) -> None:
    from whistsim.games.welsh.records import start

    _deal(buf, rules.deck(), np.int64(seed))
    start(buf, buf[0]["deck"][: rules.stock_size].copy(), 0)


@njit(cache=True)
def _deal(buf, base, seed):
    deal_stock(buf[0], base, seed, 0)


@pytest.mark.parametrize(
    "rules",
    [
        WelshRules(),
        WelshRules(players=4, packs=2, taffies=4, taffy_rank=10.0, revokes=True, challenge="akagiri"),
        WelshRules(players=3, revokes=True, challenge="parlett", scoring="five_penalty"),
    ],
    ids=["parlett", "akagiri-4-revokes", "parlett-challenges"],
)
def test_hidden_cards_change_neither_the_view_nor_any_decision(rules):
    rng = np.random.default_rng(3)
    checked = 0
    for buf in positions(rules, seed=11, every=9):
        seat = int(buf[0]["table"]["s"][E.S_SEAT])
        other = hide_differently(buf, seat, rng)
        hidden = [q for q in range(rules.players) if q != seat and buf[0]["table"]["hand_n"][q] > 0]
        if hidden or buf[0]["table"]["s"][E.S_STOCK] - buf[0]["table"]["s"][E.S_TOP] > 1:
            checked += 1
            assert other.tobytes() != buf.tobytes() or not hidden
        a, b = view(buf, seat), view(other, seat)
        assert np.array_equal(a[0], b[0]) and same(a[1], b[1]) and same(a[2], b[2])
        for spec in STRATEGIES:
            ids, params = seating("welsh", [parse_spec(spec)], rules.players)
            x, y = buf.copy(), other.copy()
            for s in (x, y):
                s[0]["seats"][seat]["strategy"] = ids[seat]
                s[0]["seats"][seat]["params"][:] = params[seat]
            assert decide_state(x) == decide_state(y), spec
    assert checked > 10


def test_the_view_changes_when_the_seat_itself_sees_something():
    # The check above could pass with a blind view; the own hand must show in it.
    buf = positions(WelshRules(), seed=5, every=40)[1]
    seat = int(buf[0]["table"]["s"][E.S_SEAT])
    other = buf.copy()
    hand = other[0]["seats"][seat]["hand"].copy()
    c = int(np.flatnonzero(hand)[0])
    hand[c] -= 1
    hand[TAFFY if c != TAFFY else 0] += 1
    set_hand(other, seat, hand)
    assert not same(view(buf, seat)[2], view(other, seat)[2])
