"""Experiment specs: a TOML file (or a dict) checked in full before anything runs.

The schema, its checks and the expansion into cells and paired comparisons;
nothing here runs games or reads results.

A spec names the game, the base rules, a player per seat, the games per cell,
the seed and the sweeps. Sweep axes are dotted paths:

- ``rules.KEY``: a rule option (``rules.players``, ``rules.preset``, ...);
- ``seats.K.PARAM``: one parameter of seat K's player; K is a seat number,
  ``all`` (every seat), ``others`` (every seat not numbered in ``[seats]``) or
  ``sideN`` (every seat of side N, in a game of sides: one strategy per partnership);
- ``seats.K``: seat K's whole player, e.g. ``["hunter", "hoarder"]``;
- ``game``: the game itself (``[[sweep]]`` grids of different games, each with its own rules).

``sweep`` is one grid (a table) or a union of grids (an array of tables).
Every failure is a :class:`SpecError`: one line naming the key and the reason.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import math
import re
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..core.options import WhistsimError, near
from ..core.strategy import StrategySpec, parse_spec
from ..games import get_game, seating
from .figures import figure_names, is_ratio

TOP_KEYS = {
    "name": "results/NAME (default: the file's stem)",
    "title": "the report's title",
    "question": "the question the study answers, for the report",
    "game": "a game by name: welsh, scotch, whist, ohhell (a sweep axis 'game' may give other cells other games)",
    "n": "games per cell",
    "seed": "the one integer that decides every deck and choice",
    "first": "the seat that plays first, or 'rotate' (default: rotate)",
    "where": "deal only deals that meet this constraint, e.g. 'side0.trumps >= 9' (docs/deals.md)",
    "chunk": "games per cell in one unit of work (default 16384)",
    "rules": "the base rules: preset, players and rule options",
    "seats": "the players: a list (one per seat) or a table with 'all' and seat numbers",
    "sweep": "axes to sweep: a table (one grid) or an array of tables (a union of grids)",
    "baseline": "paired comparisons: axis = the value (or list of values) every other value is compared with",
    "headline": "the figures the findings, charts and --until-ci use",
    "histograms": "figures whose whole distribution is kept (integer values)",
    "labels": "short names for axes in tables and charts",
    "analysis": "the study's own findings and charts: a module of whistsim/experiments/studies/",
    "measure": "a study's own per-game figures: the function measure of whistsim/experiments/studies/NAME.py",
}
DEFAULT_CHUNK = 1 << 14
STUDIES = Path(__file__).parent / "studies"  # a study's own analysis: studies/NAME.py
RANGE = re.compile(r"^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*$")
SEAT_KEY = re.compile(r"^(\d+|all|others|side\d+)$")


class SpecError(WhistsimError):
    """A spec that cannot run: unknown key, wrong type or impossible combination."""


@dataclass(frozen=True)
class Cell:
    """One combination of sweep values: rules and a player per seat, fully resolved."""

    index: int
    coords: tuple[tuple[str, Any], ...]  # (axis, value) for the axes of this cell's grid
    rules: Any
    players: tuple[str, ...]  # one strategy spec per seat
    first: int  # -1: rotate with the game index
    deck: str  # cells with equal ``deck`` shuffle identical stocks for a seed
    where: str | None = None  # the constraint every deal meets (docs/deals.md), or None
    game: str | None = None  # the cell's game, when a ``game`` axis sweeps it (else the spec's)

    def value(self, axis: str) -> Any:
        return dict(self.coords).get(axis)

    def seating(self, game: str) -> tuple[np.ndarray, np.ndarray]:
        return seating(game, [parse_spec(s) for s in self.players], len(self.players))


@dataclass(frozen=True)
class Pair:
    """A paired comparison: ``cell`` against ``base`` on the same games."""

    cell: int
    base: int
    axis: str


@dataclass
class Spec:
    name: str
    game: str
    n: int
    seed: int
    first: int | str
    chunk: int
    rules: dict[str, Any]
    seats: dict[str, str]
    grids: list[dict[str, list[Any]]]
    baseline: dict[str, list[Any]]  # axis -> the values others are compared with, in order
    headline: list[str]
    histograms: list[str]
    labels: dict[str, str]
    analysis: str | None
    title: str
    question: str
    source: str | None = None  # the TOML file, if any
    where: str | None = None  # the constraint on every deal, unless a ``where`` axis sweeps it
    cells: list[Cell] = field(default_factory=list)
    pairs: list[Pair] = field(default_factory=list)
    axes: list[str] = field(default_factory=list)
    measure: str | None = None  # a study whose ``measure`` adds per-game figures (studies/NAME.py)

    def game_of(self, cell: Cell) -> str:
        """The game a cell plays: its own under a ``game`` axis, else the spec's."""
        return cell.game or self.game

    def games(self) -> list[str]:
        """Every game the cells play, in order of first appearance."""
        return list(dict.fromkeys(self.game_of(c) for c in self.cells)) or [self.game]

    def label(self, axis: str) -> str:
        return self.labels.get(axis) or default_label(axis)

    def cell_label(self, cell: Cell) -> str:
        if not cell.coords:
            return "all games"
        return ", ".join(f"{self.label(a)}={fmt_value(v)}" for a, v in cell.coords)

    def fingerprint(self, **extra: Any) -> str:
        """A hash of everything that decides the numbers (for checkpoints)."""
        payload = {
            "game": self.game,
            "seed": self.seed,
            "chunk": self.chunk,
            "n": self.n,
            "cells": [
                [rules_key(c.rules), list(c.players), c.first]
                + ([c.where] if c.where else [])
                + ([c.game] if c.game else [])
                for c in self.cells
            ],  # fmt: skip
            "pairs": [[p.cell, p.base] for p in self.pairs],
            "headline": self.headline,
            "histograms": self.histograms,
            **({"measure": self.measure} if self.measure else {}),
            **extra,
        }
        return hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()[:16]

    def with_seed(self, seed: int) -> Spec:
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise SpecError(f"seed={seed!r}: expected an integer from 0 to 2**63-1")
        if any(c.where for c in self.cells):  # a constraint's sample was drawn from the seed
            raise SpecError("seed: a spec that deals under a constraint takes its seed from the spec")
        return Spec(**{**self.__dict__, "seed": seed})

    def with_n(self, n: int) -> Spec:
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise SpecError(f"n={n!r}: expected a number of games >= 1")
        out = Spec(**{**self.__dict__, "n": n})
        return out


def rules_key(rules: Any) -> dict[str, Any]:
    """Every rule of a cell: its record's rules and the game options a record leaves out (claim, unit)."""
    key = dict(rules.to_record()) if hasattr(rules, "to_record") else {"repr": repr(rules)}
    if dataclasses.is_dataclass(rules):
        for f in dataclasses.fields(rules):
            key.setdefault(f.name, getattr(rules, f.name))
    return key


def fmt_value(v: Any) -> str:
    if isinstance(v, float):
        short = f"{v:g}"
        return short if float(short) == v else repr(v)  # never two values under one label
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def default_label(axis: str) -> str:
    """``rules.challenge`` -> ``challenge``; ``seats.0.cheat`` -> ``cheat[0]``; ``seats.1`` -> ``player[1]``."""
    parts = axis.split(".")
    if axis == "where":
        return "dealt where"
    if axis == "game":
        return "game"
    if parts[0] == "rules":
        return parts[1]
    if len(parts) == 2:
        return f"player[{parts[1]}]"
    return f"{parts[2]}[{parts[1]}]"


# ---- reading ---------------------------------------------------------------


MAX_SPEC_BYTES = 256 << 10  # a spec is a few KB; tomllib takes seconds a megabyte
MAX_DEPTH = 32  # tables and lists inside one another; a real spec nests 5 deep
# A dotted key of 64 parts (tomllib's time grows with the square of a key's parts): refused unparsed.
DEEP_KEY = re.compile(r"""(?<![\w"'-])(?:(?:[\w-]++|"[^"\n]*+"|'[^'\n]*+')[ \t]*+\.[ \t]*+){64}""")


def load_spec(path: str | Path) -> Spec:
    """Read and check a TOML spec; raises SpecError with one line on any problem."""
    data, stem = read_toml(path, SpecError)
    return spec_from_dict(data, name=stem, source=_shown(path))


def _shown(path: str | Path) -> str:
    """A spec's path as a report names it: a shipped spec by its place in the repository, not this
    machine's folders."""
    p = Path(path)
    if p.is_absolute():
        try:
            return str(p.resolve().relative_to(Path(__file__).resolve().parents[2]))
        except ValueError:
            pass
    return str(path)


def shipped_spec(name: str) -> Path:
    """The spec of a study whistsim ships, ``experiments/NAME.toml`` beside the package (a checkout
    or an editable install), wherever the command is run from."""
    path = Path(__file__).resolve().parents[2] / "experiments" / f"{name}.toml"
    if not path.is_file():
        raise SpecError(f"the study's spec experiments/{name}.toml is not beside this install of whistsim "
                        "(it ships with the repository): give one with --spec")  # fmt: skip
    return path


def read_toml(path: str | Path, error: type[Exception]) -> tuple[dict, str]:
    """A TOML spec file (``-``: standard input) as a dict, and the name it gives a study (the file's
    stem); ``error`` with one line when it cannot be read, is too large or deep, or is not TOML."""
    p = Path(path)
    try:
        if str(path) == "-":  # standard input; the study is then named by its 'name' key
            src = sys.stdin.buffer if hasattr(sys.stdin, "buffer") else None
            raw = src.read(MAX_SPEC_BYTES + 1) if src is not None else sys.stdin.read().encode()
            p = Path("stdin")
        else:
            with open(p, "rb") as f:
                raw = f.read(MAX_SPEC_BYTES + 1)
    except OSError as e:
        raise error(f"cannot read {path}: {e.strerror}") from None
    if len(raw) > MAX_SPEC_BYTES:
        raise error(f"{path}: over {MAX_SPEC_BYTES // 1024} KiB; a spec is a short TOML file")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise error(f"{path}: not UTF-8 text (byte {e.start})") from None
    text = text.removeprefix("\ufeff")  # a byte order mark, as some editors write
    if DEEP_KEY.search(text):
        raise error(f"{path}: a dotted key of more than 64 parts; a spec nests at most {MAX_DEPTH} deep")
    try:
        return tomllib.loads(text), p.stem
    except tomllib.TOMLDecodeError as e:
        raise error(f"{path}: not valid TOML: {e}") from None
    except RecursionError:
        raise error(f"{path}: tables or lists nested too deeply (at most {MAX_DEPTH})") from None


def _depth(v: Any) -> int:
    """How deeply tables and lists nest in ``v`` (counted without recursion: any depth is safe)."""
    deepest, todo = 0, [(v, 1)]
    while todo:
        x, d = todo.pop()
        if isinstance(x, dict):
            items: Any = x.values()
        elif isinstance(x, list):
            items = x
        else:
            continue
        deepest = max(deepest, d)
        if d > MAX_DEPTH:
            break
        todo.extend((y, d + 1) for y in items)
    return deepest


def _int(key: str, v: Any, low: int, high: int | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise SpecError(f"{key}={v!r}: expected an integer")
    if v < low or (high is not None and v > high):
        raise SpecError(
            f"{key}={v}: expected {low} to {high}"
            if high is not None
            else f"{key}={v}: expected at least {low}"
        )
    return v


def _str(key: str, v: Any) -> str:
    if not isinstance(v, str):
        raise SpecError(f"{key}={v!r}: expected a string")
    return v


def _str_list(key: str, v: Any) -> list[str]:
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise SpecError(f"{key}={v!r}: expected a list of strings")
    return list(v)


def _table(key: str, v: Any) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise SpecError(f"{key}: expected a table, got {type(v).__name__} {v!r}")
    return v


def _flatten(prefix: str, d: dict[str, Any]) -> dict[str, Any]:
    """Nested TOML tables (``[sweep.seats.0]``) -> dotted paths."""
    out: dict[str, Any] = {}
    for k, v in d.items():
        path = f"{prefix}.{k}" if prefix else k
        if isinstance(v, dict):
            out.update(_flatten(path, v))
        else:
            out[path] = v
    return out


MAX_SWEEP = 10_000  # values on one sweep axis
PARAM_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _axis_values(axis: str, v: Any) -> list[Any]:
    if isinstance(v, str) and RANGE.match(v):
        ends = RANGE.match(v).groups()  # type: ignore[union-attr]
        if any(len(x) > 9 or not x.lstrip("-").isascii() for x in ends):
            raise SpecError(f"sweep {axis}={v!r}: expected a range of small integers")
        a, b = (int(x) for x in ends)
        if b < a:
            raise SpecError(f"sweep {axis}={v!r}: an empty range")
        if b - a + 1 > MAX_SWEEP:  # checked before the list is built
            raise SpecError(f"sweep {axis}={v!r}: {b - a + 1:,} values; at most {MAX_SWEEP:,} per axis")
        return list(range(a, b + 1))
    if not isinstance(v, list):
        raise SpecError(f'sweep {axis}={v!r}: expected a list of values (or a range such as "3..8")')
    if not v:
        raise SpecError(f"sweep {axis}: an empty list")
    for x in v:
        if not isinstance(x, (str, int, float, bool)):
            raise SpecError(f"sweep {axis}: value {x!r} is not a string, number or boolean")
    if len(v) > MAX_SWEEP:
        raise SpecError(f"sweep {axis}: {len(v):,} values; at most {MAX_SWEEP:,} per axis")
    if len({json.dumps(x) for x in v}) != len(v) or len({fmt_value(x) for x in v}) != len(v):
        raise SpecError(f"sweep {axis}: a value is listed twice")
    if axis.startswith("seats.") and axis.count(".") == 2:
        for x in v:  # a parameter's value goes into a strategy spec: no text that could add another
            if isinstance(x, str) and not PARAM_WORD.fullmatch(x):
                raise SpecError(f"sweep {axis}: value {x!r} is not a number or a word such as smart")
    return list(v)


def _check_axis(axis: str, options: dict[str, Any]) -> None:
    if axis in ("where", "game"):
        return
    parts = axis.split(".")
    if parts[0] == "rules":
        if len(parts) != 2 or (parts[1] not in options and parts[1] != "preset"):
            raise SpecError(
                f"sweep {axis}: unknown rule{near(parts[-1], ['preset', *options])} (known: preset, {', '.join(options)})"
            )
        return
    if parts[0] == "seats":
        if len(parts) not in (2, 3) or not SEAT_KEY.match(parts[1]):
            raise SpecError(
                f"sweep {axis}: expected seats.K or seats.K.PARAM with K a seat number, all, others or sideN"
            )
        return
    raise SpecError(f"sweep {axis}: an axis starts with 'rules.' or 'seats.', or is 'where' or 'game'")


_OPTION_TYPES = {
    "bool": (lambda v: isinstance(v, bool), "true or false"),
    "int": (lambda v: isinstance(v, int) and not isinstance(v, bool), "an integer"),
    "number": (lambda v: isinstance(v, (int, float)) and not isinstance(v, bool), "a number"),
    "int_list": (lambda v: isinstance(v, list) and all(isinstance(x, int) and not isinstance(x, bool) for x in v), "a list of integers"),
    "str": (lambda v: isinstance(v, str), "a string"),
}  # fmt: skip


def _check_rule_type(where: str, key: str, v: Any, options: dict[str, Any]) -> None:
    """TOML values are typed: ``players = "3"`` is a wrong type, not a 3."""
    if key == "preset":
        if not isinstance(v, str):
            raise SpecError(f"{where}={v!r}: expected a string")
        return
    ok, words = _OPTION_TYPES[options[key].kind]
    if not ok(v):
        raise SpecError(f"{where}={v!r}: expected {words}")


def spec_from_dict(data: dict[str, Any], *, name: str = "experiment", source: str | None = None) -> Spec:
    """Check a spec given as a dict (as TOML parses it) and expand its cells."""
    data = _table("spec", data)
    if _depth(data) > MAX_DEPTH:
        raise SpecError(f"tables or lists nested more than {MAX_DEPTH} deep")
    for key in data:
        if key not in TOP_KEYS:
            raise SpecError(f"unknown key {key!r} (known: {', '.join(TOP_KEYS)})")
    for key in ("game", "n", "seed"):
        if key not in data:
            raise SpecError(f"missing key {key!r} ({TOP_KEYS[key]})")
    game_name = _str("game", data["game"])
    try:
        game = get_game(game_name)
    except WhistsimError as e:
        raise SpecError(f"game: {e}") from None
    name = _str("name", data.get("name", name))
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", name) or name.startswith("."):
        raise SpecError(f"name={name!r}: use letters, digits, '_', '-' and '.' only")
    n = _int("n", data["n"], 1)
    seed = _int("seed", data["seed"], 0, 2**63 - 1)
    chunk = _int("chunk", data.get("chunk", DEFAULT_CHUNK), 2)
    first = data.get("first", "rotate")
    if first != "rotate":
        first = _int("first", first, 0)
    where_all = data.get("where")
    if where_all is not None:
        where_all = _str("where", where_all)

    rules = _table("rules", data.get("rules", {}))

    seats_raw = data.get("seats", {"all": "random"})
    if isinstance(seats_raw, list):
        if not all(isinstance(s, str) for s in seats_raw) or not seats_raw:
            raise SpecError(f'seats={seats_raw!r}: expected a list of player specs such as "random"')
        seats = {str(i): s for i, s in enumerate(seats_raw)}
    else:
        seats = {}
        for k, v in _table("seats", seats_raw).items():
            if not SEAT_KEY.match(k) or k == "others" or k.startswith("side"):
                raise SpecError(f"seats.{k}: expected a seat number or 'all'")
            seats[k] = _str(f"seats.{k}", v)
    for k, v in seats.items():
        try:
            parse_spec(v)
        except WhistsimError as e:
            raise SpecError(f"seats.{k}: {e}") from None

    sweep = data.get("sweep", {})
    grids_raw = sweep if isinstance(sweep, list) else [sweep]
    grids: list[dict[str, list[Any]]] = []
    axes: list[str] = []
    used: dict[str, None] = {}  # every game a cell plays
    for i, g in enumerate(grids_raw):
        where = "sweep" if isinstance(sweep, dict) else f"sweep[{i}]"
        flat = _flatten("", _table(where, g))
        grid = {}
        games = [game_name]
        if "game" in flat:
            grid["game"] = games = _axis_values("game", flat["game"])
            for x in games:
                try:
                    get_game(_str("sweep game", x))
                except WhistsimError as e:
                    raise SpecError(f"sweep game: {e}") from None
        used.update(dict.fromkeys(games))
        for axis, values in flat.items():
            grid[axis] = _axis_values(axis, values)
            for gname in games:  # a rule swept in a grid is a rule of each of its games
                opts = {o.key: o for o in get_game(gname).options}
                _check_axis(axis, opts)
                if axis.startswith("rules.") and axis != "rules.preset":
                    for x in grid[axis]:
                        _check_rule_type(f"sweep {axis}", axis.split(".")[1], x, opts)
            if axis not in axes:
                axes.append(axis)
        grids.append(grid)
    for gname in used:  # the base rules are rules of every game played
        g_ = get_game(gname)
        opts = {o.key: o for o in g_.options}
        of = f" ({gname})" if list(used) != [game_name] else ""
        for key, v in rules.items():
            if key not in opts and key != "preset":
                raise SpecError(f"rules.{key}: unknown rule{of}{near(key, ['preset', *opts])} (known: preset, "
                                f"{', '.join(opts)})")  # fmt: skip
            if isinstance(v, dict):
                raise SpecError(f"rules.{key}: expected a value, got a table")
            _check_rule_type(f"rules.{key}", key, v, opts)
        if "preset" in rules and rules["preset"] not in g_.presets:
            raise SpecError(
                f"rules.preset={rules['preset']!r}: unknown preset{of}{near(rules['preset'], g_.presets)} "
                f"(known: {', '.join(g_.presets)})"
            )

    labels = {
        k: _str(f"labels.{k}", v) for k, v in _flatten("", _table("labels", data.get("labels", {}))).items()
    }
    for k in labels:
        if k not in axes:
            raise SpecError(f"labels.{k}: not a sweep axis (axes: {', '.join(axes) or 'none'})")
    baseline: dict[str, list[Any]] = {}
    for axis, v in _flatten("", _table("baseline", data.get("baseline", {}))).items():
        if axis not in axes:
            raise SpecError(f"baseline.{axis}: not a sweep axis (axes: {', '.join(axes) or 'none'})")
        values = v if isinstance(v, list) else [v]
        if not values:
            raise SpecError(f"baseline.{axis}: an empty list")
        for x in values:
            if not any(axis in g and any(_same(y, x) for y in g[axis]) for g in grids):
                raise SpecError(f"baseline.{axis}={x!r}: not one of the swept values")
        baseline[axis] = values
    headline = _str_list("headline", data.get("headline", []))
    histograms = _str_list("histograms", data.get("histograms", []))
    measure = data.get("measure")
    if measure is not None:
        measure = _str("measure", measure)
        if measure not in study_names():
            raise SpecError(
                f"measure={measure!r}: unknown{near(measure, study_names())} (known: {', '.join(study_names())})"
            )
    analysis = data.get("analysis")
    if analysis is not None:
        analysis = _str("analysis", analysis)
        if analysis not in study_names():
            raise SpecError(
                f"analysis={analysis!r}: unknown{near(analysis, study_names())} (known: {', '.join(study_names())})"
            )

    spec = Spec(
        name=name, game=game_name, n=n, seed=seed, first=first, chunk=chunk, rules=dict(rules), seats=seats,
        grids=grids, baseline=baseline, headline=headline, histograms=histograms, labels=labels,
        analysis=analysis, title=_str("title", data.get("title", name)),
        question=_str("question", data.get("question", "")), source=source, axes=axes, where=where_all,
        measure=measure,
    )  # fmt: skip
    if where_all is not None and "where" in axes:
        raise SpecError("where: given once for every cell and swept as an axis; keep one")
    spec.cells = _expand(spec, game)
    spec.pairs = _pairs(spec)
    _check_figures(spec, game)
    return spec


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return math.isclose(a, b)
    return a == b


# ---- cells -----------------------------------------------------------------


def _seat_specs(
    spec: Spec, coords: dict[str, Any], players: int, where: str, sides: tuple[int, ...] | None = None
) -> list[str]:
    numbered = {int(k) for k in spec.seats if (k.isascii() and k.isdigit())}
    for axis in coords:
        parts = axis.split(".")
        if parts[0] == "seats" and (parts[1].isascii() and parts[1].isdigit()):
            numbered.add(int(parts[1]))
    bad = sorted(s for s in numbered if s >= players)
    if bad:
        raise SpecError(f"{where}: seat {bad[0]} is named but there are only {players} seats")
    whole = {
        int(a.split(".")[1])
        for a in coords
        if a.startswith("seats.")
        and a.count(".") == 1
        and (a.split(".")[1].isascii() and a.split(".")[1].isdigit())
    }
    if "all" not in spec.seats and not any(a in ("seats.all", "seats.others") for a in coords):
        missing = [q for q in range(players) if str(q) not in spec.seats and q not in whole]
        if missing:
            raise SpecError(
                f"{where}: seat {missing[0]} has no player (give seats.all, or a player for every seat)"
            )
    base = {q: spec.seats.get(str(q), spec.seats.get("all", "random")) for q in range(players)}
    # Whole players first, then parameters, each from general (all) to particular (a seat).
    order = {"all": 0, "others": 1}

    def rank(key: str) -> int:
        return order.get(key, 2 if key.startswith("side") else 3)

    seat_axes = {k: v for k, v in coords.items() if k.startswith("seats.")}
    for axis, v in sorted(
        seat_axes.items(), key=lambda kv: (len(kv[0].split(".")), rank(kv[0].split(".")[1]))
    ):
        parts = axis.split(".")
        if parts[0] != "seats":
            continue
        targets = _targets(parts[1], players, spec, sides, where, str(coords.get("game", spec.game)))
        if len(parts) == 2:
            if not isinstance(v, str):
                raise SpecError(f'{where}: {axis}={v!r}: a player is a string such as "hunter"')
            for q in targets:
                base[q] = v
        else:
            for q in targets:
                s = parse_spec(base[q])
                base[q] = (
                    str(s.name)
                    + ":"
                    + ",".join(f"{k}={fmt_value(x)}" for k, x in {**s.params, parts[2]: v}.items())
                )
    return [base[q] for q in range(players)]


def _targets(
    key: str, players: int, spec: Spec, sides: tuple[int, ...] | None = None, where: str = "", game: str = ""
) -> list[int]:
    if key == "all":
        return list(range(players))
    if key.startswith("side"):
        k = int(key[4:])
        if sides is None:
            raise SpecError(f"{where}: seats.{key}: {game or spec.game} has no sides, only seats")
        if k not in sides:
            raise SpecError(f"{where}: seats.{key}: there are only sides 0 to {max(sides)}")
        return [q for q in range(players) if sides[q] == k]
    if key == "others":
        named = {int(k) for k in spec.seats if (k.isascii() and k.isdigit())}
        return [q for q in range(players) if q not in named]
    return [int(key)]


def _deck_key(rules: Any) -> str:
    deck = getattr(rules, "deck", None)
    if callable(deck):
        d = np.asarray(deck())
        return hashlib.sha256(d.tobytes() + str(d.dtype).encode()).hexdigest()[:16]
    # A game that does not say what its deck is pairs only cells with equal rules.
    return "rules:" + json.dumps(
        rules.to_record() if hasattr(rules, "to_record") else repr(rules), sort_keys=True
    )


def _expand(spec: Spec, top: Any) -> list[Cell]:
    cells: list[Cell] = []
    seen: dict[str, int] = {}
    for grid in spec.grids:
        keys = list(grid)
        for combo in itertools.product(*(grid[k] for k in keys)):
            coords = dict(zip(keys, combo, strict=True))
            game = get_game(coords["game"]) if "game" in coords else top
            name = game.name
            where = ", ".join(f"{k}={fmt_value(v)}" for k, v in coords.items()) or "the base rules"
            overrides = {k: v for k, v in spec.rules.items() if k not in ("preset", "players")}
            preset = spec.rules.get("preset")
            players = spec.rules.get("players")
            for axis, v in coords.items():
                parts = axis.split(".")
                if parts[0] != "rules":
                    continue
                if parts[1] == "preset":
                    preset = v
                elif parts[1] == "players":
                    players = v
                else:
                    overrides[parts[1]] = v
            if preset is not None and preset not in game.presets:
                raise SpecError(
                    f"{where}: unknown preset {preset!r}{near(preset, game.presets)} (known: {', '.join(game.presets)})"
                )
            try:
                rules = game.make_rules(preset, players, overrides)
            except WhistsimError as e:
                raise SpecError(f"{where}: {e}") from None
            p = game.players_of(rules)
            sides = getattr(rules, "teams_tuple", None)
            players_specs = _seat_specs(spec, coords, p, where, tuple(sides) if sides is not None else None)
            try:
                seating(name, [parse_spec(s) for s in players_specs], p)
            except WhistsimError as e:
                raise SpecError(f"{where}: {e}") from None
            first = -1 if spec.first == "rotate" else int(spec.first)
            if first >= p:
                raise SpecError(f"first={first}: {where} has only {p} seats")
            _check_combination(name, rules, players_specs, where)
            constraint = coords.get("where", spec.where)
            if constraint is not None:
                if not isinstance(constraint, str):
                    raise SpecError(
                        f"sweep where={constraint!r}: expected a constraint such as 'side0.trumps >= 9'"
                    )
                from ..deals.constraints import prepare

                try:
                    constraint = prepare(constraint, name, rules, first, seed=spec.seed).text
                except WhistsimError as e:
                    raise SpecError(f"{where}: {e}") from None
            key = json.dumps([name, rules_key(rules), players_specs, constraint], sort_keys=True, default=str)
            if key in seen:
                raise SpecError(
                    f"{where}: the same cell as cell {seen[key]} (two grids or axes give one combination)"
                )
            seen[key] = len(cells)
            deck = _deck_key(rules) if constraint is None else f"{_deck_key(rules)} where {constraint}"
            cells.append(
                Cell(
                    len(cells),
                    tuple(coords.items()),
                    rules,
                    tuple(players_specs),
                    first,
                    deck,
                    constraint,
                    name if "game" in coords else None,
                )  # fmt: skip
            )
    return cells


HONEST_WORDS = ("never", "0")


def _check_combination(game: str, rules: Any, players: list[str], where: str) -> None:
    """Combinations that parse but cannot mean what they say: a false pass where revokes are off."""
    cheats = get_game(game).cheat_params  # the game's own (Game.cheat_params)
    if not cheats or getattr(rules, "revokes", True):
        return
    for q, text in enumerate(players):
        s: StrategySpec = parse_spec(text)
        explicit = {k: v for k, v in s.params.items() if k in cheats}
        for k, v in explicit.items():
            if (v != 0) if not isinstance(v, str) else (v.strip().lower() not in HONEST_WORDS):
                raise SpecError(
                    f"{where}: seat {q} {k}={fmt_value(v)} but rule revokes=false: "
                    "a false pass needs revokes=true"
                )


def _pairs(spec: Spec) -> list[Pair]:
    """Each cell against each baseline value of an axis (a baseline value only against earlier ones)."""
    pairs: list[Pair] = []
    for axis, base_values in spec.baseline.items():

        def rest(c: Cell, axis: str = axis) -> tuple:
            return tuple((a, json.dumps(v)) for a, v in c.coords if a != axis)

        for i, base_value in enumerate(base_values):
            bases = {
                rest(c): c for c in spec.cells if axis in dict(c.coords) and _same(c.value(axis), base_value)
            }
            for c in spec.cells:
                coords = dict(c.coords)
                if axis not in coords or any(_same(coords[axis], b) for b in base_values[: i + 1]):
                    continue
                base = bases.get(rest(c))
                if base is None:
                    continue
                if base.deck != c.deck:
                    raise SpecError(
                        f"baseline.{axis}={fmt_value(base_value)}: cell '{spec.cell_label(c)}' has a different "
                        "deck from its baseline, so the two cannot be paired on the same deals"
                    )
                pairs.append(Pair(c.index, base.index, axis))
        if not any(p.axis == axis for p in pairs):
            raise SpecError(f"baseline.{axis}: no cell has a baseline partner to compare with")
    return pairs


def _check_figures(spec: Spec, game: Any) -> None:
    for c in spec.cells:
        names = figure_names(get_game(spec.game_of(c)) if c.game else game, c.rules)
        for key, wanted in (("headline", spec.headline), ("histograms", spec.histograms)):
            for f in wanted:
                # a study's own measure may add the figure: play_chunk checks that it does
                if f not in names and spec.measure is None:
                    raise SpecError(
                        f"{key}: figure {f!r} is not measured in cell '{spec.cell_label(c)}'{near(f, names)} "
                        f"(known: {', '.join(names)})"
                    )
    ratio = [f for f in spec.histograms if any(is_ratio(g, f) for g in spec.games())]
    if ratio:
        raise SpecError(f"histograms: {ratio[0]!r} is a ratio of two figures, not a per-game value")


def study_names() -> list[str]:
    """The studies' own analyses: one module each in whistsim/experiments/studies/, found by file name."""
    return sorted(p.stem for p in STUDIES.glob("*.py") if not p.stem.startswith("_"))
