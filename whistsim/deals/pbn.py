"""PBN files (Portable Bridge Notation): each board's ``[Deal]`` read as a Whist deal, and the
deals of Whist records written as boards (docs/records.md, "PBN").

A bridge deal is a Whist deal less what Whist adds: the card turned up for trumps, in the
dealer's hand, and the dealer, whose left leads. :func:`read_pbn` takes them from its
arguments, else from the board's tags where they fit (``[Trump]``, a ``[Contract]`` in a suit,
``[Dealer]``, the board number's dealer), else the documented defaults; :func:`write_pbn`
writes the turned card in a ``[Trump]`` tag of its own, which other PBN tools pass over.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable
from typing import IO, Any

from ..core.options import WhistsimError
from .notation import SEAT_LETTERS, format_deal, parse_deal

_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_CONTRACT = re.compile(r"^\s*[1-7]\s*([SHDC])", re.IGNORECASE)  # a contract in a suit: its strain
MAX_PBN = 64 << 20  # bytes: a PBN file larger than this is refused, not read into memory


class Board(dict):
    """One board's tags (the first of each name), and the line its first tag is on."""

    line: int = 0


def _text_of(source: Any) -> tuple[str, str]:
    """(the file's text, its name for messages) of a path, ``-`` (standard input) or a stream."""
    if hasattr(source, "read"):
        data = source.read(MAX_PBN + 1)
        name = getattr(source, "name", "PBN input")
    elif isinstance(source, str | os.PathLike):
        name = os.fspath(source)
        if name == "-":
            stream = getattr(sys.stdin, "buffer", sys.stdin)
            data, name = stream.read(MAX_PBN + 1), "standard input"
        else:
            try:
                with open(name, "rb") as f:
                    data = f.read(MAX_PBN + 1)
            except OSError as e:
                raise WhistsimError(f"cannot read {name}: {e.strerror}") from None
    else:
        raise WhistsimError(f"a PBN source is a path, '-' or a stream, not {type(source).__name__}")
    if len(data) > MAX_PBN:
        raise WhistsimError(f"{name}: larger than {MAX_PBN >> 20} MiB; split it")
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:  # PBN's own character set is ISO 8859-1
            data = data.decode("latin-1")
    return data.removeprefix("\ufeff"), str(name)


def boards(text: str) -> list[Board]:
    """The boards of a PBN text: tags between empty lines, with ``%`` lines, ``{...}`` and ``;``
    comments, and the auction and play sections passed over; a tag valued ``#`` takes the value
    the board before gave it (PBN's tag inheritance)."""
    out: list[Board] = []
    board = Board()
    in_comment = False
    previous: dict[str, str] = {}

    def close() -> None:
        nonlocal board
        if board:
            for key, value in board.items():
                if value == "#" and key in previous:
                    board[key] = previous[key]
            previous.update(board)
            out.append(board)
        board = Board()

    for n, line in enumerate(text.splitlines(), 1):
        if not in_comment and line.startswith("%"):
            continue
        if not in_comment and not line.strip():
            close()
            continue
        i = 0
        while i < len(line):
            if in_comment:
                j = line.find("}", i)
                if j < 0:
                    break
                in_comment, i = False, j + 1
                continue
            ch = line[i]
            if ch == "{":
                in_comment, i = True, i + 1
            elif ch == ";":
                break
            elif ch == "[":
                m = _TAG.match(line, i)
                if m is None:
                    raise WhistsimError(f'line {n}: a tag is written [Name "value"]: {line.strip()[:60]!r}')
                key, value = m.group(1), re.sub(r"\\(.)", r"\1", m.group(2))
                if not board:
                    board.line = n
                board.setdefault(key, value)  # a tag given twice in one board: the first counts
                i = m.end()
            else:
                i += 1
    close()
    return out


def _seat(value: Any, what: str) -> str:
    text = str(value).strip().upper()
    if text in SEAT_LETTERS:
        return text
    if text.isascii() and text.isdigit() and int(text) < 4:
        return SEAT_LETTERS[int(text)]
    raise WhistsimError(f"{what} {value!r}: expected N, E, S, W or a seat number from 0 to 3")


def _board_dealer(board: Board) -> str | None:
    """The board's dealer: its ``[Dealer]``, else the one its number gives (board 1: N, 2: E, ...)."""
    d = board.get("Dealer", "").strip().upper()
    if d in SEAT_LETTERS and d:
        return d
    number = board.get("Board", "").strip()
    if number.isascii() and number.isdigit() and int(number) > 0:
        return SEAT_LETTERS[(int(number) - 1) % 4]
    return None


def _board_trump(board: Board) -> str | None:
    """``[Trump]`` (a card or a suit), else the strain of a ``[Contract]`` in a suit."""
    t = board.get("Trump", "").strip()
    if t and t != "?":
        return t
    m = _CONTRACT.match(board.get("Contract", ""))
    return m.group(1).upper() if m else None


def read_pbn(
    source: Any,
    *,
    trump: str | None = None,
    dealer: int | str | None = None,
    first: int | str | None = None,
    rules: dict[str, Any] | None = None,
) -> list[dict]:
    """Each board's ``[Deal]`` of a PBN file as a Whist record with no moves, in file order.

    ``source``: a path, ``-`` for standard input, or a stream. ``trump``: a suit (``H``: the
    dealer turns its lowest heart) or a card in every dealer's hand; else the board's
    ``[Trump]``, else its ``[Contract]``'s suit, else the dealer's lowest card of the highest
    suit it holds (spades, unless void). ``dealer``, or ``first`` (the first to lead, the
    dealer's left): a seat letter or number for every board; else the board's ``[Dealer]``,
    else its number's (board 1 North, 2 East, ...), else North. ``rules``: Whist's rule
    options, as ``--rule``. Boards with no ``[Deal]`` are passed over; a bad board is a
    one-line :class:`~whistsim.WhistsimError` naming it.

    >>> deals = read_pbn("tests/data/real_deals.pbn")
    >>> len(deals), deals[2]["dealer"], deals[2]["trump"]   # board 3: South deals, hearts from 4HX
    (8, 2, '9H')
    >>> [r["trump"] for r in read_pbn("tests/data/real_deals.pbn", trump="H", first="S")][:3]
    ['3H', '4H', '3H']
    """
    text, name = _text_of(source)
    try:
        found = boards(text)
    except WhistsimError as e:
        raise WhistsimError(f"{name}: {e}") from None
    if dealer is not None:
        dealer = _seat(dealer, "dealer")
    if first is not None:
        first = _seat(first, "first")
    out = []
    for i, board in enumerate(found):
        deal = board.get("Deal", "").strip()
        if not deal:
            continue
        label = f"board {board['Board'].strip()}" if board.get("Board", "").strip() else f"board {i + 1}"
        where = f"{name}: {label} (line {board.line})"
        if "-" in deal.split(":", 1)[-1].split():
            raise WhistsimError(f"{where}: the deal gives only some hands ('-'); Whist needs all four")
        words = []
        if first is not None:
            words.append(f"first={first}")
            if dealer is not None:
                words.append(f"dealer={dealer}")
        else:
            d = dealer or _board_dealer(board) or "N"
            words.append(f"dealer={d}")
        t = trump or _board_trump(board)
        if t is not None:
            words.append(f"trump={t}")
        try:
            out.append(parse_deal(" ".join(["whist", deal, *words]), rules=rules))
        except WhistsimError as e:
            raise WhistsimError(f"{where}: {str(e).removeprefix('deal: ')}") from None
    if not out:
        raise WhistsimError(f"{name}: no board with a [Deal] tag")
    return out


def _quoted(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def pbn_text(records: Iterable[dict], event: str = "whistsim") -> str:
    """The deals of Whist records as the text of a PBN file, one board each."""
    lines = [
        "% PBN 2.1",
        "% Whist deals written by whistsim: [Trump] is the card turned up, in the dealer's hand",
        "",
    ]
    for i, record in enumerate(records):
        game = record.get("game") if isinstance(record, dict) else None
        if game != "whist":
            raise WhistsimError(f"record {i}: only Whist deals are written as PBN, not {game!r}")
        try:
            text = format_deal(record)  # checks the deal as replay would
        except WhistsimError as e:
            raise WhistsimError(f"record {i}: {e}") from None
        tokens = text.split()  # whist N:<N> <E> <S> <W> trump=.. dealer=.. [rules]
        words = dict(w.split("=", 1) for w in tokens[5:])
        names = record.get("strategies")
        names = names if isinstance(names, list) and len(names) == 4 else [""] * 4
        tags = [("Event", event), ("Site", ""), ("Date", "????.??.??"), ("Board", str(i + 1))]
        tags += [(SEAT_NAMES[q], str(names[q])) for q in (3, 0, 1, 2)]
        tags += [("Dealer", words["dealer"]), ("Vulnerable", "None"), ("Deal", " ".join(tokens[1:5])),
                 ("Trump", words["trump"])]  # fmt: skip
        lines += [f"[{k} {_quoted(v)}]" for k, v in tags] + [""]
    return "\n".join(lines)


SEAT_NAMES = ("North", "East", "South", "West")


def write_pbn(records: Iterable[dict], stream: IO[str] | str | os.PathLike) -> int:
    """Write the deals of Whist records to ``stream`` (a text stream, or a path written whole or
    not at all; ``-``: standard output) as a PBN file, one board each; returns the boards written.
    Tags: Event, Site, Date, Board, West, North, East, South (the record's players), Dealer,
    Vulnerable, Deal, and Trump (the card turned up). :func:`read_pbn` reads it back.

    >>> import io
    >>> records = whistsim.simulate("whist", n=1, seed=5, records=1).records[:2]  # a game's first deals
    >>> out = io.StringIO()
    >>> write_pbn(records, out)
    2
    >>> for line in out.getvalue().splitlines()[-4:]:
    ...     print(line)
    [Dealer "N"]
    [Vulnerable "None"]
    [Deal "N:... ... ... ..."]
    [Trump "..."]
    >>> out.seek(0) == 0 and read_pbn(out)[0]["hands"] == records[0]["hands"]
    True
    """
    records = list(records)
    text = pbn_text(records)  # every record checked before a byte is written
    if hasattr(stream, "write"):
        stream.write(text)
        return len(records)
    from ..core.io import atomic_write, writing

    with writing(stream), atomic_write(stream) as f:
        f.write(text)
    return len(records)


__all__ = ["read_pbn", "write_pbn", "boards", "pbn_text", "Board"]
