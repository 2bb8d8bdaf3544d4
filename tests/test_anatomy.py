"""The package's shape: no import cycles, and the kernels' cache key follows their sources."""

import ast
import functools
from pathlib import Path

import pytest

from whistsim.core.figures import columns
from whistsim.core.imports import ROOT, closure, cycles, import_graph, module_files
from whistsim.core.options import RuleError
from whistsim.core.strategy import parse_spec
from whistsim.games import get_game, seating


@functools.cache
def _parsed(root: Path = ROOT) -> dict[str, frozenset[str]]:
    """The package's import graph, its files parsed once for all the tests here."""
    return {m: frozenset(e) for m, e in import_graph(root).items()}


def graph(root: Path = ROOT) -> dict[str, set[str]]:
    """:func:`import_graph`, a copy of its own for each caller."""
    return {m: set(e) for m, e in _parsed(root).items()}


def test_no_import_cycles_among_whistsim_modules():
    assert cycles(graph()) == []


def test_games_do_not_import_the_tools_built_on_them():
    # every module of the games (a game is loaded by name: the package imports none of them); the
    # open-hand search is one of them (games.dealt.search), the solver's tools over it stay above
    g = graph()
    used = set().union(*(closure(m, g) for m in g if m.startswith("whistsim.games.")))
    tools = ("whistsim.experiments", "whistsim.cli", "whistsim.api", "whistsim.tools.tournament", "whistsim.claims",
             "whistsim.solver")  # fmt: skip
    assert not [m for m in used if m.startswith(tools)]


def test_the_shared_harness_knows_no_game():
    used = closure("whistsim.harness", graph())
    assert not [m for m in used if m.startswith("whistsim.games")]


# ---- modules loaded by name ----------------------------------------------------------------------
#
# ``importlib.import_module(f"{X}.{name}")`` may load any module of package X: the static graph above
# does not see it. Such a load counts as edges from the loader to every module of X, and a module so
# loaded that imports names from one of its own packages (``from . import Claim``) imports that package
# back, which the static graph leaves out (a package is running when its modules run).


def _package_of(module: str, path, node: ast.expr, consts: dict[str, str]) -> str | None:
    """The package X of ``import_module(f"{X}.{...}")``, or None when the argument is no such f-string."""
    if not isinstance(node, ast.JoinedStr) or not node.values:
        return None
    head = node.values[0]
    if isinstance(head, ast.Constant):  # f"whistsim.games.{name}"
        return head.value[:-1] if head.value.endswith(".") else None
    if not (isinstance(head, ast.FormattedValue) and isinstance(head.value, ast.Name)):
        return None
    second = node.values[1] if len(node.values) > 1 else None
    if not (isinstance(second, ast.Constant) and second.value.startswith(".")):
        return None
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    known = {"__name__": module, "__package__": package, **consts}
    if head.value.id not in known:
        raise AssertionError(
            f"{module}: import_module(f'{{{head.value.id}}}...'): which package it loads from "
            "cannot be read; name it by __name__, __package__ or a constant"
        )
    return known[head.value.id] + second.value[: second.value.rfind(".")]


def _constants(module: str, path, tree: ast.Module) -> dict[str, str]:
    """Module-level names bound to a package's name: ``STUDIES = __package__ + ".studies"``, ``PACKAGE =
    __package__``."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    roots = {"__name__": module, "__package__": package}
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            v = node.value
            if isinstance(v, ast.Constant) and isinstance(v.value, str):
                out[node.targets[0].id] = v.value
            elif isinstance(v, ast.Name) and v.id in roots:
                out[node.targets[0].id] = roots[v.id]
            elif (isinstance(v, ast.BinOp) and isinstance(v.op, ast.Add) and isinstance(v.left, ast.Name)
                  and v.left.id in roots and isinstance(v.right, ast.Constant)):  # fmt: skip
                out[node.targets[0].id] = roots[v.left.id] + v.right.value
    return out


def loaded_by_name(files: dict) -> dict[str, set[str]]:
    """Loader -> the modules it may load by name (every module of the package its f-string names)."""
    out: dict[str, set[str]] = {}
    for module, path in files.items():
        tree = ast.parse(path.read_bytes(), str(path))
        consts = _constants(module, path, tree)
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            f = node.func
            if (f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)) != "import_module":
                continue
            package = _package_of(module, path, node.args[0], consts)
            if package is None:
                continue
            own = {".".join(module.split(".")[:k]) for k in range(1, module.count(".") + 2)}
            targets = {m for m in files if (m == package or m.startswith(package + ".")) and m not in own}
            out.setdefault(module, set()).update(targets)
    return out


def names_from_own_packages(module: str, path, files: dict) -> set[str]:
    """The packages holding ``module`` that it imports names from (``from . import Claim``), not only
    modules (``from . import tricks``)."""
    tree = ast.parse(path.read_bytes(), str(path))
    parts = module.split(".")
    own = {".".join(parts[:k]) for k in range(1, len(parts))}
    base = parts if path.name == "__init__.py" else parts[:-1]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            target = (
                node.module or ""
                if node.level == 0
                else ".".join(base[: len(base) - (node.level - 1)] + ([node.module] if node.module else []))
            )
            if target in own and any(f"{target}.{a.name}" not in files for a in node.names):
                out.add(target)
    return out


def graph_with_loads(root: Path = ROOT) -> dict[str, set[str]]:
    """The import graph, with every load by name and what the loaded modules import back from their
    own packages."""
    files = module_files(root)
    out = graph(root)
    for loader, targets in loaded_by_name(files).items():
        out[loader] |= targets
        for m in targets:
            out[m] |= names_from_own_packages(m, files[m], files)
    return out


def test_every_load_by_name_is_seen():
    loads = loaded_by_name(module_files())
    assert "whistsim.experiments.studies.leading" in loads["whistsim.experiments.reading"]
    assert "whistsim.claims.welsh" in loads["whistsim.claims.loader"]
    assert "whistsim.games.welsh" in loads["whistsim.games"]


def test_nothing_loaded_by_name_imports_its_loader_back():
    assert cycles(graph_with_loads()) == []


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


# ---- the tree in docs/architecture.md ------------------------------------------------------------

# Named by a pattern there rather than one by one: each study (studies/NAME.py), each game's
# players (players/ (random ... pimc)) and each game's claims module (claims/NAME.py).
BY_PATTERN = ("whistsim.experiments.studies.", "whistsim.claims.")


def test_docs_architecture_names_every_module():
    text = (ROOT.parent / "docs" / "architecture.md").read_text()
    tree = text[text.index("```\nwhistsim/") : text.index("```\n", text.index("```\nwhistsim/") + 4)]
    unnamed = []
    for module, path in module_files().items():
        if module.startswith(BY_PATTERN) and path.name != "__init__.py" or ".players." in module:
            continue
        word = f"{path.parent.name}/" if path.name == "__init__.py" else path.name
        if word not in tree:
            unnamed.append(module)
    assert unnamed == []
