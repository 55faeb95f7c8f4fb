"""A cost curve for Nagaraja's stick cards (course session 07): what a card gives against what it costs.

A card is used *either* for its sticks (called at the Call of Fate) *or* for its effect (activated
with a Naga), never both (nagaraja.md#cards). So calling a card's sticks costs the effect it
carries: the effect is the price of the sticks. Both sides are measured in the same unit, points
of chance to win a room, exactly (Fractions, no sampling):

* the **stick value** of a stick set: its chance to win a room when called alone against one card
  drawn from the deck's stick sets, averaged over being guide and not;
* the **effect value** of an effect: how much it raises its user's chance to win a room, averaged
  over every pair of single-card calls of the deck and both seats.

A card "on the curve" gives as much stick value as the line fitted through the other cards says its
effect costs; the residual (stick value minus the curve) says how far above (under-costed: too
good) or below (over-costed: too weak) it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from gamelib.exercises import Feedback
from gamelib.nagaraja import sticks
from gamelib.nagaraja.edition import default_edition

STICK_EFFECTS = {"PLUS2": "mine", "DISCARD2": "theirs", "RETHROW2": "mine"}
"""The stick effects and whom their user aims them at (a re-throw of one's own sticks, a discard of the opponent's)."""

TOLERANCE = 0.04
"""A card is on the curve when its residual is within 4 points of room-winning chance (every stick card can reach it with 2 or 3 sticks)."""


@dataclass(frozen=True)
class PricedCard:
    """One card on the curve: its effect value (cost), stick value (what it gives), the fitted value, the residual."""

    card_id: str
    sticks: str
    effect: str
    effect_value: Fraction
    stick_value: Fraction
    fitted: float
    residual: float

    @property
    def verdict(self) -> str:
        if self.residual > TOLERANCE:
            return "under-costed (too good)"
        if self.residual < -TOLERANCE:
            return "over-costed (too weak)"
        return "on the curve"


def stick_cards(edition=None) -> list[tuple[str, str, str]]:
    """``(id, sticks, effect)`` of every card whose effect acts on sticks (the STK symbol), in id order."""
    edition = edition or default_edition()
    return sorted(
        (card.id, _letters(card), card.effect) for card in edition.cards.values() if card.effect in STICK_EFFECTS
    )


def _letters(card) -> str:
    brown, white, green = card.pool if hasattr(card, "pool") else sticks.as_pool(card.sticks)
    return "B" * brown + "W" * white + "G" * green


def reference_sets(edition=None) -> tuple[str, ...]:
    """The stick sets a card is called against: those of the stick cards (each card once)."""
    return tuple(letters for _, letters, _ in stick_cards(edition))


@cache
def _stick_value(letters: str, against: tuple[str, ...]) -> Fraction:
    total = Fraction(0)
    for theirs in against:
        for guide in (True, False):
            total += sticks.win_probability(letters, theirs, guide)
    return total / (2 * len(against))


def stick_value(letters: str, edition=None) -> Fraction:
    """Exact chance that the stick set ``letters`` (e.g. "BBW") wins a room called alone against one
    reference card, averaged over the reference cards and over being guide or not."""
    _check_letters(letters)
    return _stick_value(letters.upper(), reference_sets(edition))


@cache
def _effect_value(effect: str, against: tuple[str, ...]) -> Fraction:
    target = STICK_EFFECTS[effect]
    total = Fraction(0)
    for mine in against:
        for theirs in against:
            for guide in (True, False):
                total += sticks.win_probability_after(mine, theirs, guide, effect, target) - sticks.win_probability(
                    mine, theirs, guide
                )
    return total / (2 * len(against) ** 2)


def effect_value(effect: str, edition=None) -> Fraction:
    """Exact mean gain in room-winning chance for the player who activates ``effect`` right after
    the throw, over every pair of reference calls and both seats."""
    if effect not in STICK_EFFECTS:
        raise ValueError(f"{effect!r} is not a stick effect: choose one of {', '.join(STICK_EFFECTS)}")
    return _effect_value(effect, reference_sets(edition))


def fit_line(points: list[tuple[float, float]]) -> tuple[float, float]:
    """Least-squares ``(intercept, slope)`` of y on x (at least two distinct x)."""
    n = len(points)
    mean_x = sum(x for x, _ in points) / n
    mean_y = sum(y for _, y in points) / n
    spread = sum((x - mean_x) ** 2 for x, _ in points)
    if spread == 0:
        raise ValueError("a line needs cards with at least two different effect values")
    slope = sum((x - mean_x) * (y - mean_y) for x, y in points) / spread
    return mean_y - slope * mean_x, slope


def price_cards(edition=None, changes: dict[str, str] | None = None) -> list[PricedCard]:
    """Every stick card priced on the curve fitted through all of them (``changes`` maps a card id
    to new sticks, e.g. ``{"STK-09": "BGG"}``; the reference opponents stay the printed deck's)."""
    changes = {key: value.upper() for key, value in (changes or {}).items()}
    cards = [(card_id, changes.get(card_id, letters), effect) for card_id, letters, effect in stick_cards(edition)]
    values = [(effect_value(effect, edition), stick_value(letters, edition)) for _, letters, effect in cards]
    intercept, slope = fit_line([(float(x), float(y)) for x, y in values])
    return [
        PricedCard(
            card_id, letters, effect, x, y, intercept + slope * float(x), float(y) - intercept - slope * float(x)
        )
        for (card_id, letters, effect), (x, y) in zip(cards, values)
    ]


def _check_letters(letters) -> None:
    if not isinstance(letters, str) or not letters or set(letters.upper()) - set("BWG"):
        raise ValueError(f"{letters!r} is not a stick set: write letters B (brown), W (white), G (green), e.g. 'BWG'")
    if len(letters) > 6:
        raise ValueError(f"{letters!r} has {len(letters)} sticks; printed cards carry 2 or 3")


def residual_against_others(card_id: str, letters: str, edition=None) -> tuple[float, float]:
    """``(residual, curve value)`` of card ``card_id`` given the sticks ``letters``, against the
    line fitted through the *other* stick cards (so a change cannot move its own curve)."""
    cards = stick_cards(edition)
    effect = {cid: eff for cid, _, eff in cards}[card_id]
    others = [
        (float(effect_value(eff, edition)), float(stick_value(lets, edition)))
        for cid, lets, eff in cards
        if cid != card_id
    ]
    intercept, slope = fit_line(others)
    curve = intercept + slope * float(effect_value(effect, edition))
    return float(stick_value(letters, edition)) - curve, curve


def check_card_on_curve(card_id, letters, tolerance: float = TOLERANCE) -> Feedback:
    """The design target of session 07: give card ``card_id`` new sticks ``letters`` (2 or 3 sticks)
    so that its stick value lies within ``tolerance`` of the curve through the other stick cards.

    The verdict says how far the card is, in which direction, and what one stick more or less of
    each colour would do, never just "wrong"."""
    ids = [cid for cid, _, _ in stick_cards()]
    if card_id not in ids:
        return Feedback(f"Not yet: {card_id!r} is not a stick card; choose one of {', '.join(ids)}.", False)
    try:
        _check_letters(letters)
    except ValueError as problem:
        return Feedback(f"Not yet: {problem}.", False)
    letters = letters.upper()
    if not 2 <= len(letters) <= 3:
        return Feedback(
            f"Not yet: {letters} has {len(letters)} sticks; the printed cards carry 2 or 3, keep to that.", False
        )
    residual, curve = residual_against_others(card_id, letters)
    value = float(stick_value(letters))
    where = (
        f"{letters} wins a room {value:.1%} of the time; the curve through the other cards asks "
        f"{curve:.1%} for a card with this effect"
    )
    if abs(residual) <= tolerance:
        return Feedback(
            f"Right: {where}, {abs(residual) * 100:.1f} points away (tolerance {tolerance * 100:.0f}).", True
        )
    direction = "too strong (under-costed)" if residual > 0 else "too weak (over-costed)"
    return Feedback(
        f"Not yet: {where}, so the card is {abs(residual) * 100:.1f} points {direction}; "
        f"the tolerance is {tolerance * 100:.0f}. {_stick_hints(letters)}",
        False,
    )


def _stick_hints(letters: str) -> str:
    """What swapping one stick for another colour does to the stick value, in points."""
    base = float(stick_value(letters))
    moves = []
    for index, old in enumerate(dict.fromkeys(letters)):
        for new in "BWG":
            if new != old:
                changed = "".join(sorted(letters.replace(old, new, 1), key="BWG".index))
                moves.append(f"{old}->{new}: {(float(stick_value(changed)) - base) * 100:+.1f}")
    return "Swapping one stick changes the value by (points) " + ", ".join(moves) + "."


def edition_with(changes: dict[str, str], edition=None):
    """The teaching edition with the sticks of some cards changed (``{"STK-09": "WWW"}``), for paired games."""
    edition = edition or default_edition()
    records = [dict(record) for record in edition.source.get("cards", _packaged_cards())["cards"]]
    known = {record["id"] for record in records}
    for card_id, letters in changes.items():
        if card_id not in known:
            raise ValueError(f"there is no card {card_id!r} to change")
        _check_letters(letters)
    for record in records:
        if record["id"] in changes:
            record["sticks"] = changes[record["id"]].upper()
    from gamelib.nagaraja.edition import load_edition

    return load_edition(cards={"name": "Rebalanced teaching cards", "cards": records})


def _packaged_cards() -> dict:
    import json
    from importlib import resources

    return json.loads((resources.files("gamelib.nagaraja") / "data" / "cards.json").read_text(encoding="utf-8"))
