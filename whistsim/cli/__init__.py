"""The ``whistsim`` command: thin shells over :mod:`whistsim.api`, one module per theme.

The group itself is in :mod:`whistsim.cli.main`; this package loads the modules that add commands to it.
"""

from __future__ import annotations

import importlib

from .main import GAME, Choice, main

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
    "serve",
    "design",
)

__all__ = ["COMMAND_MODULES", "GAME", "Choice", "main"]

for _name in COMMAND_MODULES:
    importlib.import_module(f"{__name__}.{_name}")
