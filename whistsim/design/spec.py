"""Design specs: a TOML file (or a dict) naming a game, a space of rule options and the aims.

A spec is checked in full before anything runs, and every failure is one line
(:class:`DesignError`): an option that is not a rule of the game, a value the
game refuses, an objective that is not a declared figure, an empty space, a
budget too small for one round. Nothing here plays a game.

::

    game = "scotch"
    seed = 2026
    budget = 3000000          # games the search may play (every table counted)
    block = 2000              # deals a round, played by every surviving variant
    final = 20000             # fresh deals for each chosen variant and the standard rules
    [rules]                   # the fixed rules: the standard rules are these, no option changed
    players = 4
    [space]                   # each option: a list, "LOW..HIGH" or {low, high, step}
    target = "25..61"
    french = [false, true]
    [players]                 # tables of players: a strategy for every seat, or a [seats]-like table
    heuristic = "heuristic"
    [[objectives]]            # a figure at a table, with a goal: min, max, a number or "fair"
    figure = "pos_won[-1]"
    players = "heuristic"
    goal = "fair"
    [[objectives]]            # ... or a feasible range: within, at_least, at_most
    figure = "deals"
    players = "heuristic"
    within = 0.10
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.options import WhistsimError, alternatives, near, plural, written
from ..core.strategy import parse_spec
from ..experiments.spec import read_toml
from ..games import Game, get_game, seating

TOP_KEYS = {
    "name": "results/NAME (default: the file's stem)",
    "title": "the report's title",
    "question": "the question the search answers, for the report",
    "game": "a game by name (whistsim rules lists them: welsh, scotch, whist, ohhell)",
    "seed": "the one integer that decides every deal, choice and draw of the optimiser",
    "budget": "games the search may play, every table counted",
    "block": "deals a round: every surviving variant plays the same block",
    "final": "fresh deals for each chosen variant and the standard rules (the winner's curse)",
    "alpha": "the race's overall error (default 0.05)",
    "first": "the seat that plays first, or 'rotate' (default: rotate)",
    "exhaustive": "enumerate the space when it holds at most this many variants (default 64)",
    "batch": "new variants the optimiser proposes a round (default 8)",
    "max_alive": "the most variants in the race at once (default 32)",
    "max_candidates": "the most variants the search may try (default 256)",
    "explore": "share of the budget in which the optimiser adds variants (default 0.5)",
    "rules": "the fixed rules (preset, players, options): the standard rules",
    "space": "the rule options searched: each a list, 'LOW..HIGH' or {low, high, step}",
    "exclude": "combinations left out: a list of tables of option values",
    "players": "named tables of players: a strategy for every seat or a table like an experiment's [seats]",
    "objectives": "the aims: each a figure at a table with a goal or a feasible range",
}
OBJECTIVE_KEYS = {
    "figure": "a declared figure of the game (whistsim figures --game GAME), e.g. deals or pos_won[-1]",
    "players": "the table it is measured at (a name under [players])",
    "goal": "min, max, a number (closest to it) or fair (a share of games won: one over the sides)",
    "within": "a feasible range: within this share of the standard rules' value (0.10: 10%)",
    "at_least": "a feasible range: at least this number, or 'standard' (the standard rules' value)",
    "at_most": "a feasible range: at most this number, or 'standard'",
    "label": "the objective in words, for the report (default: the figure's declared meaning)",
}
RANGE = re.compile(r"^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*$")
COLUMN = re.compile(r"^([A-Za-z_]\w*)(?:\[(-?\d+)\])?$")
SEAT_KEY = re.compile(r"^(\d+|all|others|side\d+)$")

MIN_BLOCK = 100  # a round's deals must give a variance for the race's intervals


class DesignError(WhistsimError):
    """A design spec that cannot run: one line naming the key and the reason."""


Bound = tuple[float, float]  # value = factor * (the standard rules' mean) + constant


@dataclass(frozen=True)
class Objective:
    figure: str  # as written: "deals", "pos_won[-1]"
    players: str  # the table's name
    goal: str  # "min", "max", "target" or "range" (a constraint)
    target: float | str | None = None  # goal target: a number or "fair"
    low: Bound | None = None
    high: Bound | None = None
    label: str = ""

    @property
    def constraint(self) -> bool:
        return self.goal == "range"

    def column(self, game: Game, rules: Any) -> str:
        """The figure's column under ``rules``: ``pos_won[-1]`` -> ``pos_won[3]`` with four seats."""
        name, index = COLUMN.match(self.figure).groups()  # type: ignore[union-attr]
        f = game.figure(name)
        if f.per == "game":
            return name
        count = game.sides_of(rules) if f.per == "side" else game.players_of(rules)
        k = int(index)
        if not -count <= k < count:
            raise DesignError(f"objective {self.figure}: there are only {count} ({f.per} 0 to {count - 1})")
        return f"{name}[{k % count}]"

    def target_of(self, game: Game, rules: Any) -> float:
        """The goal's number under ``rules`` (``fair``: one over the sides)."""
        if self.target == "fair":
            return 1.0 / game.sides_of(rules)
        return float(self.target)  # type: ignore[arg-type]

    def words(self) -> str:
        """The goal in words: "closest to a fair share", "as high as possible", "within 10% of ..."."""
        if self.goal == "min":
            return "as low as possible"
        if self.goal == "max":
            return "as high as possible"
        if self.goal == "target":
            return (
                "as close as possible to a fair share"
                if self.target == "fair"
                else f"closest to {self.target:g}"
            )
        return bounds_words(self.low, self.high)


def bounds_words(low: Bound | None, high: Bound | None) -> str:
    if low is not None and high is not None and low[1] == high[1] == 0 and low[0] + high[0] == 2:
        return f"within {100 * (high[0] - 1):g}% of the standard rules' value"

    def one(b: Bound) -> str:
        if b[0] == 0:
            return f"{b[1]:g}"
        return "the standard rules' value" if b == (1.0, 0.0) else f"{b[0]:g} times the standard rules' value"

    parts = ([f"at least {one(low)}"] if low else []) + ([f"at most {one(high)}"] if high else [])
    return " and ".join(parts)


@dataclass(frozen=True)
class Dimension:
    """One option searched: its values listed, or an integer or number range with a step."""

    key: str
    values: tuple | None = None  # a list of values (any type the option takes)
    low: float | None = None
    high: float | None = None
    step: float | None = None
    integer: bool = True

    def size(self) -> float:
        if self.values is not None:
            return len(self.values)
        if self.step is None:
            return math.inf
        return int(round((self.high - self.low) / self.step)) + 1  # type: ignore[operator]

    def all_values(self) -> list:
        if self.values is not None:
            return list(self.values)
        n = int(self.size())
        vals = [self.low + i * self.step for i in range(n)]  # type: ignore[operator]
        return [int(round(v)) for v in vals] if self.integer else [round(v, 12) for v in vals]

    def distribution(self):
        import optuna

        if self.values is not None:
            return optuna.distributions.CategoricalDistribution(list(self.values))
        if self.integer:
            return optuna.distributions.IntDistribution(
                int(self.low), int(self.high), step=int(self.step or 1)
            )
        return optuna.distributions.FloatDistribution(self.low, self.high, step=self.step)


@dataclass
class DesignSpec:
    name: str
    title: str
    question: str
    game: str
    seed: int
    budget: int
    block: int
    final: int
    alpha: float
    first: int | str
    exhaustive: int
    batch: int
    max_alive: int
    max_candidates: int
    explore: float
    rules: dict[str, Any]  # fixed: preset, players, options
    space: list[Dimension]
    exclude: list[dict[str, Any]]
    players: dict[str, dict[str, str]]  # table name -> seat key -> strategy
    objectives: list[Objective]
    source: str | None = None
    standard: Any = None  # the standard rules: the fixed rules, no searched option changed
    tables: list[str] = field(default_factory=list)  # the tables the objectives use, in order

    @property
    def size(self) -> float:
        """How many combinations the space holds (before exclusions and the rules' refusals)."""
        return math.prod(d.size() for d in self.space)

    @property
    def ranked(self) -> list[Objective]:
        return [o for o in self.objectives if not o.constraint]

    @property
    def constraints(self) -> list[Objective]:
        return [o for o in self.objectives if o.constraint]

    def make_rules(self, params: dict[str, Any]) -> Any:
        """A variant's rules: the fixed rules with ``params`` on top; a refusal is a DesignError."""
        g = get_game(self.game)
        over = {k: v for k, v in self.rules.items() if k not in ("preset", "players")}
        over.update({k: v for k, v in params.items() if k not in ("preset", "players")})
        preset = params.get("preset", self.rules.get("preset"))
        players = params.get("players", self.rules.get("players"))
        try:
            return g.make_rules(preset, players, over)
        except WhistsimError as e:
            raise DesignError(str(e)) from None

    def excluded(self, params: dict[str, Any]) -> bool:
        return any(all(_same(params.get(k), v) for k, v in ex.items()) for ex in self.exclude)

    def seats(self, table: str, rules: Any) -> list[str]:
        """The strategy of every seat of ``table`` under ``rules``."""
        g = get_game(self.game)
        p = g.players_of(rules)
        spec = self.players[table]
        teams = list(getattr(rules, "teams_tuple", range(p)))
        out = [spec.get("all", "")] * p
        for key in sorted(spec, key=lambda k: (k != "all", k != "others", not k.startswith("side"))):
            v = spec[key]
            if key == "others":
                named = {int(k) for k in spec if k.isdigit()}
                out = [v if q not in named else out[q] for q in range(p)]
            elif key.startswith("side"):
                k = int(key[4:])
                if k not in teams:
                    raise DesignError(f"players.{table}.{key}: there are only sides 0 to {max(teams)}")
                out = [v if teams[q] == k else out[q] for q in range(p)]
            elif key.isdigit():
                if int(key) >= p:
                    raise DesignError(f"players.{table}.{key}: there are only {p} seats")
                out[int(key)] = v
        if "" in out:
            raise DesignError(f"players.{table}: seat {out.index('')} has no player (give 'all')")
        return out

    def fingerprint(self) -> str:
        """A hash of everything that decides the answer (for the checkpoint)."""
        payload = {k: v for k, v in self.__dict__.items() if k not in ("source", "name", "title", "question")}
        text = json.dumps(payload, sort_keys=True, default=_plain)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def with_(self, **changes: Any) -> DesignSpec:
        out = DesignSpec(**{**self.__dict__, **changes})
        _check_budget(out)
        return out


def _plain(x: Any) -> Any:
    if dataclasses.is_dataclass(x):
        return dataclasses.asdict(x)
    return repr(x)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    return a == b


def option_words(key: str, value: Any) -> str:
    """One option's value in words a player reads: "target 45", "without honours", "scoring piles"."""
    name = key.replace("_", " ")
    if isinstance(value, bool):
        return f"{'with' if value else 'without'} {name}"
    if isinstance(value, str):
        return f"{name} {value.replace('_', '-')}"
    return f"{name} {written(value)}"


# ---- reading -------------------------------------------------------------------


def load_design(path: str | Path) -> DesignSpec:
    """Read and check a design spec; one line (DesignError) on any problem."""
    data, stem = read_toml(path, DesignError)
    return design_from_dict(data, name=stem, source=str(path))


def _int(key: str, v: Any, low: int, high: int | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise DesignError(f"{key}={v!r}: expected an integer")
    if v < low or (high is not None and v > high):
        raise DesignError(f"{key}={v}: expected {low} to {high}" if high is not None else f"{key}={v}: expected at least {low}")  # fmt: skip
    return v


def _number(key: str, v: Any) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        raise DesignError(f"{key}={v!r}: expected a number")
    return float(v)


def _table(key: str, v: Any) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise DesignError(f"{key}: expected a table")
    return v


def _unknown(where: str, data: dict, known: dict) -> None:
    for k in data:
        if k not in known:
            raise DesignError(f"{where}unknown key {k!r}{near(k, known)} (known: {', '.join(known)})")


def design_from_dict(data: dict[str, Any], *, name: str = "design", source: str | None = None) -> DesignSpec:
    """Check a spec given as a dict (as TOML reads it) and build it."""
    _unknown("", data, TOP_KEYS)
    if "game" not in data:
        from ..games import game_names

        raise DesignError(f"game: missing ({', '.join(game_names())})")
    from ..games import game_names

    game_name, names = data["game"], game_names()
    if game_name not in names:
        raise DesignError(
            f"game={game_name!r}: unknown game{near(game_name, names)} (known: {', '.join(names)})"
        )
    g = get_game(game_name)
    for key in ("seed", "budget"):
        if key not in data:
            raise DesignError(f"{key}: missing ({TOP_KEYS[key]})")
    seed = _int("seed", data["seed"], 0, 2**63 - 1)
    budget = _int("budget", data["budget"], 1)
    block = _int("block", data.get("block", 1000), MIN_BLOCK)
    final = _int("final", data.get("final", 10 * block), 2)
    alpha = _number("alpha", data.get("alpha", 0.05))
    if not 0 < alpha < 0.5:
        raise DesignError(f"alpha={alpha:g}: expected a chance between 0 and 0.5")
    first = data.get("first", "rotate")
    if first != "rotate":
        first = _int("first", first, 0)
    explore = _number("explore", data.get("explore", 0.5))
    if not 0 < explore <= 1:
        raise DesignError(f"explore={explore:g}: expected a share of the budget above 0, at most 1")
    rules = dict(_table("rules", data.get("rules", {})))
    known_rules = {o.key for o in g.options} | {"preset", "players"}
    for k in rules:
        if k not in known_rules:
            raise DesignError(f"rules.{k}: not a rule of {g.name}{near(k, known_rules)} (known: {', '.join(sorted(known_rules))})")  # fmt: skip
    try:
        standard = g.make_rules(rules.get("preset"), rules.get("players"),
                                {k: v for k, v in rules.items() if k not in ("preset", "players")})  # fmt: skip
    except WhistsimError as e:
        raise DesignError(f"rules: {e}") from None
    space = _space(data.get("space"), g, rules, known_rules)
    exclude = data.get("exclude", [])
    if not isinstance(exclude, list) or not all(isinstance(e, dict) and e for e in exclude):
        raise DesignError(
            "exclude: expected a list of tables of option values, e.g. [{french = true, target = 21}]"
        )
    searched = {d.key for d in space}
    for ex in exclude:
        for k in ex:
            if k not in searched:
                raise DesignError(
                    f"exclude: {k!r} is not an option of the space ({', '.join(sorted(searched))})"
                )
    players = _players(data.get("players"), game_name)
    objectives = _objectives(data.get("objectives"), g, standard, players)
    spec = DesignSpec(
        name=str(data.get("name", name)), title=str(data.get("title", f"Rule design: {g.title}")),
        question=str(data.get("question", "")).strip(), game=game_name, seed=seed, budget=budget, block=block,
        final=final, alpha=alpha, first=first, exhaustive=_int("exhaustive", data.get("exhaustive", 64), 1),
        batch=_int("batch", data.get("batch", 8), 1), max_alive=_int("max_alive", data.get("max_alive", 32), 2),
        max_candidates=_int("max_candidates", data.get("max_candidates", 256), 2), explore=explore, rules=rules,
        space=space, exclude=exclude, players=players, objectives=objectives, source=source, standard=standard,
    )  # fmt: skip
    spec.tables = list(dict.fromkeys(o.players for o in objectives))
    for t in spec.tables:  # every table seats a player per seat under the standard rules
        try:
            seating(game_name, [parse_spec(s) for s in spec.seats(t, standard)], g.players_of(standard))
        except DesignError:
            raise
        except WhistsimError as e:
            raise DesignError(f"players.{t}: {e}") from None
    _check_budget(spec)
    return spec


def _space(raw: Any, g: Game, rules: dict[str, Any], known: set[str]) -> list[Dimension]:
    if raw is None or (isinstance(raw, dict) and not raw):
        raise DesignError("space: empty: name at least one rule option and the values to search, e.g. target = [5, 7, 10]")  # fmt: skip
    raw = _table("space", raw)
    out = []
    for key, v in raw.items():
        if key not in known:
            raise DesignError(f"space.{key}: not a rule of {g.name}{near(key, known)} (known: {', '.join(sorted(known))})")  # fmt: skip
        if key in rules:
            raise DesignError(f"space.{key}: also fixed under [rules]; a rule is fixed or searched, not both")
        if isinstance(v, list):
            if not v:
                raise DesignError(f"space.{key}: an empty list of values")
            if len({json.dumps(x) for x in v}) < len(v):
                raise DesignError(f"space.{key}: a value is listed twice")
            d = Dimension(key, values=tuple(v))
        elif isinstance(v, str) and RANGE.match(v):
            lo, hi = (int(x) for x in RANGE.match(v).groups())  # type: ignore[union-attr]
            if lo > hi:
                raise DesignError(f"space.{key}={v!r}: an empty range")
            d = Dimension(key, low=lo, high=hi, step=1)
        elif isinstance(v, dict):
            _unknown(f"space.{key}: ", v, {"low": "", "high": "", "step": ""})
            if "low" not in v or "high" not in v:
                raise DesignError(f"space.{key}: a range needs low and high")
            lo, hi = _number(f"space.{key}.low", v["low"]), _number(f"space.{key}.high", v["high"])
            step = v.get("step")
            integer = all(
                isinstance(x, int) and not isinstance(x, bool) for x in (v["low"], v["high"], step or 1)
            )
            if step is not None and _number(f"space.{key}.step", step) <= 0:
                raise DesignError(f"space.{key}.step={step}: expected a step above 0")
            if lo > hi:
                raise DesignError(f"space.{key}: low {lo:g} above high {hi:g}: an empty range")
            d = Dimension(key, low=lo, high=hi, step=float(step) if step is not None else (1 if integer else None),
                          integer=integer)  # fmt: skip
        else:
            raise DesignError(
                f"space.{key}={v!r}: expected a list of values, 'LOW..HIGH' or {{low, high, step}}"
            )
        ends = d.all_values() if d.size() <= 4096 else [d.low, d.high]
        for value in ends:  # every value the game takes on its own (the ends of a wide range)
            preset = value if key == "preset" else rules.get("preset")
            players = value if key == "players" else rules.get("players")
            over = {k: x for k, x in rules.items() if k not in ("preset", "players")}
            if key not in ("preset", "players"):
                over[key] = value
            try:
                g.make_rules(preset, players, over)
            except WhistsimError as e:
                raise DesignError(f"space.{key}={written(value)}: {e}") from None
        out.append(d)
    return out


def _players(raw: Any, game: str) -> dict[str, dict[str, str]]:
    if raw is None or (isinstance(raw, dict) and not raw):
        raise DesignError('players: name at least one table of players, e.g. [players] greedy = "greedy"')
    out = {}
    for name, v in _table("players", raw).items():
        spec = {"all": v} if isinstance(v, str) else _table(f"players.{name}", v)
        for k, s in spec.items():
            if not SEAT_KEY.match(str(k)):
                raise DesignError(f"players.{name}.{k}: expected all, others, a seat number or sideN")
            if not isinstance(s, str):
                raise DesignError(f'players.{name}.{k}={s!r}: a player is a string such as "greedy"')
            try:
                parse_spec(s)
            except WhistsimError as e:
                raise DesignError(f"players.{name}.{k}: {e}") from None
        out[str(name)] = {str(k): s for k, s in spec.items()}
    return out


def _bound(where: str, v: Any) -> Bound:
    if v == "standard":
        return (1.0, 0.0)
    return (0.0, _number(where, v))


def _objectives(raw: Any, g: Game, standard: Any, players: dict) -> list[Objective]:
    if not isinstance(raw, list) or not raw:
        raise DesignError('objectives: name at least one, e.g. [[objectives]] figure = "deals", goal = "min"')
    out = []
    names = [f.name for f in g.figures]
    for i, o in enumerate(raw):
        where = f"objectives[{i}]"
        o = _table(where, o)
        _unknown(f"{where}: ", o, OBJECTIVE_KEYS)
        fig = o.get("figure")
        if not isinstance(fig, str) or not COLUMN.match(fig.strip()):
            raise DesignError(
                f"{where}.figure={fig!r}: expected a figure's name such as deals or pos_won[-1]"
            )
        fig = fig.strip()
        base, index = COLUMN.match(fig).groups()  # type: ignore[union-attr]
        if base not in names:
            raise DesignError(f"{where}.figure={fig!r}: not a figure of {g.name}{near(base, names)} (whistsim figures --game {g.name} lists them)")  # fmt: skip
        f = g.figure(base)
        if f.ratio is not None:
            raise DesignError(
                f"{where}.figure={fig!r}: a ratio of two means, not a per-game value; use its parts"
            )
        if f.per == "game" and index is not None:
            raise DesignError(f"{where}.figure={fig!r}: a figure per game takes no index")
        if f.per != "game" and index is None:
            raise DesignError(f"{where}.figure={fig!r}: a figure per {f.per}: give one, e.g. {base}[0] or {base}[-1]")  # fmt: skip
        table = o.get("players", next(iter(players)) if len(players) == 1 else None)
        if table not in players:
            raise DesignError(f"{where}.players={table!r}: expected one of the tables under [players] ({', '.join(players)})")  # fmt: skip
        goals = [k for k in ("goal", "within", "at_least", "at_most") if k in o]
        if not goals:
            raise DesignError(f"{where}: give a goal (min, max, a number or fair) or a range (within, at_least, at_most)")  # fmt: skip
        if "goal" in o and len(goals) > 1:
            raise DesignError(f"{where}: a goal or a feasible range, not both")
        label = o.get("label", "")
        if not isinstance(label, str):
            raise DesignError(f"{where}.label: expected words")
        if "goal" in o:
            goal = o["goal"]
            if goal in ("min", "max"):
                obj = Objective(fig, table, goal, label=label)
            elif goal == "fair":
                if f.unit != "share of games won":
                    raise DesignError(f"{where}: goal fair needs a share of games won; {fig} is in {f.unit}")
                obj = Objective(fig, table, "target", "fair", label=label)
            elif isinstance(goal, (int, float)) and not isinstance(goal, bool):
                obj = Objective(fig, table, "target", float(goal), label=label)
            else:
                raise DesignError(f"{where}.goal={goal!r}: expected min, max, a number or fair")
        else:
            if "within" in o and ("at_least" in o or "at_most" in o):
                raise DesignError(f"{where}: within, or at_least and at_most, not both")
            if "within" in o:
                w = _number(f"{where}.within", o["within"])
                if not 0 < w < 1:
                    raise DesignError(
                        f"{where}.within={w:g}: expected a share above 0 and below 1 (0.10: 10%)"
                    )
                low, high = (1 - w, 0.0), (1 + w, 0.0)
            else:
                low = _bound(f"{where}.at_least", o["at_least"]) if "at_least" in o else None
                high = _bound(f"{where}.at_most", o["at_most"]) if "at_most" in o else None
                if low and high and low[0] == high[0] == 0 and low[1] > high[1]:
                    raise DesignError(
                        f"{where}: at_least {low[1]:g} above at_most {high[1]:g}: nothing is feasible"
                    )
            obj = Objective(fig, table, "range", low=low, high=high, label=label)
        try:
            obj.column(g, standard)
        except DesignError as e:
            raise DesignError(f"{where}: {str(e).removeprefix(f'objective {fig}: ')}") from None
        out.append(obj)
    if not any(not o.constraint for o in out):
        raise DesignError("objectives: every one is a feasible range; give at least one with a goal")
    keys = [(o.figure, o.players, o.goal) for o in out]
    if len(set(keys)) < len(keys):
        raise DesignError("objectives: the same figure at the same table is given twice")
    return out


def first_round_cost(spec: DesignSpec) -> int:
    """Games for the first two rounds of the first variants (the standard rules and the first draw)."""
    first = min(int(min(spec.size, spec.exhaustive)) if spec.size <= spec.exhaustive else spec.batch,
                spec.max_candidates)  # fmt: skip
    return 2 * (first + 1) * len(spec.tables) * spec.block


def _check_budget(spec: DesignSpec) -> None:
    need = first_round_cost(spec)
    if spec.budget < need:
        raise DesignError(
            f"budget {spec.budget:,} games is too small: two rounds of {plural(spec.block, 'deal')} for the first "
            f"variants and the standard rules at {plural(len(spec.tables), 'table')} need {need:,}"
        )


def enumerate_space(spec: DesignSpec) -> list[dict[str, Any]]:
    """Every combination of the space, in order (the first option varies slowest)."""
    dims = spec.space
    return [dict(zip([d.key for d in dims], combo, strict=True)) for combo in itertools.product(*(d.all_values() for d in dims))]  # fmt: skip


def describe_params(params: dict[str, Any]) -> str:
    return (
        alternatives([option_words(k, v) for k, v in params.items()], last="and") if params else "no change"
    )
