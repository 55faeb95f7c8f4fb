"""Final scoring (chakra.md#scoring): plenitude of harmonized chakras, alleviated blacks, the run bonus."""

from __future__ import annotations

from gamelib.chakra.components import COLOUR_NAMES, run_of

CHAKRA_NAMES = COLOUR_NAMES[1:]  # "RED" .. "PURPLE"


def run_length(harmonized) -> int:
    """Chakras harmonized consecutively from RED upwards (0 without RED), given their colour names."""
    return run_of({CHAKRA_NAMES.index(name) + 1 for name in harmonized if name in CHAKRA_NAMES})


def final_scores(plenitude: dict, players: list, rules=None) -> list[int]:
    """Each player's total (chakra.md#scoring).

    ``plenitude`` maps "RED" .. "PURPLE" to values; ``players`` is a list of
    ``{"harmonized": set of colour names, "earth": int}``. The bonus goes to every player
    whose run equals the best run M, provided M >= ``bonus_min_run`` (from ``rules``).
    """
    bonus = 2 if rules is None else rules.harmonization_bonus
    min_run = 1 if rules is None else rules.bonus_min_run
    for player in players:
        unknown = set(player["harmonized"]) - set(CHAKRA_NAMES)
        if unknown:
            raise ValueError(f"not chakra colours: {', '.join(sorted(unknown))}")
        missing = [name for name in player["harmonized"] if plenitude.get(name) is None]
        if missing:
            raise ValueError(f"no plenitude value given for {', '.join(sorted(missing))}")
    runs = [run_length(player["harmonized"]) for player in players]
    best = max(runs)
    return [
        sum(plenitude[name] for name in player["harmonized"])
        + player["earth"]
        + (bonus if run == best and best >= min_run else 0)
        for player, run in zip(players, runs)
    ]


def winners(scores: list) -> tuple:
    """Every seat with the highest score: ties share the victory (chakra.md#scoring)."""
    best = max(scores)
    return tuple(seat for seat, score in enumerate(scores) if score == best)
