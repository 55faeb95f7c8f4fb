"""Chakra's move listing against the listing before issue 27, in the same process.

Run: ``.venv/bin/python bench/bench_chakra_listing.py`` (``--quick`` for a short run).

The reference is the listing as it was at commit ``ed3ee47`` (kept verbatim below: ``reference_search``
is the old ``actions._search_steps``). Today's ``legal_actions`` runs the same search on level codes
(issue 26: see below), and keeps the last few listings in a small ``functools.lru_cache`` keyed by what a listing reads (``actions._listing``: the
board of the player to move, the Maya, the bag, the rules), so a position listed again is not searched
again. The bench clears that cache before every run.

It measures, as the median CPU time of several runs, random games (default ``max_rounds=200``, the
length random play reaches, and ``max_rounds=20``), the same games with both listings (asserted identical):
* listing each position once, as a player does: what the cache costs when it never hits;
* listing each position twice, as the framework adapters' random-play checks do (the adapter lists it,
  then the check lists it again through ``State.legal_actions``, tests/test_frameworks.py).

Findings kept here (issue 27): a cache of every (levels, space) listing (8,192 entries) hit 63-70% of
the listings in 200-round games, but the repeats are the cheap listings of jammed boards, and its
hundreds of thousands of long-lived objects made every full garbage collection slower: random games
got 1.4x slower, 1.0x with the collector off. A cache of single-step lists on the intermediate boards of
the search hit 30%. A search with the walk written out and the colour filters as comprehensions was
1.4x slower than the reference. None of these is kept.

Kept since (issue 26): the search edits a list of level codes (``components.level_codes``: each level's
contents numbered, with tables for its size, colours, counts and the contents less or plus one energy, as the
greedy bot's search already did) instead of lists of energies, with the walk written out but no
comprehensions; and D1x3's third steps after two steps are reused when the same two steps come in the other
order (the same board, the same energies moved). By CPU instructions, a random game is 19-21% cheaper.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from pathlib import Path
import sys

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gamelib.chakra import Rules, new_game  # noqa: E402
from gamelib.chakra import actions  # noqa: E402
from gamelib.chakra.actions import (  # noqa: E402
    _STEP_TABLE,
    BHAGYA,
    BLACK,
    EARTH,
    SPACE_PATTERNS,
    SPACES,
    Channel,
    landing_of,
    meditate_actions,
    receive_actions,
    swap_colours,
)


# --------------------------------------------------------------------------- the reference (commit ed3ee47)


def reference_legal_actions(state) -> list:
    """``legal_actions`` as at commit ed3ee47: every space searched afresh on a mutable copy of the board."""
    board = state.players[state.to_move]
    return receive_actions(state, board) + reference_channel_actions(state, board) + meditate_actions(state, board)


def reference_channel_actions(state, board) -> list:
    if board.reserve < 1:
        return []
    found_actions = []
    if any(board.levels):
        working = [list(contents) for contents in board.levels]
        new = tuple.__new__
        for space in SPACES[:-1]:
            if space not in board.spaces:
                found = []
                for pattern in SPACE_PATTERNS[space]:
                    reference_search(working, pattern, 0, (), {}, found)
                found.sort()
                found_actions += [new(Channel, (space, steps, None)) for steps in found]
    if "SWAP" not in board.spaces:
        found_actions.extend(
            tuple.__new__(
                Channel,
                (
                    "SWAP",
                    (),
                    colour,
                ),
            )
            for colour in swap_colours(state, board)
        )
    return found_actions


def reference_search(levels, pattern, depth, prefix, landed, found) -> None:
    """Depth-first search over the steps of one pattern; appends every complete step tuple to ``found``.

    ``levels`` is a mutable copy of the board (lists), changed and restored around each recursion;
    ``landed`` counts, per (level, colour), the energies earlier steps put there (chakra.md#channel).
    """
    direction, distance = pattern[depth]
    last = depth + 1 == len(pattern)
    table = _STEP_TABLE
    for origin in range(1, BHAGYA + 1):
        contents = levels[origin]
        if not contents:
            continue
        if (
            origin != BHAGYA
            and len(contents) == 3
            and contents[0] == origin
            and contents[1] == origin
            and contents[2] == origin
        ):
            continue  # locked (chakra.md#movement)
        position = landing_of(levels, origin, direction, distance)
        if position < 0:
            continue
        if position == EARTH:
            if BLACK not in contents:
                continue
            colours = (BLACK,)
        elif len(contents) == 1:
            colours = (contents[0],)
        else:
            colours = set(contents)
        step_row = table[origin]
        for colour in colours:
            if depth and contents.count(colour) <= landed.get(origin * 8 + colour, 0):
                continue  # every energy of this colour here has already moved (chakra.md#channel)
            steps = prefix + (step_row[colour][direction][distance],)
            if last:
                found.append(steps)
                continue
            contents.remove(colour)
            if position != EARTH:
                levels[position].append(colour)
            key = position * 8 + colour
            landed[key] = landed.get(key, 0) + 1
            reference_search(levels, pattern, depth + 1, steps, landed, found)
            landed[key] -= 1
            if position != EARTH:
                levels[position].remove(colour)
            contents.append(colour)


# --------------------------------------------------------------------------- timing


def load() -> str:
    return f"load {os.getloadavg()[0]:.1f}"


def clear_caches() -> None:
    actions._listing.cache_clear()


def median_time(function, runs: int) -> float:
    """Median CPU time of ``function`` over ``runs`` calls, the caches cleared before each."""
    times = []
    for _ in range(runs):
        clear_caches()
        start = time.process_time()
        function()
        times.append(time.process_time() - start)
    return statistics.median(times)


def random_game(players: int, seed: int, rules: Rules, listing) -> tuple:
    """A seeded random game with the moves chosen from ``listing(state)``: its decision positions and final state."""
    state = new_game(seed=seed, players=players, rules=rules)
    rng = random.Random(seed)
    positions = []
    while not state.is_terminal:
        positions.append(state)
        state = state.apply(rng.choice(listing(state)))
    return positions, state


def bench(players: int, max_rounds: int, games: int, runs: int) -> None:
    rules = Rules(max_rounds=max_rounds)
    game_seeds = range(1000 * players, 1000 * players + games)

    def play(listing):
        return [random_game(players, seed, rules, listing) for seed in game_seeds]

    ours = play(lambda state: state.legal_actions())
    theirs = play(reference_legal_actions)
    assert [final.to_json() for _, final in ours] == [final.to_json() for _, final in theirs]  # the same games
    positions = [state for game_positions, _ in ours for state in game_positions]
    for state in positions[::7]:
        assert state.legal_actions() == reference_legal_actions(state)
    decisions = len(positions)

    def twice(listing):
        def list_twice(state):
            listing(state)
            return listing(state)

        return list_twice

    for label, ours_listing, their_listing in (
        ("listed once", lambda state: state.legal_actions(), reference_legal_actions),
        ("listed twice", twice(lambda state: state.legal_actions()), twice(reference_legal_actions)),
    ):
        new = median_time(lambda listing=ours_listing: play(listing), runs)
        old = median_time(lambda listing=their_listing: play(listing), runs)
        print(
            f"{players} players, max_rounds {max_rounds}, {games} random games ({decisions / games:.0f} decisions "
            f"each), each position {label}: {new / games * 1e3:.1f} ms a game, reference {old / games * 1e3:.1f} ms: "
            f"{old / new:.2f}x (median of {runs} runs, identical games; {load()})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games and runs")
    args = parser.parse_args()
    runs = 3 if args.quick else 5
    for max_rounds, games in ((200, 3 if args.quick else 10), (20, 20 if args.quick else 100)):
        for players in (2, 3, 4):
            bench(players, max_rounds, games, runs)


if __name__ == "__main__":
    main()
