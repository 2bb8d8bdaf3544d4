"""whistsim's own import graph, read from the sources (nothing is imported).

Used to key the kernel cache by what the kernels are built from, and by the
test that the package has no import cycles. Every import counts, those inside
functions too (a lazy import hides a cycle, it does not remove it); importing
``a.b.c`` also runs ``a`` and ``a.b``, except the packages that hold the
importing module (they are already running).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).parent
PACKAGE = ROOT.name


def module_files(root: Path = ROOT) -> dict[str, Path]:
    """Module name -> file, for every module of the package."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    base = base if is_package else base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(module: str, path: Path, known: set[str]) -> set[str]:
    """The package's modules that ``module`` imports (anywhere in its body)."""
    tree = ast.parse(path.read_bytes(), str(path))
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(module, is_package, node)
            names = [target] + [f"{target}.{a.name}" for a in node.names]
        else:
            continue
        for name in names:
            if name in known:
                parts = name.split(".")
                found.update(".".join(parts[:k]) for k in range(1, len(parts) + 1))
    # A module's own packages are already being imported when it runs: no edge to them.
    own = module.split(".")
    ancestors = {".".join(own[:k]) for k in range(1, len(own) + 1)}
    return {m for m in found if m in known and m not in ancestors}


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    files = module_files(root)
    known = set(files)
    return {m: imports_of(m, p, known) for m, p in files.items()}


def closure(start: str, graph: dict[str, set[str]]) -> set[str]:
    """``start`` and every module it imports, directly or not."""
    seen, todo = set(), [start]
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            todo.extend(graph.get(m, ()))
    return seen


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each strongly connected group of modules (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return groups
