"""The ``whistsim`` command: thin shells over :mod:`whistsim.api`, one module per theme."""

from __future__ import annotations

import importlib

import click

from ..options import WhistsimError

# Modules that add commands to ``main``; each is a few lines per command.
COMMAND_MODULES = (
    "core",
    "bench",
    "experiment",
    "claims",
    "strategies",
    "tournament",
    "odds",
    "play",
    "compare",
    "figures",
    "solve",
)


class _Group(click.Group):
    """Bad input is one line and a non-zero exit, never a traceback."""

    def invoke(self, ctx: click.Context):
        import warnings

        def show(message, category, *_args, **_kw):  # a setting with no effect: one line
            click.echo(f"whistsim: warning: {message}", err=True)

        warnings.showwarning = show
        try:
            return super().invoke(ctx)
        except WhistsimError as e:
            click.echo(f"whistsim: error: {e}", err=True)
            ctx.exit(2)
        except KeyboardInterrupt:
            click.echo("whistsim: interrupted", err=True)
            ctx.exit(130)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="whistsim")
def main() -> None:
    """Simulate whist-family card games to answer questions about their rules.

    \b
    Example:
      whistsim simulate --game welsh --n 1000000 --seed 7
    """


for _name in COMMAND_MODULES:
    importlib.import_module(f"{__name__}.{_name}")
