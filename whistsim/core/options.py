"""Rule options as data: each a named parameter with a default and a one-line doc.

Games declare their options with :class:`Option`; presets are plain dicts of
option values. Everything a user types (``--rule challenge=akagiri``) or a
record holds is parsed and checked here, and every failure is a
:class:`RuleError` whose message is one line naming the key and the reason.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any


class WhistsimError(ValueError):
    """Bad input from a user: shown as one line, never as a traceback."""


class WhistsimWarning(UserWarning):
    """A setting with no effect under the chosen rules (whistsim.tools.advice), or games that did not
    finish: shown as one line."""


class RuleError(WhistsimError):
    """An unknown rule option, a bad value or an impossible combination."""


def _parse_bool(text: Any) -> bool:
    if isinstance(text, bool):
        return text
    s = str(text).strip().lower()
    if s in ("true", "yes", "on", "1"):
        return True
    if s in ("false", "no", "off", "0"):
        return False
    raise ValueError("expected true or false")


INT_LIMIT = 2**31  # rule integers must fit the kernels' int32/int64 arithmetic with room to spare


def _bounded(v: int) -> int:
    if not -INT_LIMIT < v < INT_LIMIT:
        raise ValueError(f"expected an integer of magnitude below {INT_LIMIT}")
    return v


def _parse_int(text: Any) -> int:
    if isinstance(text, bool):
        raise ValueError("expected an integer")
    if isinstance(text, int):
        return _bounded(text)
    if isinstance(text, float) and text.is_integer():
        return _bounded(int(text))
    s = str(text).strip()
    if not s.isascii():  # int() would take other scripts' digits
        raise ValueError("expected an integer")
    try:
        return _bounded(int(s))
    except ValueError:
        raise ValueError("expected an integer") from None


def _parse_number(text: Any) -> float:
    if isinstance(text, bool):
        raise ValueError("expected a number")
    try:
        return float(text)
    except (TypeError, ValueError):
        raise ValueError("expected a number") from None


def _parse_int_list(text: Any) -> tuple[int, ...]:
    if isinstance(text, str):
        s = text.strip()
        try:
            text = json.loads(s) if s.startswith("[") else [int(x) for x in s.split(",") if x]
        except (ValueError, RecursionError):
            raise ValueError("expected a list of integers such as 0,1,0,1") from None
    if not isinstance(text, (list, tuple)) or not all(
        isinstance(x, int) and not isinstance(x, bool) for x in text
    ):
        raise ValueError("expected a list of integers such as 0,1,0,1")
    if len(text) > 64 or not all(-INT_LIMIT < x < INT_LIMIT for x in text):
        raise ValueError("expected a short list of small integers such as 0,1,0,1")
    return tuple(text)


PARSERS: dict[str, Callable[[Any], Any]] = {
    "bool": _parse_bool,
    "int": _parse_int,
    "number": _parse_number,
    "int_list": _parse_int_list,
    "str": lambda v: v if isinstance(v, str) else str(v),
}


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


# Records write rules as typed JSON (docs/records.md): the type a record must use per kind.
_JSON_TYPES: dict[str, Callable[[Any], bool]] = {
    "bool": lambda v: isinstance(v, bool),
    "int": _is_int,
    "number": lambda v: _is_int(v) or isinstance(v, float),
    "int_list": lambda v: isinstance(v, list) and all(_is_int(x) for x in v),
    "str": lambda v: isinstance(v, str),
}
_JSON_WORDS = {
    "bool": "true or false",
    "int": "an integer",
    "number": "a number",
    "int_list": "a list of integers",
    "str": "a string",
}


@dataclass(frozen=True)
class Option:
    key: str
    kind: str  # a key of PARSERS
    default: Any
    doc: str
    choices: tuple | None = None

    def parse_json(self, value: Any) -> Any:
        """A value read from a record: its JSON type must already be right (no ``"3"`` for 3)."""
        if not _JSON_TYPES[self.kind](value):
            raise RuleError(
                f"rule {self.key}={json.dumps(value, default=repr)}: expected {_JSON_WORDS[self.kind]}"
            )
        return self.parse(value)

    def parse(self, value: Any) -> Any:
        try:
            v = PARSERS[self.kind](value)
        except ValueError as e:
            raise RuleError(f"rule {self.key}={value!r}: {e}") from None
        if self.choices is not None and v not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise RuleError(
                f"rule {self.key}={value!r}: expected one of {allowed}{near(value, self.choices)}"
            )
        return v


def near(word: Any, known: Iterable[Any], prefix: str = "") -> str:
    """A near miss among ``known``: ``"; did you mean 'target'?"`` (or nothing), for one-line errors.

    A word that begins a known one (``five`` for ``five_penalty``) names it too, or the few it begins.
    """
    import difflib

    if not isinstance(word, str):
        return ""
    names = [str(k) for k in known]
    w = word.strip().lower()
    starts = [k for k in names if w and k.lower().startswith(w) and k.lower() != w]
    if 1 <= len(starts) <= 3:
        return f"; did you mean {alternatives([f'{prefix}{k}' for k in starts], quote=True)}?"
    close = difflib.get_close_matches(w, names, n=1, cutoff=0.6)
    return f"; did you mean {prefix}{close[0]!r}?" if close else ""


def alternatives(items: Iterable[Any], *, quote: bool = False, last: str = "or") -> str:
    """``["a", "b", "c"]`` -> ``"a, b or c"`` (``quote``: each as ``'a'``)."""
    words = [repr(str(x)) if quote else str(x) for x in items]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {last} {words[-1]}"


def written(value: Any) -> str:
    """A rule value as a user writes it in --rule: true, 10.5, 10, 0,1,0,1 (empty for none)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, (list, tuple)):
        return ",".join(map(str, value)) or "empty"
    return str(value)


def describe(values: dict[str, Any]) -> str:
    """Rules in one line, each value as a user writes it: ``players=3, revokes=false, ...``."""
    return ", ".join(f"{k}={written(v)}" for k, v in values.items())


def plural(n: int, word: str, many: str | None = None) -> str:
    """``plural(1, "game")`` -> ``"1 game"``, ``plural(2000, "game")`` -> ``"2,000 games"``."""
    return f"{n:,} {word if n == 1 else many or word + 's'}"


def parse_assignments(items: list[str] | tuple[str, ...]) -> dict[str, str]:
    """``["challenge=akagiri", "revokes=true"]`` -> dict; one line on a bad item."""
    out: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise RuleError(f"rule {item!r}: expected KEY=VALUE")
        if key.strip() in out:  # a repeat is a slip, not an override: the last would win silently
            raise RuleError(
                f"rule {key.strip()!r} is given twice ({out[key.strip()]!r} and {value.strip()!r})"
            )
        out[key.strip()] = value.strip()
    return out


def resolve(
    options: tuple[Option, ...],
    values: dict[str, Any],
    *,
    strict_complete: bool = False,
    json_types: bool = False,
    what: str = "rule",
) -> dict[str, Any]:
    """Parse ``values`` against ``options``; unknown keys are errors.

    With ``strict_complete`` every option must be given (records write rules in full);
    with ``json_types`` each value must have its JSON type (a record, not typed text).
    """
    known = {o.key: o for o in options}
    for key in values:
        if key not in known:
            raise RuleError(f"unknown {what} {key!r}{near(key, known)} (known: {', '.join(known)})")
    out = {}
    for o in options:
        if o.key in values:
            out[o.key] = o.parse_json(values[o.key]) if json_types else o.parse(values[o.key])
        elif strict_complete:
            raise RuleError(f"missing {what} {o.key!r}")
        else:
            out[o.key] = o.default
    return out
