"""Players: how a seat's strategy is written, checked and turned into kernel inputs.

A seat's player is written ``NAME[:KEY=VALUE,...]``, e.g. ``random:draw=0.3`` or
``greedy:cheat=smart,challenge=0.5``; a user's own ``@njit`` function is
``PATH.py:FUNCTION[:KEY=VALUE,...]``. :func:`seating` turns one spec per seat
into the arrays the kernels read: a strategy id and ``MAX_PARAMS`` parameter
codes per seat.

Each game keeps its own players in ``games/<name>/players/`` and lists them
once in a :class:`Registry`. A strategy module declares ``PARAMS``: name -> :class:`Param` (or a plain
``(default, doc)`` pair for a number), in the order of the slots the kernel
reads. Word values (``never``, ``always``, ``smart``) become the codes their
:class:`Param` maps them to.
"""

from __future__ import annotations

import hashlib
import importlib.util
import math
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from .cache import SOURCE_ATTR
from .options import WhistsimError, near

MAX_PARAMS = 8
USER_BASE = 1000  # strategy ids from here on are users' own functions (see load_user)
SMART = -1.0  # the code of the word "smart"
POLICY_WORDS = {"never": 0.0, "always": 1.0, "smart": SMART}


class StrategyError(WhistsimError):
    """An unknown strategy, a bad parameter, or an illegal decision made in play."""


@dataclass(frozen=True)
class Param:
    """One strategy parameter: its default, its doc and the values it takes."""

    default: float | str
    doc: str
    words: Mapping[str, float] = field(default_factory=dict)  # word -> code
    low: float = -math.inf
    high: float = math.inf
    numbers: bool = True  # False: words only
    aliases: tuple[str, ...] = ()  # other names for it, e.g. false_pass for cheat
    integer: bool = False  # a count or a rank: 1.5 is refused, not rounded by the kernel

    def code(self, value: float | str) -> float:
        """The number the kernel reads for ``value``; ValueError when it is refused."""
        if isinstance(value, str):
            word = value.strip().lower()
            if word in self.words:
                return float(self.words[word])
            try:
                value = float(word)
            except ValueError:
                raise ValueError(f"expected {self.expected()}{near(word, self.words)}") from None
        if isinstance(value, bool) or not self.numbers:
            raise ValueError(f"expected {self.expected()}")
        v = float(value)
        if not (math.isfinite(v) and self.low <= v <= self.high) or (self.integer and not v.is_integer()):
            raise ValueError(f"expected {self.expected()}")
        return v

    def expected(self) -> str:
        choices = []
        if self.numbers:
            kind = "an integer" if self.integer else "a number"
            if math.isfinite(self.low) and math.isfinite(self.high):
                choices.append(f"{kind} from {self.low:g} to {self.high:g}")
            else:
                choices.append(kind)
        choices += list(self.words)
        return ", ".join(choices[:-1]) + (" or " if len(choices) > 1 else "") + choices[-1]


def as_param(p: Param | tuple) -> Param:
    return p if isinstance(p, Param) else Param(p[0], p[1])


def params_of(module: Any) -> dict[str, Param]:
    """A strategy module's declared parameters, in slot order."""
    return {k: as_param(v) for k, v in getattr(module, "PARAMS", {}).items()}


def _fmt(v: float | str) -> str:
    if isinstance(v, float):
        if v.is_integer() and abs(v) < 2**53:
            return str(int(v))  # 1000000, as typed, not 1e+06
        short = f"{v:g}"
        return short if float(short) == v else repr(v)  # a label reads back as the value played
    return str(v)


@dataclass(frozen=True)
class StrategySpec:
    name: str  # a built-in name, or PATH.py:FUNCTION for a user's function
    params: dict[str, float | str] = field(default_factory=dict)  # numbers, or words such as "smart"

    @property
    def user(self) -> tuple[str, str] | None:
        """(path, function) of a user's strategy, else None."""
        path, sep, func = self.name.rpartition(":")
        return (path, func) if sep and path.endswith(".py") else None

    def __str__(self) -> str:
        if not self.params:
            return self.name
        return self.name + ":" + ",".join(f"{k}={_fmt(v)}" for k, v in self.params.items())


def parse_spec(text: str) -> StrategySpec:
    """``"random:draw=0.3,cheat=smart"`` or ``"mine.py:decide:x=1"`` -> StrategySpec."""
    name, _, rest = text.strip().partition(":")
    name = name.strip()
    if name.endswith(".py"):
        func, _, rest = rest.partition(":")
        name = f"{name}:{func.strip()}"
    params: dict[str, float | str] = {}
    for item in filter(None, (x.strip() for x in rest.split(","))):
        key, sep, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key or not value:
            raise StrategyError(f"strategy {text!r}: parameter {item!r} is not KEY=VALUE")
        if key in params:  # a repeat is a slip, not an override
            raise StrategyError(f"strategy {text!r}: parameter {key!r} is given twice")
        try:
            params[key] = float(value)
        except ValueError:
            params[key] = value.lower()
    return StrategySpec(name, params)


@dataclass(frozen=True)
class Registry:
    """A game's players, once: a player's id is its place in ``players``.

    Each player module declares ``NAME``, ``PARAMS`` and an ``@njit decide(view)``;
    the kernel's switch on ids is generated from this order (``whistsim.harness``).
    """

    game: str
    players: tuple[ModuleType, ...]
    # (fn) -> why a user's @njit function cannot decide for this game's view, or None
    check_user: Callable[[Callable], str | None] | None = None

    def names(self) -> list[str]:
        return [m.NAME for m in self.players]

    def by_name(self, name: str) -> tuple[int, ModuleType] | None:
        for i, m in enumerate(self.players):
            if m.NAME == name:
                return i, m
        return None

    def available(self) -> dict[str, dict[str, Param]]:
        """Built-in strategy names -> their parameters."""
        return {m.NAME: params_of(m) for m in self.players}

    def describe(self) -> list[tuple[str, str, dict[str, Param]]]:
        """(name, one-line doc, parameters) of each built-in player, for ``whistsim strategies``."""
        out = []
        for m in self.players:
            doc = " ".join((m.__doc__ or "").strip().split("\n\n")[0].split())
            out.append((m.NAME, doc.removeprefix(f"``{m.NAME}``: "), params_of(m)))
        return out


def _codes(seat: int, spec: StrategySpec, declared: dict[str, Param]) -> np.ndarray:
    """One seat's parameter codes, in slot order; one-line errors naming seat and parameter."""
    if len(declared) > MAX_PARAMS:
        raise StrategyError(f"seat {seat}: strategy {spec.name!r} declares more than {MAX_PARAMS} parameters")
    names = {alias: key for key, p in declared.items() for alias in (key, *p.aliases)}
    given: dict[str, tuple[str, float | str]] = {}
    for key, value in spec.params.items():
        if key not in names:
            raise StrategyError(
                f"seat {seat}: strategy {spec.name!r} has no parameter {key!r}{near(key, names)} "
                f"(known: {', '.join(declared) or 'none'})"
            )
        canon = names[key]
        if canon in given:
            raise StrategyError(
                f"seat {seat}: parameter {key!r} of {spec.name!r} is given twice (as {given[canon][0]!r})"
            )
        given[canon] = (key, value)
    codes = np.zeros(MAX_PARAMS, np.float64)
    for i, (key, p) in enumerate(declared.items()):
        said, value = given.get(key, (key, p.default))
        try:
            codes[i] = p.code(value)
        except ValueError as e:
            raise StrategyError(
                f"seat {seat}: strategy {spec.name!r} parameter {said}={_fmt(value)}: {e}"
            ) from None
    return codes


def seat_players(
    registry: Registry, specs: list[StrategySpec], players: int
) -> tuple[np.ndarray, np.ndarray]:
    """One spec per seat (or one for all) -> (ids int64[P], params float64[P, MAX_PARAMS])."""
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise StrategyError(f"{len(specs)} strategies given for {players} seats")
    names = registry.names()
    ids = np.zeros(players, np.int64)
    params = np.zeros((players, MAX_PARAMS), np.float64)
    for seat, spec in enumerate(specs):
        found = registry.by_name(spec.name)
        if spec.user is not None:
            ids[seat], declared = load_user(registry, spec, seat)
        elif found is not None:
            ids[seat], declared = found[0], params_of(found[1])
        else:
            raise StrategyError(
                f"seat {seat}: unknown strategy {spec.name!r}{near(spec.name, names)} "
                f"(known: {', '.join(names)}, or PATH.py:FUNCTION)"
            )
        params[seat] = _codes(seat, spec, declared)
    return ids, params


# ---- users' strategies -------------------------------------------------------

_USER: dict[int, tuple[str, Callable, dict[str, Param]]] = {}  # id -> (label, function, params)
_USER_IDS: dict[tuple, int] = {}


def _one_line(e: BaseException) -> str:
    if isinstance(e, SyntaxError):
        return f"SyntaxError: {e.msg} (line {e.lineno})"
    text = " ".join(str(e).split())
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


def load_user(registry: Registry, spec: StrategySpec, seat: int) -> tuple[int, dict[str, Param]]:
    """Load, check and register a user's ``@njit`` function: (its strategy id, its PARAMS).

    The file is imported once per modification time; the function must compile
    for the game's view and return an integer decision (the game's ``check_user``).
    """
    path, func = spec.user or ("", "")
    where = f"seat {seat}: strategy {spec.name!r}"
    if not func.isidentifier():
        raise StrategyError(f"{where}: name the function after the file, as {path}:decide")
    file = Path(path).expanduser()
    if not file.is_file():
        raise StrategyError(f"{where}: file {path!r} not found")
    game = registry.game
    key = (game, str(file.resolve()), file.stat().st_mtime_ns, func)
    if key in _USER_IDS:
        sid = _USER_IDS[key]
        return sid, _USER[sid][2]
    check_user = registry.check_user
    if check_user is None:
        raise StrategyError(f"{where}: game {game!r} takes no user strategies")
    try:
        text = file.read_bytes()
    except OSError as e:
        raise StrategyError(f"{where}: cannot load {path}: {_one_line(e)}") from None
    # named by its text, and found by that name, as a kernel cached with its function needs it to be
    digest = hashlib.sha256(text).hexdigest()
    name = f"whistsim_user_{digest[:20]}"
    mod_spec = importlib.util.spec_from_file_location(name, file)
    if mod_spec is None or mod_spec.loader is None:
        raise StrategyError(f"{where}: cannot load {path!r} as a Python file")
    module = importlib.util.module_from_spec(mod_spec)
    # run from the text read here, its hash kept: the kernel cache's key for this function is the
    # text it was run from, even when the file changes meanwhile (core.cache.function_digest)
    module.__dict__[SOURCE_ATTR] = digest
    before = sys.modules.get(name)
    sys.modules[name] = module
    try:
        exec(compile(text, str(file), "exec"), module.__dict__)
    except (Exception, SystemExit) as e:  # sys.exit() in the file is an error, not a silent exit
        if before is None:
            sys.modules.pop(name, None)
        else:
            sys.modules[name] = before
        raise StrategyError(f"{where}: cannot load {path}: {_one_line(e)}") from None
    fn = getattr(module, func, None)
    if fn is None:
        raise StrategyError(f"{where}: {path} has no function {func!r}")
    if not hasattr(fn, "py_func") or not hasattr(fn, "compile"):
        raise StrategyError(f"{where}: {func!r} must be a Numba function (decorate it with @numba.njit)")
    try:
        declared = params_of(module)
    except (TypeError, IndexError):
        raise StrategyError(f"{where}: PARAMS must map names to Param(...) or (default, doc)") from None
    # bounds checked: an index out of range is an IndexError named in one line, not a crash
    from numba import njit

    fn = njit(boundscheck=True)(fn.py_func)
    problem = check_user(fn)
    if problem:
        raise StrategyError(f"{where}: does not compile for game {game}: {problem}")
    sid = USER_BASE + len(_USER)
    _USER[sid] = (spec.name, fn, declared)
    _USER_IDS[key] = sid
    return sid, declared


def user_function(sid: int) -> Callable:
    """The function behind a user strategy id (see :func:`load_user`)."""
    return _USER[sid][1]


def user_label(sid: int) -> str:
    return _USER[sid][0]
