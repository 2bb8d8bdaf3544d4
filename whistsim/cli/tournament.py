"""The ``tournament`` command: every strategy against every other, by duplicate play."""

from __future__ import annotations

import sys
import time

import click

from ..core.options import parse_assignments, plural
from ..games import get_game
from .main import GAME, main


@main.command()
@click.option("--game", type=GAME, default="welsh", show_default=True)
@click.option("--preset", default=None, help="a preset of the game's rules")
@click.option("--players", type=int, default=None, help="number of players")
@click.option(
    "--rule", "rules", multiple=True, metavar="KEY=VALUE", help="override one rule option (repeatable)"
)
@click.option("--strategies", "strategies", multiple=True, required=True, metavar="SPEC,SPEC,...",
              help="the strategies, comma-separated (repeatable), e.g. random,greedy:cheat=smart,pimc")  # fmt: skip
@click.option(
    "--n", type=int, default=20_000, show_default=True, help="games in all, shared among the arrangements"
)
@click.option(
    "--seed", type=int, default=0, show_default=True, help="decides every deck: the same in every arrangement"
)
@click.option("--first", default="0", show_default=True, help="the seat that plays first, or 'rotate'")
@click.option("--threads", type=int, default=None, help="Numba threads (default: all cores)")
@click.option(
    "--csv", "csv_path", type=click.Path(dir_okay=False), default=None, help="write the ranking as CSV"
)
@click.option("--pairs-csv", "pairs_path", type=click.Path(dir_okay=False), default=None,
              help="write the pairwise margins as CSV")  # fmt: skip
@click.option("--progress/--no-progress", default=None, help="progress bar (default: on a terminal)")
@click.option(
    "--json", "as_json", is_flag=True, help="print the settings, ranking and margins as one JSON object"
)
def tournament(
    game,
    preset,
    players,
    rules,
    strategies,
    n,
    seed,
    first,
    threads,
    csv_path,
    pairs_path,
    progress,
    as_json=False,
):
    """Play every strategy against every other in every seat arrangement, on the same decks.

    Ranks them by mean points per game, win rate and a Bradley-Terry rating, each
    with its 95% confidence interval, and prints the margin between each pair.

    \b
    Example:
      whistsim tournament --game welsh --players 3 --strategies random,greedy,hunter,counter,pimc --n 20000 --seed 1
    """
    from ..core.io import atomic_write, check_outputs, writing
    from ..tools.tournament import format_ranking, split_strategies
    from ..tools.tournament import tournament as run

    err = check_outputs(
        (csv_path, "--csv"), (pairs_path, "--pairs-csv"), stdout="--json" if as_json else None
    )

    t0 = time.perf_counter()
    t = run(split_strategies(strategies), game, n, seed, preset=preset, players=players,
            rules=parse_assignments(rules), first=first, threads=threads,
            progress=sys.stderr.isatty() if progress is None else progress)  # fmt: skip
    dt = time.perf_counter() - t0
    for path, df in ((csv_path, t.ranking), (pairs_path, t.pairwise)):
        if path is not None:
            with writing(path), atomic_write(path) as f:
                df.to_csv(f, index=False)
    if as_json:
        import json

        click.echo(json.dumps({**t.to_json(), "seconds": dt}))
        _interrupted(t, n)
        return
    # for a person: on standard error when an output is on standard output
    click.echo(f"{game}: {get_game(game).describe(t.rules)}", err=err)
    click.echo(
        f"{len(t.strategies)} strategies, {plural(len(t.arrangements), 'seat arrangement')} x "
        f"{plural(t.decks, 'deck')} = {plural(t.games, 'game')} in {dt:.1f} s; seed {seed}, first {first}",
        err=err,
    )
    click.echo(format_ranking(t), err=err)
    for path in (csv_path, pairs_path):
        if path is not None:
            click.echo(f"wrote {path}", err=err)
    _interrupted(t, n)


def _interrupted(t, n: int) -> None:
    """After Ctrl-C: one line, the tables (printed and written) being of the decks finished."""
    if t.interrupted:
        want = -(-n // len(t.arrangements))
        click.echo(f"whistsim: interrupted after {t.decks:,} of {want:,} decks in every seat arrangement: "
                   "the tables are of those", err=True)  # fmt: skip
        raise SystemExit(130)
