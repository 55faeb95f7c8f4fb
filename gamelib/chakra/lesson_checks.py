"""Bug hunts for the Chakra lessons: a rule with one seeded mistake, and a check of the student's counter-example.

A bug hunt gives the student a *suspect* version of one rule, which agrees with the engine almost
everywhere. The student builds a case where the two disagree; the check runs both on that case
and says whether it exposes the bug. Any case that exposes it is right, so there is no answer to
look up. The suspect functions are meant to be called, not read: finding the case by thinking
about the rules is the exercise.
"""

from __future__ import annotations

from collections import deque

from gamelib.core import IllegalMove
from gamelib.exercises import Feedback
from gamelib.chakra.actions import Step, walk
from gamelib.chakra.components import BHAGYA, BLACK, CAPACITY, CHAKRAS, EARTH, level_id, level_word
from gamelib.chakra.planning import fewest_actions, solo_successors
from gamelib.chakra.positions import position
from gamelib.chakra.rules import State
from gamelib.chakra.view import describe_action
from gamelib.chakra.scoring import final_scores, run_length


# --------------------------------------------------------------------------- lesson 01: one step


def _suspect_walk(levels, origin: int, colour: int, direction: int, distance: int):
    """The walking rule with one seeded mistake (see the lesson's bug hunt)."""
    position_, left = origin, distance
    while True:
        position_ += direction
        if position_ >= BHAGYA:
            return -1, "nothing can move into the Bhagya"
        if position_ == EARTH:
            if colour != BLACK:
                return -1, "only black energy can enter the Earth"
            return EARTH, None
        contents = levels[position_]
        if len(contents) >= CAPACITY:
            if contents[0] == contents[1] == contents[2] == position_:
                continue
            return -1, f"{level_word(position_)} is full"
        left -= 1
        if left == 0:
            return position_, None


def _board_and_step(board: dict, step):
    state = position([board])
    step = step if isinstance(step, Step) else Step(*step)
    levels = state.players[0].levels
    if step.colour not in levels[step.level]:
        raise IllegalMove(f"the board has no such energy on {level_word(step.level)} to move")
    return levels, step


def _landing(result) -> str:
    level, reason = result
    return f"lands on {level_word(level)}" if reason is None else f"is illegal ({reason})"


def where_it_lands(board: dict, step) -> str:
    """What the engine's walking rule does with ``step`` on a board given as for ``position``."""
    levels, step = _board_and_step(board, step)
    return _landing(walk(levels, step.level, step.colour, step.direction, step.distance))


def suspect_lands(board: dict, step) -> str:
    """What the suspect walking rule does with the same step."""
    levels, step = _board_and_step(board, step)
    return _landing(_suspect_walk(levels, step.level, step.colour, step.direction, step.distance))


def check_walk_bug(board: dict, step) -> Feedback:
    """Right when ``step`` on ``board`` makes the suspect walking rule disagree with the engine's."""
    try:
        engine, suspect = where_it_lands(board, step), suspect_lands(board, step)
    except (IllegalMove, ValueError, TypeError) as error:
        return Feedback(
            f"Not yet: that case cannot be tried ({error}). Give a board such as {{'RED': 'K'}} and a step "
            "Step(level, colour, DOWN or UP, distance) of an energy on it.",
            False,
        )
    if engine != suspect:
        return Feedback(
            f"Found it: under the engine's rule this step {engine}; under the suspect rule it {suspect}. "
            "Now say in one sentence which rule the suspect forgets.",
            True,
        )
    return Feedback(
        f"Not yet: under both rules this step {engine}. Hint: the suspect agrees with the engine on most steps; "
        "try steps towards the ends of the track.",
        False,
    )


# --------------------------------------------------------------------------- lesson 02: the final count


def suspect_scores(plenitude: dict, players: list) -> list[int]:
    """Final scores with one seeded mistake (see the lesson's bug hunt); the same arguments as ``final_scores``."""
    runs = [run_length(player["harmonized"]) for player in players]
    best = max(runs)
    return [
        sum(plenitude[name] for name in player["harmonized"]) + player["earth"] + (2 if run == best else 0)
        for player, run in zip(players, runs)
    ]


def check_scoring_bug(plenitude: dict, players: list) -> Feedback:
    """Right when the table (``plenitude``, ``players``) makes ``suspect_scores`` disagree with ``final_scores``."""
    try:
        engine = final_scores(plenitude, players)
        suspect = suspect_scores(plenitude, players)
    except (KeyError, ValueError, TypeError) as error:
        return Feedback(
            f"Not yet: that table cannot be scored ({error!r}). Give every harmonized chakra a plenitude "
            "value and each player {'harmonized': {...}, 'earth': n}.",
            False,
        )
    if engine != suspect:
        return Feedback(
            f"Found it: the engine scores {engine}, the suspect {suspect}. Now say in one sentence which "
            "part of the rule the suspect gets wrong.",
            True,
        )
    return Feedback(
        f"Not yet: both score this table {engine}. Hint: the suspect adds plenitude and Earth correctly; "
        "think about who receives the +2.",
        False,
    )


# --------------------------------------------------------------------------- lesson 03: the planner

PLAN_LIMIT = 6  # both planners look at most this many actions ahead, as planning.fewest_actions does


def _suspect_plan(state: State, chakra: int) -> list | None:
    """The engine's breadth-first planner with one seeded mistake (see the lesson's bug hunt)."""
    board, bag = state.players[state.to_move], state.bag
    if board.harmonized(chakra):
        return []
    seen = {(board.levels, board.earth, bag)}
    frontier = deque([(board, bag, ())])
    while frontier:
        board, bag, plan = frontier.popleft()
        if len(plan) >= PLAN_LIMIT:
            continue
        for action, next_board, next_bag in solo_successors(board, bag, state.rules):
            if next_board.harmonized(chakra):
                return list(plan + (action,))
            key = (next_board.levels, next_board.earth, next_bag)
            if key not in seen:
                seen.add(key)
                frontier.append((next_board, next_bag, plan + (action,)))
    return None


def _puzzle(puzzle, chakra) -> tuple[State, int]:
    state = puzzle if isinstance(puzzle, State) else position([puzzle, {}] if isinstance(puzzle, dict) else puzzle)
    chakra = level_id(chakra)
    if chakra not in CHAKRAS:
        raise ValueError(f"{level_word(chakra)} is not a chakra")
    return state, chakra


def _length(plan) -> str:
    return f"no plan of at most {PLAN_LIMIT} actions" if plan is None else f"{len(plan)} action(s)"


def engine_plan(puzzle, chakra) -> list | None:
    """The engine's shortest plan (``planning.fewest_actions``) for the player to act; a puzzle is a
    position, or a board given as for ``position``."""
    state, chakra = _puzzle(puzzle, chakra)
    return fewest_actions(state, chakra, max_actions=PLAN_LIMIT)


def suspect_plan(puzzle, chakra) -> list | None:
    """The suspect planner's plan for the same puzzle."""
    return _suspect_plan(*_puzzle(puzzle, chakra))


def describe_plan(plan) -> str:
    """A plan as a player says it, one action after another (or why there is none)."""
    if plan is None:
        return f"no plan of at most {PLAN_LIMIT} actions"
    return "; ".join(describe_action(action) for action in plan) or "nothing to do: already harmonized"


def check_planner_bug(puzzle, chakra) -> Feedback:
    """Right when the suspect planner and the engine's disagree on the fewest actions for ``puzzle``."""
    try:
        engine, suspect = engine_plan(puzzle, chakra), suspect_plan(puzzle, chakra)
    except (IllegalMove, ValueError, TypeError, KeyError, AttributeError) as error:
        return Feedback(
            f"Not yet: that puzzle cannot be tried ({error}). Give a position such as "
            "position([{'GREEN': 'Y', 'YELLOW': 'Y Y'}, {}], maya=MAYA) and a chakra such as YELLOW.",
            False,
        )
    if engine == []:
        return Feedback(
            "Not yet: that chakra is already harmonized, so both planners answer 0 actions at once. "
            "Hint: give a puzzle that needs some actions.",
            False,
        )
    if engine is None and suspect is None:
        return Feedback(
            f"Not yet: neither planner finds a plan of at most {PLAN_LIMIT} actions. Hint: give a puzzle "
            "nearer to harmony, like those of section 2.",
            False,
        )
    if (engine is None) != (suspect is None) or len(engine) != len(suspect):
        return Feedback(
            f"Found it: the engine's planner needs {_length(engine)}; the suspect finds {_length(suspect)}. "
            "Now say in one sentence what the suspect's seen set fails to tell apart, and why that "
            "loses the shortest plan.",
            True,
        )
    return Feedback(
        f"Not yet: both planners find a plan of {len(engine)} action(s). Hint: the suspect tries the same "
        "actions and stops at the first harmonized position; its mistake is in how it tells two positions "
        "apart. Which action changes a board without moving any energy?",
        False,
    )
