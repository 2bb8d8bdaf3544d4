"""Welsh Whist (Parlett and Akagiri 1995; docs/rules.md section 1)."""

from __future__ import annotations

import numpy as np

from ...core.batch import Batch
from ...core.figures import Figure, leader_wins, points_declared, points_figures, top_share
from ..base import game_from_parts
from . import advice, kernels, players
from .engine import PILES, score_piles
from .narrate import narrate
from .records import make_record, replay
from .rules import OPTIONS, PRESETS, SCORINGS, WelshRules
from .table import WelshDeal
from .words import WORDS

FIGURES: tuple[Figure, ...] = (
    Figure("points", "seat", "points per game", "the seat's score under the rules' scoring"),
    Figure("cards_won", "seat", "cards per game", "cards in the seat's winnings pile at the end"),
    Figure("turns", "game", "turns per game", "draws plus leads"),
    Figure("tricks", "game", "tricks per game", "cards led, each a trick of one card or more"),
    Figure("draws", "game", "draws per game", "cards drawn from the stock", exact=lambda r: True),
    Figure("passes", "game", "passes per game", "answers of 'pass' to a lead, false ones included"),
    Figure("false_passes", "game", "false passes per game", "passes by a player able to follow", exact=lambda r: not r.revokes),
    Figure("challenges", "game", "challenges per game", "challenges made", exact=lambda r: r.challenge == "none"),
    Figure("challenges_won", "game", "revokes caught per game", "challenges that caught a false pass", exact=lambda r: r.challenge == "none" or not r.revokes),
    Figure("total_points", "game", "points per game (all players)", "the points all players scored together", exact=lambda r: r.scoring != "piles"),
    Figure("last_keeps", "game", "share of games", "the last player left holding cards kept some", rate=True),
    Figure("tt", "seat", "Tens and Taffies per game", "Tens and Taffies in the seat's winnings pile", basic=False),
    Figure("most_cards_wins", "game", "share of games", "a player with the most cards is among the top scorers", rate=True, basic=False),
    Figure("most_tt_wins", "game", "share of games", "a player with the most Tens and Taffies is among the top scorers", rate=True, basic=False),
    Figure("turns_per_player", "game", "turns per player per game", "turns over the number of players", basic=False),
    Figure("kept", "game", "cards per game", "cards the last player left holding kept (0 when none did)", basic=False),
    Figure("windfall", "game", "points per game", "points the last player's kept cards added to its score (0 when none)", basic=False),
    Figure("windfall_decides", "game", "share of games", "the windfall decided the winner: the last player won, or shared the win, and without the kept cards' points another seat would have scored more", rate=True, basic=False),
    Figure("windfall_per_keep", "game", "points per game with cards kept", "the windfall in the games in which the last player kept cards", ratio=("windfall", "last_keeps"), basic=False),
    Figure("taffy_ten", "game", "tricks per game", "tricks in which a Taffy and a Ten met", basic=False),
    Figure("taffy_ten_any", "game", "share of games", "a Taffy and a Ten met in at least one trick", rate=True, basic=False),
    Figure("taffy_ten_taffy", "game", "tricks per game", "tricks in which a Taffy and a Ten met and a Taffy won", basic=False),
    Figure("taffy_ten_ten", "game", "tricks per game", "tricks in which a Taffy and a Ten met and a Ten won", basic=False),
    Figure("taffy_ten_taffy_share", "game", "share of tricks where a Taffy and a Ten met", "of the tricks in which a Taffy and a Ten met, the share a Taffy won", ratio=("taffy_ten_taffy", "taffy_ten"), basic=False),
    Figure("taffy_ten_ten_share", "game", "share of tricks where a Taffy and a Ten met", "of the tricks in which a Taffy and a Ten met, the share a Ten won", ratio=("taffy_ten_ten", "taffy_ten"), basic=False),
    Figure("catch_rate", "game", "revokes caught per false pass", "challenges won over false passes", ratio=("challenges_won", "false_passes"), basic=False),
    *points_declared(),
)  # fmt: skip


def measure(batch: Batch, rules: WelshRules) -> dict[str, np.ndarray]:
    """Every declared figure, per game, by column."""
    seat, game = batch.seat, batch.game
    points = seat["points"]
    out: dict[str, np.ndarray] = {}
    for name in ("points", "cards_won"):
        for q in range(rules.players):
            out[f"{name}[{q}]"] = seat[name][:, q]
    for key in ("turns", "tricks", "draws", "passes", "false_passes", "challenges", "challenges_won"):
        out[key] = game[key]
    out["total_points"] = points.sum(axis=1)
    out["last_keeps"] = (game["kept"] > 0).astype(np.int8)
    tt = seat["tens"] + seat["taffies"]
    for q in range(rules.players):
        out[f"tt[{q}]"] = tt[:, q]
    out["most_cards_wins"] = leader_wins(points, seat["cards_won"])
    out["most_tt_wins"] = leader_wins(points, tt)
    out["turns_per_player"] = game["turns"] / rules.players
    out["kept"] = game["kept"]
    without = points_without_kept(batch, rules)
    # without == points where no one kept cards, so seat 0's 0 stands for those games
    out["windfall"] = (points - without)[np.arange(len(points)), np.maximum(game["last_holder"], 0)]
    out["windfall_decides"] = windfall_decides(points, without, game["last_holder"])
    out["taffy_ten"] = game["met"]
    out["taffy_ten_any"] = (game["met"] > 0).astype(np.int8)
    out["taffy_ten_taffy"] = game["met_taffy"]
    out["taffy_ten_ten"] = game["met_ten"]
    out.update(points_figures(points, game["first"]))
    return out


def points_without_kept(batch: Batch, rules: WelshRules) -> np.ndarray:
    """[n, players]: every seat's points had the last player not added its kept cards to its pile."""
    seat, game = batch.seat, batch.game
    points = seat["points"].astype(np.int64)
    holder = game["last_holder"].astype(np.int64)
    rows = np.flatnonzero(holder >= 0)
    h = holder[rows]
    kept, kept_tt, kept_fives = (game[k][rows].astype(np.int64) for k in ("kept", "kept_tt", "kept_fives"))
    out = points.copy()
    if rules.scoring == "piles":  # every seat's multiplier may change with the holder's pile height
        won = seat["cards_won"][rows].astype(np.int64)
        tt = (seat["tens"] + seat["taffies"])[rows].astype(np.int64)
        won[np.arange(len(rows)), h] -= kept
        tt[np.arange(len(rows)), h] -= kept_tt
        out[rows] = piles_points(won, tt)
        return out
    # the other scorings count each card alone: the kept cards scored as a pile of their own
    rule = SCORINGS.index(rules.scoring)
    out[rows, h] -= score_piles(rule, kept[:, None], kept_tt[:, None], kept_fives[:, None])[:, 0]
    return out


def piles_points(won_n: np.ndarray, tt: np.ndarray) -> np.ndarray:
    """Piles scoring over [n, players] pile heights and Tens and Taffies (the engine's rule):
    each seat scores its Tens and Taffies times 1 + the number of distinct smaller heights."""
    won_n, tt = np.asarray(won_n, np.int64), np.asarray(tt, np.int64)
    return score_piles(PILES, won_n, tt, np.zeros_like(won_n))


def windfall_decides(points: np.ndarray, without: np.ndarray, holder: np.ndarray) -> np.ndarray:
    """1 when the last player is among the top scorers, but without its kept cards would not be."""
    rows = np.arange(len(points))
    h = np.maximum(holder, 0)
    top = points[rows, h] == points.max(axis=1)
    top_without = without[rows, h] == without.max(axis=1)
    return ((holder >= 0) & top & ~top_without).astype(np.int8)


def outcome(batch: Batch, rules: WelshRules) -> tuple[np.ndarray, np.ndarray]:
    """A seat's points, and its share of the win: the top score wins, ties shared."""
    points = batch.seat["points"]
    return points, top_share(points)


GAME = game_from_parts(
    "welsh",
    "Welsh Whist",
    WelshRules,
    presets=PRESETS,
    options=OPTIONS,
    kernels=kernels,
    players=players.PLAYERS,
    advice=advice,
    make_record=make_record,
    replay=replay,
    narrate=narrate,
    figures=FIGURES,
    measure=measure,
    outcome=outcome,
    words=lambda rules: WORDS,
    table=WelshDeal,
    # pimc2: +3.6 points a game over pimc (docs/welsh_search.md); a duplicate tournament of counter,
    # pimc2 and hoarder (1,200 games, seed 7) gave it +31.9 points a game over counter, the earlier
    # default; at the table it answers in a median 6 ms (95th percentile 12 ms), counter in 2 ms.
    default_player="pimc2",
    cheat_params=advice.CHEAT_PARAMS,
)
