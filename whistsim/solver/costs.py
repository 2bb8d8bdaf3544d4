"""What each card of a played deal cost against open-hand best play: the errors of a deal.

Every card is judged from the position just before it, every hand open and both sides
best from there on (:mod:`whistsim.solver.position`). A card's value is the deal's value
for side 0 after it; its cost is how much worse that is for the card's own side than the
value before it (the best card keeps the value, so a best card costs 0).

Values are of the whole deal, what is already won counted:

- Whist: side 0's tricks in the deal (tricks won so far plus the open-hand tricks to come).
- Scotch Whist: side 0's margin over side 1 in the deal's final points.

So the values run from the open-hand par at the first lead to what the deal actually
scored, and the costs account for the whole difference: ``end - start`` is side 1's costs
less side 0's. A revoke (rules that allow it) is a card the solver never plays; its
"cost" is set against the best legal card and may be negative.
"""

from __future__ import annotations

from typing import Any

from ..core.cards import card_name, parse_card, pretty_card
from ..games import game_names
from ..games.dealt import records as dealt_records
from ..games.dealt.engine import SCOTCH
from .position import RULES, Position, position_of, solver_game


def _taken(pos: Position) -> int:
    """Side 0's tricks in finished tricks (Whist): its value counts from the trick in progress."""
    t = pos.core["table"]
    return sum(int(t["tricks"][q]) for q in range(pos.rules.players) if int(t["team"][q]) == 0)


def deal_value(pos: Position) -> int:
    """Side 0's value of the whole deal from ``pos`` on: Whist tricks (won so far included),
    Scotch Whist the final margin in points."""
    v = pos.value()
    return v if pos.rules.kind == SCOTCH else v + _taken(pos)


def card_costs(record: dict | str, best: bool = True) -> dict[str, Any]:
    """Each card played in a record, judged against open-hand best play.

    ``record`` is a Whist or Scotch Whist record (two sides, one hand each), or a deal in
    the text notation (no cards played: an empty list). Returns ``{"unit": "tricks" or
    "points", "start": v0, "end": vN, "lost": [side 0, side 1], "cards": [...]}``, each card
    ``{"move": k, "seat", "side", "card", "before", "after", "cost"}`` (``move`` 0-based: the
    card played from the position ``solve_at(record, k)``), with ``"best"`` (the best cards
    there) where it cost something (``best=False`` leaves that out: fewer solves), and
    ``"revoke": true`` on a revoke. Values are side 0's in the whole deal (module doc), so
    ``end - start == lost[1] - lost[0]``.

    Raises RecordError / MoveError for a bad record, as replay does.

    >>> import whistsim
    >>> from whistsim.solver import card_costs
    >>> record = whistsim.simulate("whist", n=1, seed=1, records=1).records[0]
    >>> costs = card_costs(record)
    >>> costs["unit"], costs["start"], costs["end"] == record["result"]["tricks"][0]
    ('tricks', 11, True)
    >>> costs["end"] - costs["start"] == costs["lost"][1] - costs["lost"][0]
    True
    """

    from . import as_record

    record = as_record(record)
    position_of(record)  # the whole record judged first, as replay judges it
    name = record["game"]
    d = dealt_records.load(name, RULES[name], record)
    pos = position_of({**record, "moves": []})
    scotch = pos.rules.kind == SCOTCH
    teams = pos.rules.teams_tuple
    lost = [0, 0]
    cards: list[dict[str, Any]] = []
    before = start = deal_value(pos)
    for k, (seat, card) in enumerate(zip(d.seats.tolist(), d.cards.tolist(), strict=True)):
        revoke = not _is_legal(pos, card)
        prev = pos.buf.copy()
        pos.play(int(card))
        after = deal_value(pos)
        side = int(teams[seat])
        cost = before - after if side == 0 else after - before
        lost[side] += cost
        entry: dict[str, Any] = {"move": k, "seat": int(seat), "side": side, "card": card_name(card),
                                 "before": before, "after": after, "cost": cost}  # fmt: skip
        if best and cost > 0:  # the best cards only where they differ from the card played
            entry["best"] = [card_name(c) for c in Position(pos.rules, prev, pos.tt).best()[0]]
        if revoke:
            entry["revoke"] = True
        cards.append(entry)
        before = after
    return {
        "unit": "points" if scotch else "tricks",
        "start": start,
        "end": before,
        "lost": lost,
        "cards": cards,
    }


def _is_legal(pos: Position, card: int) -> bool:
    """Would the solver play ``card`` here (the seat holds it and follows suit)?"""
    from ..games.dealt.engine import from_power
    from ..games.dealt.search import legal_bits, seat_to_play

    legal = legal_bits(pos.X, seat_to_play(pos.X))
    suit = card // 13
    return any(int(from_power(b)) == card % 13 for b in range(16) if (int(legal[suit]) >> b) & 1)


def annotate(text: str, costs: dict[str, Any]) -> str:
    """``show``'s telling of a deal with each costly card marked ``(-n)``, a line under the
    trick naming the best cards there, and a closing line with each side's total."""
    from ..core.options import WhistsimError

    unit = costs["unit"]
    lines = text.split("\n")
    todo = list(costs["cards"])
    out: list[str] = []
    pending: list[dict[str, Any]] = []
    for line in lines:
        if line.startswith("Trick "):
            head, _, body = line.partition("seat ")
            parts = body.split(" · ")
            marked = []
            for part in parts:
                if not todo:
                    raise WhistsimError("show --costs: the telling has more cards than the record")
                c = todo.pop(0)
                name = pretty_card(parse_card(c["card"]))
                at = part.find(name)
                if at < 0:
                    raise WhistsimError(f"show --costs: move {c['move']} ({c['card']}) is not where expected")
                if c["cost"] != 0:
                    at += len(name)
                    part = f"{part[:at]} ({-c['cost']:+d}){part[at:]}"
                    pending.append(c)
                marked.append(part)
            out.append(head + "seat " + " · ".join(marked))
            continue
        out.append(line)
        if line.lstrip().startswith("→ ") and pending:
            for c in pending:
                best = " or ".join(pretty_card(parse_card(b)) for b in c.get("best", []))
                keep = f"; {best} kept the value" if best else ""
                what = "a revoke, " if c.get("revoke") else ""
                out.append(f"          seat {c['seat']}'s {pretty_card(parse_card(c['card']))}: "
                           f"{what}cost side {c['side']} {_amount(c['cost'], unit)}{keep}")  # fmt: skip
            pending = []
    if todo:
        raise WhistsimError("show --costs: the record has more cards than the telling")
    while out and out[-1] == "":
        out.pop()
    lost = costs["lost"]
    out += [
        "",
        f"Costs against open-hand play (every hand open, both sides best from each card on): "
        f"side 0 lost {_amount(lost[0], unit)}, side 1 {_amount(lost[1], unit)}; "
        f"side 0's {'margin' if unit == 'points' else 'tricks'}: {costs['start']} with best play "
        f"from the first lead, {costs['end']} played.",
    ]
    return "\n".join(out)


def told(record: dict, costs: bool = False) -> tuple[str | None, str, dict[str, Any] | None]:
    """``show``'s parts for a record: (its deal in the text notation for Whist and Scotch Whist,
    else None; the telling, marked with each card's cost when ``costs``; the
    costs, or None). A bad record, or ``costs`` for a deal the solver does not take: a
    one-line WhistsimError."""
    from ..api import REFUSALS, refusal, show
    from ..core.options import WhistsimError

    game = record.get("game") if isinstance(record, dict) else None
    if costs and game in game_names() and game not in RULES:
        try:  # refused before the record is played: nothing compiles for a game the solver never takes
            solver_game(record)
        except REFUSALS as e:
            raise WhistsimError(f"--costs: {refusal(e)[1]}") from None
    text = show(record)  # judges the record first
    deal = None
    if record.get("game") in RULES:  # the dealt games; Welsh Whist's telling names no card by its code
        from ..deals import format_deal

        deal = format_deal(record)
    if not costs:
        return deal, text, None
    try:
        judged = card_costs(record)
    except REFUSALS as e:
        raise WhistsimError(f"--costs: {refusal(e)[1]}") from None
    return deal, annotate(text, judged), judged


def _amount(n: int, unit: str) -> str:
    word = "trick" if unit == "tricks" else "point"
    return f"{n} {word}{'s' * (abs(n) != 1)}"


__all__ = ["card_costs", "deal_value", "annotate", "told"]
