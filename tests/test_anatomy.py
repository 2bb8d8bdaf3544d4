"""The package's shape: no import cycles, and the kernels' cache key follows their sources."""

import pytest

from whistsim._imports import closure, cycles, import_graph
from whistsim.figures import columns
from whistsim.games import get_game, seating
from whistsim.options import RuleError
from whistsim.strategy import parse_spec


def test_no_import_cycles_among_whistsim_modules():
    assert cycles(import_graph()) == []


def test_games_do_not_import_the_tools_built_on_them():
    # every module of the games (a game is loaded by name: the package imports none of them); the
    # open-hand search is one of them (games.dealt.search), the solver's tools over it stay above
    graph = import_graph()
    used = set().union(*(closure(m, graph) for m in graph if m.startswith("whistsim.games.")))
    tools = ("whistsim.experiments", "whistsim.cli", "whistsim.api", "whistsim.tournament", "whistsim.claims",
             "whistsim.solver")  # fmt: skip
    assert not [m for m in used if m.startswith(tools)]


def test_the_shared_harness_knows_no_game():
    used = closure("whistsim.harness", import_graph())
    assert not [m for m in used if m.startswith("whistsim.games")]


@pytest.mark.parametrize("game", ["welsh", "scotch", "whist"])
def test_players_asked_two_ways_must_agree_in_every_game(game):
    g = get_game(game)
    with pytest.raises(RuleError):
        g.make_rules(None, 5, {"players": "4"})


@pytest.mark.parametrize("game,players", [("welsh", 4), ("scotch", 6)])
def test_players_asked_two_ways_alike_is_one_request(game, players):
    g = get_game(game)
    assert g.make_rules(None, players, {"players": str(players)}) == g.make_rules(None, players, {})


def test_every_figure_a_game_measures_is_declared_and_every_declared_one_measured():
    for name in ("welsh", "scotch", "whist"):
        g = get_game(name)
        rules = g.make_rules(None, None, {})
        ids, params = seating(name, [parse_spec("random")], g.players_of(rules))
        measured = set(g.measure(g.play_batch(rules, ids, params, seed=1, n=5), rules))
        declared = set(columns(g.figures, g.players_of(rules), g.sides_of(rules)))
        ratios = {f.name for f in g.figures if f.ratio}
        assert measured == declared - ratios, name
