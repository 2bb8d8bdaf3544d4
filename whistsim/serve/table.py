"""The card table: pages ``/`` (choose a game) and ``/table/<token>``, JSON under ``/api/``.

Every value is checked by the code the CLI uses (``Game.make_rules``, ``options.parse_assignments``,
``strategy.parse_spec`` and ``games.seating``), so a bad one gets the CLI's one line. Every
answer about a table is built by :meth:`whistsim.serve.sessions.Seat.state`: the person's own
view and the public lines, never another hand.
"""

from __future__ import annotations

from typing import Any

import flask

from ..core.io import dumps
from ..core.options import WhistsimError, parse_assignments, written
from . import NotFound
from .sessions import Seat, Setup, Tables, UnknownTable

bp = flask.Blueprint("table", __name__)
TABLES = Tables()

# The games as the page offers them: French Whist is Scotch Whist's preset ``french``.
CHOICES = (("welsh", "welsh", None), ("scotch", "scotch", None), ("french", "scotch", "french"),
           ("whist", "whist", None), ("ohhell", "ohhell", None))  # fmt: skip
TITLES = {"welsh": "Welsh Whist", "scotch": "Scotch Whist", "french": "French Whist", "whist": "Whist",
          "ohhell": "Oh Hell"}  # fmt: skip


def _choice(name: Any) -> tuple[str, str | None]:
    """A game as the page names it -> (engine game, its fixed preset or None); 404 if unknown."""
    from ..games import get_game

    for shown, game, preset in CHOICES:
        if name == shown:
            return game, preset
    try:
        get_game(name if isinstance(name, str) else repr(name))
    except WhistsimError as e:
        raise NotFound(str(e)) from None
    raise NotFound(f"unknown game {name!r} (known: {', '.join(c[0] for c in CHOICES)})")


def describe_game(name: str) -> dict[str, Any]:
    """What the page needs to set a table of ``name`` up: its presets, rule options (with the
    help texts ``whistsim rules`` shows), players (as ``whistsim strategies`` lists them)."""
    from ..games import get_game

    game, fixed = _choice(name)
    g = get_game(game)
    presets = [fixed] if fixed else list(g.presets)
    defaults = {p: {k: written(v) for k, v in g.make_rules(p, None, {}).to_record().items()} for p in presets}
    seats = {p: g.players_of(g.make_rules(p, None, {})) for p in presets}
    options = [{"key": o.key, "kind": o.kind, "doc": o.doc,
                "choices": [written(c) for c in o.choices] if o.choices else None}
               for o in g.options if not (fixed and o.key == "french")]  # fmt: skip
    players = [{"name": n, "doc": doc} for n, doc, _ in g.players.describe()]
    return {"name": name, "game": game, "title": TITLES.get(name, g.title), "presets": presets,
            "defaults": defaults, "seats": seats, "options": options, "players": players,
            "default_player": g.default_player}  # fmt: skip


def _int(value: Any, what: str, default: int) -> int:
    if value is None or value == "":
        return default
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise WhistsimError(f"{what} {value!r}: expected a whole number")
    try:
        return int(value)
    except ValueError:
        raise WhistsimError(f"{what} {value!r}: expected a whole number") from None


def setup_of(body: Any) -> Setup:
    """A table's setup from the form's JSON, checked by the CLI's code (one line when bad)."""
    from ..core.strategy import parse_spec
    from ..games import get_game, seating

    if not isinstance(body, dict):
        raise WhistsimError("expected a JSON object: game, preset, rules, players, seat, seed")
    game, fixed = _choice(body.get("game", "welsh"))
    preset = body.get("preset") or None
    if fixed and preset not in (None, fixed):
        raise WhistsimError(
            f"French Whist is Scotch Whist's preset {fixed}; choose scotch for preset {preset!r}"
        )
    preset = fixed or preset
    raw = body.get("rules") or {}
    if not isinstance(raw, dict):
        raise WhistsimError("rules: expected an object of KEY: VALUE")
    rules = parse_assignments([f"{k}={written(v)}" for k, v in raw.items() if v is not None and v != ""])
    g = get_game(game)
    p = g.players_of(g.make_rules(preset, None, rules))  # a bad rule value: the CLI's line
    seat = _int(body.get("seat"), "seat", 0)
    if not 0 <= seat < p:
        raise WhistsimError(f"seat {seat}: expected a seat from 0 to {p - 1}")
    seed = _int(body.get("seed"), "seed", 0)
    default = get_game(game).default_player
    given = body.get("players") or []
    if not isinstance(given, list) or len(given) > p or not all(isinstance(s, str | None) for s in given):
        raise WhistsimError(f"players: expected a list of at most {p} player specs, one per seat")
    specs = [parse_spec((given[q] if q < len(given) else None) or default) for q in range(p)]
    hint = parse_spec(body.get("hint") or default)
    for s in [*specs, hint]:  # never a user's PATH.py:FUNCTION: a form must not load code
        if s.user is not None:
            raise WhistsimError(f"{s.name}: the table seats built-in players only")
    seating(game, specs, p)  # a player this game has not: one line, as the CLI
    try:
        seating(game, [hint], 1)
    except WhistsimError as e:
        raise WhistsimError(f"hint player: {str(e).removeprefix('seat 0: ')}") from None
    specs[seat] = hint  # the person's seat: only ever asked for a hint
    return Setup(game, preset, rules, seat, seed, [str(s) for s in specs], str(hint))


def _body() -> Any:
    body = flask.request.get_json(silent=True)
    if body is None:
        raise WhistsimError("expected a JSON body")
    return body


def _seat(token: str) -> Seat:
    try:
        return TABLES.get(token)
    except UnknownTable as e:
        raise NotFound(str(e)) from None


def _state(token: str, seat: Seat, **extra) -> flask.Response:
    return flask.jsonify({"token": token, **seat.state(), **extra})


# -- pages
@bp.get("/")
def index():
    name = flask.request.args.get("game", "welsh")
    _choice(name)  # 404 for a game that does not exist
    return flask.render_template("table.html", token=None, chosen=name, choices=[c[0] for c in CHOICES],
                                 titles=TITLES)  # fmt: skip


@bp.get("/table/<token>")
def table_page(token: str):
    _seat(token)
    return flask.render_template("table.html", token=token, chosen=None, choices=[c[0] for c in CHOICES],
                                 titles=TITLES)  # fmt: skip


# -- JSON
@bp.get("/api/games")
def games():
    return flask.jsonify({"games": [describe_game(c[0]) for c in CHOICES]})


@bp.get("/api/games/<name>")
def game(name: str):
    return flask.jsonify(describe_game(name))


@bp.post("/api/tables")
def new_table():
    seat = Seat(setup_of(_body()))
    token = TABLES.add(seat)
    with seat.lock:
        return _state(token, seat, url=flask.url_for("table.table_page", token=token)), 201


@bp.get("/api/tables/<token>")
def table_state(token: str):
    seat = _seat(token)
    with seat.lock:
        return _state(token, seat)


@bp.post("/api/tables/<token>/move")
def move(token: str):
    seat = _seat(token)
    body = _body()
    text = body.get("move") if isinstance(body, dict) else None
    with seat.lock:
        seat.move(text)
        return _state(token, seat)


@bp.post("/api/tables/<token>/hint")
def hint(token: str):
    seat = _seat(token)
    with seat.lock:
        return flask.jsonify({"hint": seat.hint(), "player": seat.setup.hint})


@bp.post("/api/tables/<token>/undo")
def undo(token: str):
    seat = _seat(token)
    with seat.lock:
        n = seat.undo()
        return _state(token, seat, undone=n)


@bp.get("/api/tables/<token>/review")
def review(token: str):
    seat = _seat(token)
    with seat.lock:
        return flask.jsonify(seat.review())


@bp.get("/api/tables/<token>/record.jsonl")
def record(token: str):
    seat = _seat(token)
    with seat.lock:
        line = dumps(seat.record()) + "\n"  # a line as simulate --records writes it
    name = f"whistsim-{seat.setup.game}-seed{seat.setup.seed}.jsonl"
    return flask.Response(line, mimetype="application/x-ndjson",
                          headers={"Content-Disposition": f'attachment; filename="{name}"'})  # fmt: skip
