"""Exact analyses for the lessons: the commitment decision and the cursed-relic risk.

**The opponent model** (stated once, used everywhere here). The opponent has committed
``k`` cards (the visible count). We do not know which. We assume every set of ``k``
cards *of one symbol* among the cards we have not seen is equally likely (each such
set counts once, whatever its symbol). Nothing else is assumed: not the opponent's
taste, not what they kept in earlier deals. The figures are for the raw throw at the
end of the Call of Fate, before any Naga effect (like the calculator, nagaraja.md#odds).

Everything is exact (:class:`fractions.Fraction`). The fast method groups the
opponent's possible sets by the sticks they give and mixes the resulting point
distributions into one; the tests check it against plain enumeration of every set
and every face of every stick.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, product
from functools import lru_cache
from math import comb, lcm

from gamelib.dist import Dist
from gamelib.nagaraja import sticks
from gamelib.nagaraja.cards import Card, commitments, pool_of
from gamelib.nagaraja.edition import Edition, default_edition


@dataclass(frozen=True)
class CommitmentOdds:
    """The exact chance of winning the room with one commitment."""

    cards: tuple[str, ...]
    pool: tuple[int, int, int]
    p_win: Fraction  # with the seat given (guide or not)
    p_tie: Fraction  # ties go to the guide: this is what the tie rule is worth to the guide

    def __str__(self) -> str:
        return f"{' + '.join(self.cards) or 'nothing'} {self.pool}: win {self.p_win} ({float(self.p_win):.1%})"


def _cards(edition: Edition, ids) -> list[Card]:
    return [edition.cards[c] if isinstance(c, str) else c for c in ids]


def unseen_cards(edition: Edition, hand, seen=()) -> list[Card]:
    """The cards the player cannot place: the whole deck minus their hand and the cards they saw leave play."""
    known = {c if isinstance(c, str) else c.id for c in list(hand) + list(seen)}
    return [card for card_id, card in edition.cards.items() if card_id not in known]


def opponent_pools(count: int, unseen, edition: Edition | None = None) -> Counter:
    """How many equally likely one-symbol ``count``-sets of ``unseen`` cards give each pool."""
    edition = edition or default_edition()
    key = tuple(sorted((card.symbol, card.pool) for card in _cards(edition, unseen)))
    return Counter(dict(_pools_cached(count, key)))


@lru_cache(maxsize=256)
def _pools_cached(count: int, cards: tuple) -> tuple:
    by_symbol: dict[str, list] = {}
    for symbol, pool in cards:
        by_symbol.setdefault(symbol, []).append(pool)
    pools: Counter = Counter()
    if count == 0:
        pools[(0, 0, 0)] = 1
    for symbol_pools in by_symbol.values() if count else ():
        for subset in combinations(symbol_pools, count):
            pools[tuple(map(sum, zip(*subset)))] += 1
    if not pools:
        raise ValueError(f"no {count} unseen cards share a symbol: the opponent cannot have committed {count} cards")
    return tuple(sorted(pools.items()))


def _faces_key(edition: Edition) -> tuple:
    return tuple(tuple(edition.faces[c]) for c in sticks.COLOURS)


@lru_cache(maxsize=4096)
def _points_counts(pool: tuple, faces_key: tuple) -> tuple[dict, int]:
    """sticks.points_counts, remembered per pool: the bots ask for the same pools again and again."""
    return sticks.points_counts(pool, dict(zip(sticks.COLOURS, faces_key)))


def _mixture_counts(count: int, unseen, edition: Edition) -> tuple[dict, int]:
    """The opponent's points as integer weights over one common denominator."""
    pools = opponent_pools(count, unseen, edition)
    key = _faces_key(edition)
    parts = [(weight, _points_counts(pool, key)) for pool, weight in pools.items()]
    common = lcm(*(total for _, (_, total) in parts))
    mixture: Counter = Counter()
    for weight, (counts, total) in parts:
        scale = weight * (common // total)
        for points, n in counts.items():
            mixture[points] += scale * n
    return dict(mixture), common * sum(pools.values())


def opponent_points(count: int, unseen, edition: Edition | None = None) -> Dist:
    """The opponent's points under the model: a mixture of the pools' exact distributions."""
    edition = edition or default_edition()
    mixture, total = _mixture_counts(count, unseen, edition)
    return Dist({points: Fraction(n, total) for points, n in mixture.items()})


def commitment_table(
    hand, opponent_count: int, mine_is_guide: bool, edition: Edition | None = None, seen=()
) -> list[CommitmentOdds]:
    """For every legal commitment of ``hand``: the exact chance to win the room (best first).

    ``hand`` is a list of card ids or Cards; ``opponent_count`` the number of cards the
    opponent committed (or is assumed to commit); ``seen`` cards known to be out of the
    opponent's reach (the discard pile, say).
    """
    edition = edition or default_edition()
    hand_cards = _cards(edition, hand)
    theirs, theirs_total = _mixture_counts(opponent_count, unseen_cards(edition, hand_cards, seen), edition)
    key = _faces_key(edition)
    rows = []
    for ids in commitments(hand_cards):
        pool = pool_of(edition.cards[c] for c in ids)
        greater, tie, _ = sticks.compare_counts(*_points_counts(pool, key), theirs, theirs_total)
        rows.append(CommitmentOdds(ids, pool, greater + tie if mine_is_guide else greater, tie))
    return sorted(rows, key=lambda row: (-row.p_win, len(row.cards), row.cards))


def tie_rule_value(hand, opponent_count: int, edition: Edition | None = None, seen=()) -> dict:
    """What "the guide wins ties" is worth: P(win as guide) - P(win as non-guide), per commitment."""
    as_guide = {row.cards: row.p_win for row in commitment_table(hand, opponent_count, True, edition, seen)}
    as_other = {row.cards: row.p_win for row in commitment_table(hand, opponent_count, False, edition, seen)}
    return {cards: as_guide[cards] - as_other[cards] for cards in sorted(as_guide)}


# --------------------------------------------------------------------------- oracles (slow, obvious)


def _throws(pool, faces):
    colour_faces = [faces[c] for c, n in zip(sticks.COLOURS, pool) for _ in range(n)]
    return product(*colour_faces)


def brute_force_win(
    hand_commit, opponent_count: int, mine_is_guide: bool, hand, edition: Edition | None = None, seen=()
) -> Fraction:
    """The same chance by listing every opponent set and every face of every stick (exponential)."""
    edition = edition or default_edition()
    unseen = unseen_cards(edition, _cards(edition, hand), seen)
    sets = [s for s in combinations(unseen, opponent_count) if len({c.symbol for c in s}) <= 1]
    # Every face of every stick is listed; the two throws are independent, so each side's listed
    # throws are tallied by points first and the pairs counted from the two tallies.
    mine = _listed_points(pool_of(edition.cards[c] for c in hand_commit), edition.faces)
    chance = Fraction(0)
    for their_set in sets:  # each set equally likely; within a set, each pair of throws equally likely
        theirs = _listed_points(pool_of(their_set), edition.faces)
        wins = sum(
            m * t for mp, m in mine.items() for tp, t in theirs.items() if mp > tp or (mine_is_guide and mp == tp)
        )
        chance += Fraction(wins, sum(mine.values()) * sum(theirs.values()))
    return chance / len(sets)


def _listed_points(pool, faces) -> Counter:
    return Counter(sum(points for points, _ in throw) for throw in _throws(pool, faces))


def naive_commitment_table(hand, opponent_count: int, mine_is_guide: bool, edition: Edition | None = None, seen=()):
    """The direct method: every commitment against every opponent set, one comparison each (for the bench)."""
    edition = edition or default_edition()
    hand_cards = _cards(edition, hand)
    unseen = unseen_cards(edition, hand_cards, seen)
    sets = [s for s in combinations(unseen, opponent_count) if len({c.symbol for c in s}) <= 1]
    rows = {}
    for ids in commitments(hand_cards):
        mine = pool_of(edition.cards[c] for c in ids)
        total = sum(sticks.win_probability(mine, pool_of(s), mine_is_guide, faces=edition.faces) for s in sets)
        rows[ids] = total / len(sets)
    return rows


# --------------------------------------------------------------------------- cursed relics


def _relic_counts(edition: Edition) -> tuple[int, int]:
    return len(edition.relics), sum(r.cursed for r in edition.relics)


def unknown_relics(observation: dict, owner: int, edition: Edition | None = None) -> tuple[list[str], int, int]:
    """Face-down spots whose relic the viewer does not know, and how many of those hide a cursed relic.

    Returns (unknown spots, cursed among them, cursed already face up). By symmetry every
    unknown token is equally likely to be at every unknown spot.
    """
    edition = edition or default_edition()
    relics = observation["players"][owner]["temple"]["relics"]
    _, cursed_total = _relic_counts(edition)
    known_cursed = sum(1 for r in relics.values() if r["vp"] is not None and r["cursed"])
    cursed_up = sum(1 for r in relics.values() if r["face_up"] and r["cursed"])
    unknown = [spot for spot, r in relics.items() if r["vp"] is None]
    return unknown, cursed_total - known_cursed, cursed_up


def cursed_chance(observation: dict, owner: int | None = None, edition: Edition | None = None) -> dict[str, Fraction]:
    """For each face-down relic spot of ``owner``'s temple: the exact chance that it is cursed, given what the viewer knows."""
    owner = observation["viewer"] if owner is None else owner
    relics = observation["players"][owner]["temple"]["relics"]
    unknown, cursed_unknown, _ = unknown_relics(observation, owner, edition)
    chances = {}
    for spot, relic in relics.items():
        if relic["face_up"]:
            continue
        if relic["vp"] is not None:
            chances[spot] = Fraction(int(relic["cursed"]))
        else:
            chances[spot] = Fraction(cursed_unknown, len(unknown))
    return chances


def cursed_loss_chance(observation: dict, spots, owner: int | None = None, edition: Edition | None = None) -> Fraction:
    """The exact chance that turning up ``spots`` leaves all the cursed relics of the temple face up.

    Known relics count as they are; the unknown ones follow the hypergeometric law
    (drawing len(unknown spots revealed) tokens from the unknown ones).
    """
    edition = edition or default_edition()
    owner = observation["viewer"] if owner is None else owner
    relics = observation["players"][owner]["temple"]["relics"]
    unknown, cursed_unknown, cursed_up = unknown_relics(observation, owner, edition)
    _, cursed_total = _relic_counts(edition)
    new = [s for s in spots if not relics[s]["face_up"]]
    known_new = sum(1 for s in new if relics[s]["vp"] is not None and relics[s]["cursed"])
    drawn = sum(1 for s in new if relics[s]["vp"] is None)
    needed = cursed_total - cursed_up - known_new
    if needed <= 0:
        return Fraction(1)
    hits = sum(
        comb(cursed_unknown, x) * comb(len(unknown) - cursed_unknown, drawn - x)
        for x in range(needed, min(drawn, cursed_unknown) + 1)
    )
    return Fraction(hits, comb(len(unknown), drawn)) if drawn else Fraction(0)


# --------------------------------------------------------------------------- the duel board's overlay
#
# Both functions read only an observation (what the viewer may know) and the viewer's own legal
# actions, never a full state: the overlay must be the same in every position the viewer cannot
# tell apart.


@dataclass(frozen=True)
class CallOfFateOdds:
    """The Call of Fate overlay: one row per commitment, one column per count the opponent may commit."""

    is_guide: bool
    counts: tuple[int, ...]  # the opponent's committed count (known to the follower) or every count possible
    rows: tuple[
        tuple[tuple[str, ...], tuple[int, int, int], tuple[Fraction, ...]], ...
    ]  # cards, pool, P(win) per count


def call_of_fate_odds(observation: dict, edition: Edition | None = None) -> CallOfFateOdds:
    """P(the viewer wins the room) for each commitment of their hand, under the opponent model above.

    The follower knows how many cards the guide committed: one column. The guide does not know how
    many the follower will commit: one column per count from 1 to the follower's hand size (counts
    no unseen one-symbol set can make are left out). Cards in the discard pile are out of the
    opponent's reach; nothing else the viewer saw is used (the model's rule).
    """
    edition = edition or default_edition()
    viewer = observation["viewer"]
    me, them = observation["players"][viewer], observation["players"][1 - viewer]
    hand = [card["id"] for card in me["hand"]]
    seen = list(observation.get("discard_pile") or ())
    is_guide = observation["guide"] == viewer
    if them["has_committed"]:
        counts = [them["committed_count"]]
    else:
        counts = list(range(1, them["hand_size"] + 1)) or [0]
    columns, kept = [], []
    for count in counts:
        try:
            table = commitment_table(hand, count, is_guide, edition, seen)
        except ValueError:  # no unseen one-symbol set of that size
            continue
        columns.append({row.cards: row for row in table})
        kept.append(count)
    rows = []
    for ids in commitments(_cards(edition, hand)):
        rows.append((ids, pool_of(edition.cards[c] for c in ids), tuple(column[ids].p_win for column in columns)))
    return CallOfFateOdds(is_guide, tuple(kept), tuple(rows))


def _fresh_counts(colour: str, edition: Edition) -> dict[int, int]:
    counts: dict[int, int] = {}
    for points_, _ in edition.faces[colour]:
        counts[points_] = counts.get(points_, 0) + 1
    return counts


def _add(counts: dict[int, int], other: dict[int, int]) -> dict[int, int]:
    result: dict[int, int] = {}
    for a, x in counts.items():
        for b, y in other.items():
            result[a + b] = result.get(a + b, 0) + x * y
    return result


def totals_after(observation: dict, action, edition: Edition | None = None) -> list[dict[int, int]]:
    """Each seat's fate total after the viewer's ``action``, as {total: equally likely cases}.

    Read from the visible sticks alone: PLUS2 and AM_PLUS2 add 2; DISCARD2 takes the named
    sticks' points away; RETHROW2 and AM_RETHROW1 take them away and add a fresh throw of
    the same colours. Spending a Naga stick costs no points (a Naga face shows 0). Every other
    effect, an amulet, a swap choice or a pass leaves both totals as they are.
    """
    edition = edition or default_edition()
    players = observation["players"]
    totals = [{players[seat]["total"]: 1} for seat in (0, 1)]
    sticks_by_id = {s["id"]: s for p in players for s in p["sticks"]}
    name = type(action).__name__
    if name == "UseNaga":
        effect = edition.cards[action.card].effect
    elif name == "UseAmulet":
        effect = edition.amulets[action.amulet].effect
    else:
        return totals
    if effect in ("PLUS2", "AM_PLUS2"):
        totals[action.player] = {t + 2: n for t, n in totals[action.player].items()}
    elif effect in ("DISCARD2", "RETHROW2", "AM_RETHROW1"):
        target = action.params.target
        chosen = [sticks_by_id[i] for i in action.params.stick_ids]
        lost = sum(s["points"] or 0 for s in chosen)
        counts = {t - lost: n for t, n in totals[target].items()}
        if effect != "DISCARD2":
            for stick in chosen:
                counts = _add(counts, _fresh_counts(stick["colour"], edition))
        totals[target] = counts
    return totals


def confrontation_odds(observation: dict, actions, edition: Edition | None = None) -> list[tuple[object, Fraction]]:
    """For each of the viewer's ``actions``: the exact P(viewer wins the room) if, after it, nobody
    uses another Naga or amulet (the room is resolved at once, the assumption of
    ``sticks.win_probability_after``; here the throws are known, so only a re-throw leaves chance)."""
    edition = edition or default_edition()
    viewer = observation["viewer"]
    is_guide = observation["guide"] == viewer
    result = []
    for action in actions:
        totals = totals_after(observation, action, edition)
        mine, theirs = totals[viewer], totals[1 - viewer]
        greater, tie, _ = sticks.compare_counts(mine, sum(mine.values()), theirs, sum(theirs.values()))
        result.append((action, greater + tie if is_guide else greater))
    return result
