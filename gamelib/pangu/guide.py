"""Commentary for the Pangu lessons: what each card costs now, what the bots would do, what each
move cost in chance of winning, and the narrated board of the guided game (:class:`GuidedBoard`).

Everything here reads the engine (costs, recoveries, the lookahead's exact values) and the exact
solver; nothing decides a rule.
"""

from __future__ import annotations


from gamelib import core
from gamelib.core import IllegalMove, Match
from gamelib.pangu import odds
from gamelib.pangu.actions import ONGOING, Action
from gamelib.pangu.board import Evaluator, PanguBoard, _as_cell, _karma_text, percent, points, review_move, short_name
from gamelib.pangu.bots import greedy_policy, lookahead_policy, lookahead_values
from gamelib.pangu.rules import State, new_game


def options(state: State) -> str:
    """One line per revealed card: its numbers, what each die costs, and the cheaper die."""
    lines = [f"Karma {state.karma}, dice blue {state.roll[0]} and white {state.roll[1]}:"]
    for card_id in state.revealed:
        card = state.cards[card_id]
        costs = []
        for die in ("BLUE", "WHITE"):
            cost = state.cost(card_id, die)
            number = card.number(die)
            costs.append(
                f"{die.lower()} {state.die_value(die)} vs {number}: "
                + (f"pay {cost}" if cost is not None else "forbidden (equal)")
            )
        cheapest = state.cheapest_die(card_id)
        best = f"-> {cheapest[0].lower()} die, pay {cheapest[1]}" if cheapest else "-> blocked by this roll"
        lines.append(f"  {card_id} {card.name:<9} (B{card.blue} W{card.white}): {'; '.join(costs)} {best}")
    return "\n".join(lines)


def bots_view(state: State, yours: Action | None = None) -> str:
    """What greedy and lookahead would play, each with its exact expected Karma at the end of the turn."""
    values = dict(lookahead_values(state))
    lines = []
    if yours is not None:
        lines.append(f"You played      {yours}: expected Karma at the end of the turn {_number(values[yours])}")
    greedy, lookahead = greedy_policy(state), lookahead_policy(state)
    preview = state.preview(greedy)
    lines.append(
        f"Greedy plays    {greedy} (rec {preview['rec']} - cost {preview['cost']} = "
        f"{preview['rec'] - preview['cost']:+d} now): expected {_number(values[greedy])}"
    )
    lines.append(
        f"Lookahead plays {lookahead}: expected {_number(values[lookahead])} (the most of any move; "
        "the best chance of winning can lie elsewhere)"
    )
    return "\n".join(lines)


def review(board_or_match, evaluator: Evaluator | None = None) -> str:
    """Every move played on a board (or match), judged by its cost in chance of winning.

    Each line names the move, what it cost against the best move of its position ("−2.7 points;
    best was A5 on (2,3)"), or, before turn 3 without the solver's tables, its cost in the
    lookahead's expected Karma. The last line adds up the exactly judged losses.
    """
    if isinstance(board_or_match, PanguBoard):
        match, evaluate = board_or_match.match, evaluator or board_or_match.evaluate
    else:
        match, evaluate = board_or_match, evaluator or Evaluator()
    states = match.states[: match.index + 1]
    if not match.actions:
        return "No move on the board yet: click a card and a cell, then run this cell again."
    lines, lost = [], 0
    for i, action in enumerate(match.actions):
        judged = review_move(evaluate(states[i]), states[i], action)
        lines.append(f"{i + 1:2}. turn {states[i].turn}: {judged.text}")
        lost += judged.cost or 0
    final = states[-1]
    outcome = {"WON": f"won with Karma {final.karma}", "LOST": f"lost (Karma {final.karma})"}.get(
        final.status, f"still going (turn {final.turn}, Karma {final.karma})"
    )
    lines.append(
        f"The game is {outcome}. The moves judged exactly gave away {points(lost)[1:]} of winning chance in total."
        if lost
        else f"The game is {outcome}. No exactly judged move lost any chance."
    )
    return "\n".join(lines)


def _number(value) -> str:
    return f"{float(value):.2f}" if value.denominator != 1 else str(value.numerator)


def follow(match: Match, line: list[Action]) -> str:
    """Play the next move of ``line`` on ``match`` (first undoing any moves that left the line)."""
    while match.actions != line[: match.index]:  # the student clicked off the line: go back to it
        match.undo()
    if match.index >= len(line) or match.state.status != ONGOING:
        return "The guided game is over."
    before = len(match.state.log)
    match.apply(line[match.index])
    return "\n".join(str(event) for event in match.state.log[before:])


def line_of(state: State, policy=lookahead_policy) -> list[Action]:
    """The moves ``policy`` plays from ``state`` to the end of the game."""
    actions: list[Action] = []
    core.play(state, policy, on_action=lambda _state, action: actions.append(action))
    return actions


def hint_line_wins(seed: int, rules=None) -> bool:
    """Does following the lookahead's hints win the deal of ``seed`` (its shuffle and its rolls)?"""
    return core.play(new_game(seed=seed, rules=rules), lookahead_policy, seed=seed).status == "WON"


def first_deal_the_hints_win(start: int, rules=None) -> int:
    """The first seed from ``start`` on whose deal the lookahead's hints win (a fair free-play deal)."""
    seed = start
    while not hint_line_wins(seed, rules):
        seed += 1
    return seed


# --------------------------------------------------------------------------- the narrated board


def option_rows(state: State, evaluation, marks: dict | None = None) -> list[dict]:
    """Every legal option of ``state`` as a table row: card, die, cell, cost, recovery, values.

    ``recovery`` counts the matched half circles; ``kept`` is what the cap lets back; "end Karma"
    is the lookahead's exact expected Karma at the end of the turn; "chance" is the exact optimal
    chance of winning after the move (None before turn 3 without the solver's tables).
    ``marks`` maps an action to labels such as "guided" or "yours".
    """
    marks = marks or {}
    known = state.with_explicit_chance()  # the preview stops at the next draw or roll: no peeking
    rows = []
    for action in state.legal_actions():
        preview = known.preview(action)
        chance = evaluation.values.get(action)
        rows.append(
            {
                "card": action.card,
                "die": action.die.lower(),
                "cell": f"({action.cell[0]},{action.cell[1]})" + (" turned" if action.orientation == 180 else ""),
                "cost": preview["cost"],
                "recovery": preview["rec"],
                "kept": preview["gain"],
                "end_karma": _karma_text(evaluation.karma[action]) if action in evaluation.karma else "",
                "chance": percent(chance) if chance is not None else "",
                "loss": points(evaluation.win - chance) if chance is not None and chance != evaluation.win else "",
                "best": action == evaluation.best,
                "marks": list(marks.get(action, [])),
                "sort": (-(chance if chance is not None else -1), -evaluation.karma.get(action, 0)),
            }
        )
    rows.sort(key=lambda row: row.pop("sort"))
    return rows


class GuidedBoard(PanguBoard):
    """The guided game on the board: a line of moves narrated step by step.

    ``narration`` maps a position (0 = the start, i = after the line's first i moves) to a dict
    with ``title``, ``text`` (the explanation of the move the line plays there) and optionally
    ``predict`` (a question: the board then hides the answer until the student gives a prediction
    by picking a card and clicking a cell, or presses "show the answer"). The history buttons move
    text and position together. A move the student plays (outside a prediction) leaves the line:
    the board then comments on each of the student's moves by its cost in chance of winning,
    until "back to the guided game" returns to where they left.
    """

    def __init__(
        self,
        start: State,
        line: list[Action],
        narration: dict | list,
        *,
        label: str = "guided",
        evaluator: Evaluator | None = None,
        warm: bool = True,
    ):
        self.line = list(line)
        self.narration = _narration_by_step(narration, len(self.line))
        self.predictions: dict[int, Action] = {}
        self.revealed: set[int] = set()
        match = Match.replay(start, self.line)
        match.to_start()
        evaluator = evaluator or Evaluator()
        if warm:  # the line's own positions exactly, even before turn 3 where that takes seconds
            evaluator.warm(match.states)
        super().__init__(match, label=label, hints=True, evaluator=evaluator)

    # ------------------------------------------------------------ where we are
    def left_line_at(self) -> int | None:
        """The move number where the game shown left the guided line (None while on it)."""
        actions = self.match.actions
        for i, action in enumerate(actions):
            if i >= len(self.line) or action != self.line[i]:
                return i
        return None

    def awaiting_prediction(self) -> bool:
        step = self.match.index
        return (
            self.left_line_at() is None
            and bool(self.narration.get(step, {}).get("predict"))
            and step not in self.revealed
            and self.match.state.status == ONGOING
        )

    # ------------------------------------------------------------ picks
    def handle_pick(self, pick: dict) -> None:
        kind = pick.get("kind")
        if kind == "reveal":
            self.revealed.add(self.match.index)
            self.refresh()
            return
        if kind == "rejoin":
            self.rejoin()
            return
        if kind == "play_prediction":
            self.play_prediction()
            return
        if kind in ("cell", "place") and self.awaiting_prediction():
            self.predict(self._picked_action(pick))
            return
        super().handle_pick(pick)
        self._restore_line_future()

    def _picked_action(self, pick: dict) -> Action:
        state = self.match.state
        if pick.get("kind") == "place":
            card = pick.get("card")
            cheapest = state.cheapest_die(card) if card in state.revealed else None
            die = pick.get("die") or (cheapest[0] if cheapest else "BLUE")
            return Action(card, die, _as_cell(pick.get("cell")), pick.get("orientation", 0))
        sel = self.selection
        if sel["card"] is None:
            raise IllegalMove("pick one of the revealed cards first, then the cell where you predict it goes")
        return Action(sel["card"], sel["die"], _as_cell(pick.get("cell")), sel["orientation"])

    def predict(self, action: Action) -> None:
        """Record the student's prediction at this step (it must be legal) and show the answer."""
        self.match.state.apply(action)  # the engine's reason if it is illegal; nothing is played
        self.predictions[self.match.index] = action
        self.revealed.add(self.match.index)
        self.refresh("Your prediction is noted: the answer is shown above the board. ▶ goes on with the guided game.")

    def play_prediction(self) -> None:
        """Play the prediction of this step for real: the game leaves the guided line."""
        action = self.predictions.get(self.match.index)
        if action is None:
            raise IllegalMove("there is no prediction at this step: pick a card and click a cell")
        self.match.apply(action)
        self._restore_line_future()

    def rejoin(self) -> None:
        """Go back to the guided line, at the position where the student left it."""
        left = self.left_line_at()
        if left is None:
            raise IllegalMove("the board is on the guided line already")
        self.match.jump(left)
        self._restore_line_future()

    def _restore_line_future(self) -> None:
        """While the game shown is on the line, keep the rest of the line ahead of it (forward works)."""
        if self.left_line_at() is not None:
            return
        recorded = self.match._actions  # the whole recorded history, also ahead of the position shown
        if recorded == self.line:
            return
        index = self.match.index
        for action in self.line[index:]:
            self.match.apply(action)
        self.match.jump(index)

    # ------------------------------------------------------------ what the page draws
    def state_json(self, state: State) -> dict:
        data = super().state_json(state)
        awaiting = self.awaiting_prediction()
        if awaiting:  # the evaluation would give the answer away
            for key in ("evaluation", "best_action", "best_card", "hint_list"):
                data.pop(key, None)
        data["narration"] = self._narration_json(state, awaiting)
        return data

    def legal_json(self, state: State) -> list:
        moves = super().legal_json(state)
        if self.awaiting_prediction():
            for move in moves:
                for key in ("hint", "hint_text", "win", "win_text", "win_fraction"):
                    move.pop(key, None)
        return moves

    def _narration_json(self, state: State, awaiting: bool) -> dict:
        index = self.match.index
        left = self.left_line_at()
        evaluation = self.evaluation(state)
        data = {"step": index, "steps": len(self.line), "on_line": left is None, "awaiting": awaiting}
        if left is None:
            entry = self.narration.get(index, {})
            guided = self.line[index] if index < len(self.line) else None
            data.update(
                title=entry.get("title", ""),
                predict=entry.get("predict", ""),
                text="" if awaiting else entry.get("text", ""),
                move="" if awaiting or guided is None else f"The guided move: {guided}",
                why="" if awaiting or guided is None else why_not_best(state, evaluation, guided),
            )
            marks = {guided: ["guided"]} if guided else {}
            prediction = self.predictions.get(index)
            if prediction is not None and not awaiting:
                marks.setdefault(prediction, []).append("yours")
                data["prediction"] = self._judge_prediction(state, evaluation, prediction, guided)
                data["can_play_prediction"] = prediction != guided
        else:
            data.update(
                title=f"Your own line (you left the guided game at move {left + 1})",
                commentary=self._commentary(left),
                left_at=left,
                text="" if state.status == ONGOING else self._ending(state),
            )
            marks = {}
        data["table"] = [] if awaiting or state.status != ONGOING else option_rows(state, evaluation, marks)
        data["exact"] = evaluation.win is not None
        data["note"] = evaluation.note
        return data

    @staticmethod
    def _ending(state: State) -> str:
        return f"Your line {'won' if state.status == 'WON' else 'lost'} with Karma {state.karma}."

    def _judge_prediction(self, state: State, evaluation, prediction: Action, guided: Action | None) -> str:
        judged = review_move(evaluation, state, prediction).text
        same = (
            " It is the guided line's move."
            if prediction == guided
            else (f" The guided line plays {short_name(guided, state)}." if guided else "")
        )
        if guided and prediction != guided and why_not_best(state, evaluation, guided):
            same += " Why it does not play the best move is said above."
        return f"Your prediction, {judged}.{same}"

    def _commentary(self, left: int) -> list[str]:
        states, actions = self.match.states, self.match.actions
        return [
            f"Your move {i + 1}, {review_move(self.evaluate(states[i]), states[i], actions[i]).text}"
            for i in range(left, len(actions))
        ]


def why_not_best(state: State, evaluation, guided: Action) -> str:
    """Why the guided line's move is not the solver's best move here ("" when it is a best move).

    The guided line is the lookahead bot's: the most expected Karma at the end of the turn, ties
    broken by the bot's own order. Where that is not the best chance of winning, the sentence gives
    both chances and both expected Karmas, so the student sees which goal chose the move.
    """
    if not evaluation.values or evaluation.values.get(guided) == evaluation.win:
        return ""
    best, karma = evaluation.best, evaluation.karma
    chances = (
        f"{short_name(best, state)} wins {percent(evaluation.win)}, the guided move "
        f"{percent(evaluation.values[guided])} ({points(evaluation.win - evaluation.values[guided])})"
    )
    if guided not in karma or best not in karma:
        return f"Not the best move: {chances}."
    if karma[guided] == karma[best]:
        goal = (
            f"both end the turn with the same expected Karma, {_karma_text(karma[guided])}, and the lookahead, which "
            "looks only at Karma, cannot tell them apart"
        )
    else:
        goal = (
            f"the lookahead plays the most expected Karma at the end of the turn, {_karma_text(karma[guided])} "
            f"against {_karma_text(karma[best])}, and the most Karma is not always the best chance of winning"
        )
    return (
        f"Why not the best move? The guided line is the lookahead bot's, and here {goal}: {chances}. "
        "We keep its line to see the bot's idea through; you can play the best move yourself on the board."
    )


def _narration_by_step(narration: dict | list, steps: int) -> dict[int, dict]:
    """The narration as {position: entry}; a list is read as positions 0, 1, 2, ..."""
    items = narration.items() if isinstance(narration, dict) else enumerate(narration)
    by_step = {}
    for step, entry in items:
        if not isinstance(step, int) or not 0 <= step <= steps:
            raise ValueError(f"narration step {step!r} is not a position of the line (0 to {steps})")
        unknown = set(entry) - {"title", "text", "predict"}
        if unknown:
            raise ValueError(f"narration step {step}: unknown keys {sorted(unknown)} (use title, text, predict)")
        by_step[step] = dict(entry)
    return by_step


GUIDED_SEED = 29  # the deal of lesson 2's guided game (notebooks/pangu/02_guided_game.ipynb)


def guided_game_narration(states: list[State], line: list[Action], evaluate: Evaluator) -> dict[int, dict]:
    """The narration of lesson 2's guided game: one entry per position of the lookahead's line on deal
    :data:`GUIDED_SEED` (``states[i]`` is the position before move ``i + 1``), each with a title, the text and,
    at the four decision points, a question to answer before the board shows the answer.

    The words are written for that deal (they name its cards and its choices); every number in them is
    read from the engine (``preview``, ``lookahead_values``), the bots and the exact ``evaluate``. It lives
    here so that the lesson shows a one-line call instead of sixty lines of text templates. It is long
    because it holds the words of the deal's positions, one short branch each.
    """
    if states[0].seed != GUIDED_SEED or len(line) != 10 or len(states) != 11:
        raise ValueError(
            f"this narration is written for the lookahead's line on deal {GUIDED_SEED} "
            f"(10 moves, 11 positions), not for deal {states[0].seed!r}"
        )

    def chance(i, action=None):
        evaluation = evaluate(states[i])
        return evaluation.win if action is None else evaluation.values[action]

    turn2, turn3 = states[3], states[6]
    greedy2, greedy3 = greedy_policy(turn2), greedy_policy(turn3)
    karma2, karma3 = dict(lookahead_values(turn2)), dict(lookahead_values(turn3))
    p = [states[i].with_explicit_chance().preview(line[i]) for i in range(len(line))]
    final_card = turn3.cards.by_id[line[9].card]
    return {
        0: {
            "title": "Turn 1: three cards, one roll",
            "predict": "Karma is 10 of 10, the ceiling. Which card would you place first, and where?",
            "text": f"Every card takes its cheaper die (the dearer one is never better). At 10 of 10 a recovery can "
            f"only make up for what the same placement just paid, so the bot looks for cheap placements that "
            f"recover exactly their cost: {line[0]} pays {p[0]['cost']} and recovers {p[0]['gain']}, because its "
            f"bottom half circle touches the black Yin card.",
        },
        1: {
            "title": "Turn 1: a corner",
            "text": f"{line[1]}: pays {p[1]['cost']}, recovers {p[1]['gain']}. A corner becomes legal once a neighbour "
            f"on the ring is filled; here its right half circle matches the one next to it.",
        },
        2: {
            "title": "Turn 1: two matches",
            "text": f"{line[2]}: pays {p[2]['cost']}, matches twice and recovers {p[2]['gain']}. Turn 1 ends at "
            f"Karma {states[3].karma}, and turn 2 starts at once with a new roll.",
        },
        3: {
            "title": "Turn 2: your first real choice",
            "predict": f"Roll blue {turn2.roll[0]}, white {turn2.roll[1]}: A9 and A3 are cheap, A2 pays "
            f"{turn2.cheapest_die('A2')[1]} with either die, and all three go down this turn. Which first, and where?",
            "text": f"Greedy plays {short_name(greedy2, turn2)}: the most recovery minus cost now. But at 10 of 10 the cap "
            f"keeps only what was just paid, and A3 is the card that fits (2,1) best. The lookahead reverses the "
            f"order: {short_name(line[3], turn2)} first (it breaks even), then the expensive A2 while Karma is full, "
            f"and A3 last, when there is room under the cap. Expected Karma at the end of the turn: "
            f"{karma2[line[3]]} against greedy's {karma2[greedy2]}. In chance of winning: "
            f"{percent(chance(3, line[3]))} against {percent(chance(3, greedy2))}, "
            f"{points(chance(3, line[3]) - chance(3, greedy2))} for greedy. **Recover when there is room to recover.**",
        },
        4: {
            "title": "Turn 2: pay while Karma is full",
            "text": f"{line[4]}: pays {p[4]['cost']}, recovers {p[4]['gain']}, Karma {p[4]['karma']}. Paying the big "
            f"cost now leaves room under the cap for the next recovery.",
        },
        5: {
            "title": "Turn 2: the recovery that fits",
            "text": f"{line[5]}: pays {p[5]['cost']}, recovers {p[5]['gain']}, all kept: Karma {p[5]['karma']}.",
        },
        6: {
            "title": "Turn 3: your second choice, and the stuck rule",
            "predict": f"Roll blue {turn3.roll[0]}, white {turn3.roll[1]} blocks A1 (each die equals its number). A5 and "
            f"A6 go first with this roll; A1 then gets a fresh roll. Where does A5 go?",
            "text": f"One card is left in the deck and we know which ({line[9].card}), so the chance of winning is exact "
            f"here with no table at all. The lookahead plays {short_name(line[6], turn3)}: "
            f"{chance(6, line[6])} ≈ {percent(chance(6, line[6]))}. Greedy plays {short_name(greedy3, turn3)} "
            f"for the match now: {chance(6, greedy3)} ≈ {percent(chance(6, greedy3))}. The difference in expected "
            f"Karma is only {float(karma3[line[6]] - karma3[greedy3]):.2f}; in chance of winning it is "
            f"{points(chance(6, line[6]) - chance(6, greedy3))[1:]}.",
        },
        7: {
            "title": "Turn 3: leave A1 a good cell",
            "predict": "A6 next: where, knowing that A1 still needs a cell after it?",
            "text": f"{line[7]}: pays {p[7]['cost']}, recovers {p[7]['gain']}. Then no revealed card can use the roll, so "
            f"the engine rerolls for A1 (the stuck rule).",
        },
        8: {
            "title": "Turn 3: A1 after the reroll",
            "text": f"The reroll is blue {states[8].roll[0]}, white {states[8].roll[1]}. {line[8]}: pays {p[8]['cost']}, "
            f"recovers {p[8]['gain']}, Karma {p[8]['karma']}.",
        },
        9: {
            "title": "Turn 4: the final card",
            "text": f"The last card, {final_card.id} (B{final_card.blue} W{final_card.white}), goes alone on the one cell "
            f"left with its own roll. It wins if its cost is less than our Karma of {states[9].karma}: "
            f"before this roll the chance was {odds.final_card_win_probability((final_card.blue, final_card.white), states[9].karma)}. "
            f"Here the roll is blue {states[9].roll[0]}, white {states[9].roll[1]}: the chance is now {percent(chance(9))}.",
        },
        10: {
            "title": "The end",
            "text": f"Game {states[10].status.lower()} with Karma {states[10].karma}. Step back with ◀ to any position, "
            f"or play your own move there: the board then comments on your line.",
        },
    }


def goal_disagreements(seeds, rules=None, max_karma: int = 10, policy=greedy_policy):
    """Positions where the most expected Karma and the best chance of winning choose different moves.

    Plays ``policy`` on each deal of ``seeds`` and, at every decision from turn 3 on (where the solver is
    exact and fast) with Karma at most ``max_karma``, compares the move with the highest expected Karma at
    the end of the turn (``lookahead_values``) with the solver's best move (``solver.action_values``; among
    equally good moves, the one with the most expected Karma). Yields ``(loss of chance, seed, moves played,
    state, Karma move, winning move)`` wherever the Karma move wins less often; lesson 2 shows the largest.
    """
    import random

    from gamelib.pangu import solver

    for seed in seeds:
        state, rng, played = new_game(seed=seed, rules=rules), random.Random(seed), 0
        while state.status == ONGOING:
            if state.turn >= 3 and state.karma <= max_karma:
                values, karma = solver.action_values(state), dict(lookahead_values(state))
                karma_move = max(karma, key=karma.get)
                win_move = max(values, key=lambda action: (values[action], karma[action]))
                if values[win_move] > values[karma_move]:
                    yield values[win_move] - values[karma_move], seed, played, state, karma_move, win_move
            state, played = state.apply(policy(state, rng)), played + 1
