"""The ``play`` command: a deal in the terminal against the built-in players."""

from __future__ import annotations

import sys

import click

from ..core.options import WhistsimError, alternatives, parse_assignments, plural
from .main import GAME, GAME_HELP, main


def default_players() -> str:
    """Each game's default player as the registry has it: ``pimc2 for welsh, pimc for scotch, ...``."""
    from ..games import NAMES, get_game

    by_player: dict[str, list[str]] = {}
    for name in NAMES:
        by_player.setdefault(get_game(name).default_player, []).append(name)
    return ", ".join(f"{p} for {alternatives(names, last='and')}" for p, names in by_player.items())


class _DefaultsOption(click.Option):
    """An option whose help names the games' default players (``{defaults}``), filled in only when
    the help is shown: reading them imports every game, too slow for every command line."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        if self.help and "{defaults}" in self.help:
            self.help = self.help.replace("{defaults}", default_players())
        return super().get_help_record(ctx)


class _Encoded:
    """A text-only standard input (a stand-in with no ``buffer``) read as bytes, a line at a time."""

    def __init__(self, stream) -> None:
        self.stream = stream

    def readline(self, limit: int = -1) -> bytes:
        return self.stream.readline(limit).encode("utf-8", "surrogateescape")


@main.command(name="play")
@click.option("--game", type=GAME, default=None, help=f"{GAME_HELP}  [default: welsh, or the deal's]")
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
    cls=_DefaultsOption,
    help="another seat's player, e.g. 1=greedy (repeatable; default the hint's player: {defaults})",
)
@click.option(
    "--seed", type=int, default=0, show_default=True, help="decides the deal and the players' choices"
)
@click.option(
    "--hint",
    default=None,
    metavar="SPEC",
    cls=_DefaultsOption,
    help="the player whose move an empty line makes (default: the strongest fast player: {defaults})",
)
@click.option(
    "--deal",
    default=None,
    metavar="TEXT",
    help="play this deal, written as text: 'whist N:AKQ2.JT9.876.543 ... trump=7H dealer=W' "
    "(docs/records.md, Deals as text); --seed then decides only the players' choices",
)
@click.option(
    "--deal-file",
    type=click.Path(dir_okay=False),
    default=None,
    help="play a deal from a file: a .pbn file's first board (as Whist), a record (JSON, its first "
    "line), or a deal as text",
)
@click.option(
    "--record",
    "record_path",
    type=click.Path(dir_okay=False, allow_dash=True),
    default=None,
    help="write the deal's record (JSON Lines; whistsim replay judges it); - for standard output, "
    "the table then goes to standard error",
)
def play_cmd(game, preset, players, rules, seat, strategies, seed, hint, deal, deal_file, record_path):
    """Play a deal yourself against the built-in players, any game and variant.

    You see your hand (by suit), the trick, the stock, the scores and what the
    others have shown (passes, voids), drawn with rich on a terminal and as plain
    text when the output is piped. The other seats hold the strongest fast player
    unless --strategy says otherwise. Moves are read from standard input, so a
    game can be scripted. At the prompt:

    \b
      MOVE          a move as records write it: 7H, draw, pass, X=S, challenge=2, nochallenge
      N             the Nth of your legal moves, as ? numbers them
      (empty line)  take the hint player's move
      ? or moves    list your legal moves, numbered
      hint          show the hint player's move without taking it
      last          show the last complete trick
      undo          take back your last move and the others' moves since
      quit          stop; the moves so far go to --record, if given
      help          this list

    --deal (or --deal-file) plays a deal you choose instead of the seed's:
    its game, rules and dealer as the text or file gives them, --preset,
    --players and --rule adding to a text's words.

    A line over 4 KiB or not UTF-8 is a bad line; after 100 lines in a row
    that take the deal no further, or when the input ends before the deal does,
    play stops with status 2, writing the moves so far to --record. A record
    of an unfinished deal has no result: whistsim replay judges each of its
    moves and says where they stop.

    \b
    Examples:
      whistsim play --game welsh --rule revokes=true --rule challenge=parlett
      yes '' | whistsim play --game whist --seed 5 --record game.jsonl
      yes '' | whistsim play --game whist --record - | whistsim replay -
      whistsim play --deal 'whist N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432 trump=2S'
    """
    from ..api import write_records
    from ..core.io import STDIO, check_output, writing
    from ..games import get_game
    from ..tools.terminal import PlayStopped, play_game, typed_lines
    from .core import _strategies

    if record_path is not None:
        check_output(record_path, "--record")  # before the deal: a bad path is one line at once
    to_err = record_path == STDIO  # standard output holds the record alone
    overrides = parse_assignments(rules)
    given = None
    if deal is not None or deal_file is not None:
        from ..game import deal_record

        if deal is not None and deal_file is not None:
            raise WhistsimError("--deal and --deal-file: give one deal")
        text = deal if deal is not None else _deal_file(deal_file)
        given = deal_record(text, game, preset=preset, players=players,
                            rules=overrides if isinstance(text, str) else None)  # fmt: skip
        game, preset, overrides = given["game"], None, {}
        players = given["rules"].get("players")  # the deal's seats, for --strategy SEAT=...
    game = game or "welsh"
    specs = _strategies(strategies, players, game, preset, overrides, default=get_game(game).default_player)
    show = None
    screen = sys.stderr if to_err else sys.stdout
    if screen.isatty():  # a terminal: the hand by suit, the trick and the seats drawn with rich
        from rich.console import Console

        from ..tools.terminal import rich_view

        console = Console(stderr=to_err)

        def show(table) -> None:
            console.print(rich_view(table.facts()))

    def echo(text: str) -> None:
        click.echo(text, err=to_err)

    prompt = None
    if sys.stdin.isatty():

        def prompt() -> None:
            echo_prompt = "your move (help lists the commands; an empty line takes the hint): "
            click.echo(echo_prompt, nl=False, err=to_err)

    moves = typed_lines(getattr(sys.stdin, "buffer", None) or _Encoded(sys.stdin), prompt)
    stopped = None
    try:
        if given is not None:
            out = play_game(seat=seat, strategies=specs, seed=seed, hint=hint, moves=moves, echo=echo, show=show,
                            deal=given)  # fmt: skip
        else:
            out = play_game(game, preset=preset, players=players, rules=overrides, seat=seat, strategies=specs,
                            seed=seed, hint=hint, moves=moves, echo=echo, show=show)  # fmt: skip
    except PlayStopped as e:
        out, stopped = e.game, str(e)
    note = ""
    if record_path is not None:
        with writing(record_path):
            write_records(record_path, [out.record])
        where = "standard output" if to_err else record_path
        n = len(out.record["moves"])
        note = (
            f"wrote the record to {where} (whistsim replay {record_path})"
            if out.finished
            else f"wrote the {plural(n, 'move')} so far to {where}: a record of an unfinished deal, "
            "with no result (whistsim replay judges each move and says where they stop)"
        )
    if stopped is not None:
        raise WhistsimError(f"{stopped}" + (f"; {note}" if note else ""))
    if note:
        echo(note)


def _deal_file(path: str) -> str | dict:
    """The deal a file holds: a PBN file's first board, a record's first line, or text."""
    try:  # standard input holds the moves, so the deal is always a file
        with open(path, "rb") as f:
            data = f.read(1 << 20)
    except OSError as e:
        raise WhistsimError(f"--deal-file {path}: {e.strerror}") from None
    text = data.decode("utf-8", "replace").lstrip("\ufeff")
    if path.lower().endswith(".pbn") or text.lstrip().startswith(("%", "[")):
        from ..deals import read_pbn

        return read_pbn(path)[0]
    first = next((line for line in text.splitlines() if line.strip()), "")
    if first.lstrip().startswith("{"):
        from ..api import record_of_line

        try:
            return record_of_line(first)
        except ValueError as e:
            raise WhistsimError(f"--deal-file {path}: line 0 is not a record: {e}") from None
    return " ".join(text.split())
