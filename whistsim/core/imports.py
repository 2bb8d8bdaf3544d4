"""whistsim's own import graph, read from the sources (nothing is imported).

Used to key the kernel cache by what each kernel is built from (with the
packages of games defined outside whistsim, :class:`Graph`), and by the test
that the package has no import cycles. Every import counts, those inside
functions too (a lazy import hides a cycle, it does not remove it); importing
``a.b.c`` also runs ``a`` and ``a.b``, except the packages that hold the
importing module (they are already running).
"""

from __future__ import annotations

import ast
import hashlib
from pathlib import Path

ROOT = Path(__file__).parent.parent  # whistsim/
PACKAGE = ROOT.name


def module_files(root: Path = ROOT, name: str | None = None) -> dict[str, Path]:
    """Module name -> file, for every module of the package in folder ``root`` (its dotted name
    ``name``, else the folder's name); ``root`` a file: that one module."""
    if root.is_file():
        return {name or root.stem: root}
    prefix = (name or root.name).split(".")
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join([*prefix, *parts])] = path
    return out


def package_of(module: str, file: Path) -> tuple[Path, str]:
    """The outermost regular package (a folder with ``__init__.py``) holding ``module``, read
    from ``file``: its folder and dotted name; a module in no package: its file and name."""
    parts = module.split(".")
    folder = file.parent
    if file.name != "__init__.py":
        parts = parts[:-1]
    if not parts or not (folder / "__init__.py").is_file():
        return file, module
    while len(parts) > 1 and (folder.parent / "__init__.py").is_file():
        folder, parts = folder.parent, parts[:-1]
    return folder, ".".join(parts)


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    base = base if is_package else base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imported_names(module: str, source: bytes, is_package: bool) -> list[str]:
    """Every dotted name an import statement of ``module`` names (a module or a name in one)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(module, is_package, node)
            found.update([target] + [f"{target}.{a.name}" for a in node.names])
    return sorted(found)


def imports_of(module: str, path: Path, known: set[str], names: list[str] | None = None) -> set[str]:
    """The package's modules that ``module`` imports (anywhere in its body); ``names``: its
    :func:`imported_names`, when known already."""
    if names is None:
        names = imported_names(module, path.read_bytes(), path.name == "__init__.py")
    found: set[str] = set()
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


def source_key(module: str, source: bytes, is_package: bool) -> str:
    return hashlib.sha256(f"{module}\0{is_package}\0".encode() + source).hexdigest()[:24]


class Graph:
    """The import graph of whistsim and of the outside packages added, each module's imports
    read from its file when first asked: a closure reads only the files it reaches."""

    def __init__(self, root: Path = ROOT, memo: dict[str, list[str]] | None = None) -> None:
        """``memo``: :func:`imported_names` by :func:`source_key` (parsing is most of the time)."""
        self.memo = {} if memo is None else memo
        self.package = root.name
        self.files = module_files(root)
        self._known = set(self.files)
        self._roots = {root}
        self._edges: dict[str, set[str]] = {}

    def add(self, module: str, file: Path) -> None:
        """Add the package holding ``module`` (its file ``file``), when not known yet."""
        root, name = package_of(module, file)
        if root not in self._roots:
            self._roots.add(root)
            self.files.update({m: p for m, p in module_files(root, name).items() if m not in self.files})
            self._known = set(self.files)
            # an outside module read before may import one of the new ones (the package's own may not)
            own = self.package + "."
            self._edges = {m: e for m, e in self._edges.items() if m == self.package or m.startswith(own)}

    def get(self, module: str, default=()) -> set[str]:
        """The modules ``module`` imports (a dict's ``get``, for :func:`closure`)."""
        if module not in self._edges:
            path = self.files.get(module)
            names = None if path is None else self._names(module, path)
            self._edges[module] = set() if path is None else imports_of(module, path, self._known, names)
        return self._edges[module]

    def _names(self, module: str, path: Path) -> list[str]:
        source, is_package = path.read_bytes(), path.name == "__init__.py"
        key = source_key(module, source, is_package)
        names = self.memo.pop(key, None)
        if names is None:
            names = imported_names(module, source, is_package)
        self.memo[key] = names  # put back last: the memo's end holds what was used latest
        return names


def closure(start: str, graph: dict[str, set[str]] | Graph) -> set[str]:
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
