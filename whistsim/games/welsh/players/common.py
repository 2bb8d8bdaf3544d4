"""What every Welsh Whist player shares: card counting, follow and lead helpers,
and the cheating and challenge policies any player takes as parameters.

Every helper reads only what a seat's view (``games.welsh.engine.WelshView``)
holds: the public table ``t`` and the seat's own record ``own``, passed as
records (pointers), not as the view tuple: each helper is compiled once and
linked into every kernel that uses it, which keeps compiling the kernels
quick. Users' strategies may import them too (see
``experiments/strategies/cautious.py``).

Slots 0 and 1 of every built-in player's parameters are ``cheat`` and
``challenge`` (:data:`P_CHEAT`, :data:`P_CHALLENGE`).
"""

import numpy as np
from numba import njit

from ....core.bits import highest, lowest
from ....core.cards import ACE, FIVE, JACK, KING, TAFFY, TEN
from ....core.rng import randbelow, uniform
from ....core.strategy import POLICY_WORDS, SMART, Param
from ..engine import (
    CHALLENGE_SEAT,
    FIVE_PENALTY,
    LOW_RANKS,
    NO_CHALLENGE,
    PARLETT,
    PASS,
    S_BEST_POWER,
    S_LEADER,
    S_LED_SUIT,
    S_SEAT,
    S_TRICK_LEN,
    TAFFY_LEAD,
    can_follow,
    card_value,
    in_play,
    is_ten,
    power,
    stock_lasts,
)
from ..rules import (
    R_CHALLENGE,
    R_PACKS,
    R_PLAYERS,
    R_REVOKES,
    R_SCORING,
    R_TAFFIES,
    R_TAFFY_EQUALS_TEN,
)

P_CHEAT, P_CHALLENGE = 0, 1
# cheat=policy (greedy, counter and cheater only): false passes decided by three more parameters, in
# slots 2-4, so that a best-response search can range over when a cheat pays (whistsim claims).
POLICY = -2.0
P_CHEAT_HAND, P_CHEAT_STAKE, P_CHEAT_WEIGH = 2, 3, 4


def cheat_param(default: float | str = 0.0, policy: bool = False) -> Param:
    words = {**POLICY_WORDS, "policy": POLICY} if policy else POLICY_WORDS
    return Param(
        default,
        "false passes when able to follow (revokes=true only): a rate from 0 to 1, never, always, "
        "or smart (pass when following would hand over a Ten or a Taffy)"
        + (", or policy (as the cheat_* parameters say)" if policy else ""),
        words, 0.0, 1.0, aliases=("false_pass", "rate"),
    )  # fmt: skip


def cheat_policy_params() -> dict[str, Param]:
    """The parameters of ``cheat=policy``, declared by greedy, counter and cheater in slots 2-4."""
    return {
        "cheat_hand": Param(99.0, "cheat=policy: pass falsely only when holding at most this many cards "
                            "(a catch costs the whole hand)", low=1.0, high=999.0, integer=True),
        "cheat_stake": Param(10.0, "cheat=policy: ... only when following would hand over a card worth at "
                             "least this (10: a Ten or a Taffy; 1: any card; 0: also when it could win)",
                             low=0.0, high=10.0),
        "cheat_weigh": Param(0.0, "cheat=policy: ... only when the card kept is worth more than this times "
                             "the hand's worth (what a catch costs under either challenge rule)",
                             low=0.0, high=100.0),
    }  # fmt: skip


def challenge_param(default: float | str = "smart") -> Param:
    return Param(
        default,
        "after a trick with a pass, under a challenge rule: a chance from 0 to 1 of challenging a "
        "passer, never, always, or smart (when counting, and any pass already shown false, "
        "make the challenge pay on average)",
        POLICY_WORDS, 0.0, 1.0,
    )  # fmt: skip


NOT_TEN = (1 << 13) - 1 - (1 << TEN)
# A byte of 1 per rank of a packed word (engine.WORD_OF): its low ranks, its high ranks.
ONES_LOW = sum(1 << 8 * r for r in range(LOW_RANKS))
ONES_HIGH = sum(1 << 8 * r for r in range(13 - LOW_RANKS))


# ---- what a seat can count ----------------------------------------------------


@njit(cache=True)
def total(t, card):
    """Copies of a card type in the whole stock."""
    return t.rules[R_TAFFIES] if card == TAFFY else t.rules[R_PACKS]


@njit(cache=True)
def unseen(t, own, card):
    """Copies of a card a seat has not seen: in other hands or in the stock."""
    return total(t, card) - own.hand[card] - t.played[card] - t.piled[card]


@njit(cache=True)
def taffy_power(t):
    return power(TAFFY, t.rules[R_TAFFY_EQUALS_TEN])


@njit(cache=True)
def top_unseen(t, own, suit):
    """The highest power an unseen card could answer a lead of ``suit`` with (-1: none)."""
    return max(top_unseen_suited(t, own, suit), top_unseen_taffy(t, own))


@njit(cache=True, inline="always")
def top_unseen_suited(t, own, suit):
    """:func:`top_unseen` among the cards of ``suit`` (no Taffy)."""
    return top_unseen_of(
        t.rules[R_PACKS], own.held[2 * suit], own.held[2 * suit + 1], t.gone[2 * suit], t.gone[2 * suit + 1]
    )


@njit(cache=True, inline="always")
def top_unseen_of(packs, held_low, held_high, gone_low, gone_high):
    """:func:`top_unseen_suited` from the suit's two packed words of the seat's hand and of the cards
    gone: the highest power of a card of the suit it has not seen (-1: none). Without a branch, so
    that pimc's lanes (``players/lanes.py``) ask it too."""
    # unseen(t, own, c) for the word's ranks, a byte each (none negative: no borrow between them)
    high = packs * ONES_HIGH - held_high - gone_high
    low = packs * ONES_LOW - held_low - gone_low
    top_low = 2 * (highest(low) >> 3) if low != 0 else -1
    return 2 * (LOW_RANKS + (highest(high) >> 3)) if high != 0 else top_low


@njit(cache=True, inline="always")
def gone_in_suit(t, suit):
    """Cards of ``suit`` played or piled: the bytes of its two packed words summed."""
    return packed_count(t.gone[2 * suit], t.gone[2 * suit + 1])


@njit(cache=True, inline="always")
def packed_count(low, high):
    """The cards counted in a suit's two packed words (engine.WORD_OF, BYTE_OF)."""
    x = low + high  # at most 32 a byte: no carry
    x += x >> 32
    x += x >> 16
    x += x >> 8
    return x & 255  # at most 13 * 16


@njit(cache=True, inline="always")
def top_unseen_taffy(t, own):
    """The Taffy's power if a Taffy is unseen, else -1 (whatever the suit led)."""
    # the card typed: a literal would compile ``unseen`` (and ``total``) a second time
    return taffy_power(t) if unseen(t, own, np.int64(TAFFY)) > 0 else -1


@njit(cache=True)
def void_known(t, q, suit):
    """Seat ``q`` cannot answer ``suit``: it passed on that suit and took no cards since
    (so it holds no Taffy either). A fact only when revokes are forbidden."""
    return t.rules[R_REVOKES] == 0 and t.void[q, suit] == 1


@njit(cache=True)
def answerable(t, seat, suit, leader):
    """Some player still to answer ``seat``'s card (up to ``leader``) holds cards and is not
    known void in ``suit``."""
    p = t.rules[R_PLAYERS]
    q = seat
    for _ in range(p):
        q = q + 1 if q + 1 < p else 0
        if q == leader:
            break
        if t.hand_n[q] > 0 and not void_known(t, q, suit):
            return True
    return False


@njit(cache=True, inline="always")  # into follow_counting: a call per counted answer less
def threat(t, own, seat, suit, leader):
    """The highest power a player still to answer ``seat``'s card could play (-1: none).

    Players answer from ``seat``'s left up to ``leader`` (pass ``leader=seat`` when
    leading). A player with no cards, or known void, cannot answer.
    """
    if not answerable(t, seat, suit, leader):  # first: cheaper than counting, the same answer
        return -1
    return top_unseen(t, own, suit)


@njit(cache=True)
def followers_after(t, seat):
    """Players still to answer this trick after ``seat``."""
    p = t.rules[R_PLAYERS]
    leader = t.s[S_LEADER]
    stocked = stock_lasts(t)
    n = 0
    q = seat
    for _ in range(p):
        q = q + 1 if q + 1 < p else 0
        if q == leader:
            break
        if in_play(t, q, stocked):
            n += 1
    return n


@njit(cache=True, inline="always")  # into the answers' policies: a call per counted answer less
def trick_value(t):
    scoring = t.rules[R_SCORING]
    n = 0
    for i in range(t.s[S_TRICK_LEN]):
        n += card_value(t.trick_card[i], scoring)
    return n


# ---- following ------------------------------------------------------------------


@njit(cache=True)
def follow_low(own, suit, scoring):
    """The cheapest card to lose with: a low card, a Five under five_penalty (it costs the
    winner), a Ten only when nothing else follows, a Taffy last; PASS if nothing follows."""
    m = own.bits[suit]
    if scoring == FIVE_PENALTY and m & (1 << FIVE):
        return suit * 13 + FIVE
    low = m & NOT_TEN
    if low:
        return suit * 13 + lowest(low)
    if m:
        return suit * 13 + TEN
    if own.hand[TAFFY] > 0:
        return TAFFY
    return PASS


@njit(cache=True)
def cheapest_winner(own, suit, need, tp):
    """The lowest card answering ``suit`` with power >= ``need`` (a Taffy has ``tp``); -1: none."""
    return winner_in(own.bits[suit], suit, need, own.hand[TAFFY], tp)


@njit(cache=True, inline="always")
def winner_in(m, suit, need, taffies, tp):
    """:func:`cheapest_winner` from the suit's rank mask ``m`` and the Taffies held. Without a
    branch, so that pimc's lanes ask it too (``need`` is at most 25: the shift stays in range)."""
    r0 = (need + 1) >> 1
    above = m >> r0
    r = r0 + lowest(above)
    best = suit * 13 + r if above != 0 else -1
    best_power = 2 * r if above != 0 else 1 << 20
    return TAFFY if (taffies > 0) & (need <= tp) & (tp < best_power) else best


@njit(cache=True)
def follow_greedy(t, own, seat):
    """Win the trick cheaply when it holds a Ten or a Taffy, bank a Ten or a Taffy that surely
    wins, take a trick for free as last to answer; otherwise play low."""
    suit = t.s[S_LED_SUIT]
    low = follow_low(own, suit, t.rules[R_SCORING])
    if low == PASS:
        return PASS
    return _greedy_win(t, own, seat, suit, low)


@njit(cache=True, inline="always")  # into follow_counting too, which has found ``low`` already
def _greedy_win(t, own, seat, suit, low):
    """:func:`follow_greedy` past its cheapest card to lose (``low``, not a pass)."""
    w = cheapest_winner(own, suit, t.s[S_BEST_POWER] + 1, taffy_power(t))
    if w < 0:
        return low
    last = followers_after(t, seat) == 0
    if trick_value(t) >= 10 or (last and (is_ten(w) or w % 13 < TEN)):
        return w
    return low


@njit(cache=True)
def follow_counting(t, own, seat):
    """Win with the cheapest card that no player still to answer can beat, when the trick is
    worth it (a Ten or Taffy in it, or the card is cheap or banks a Ten); otherwise play low."""
    suit = t.s[S_LED_SUIT]
    scoring = t.rules[R_SCORING]
    low = follow_low(own, suit, scoring)
    if low == PASS:
        return PASS
    # Equal cards lose to the first played: matching the highest threat is enough.
    need = max(t.s[S_BEST_POWER] + 1, threat(t, own, seat, suit, t.s[S_LEADER]))
    w = cheapest_winner(own, suit, need, taffy_power(t))
    if w < 0:
        return _greedy_win(t, own, seat, suit, low)
    if trick_value(t) >= 10 or is_ten(w) or w % 13 < JACK:
        return w
    return low


# ---- leading --------------------------------------------------------------------


@njit(cache=True)
def lead_low(own, scoring):
    """The cheapest lead: the lowest card (a Five under five_penalty), not a Ten while
    another card is left, a Taffy last (naming its first suit)."""
    best, best_r = -1, 99
    for suit in range(4):
        m = own.bits[suit]
        if scoring == FIVE_PENALTY and m & (1 << FIVE):
            return suit * 13 + FIVE
        low = m & NOT_TEN
        if low and lowest(low) < best_r:
            best_r = lowest(low)
            best = suit * 13 + best_r
    if best >= 0:
        return best
    for suit in range(4):
        if own.bits[suit] & (1 << TEN):
            return suit * 13 + TEN
    return TAFFY_LEAD


@njit(cache=True)
def lead_high(own, lowest_rank):
    """The highest card of rank >= ``lowest_rank`` (the suit with the most cards on a tie); -1."""
    best, best_r, best_n = -1, lowest_rank - 1, -1
    for suit in range(4):
        m = own.bits[suit]
        if m:
            r = highest(m)
            if r > best_r or (r == best_r and best >= 0 and own.suit_n[suit] > best_n):
                best, best_r, best_n = suit * 13 + r, r, own.suit_n[suit]
    return best


@njit(cache=True)
def lead_aces_kings(own):
    """greedy's leads: an Ace (no card beats it when led), else a King (only an Ace does)."""
    return lead_high(own, np.int64(KING))  # typed: a literal compiles lead_high once more


@njit(cache=True)
def lead_sure(t, own, seat):
    """A lead no one can beat, by counting cards and known voids (-1: none).

    Banking a Ten or a Taffy comes first; then the suit with most unseen cards, where
    others most likely have to answer. A lead no one can answer gains nothing else.
    """
    tp = taffy_power(t)
    packs = t.rules[R_PACKS]
    taffies = own.hand[TAFFY] > 0
    top_taffy = top_unseen_taffy(t, own)  # the same for every suit: counted once
    # answerable(t, seat, suit, seat) for the four suits at once (bit s): each seat read once
    open_suits = 0
    hard = t.rules[R_REVOKES] == 0
    for q in range(t.rules[R_PLAYERS]):
        if q != seat and t.hand_n[q] > 0:
            if not hard:
                open_suits = 15
                break
            for suit in range(4):
                if t.void[q, suit] != 1:
                    open_suits |= 1 << suit
    best, best_score = -1, -1
    for suit in range(4):
        m = own.bits[suit]
        if m == 0 and not taffies:
            continue
        # threat(t, own, seat, suit, seat), the Taffy's part counted once
        top = max(top_unseen_suited(t, own, suit), top_taffy) if open_suits >> suit & 1 else -1
        r0 = (top + 1) // 2  # the lowest rank a Ten-free lead needs (ties go to the leader)
        cand, r = -1, -1  # r: the suited candidate's rank (kept: no ``cand % 13``)
        if r0 <= ACE and m >> r0:
            r = r0 + lowest(m >> r0)
            if m & (1 << TEN) and r < TEN:
                r = TEN
            cand = suit * 13 + r
        if taffies and tp >= top and r != TEN:
            cand = TAFFY_LEAD + suit
        if cand < 0:
            continue
        banks = cand >= TAFFY_LEAD or r == TEN
        if not banks and (top < 0 or best_score >= 1000):  # nothing to gain, or a bank found already
            continue
        # the suit's unseen cards: unseen() summed over its ranks
        score = 13 * packs - own.suit_n[suit] - gone_in_suit(t, suit) + (1000 if banks else 0)
        if score > best_score:
            best, best_score = cand, score
    return best


# ---- cheating and challenges ----------------------------------------------------


@njit(cache=True)
def smart_cheat(t, own):
    """Pass falsely when every card that follows would lose and is a Ten or a Taffy."""
    suit = t.s[S_LED_SUIT]
    if not can_follow(own, suit):
        return False
    if cheapest_winner(own, suit, t.s[S_BEST_POWER] + 1, taffy_power(t)) >= 0:
        return False
    return is_ten(follow_low(own, suit, t.rules[R_SCORING]))


@njit(cache=True)
def policy_cheat(t, own):
    """``cheat=policy``: pass falsely when able to follow, holding at most ``cheat_hand`` cards, when
    following would hand over a card worth at least ``cheat_stake`` (0 when a card could win), and
    that card is worth more than ``cheat_weigh`` times the hand (what a caught cheat loses)."""
    suit = t.s[S_LED_SUIT]
    if not can_follow(own, suit) or t.hand_n[t.s[S_SEAT]] > own.params[P_CHEAT_HAND]:
        return False
    scoring = t.rules[R_SCORING]
    stake = 0
    if cheapest_winner(own, suit, t.s[S_BEST_POWER] + 1, taffy_power(t)) < 0:
        stake = card_value(follow_low(own, suit, scoring), scoring)
    if stake < own.params[P_CHEAT_STAKE]:
        return False
    k = own.params[P_CHEAT_WEIGH]
    if k > 0:
        worth = 0
        for c in range(53):
            worth += own.hand[c] * card_value(c, scoring)
        if stake <= k * worth:
            return False
    return True


@njit(cache=True)
def cheats(t, own):
    """The seat's ``cheat`` parameter: pass falsely now? (Only when revokes are allowed.)"""
    if t.rules[R_REVOKES] == 0:
        return False
    c = own.params[P_CHEAT]
    if c == SMART:
        return smart_cheat(t, own)
    if c == POLICY:
        return policy_cheat(t, own)
    return uniform(own.rng, 0) < c


@njit(cache=True)
def challenge_uniform(t, own):
    """One passer of this trick, uniformly."""
    p = t.rules[R_PLAYERS]
    n = 0
    for q in range(p):
        n += t.passed[q]
    pick = randbelow(own.rng, 0, n)
    for q in range(p):
        if t.passed[q]:
            if pick == 0:
                return CHALLENGE_SEAT + q
            pick -= 1
    return NO_CHALLENGE


@njit(cache=True)
def smart_challenge(t, own, seat):
    """Challenge the passer whose challenge pays most on average, if any does.

    The chance a passer could have followed is counted from the unseen cards (a
    hand of ``hand_n`` cards drawn from them), then weighed by a prior rate of
    cheating: 1 in 20, or 3 in 4 for a seat already shown to pass falsely (a low prior: honest
    passes are not random hands, and a wrong challenge costs as much as a right one gains).
    Parlett: win their hand into ours or lose ours to them (counted in cards);
    akagiri: win their hand into our pile or lose this trick to them (in points).
    """
    suit = t.s[S_LED_SUIT]
    scoring = t.rules[R_SCORING]
    pool, follow, worth = 0, 0, 0
    for c in range(53):
        n = unseen(t, own, c)
        pool += n
        worth += n * card_value(c, scoring)
        if c == TAFFY or c // 13 == suit:
            follow += n
    if pool == 0:
        return NO_CHALLENGE
    avg = worth / pool
    trick = 0
    for i in range(t.s[S_TRICK_LEN]):
        trick += card_value(t.trick_card[i], scoring)
    best, best_gain = NO_CHALLENGE, 0.0
    for q in range(t.rules[R_PLAYERS]):
        h = t.hand_n[q]
        if q == seat or not t.passed[q] or h == 0:
            continue
        # P(h cards drawn from the pool miss every card that follows)
        miss = 1.0
        for i in range(min(h, pool)):
            miss *= max(0.0, (pool - follow - i) / (pool - i))
        p_can = 1.0 - miss
        prior = 0.75 if t.exposed[q] > 0 else 0.05
        p = prior * p_can / (prior * p_can + 1.0 - p_can) if p_can > 0 else 0.0
        if t.rules[R_CHALLENGE] == PARLETT:
            gain = p * h - (1.0 - p) * t.hand_n[seat]
        else:
            gain = p * h * avg - (1.0 - p) * trick
        if gain > best_gain:
            best, best_gain = CHALLENGE_SEAT + q, gain
    return best


@njit(cache=True)
def challenge(t, own, seat):
    """The seat's ``challenge`` parameter: a chance, never (0), always (1) or smart."""
    c = own.params[P_CHALLENGE]
    if c == SMART:
        return smart_challenge(t, own, seat)
    if uniform(own.rng, 0) < c:
        return challenge_uniform(t, own)
    return NO_CHALLENGE
