"""The solver's shipped records: the exact whole-game values of the bots (``data/solver_bots.json``) and of
the single variants under optimal play (``data/solver_variants.json``), read, checked and written.

Reading checks each file against the package's checksums (:mod:`gamelib.datafiles`) and each value
(a fraction p/q between 0 and 1 that its decimal confirms, no bot above perfect play): a damaged file
raises :class:`~gamelib.pangu.solver.tables.DamagedTable` naming it. The numba builders write through
``record_variant``, ``record_bot`` and ``record_bot_missing``, under the records' lock, and rewrite the
checksums. See docs/pangu_solver.md, "The shipped data".
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

from gamelib import datafiles
from gamelib.pangu.rules import SINGLE_VARIANTS
from gamelib.pangu.solver.tables import DamagedTable, records_lock

ONE = Fraction(1)
VARIANTS_COMMAND = "python -m gamelib.pangu.solver optimal --variant NAME --record"
BOTS_COMMAND = "python -m gamelib.pangu.solver bot --policy NAME [--variant NAME] --record"


BOTS_NAME, VARIANTS_NAME = "pangu/data/solver_bots.json", "pangu/data/solver_variants.json"  # in the manifest
BOTS_PATH, VARIANTS_PATH = datafiles.PACKAGE / BOTS_NAME, datafiles.PACKAGE / VARIANTS_NAME
BOT_NAMES = ("random", "greedy", "lookahead", "optimal")


def records() -> dict:
    """The solver's shipped records as they are written, checked against the package's checksums:
    ``{"bots": data/solver_bots.json, "variants": data/solver_variants.json}`` (each value with its
    command, and the wall and processor time of the run where one was timed)."""
    return {
        "bots": datafiles.read_json(BOTS_NAME, datafiles.PACKAGE / BOTS_NAME, DamagedTable),
        "variants": datafiles.read_json(VARIANTS_NAME, datafiles.PACKAGE / VARIANTS_NAME, DamagedTable),
    }


def _rules_name(rules) -> str | None:
    """The ``SINGLE_VARIANTS`` name of ``rules`` (None: the defaults; a name is accepted as is)."""
    if rules is None:
        return "defaults"
    if isinstance(rules, str):
        return rules
    return next((name for name, variant in SINGLE_VARIANTS.items() if variant == rules), None)


def _recorded_chance(entry: dict, path: Path, where: str) -> Fraction:
    """A recorded chance of winning: its "value" p/q with 0 <= p/q <= 1, which its "decimal" (written
    beside it, to 10 places) confirms; anything else is a damaged file."""
    text, decimal = entry.get("value"), entry.get("decimal")
    exact = isinstance(text, str) and re.fullmatch(r"[0-9]{1,60}/0*[1-9][0-9]{0,59}", text)  # no zero denominator
    value = Fraction(text) if exact else None
    if value is None or not 0 <= value <= 1:
        raise DamagedTable(
            f"the solver's record {path} is damaged: {where} should be a chance p/q between 0 and 1, "
            f"not {str(text)[:40]!r}"
        )
    if type(decimal) is not float or abs(float(value) - decimal) > 1e-10:
        raise DamagedTable(
            f"the solver's record {path} is damaged: {where} is {text}, but its decimal says {str(decimal)[:20]}"
        )
    return value


def _mapping(value, path: Path, where: str) -> dict:
    """``value`` if it is a JSON object, else the file is damaged."""
    if not isinstance(value, dict):
        raise DamagedTable(f"the solver's record {path} is damaged: {where} should be a JSON object")
    return value


def _reasons(value, path: Path, where: str) -> dict:
    """``{name: sentence}`` (why a value is missing), every entry text."""
    reasons = _mapping(value, path, where)
    if not all(isinstance(reason, str) for reason in reasons.values()):
        raise DamagedTable(f"the solver's record {path} is damaged: every entry of {where} should be a sentence")
    return reasons


def _bots_record() -> tuple[Path, str, dict]:
    """The bots' record (``data/solver_bots.json``), checked: where it was read, its command and
    ``{rules name: entry}``."""
    path = datafiles.PACKAGE / BOTS_NAME
    data = _mapping(datafiles.read_json(BOTS_NAME, path, DamagedTable), path, "the file")
    command = data.get("command")
    if not isinstance(command, str):
        raise DamagedTable(f"the solver's record {path} is damaged: it names no command")
    return path, command, _mapping(data.get("rules"), path, "'rules'")


def _bot_entries(rules) -> tuple[dict, dict]:
    """``({bot: Fraction}, {bot: reason})`` for one rule set, from ``data/solver_bots.json`` (and the optimal
    value of a variant from ``data/solver_variants.json``)."""
    name = _rules_name(rules)
    path, command, recorded = _bots_record()
    entry = _mapping(recorded.get(name, {}) if name else {}, path, f"the entry of {name}")
    values = {}
    for bot, item in _mapping(entry.get("values", {}), path, f"{name}'s values").items():
        where = f"{name}'s value of the {bot} bot"
        values[bot] = _recorded_chance(_mapping(item, path, where), path, where)
    missing = dict(_reasons(entry.get("missing", {}), path, f"{name}'s missing values"))
    if "optimal" not in values and name:
        variant = variant_values().get(name)
        if isinstance(variant, Fraction):
            values["optimal"] = variant
            missing.pop("optimal", None)
    beating = [bot for bot, value in values.items() if value > values.get("optimal", ONE)]
    if beating:  # no bot wins more often than perfect play
        raise DamagedTable(
            f"the solver's record {path} is damaged: the {beating[0]} bot's value under {name} is above perfect play's"
        )
    for bot in BOT_NAMES:
        if bot not in values and bot not in missing:
            missing[bot] = (
                f"no exact value of the {bot} bot is recorded for {rules if name is None else name}; "
                f"{command} computes it where supported"
            )
    return values, missing


def bot_values(rules=None) -> dict[str, Fraction]:
    """The exact whole-game chance of winning of each bot whose value is recorded (keys among
    "random", "greedy", "lookahead", "optimal"), under ``rules`` (a ``Rules``, a ``SINGLE_VARIANTS``
    name, or None for the defaults). Computed over every deal and roll, not simulated."""
    values, _ = _bot_entries(rules)
    return values


def bot_values_missing(rules=None) -> dict[str, str]:
    """Why each bot absent from :func:`bot_values` has no exact value under ``rules``."""
    _, missing = _bot_entries(rules)
    return missing


# --------------------------------------------------------------------------- single-variant whole-game values


def variant_values(path: Path | None = None) -> dict[str, Fraction | str]:
    """Each ``SINGLE_VARIANTS`` entry's whole-game optimal value, as recorded by
    ``python -m gamelib.pangu.solver optimal --variant NAME --record`` (numba, not at import).

    Maps a variant's name to its exact ``Fraction``, or to a string saying why it is not an exact
    value: the reason it is out of reach, or for an approximation, "approximate: ..." with its
    float value and error bound. The timings and thread counts are in the file itself. ``path``
    reads a copy standing for the shipped record (checked against the package's checksums all the same).
    """
    path = datafiles.PACKAGE / VARIANTS_NAME if path is None else Path(path)
    data = _mapping(datafiles.read_json(VARIANTS_NAME, path, DamagedTable), path, "the file")
    values: dict[str, Fraction | str] = {}
    for name, entry in _mapping(data.get("variants", {}), path, "'variants'").items():
        entry = _mapping(entry, path, f"the entry of {name}")
        if entry.get("approximate"):
            decimal, bound = entry.get("decimal"), entry.get("error_bound")
            if not all(type(x) is float and 0 <= x <= 1 for x in (decimal, bound)) or not isinstance(
                entry["approximate"], str
            ):
                raise DamagedTable(
                    f"the solver's record {path} is damaged: {name}'s approximation needs a decimal, "
                    "an error bound and a sentence"
                )
            values[name] = f"approximate: {decimal} (error below {bound:.1e}); {entry['approximate']}"
        else:
            values[name] = _recorded_chance(entry, path, f"the value of {name}")
    for name, reason in _reasons(data.get("out_of_reach", {}), path, "'out_of_reach'").items():
        values.setdefault(name, reason)
    return values


# --------------------------------------------------------------------------- writing (the numba builders)


def _rewrite(path: Path, change, sort_keys: bool = False) -> None:
    """Apply ``change`` to the JSON record at ``path`` (``{}`` if absent) under the lock, then list the
    new checksums: parallel builds may record into the same file."""
    with records_lock():
        data = json.loads(path.read_text()) if path.exists() else {}
        change(data)
        path.write_text(json.dumps(data, indent=1, sort_keys=sort_keys) + "\n")
        datafiles.write_manifest()


def record_variant(name: str, entry: dict, out_of_reach: dict, path: Path = VARIANTS_PATH) -> None:
    """Store a variant's whole-game entry (its value or approximation, and the run's times) and the reasons
    the builder gives for the variants it cannot solve."""

    def change(data):
        data.setdefault("command", VARIANTS_COMMAND)
        data["out_of_reach"] = {**data.get("out_of_reach", {}), **out_of_reach}
        data.setdefault("variants", {})[name] = entry
        data["out_of_reach"].pop(name, None)

    _rewrite(path, change)


def record_bot(
    rules_name: str,
    policy: str,
    value: Fraction,
    wall: float,
    cpu: float,
    command: str,
    threads: int,
    path: Path = BOTS_PATH,
) -> None:
    """Store a bot's exact value under one rules name (read back by :func:`bot_values`)."""

    def change(data):
        data.setdefault("command", BOTS_COMMAND)
        entry = {
            "value": str(value),
            "decimal": round(float(value), 10),
            "wall_seconds": round(wall, 1),
            "cpu_seconds": round(cpu, 1),
            "threads": threads,
            "command": command,
        }
        data.setdefault("rules", {}).setdefault(rules_name, {}).setdefault("values", {})[policy] = entry
        data["rules"][rules_name].get("missing", {}).pop(policy, None)

    _rewrite(path, change, sort_keys=True)


def record_bot_missing(rules_name: str, policy: str, reason: str, path: Path = BOTS_PATH) -> None:
    """Store why a bot has no exact value under one rules name (read back by :func:`bot_values_missing`)."""

    def change(data):
        entry = data.setdefault("rules", {}).setdefault(rules_name, {})
        if policy not in entry.get("values", {}):
            entry.setdefault("missing", {})[policy] = reason

    _rewrite(path, change, sort_keys=True)
