"""The ``play`` command: a deal in the terminal against the built-in players."""

from __future__ import annotations

import sys

import click

from ..options import WhistsimError, parse_assignments
from . import GAME, main


def _lines(interactive: bool):
    """Typed lines from standard input, prompting on a terminal."""
    stream = click.get_text_stream("stdin")
    while True:
        if interactive:
            click.echo("your move (? lists them, an empty line takes the hint): ", nl=False)
        line = stream.readline()
        if not line:
            return
        yield line.rstrip("\r\n")


@main.command(name="play")
@click.option("--game", type=GAME, default="welsh", show_default=True, help="welsh, scotch or whist")
@click.option("--preset", default=None, help="a preset of the game's rules")
@click.option("--players", type=int, default=None, help="number of players")
@click.option(
    "--rule", "rules", multiple=True, metavar="KEY=VALUE", help="override one rule option (repeatable)"
)
@click.option("--seat", type=int, default=0, show_default=True, help="your seat")
@click.option(
    "--strategy",
    "strategies",
    multiple=True,
    metavar="[SEAT=]SPEC",
    help="another seat's player, e.g. 1=greedy (repeatable; default random)",
)
@click.option(
    "--seed", type=int, default=0, show_default=True, help="decides the deal and the players' choices"
)
@click.option(
    "--hint",
    default=None,
    metavar="SPEC",
    help="the player whose move an empty line makes "
    "(default: the strongest fast player: counter for welsh, heuristic for scotch and whist)",
)
@click.option(
    "--record",
    "record_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="write the deal's record (JSON Lines; whistsim replay judges it)",
)
def play_cmd(game, preset, players, rules, seat, strategies, seed, hint, record_path):
    """Play a deal yourself against the built-in players, any game and variant.

    You see your hand (by suit), the trick, the stock, the scores and what the
    others have shown (passes, voids), drawn with rich on a terminal and as plain
    text when the output is piped; type a move as in records (7H, draw, pass, X=S,
    challenge=2, nochallenge), ? for your legal moves, or an empty line for the
    hint player's move. Moves are read from standard input, so a game can be
    scripted.

    \b
    Examples:
      whistsim play --game welsh --rule revokes=true --rule challenge=parlett
      yes '' | whistsim play --game whist --seed 5 --record game.jsonl
    """
    from ..api import write_records
    from ..play import play_game
    from .core import _strategies

    overrides = parse_assignments(rules)
    specs = _strategies(strategies, players, game, preset, overrides)
    show = None
    if sys.stdout.isatty():  # a terminal: the hand by suit, the trick and the seats drawn with rich
        from rich.console import Console

        from ..play import rich_view

        console = Console()

        def show(table) -> None:
            console.print(rich_view(table.facts()))

    out = play_game(game, preset=preset, players=players, rules=overrides, seat=seat, strategies=specs,
                    seed=seed, hint=hint, moves=_lines(sys.stdin.isatty()), echo=click.echo,
                    show=show)  # fmt: skip
    if record_path is not None:
        try:
            write_records(record_path, [out.record])
        except OSError as e:
            raise WhistsimError(f"cannot write {record_path}: {e.strerror}") from None
        click.echo(f"wrote the record to {record_path} (whistsim replay {record_path})")
