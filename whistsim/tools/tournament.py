"""Tournaments: every strategy against every other, in every seat arrangement, by duplicate play.

A game's deck depends only on (seed, game index, deck composition), so playing
games ``0 .. m-1`` with one seed in every arrangement replays the same decks
with the strategies in different seats: the luck of the deal cancels.

Tables: with k strategies and P seats, every P-strategy subset (k >= P), or
every multiset of P holding each strategy at least once (k < P). Arrangements:
every distinct seating of a table when there are at most 24 (P <= 4), else its
P rotations (each strategy in each seat once). ``n`` games in all are shared
evenly, rounded up: m = ceil(n / arrangements) decks each.

Figures, per strategy, each with a 95% confidence interval over decks (a deck's
figure is the average over every seat the strategy took on it, so the games on
one deck count once): mean points per game (Welsh: the seat's points; the dealt
games: its side's game score); win rate (Welsh: the highest score wins, ties
shared; the dealt games: its side won the game), a share whose interval is Wilson's at the effective number of
games the spread over decks gives (inside [0, 1]); a rating. The rating is a Bradley-Terry strength
fitted (Hunter's MM algorithm) to every pairwise comparison of two seats of
different strategies (and sides) in a game (more points wins, ties count half each way),
on the Elo scale: 1500 + 400 log10(strength / geometric mean strength); its CI
is a bootstrap over decks. Pairwise margins (a's points minus b's, in the games
where both sat, averaged per deck) say which differences are real. One deck per arrangement
gives no interval (the tables say "n too small"). ``games`` counts the games a strategy sat in,
``seat_games`` its seats in them (more than its games when it holds two seats of a table).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.options import WhistsimError, near
from ..core.stats import cluster_share, estimate, has_interval
from ..core.strategy import StrategyError, StrategySpec, parse_spec
from ..games import get_game, seating
from ..games.runner import stop_on_sigint, timed_run
from ..games.runner import threads as use_threads

if TYPE_CHECKING:
    import pandas as pd  # imported where the tables are made: start-up time

MAX_PERMUTED_SEATS = 4  # up to 4 seats every seating is played, beyond only rotations
BOOTSTRAP = 200


@dataclass
class Tournament:
    """A finished tournament: its settings, the points of every game, and the tables."""

    game: str
    rules: Any
    strategies: list[str]
    seed: int
    decks: int  # games per arrangement: decks 0 .. decks-1, the same in every arrangement
    arrangements: list[tuple[int, ...]]  # a strategy index per seat
    points: np.ndarray  # [arrangement, deck, seat]
    ranking: pd.DataFrame
    pairwise: pd.DataFrame
    interrupted: bool = False  # Ctrl-C: only the first ``decks`` decks were played, in every arrangement

    @property
    def games(self) -> int:
        return len(self.arrangements) * self.decks

    def summary(self) -> pd.DataFrame:
        """The ranking (as every result object's ``summary()``): the ``ranking`` table."""
        return self.ranking

    def to_json(self) -> dict:
        """The settings and both tables as plain JSON types (``whistsim tournament --json``)."""
        import json

        return {"game": self.game, "rules": get_game(self.game).rules_record(self.rules), "strategies": self.strategies,
                "seed": self.seed, "decks": self.decks, "games": self.games,
                "ranking": json.loads(self.ranking.to_json(orient="records")),
                "pairwise": json.loads(self.pairwise.to_json(orient="records")),
                **({} if has_interval(self.decks) else {"note": "the interval bounds are null: one deck per "
                                                                "seat arrangement gives no interval"})}  # fmt: skip


def split_strategies(items: Iterable[str]) -> list[str]:
    """``"random,greedy:cheat=0.2,challenge=smart,pimc"`` -> one spec per strategy.

    A comma starts a new strategy unless what follows is a KEY=VALUE of the one before.
    """
    out: list[str] = []
    for item in items:
        for part in (x.strip() for x in item.split(",")):
            if not part:
                continue
            if out and "=" in part and ":" not in part.split("=", 1)[0] and ":" in out[-1]:
                out[-1] += "," + part
            else:
                out.append(part)
    return out


def arrangements(k: int, players: int) -> list[tuple[int, ...]]:
    """Seatings (a strategy index per seat) for ``k`` strategies at ``players`` seats."""
    if k < 2:
        raise WhistsimError(f"a tournament needs at least 2 strategies, got {k}")
    if k >= players:
        tables = list(itertools.combinations(range(k), players))
    else:
        tables = [t for t in itertools.combinations_with_replacement(range(k), players) if len(set(t)) == k]
    out: list[tuple[int, ...]] = []
    for table in tables:
        if players <= MAX_PERMUTED_SEATS:
            seatings = sorted(set(itertools.permutations(table)))
        else:
            seatings = list(dict.fromkeys(table[i:] + table[:i] for i in range(players)))
        out.extend(seatings)
    return out


def _per_deck(values: np.ndarray, arr: np.ndarray, k: int) -> np.ndarray:
    """[arrangement, deck, seat] values -> [strategy, deck]: each strategy's mean on each deck."""
    out = np.zeros((k, values.shape[1]))
    for i in range(k):
        mask = arr == i  # [arrangement, seat]
        out[i] = (values * mask[:, None, :]).sum(axis=(0, 2)) / mask.sum()
    return out


def _pair_wins(points: np.ndarray, arr: np.ndarray, k: int, sides: tuple[int, ...]) -> np.ndarray:
    """[deck, i, j]: comparisons of a seat of i with a seat of j (not partners) that i won (ties: half)."""
    a, d, p = points.shape
    wins = np.zeros((d, k, k))
    for s, t in itertools.combinations(range(p), 2):
        if sides[s] == sides[t]:
            continue
        diff = np.sign(points[:, :, s] - points[:, :, t])  # [arrangement, deck]
        for x in range(a):
            i, j = arr[x, s], arr[x, t]
            if i == j:
                continue
            wins[:, i, j] += (diff[x] > 0) + 0.5 * (diff[x] == 0)
            wins[:, j, i] += (diff[x] < 0) + 0.5 * (diff[x] == 0)
    return wins


def bradley_terry(wins: np.ndarray, iterations: int = 2000) -> np.ndarray:
    """Elo-scale ratings (geometric mean 1500) from a [i, j] matrix of i's wins over j.

    Hunter's MM algorithm; each strategy gets half a virtual win and half a loss spread
    over its opponents, so an unbeaten or winless one stays finite.
    """
    k = wins.shape[0]
    wins = wins + 0.5 * (1 - np.eye(k)) / max(1, k - 1)
    games = wins + wins.T
    w = wins.sum(axis=1)
    strength = np.ones(k)
    for _ in range(iterations):
        new = w / (games / (strength[:, None] + strength[None, :])).sum(axis=1)
        new /= math.exp(np.log(new).mean())
        done = np.abs(new - strength).max() < 1e-12
        strength = new
        if done:
            break
    return 1500 + 400 * np.log10(strength)


def _tables(
    labels: list[str], points: np.ndarray, won: np.ndarray, arr: np.ndarray, sides: tuple[int, ...], seed: int
) -> tuple[pd.DataFrame, pd.DataFrame]:
    import pandas as pd

    k = len(labels)
    pts = _per_deck(points, arr, k)
    wins = _per_deck(won, arr, k)
    pair = _pair_wins(points, arr, k, sides)
    rating = bradley_terry(pair.sum(axis=0))
    rng = np.random.default_rng(seed)
    d = points.shape[1]
    boot = np.array([bradley_terry(pair[rng.integers(0, d, d)].sum(axis=0), 200) for _ in range(BOOTSTRAP)])
    games = [int((arr == i).any(axis=1).sum()) * d for i in range(k)]  # games it sat in, at one seat or more
    seats = [int((arr == i).sum()) * d for i in range(k)]
    rows = []
    for i, name in enumerate(labels):
        e = estimate(pts[i])
        w, w_low, w_high = cluster_share(wins[i], seats[i])  # a share: Wilson's interval, inside [0, 1]
        lo, hi = np.percentile(boot[:, i], [2.5, 97.5]) if has_interval(d) else (math.nan, math.nan)
        rows.append([name, games[i], seats[i], e.mean, e.low, e.high, w, w_low, w_high, rating[i], lo, hi])
    ranking = pd.DataFrame(rows, columns=[
        "strategy", "games", "seat_games", "points", "points_low", "points_high",
        "win_rate", "win_low", "win_high", "rating", "rating_low", "rating_high",
    ]).sort_values("points", ascending=False, ignore_index=True)  # fmt: skip
    prow = []
    for i, j in itertools.permutations(range(k), 2):
        both = [x for x in range(len(arr)) if i in arr[x] and j in arr[x]]
        if not both:
            continue
        diffs = []
        for x in both:
            si, sj = arr[x] == i, arr[x] == j
            diffs.append(points[x][:, si].mean(axis=1) - points[x][:, sj].mean(axis=1))
        e = estimate(np.mean(diffs, axis=0))
        n_cmp = pair[:, i, j].sum() + pair[:, j, i].sum()
        prow.append([labels[i], labels[j], len(both) * d, e.mean, e.low, e.high, pair[:, i, j].sum() / n_cmp])
    pairwise = pd.DataFrame(
        prow, columns=["strategy", "opponent", "games", "margin", "margin_low", "margin_high", "beats"]
    )
    return ranking, pairwise


def tournament(
    strategies: Iterable[str | StrategySpec],
    game: str = "welsh",
    n: int = 20_000,
    seed: int = 0,
    *,
    preset: str | None = None,
    players: int | None = None,
    rules: dict[str, Any] | None = None,
    first: int | str = 0,
    threads: int | None = None,
    progress: bool = False,
) -> Tournament:
    """Play every strategy against every other in every seat arrangement on the same decks.

    ``n`` is the number of games in all (rounded up to whole decks per arrangement).
    Returns a :class:`Tournament` whose ``ranking`` (also ``summary()``) and
    ``pairwise`` are DataFrames. A strategy is a spec ``NAME[:KEY=VALUE,...]``
    (``whistsim strategies`` lists them); ``rules`` maps option keys to values
    as ``--rule KEY=VALUE`` does (``whistsim rules``).

    >>> import whistsim
    >>> t = whistsim.tournament(["random", "greedy"], "welsh", n=60, seed=1)
    >>> t.summary()["strategy"].tolist()   # ranked: points, win rate, rating, each with a 95% CI
    ['greedy', 'random']
    """
    g = get_game(game)
    r = g.make_rules(preset, players, dict(rules or {}))
    p = g.players_of(r)
    specs = [s if isinstance(s, StrategySpec) else parse_spec(s) for s in strategies]
    labels = [str(s) for s in specs]
    dup = next((x for x in labels if labels.count(x) > 1), None)
    if dup is not None:
        raise WhistsimError(f"strategy {dup!r} is named twice")
    for s in specs:  # every name and parameter checked before anything runs
        try:
            seating(game, [s], p)
        except StrategyError as e:
            raise StrategyError(str(e).removeprefix("seat 0: ")) from None
    if n < 1:
        raise WhistsimError(f"n={n}: expected a number of games >= 1")
    from .advice import warn_ineffective

    warn_ineffective(game, r, specs, given=dict(rules or {}))
    arr = arrangements(len(specs), p)
    decks = -(-n // len(arr))
    if first == "rotate":
        f = -1
    elif isinstance(first, int) or (str(first).isascii() and str(first).isdigit()):
        f = int(first)
    else:
        raise WhistsimError(
            f"first seat {first!r}: expected a seat number or 'rotate'{near(first, ['rotate'])}"
        )
    points = np.zeros((len(arr), decks, p), np.int64)
    won = np.zeros((len(arr), decks, p))
    teams = getattr(r, "teams_tuple", None)  # the dealt games' side of each seat
    sides = tuple(teams() if callable(teams) else teams) if teams is not None else tuple(range(p))
    seatings = [seating(game, [specs[i] for i in seats], p) for seats in arr]

    def play(start: int, k: int) -> int:
        """Decks ``start .. start + k - 1`` in every arrangement: a chunk is whole decks (none
        when Ctrl-C comes before its last arrangement: what it played is dropped)."""
        for x, (ids, params) in enumerate(seatings):
            if stopped():
                return 0
            batch = g.play_batch(r, ids, params, seed=seed, start=start, n=k, first=f)
            i = slice(start, start + k)
            points[x, i], won[x, i] = g.outcome(batch, r)
        return k

    with use_threads(threads), stop_on_sigint() as stopped:
        for ids, params in seatings:  # compile or load first: chunks are sized by the time play takes
            g.play_batch(r, ids, params, seed=seed, n=0, first=f)
        # a long tournament says so first (from its own first decks), then shows a bar
        done = timed_run(decks, play, progress=progress, stop=stopped, per=len(arr))
        interrupted = stopped()
    if interrupted:  # Ctrl-C: the decks finished in every arrangement are kept
        if done == 0:
            raise KeyboardInterrupt
        points, won, decks = points[:, :done], won[:, :done], done
    arr_np = np.array(arr)
    ranking, pairwise = _tables(labels, points, won, arr_np, sides, seed)
    return Tournament(game, r, labels, seed, decks, arr, points, ranking, pairwise, interrupted)


def format_ranking(t: Tournament) -> str:
    """The ranking, then the margin of each strategy (row) over each other (column)."""
    from ..core.tables import ci_text

    df = t.ranking
    w = max(8, *(len(s) for s in df["strategy"]))
    lines = [f"{'strategy':<{w}} {'points/game':>11} {'95% CI':>17} {'win rate':>9} {'95% CI':>15} "
             f"{'rating':>7} {'95% CI':>13} {'games':>9}"]  # fmt: skip
    for r in df.itertuples(index=False):
        lines.append(
            f"{r.strategy:<{w}} {r.points:>11.2f} {ci_text(r.points_low, r.points_high, t.decks, '.2f'):>17} "
            f"{r.win_rate:>9.3f} {ci_text(r.win_low, r.win_high, t.decks, '.3f'):>15} {r.rating:>7.0f} "
            f"{ci_text(r.rating_low, r.rating_high, t.decks, '.0f'):>13} {r.games:>9,}"
        )
    if not has_interval(t.decks):
        lines.append(
            f"one deck per seat arrangement gives no interval: ask for --n {2 * len(t.arrangements)} or more"
        )
    order = list(df["strategy"])
    pw = t.pairwise.set_index(["strategy", "opponent"])
    lines.append("")
    lines.append("margin: row's points minus column's, per game where both sat (* its 95% CI excludes 0)")
    cw = max(9, *(len(s) + 1 for s in order))
    lines.append(" " * w + "".join(f"{s:>{cw}}" for s in order))
    for a in order:
        cells = []
        for b in order:
            if a == b or (a, b) not in pw.index:
                cells.append(f"{'-':>{cw}}")
                continue
            m = pw.loc[(a, b)]
            star = "*" if m.margin_low > 0 or m.margin_high < 0 else " "
            cells.append(f"{m.margin:>{cw - 1}.2f}{star}")
        lines.append(f"{a:<{w}}" + "".join(cells))
    return "\n".join(lines)


__all__ = ["Tournament", "tournament", "arrangements", "split_strategies", "bradley_terry", "format_ranking"]
