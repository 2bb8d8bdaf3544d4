"""The core commands: simulate, replay, show, rules."""

from __future__ import annotations

import json
import sys

import click

from .. import api
from ..options import WhistsimError, parse_assignments
from . import GAME, main


def _game_options(f):
    for opt in reversed(
        [
            click.option("--game", type=GAME, default="welsh", show_default=True, help="welsh, scotch or whist"),
            click.option("--preset", default=None, help="a preset of the game's rules (welsh: parlett, akagiri; scotch: scotch, french; whist: long, short)"),
            click.option("--players", type=int, default=None, help="number of players"),
            click.option("--rule", "rules", multiple=True, metavar="KEY=VALUE", help="override one rule option (repeatable)"),
            click.option("--strategy", "strategies", multiple=True, metavar="[SEAT=]SPEC",
                         help="a seat's player, e.g. 0=random:draw=0.3 (repeatable; default random)"),
        ]
    ):  # fmt: skip
        f = opt(f)
    return f


def _strategies(items: tuple[str, ...], players: int | None, game: str, preset, rules) -> list[str]:
    """``("random", "1=random:draw=0.2")`` -> one spec per seat."""
    if not items:
        return ["random"]
    per_seat: dict[int, str] = {}
    default = None
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
            if default is not None:
                raise WhistsimError(f"--strategy {item}: a player for every seat is given twice")
            default = item
    default = default or "random"
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
):
    """Play N games and print each figure's mean with its 95% confidence interval.

    \b
    Examples:
      whistsim simulate --game welsh --n 1000000 --seed 7
      whistsim simulate --preset akagiri --players 5 --rule challenge=akagiri --rule revokes=true
      whistsim simulate --n 100 --records games.jsonl
      whistsim simulate --game whist --n 200 --strategy heuristic --rule unit=deal --solve
    """
    from ..io import check_output

    if max_records is not None and records_path is None:
        raise WhistsimError("--max-records limits --records: give --records FILE too")
    if max_records is not None and max_records < 0:
        raise WhistsimError(f"--max-records {max_records}: expected a number >= 0")
    for path, option in ((records_path, "--records"), (csv_path, "--csv")):
        if path is not None:
            check_output(path, option)
    if records_path is not None and records_path == csv_path and records_path != "-":
        raise WhistsimError(f"--records and --csv both name {records_path}")
    overrides = parse_assignments(rules)
    specs = _strategies(strategies, players, game, preset, overrides)
    if solve:
        from ..solver.luck import check_game

        check_game(game, preset, players, overrides)
    keep = 0 if records_path is None and not solve else (n if max_records is None else min(n, max_records))
    sim = api.simulate(game, n, seed, preset=preset, players=players, rules=overrides, strategies=specs,
                       first=first, threads=threads, records=keep, records_to=None if solve else records_path,
                       progress=sys.stderr.isatty() if progress is None else progress)  # fmt: skip
    from ..io import atomic_write

    try:
        if solve and records_path is not None:  # kept for the solver, then written
            api.write_records(records_path, sim.records)
        if csv_path is not None:
            with atomic_write(csv_path) as f:
                sim.summary().to_csv(f, index=False)
    except OSError as e:  # an unwritable path is bad input: one line, no traceback
        raise WhistsimError(f"cannot write {e.filename or records_path or csv_path}: {e.strerror}") from None
    if as_json:
        click.echo(json.dumps(sim.to_json()))
        _interrupted(sim, n)
        return
    click.echo(f"{game}: {sim.rules.describe()}")
    click.echo(
        f"players: {', '.join(f'{q}={s}' for q, s in enumerate(sim.strategies))}; first: {first}; seed {seed}"
    )
    rate = sim.n / max(sim.play_s, 1e-9)
    click.echo(
        f"{sim.n:,} games in {sim.play_s:.2f} s ({rate:,.0f} games/s); kernels ready in {sim.load_s:.1f} s"
    )
    click.echo(sim.format())
    if records_path is not None:
        click.echo(f"wrote {sim.n_records:,} records to {records_path}", err=records_path == "-")
    if solve:
        from ..solver.luck import summary_lines

        click.echo("\n".join(summary_lines(sim.records)))
    _interrupted(sim, n)


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

    SOURCE is a JSON Lines file, or - for standard input. The exit status is
    non-zero when any record is rejected or its stored result differs.

    \b
    Example:
      whistsim replay games.jsonl --json
    """
    bad = 0
    for j in api.replay(source):
        bad += not j.ok
        if as_json:
            click.echo(json.dumps(j.to_json(), separators=(",", ":")))
        elif j.error is not None:
            where = "record" if j.move is None else f"move {j.move}"
            click.echo(f"line {j.line}: rejected at {where}: {j.error}")
        elif j.stored is not None:
            click.echo(
                f"line {j.line}: MISMATCH: replayed {json.dumps(j.result)}, stored {json.dumps(j.stored)}"
            )
        else:
            click.echo(f"line {j.line}: {json.dumps(j.result)}")
    if bad:
        sys.exit(1)


@main.command()
@click.argument("source", type=str)
@click.option("--line", type=int, default=0, show_default=True, help="0-based line of the record to show")
@click.option(
    "--json", "as_json", is_flag=True, help="one JSON object: the line, its replayed result and the telling"
)
def show(source, line, as_json=False):
    """Tell one recorded game turn by turn, trick by trick.

    \b
    Example:
      whistsim show games.jsonl --line 3
    """
    record = api.load_record(source, line)
    text = api.show(record)
    if as_json:
        result = api.judge(line, json.dumps(record)).result
        click.echo(json.dumps({"line": line, "game": record.get("game"), "result": result, "text": text}))
        return
    click.echo(text)


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
    from ..games import get_game

    g = get_game(game)
    if as_json:
        options = [{"key": o.key, "type": o.kind, "default": o.default, "doc": o.doc,
                    "choices": list(o.choices) if o.choices else None} for o in g.options]  # fmt: skip
        click.echo(json.dumps({"game": g.name, "title": g.title, "options": options, "presets": list(g.presets)},
                              default=str))  # fmt: skip
        return
    click.echo(f"{g.title} rule options (--rule KEY=VALUE):")
    kw = max(len(o.key) for o in g.options)
    dw = max(len(str(o.default)) for o in g.options)
    for o in g.options:
        choices = f"  [{' | '.join(str(c) for c in o.choices)}]" if o.choices else ""
        click.echo(f"  {o.key:<{kw}}  default {str(o.default):<{dw}}  {o.doc}{choices}")
    click.echo(f"presets (--preset NAME): {', '.join(g.presets)} (default {g.presets[0]})")
    click.echo("every rule, and each choice where the sources differ: docs/rules.md")
