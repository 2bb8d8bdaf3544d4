"""The ``whistsim`` group: the command that every command module adds its commands to.

Its own module, so that command modules import it (``from .main import main``) and never
the package that loads them by name (whistsim/cli/__init__.py).
"""

from __future__ import annotations

import pickle
import sys

import click

from ..core.options import WhistsimError, near
from ..games import NAMES


class _Group(click.Group):
    """Bad input is one line and a non-zero exit, never a traceback."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.UsageError as e:  # Click's own usage errors: one line too, like the rest
            hint = f" (see {e.ctx.command_path} --help)" if e.ctx is not None else ""
            click.echo(f"whistsim: error: {' '.join(e.format_message().split())}{hint}", err=True)
            sys.exit(2)
        except click.ClickException as e:
            click.echo(f"whistsim: error: {' '.join(e.format_message().split())}", err=True)
            sys.exit(e.exit_code)
        except click.Abort:
            click.echo("whistsim: interrupted", err=True)
            sys.exit(130)
        except WhistsimError as e:  # raised while the arguments are parsed
            click.echo(f"whistsim: error: {e}", err=True)
            sys.exit(2)
        sys.exit(rv if isinstance(rv, int) else 0)

    def invoke(self, ctx: click.Context):
        import signal
        import threading
        import warnings

        def show(message, category, *_args, **_kw):  # a setting with no effect: one line
            click.echo(f"whistsim: warning: {message}", err=True)

        warnings.showwarning = show
        hit = [False]

        def on_sigint(signum, frame):  # Ctrl-C: remembered, so that what it broke is not reported as a bug
            hit[0] = True
            raise KeyboardInterrupt

        old = None
        if threading.current_thread() is threading.main_thread():
            old = signal.signal(signal.SIGINT, on_sigint)
        try:
            return super().invoke(ctx)
        except (SystemExit, click.exceptions.Exit):
            raise
        except KeyboardInterrupt:
            _interrupted(ctx)
        except Exception as e:
            if hit[0]:  # a compile or a library cut short by Ctrl-C may fail with its own error
                _interrupted(ctx)
            if isinstance(e, WhistsimError):
                click.echo(f"whistsim: error: {e}", err=True)
                ctx.exit(2)
            if isinstance(e, pickle.UnpicklingError):  # only Numba's kernel cache is unpickled
                click.echo(
                    f"whistsim: error: the kernel cache looks corrupted ({e}); run make clean-cache", err=True
                )
                ctx.exit(2)
            raise
        finally:
            if old is not None:
                signal.signal(signal.SIGINT, old)


def _interrupted(ctx: click.Context) -> None:
    """Ctrl-C: one line and exit 130. Files are written whole or not at all (atomically)."""
    click.echo("whistsim: interrupted", err=True)
    ctx.exit(130)


class Choice(click.Choice):
    """``click.Choice`` (any case) whose refusal names a near miss: ``--game scoth`` -> scotch,
    ``--game french`` -> ``--game scotch --preset french``."""

    def __init__(self, choices, what: str = "value", hint=None) -> None:
        super().__init__(list(choices), case_sensitive=False)
        self.what, self.hint = what, hint

    def convert(self, value, param, ctx):
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter:
            extra = self.hint(value) if self.hint is not None else near(value, self.choices)
            known = ", ".join(map(str, self.choices))
            self.fail(f"unknown {self.what} {value!r}{extra} (known: {known})", param, ctx)


def _game_hint(value) -> str:
    from ..games import _did_you_mean

    return _did_you_mean(value)


class GameChoice(Choice):
    """``--game``: whistsim's games, and those defined outside it (``games.game_names``)."""

    def convert(self, value, param, ctx):
        if isinstance(value, str) and value.strip().lower() not in self.choices:
            from ..games import game_names  # imports the games from outside: only for a name not ours

            return Choice(game_names(), self.what, self.hint).convert(value, param, ctx)
        return super().convert(value, param, ctx)


GAME = GameChoice(NAMES, "game", _game_hint)  # the registry's games
GAME_HELP = "the game: " + ", ".join(NAMES[:-1]) + " or " + NAMES[-1]


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="whistsim")
def main() -> None:
    """Simulate whist-family card games to answer questions about their rules.

    \b
    Example:
      whistsim simulate --game welsh --n 1000000 --seed 7
    """
