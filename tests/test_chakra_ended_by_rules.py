"""Chakra's final state says whether the rules ended the game (issue 13), so ``design.completion``
works on Chakra as on every game, without a ``completed=`` argument."""

from gamelib import chakra, design, play
from gamelib.chakra import Rules, new_game
from gamelib.chakra.bots import greedy_policy, random_policy


def test_a_game_cut_by_the_safeguard_was_not_ended_by_the_rules():
    # one round of random play: nobody harmonizes five chakras in two turns (chakra.md#end),
    # so max_rounds=1 stops the game at the end of the round
    final = play(new_game(seed=1, rules=Rules(max_rounds=1)), random_policy, seed=1)
    assert final.finished and not final.end_triggered and final.ended_by_rules is False


def test_a_game_the_end_trigger_finished_was_ended_by_the_rules():
    final = play(new_game(seed=7), greedy_policy, seed=7)  # Chakra 03's recorded game
    assert final.finished and final.end_triggered and final.ended_by_rules is True


def test_a_game_still_running_is_not_ended_yet():
    start = new_game(seed=7)
    assert start.ended_by_rules is False
    one_player_done = start.apply(start.legal_actions()[0])
    assert one_player_done.ended_by_rules is False


def test_design_completion_reads_it_without_a_completed_argument():
    # with the end at two harmonized chakras, 15 rounds let some greedy games of these deals end by
    # the rules and cut the others (measured: 3 of the 6)
    rules = Rules(max_rounds=15, end_trigger_harmonized=2)
    own = design.tournament(chakra, greedy_policy, 6, rules, seed=3, setup={"players": 2}, workers=1, progress=False)
    told = design.tournament(
        chakra,
        greedy_policy,
        6,
        rules,
        seed=3,
        setup={"players": 2},
        workers=1,
        progress=False,
        completed=lambda state: state.finished and state.end_triggered,
    )
    assert [row.completed for row in own] == [row.completed for row in told]
    assert 0 < design.completion(own).value < 1
