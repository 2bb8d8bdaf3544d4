"""The ``compare`` command: two rule sets on the same deals, figure by figure."""

from __future__ import annotations

import json
import sys

import click

from ..core.options import parse_assignments
from .main import GAME, GAME_HELP, main


@main.command(name="compare")
@click.option("--game", type=GAME, default="welsh", show_default=True, help=GAME_HELP)
@click.option(
    "--preset",
    default=None,
    help="a preset of the game's rules: A starts from it, and B unless --vs preset=NAME",
)
@click.option("--players", type=int, default=None, help="number of players")
@click.option(
    "--rule", "rules", multiple=True, metavar="KEY=VALUE", help="rule set A: an option (repeatable)"
)
@click.option(
    "--vs",
    "vs",
    multiple=True,
    metavar="KEY=VALUE",
    help="rule set B: A with this option changed (repeatable; required); preset=NAME starts B from that "
    "preset, with A's --players and --rule options on top",
)
@click.option(
    "--strategy",
    "strategies",
    multiple=True,
    metavar="[SEAT=]SPEC",
    help="a seat's player, e.g. 0=greedy (repeatable; default random)",
)
@click.option(
    "--n", type=int, default=100_000, show_default=True, help="number of games, each played under A and B"
)
@click.option("--seed", type=int, default=0, show_default=True, help="decides every deck and choice")
@click.option("--json", "as_json", is_flag=True, help="print the table as one JSON object")
@click.option("--threads", type=int, default=None, help="Numba threads (default: all cores)")
@click.option("--progress/--no-progress", default=None, help="progress bar (default: on a terminal)")
@click.option(
    "--chart",
    "chart_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="draw the differences with their 95% CIs into a PNG file, one panel per unit",
)
@click.option("--where", "where", metavar="EXPR", default=None,
              help="deal only deals that meet EXPR, e.g. 'side0.trumps >= 9' (docs/deals.md)")  # fmt: skip
def compare_cmd(
    game, preset, players, rules, vs, strategies, n, seed, as_json, threads, progress, chart_path, where
):
    """Compare two rule sets on the same deals: which figures the change moves,
    by how much (B minus A, game by game on the same deals) with its 95% CI, and
    which it leaves alone.

    Rule set A is the preset with the --rule options; B is A with the --vs
    options on top (--vs preset=NAME: that preset with A's --players and --rule
    options, then the other --vs options). B must differ from A. The figures
    that changed beyond their CI come first, in words with their units; those
    identical in every game under both are named in one line. The first turn
    rotates with the game index. What is counted is the game's unit: a deal, or
    at Oh Hell a whole game of every round.

    \b
    Examples:
      whistsim compare --game welsh --vs scoring=five_penalty --n 100000
      whistsim compare --game whist --vs honours=false --rule unit=deal --where 'side0.honours >= 3'
      whistsim compare --game ohhell --vs hook=false --n 2000
    """
    from ..core.io import check_outputs, writing
    from ..tools.comparison import compare, format_comparison
    from .core import _strategies

    # before any deal is played
    err = check_outputs((chart_path, "--chart"), stdout="--json" if as_json else None)
    a = parse_assignments(rules)
    b = parse_assignments(vs)
    specs = _strategies(strategies, players, game, preset, a)
    c = compare(game, preset=preset, players=players, rules=a, vs=b, strategies=specs, n=n, seed=seed, threads_=threads,
                progress=sys.stderr.isatty() if progress is None else progress, where=where)  # fmt: skip
    if chart_path is not None:
        with writing(chart_path):
            c.chart(chart_path)
    if as_json:
        click.echo(json.dumps(c.to_json()))
    else:  # for a person: on standard error when the chart is on standard output
        click.echo(format_comparison(c), err=err)
    if chart_path is not None and not as_json:
        click.echo(f"wrote {chart_path}", err=err)
    if c.interrupted:
        click.echo(f"whistsim: interrupted after {c.n:,} of {n:,} {c.unit}s: the table is of those", err=True)
        raise SystemExit(130)
