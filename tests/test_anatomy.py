"""The package's shape: no import cycles, and the kernels' cache key follows their sources."""

from whistsim._imports import closure, cycles, import_graph


def test_no_import_cycles_among_whistsim_modules():
    assert cycles(import_graph()) == []


def test_games_do_not_import_the_tools_built_on_them():
    used = closure("whistsim.games", import_graph())
    tools = ("whistsim.experiments", "whistsim.cli", "whistsim.api", "whistsim.tournament", "whistsim.claims")
    assert not [m for m in used if m.startswith(tools)]


def test_the_shared_harness_knows_no_game():
    used = closure("whistsim.harness", import_graph())
    assert not [m for m in used if m.startswith("whistsim.games")]
