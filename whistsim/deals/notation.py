"""A deal of any game as one line of text (docs/records.md, "Deals as text"), and back.

Whist is written as PBN writes a bridge deal, the seat named first and the hands
clockwise, each as spades.hearts.diamonds.clubs, ranks high to low::

    whist N:AKQ2.JT9.876.543 <E> <S> <W> trump=7H dealer=W

Scotch and French Whist number their seats (``0:``) and part their sets of
hands with ``/``; Welsh Whist writes its stock top first (``stock: 7H X TS ...``,
``X`` a Taffy). Words ``key=value`` give the trump card, the dealer, the card laid
aside, the first seat, and any rule of the game. :func:`parse_deal` reads the text
into a record with no moves; :func:`format_deal` writes a record's deal back.

>>> r = parse_deal("whist N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432 trump=2S")
>>> r["dealer"], r["trump"], r["hands"][0][3][:3]
(3, '2S', ['2C', '3C', '4C'])
>>> format_deal(r)
'whist N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432 trump=2S dealer=W'
"""

from __future__ import annotations

from typing import Any

from ..core.cards import RANKS, SUITS, TAFFY, card_name, parse_card, rank_of, suit_of
from ..core.options import RuleError, WhistsimError, near, written

GAME_WORDS = ("whist", "scotch", "french", "welsh")  # a word that may open the text
SEAT_LETTERS = "NESW"  # four seats, clockwise: N-S side 0, E-W side 1
PBN_SUITS = (3, 2, 1, 0)  # spades, hearts, diamonds, clubs: the order PBN writes a hand in
STOCK_WORDS = ("stock:", "deck:")
DEAL_WORDS = ("trump", "dealer", "first", "aside")  # the deal's own words; the rest are rules
_HIGH_FIRST = RANKS[::-1]  # AKQJT98765432


def _fail(message: str) -> WhistsimError:
    return WhistsimError(f"deal: {message}")


# ---- reading -------------------------------------------------------------------


def _game_name(word: str | None) -> tuple[str | None, bool]:
    """(game, French?) of a game word or argument: ``french`` is Scotch Whist's preset."""
    if word is None:
        return None, False
    w = str(word).strip().lower()
    if w not in GAME_WORDS:
        raise _fail(f"unknown game {word!r} (known: {', '.join(GAME_WORDS)})")
    return ("scotch", True) if w == "french" else (w, False)


def _seat_word(text: str, what: str) -> int:
    """A seat written as a number from 0 or as N E S W (four seats); range checked later."""
    t = text.strip().upper()
    if len(t) == 1 and t in SEAT_LETTERS:
        return -1 - SEAT_LETTERS.index(t)  # negative: a letter, checked against four seats later
    if t.isascii() and t.isdigit():
        return int(t)
    raise _fail(f"{what} {text!r}: expected a seat number (0, 1, ...) or N, E, S, W")


def _seat_number(code: int, p: int, what: str) -> int:
    if code < 0:
        if p != 4:
            raise _fail(
                f"{what}: seat letters N E S W are for four players; with {p}, number the seats 0 to {p - 1}"
            )
        return -1 - code
    if code >= p:
        raise _fail(f"{what} {code}: expected a seat from 0 to {p - 1}")
    return code


def seat_text(q: int, game: str) -> str:
    """How the notation names seat ``q``: a letter in Whist, a number elsewhere."""
    return SEAT_LETTERS[q] if game == "whist" else str(q)


def parse_hand(text: str, where: str) -> list[int]:
    """``AKQ2.JT9.876.543`` (spades.hearts.diamonds.clubs; a void empty or ``-``) -> card codes."""
    parts = text.split(".")
    if len(parts) != 4:
        raise _fail(
            f"{where}: {text!r} has {len(parts)} suit{'s' * (len(parts) != 1)}, expected 4 "
            "(spades.hearts.diamonds.clubs, a void left empty)"
        )
    cards: list[int] = []
    for suit, ranks in zip(PBN_SUITS, parts, strict=True):
        ranks = ranks.upper().replace("10", "T")
        if ranks == "-":
            continue
        for r in ranks:
            if r not in RANKS:
                raise _fail(f"{where}: {r!r} in {text!r} is not a rank (A K Q J T 9 ... 2)")
            c = suit * 13 + RANKS.index(r)
            if c in cards:
                raise _fail(f"{where} holds {card_name(c)} twice")
            cards.append(c)
    return sorted(cards)


def hand_text(cards: list[int]) -> str:
    """Card codes -> ``AKQ2.JT9.876.543``."""
    by = {s: "".join(r for r in _HIGH_FIRST if s * 13 + RANKS.index(r) in cards) for s in range(4)}
    return ".".join(by[s] for s in PBN_SUITS)


def _split(text: str, game: str | None):
    """The text's game word, hand tokens (with ``/`` between sets), stock tokens and key words."""
    if not isinstance(text, str):
        raise _fail(f"a deal is text, not {type(text).__name__}")
    tokens = text.split()
    if not tokens:
        raise _fail("the text is empty")
    said = None
    if tokens[0].lower() in GAME_WORDS:
        said, tokens = tokens[0], tokens[1:]
    elif tokens[0].isalpha() and len(tokens[0]) > 2:  # a word, not a hand or a card: a game misnamed
        raise _fail(
            f"unknown game {tokens[0]!r}{near(tokens[0].lower(), GAME_WORDS)} (known: {', '.join(GAME_WORDS)})"
        )
    words: dict[str, str] = {}
    hands: list[str] = []
    stock: list[str] | None = None
    for tok in tokens:
        low = tok.lower()
        if stock is None and any(low.startswith(w) for w in STOCK_WORDS):
            stock = []
            rest = tok.split(":", 1)[1]
            if rest:
                stock.append(rest)
            continue
        if "=" in tok:
            key, _, value = tok.partition("=")
            key = key.strip().lower()
            if not key or not value:
                raise _fail(f"{tok!r}: a word KEY=VALUE needs both")
            if key in words:
                raise _fail(f"{key}= is given twice")
            words[key] = value
        elif low in GAME_WORDS:
            raise _fail(f"the game word {tok!r} must come first")
        elif stock is not None:
            stock.append(tok)
        else:
            hands.append(tok)
    name, french = _game_name(said)
    asked, asked_french = _game_name(game)
    if name is not None and asked is not None and name != asked:
        raise _fail(f"the text is a {said} deal, but the game asked for is {game}")
    name = name or asked
    french = french or asked_french
    if stock is not None and hands:
        raise _fail(f"{hands[0]!r}: a Welsh Whist deal is its stock alone (after stock:)")
    if name is None:
        name = "welsh" if stock is not None else ("whist" if _four_hands_of_13(hands) else "scotch")
    if name == "welsh" and stock is None:
        stock, hands = hands, []
    if name != "welsh" and stock is not None:
        raise _fail(f"a {name} deal is written as hands, not a stock")
    return name, french, hands, stock or [], words


def _four_hands_of_13(hands: list[str]) -> bool:
    def size(h: str) -> int:
        return len(h.split(":")[-1].upper().replace("10", "T").replace(".", "").replace("-", ""))

    return len(hands) == 4 and all("/" not in h and size(h) == 13 for h in hands)


def _sets(hands: list[str]) -> tuple[list[list[tuple[int, str]]], int]:
    """Hand tokens -> per set, (seat code, hand) pairs in order; and the first set's first seat."""
    sets: list[list[str]] = [[]]
    for tok in hands:
        for p in tok.replace("/", " / ").split():
            if p == "/":
                sets.append([])
            else:
                sets[-1].append(p)
    if any(not s for s in sets):
        raise _fail("a set of hands between '/' is empty")
    out = []
    first = 0
    for k, s in enumerate(sets):
        start = first
        head, sep, rest = s[0].partition(":")
        if sep:
            start = _seat_word(head, "the first seat")
            s = [rest, *s[1:]]
        elif k == 0:
            start = 0
        if k == 0:
            first = start
        named = next((h for h in s[1:] if ":" in h), None)
        if named is not None:
            raise _fail(f"{named!r}: only the first hand of a set names its seat")
        out.append((start, s))
    return out, first


def _rules_words(words: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in words.items() if k not in DEAL_WORDS}


def _merge_rules(g, preset, players, given: dict[str, Any], text: dict[str, Any], fixed: dict[str, Any]):
    """The rules: ``preset`` and ``players``, the caller's ``given`` rules, the text's words and what the
    deal itself fixes (``fixed``: the players, packs and Taffies its cards make, French Whist by its
    word); any two that disagree are an error."""
    try:
        for key, value in fixed.items():
            for source, what in ((text, "the text says"), (given, "the rules given say")):
                if key in source and g.make_rules(preset, None, {**fixed, key: source[key]}) != g.make_rules(
                    preset, None, fixed
                ):
                    raise _fail(f"the deal makes {key}={written(value)}, but {what} {key}={source[key]}")
        if "players" in fixed:
            if players is not None and players != fixed["players"]:
                raise _fail(f"the deal has {fixed['players']} players, but {players} were asked for")
            players = None
        rules = g.make_rules(preset, players, {**given, **text, **fixed})
        for key in set(given) & set(text):
            if rules != g.make_rules(preset, players, {**given, **text, key: given[key], **fixed}):
                raise _fail(f"the text says {key}={text[key]}, but the rules given say {key}={given[key]}")
    except RuleError as e:
        raise _fail(str(e)) from None
    return rules


def _dealt(name: str, french: bool, hands: list[str], words: dict[str, str], preset, players, rules) -> dict:
    from ..games import get_game

    if not hands:
        raise _fail("no hands given")
    sets, first = _sets(hands)
    p = len(sets[0][1])
    for k, (_, s) in enumerate(sets):
        if len(s) != p:
            raise _fail(f"set {k + 1} has {len(s)} hands, but set 1 has {p}")
    if name == "whist" and (p != 4 or len(sets) != 1):
        raise _fail(f"Whist is four hands of 13 cards: {p} hand{'s' * (p != 1)} in {len(sets)} set(s) given")
    dealt: list[list[list[int]]] = []
    held: dict[int, str] = {}
    for k, (start, s) in enumerate(sets):
        start = _seat_number(start, p, "the first seat")
        by_seat: list[list[int]] = [[] for _ in range(p)]
        for i, h in enumerate(s):
            q = (start + i) % p
            where = f"seat {seat_text(q, name)}" + (f" (set {k + 1})" if len(sets) > 1 else "")
            cards = parse_hand(h, where)
            for c in cards:
                if c in held:
                    raise _fail(f"{card_name(c)} is dealt twice ({held[c]} and {where})")
                held[c] = where
            by_seat[q] = cards
        dealt.append(by_seat)
    g = get_game(name)
    fixed: dict[str, Any] = {} if name == "whist" else {"players": p}
    text_rules = _rules_words(words)
    if french:
        fixed["french"] = True
    aside = None
    if "aside" in words:
        if name != "scotch":
            raise _fail("aside= is for Scotch Whist with 5 or 7 players")
        aside = _one_card(words["aside"], "aside")
        if aside in held:
            raise _fail(f"the card laid aside, {card_name(aside)}, is also dealt to {held[aside]}")
        fixed["odd_six"] = "aside"
    r = _merge_rules(g, preset, players, dict(rules or {}), text_rules, fixed)
    if name == "scotch" and r.aside and aside is None:
        raise _fail(f"with {p} players and odd_six=aside, aside= must name the card laid aside")
    if len(sets) != r.sets:
        raise _fail(
            f"with {p} players the deal is {r.sets} set(s) of hands, parted by '/': {len(sets)} given"
        )
    pack = set(r.pack())
    for k, by_seat in enumerate(dealt):
        for q, cards in enumerate(by_seat):
            where = f"seat {seat_text(q, name)}" + (f" (set {k + 1})" if len(sets) > 1 else "")
            if len(cards) != r.hand:
                raise _fail(f"{where} holds {len(cards)} cards, expected {r.hand}")
            for c in cards:
                if c not in pack:
                    raise _fail(
                        f"{where} holds {card_name(c)}, which is not in the pack for {_pack_words(r, name)}"
                    )
    if aside is not None and aside not in pack:
        raise _fail(f"the card laid aside, {card_name(aside)}, is not in the pack for {_pack_words(r, name)}")
    dealer = _dealer(words, p, name)
    last = dealt[-1][dealer]
    trump = _trump(words.get("trump"), last, seat_text(dealer, name))
    record: dict[str, Any] = {
        "game": name,
        "rules": r.to_record(),
        "dealer": dealer,
        "hands": [[[card_name(c) for c in hand] for hand in by_seat] for by_seat in dealt],
        "trump": card_name(trump),
    }
    if name == "scotch":
        record["aside"] = card_name(aside) if aside is not None else None
    record["moves"] = []
    _check(record)
    return record


def _pack_words(r, name: str) -> str:
    if name == "whist":
        return "Whist"
    low = min(rank_of(c) for c in r.pack())
    return f"{r.players} players ({RANKS[low]} to Ace)"


def _one_card(text: str, what: str) -> int:
    try:
        c = parse_card(text)
    except ValueError:
        raise _fail(f"{what}={text}: not a card (such as 7H, TS)") from None
    if c == TAFFY:
        raise _fail(f"{what}={text}: a Taffy is a Welsh Whist card")
    return c


def _dealer(words: dict[str, str], p: int, name: str) -> int:
    """``dealer=``, or ``first=`` (the elder hand, who leads: the dealer's left); by default the
    last seat deals, so that seat 0 leads."""
    dealer = None
    if "dealer" in words:
        dealer = _seat_number(_seat_word(words["dealer"], "dealer="), p, "dealer=")
    if "first" in words:
        first = _seat_number(_seat_word(words["first"], "first="), p, "first=")
        if dealer is not None and first != (dealer + 1) % p:
            raise _fail(
                f"first={words['first']}: the first to play is the dealer's left, "
                f"seat {seat_text((dealer + 1) % p, name)}"
            )
        dealer = (first - 1) % p
    return p - 1 if dealer is None else dealer


def _trump(text: str | None, hand: list[int], dealer: str) -> int:
    """The turned card: named (``7H``, in the dealer's hand), or a suit (``H``: the dealer's lowest
    card of it), or by default the dealer's lowest card of the highest suit it holds."""
    if text is None:
        return min(hand, key=lambda c: (-suit_of(c), rank_of(c)))
    t = text.strip().upper()
    if len(t) == 1 and t in SUITS:
        suit = SUITS.index(t)
        held = [c for c in hand if suit_of(c) == suit]
        if not held:
            raise _fail(
                f"trump={text}: the dealer (seat {dealer}) holds no {('club', 'diamond', 'heart', 'spade')[suit]} to turn"
            )
        return min(held)
    c = _one_card(text, "trump")
    if c not in hand:
        raise _fail(f"trump={text}: the turned card must be in the dealer's (seat {dealer}) hand")
    return c


def _welsh(stock_words: list[str], words: dict[str, str], preset, players, rules) -> dict:
    from ..games import get_game

    if not stock_words:
        raise _fail("a Welsh Whist deal needs its stock, top card first (stock: 7H X TS ...)")
    for key in ("trump", "dealer", "aside"):
        if key in words:
            raise _fail(f"{key}= is not a Welsh Whist word (the stock is drawn from; first= says who starts)")
    stock = []
    for i, tok in enumerate(stock_words):
        try:
            stock.append(parse_card(tok))
        except ValueError:
            raise _fail(
                f"stock card {i + 1}: {tok!r} is not a card (such as 7H, TS, or X for a Taffy)"
            ) from None
    counts = [stock.count(c) for c in range(52)]
    packs = counts[0]
    if any(n != packs for n in counts) or packs == 0:
        few = min(range(52), key=lambda c: (counts[c], c))
        many = max(range(52), key=lambda c: (counts[c], -c))
        raise _fail(
            f"the stock is not whole packs: it holds {card_name(many)} {_times(counts[many])} "
            f"but {card_name(few)} {_times(counts[few])}"
        )
    text_rules = _rules_words(words)
    g = get_game("welsh")
    fixed = {"packs": packs, "taffies": stock.count(TAFFY)}
    r = _merge_rules(g, preset, players, dict(rules or {}), text_rules, fixed)
    first = 0
    if "first" in words:
        first = _seat_number(_seat_word(words["first"], "first="), r.players, "first=")
    record = {"game": "welsh", "rules": r.to_record(), "first": first, "deck": [card_name(c) for c in stock],
              "moves": []}  # fmt: skip
    _check(record)
    return record


def _times(n: int) -> str:
    return {0: "no times", 1: "once", 2: "twice"}.get(n, f"{n} times")


def _check(record: dict) -> None:
    """The record as replay reads it: a fault found only there is still one line."""
    from ..games import RecordError

    try:
        _read(record)
    except RecordError as e:
        raise _fail(str(e)) from None


def _read(record: dict):
    name = record.get("game")
    if name == "welsh":
        from ..games.welsh import records

        return records.read_record({**record, "moves": []})
    from ..games.dealt import records

    if name == "whist":
        from ..games.whist.rules import WhistRules as cls
    else:
        from ..games.scotch.rules import ScotchRules as cls
    return records.read_deal(name, cls, record)


def parse_deal(
    text: str,
    game: str | None = None,
    *,
    preset: str | None = None,
    players: int | None = None,
    rules: dict[str, Any] | None = None,
) -> dict:
    """The record (docs/records.md) of the deal ``text`` writes, with ``"moves": []`` and its rules
    in full. The game is the text's first word (``whist``, ``scotch``, ``french``, ``welsh``) or
    ``game``; without either, a stock is Welsh Whist, four hands of 13 Whist, other hands Scotch
    Whist. ``preset``, ``players`` and ``rules`` (option keys to values) add to the text's own
    rule words; the two must agree. Bad text raises :class:`~whistsim.WhistsimError` in one line.

    >>> parse_deal("french 0:AKQ.AK.AK.AK JT9.QJ.QJ.QJ 876.T9.T9.T9 .876.876.876 dealer=0 trump=AS")["rules"]["french"]
    True
    """
    name, french, hands, stock, words = _split(text, game)
    if name == "welsh":
        if french:
            raise _fail("French Whist is dealt in hands, not a stock")
        return _welsh(stock, words, preset, players, rules)
    return _dealt(name, french, hands, words, preset, players, rules)


def read_deal_record(record: Any) -> dict:
    """A record (any game) whose deal is checked as replay reads it; ``moves`` default to none.
    The moves themselves are not judged here. One line on a bad record."""
    from ..games import RecordError

    if not isinstance(record, dict):
        raise _fail(f"a record is a JSON object, not {type(record).__name__}")
    if record.get("game") not in ("whist", "scotch", "welsh"):
        raise _fail(f"unknown game {record.get('game')!r} in the record (known: whist, scotch, welsh)")
    out = {**record, "moves": record.get("moves", [])}
    try:
        _read(out)
    except RecordError as e:
        raise _fail(str(e)) from None
    return out


# ---- writing -------------------------------------------------------------------


def _default_rules(name: str, fixed: dict[str, Any]) -> dict[str, Any]:
    """The rules a deal of ``name`` gets when its text names none: the game's first preset."""
    from ..games import get_game

    return get_game(name).make_rules(None, None, fixed).to_record()


def format_deal(record: dict) -> str:
    """The deal of ``record`` (any game; its moves and result are left out) as text that
    :func:`parse_deal` reads back to the same deal and rules: the rules the game's first
    preset would not give are written as words.

    >>> r = whistsim.simulate("scotch", n=1, seed=3, players=3, records=1).records[0]
    >>> format_deal(r)
    'scotch 0:87.AQ.A.9 AKJ..QT6. .K.J7.AT7 / T6.87..K6 Q.J9.9.QJ 9.T6.K8.8 trump=9S dealer=2'
    >>> parse_deal(format_deal(r))["hands"] == r["hands"]
    True
    """
    name = read_deal_record(record)["game"]
    read = _read({**record, "moves": []})
    if name == "welsh":
        r, stock, first = read[0], read[1], read[2]
        fixed = {"players": r.players, "packs": r.packs, "taffies": r.taffies}
        words = [
            f"players={r.players}",
            f"first={first}",
            *_rule_words(r.to_record(), _default_rules(name, fixed)),
        ]
        return " ".join(["welsh", *words, "stock:", *(card_name(int(c)) for c in stock)])
    r, dealer, _, turnup, aside = read
    hands = [[[parse_card(c) for c in hand] for hand in hset] for hset in record["hands"]]
    sets = [" ".join(hand_text(h) for h in hset) for hset in hands]
    word = "whist" if name == "whist" else ("french" if r.french else "scotch")
    out = [word, f"{seat_text(0, name)}:" + " / ".join(sets)]
    out.append(f"trump={card_name(turnup)}")
    out.append(f"dealer={seat_text(dealer, name)}")
    fixed: dict[str, Any] = {}
    if name == "scotch":
        fixed = {"players": r.players, "french": r.french}
        if aside >= 0:
            out.append(f"aside={card_name(aside)}")
            fixed["odd_six"] = "aside"
    out += _rule_words(r.to_record(), _default_rules(name, fixed))
    return " ".join(out)


def _rule_words(rules: dict[str, Any], default: dict[str, Any]) -> list[str]:
    """``key=value`` for each rule that differs from the game's default under the same deal."""
    return [f"{k}={written(v)}" for k, v in rules.items() if default.get(k) != v]


__all__ = [
    "parse_deal",
    "format_deal",
    "read_deal_record",
    "parse_hand",
    "hand_text",
    "seat_text",
    "SEAT_LETTERS",
    "PBN_SUITS",
]
