"""Constraints on the deal, declared as text (docs/deals.md): ``"side0.trumps >= 9"``,
``"N.spades == 5 and S.spades >= 3"``, ``"dealer holds AS KS"``, ``"top12.tens >= 2"`` (Welsh
Whist's stock).

:func:`parse` reads the text into a small tree; :func:`compile_where` checks it against a game's
rules and writes the program the kernels run (``whistsim.harness.deal``) on every shuffled pack;
:func:`prepare` also refuses, in one line and before a run, what can never hold and what holds too
rarely to deal (from a quick sample). :meth:`Constraint.holds` checks a record in Python, apart
from the kernel's reading, for tests and for people.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.cards import ACE, JACK, KING, QUEEN, RANKS, SUIT_WORDS, TAFFY, TEN, card, card_name, parse_card
from ..core.options import WhistsimError, near
from ..games.dealt.engine import DIAMONDS, FRENCH_TEN_POINTS, TRUMP_POINTS
from ..harness import deal as K

CAP = 1 << 25  # the most deals the kernel draws for one deal before it gives up (about 10 s)
MIN_RATE = 1e-6  # a constraint must accept about this share of deals, or more
FIRST_SAMPLE = 10_000  # deals drawn to estimate the rate before a run; more when none is accepted
FULL_SAMPLE = 1_000_000

SEATS_NESW = "NESW"  # four-player games: N=0, E=1, S=2, W=3 (sides N-S = 0, E-W = 1)
COMPARISONS = {
    "==": K.OP_EQ,
    "=": K.OP_EQ,
    "!=": K.OP_NE,
    "<": K.OP_LT,
    "<=": K.OP_LE,
    ">": K.OP_GT,
    ">=": K.OP_GE,
}
_TEST = {
    K.OP_EQ: lambda a, b: a == b,
    K.OP_NE: lambda a, b: a != b,
    K.OP_LT: lambda a, b: a < b,
    K.OP_LE: lambda a, b: a <= b,
    K.OP_GT: lambda a, b: a > b,
    K.OP_GE: lambda a, b: a >= b,
}
_RANK_WORDS = {"aces": ACE, "kings": KING, "queens": QUEEN, "jacks": JACK, "tens": TEN}
HONOURS = (ACE, KING, QUEEN, JACK)
COUNTS = (*SUIT_WORDS[::-1], "trumps", "honours", "points", *_RANK_WORDS, "taffies", "cards")
KEYWORDS = ("and", "or", "not", "holds", "trump")
_TOKEN = re.compile(r"\s*(?:(==|!=|>=|<=|=|<|>|\(|\)|\+|-)|([A-Za-z0-9_.]+)|(\S))")


# ---- the tree ------------------------------------------------------------------------------------
# Booleans: ("or", a, b) ("and", a, b) ("not", a) ("cmp", op, left, right) ("holds", group, cards).
# Values: ("int", v) ("count", group, what) ("trump",) ("suit", s) ("add", a, b) ("sub", a, b).
# Groups: ("seat", q) ("side", t) ("dealer",) ("top", k); ``word`` keeps what was typed.


@dataclass(frozen=True)
class Group:
    kind: str  # seat, side, dealer, top
    n: int
    word: str


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.tokens: list[str] = []
        for m in _TOKEN.finditer(text):
            if m.group(3) is not None:
                self.fail(f"unexpected character {m.group(3)!r}")
            tok = m.group(1) or m.group(2)
            if tok:
                self.tokens.append(tok)
        self.i = 0

    def fail(self, why: str):
        raise WhistsimError(f"where {self.text!r}: {why}")

    def peek(self) -> str | None:
        return self.tokens[self.i].lower() if self.i < len(self.tokens) else None

    def take(self) -> str:
        if self.i >= len(self.tokens):
            self.fail("it ends too soon")
        self.i += 1
        return self.tokens[self.i - 1]

    def parse(self):
        if not self.tokens:
            self.fail("it says nothing (write e.g. 'side0.trumps >= 9')")
        tree = self.orr()
        if self.i < len(self.tokens):
            self.fail(f"unexpected word {self.tokens[self.i]!r}")
        return tree

    def orr(self):
        left = self.andd()
        while self.peek() == "or":
            self.take()
            left = ("or", left, self.andd())
        return left

    def andd(self):
        left = self.nott()
        while self.peek() == "and":
            self.take()
            left = ("and", left, self.nott())
        return left

    def nott(self):
        if self.peek() == "not":
            self.take()
            return ("not", self.nott())
        return self.atom()

    def atom(self):
        if self.peek() == "(":
            self.take()
            inner = self.orr()
            if self.peek() != ")":
                self.fail(
                    "a '(' is not closed"
                    if self.peek() is None
                    else f"expected ')' before {self.tokens[self.i]!r}"
                )
            self.take()
            return inner
        if self.i + 1 < len(self.tokens) and self.tokens[self.i + 1].lower() == "holds":
            group = self.group(self.take())
            self.take()
            cards = []
            while self.peek() not in (None, "and", "or", ")"):
                word = self.take()
                try:
                    cards.append(parse_card(word))
                except ValueError:
                    self.fail(f"{word!r} is not a card (write e.g. AS KS TH, X for a Taffy)")
            if not cards:
                self.fail(f"'{group.word} holds' names no card")
            return ("holds", group, tuple(cards))
        left = self.total()
        op = self.peek()
        if op not in COMPARISONS:
            after = "" if op is None else f", not {self.tokens[self.i]!r}"
            self.fail(f"expected a comparison (== != < <= > >=) after {self._said(left)!r}{after}")
        self.take()
        return ("cmp", COMPARISONS[op], left, self.total())

    def total(self):
        left = self.value()
        while self.peek() in ("+", "-"):
            op = "add" if self.take() == "+" else "sub"
            left = (op, left, self.value())
        return left

    def value(self):
        if self.peek() is None:
            self.fail("it ends where a number, a count such as side0.trumps or a suit belongs")
        word = self.take()
        low = word.lower()
        if word.isdigit():
            return ("int", int(word))
        if low == "trump":
            return ("trump",)
        if low in SUIT_WORDS:
            return ("suit", SUIT_WORDS.index(low))
        if "." in word:
            head, _, what = word.partition(".")
            group = self.group(head)
            what = what.lower()
            if what not in COUNTS:
                self.fail(
                    f"unknown count {what!r} in {word!r}{near(what, COUNTS)} (known: {', '.join(COUNTS)})"
                )
            return ("count", group, what)
        if low in KEYWORDS or word in "()+-" or low in COMPARISONS:
            self.fail(f"expected a count such as side0.trumps, a number or a suit, not {word!r}")
        self.fail(
            f"unknown word {word!r}: expected e.g. N.spades, side0.trumps, dealer.honours, a number, trump"
        )

    def group(self, word: str) -> Group:
        low = word.lower()
        if word.upper() in SEATS_NESW and len(word) == 1:
            return Group("seat", SEATS_NESW.index(word.upper()), word.upper())
        if low == "dealer":
            return Group("dealer", 0, low)
        for kind, prefix in (("seat", "seat"), ("side", "side"), ("top", "top")):
            if low.startswith(prefix) and low[len(prefix) :].isdigit():
                return Group(kind, int(low[len(prefix) :]), low)
        known = ["N", "E", "S", "W", "seat0", "side0", "dealer", "top12"]
        self.fail(
            f"unknown hand {word!r}{near(word, known)} (known: N E S W, seat0.., side0.., dealer, top12..)"
        )

    def _said(self, node) -> str:
        return said(node)


def said(node) -> str:
    """A tree written back as text."""
    kind = node[0]
    if kind in ("or", "and"):
        return f"({said(node[1])} {kind} {said(node[2])})"
    if kind == "not":
        inner = said(node[1])
        return f"not {inner}" if inner.startswith("(") else f"not ({inner})"
    if kind == "cmp":
        op = next(k for k, v in COMPARISONS.items() if v == node[1] and k != "=")
        return f"{said(node[2])} {op} {said(node[3])}"
    if kind == "holds":
        return f"{node[1].word} holds {' '.join(card_name(c) for c in node[2])}"
    if kind == "int":
        return str(node[1])
    if kind == "count":
        return f"{node[1].word}.{node[2]}"
    if kind == "trump":
        return "trump"
    if kind == "suit":
        return SUIT_WORDS[node[1]]
    return f"{said(node[1])} {'+' if kind == 'add' else '-'} {said(node[2])}"


def parse(text: str):
    """The tree of a constraint's text; a one-line :class:`WhistsimError` naming the wrong word."""
    if not isinstance(text, str):
        raise WhistsimError(f"where {text!r}: expected text such as 'side0.trumps >= 9'")
    return _Parser(text).parse()


# ---- against a game's rules ------------------------------------------------------------------------


@dataclass(frozen=True)
class Layout:
    """Where the cards of a shuffled pack go: ``owner[d][x]`` the seat position ``x`` goes to when
    ``d`` deals (-1: laid aside, or the stock), each seat's side, the turned card's position."""

    game: str
    pack: tuple[int, ...]
    players: int  # 0: no hands (Welsh Whist's stock)
    owner: tuple[tuple[int, ...], ...]
    team: tuple[int, ...]
    turnup: int
    points: tuple[int, ...] = ()  # Scotch Whist's points table, as the kernel reads it (harness.deal)
    scotch: bool = False


def layout_of(game: str, rules: Any) -> Layout:
    pack = tuple(int(c) for c in rules.deck())
    if game == "welsh":
        return Layout(game, pack, 0, (), (), -1)
    p, sets, hand = rules.players, rules.sets, rules.hand
    per_set = p * hand
    owner = tuple(
        tuple(((d + 1 + (x % per_set) % p) % p) if x < per_set * sets else -1 for x in range(len(pack)))
        for d in range(p)
    )
    points = _points_table(bool(getattr(rules, "french", False))) if game == "scotch" else ()
    return Layout(game, pack, p, owner, tuple(rules.teams_tuple), per_set * sets - 1,
                  points=points, scotch=game == "scotch")  # fmt: skip


def _points_table(french: bool) -> tuple[int, ...]:
    """What each card counts, from the dealt engine's table: each rank as a trump, then each card
    not a trump (French Whist's ten of diamonds, when diamonds are not trumps)."""
    plain = [0] * 52
    if french:
        plain[card(TEN, DIAMONDS)] = FRENCH_TEN_POINTS
    return (*(int(x) for x in TRUMP_POINTS), *plain)


@dataclass(frozen=True)
class Constraint:
    """A constraint checked against a game's rules, and its program for the kernels."""

    text: str
    tree: Any
    layout: Layout
    program: np.ndarray = field(repr=False, compare=False)
    direct: str | None = None  # the term dealt directly (a length in trumps), if any
    rate: float | None = None  # accepted share of deals drawn, from the quick sample (prepare)

    def holds(self, record: dict) -> bool:
        """Does a record's deal meet the constraint? Read from the record's hands (or stock), in
        Python, apart from the kernel."""
        return bool(_eval(self.tree, _Deal.of(record, self.layout)))


def _check(text: str, tree, lay: Layout) -> None:
    """Refuse what the game cannot have: a seat it lacks, a count it has not, a suit compared with a
    number; one line, naming the word."""

    def fail(why: str):
        raise WhistsimError(f"where {text!r}: {why}")

    welsh = lay.game == "welsh"

    def group(g: Group) -> None:
        if welsh and g.kind != "top":
            fail(f"{g.word!r}: in Welsh Whist no one holds cards before play; constrain the stock's "
                 "first cards instead, e.g. top12.tens >= 2")  # fmt: skip
        if g.kind == "top" and not welsh:
            fail(f"{g.word!r}: only Welsh Whist deals from a stock (here: N E S W, seat0.., side0.., dealer)")
        if g.kind == "top" and not 1 <= g.n <= len(lay.pack):
            fail(f"{g.word!r}: the stock has {len(lay.pack)} cards")
        if g.kind == "seat" and g.n >= lay.players:
            fail(f"{g.word!r}: there are {lay.players} seats (seat0 to seat{lay.players - 1})")
        if g.kind == "seat" and g.word in SEATS_NESW and lay.players != 4:
            fail(
                f"{g.word!r}: N E S W name the seats of four players; here say seat0 to seat{lay.players - 1}"
            )
        if g.kind == "side" and g.n > max(lay.team):
            fail(f"{g.word!r}: there are {max(lay.team) + 1} sides (side0 to side{max(lay.team)})")

    def value(node) -> str:
        kind = node[0]
        if kind == "int":
            return "number"
        if kind in ("trump", "suit"):
            if kind == "trump" and welsh:
                fail("'trump': Welsh Whist turns no trump")
            return "suit"
        if kind == "count":
            group(node[1])
            what = node[2]
            if welsh and what in ("trumps", "honours", "points"):
                fail(f"{said(node)!r}: Welsh Whist has no trumps"
                     + ("" if what != "points" else "; count tens and taffies"))  # fmt: skip
            if what == "points" and not lay.scotch:
                fail(f"{said(node)!r}: only Scotch Whist counts card points; in Whist count honours")
            if what == "taffies" and not welsh:
                fail(f"{said(node)!r}: only Welsh Whist has Taffies")
            return "number"
        a, b = value(node[1]), value(node[2])
        if a != "number" or b != "number":
            fail(f"{said(node)!r}: only numbers add up, not suits")
        return "number"

    def boolean(node) -> None:
        kind = node[0]
        if kind in ("or", "and"):
            boolean(node[1])
            boolean(node[2])
        elif kind == "not":
            boolean(node[1])
        elif kind == "holds":
            group(node[1])
            if TAFFY in node[2] and not welsh:
                fail("'X': only Welsh Whist has Taffies")
            missing = [c for c in node[2] if c not in lay.pack]
            if missing:
                fail(f"{card_name(missing[0])!r} is not in this game's pack")
        else:
            a, b = value(node[2]), value(node[3])
            if a != b:
                fail(f"{said(node)!r}: a suit is compared with a number")
            if a == "suit" and node[1] not in (K.OP_EQ, K.OP_NE):
                fail(f"{said(node)!r}: suits are only equal or not (== !=)")

    boolean(tree)


def _suit_mask(s: int) -> int:
    return 0x1FFF << (13 * s)


def _rank_mask(rank: int) -> int:
    return sum(1 << (13 * s + rank) for s in range(4))


def _count_args(what: str, lay: Layout) -> tuple[int, int]:
    if what in SUIT_WORDS:
        return K.K_MASK, _suit_mask(SUIT_WORDS.index(what))
    if what in _RANK_WORDS:
        return K.K_MASK, _rank_mask(_RANK_WORDS[what])
    if what == "taffies":
        return K.K_MASK, 1 << TAFFY
    if what == "cards":
        return K.K_MASK, (1 << (TAFFY + 1)) - 1
    if what == "trumps":
        return K.K_TRUMP, 0x1FFF
    if what == "honours":
        return K.K_TRUMP, sum(1 << r for r in HONOURS)
    return K.K_POINTS, 0  # points: the program's table


_GROUP_KIND = {"seat": K.G_SEAT, "side": K.G_SIDE, "dealer": K.G_DEALER, "top": K.G_TOP}


def _emit(tree, lay: Layout) -> tuple[list[list[int]], int]:
    """Postfix instructions, and the stack depth they need."""
    code: list[list[int]] = []
    depth = [0, 0]

    def push(ins: list[int], change: int) -> None:
        code.append(ins)
        depth[0] += change
        depth[1] = max(depth[1], depth[0])

    def walk(node) -> None:
        kind = node[0]
        if kind == "int":
            push([K.OP_CONST, 0, 0, 0, node[1]], 1)
        elif kind == "suit":
            push([K.OP_CONST, 0, 0, 0, node[1]], 1)
        elif kind == "trump":
            push([K.OP_TRUMP, 0, 0, 0, 0], 1)
        elif kind == "count":
            g = node[1]
            push([K.OP_COUNT, _GROUP_KIND[g.kind], g.n, *_count_args(node[2], lay)], 1)
        elif kind == "holds":
            g = node[1]
            push([K.OP_HOLDS, _GROUP_KIND[g.kind], g.n, 0, sum(1 << c for c in set(node[2]))], 1)
        elif kind == "not":
            walk(node[1])
            push([K.OP_NOT, 0, 0, 0, 0], 0)
        elif kind == "cmp":
            walk(node[2])
            walk(node[3])
            push([node[1], 0, 0, 0, 0], -1)
        else:
            walk(node[1])
            walk(node[2])
            op = {"and": K.OP_AND, "or": K.OP_OR, "add": K.OP_ADD, "sub": K.OP_SUB}[kind]
            push([op, 0, 0, 0, 0], -1)

    walk(tree)
    return code, depth[1]


def _conjuncts(tree) -> list:
    if tree[0] == "and":
        return _conjuncts(tree[1]) + _conjuncts(tree[2])
    return [tree]


def _comb(n: int, k: int) -> int:
    return math.comb(n, k) if 0 <= k <= n else 0


def _direct_term(tree, lay: Layout):
    """A top-level ``X.trumps <op> number`` to deal directly (X a seat, a side or the dealer), when
    every suit has as many cards in the pack: (group, allowed lengths, cards per suit)."""
    if lay.players == 0:
        return None
    per_suit = [sum(1 for c in lay.pack if c // 13 == s) for s in range(4)]
    if len(set(per_suit)) != 1:
        return None
    m = per_suit[0]
    for node in _conjuncts(tree):
        if node[0] != "cmp":
            continue
        op, a, b = node[1], node[2], node[3]
        if a[0] == "int" and b[0] == "count":
            a, b = b, a
            op = {K.OP_LT: K.OP_GT, K.OP_LE: K.OP_GE, K.OP_GT: K.OP_LT, K.OP_GE: K.OP_LE}.get(op, op)
        if a[0] == "count" and a[2] == "trumps" and b[0] == "int":
            return a[1], [k for k in range(m + 1) if _TEST[op](k, b[1])], m
    return None


def _direct_table(group: Group, allowed: list[int], m: int, lay: Layout) -> list[int]:
    """For each dealer, cumulative thresholds (units of 2**-53) over lengths 0..m: each allowed
    length in proportion to the deals that give the group that many trumps."""
    out: list[int] = []
    n = len(lay.pack)
    for d in range(lay.players):
        places = [x for x in range(n) if _in_group_py(group, lay.owner[d][x], d, lay)]
        size = len(places)
        t_in = lay.turnup in places
        if t_in:
            counts = [
                _comb(size - 1, k - 1) * _comb(n - size, m - k) if k in allowed else 0 for k in range(m + 1)
            ]
        else:
            counts = [
                _comb(size, k) * _comb(n - size - 1, m - 1 - k) if k in allowed else 0 for k in range(m + 1)
            ]
        total = sum(counts)
        run = 0
        for k in range(m + 1):
            run += counts[k]
            out.append((run << 53) // total if total else 0)
    return out


def _in_group_py(g: Group, owner: int, dealer: int, lay: Layout) -> bool:
    if owner < 0:
        return False
    if g.kind == "seat":
        return owner == g.n
    if g.kind == "dealer":
        return owner == dealer
    return lay.team[owner] == g.n


def compile_where(text: str, game: str, rules: Any) -> Constraint:
    """The constraint ``text`` for ``game`` under ``rules``: checked, and compiled for the kernel."""
    tree = parse(text)
    lay = layout_of(game, rules)
    _check(text, tree, lay)
    code, depth = _emit(tree, lay)
    n, p = len(lay.pack), lay.players
    owner = [o for row in lay.owner for o in row]
    direct = _direct_term(tree, lay)
    direct_part: list[int] = []
    if direct is not None:
        g, allowed, m = direct
        direct_part = [_GROUP_KIND[g.kind], g.n, m, *_direct_table(g, allowed, m, lay)]
    head = [0] * K.HEADER
    head[K.H_CAP] = CAP
    head[K.H_N] = n
    head[K.H_P] = p
    head[K.H_TURNUP] = lay.turnup
    head[K.H_OWNER] = K.HEADER
    head[K.H_TEAM] = K.HEADER + len(owner)
    head[K.H_CODE] = head[K.H_TEAM] + len(lay.team)
    head[K.H_NCODE] = len(code)
    head[K.H_DIRECT] = head[K.H_CODE] + K.WIDTH * len(code) if direct_part else 0
    head[K.H_STACK] = depth
    head[K.H_POINTS] = head[K.H_CODE] + K.WIDTH * len(code) + len(direct_part) if lay.points else 0
    program = np.array(
        head + owner + list(lay.team) + [x for ins in code for x in ins] + direct_part + list(lay.points),
        np.int64,
    )
    term = f"{direct[0].word}.trumps" if direct is not None else None
    return Constraint(text.strip(), tree, lay, program, term)


# ---- before a run: never, or too rarely ---------------------------------------------------------------


def _range(node, lay: Layout) -> tuple[int, int]:
    """The least and the most a value can be in any deal (loose where exactness costs much)."""
    kind = node[0]
    if kind in ("int", "suit"):
        return node[1], node[1]
    if kind == "trump":
        return 0, 3
    if kind in ("add", "sub"):
        (a, b), (c, d) = _range(node[1], lay), _range(node[2], lay)
        return (a + c, b + d) if kind == "add" else (a - d, b - c)
    g, what = node[1], node[2]
    n = len(lay.pack)
    if g.kind == "top":
        size = g.n
    else:
        sizes = [sum(_in_group_py(g, lay.owner[d][x], d, lay) for x in range(n)) for d in range(lay.players)]
        size = max(sizes)
    kind_, arg = _count_args(what, lay)
    if kind_ == K.K_POINTS:
        return 0, sum(lay.points)
    if kind_ == K.K_MASK:
        c = sum(1 for x in lay.pack if (arg >> x) & 1)
        return max(0, size - (n - c)), min(size, c)
    per_suit = [sum(1 for x in lay.pack if x // 13 == s and (arg >> (x % 13)) & 1) for s in range(4)]
    return 0, min(size, max(per_suit))


def _never(node, lay: Layout) -> bool | None:
    """True when the node can never hold, False when it always does, None when it may."""
    kind = node[0]
    if kind == "or":
        a, b = _never(node[1], lay), _never(node[2], lay)
        return True if a is True and b is True else (False if a is False or b is False else None)
    if kind == "and":
        a, b = _never(node[1], lay), _never(node[2], lay)
        return True if a is True or b is True else (False if a is False and b is False else None)
    if kind == "not":
        a = _never(node[1], lay)
        return None if a is None else not a
    if kind == "holds":
        return None
    (lo1, hi1), (lo2, hi2) = _range(node[2], lay), _range(node[3], lay)
    outcomes = {_TEST[node[1]](a, b) for a in (lo1, hi1) for b in (lo2, hi2)}
    op = node[1]
    if op in (K.OP_EQ, K.OP_NE):
        overlap = lo1 <= hi2 and lo2 <= hi1
        single = lo1 == hi1 == lo2 == hi2
        if op == K.OP_EQ:
            return True if not overlap else (False if single else None)
        return False if not overlap else (True if single else None)
    if outcomes == {False}:
        return True
    if outcomes == {True}:
        return False
    return None


def _first_never(tree, lay: Layout):
    """The part of an always-false constraint to name: the first conjunct that never holds."""
    for node in _conjuncts(tree):
        if _never(node, lay) is True:
            return node
    return tree


def dealers_of(game: str, rules: Any, first: int) -> list[int]:
    """The dealers a run's deals can have: every seat, or one for single deals from a fixed first seat."""
    if game == "welsh":
        return [0]
    p = rules.players
    if getattr(rules, "unit", "game") == "deal" and first >= 0:
        return [(first - 1) % p]
    return list(range(p))


def prepare(text: str, game: str, rules: Any, first: int = -1, *, seed: int = 0) -> Constraint:
    """:func:`compile_where`, then refuse in one line a constraint that can never hold (by counting)
    or that accepts fewer than about 1 deal in 10**6 (by sampling, for each dealer the run can have);
    the returned constraint carries the sampled rate."""
    c = compile_where(text, game, rules)
    lay = c.layout
    if _never(c.tree, lay) is True:
        part = _first_never(c.tree, lay)
        why = ""
        if part[0] == "cmp":
            for side in (part[2], part[3]):
                if side[0] == "count":
                    lo, hi = _range(side, lay)
                    why = f": {said(side)} is {lo} to {hi}" if lo != hi else f": {said(side)} is {lo}"
                    break
        raise WhistsimError(f"where {c.text!r}: {said(part)} can never hold{why}")
    dealers = dealers_of(game, rules, first)
    base = np.array(lay.pack, np.int8)
    got = drawn = 0
    for budget in (FIRST_SAMPLE, FULL_SAMPLE):
        each = max(1, budget // len(dealers))
        for d in dealers:
            k = int(K.sample(c.program, base, np.int64(seed + budget), np.int64(d), np.int64(each)))
            if k < 0:
                who = SEATS_NESW[d] if lay.players == 4 else f"seat{d}"
                raise WhistsimError(f"where {c.text!r}: {c.direct} can never hold when {who} deals")
            got += k
            drawn += each
        if got:
            break
    if not got:
        raise WhistsimError(
            f"where {c.text!r}: no deal of {drawn:,} drawn met it; whistsim deals a constraint that "
            f"accepts at least about 1 deal in {round(1 / MIN_RATE):,}"
        )
    return Constraint(c.text, c.tree, lay, c.program, c.direct, got / drawn)


def rate_words(rate: float) -> str:
    """``accepts about 1 deal in 38``."""
    return "accepts every deal" if rate >= 0.9995 else f"accepts about 1 deal in {1 / rate:,.0f}"


# ---- a record's deal, in Python ----------------------------------------------------------------------


@dataclass
class _Deal:
    cards: dict[tuple[str, int], list[int]]  # (group kind, n) -> cards
    trump: int
    points: tuple[int, ...] = ()

    @staticmethod
    def of(record: dict, lay: Layout) -> _Deal:
        out: dict[tuple[str, int], list[int]] = {}
        if lay.game == "welsh":
            stock = [parse_card(c) for c in record["deck"]]
            for k in range(1, len(stock) + 1):
                out[("top", k)] = stock[:k]
            return _Deal(out, -1, lay.points)
        p = lay.players
        held = [[parse_card(c) for hand_set in record["hands"] for c in hand_set[q]] for q in range(p)]
        dealer = int(record["dealer"])
        for q in range(p):
            out[("seat", q)] = held[q]
            out[("side", lay.team[q])] = out.get(("side", lay.team[q]), []) + held[q]
        out[("dealer", 0)] = held[dealer]
        return _Deal(out, parse_card(record["trump"]) // 13, lay.points)


def _weigh(what: str, c: int, trump: int, points: tuple[int, ...]) -> int:
    if what == "taffies":
        return int(c == TAFFY)
    if what == "cards":
        return 1
    if c == TAFFY:
        return 0
    suit, rank = divmod(c, 13)
    if what in SUIT_WORDS:
        return int(suit == SUIT_WORDS.index(what))
    if what in _RANK_WORDS:
        return int(RANKS[rank] == "AKQJT"["aces kings queens jacks tens".split().index(what)])
    if what == "trumps":
        return int(suit == trump)
    if what == "honours":
        return int(suit == trump and rank in HONOURS)
    return points[rank] if suit == trump else points[13 + c]  # points: Scotch Whist's count


def _eval(node, deal: _Deal):
    kind = node[0]
    if kind == "or":
        return bool(_eval(node[1], deal)) or bool(_eval(node[2], deal))
    if kind == "and":
        return bool(_eval(node[1], deal)) and bool(_eval(node[2], deal))
    if kind == "not":
        return not _eval(node[1], deal)
    if kind == "cmp":
        return _TEST[node[1]](_eval(node[2], deal), _eval(node[3], deal))
    if kind in ("int", "suit"):
        return node[1]
    if kind == "trump":
        return deal.trump
    if kind == "add":
        return _eval(node[1], deal) + _eval(node[2], deal)
    if kind == "sub":
        return _eval(node[1], deal) - _eval(node[2], deal)
    g = node[1]
    cards = deal.cards[(g.kind, g.n)]
    if kind == "holds":
        return set(node[2]) <= set(cards)
    return sum(_weigh(node[2], c, deal.trump, deal.points) for c in cards)


def check_all(constraint: Constraint, records: Sequence[dict]) -> list[int]:
    """Indices of the records whose deal does not meet the constraint (empty: all do)."""
    return [i for i, r in enumerate(records) if not constraint.holds(r)]
