"""Properties of random Welsh Whist games under every rule combination.

Every card ends in exactly one winnings pile, the points add up as the scoring
rule says, a simulated record replays to its stored result, and a game's outcome
depends on (seed, game index) alone: not on threads, chunk size or the kernel's BLOCK.
"""

import json

import numba
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from whistsim import api
from whistsim.core.cards import FIVE, TAFFY, TEN
from whistsim.core.strategy import StrategySpec
from whistsim.games import get_game, seating
from whistsim.games.runner import run_games, threads
from whistsim.games.welsh import engine as E
from whistsim.games.welsh import kernels
from whistsim.games.welsh.records import read_record, replay, start, step
from whistsim.games.welsh.rules import CHALLENGES, SCORINGS, WelshRules

# Random players draw parameters the rules may not use; the warning saying so is tested elsewhere.
pytestmark = pytest.mark.filterwarnings("ignore::whistsim.tools.advice.WhistsimWarning")

TENS = [s * 13 + TEN for s in range(4)]
FIVES = [s * 13 + FIVE for s in range(4)]


def welsh_rules_st(**fixed):
    """Rule sets over every option; ``fixed`` replaces some options' strategies."""
    options = {
        "players": st.integers(2, 12),
        # Mostly small stocks, sometimes up to the largest allowed.
        "packs": st.one_of(st.integers(1, 3), st.integers(4, 16)),
        "taffies": st.one_of(st.integers(0, 8), st.integers(9, 64)),
        "taffy_rank": st.sampled_from([10.5, 10.0]),
        "scoring": st.sampled_from(SCORINGS),
        "revokes": st.booleans(),
        "challenge": st.sampled_from(CHALLENGES),
    }
    return st.builds(WelshRules, **{**options, **fixed})


rules_st = welsh_rules_st()
rate_st = st.one_of(st.sampled_from([0.0, 1.0]), st.floats(0.0, 1.0))
player_st = st.builds(
    lambda d, f, c: StrategySpec("random", {"draw": d, "false_pass": f, "challenge": c}),
    rate_st, rate_st, rate_st,
)  # fmt: skip
seed_st = st.integers(0, 2**63 - 1)


def batch_of(rules, specs, seed, n, **kw):
    ids, params = seating("welsh", specs, rules.players)
    return kernels.play_batch(rules, ids, params, seed=seed, n=n, **kw)


def py_points(rules: WelshRules, won: np.ndarray) -> list[int]:
    """docs/rules.md's scoring, written again in plain Python from the piles by card type."""
    tens = won[:, TENS].sum(1) + won[:, TAFFY]
    fives = won[:, FIVES].sum(1)
    n = won.sum(1)
    if rules.scoring == "standard":
        pts = 10 * tens + (n - tens)
    elif rules.scoring == "five_penalty":
        pts = 10 * tens + (n - tens - fives) - 5 * fives
    else:
        heights = sorted(set(n.tolist()))
        pts = np.array([(heights.index(h) + 1) * t for h, t in zip(n.tolist(), tens.tolist(), strict=True)])
    return [int(x) for x in pts]


@given(rules=rules_st, player=player_st, seed=seed_st)
def test_every_card_ends_in_one_pile_and_points_add_up(rules, player, seed):
    p = rules.players
    b = batch_of(rules, [player], seed, n=3)
    won, tens, taffies = b.seat["cards_won"], b.seat["tens"], b.seat["taffies"]
    assert (won.sum(1) == rules.stock_size).all()
    assert (tens.sum(1) == 4 * rules.packs).all()
    assert (taffies.sum(1) == rules.taffies).all()
    g = b.game
    assert (g["draws"] == rules.stock_size).all()
    assert (g["turns"] == g["draws"] + g["tricks"]).all()
    assert (g["false_passes"] <= g["passes"]).all()
    assert (g["challenges_won"] <= g["challenges"]).all()
    if not rules.revokes:
        assert (g["false_passes"] == 0).all() and (g["challenges_won"] == 0).all()
    if rules.challenge == "none":
        assert (g["challenges"] == 0).all()
    assert ((g["last_holder"] >= 0) == (g["kept"] > 0)).all()
    assert (g["last_holder"] < p).all()
    points = b.seat["points"]
    honours = tens + taffies
    if rules.scoring == "standard":
        assert (points == 10 * honours + won - honours).all()
        # Parlett and Akagiri 1995: 216 with two packs and four Taffies.
        assert (points.sum(1) == 10 * (4 * rules.packs + rules.taffies) + 48 * rules.packs).all()
    elif rules.scoring == "five_penalty":
        assert (
            points.sum(1) == 10 * (4 * rules.packs + rules.taffies) + 48 * rules.packs - 24 * rules.packs
        ).all()
    else:
        for i in range(b.n):
            heights = sorted(set(won[i].tolist()))
            assert points[i].tolist() == [
                (heights.index(h) + 1) * t for h, t in zip(won[i], honours[i], strict=True)
            ]


@given(rules=rules_st, player=player_st, seed=seed_st)
def test_simulated_records_replay_to_their_results(rules, player, seed):
    sim = api.simulate("welsh", n=2, seed=seed, rules=rules.to_record(), strategies=[player],
                       first="rotate", records=2)  # fmt: skip
    assert len(sim.records) == 2
    for k, rec in enumerate(sim.records):
        text = json.dumps(rec)
        assert "\n" not in text
        assert replay(json.loads(text)) == rec["result"]
        j = api.judge(k, text)
        assert j.ok and j.to_json() == {"line": k, **rec["result"]}
        assert get_game("welsh").replay(rec) == rec["result"]
        # Step the record by hand: each move by the seat that owes it, all legal.
        r, stock, first, seats, actions = read_record(rec)
        assert r == rules
        buf = E.new_state(r.to_array())
        start(buf, stock, first)
        s = buf[0]["table"]["s"]
        for seat, a in zip(seats, actions, strict=True):
            assert seat == s[E.S_SEAT]
            assert step(buf, a) == E.OK
        assert s[E.S_PHASE] == E.OVER
        # Every card, by type, in exactly one winnings pile; no card left in a hand.
        won = buf[0]["table"]["won"][: r.players].astype(np.int64)
        assert (won.sum(0) == np.bincount(stock, minlength=53)).all()
        assert (buf[0]["table"]["won_n"][: r.players] == won.sum(1)).all()
        assert not buf[0]["seats"]["hand"].any()
        assert py_points(r, won) == rec["result"]["points"]


def test_standard_total_is_216_for_two_packs_and_four_taffies():
    rules = WelshRules.make("parlett", 4)
    b = batch_of(rules, [StrategySpec("random")], 3, n=500)
    assert (b.seat["points"].sum(1) == 216).all()
    akagiri = WelshRules.make("akagiri", 3)  # Akagiri 1995: 216 with two packs (and their two jokers each)
    b = batch_of(akagiri, [StrategySpec("random")], 3, n=500)
    assert (b.seat["points"].sum(1) == 216).all()


def test_five_penalty_total_is_216_less_6_per_five():
    # 8 Fives at -5 instead of 1: 216 - 48 = 168 (Parlett claims 178).
    rules = WelshRules.make("parlett", 3, scoring="five_penalty")
    b = batch_of(rules, [StrategySpec("random")], 3, n=500)
    assert (b.seat["points"].sum(1) == 168).all()


# ---- a game depends on (seed, game index) alone ------------------------------------

N_DET = 2 * kernels.BLOCK + 11  # more than two of the kernel's blocks


def columns(b) -> dict[str, np.ndarray]:
    return {**{f"seat.{k}": v for k, v in b.seat.items()}, **{f"game.{k}": v for k, v in b.game.items()}}


def assert_same(a, b) -> None:
    ca, cb = columns(a), columns(b)
    assert ca.keys() == cb.keys()
    for k in ca:
        assert np.array_equal(ca[k], cb[k]), k
    assert len(a.logs) == len(b.logs)
    for x, y in zip(a.logs, b.logs, strict=True):
        assert np.array_equal(x, y)


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs 2 Numba threads")
@given(rules=rules_st, player=player_st, seed=seed_st)
def test_results_identical_across_thread_counts(rules, player, seed):
    out = []
    for n_threads in (1, 2):
        with threads(n_threads):
            out.append(batch_of(rules, [player], seed, n=N_DET, log_games=3))
    assert_same(*out)


@given(rules=rules_st, player=player_st, seed=seed_st, chunk=st.sampled_from([1, 7, 64, N_DET]))
def test_results_identical_across_chunk_sizes(rules, player, seed, chunk):
    ids, params = seating("welsh", [player], rules.players)
    game = get_game("welsh")
    whole = game.play_batch(rules, ids, params, seed=seed, n=N_DET, first=-1)
    parts = []
    run_games(game, rules, ids, params, seed=seed, n=N_DET, chunk=chunk, on_batch=parts.append)
    from whistsim.core.batch import Batch

    assert_same(Batch.concat(parts), whole)
    # A later slice of games is the same games as in the whole run.
    tail = game.play_batch(rules, ids, params, seed=seed, start=50, n=N_DET - 50, first=-1)
    for k, v in columns(tail).items():
        assert np.array_equal(v, columns(whole)[k][50:]), k


@given(rules=rules_st, player=player_st, seed=seed_st, block=st.sampled_from([1, 5, 200]))
def test_results_identical_across_kernel_block_sizes(monkeypatch_module, rules, player, seed, block):
    from types import SimpleNamespace

    from whistsim.harness import batch

    whole = batch_of(rules, [player], seed, n=N_DET, log_games=2)
    sizes = []

    def run_kernel(*args, **kw):  # the run's own kernel, its body in Python with another BLOCK
        k = batch_kernel(*args, **kw)

        def block_size(n, threads):
            sizes.append(max(1, min(block, n // threads)))
            return sizes[-1]

        m.setattr(k, "block_size", block_size)
        return SimpleNamespace(play_games=k.play_games.py_func)

    batch_kernel = batch.kernel
    with monkeypatch_module.context() as m:
        m.setattr(batch, "kernel", run_kernel)
        other = batch_of(rules, [player], seed, n=N_DET, log_games=2)
    assert sizes and all(1 <= s <= block for s in sizes)  # the patched size was the one used
    assert_same(other, whole)


def test_each_thread_plays_its_share_of_the_games_once(monkeypatch):
    """harness.batch runs the kernel's ``play_games`` once per thread, each on its own share and
    state: together the shares play every game once, the same games as one thread playing all."""
    from types import SimpleNamespace

    from whistsim.harness import batch

    rules, spec = WelshRules(players=4), StrategySpec("random", {})
    whole = batch_of(rules, [spec], 5, n=23, log_games=3)
    shares = []

    def run_kernel(*args, **kw):  # the run's own kernel, its body run in Python on each thread
        body = batch_kernel(*args, **kw).play_games.py_func

        def share(states, thread, threads, *rest):
            shares.append((int(thread), int(threads)))
            body(states, thread, threads, *rest)

        return SimpleNamespace(play_games=share)

    batch_kernel = batch.kernel
    monkeypatch.setattr(batch, "kernel", run_kernel)
    monkeypatch.setattr(numba, "get_num_threads", lambda: 3)  # more threads than this machine has
    split = batch_of(rules, [spec], 5, n=23, log_games=3)
    assert sorted(shares) == [(0, 3), (1, 3), (2, 3)]
    assert_same(split, whole)


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as m:
        yield m


@given(rules=rules_st, player=player_st, seed=seed_st)
def test_random_seats_own_loop_plays_as_the_shared_loop(rules, player, seed):
    """With every seat ``random`` (no false pass, no challenge) the kernel plays a deal in a loop
    of its own: the same decisions from the same streams, so every column and log is the same."""
    fast, slow = (batch_of(rules, [player], seed, 40, log_games=5, shared_loop=s) for s in (False, True))
    for k, v in slow.seat.items():
        assert (fast.seat[k] == v).all(), k
    for k, v in slow.game.items():
        assert (fast.game[k] == v).all(), k
    for a, b in zip(fast.logs, slow.logs, strict=True):
        assert (a == b).all()


greedy_mix_st = st.lists(
    st.one_of(player_st, st.builds(lambda c: StrategySpec("greedy", {"cheat": c}), rate_st)),
    min_size=12,
    max_size=12,
)  # one per seat: the first ``players`` are seated
plain_rules_st = welsh_rules_st(
    revokes=st.just(False), challenge=st.just("none")
)  # no false pass, no challenge: the rules the own loop plays


@given(rules=plain_rules_st, specs=greedy_mix_st, seed=seed_st)
def test_random_and_greedy_seats_own_loop_plays_as_the_shared_loop(rules, specs, seed):
    """Seats that play ``random`` or ``greedy`` (no false pass, no challenge) share a loop of their
    own: greedy asked with the engine's state where it reads it, and checked; the same games."""
    specs = specs[: rules.players]
    fast, slow = (batch_of(rules, specs, seed, 40, log_games=5, shared_loop=s) for s in (False, True))
    assert_same(fast, slow)
