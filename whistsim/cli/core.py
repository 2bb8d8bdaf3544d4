"""The core commands: simulate, replay, show, rules."""

from __future__ import annotations

import contextlib
import functools
import json
import math
import shutil
import sys

import click

from .. import api
from ..core.options import WhistsimError, parse_assignments, plural, written
from ..games import get_game
from .main import GAME, GAME_HELP, main


def _game_options(f):
    for opt in reversed(
        [
            click.option("--game", type=GAME, default="welsh", show_default=True, help=GAME_HELP),
            click.option("--preset", default=None, help="a preset of the game's rules (whistsim rules --game NAME lists them)"),
            click.option("--players", type=int, default=None, help="number of players"),
            click.option("--rule", "rules", multiple=True, metavar="KEY=VALUE", help="override one rule option (repeatable)"),
            click.option("--strategy", "strategies", multiple=True, metavar="[SEAT=]SPEC",
                         help="a seat's player, e.g. 0=random:draw=0.3 (repeatable; default random)"),
        ]
    ):  # fmt: skip
        f = opt(f)
    return f


def _strategies(
    items: tuple[str, ...], players: int | None, game: str, preset, rules, default: str = "random"
) -> list[str]:
    """``("random", "1=random:draw=0.2")`` -> one spec per seat; ``default`` for the seats none names."""
    if not items:
        return [default]
    per_seat: dict[int, str] = {}
    every = None
    for item in items:
        head, sep, rest = item.partition("=")
        seat = head.strip()
        if sep and seat.isascii() and seat.isdigit():
            if int(seat) in per_seat:  # a repeat is a slip, not an override
                raise WhistsimError(f"--strategy {item}: seat {int(seat)} is given twice")
            per_seat[int(seat)] = rest
        elif sep and seat and not seat.isascii():
            raise WhistsimError(f"--strategy {item}: a seat is written in ASCII digits")
        else:
            if every is not None:
                raise WhistsimError(f"--strategy {item}: a player for every seat is given twice")
            every = item
    if every is not None:
        default = every or "random"
    if not per_seat:
        return [default]
    from ..games import get_game

    g = get_game(game)
    p = g.players_of(g.make_rules(preset, players, rules))
    bad = [s for s in per_seat if s >= p]
    if bad:
        raise WhistsimError(f"--strategy {bad[0]}=...: there are only {p} seats")
    return [per_seat.get(s, default) for s in range(p)]


@main.command()
@_game_options
@click.option("--n", type=int, default=100_000, show_default=True, help="number of games")
@click.option(
    "--seed", type=int, default=0, show_default=True, help="the run's seed: it decides every deck and choice"
)
@click.option("--first", default="0", show_default=True, help="the seat that plays first, or 'rotate'")
@click.option("--threads", type=int, default=None, help="Numba threads (default: all cores)")
@click.option(
    "--records",
    "records_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="write games as JSON Lines records",
)
@click.option("--max-records", type=int, default=None, help="write only the first N games as records")
@click.option(
    "--csv", "csv_path", type=click.Path(dir_okay=False), default=None, help="also write the summary as CSV"
)
@click.option("--progress/--no-progress", default=None, help="progress bar (default: on a terminal)")
@click.option("--json", "as_json", is_flag=True, help="print the run and its summary as one JSON object")
@click.option("--solve", is_flag=True, help="also each recorded deal's open-hand par beside its score "
              "(Whist; Scotch Whist with two sides): how much the cards decide, how much the play")  # fmt: skip
@click.option("--where", "where", metavar="EXPR", default=None,
              help="deal only deals that meet EXPR, e.g. 'side0.trumps >= 9' (docs/deals.md)")  # fmt: skip
@click.option("--pbn", "pbn_path", type=click.Path(dir_okay=False), default=None,
              help="Whist: also write the recorded deals as a PBN file, one board each (- standard output)")  # fmt: skip
def simulate(
    game,
    preset,
    players,
    rules,
    strategies,
    n,
    seed,
    first,
    threads,
    records_path,
    max_records,
    csv_path,
    progress,
    solve=False,
    as_json=False,
    where=None,
    pbn_path=None,
):
    """Play N games and print each figure's mean with its 95% confidence interval.

    \b
    Examples:
      whistsim simulate --game welsh --n 1000000 --seed 7
      whistsim simulate --preset akagiri --players 5 --rule challenge=akagiri --rule revokes=true
      whistsim simulate --n 100 --records games.jsonl
      whistsim simulate --game whist --n 200 --strategy heuristic --rule unit=deal --solve
      whistsim simulate --game whist --n 10000 --rule unit=deal --where 'side0.trumps >= 9'
      whistsim simulate --game whist --n 20 --rule unit=deal --pbn deals.pbn
    """
    from ..core.io import atomic_write, check_outputs, writing

    if max_records is not None and records_path is None and pbn_path is None:
        raise WhistsimError("--max-records limits --records and --pbn: give --records FILE or --pbn FILE too")
    if pbn_path is not None and game != "whist":
        raise WhistsimError(f"--pbn: a PBN file holds Whist deals (four hands of 13), not {game}'s")
    if max_records is not None and max_records < 0:
        raise WhistsimError(f"--max-records {max_records}: expected a number >= 0")
    err = check_outputs(
        (records_path, "--records"),
        (csv_path, "--csv"),
        (pbn_path, "--pbn"),
        stdout="--json" if as_json else None,
    )
    overrides = parse_assignments(rules)
    specs = _strategies(strategies, players, game, preset, overrides)
    if solve:
        from ..solver.luck import check_game

        check_game(game, preset, players, overrides)
    wanted = records_path is not None or pbn_path is not None or solve
    keep = 0 if not wanted else (n if max_records is None else min(n, max_records))
    read_back = solve or pbn_path is not None  # --solve and --pbn read the records back
    with _scratch() if read_back else contextlib.nullcontext() as scratch:
        sim = api.simulate(game, n, seed, preset=preset, players=players, rules=overrides, strategies=specs,
                           first=first, threads=threads, records=keep, records_to=scratch or records_path,
                           progress=sys.stderr.isatty() if progress is None else progress, where=where)  # fmt: skip
        if scratch is not None and records_path is not None:
            with writing(records_path), open(scratch, "rb") as src, atomic_write(records_path, "wb") as dst:
                shutil.copyfileobj(src, dst)
        if csv_path is not None:
            with writing(csv_path), atomic_write(csv_path) as f:
                sim.summary().to_csv(f, index=False)
        if pbn_path is not None:
            from ..deals import write_pbn

            boards = write_pbn(_read_records(scratch), sys.stdout if pbn_path == "-" else pbn_path)
        if as_json:
            click.echo(json.dumps(sim.to_json()))
            _interrupted(sim, n)
            return
        say = functools.partial(click.echo, err=err)  # for a person: off standard output when a file is on it
        say(f"{game}: {get_game(game).describe(sim.rules)}")
        say(
            f"players: {', '.join(f'{q}={s}' for q, s in enumerate(sim.strategies))}; first: {first}; seed {seed}"
        )
        rate = sim.n / max(sim.play_s, 1e-9)
        say(
            f"{plural(sim.n, 'game')} in {sim.play_s:.2f} s ({plural(round(rate), 'game')}/s); "
            f"kernels ready in {sim.load_s:.1f} s"
        )
        if sim.where is not None:
            say(sim.dealt_under())
        say(sim.format())
        if records_path is not None:
            say(f"wrote {plural(sim.n_records, 'record')} to {records_path}")
        if pbn_path is not None:
            say(f"wrote {plural(boards, 'deal')} to {pbn_path} as PBN")
        if solve:
            from ..solver.luck import summary_lines

            say("\n".join(summary_lines(_read_records(scratch))))
    _interrupted(sim, n)


@contextlib.contextmanager
def _scratch():
    """A temporary JSON Lines file, removed after: records on disk, not in memory."""
    import os
    import tempfile

    fd, path = tempfile.mkstemp(prefix="whistsim-solve.", suffix=".jsonl")
    os.close(fd)
    try:
        yield path
    finally:
        os.unlink(path)


def _read_records(path: str):
    """The records of a file this run wrote, one at a time."""
    from ..core.io import read_lines

    for _, line in read_lines(path):
        if line is not None and line.strip():
            yield json.loads(line)


def _interrupted(sim, n: int) -> None:
    """After Ctrl-C: say so in one line, the finished games' summary and records kept, and exit 130."""
    if sim.interrupted:
        click.echo(f"whistsim: interrupted after {sim.n:,} of {n:,} games: the summary is of those", err=True)
        raise SystemExit(130)


@main.command()
@click.argument("source", type=str)
@click.option(
    "--json", "as_json", is_flag=True, help="one JSON object per record, as docs/records.md specifies"
)
def replay(source, as_json):
    """Judge game records: replay every move, report results, reject illegal ones.

    SOURCE is a JSON Lines file, or - for standard input. A last line on
    standard error counts the records judged, accepted and rejected. The exit
    status is 1 when any record is rejected or its stored result differs, or
    when SOURCE holds no record at all.

    \b
    Example:
      whistsim replay games.jsonl --json
    """
    judged = rejected = mismatched = 0
    for j in api.replay(source):
        judged += 1
        rejected += j.error is not None
        mismatched += j.error is None and j.stored is not None
        if as_json:  # strict JSON: a NaN or infinity that a record carried is written as null
            click.echo(json.dumps(_finite(j.to_json()), separators=(",", ":"), allow_nan=False))
        elif j.error is not None:
            where = "record" if j.move is None else f"move {j.move}"
            click.echo(f"line {j.line}: rejected at {where}: {j.error}")
        elif j.stored is not None:
            replayed, stored = (json.dumps(_finite(x), allow_nan=False) for x in (j.result, j.stored))
            click.echo(f"line {j.line}: MISMATCH: replayed {replayed}, stored {stored}")
        else:
            click.echo(f"line {j.line}: {json.dumps(_finite(j.result), allow_nan=False)}")
    if not judged:
        click.echo(f"whistsim: replay: {source} holds no record: nothing judged", err=True)
        sys.exit(1)
    accepted = judged - rejected - mismatched
    tail = f", {mismatched:,} replayed to another result than stored" if mismatched else ""
    click.echo(f"whistsim: replay: {plural(judged, 'record')} judged: {accepted:,} accepted, {rejected:,} rejected"
               f"{tail}", err=True)  # fmt: skip
    if rejected or mismatched:
        sys.exit(1)


def _finite(value):
    """``value`` with numpy scalars made Python and every NaN or infinity made None: strict JSON."""
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


@main.command()
@click.argument("source", type=str)
@click.option("--line", type=int, default=0, show_default=True, help="0-based line of the record to show")
@click.option(
    "--json", "as_json", is_flag=True, help="one JSON object: the line, its replayed result and the telling"
)
@click.option("--costs", is_flag=True, help="mark each card that cost its side against open-hand best play")
def show(source, line, as_json=False, costs=False):
    """Tell one recorded game turn by turn, trick by trick.

    A Whist or Scotch Whist deal comes first in the text notation
    (docs/records.md, "Deals as text"), ready for `whistsim solve --deal`. With
    --costs (two sides) the solver judges every card, every hand open: a card
    that cost its side tricks (Scotch: points of margin) against the best card
    is marked (-n), and the best cards there are named under its trick.

    \b
    Example:
      whistsim show games.jsonl --line 3
      whistsim show deals.jsonl --costs
    """
    from ..solver.costs import told

    record = api.load_record(source, line)
    deal, text, judged = told(record, costs)
    if as_json:
        result = api.judge(line, json.dumps(record)).result
        out = {"line": line, "game": record.get("game"), "result": result, "deal": deal, "text": text}
        click.echo(json.dumps(out if judged is None else {**out, "costs": judged}))
        return
    click.echo(text if deal is None else f"Deal: {deal}\n{text}")


@main.command(name="rules")
@click.option("--game", type=GAME, default="welsh", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="the options and presets as one JSON object")
def rules_cmd(game, as_json=False):
    """List a game's rule options, their defaults and presets.

    Every rule and every choice made where the sources are silent or disagree
    is explained in docs/rules.md; the sources are named in docs/sources.md.

    \b
    Example:
      whistsim rules --game welsh
    """
    from ..core.options import alternatives
    from ..games import get_game

    g = get_game(game)
    by_players = _preset_rules(g)
    if as_json:
        options = [{"key": o.key, "type": o.kind, "default": o.default, "doc": o.doc,
                    "choices": list(o.choices) if o.choices else None} for o in g.options]  # fmt: skip
        click.echo(json.dumps({"game": g.name, "title": g.title, "options": options, "presets": list(g.presets),
                               "preset_rules": by_players}, default=str))  # fmt: skip
        return
    click.echo(f"{g.title} rule options (--rule KEY=VALUE):")
    kw = max(len(o.key) for o in g.options)
    dw = max(len(written(o.default)) for o in g.options)
    for o in g.options:
        choices = f"  ({alternatives(written(c) for c in o.choices)})" if o.choices else ""
        click.echo(f"  {o.key:<{kw}}  default {written(o.default):<{dw}}  {o.doc}{choices}")
    keys = alternatives(
        sorted({k for rules in by_players.values() for r in rules.values() for k in r}), last="and"
    )
    click.echo(f"presets (--preset NAME; the first is the default), each setting {keys}:")
    for name, rules in by_players.items():
        click.echo(f"- {name}: {_preset_words(rules)}")
    click.echo("every rule, and each choice where the sources differ: docs/rules.md")


def _preset_rules(g) -> dict[str, dict[str, dict]]:
    """What each preset sets, per player count: {preset: {players: {key: value}}}, for the options
    in which some two presets differ at some player count."""
    from ..core.options import RuleError

    out: dict[str, dict[str, dict]] = {name: {} for name in g.presets}
    for p in range(1, 17):
        try:
            records = {name: g.make_rules(name, p, {}).to_record() for name in g.presets}
        except RuleError:
            continue
        for name, r in records.items():
            out[name][str(p)] = r
    first = next(iter(out.values()))  # every preset has the same player counts
    keys = [k for k in next(iter(first.values()), {}) if k != "players"]
    differ = {
        k for k in keys for c in first if len({json.dumps(rules[c].get(k)) for rules in out.values()}) > 1
    }
    return {
        name: {p: {k: r[k] for k in keys if k in differ} for p, r in rules.items()}
        for name, rules in out.items()
    }


def _preset_words(rules: dict[str, dict]) -> str:
    """``{"3": {"packs": 2}, "4": {"packs": 2}, "5": {"packs": 3}}`` -> "packs 2 at 3-4 players, 3 at 5"."""
    counts = list(rules)
    parts = []
    for key in next(iter(rules.values()), {}):
        runs: list[list] = []  # [first, last, value] over consecutive player counts
        for p in counts:
            v = written(rules[p][key])
            if runs and runs[-1][2] == v:
                runs[-1][1] = p
            else:
                runs.append([p, p, v])
        if len(runs) == 1:
            parts.append(f"{key} {runs[0][2]}")
        else:
            at = [f"{v} at {a if a == b else f'{a}-{b}'}" for a, b, v in runs]
            parts.append(f"{key} {', '.join(at)} players")
    return "; ".join(parts) or "the defaults"
