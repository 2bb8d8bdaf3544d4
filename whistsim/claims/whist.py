"""Whist's claims: the short whist page (docs/sources.md), quoted, read and measured."""

from __future__ import annotations

from .model import Claim, Figure, Outcome, Reading, above, plain, with_lines
from .run import ClaimRun

SOURCE = "Short whist page"
SEARCH = "pimc"  # the strongest Whist player at its default settings


def _side_wins(strong: str, weak: str):
    """Side 0 (seats 0 and 2) plays ``strong``, side 1 ``weak``; short whist, games to 5."""

    def run(ctx: ClaimRun, skill: str) -> Outcome:
        s = strong if strong != "SKILL" else skill
        players = [s, weak, s, weak]
        n = ctx.games("pimc" if "pimc" in s or "pimc" in weak else s)
        sim = ctx.simulate("whist", n, preset="short", strategies=players)
        won = sim.batch.side["won"][:, 0]
        f = Figure.share(int(won.sum()), len(won))
        return f, players, n, sim

    return run


def _scope(threshold: float, strong: str, weak: str):
    inner = _side_wins(strong, weak)

    def run(ctx: ClaimRun, skill: str) -> Outcome:
        f, players, n, _ = inner(ctx, skill)
        return Outcome(f, above(f, threshold), f"side 0 ({plain(players[0])}) against side 1 "
                       f"({plain(players[1])}), short whist to 5, the deal passing left, seed {ctx.seed}.")  # fmt: skip

    return run


def _several(least: int, share: float):
    def run(ctx: ClaimRun, skill: str) -> Outcome:
        sim = ctx.simulate("whist", ctx.games(skill), preset="short", strategies=[skill])
        deals = sim.batch.game["deals"]
        f = Figure.share(int((deals >= least).sum()), len(deals))
        return Outcome(f, above(f, share), f"short whist to 5 without honours, four {plain(skill)}, "
                       f"mean {Figure.of(deals).mean:.2f} deals per game, seed {ctx.seed}.")  # fmt: skip

    return run


CLAIMS = [
    Claim("scientific_play", "whist", SOURCE, "Whist Rules",
          "Although the rules are extremely simple there is enormous scope for scientific play",
          "enormous scope for scientific play", (
              Reading("sound_vs_random", "Sound play wins far more often than careless play: a pair playing "
                      "well beats a pair playing at random in at least three games in four.",
                      "the share of games to 5 won by a side of skilled players against a side of random "
                      "players.", "holds when the share is above 0.75 with its whole 95% CI; fails when it "
                      "is all below.", _scope(0.75, "SKILL", "random"), ("heuristic", SEARCH),
                      unit="share of games won"),
              Reading("search_vs_sound", "Even beyond sound rules of thumb there is more to gain: a searching "
                      "pair beats a pair following the rules of thumb.",
                      "the share of games to 5 won by a side of players who search sampled deals against a side "
                      "following the rules of thumb.",
                      "holds when the share is above 0.5 with its whole 95% CI; fails when it is all below.",
                      _scope(0.5, "SKILL", "heuristic"), ("pimc:worlds=4", SEARCH), line=0.5,
                      unit="share of games won"),
          ), differ="It depends on whether the scope is measured against random play or beyond sound rules of "
                    "thumb.", needs=("heuristic", "pimc")),
    Claim("several_deals", "whist", SOURCE, "Scoring",
          "The partnership which first reaches 5 points wins the game. This will normally take several deals.",
          "a game to 5 normally takes several deals", (
              Reading("most_three", "\"Several\" is three or more; \"normally\" is in most games.",
                      "the share of games to 5 that take three or more deals.",
                      "holds when the share is above 0.5 with its whole 95% CI; fails when it is all below.",
                      _several(3, 0.5), ("heuristic", SEARCH), unit="share of games"),
              Reading("nearly_all_two", "\"Several\" is more than one; \"normally\" is in nine games of ten.",
                      "the share of games to 5 that take two or more deals.",
                      "holds when the share is above 0.9 with its whole 95% CI; fails when it is all below.",
                      _several(2, 0.9), ("heuristic", SEARCH), line=0.9, unit="share of games"),
          ), differ="It depends on how many deals are \"several\" and how often is \"normally\"."),
]  # fmt: skip
# the value each claim's first reading compares its figure with, for the chart
CLAIMS = with_lines(CLAIMS, {"scientific_play": 0.75, "several_deals": 0.5})
CLAIMS_BY_ID = {c.id: c for c in CLAIMS}

# Assertions of the sources about play or balance that are not measured, and why.
NOT_MEASURED = [
    ("Long whist page", "The Play", "A discard never wins, so should be something you don't want or need.", "",
     "It follows from the rules as whistsim plays them (a card of another suit than the one led, not a trump, "
     "cannot win: tests/test_whist.py), and the advice is what every whistsim player does."),
    ("Long whist page", "Scoring the Game",
     "It appears that in 18th century America, however, it was more common to play a game of five points "
     "(\"short whist\")", "", "History, not a claim about play; whistsim plays both lengths (its long and short games)."),
]  # fmt: skip

# Statements of the sources that contradict their own rules: (source, where, quotation, why).
SOURCE_ERRORS = [
    ("Long whist page", "The Play, its last example",
     "Player 3 (the partner of player 1) is out of hearts, so he plays the two of hearts.",
     "A player out of hearts holds no two of hearts: the example contradicts itself and cannot be played as "
     "written (it likely means a two of another suit, a discard). Nothing in whistsim rests on it."),
]  # fmt: skip
