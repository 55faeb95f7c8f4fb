"""Solver checks that need the shipped whole-game table (gamelib/pangu/data/solver_default.npz).

The table is not built yet (issue 11 is open): building it takes
`pip install -e '.[solver]'` and `python -m gamelib.pangu.solver_build --write` on an idle
machine. These checks are kept here, outside pytest's test_*.py pattern so they are not
collected, until the table lands; then this file becomes part of tests/test_pangu_solver.py
again. Run them by hand with `pytest tests/solver_table_checks.py`.
"""

from test_pangu_solver import *  # noqa: F401,F403 (the shared helpers and the brute force)
from test_pangu_solver import SHIPPED_LEVELS, ShippedTables, SolverTableError, sha256_of, TABLE_PATH, META_PATH  # noqa: F401

def test_whole_game_value_under_the_default_rules():
    # note section 1: 3197477701321 / 4000752000000
    assert solver.win_probability(new_game(explicit_chance=True)) == Fraction(3197477701321, 4000752000000)


def test_s1_checkpoints_after_turns_one_and_two():
    # note section 1: after turn 1, 1020980411/1111320000; after turn 2, 85187/88200
    after_one = s1_after(3)
    assert after_one.turn == 2 and after_one.karma == 10
    assert solver.win_probability(at_next_turn_start(after_one)) == Fraction(1020980411, 1111320000)
    after_two = s1_after(6)
    assert after_two.turn == 3 and after_two.karma == 9
    assert solver.win_probability(at_next_turn_start(after_two)) == Fraction(85187, 88200)


def test_the_turn_three_checkpoint_agrees_with_the_brute_force():
    state = at_next_turn_start(s1_after(6))
    assert brute_force(state) == Fraction(85187, 88200)


def test_shipped_table_entries_match_a_recomputation():
    """Random turn-3 rows of the shipped file against the pure-Python turn-3 expectimax."""
    tables = solver.default_tables()
    start = new_game(explicit_chance=True)
    model = solver.model_for(start)
    fresh = solver.Solver(model, None)
    rng = np.random.default_rng(int(rng_seed()))
    keys = tables.keys[6]
    for at in rng.choice(len(keys), size=3, replace=False):
        key = int(keys[at])
        filled, colours, unplaced = key & 1023, key >> 10 & 1023, key >> 20 & 1023
        for karma in (3, 6, 10):
            assert fresh.turn_start(filled, colours, unplaced, karma) == tables.value(6, filled, colours, unplaced,
                                                                                       karma)


def test_every_shipped_row_is_monotone_in_karma():
    tables = solver.default_tables()
    for level in SHIPPED_LEVELS:
        rows = tables.rows[level]
        assert (np.diff(rows, axis=1) >= 0).all()
        assert (rows[:, -1] <= tables.scales[level]).all()


def test_a_damaged_table_is_refused_naming_the_file(tmp_path):
    damaged = tmp_path / TABLE_PATH.name
    data = bytearray(TABLE_PATH.read_bytes())
    data[len(data) // 2] ^= 0xFF
    damaged.write_bytes(bytes(data))
    meta = tmp_path / META_PATH.name
    meta.write_text(META_PATH.read_text())
    with pytest.raises(SolverTableError, match=str(damaged)):
        ShippedTables(damaged, meta)
    assert sha256_of(TABLE_PATH) in META_PATH.read_text()


def test_evaluate_policy_from_a_late_position_matches_a_direct_sum():
    from gamelib.pangu.bots import greedy_policy, random_policy

    state = at_next_turn_start(s1_after(6))
    greedy = solver.evaluate_policy(greedy_policy, state=state)
    assert 0 < greedy <= solver.win_probability(state)
    uniform = solver.evaluate_policy(random_policy, state=state)
    assert 0 < uniform < greedy
