"""Users' own strategies: does an ``@njit`` function compile as a player of a game?"""

from __future__ import annotations

import re
from collections.abc import Callable
from types import ModuleType

import numpy as np
from numba import njit, typeof
from numba.core import types
from numba.core.errors import NumbaError


def user_checker(parts: ModuleType) -> Callable[[Callable], str | None]:
    """For a game's kernel parts: fn -> why it cannot decide from that game's view (None: it can)."""

    def check_user(fn: Callable) -> str | None:
        from .build import kernel

        user, view = fn, kernel(parts, None).view

        @njit
        def probe(buf, seat):
            return user(view(buf[0], seat))

        buf = np.zeros(1, parts.STATE_DTYPE)
        try:
            probe.compile((typeof(buf), types.int64))
        except NumbaError as e:
            return compile_error(str(e))
        ret = probe.overloads[next(iter(probe.overloads))].signature.return_type
        if not isinstance(ret, types.Integer):
            return f"it returns {ret}, not an integer action"
        return None

    return check_user


def compile_error(text: str) -> str:
    """Numba's typing error in one line: the reason, and the user's line that caused it."""
    lines = [x.strip() for x in text.splitlines()]
    body = [x for x in lines if x and not x.startswith(("Failed in", "During:"))]
    reason = body[0] if body else "Numba cannot compile it"
    if reason.endswith("signature:"):
        reason += " " + next((x.lstrip("> ") for x in body if x.startswith(">>>")), "")
    reason = re.sub(r"(Welsh|Dealt)View\(.*", r"\1View", reason)
    reason = reason if len(reason) <= 160 else reason[:157] + "..."
    for i, x in enumerate(lines):
        m = re.match(r'File "(.*)", line (\d+):', x)
        if m and "<string>" not in x and "^" in lines[i + 1 : i + 8]:
            caret = lines.index("^", i + 1)
            return f"{reason} (line {m.group(2)}: {lines[caret - 1]})"
    return reason
