"""The two paths of a Nagaraja move against each other, over whole seeded games, and the oracles of
the engine's caches and shortcuts.

``State.apply`` (``actions.apply_action``) checks every move; ``actions.search_step`` builds the same
turn without the check, for search that applies only listed actions. Both must give the same
positions and saves, and an illegal move must leave the state as it was. A turn is built on a draft
of its own (``position.TurnDraft``), so no state changes once returned and games played on two
threads at once are the games played one after the other.

The caches and shortcuts behind the listing each have their oracle here: the Naga options cached per
seat against ``effect_options`` itself, a RETHROW2's possibility against the position once the Naga
is spent, throws drawn by bisection against ``core.weighted_draw``, legal cells by bitmask against
the rule written out.
"""

import random
import sys
import threading
from bisect import bisect_right
from collections import Counter
from fractions import Fraction
from dataclasses import replace as copy_of

import pytest
from nagaraja_support import play_game
from gamelib import IllegalMove, core
from gamelib.nagaraja import actions, chance, listing, new_game, position, rules, temple
from gamelib.nagaraja.bots import heuristic_policy, random_policy
from gamelib.nagaraja.cards import COLOURS, EFFECTS, commitments


def test_search_step_gives_the_states_of_the_checked_apply():
    """At every decision of 15 random games, up to 8 listed actions of every kind, applied through
    ``State.apply`` (checked, as an equal copy and as the listed object) and through
    ``actions.search_step`` (unchecked): equal states and equal saves."""
    compared, kinds = 0, set()
    for seed in range(15):
        states = []
        play_game((random_policy, random_policy), seed, on_state=states.append)
        for state in states:
            for action in state.legal_actions()[:8]:
                checked = state.apply(copy_of(action))  # a new object: not the listed one
                fast = actions.search_step(state, action)
                assert fast == checked == state.apply(action) and fast.to_json() == checked.to_json()
                compared += 1
                kinds.add(type(action).__name__)
    assert compared > 2000
    assert {"Commit", "UseNaga", "Pass", "PlaceTile", "Keep"} <= kinds


def copying(policy):
    """``policy``, but the action it returns is handed to ``apply`` as an equal copy."""
    return lambda state, rng: copy_of(policy(state, rng))


def play_by_search_steps(policies, seed):
    """``core.play`` with every move applied by ``actions.search_step`` (chance is drawn inside each turn)."""
    state, rng = new_game(seed=seed), random.Random(seed)
    while not state.is_terminal:
        state = actions.search_step(state, policies[state.current_player](state, rng))
    return state


def test_whole_games_by_search_steps_are_the_games_played_with_apply():
    """The same seeded games played through ``apply`` with the listed actions, with copies of them, and
    through ``search_step``: identical saves."""
    for seed in range(20):
        for policies in ((random_policy, random_policy), (heuristic_policy, random_policy)):
            fast = play_game(policies, seed)
            checked = play_game(tuple(copying(p) for p in policies), seed)
            assert fast.to_json() == checked.to_json() and fast == checked
    for seed in range(6):
        policies = (random_policy, random_policy)
        assert (
            play_by_search_steps(policies, seed).to_json()
            == core.play(new_game(seed=seed), list(policies), seed=seed).to_json()
        )


def test_a_listing_is_not_served_to_another_state():
    """Two states listed in turn each get their own actions."""
    a, b = new_game(seed=1), new_game(seed=2)
    first_a, first_b = a.legal_actions(), b.legal_actions()
    assert a.legal_actions() == first_a and b.legal_actions() == first_b
    assert first_a != first_b  # different hands, so different commitments


def test_the_listing_kept_on_a_state_stays_out_of_its_fields_saves_and_successors():
    """``State.legal_actions`` keeps the listing in a slot, not a field: a listed state has the same
    save, equality, field dict and pickle as the same position never listed, and neither a draft of
    it, a copy of it nor the next state carries the listing."""
    import pickle

    for seed in range(3):
        states = []
        play_game((random_policy, random_policy), seed, on_state=states.append)
        for state in states[::5]:
            if state.current_player not in (0, 1):
                continue
            fields = dict(state.__dict__)
            unlisted = position.copied(state, {})  # the same position, never listed
            assert actions.listed_actions(unlisted) is None
            listed = state.legal_actions()
            assert actions.listed_actions(state) == tuple(listed) and state.legal_actions() == listed
            assert "listed" not in state.__dict__ and state.__dict__ == fields
            assert state == unlisted and state.to_json() == unlisted.to_json()
            assert pickle.dumps(state) == pickle.dumps(unlisted)
            assert actions.listed_actions(pickle.loads(pickle.dumps(state))) is None
            assert actions.listed_actions(position.copied(state, {})) is None
            assert "listed" not in position.TurnDraft(state).__dict__
            assert actions.listed_actions(state.apply(listed[0])) is None


def test_a_listed_state_checks_every_move_as_a_state_never_listed():
    """The check of a move on a listed state (a membership test in its listing) gives what the full
    check gives on the same position never listed: the same canonical action for every listed action,
    a copy of it, the other order of a swap's pair; the same refusal for another seat's action."""
    compared = refused = 0
    for seed in range(8):
        states = []
        play_game((random_policy, random_policy), seed, on_state=states.append)
        for state in states:
            if state.current_player not in (0, 1):
                continue
            unlisted = position.copied(state, {})
            listed = state.legal_actions()
            moves = list(listed) + [copy_of(action) for action in listed[:3]]
            moves += [
                copy_of(a, params=actions._other_order(a.params))
                for a in listed
                if isinstance(a, actions.UseNaga) and actions._other_order(a.params) is not None
            ][:2]
            moves.append(copy_of(listed[0], player=1 - state.current_player))
            for move in moves:
                outcomes = []
                for where in (state, unlisted):
                    try:
                        outcomes.append(actions.check_action(where, move))
                    except IllegalMove as error:
                        outcomes.append(str(error))
                assert outcomes[0] == outcomes[1]
                compared += 1
                refused += isinstance(outcomes[0], str)
    assert compared > 1000 and refused > 100


def test_listed_chance_outcomes_are_the_weights_and_check_outcomes_as_a_state_never_listed():
    """``State.chance_outcomes`` keeps its pairs in a slot (out of the fields, saves, pickles and the next
    state); they are ``chance_weights`` divided by their total (the oracle, written out), and the check
    of an outcome on a listed state (found by identity first) gives what ``_same`` gives on the same
    position never listed: the listed object, an equal copy, a list for a tuple, and refusals (a float
    or bool for an int face, a tuple nested one level too deep, a name that is no outcome)."""
    import pickle

    def tweaked(outcome):
        if isinstance(outcome, int):  # the guide picked after too many ties
            return float(outcome), bool(outcome), str(outcome)
        if isinstance(outcome, tuple):
            return [list(face) for face in outcome], tuple((float(p), n) for p, n in outcome), (outcome,)
        return "".join(outcome), outcome + "?", (outcome,)

    compared = refused = 0
    for seed in range(4):
        state = new_game(0, explicit_chance=True)
        rng = random.Random(seed)
        while not state.is_terminal:
            if state.current_player != core.CHANCE:
                state = state.apply(rng.choice(state.legal_actions()))
                continue
            unlisted = position.copied(state, {})
            weights = chance.chance_weights(state)
            total = sum(weight for _, weight in weights)
            listed = state.chance_outcomes()
            assert listed == [(outcome, Fraction(weight, total)) for outcome, weight in weights]
            assert state.chance_outcomes() == listed and state.chance_listed == tuple(listed)
            assert "chance_listed" not in state.__dict__ and state == unlisted
            assert pickle.dumps(state) == pickle.dumps(unlisted)
            assert getattr(pickle.loads(pickle.dumps(state)), "chance_listed", None) is None
            outcome = listed[0][0]
            for given in (outcome, copy_of_outcome(outcome), *tweaked(outcome)):
                found = [chance.matching_outcome(where, given) for where in (state, unlisted)]
                assert found[0] == found[1] and type(found[0]) is type(found[1])
                compared += 1
                refused += found[0] is None
            drawn = core.sample_outcome(listed, rng)
            after = state.apply(drawn)
            assert after == unlisted.apply(drawn) and after.chance_listed is None
            state = after
    assert compared > 1000 and refused > 500


def copy_of_outcome(outcome):
    """An equal outcome that is not the same object."""
    if isinstance(outcome, int):
        return int(str(outcome))
    return tuple(tuple(face) for face in outcome) if isinstance(outcome, tuple) else "".join(list(outcome))


def test_no_state_changes_once_returned_and_an_illegal_move_changes_nothing():
    """Every state of 10 games keeps its save after later turns were played from it, and a move that
    raises IllegalMove (an action of the wrong seat, listed for the other seat; a Naga on a card not
    in hand) leaves the state's save as it was."""
    seen = []
    refused = 0
    for seed in range(10):
        states = []
        play_game((random_policy, random_policy), seed, on_state=states.append)
        seen += [(state, state.to_json()) for state in states]
        for state in states[::7]:
            if state.current_player in (0, 1) and state.legal_actions():
                before = state.to_json()
                wrong = copy_of(state.legal_actions()[0], player=1 - state.current_player)
                for move in (wrong, actions.UseNaga(state.current_player, "VIRTUAL", "NO-CARD")):
                    try:
                        state.apply(move)
                    except IllegalMove:
                        refused += 1
                    assert state.to_json() == before
    assert refused > 100
    for state, save in seen:
        assert state.to_json() == save


def test_games_on_two_threads_at_once_are_the_games_played_one_after_the_other():
    """Two threads each play 6 seeded games (random, and the heuristic bot, which reads hypothetical
    positions) at the same time, switching every microsecond: each thread's final saves are those of
    the same games played alone. A turn's draft and its bookkeeping belong to that turn only."""

    def finals(seeds):
        return [
            play_game(
                (heuristic_policy, random_policy) if seed % 3 == 0 else (random_policy, random_policy), seed
            ).to_json()
            for seed in seeds
        ]

    batches = [range(0, 6), range(100, 106)]
    alone = [finals(seeds) for seeds in batches]
    together = [None, None]
    start = threading.Barrier(2)

    def play(index):
        start.wait()
        together[index] = finals(batches[index])

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=play, args=(index,)) for index in (0, 1)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert together == alone


def test_the_engine_keeps_no_turn_state_in_its_modules():
    """The turn's bookkeeping lives on its draft: no module of the engine holds a state under
    construction, a listing or a lock."""
    for module, names in ((position, ("EDITING", "FRESH_SEATS", "PENDING_LOG")), (rules, ("_TURN_LOCK", "_LISTED"))):
        assert not any(hasattr(module, name) for name in names)
    assert set(position.TurnDraft.scratch) == {"fresh_seats", "pending_log"}


def confrontation_positions(seeds):
    """Every Confrontation position of seeded random games where the seat to act could use a Naga."""
    found = []
    for seed in seeds:
        states = []
        play_game((random_policy, random_policy), seed, on_state=states.append)
        found += [s for s in states if s.phase == "CONFRONTATION" and s.current_player in (0, 1)]
    return found


def test_naga_options_cached_per_seat_are_the_options_of_the_position():
    """``listing.options`` (the cache, half per seat for RETHROW2, ROTATE and MOVE_SWAP) gives exactly
    ``listing.effect_options`` computed afresh, for every effect, seat and Naga source, over 12 games."""
    compared = 0
    for state in confrontation_positions(range(12)):
        for player in (0, 1):
            for source in listing.naga_sources(state, player) or ["VIRTUAL"]:
                for effect in EFFECTS:
                    after = listing.position_for(state, player, source, effect) if source != "VIRTUAL" else state
                    if listing.effect_possible(after, player, effect):
                        assert listing.options(after, player, effect) == tuple(
                            listing.effect_options(after, player, effect)
                        )
                        compared += 1
    assert compared > 1000


def naga_uses_written_out(state, player):
    """Every UseNaga of ``player`` built afresh with the constructor: each Naga source, each card of the
    hand, each option of its effect once the Naga is spent (nagaraja.md#confrontation), in that order."""
    cards = state.edition.cards
    return [
        actions.UseNaga(player, source, card, params)
        for source in listing.naga_sources(state, player)
        for card in state.players[player].hand
        for params in listing.effect_options(
            listing.position_for(state, player, source, cards[card].effect), player, cards[card].effect
        )
    ]


def test_naga_uses_shared_by_parameters_are_the_uses_written_out():
    """``listing.naga_actions`` (one UseNaga per seat, source, card and parameters, the parameters one object per
    value) against the uses built afresh, at every Confrontation of 12 games for both seats; the shared
    parameters and the option caches are let go halfway, as when they reach their size limit."""
    compared = 0
    positions = confrontation_positions(range(12))
    for number, state in enumerate(positions):
        if number == len(positions) // 2:
            listing.shared.cache_clear()
            state.edition.memo.clear()
        for player in (0, 1):
            listed = listing.naga_actions(state, player)
            assert listed == naga_uses_written_out(state, player)
            assert all(type(use.params) in actions.PARAM_TYPES for use in listed)
            compared += len(listed)
    assert compared > 5_000


def test_a_rethrow_is_possible_exactly_when_the_spent_position_allows_it():
    """``listing.rethrow_possible_after`` (no copy of the position) against ``listing.effect_possible`` on the
    position once the Naga is spent, for every seat and every Naga it holds."""
    compared = 0
    for state in confrontation_positions(range(12)):
        for player in (0, 1):
            for source in listing.naga_sources(state, player):
                if source == "VIRTUAL":
                    continue  # a virtual Naga spends no stick: the position keeps every stick
                spent = listing.position_for(state, player, source, "RETHROW2")
                assert listing.rethrow_possible_after(state, source) == listing.effect_possible(
                    spent, player, "RETHROW2"
                )
                compared += 1
    assert compared > 50


def test_a_throw_drawn_by_bisection_is_the_weighted_draw():
    """For every colour of the edition and 1 to 6 sticks, every ticket picks the same outcome by
    bisection of the running totals as ``core.weighted_draw`` by walking the weights."""
    edition = new_game(seed=0).edition
    for colour, faces in edition.faces.items():
        for count in range(1, 7):
            outcomes, totals = chance._throw_table(tuple(faces), count)
            weights = [w for _, w in chance.throw_weights(tuple(faces), count)]
            assert totals[-1] == sum(weights)

            class Ticket(random.Random):  # hands out the ticket under test
                def randrange(self, n):
                    return self.ticket

            rng = Ticket()
            for ticket in range(totals[-1]):
                rng.ticket = ticket
                assert bisect_right(totals, ticket) == core.weighted_draw(weights, rng)


def test_legal_cells_by_bitmask_follow_the_placement_rule():
    """All 512 occupancies, with no cell or any one cell lifted: the empty cells in the entrance row
    or next to an occupied cell (nagaraja.md#placement), written out with ``temple.neighbours``."""
    for occupancy in range(512):
        for lifted in [None, *range(9)]:
            occupied = {cell for i, cell in enumerate(temple.CELLS) if occupancy >> i & 1 and i != lifted}
            expected = tuple(
                cell
                for cell in temple.CELLS
                if cell not in occupied and (cell[0] == 2 or any(n in occupied for n in temple.neighbours(cell)))
            )
            assert temple._legal_cells_of(occupancy, lifted) == expected


def stick_choices_by_counting(sticks, sizes):
    """The choices of sticks up to (colour, face) written out: every multiset of kinds by recursion,
    each taking the lowest ids of its kinds (the listing before issue 8, the oracle of ``listing.stick_choices``)."""
    groups: dict = {}
    for s in sorted(sticks, key=lambda s: position.stick_order(s.id)):
        groups.setdefault((s.colour, s.points, s.naga), []).append(s.id)
    keys = sorted(groups, key=lambda k: (COLOURS.index(k[0]), k[1], k[2]))

    def multisets(keys, size, available):
        if size == 0:
            yield ()
            return
        for i, key in enumerate(keys):
            if available[key]:
                available[key] -= 1
                for rest in multisets(keys[i:], size - 1, available):
                    yield (key,) + rest
                available[key] += 1

    choices = []
    for size in sizes:
        for combo in multisets(keys, size, {k: len(groups[k]) for k in keys}):
            used: Counter = Counter()
            ids = []
            for key in combo:
                ids.append(groups[key][used[key]])
                used[key] += 1
            choices.append(tuple(sorted(ids, key=position.stick_order)))
    return choices


def test_stick_choices_are_the_multisets_counted_out():
    """``listing.stick_choices`` against the recursive listing, in the same order, for the sticks of both seats
    in every Confrontation of 12 random games and the sizes RETHROW2, DISCARD2 and AM_RETHROW1 ask for."""
    compared = 0
    for state in confrontation_positions(range(12)):
        for seat in state.players:
            for sizes in ((1,), (2,), (1, 2), (min(2, len(seat.sticks)),)):
                assert listing.stick_choices(seat.sticks, sizes) == stick_choices_by_counting(seat.sticks, sizes)
                compared += 1
    assert compared > 1000


def test_a_chance_event_drawn_and_applied_at_once_is_the_sampled_outcome_resolved():
    """``chance.drawn`` (one function per kind draws and applies) against ``chance.sample`` then
    ``chance.resolve``, from generators in the same state, at every chance event of 10 games with
    explicit chance (every kind of task the games meet): the same position, and the same generator
    state afterwards (the same draws)."""
    kinds = set()
    for seed in range(10):
        states = []
        core.play(
            new_game(seed=seed, explicit_chance=True),
            random_policy,
            seed=seed,
            on_action=lambda state, action: states.append(state),
        )
        for state in states:
            if state.current_player != core.CHANCE:
                continue
            task, rest = state.queue[0], state.queue[1:]
            at_once, sampled = random.Random(seed), random.Random(seed)
            drawn = chance.drawn(state, task, at_once, {"queue": rest})
            resolved = chance.resolve(state, task, chance.sample(state, sampled), queue=rest)
            assert drawn == resolved and drawn.log == resolved.log
            assert at_once.getstate() == sampled.getstate()
            kinds.add(task.kind)
    assert {"RELIC", "FIRST_GUIDE", "DRAW", "ROOM", "STICKS"} <= kinds


def test_a_room_drawn_from_the_bottom_is_the_sampled_room_resolved():
    """A ROOM task once the room pile is empty turns up the first room sent to the bottom (TRAP), as
    ``chance.sample`` then ``chance.resolve`` do, taking the same bits from the generator (a draw from
    one), for 40 generators; with rooms left in the pile, one of them. Real games rarely get there."""
    state = new_game(seed=4)  # the first room is up
    room_task = chance.Task("ROOM")
    for pile, bottom in (((), ("R03", "R07")), (("R11", "R12"), ("R03",))):
        ready = copy_of(state, room_pile=pile, room_bottom=bottom, current_room=None, queue=(room_task,))
        for seed in range(40):
            at_once, sampled = random.Random(seed), random.Random(seed)
            drawn = chance.drawn(ready, room_task, at_once, {"queue": ()})
            resolved = chance.resolve(ready, room_task, chance.sample(ready, sampled), queue=())
            assert drawn == resolved and drawn.log == resolved.log
            assert at_once.getstate() == sampled.getstate()
            assert drawn.current_room in (pile or bottom[:1])


def test_commitments_listed_by_symbol_pattern_are_the_commitments_of_the_hand():
    """``listing.commit_actions`` (positions cached per pattern of symbols) against ``cards.commitments`` of
    the hand's cards, for 2,000 random hands of 0 to 9 cards of the 48 and both seats: the same
    commitments in the same order."""
    state = new_game(seed=0)
    edition = state.edition
    rng = random.Random(8)
    for _ in range(2000):
        hand = tuple(sorted(rng.sample(sorted(edition.cards), rng.randrange(10))))
        player = rng.randrange(2)
        seats = list(state.players)
        seats[player] = copy_of(seats[player], hand=hand)
        listed = listing.commit_actions(copy_of(state, players=tuple(seats)), player)
        expected = [actions.Commit(player, ids) for ids in commitments([edition.cards[c] for c in hand])]
        assert listed == expected


def test_a_run_of_relics_drawn_together_is_the_relics_drawn_one_by_one():
    """``chance.drawn_run`` at the start of 30 explicit-chance games (18 RELIC tasks queued, 9 per seat)
    against ``chance.drawn`` task by task from a generator in the same state: the run stops at the
    other seat's first task, and gives the same position, queue and generator state."""
    for seed in range(30):
        state = new_game(seed=seed, explicit_chance=True)
        queue = state.queue
        assert [task.kind for task in queue[:18]] == ["RELIC"] * 18
        together, one_by_one = random.Random(seed), random.Random(seed)
        run = chance.drawn_run(state, queue, together, {"queue": queue[1:]})
        stepped = state
        for _ in range(9):
            stepped = chance.drawn(stepped, stepped.queue[0], one_by_one, {"queue": stepped.queue[1:]})
        assert run == stepped and run.queue == queue[9:] and run.queue[0].player == 1
        assert together.getstate() == one_by_one.getstate()


@pytest.mark.parametrize("kind, longest_met", [("STICKS", 4), ("DRAW", 10)])
def test_a_run_of_tasks_drawn_together_is_the_tasks_drawn_one_by_one(kind, longest_met):
    """``chance.drawn_run`` at every chance event of 30 explicit-chance games whose queue starts with
    ``kind`` (a Call of Fate queues a STICKS task for each colour of both seats, a rethrow one or two;
    a new game queues 10 DRAW tasks, a new deal 3, DRAW2 2) against ``chance.drawn`` task by task from
    a generator in the same state, while the pile holds cards: the same position, log, queue and
    generator state."""
    runs = longest = 0
    for seed in range(30):
        states = [new_game(seed=seed, explicit_chance=True)]
        core.play(states[0], random_policy, seed=seed, on_action=lambda state, action: states.append(state))
        for state in states:
            queue = state.queue
            if state.current_player != core.CHANCE or queue[0].kind != kind or (kind == "DRAW" and not state.draw_pile):
                continue
            together, one_by_one = random.Random(seed), random.Random(seed)
            run = chance.drawn_run(state, queue, together, {"queue": queue[1:]})
            stepped = state
            while stepped.queue and stepped.queue[0].kind == kind and (kind != "DRAW" or stepped.draw_pile):
                stepped = chance.drawn(stepped, stepped.queue[0], one_by_one, {"queue": stepped.queue[1:]})
            assert run == stepped and run.log == stepped.log and run.queue == stepped.queue
            assert together.getstate() == one_by_one.getstate()
            runs += 1
            longest = max(longest, len(queue) - len(run.queue))
    assert runs > 300 and longest >= longest_met  # the longest runs were met


def test_the_inline_uniform_draw_is_randrange():
    """The uniform draw written out in ``chance._card_drawn`` (bits of the size, drawn again while too
    large) picks what ``random.randrange(n)`` picks, and leaves the generator in the same state,
    for every pile size a game meets and beyond (``core.weighted_draw`` takes ``randrange`` too)."""
    for size in range(1, 300):
        written_out, library = random.Random(size), random.Random(size)
        for _ in range(20):
            bits = size.bit_length()
            at = written_out.getrandbits(bits)
            while at >= size:
                at = written_out.getrandbits(bits)
            assert at == library.randrange(size)
        assert written_out.getstate() == library.getstate()


def test_connectivity_grown_by_a_placement_is_the_connectivity_searched_afresh():
    """Temples filled by 3,000 random legal placements, each placed on a temple whose connectivity
    is known (so it grows from the new tile): the same spots and nodes as a fresh search of the same
    layout, and as the fixed-point method (``temple.brute_force_connectivity``, the oracle)."""
    rng = random.Random(5)
    tiles = sorted(new_game(seed=0).edition.tiles)
    grown = 0
    for _ in range(400):
        layout = temple.Temple()
        for tile in rng.sample(tiles, rng.randrange(1, 10)):
            layout.connected_spots()  # known, so the next placement grows it
            layout = layout.place(rng.choice(layout.legal_cells()), tile, rng.randrange(4))
            assert "_connectivity" in layout.__dict__
            fresh = temple.Temple(layout.tiles, layout.cells, layout.relics)
            assert layout.connected_spots() == fresh.connected_spots()
            assert layout.connected_nodes() == fresh.connected_nodes()
            spots, nodes = temple.brute_force_connectivity(fresh)
            assert layout.connected_nodes() == nodes and layout.connected_spots() == spots
            grown += 1
    assert grown > 1500


def test_the_amulet_cells_kept_through_placements_and_collections_are_those_of_the_layout():
    """Temples filled by random legal placements, half of them rooms with an amulet, collecting
    after each as the rules do: the cells with an uncollected amulet carried from temple to temple
    (``_placed``, ``collect_amulets``) are those a fresh temple of the same layout finds, in order,
    and the amulets collected are those of the cells joined to an entrance, in cell order."""
    rng = random.Random(6)
    tiles = sorted(new_game(seed=0).edition.tiles)
    carried = collected_some = 0
    for _ in range(400):
        layout = temple.Temple()
        layout._amulet_cells  # known, so placements carry it
        for number, tile in enumerate(rng.sample(tiles, rng.randrange(1, 10))):
            amulet = f"A{number:02d}" if rng.randrange(2) == 0 else None
            layout = layout.place(rng.choice(layout.legal_cells()), tile, rng.randrange(4), amulet)
            assert "_amulet_cells" in layout.__dict__
            fresh = temple.Temple(layout.tiles, layout.cells, layout.relics)
            assert layout._amulet_cells == fresh._amulet_cells
            joined = [
                content.amulet
                for cell, content in zip(temple.CELLS, layout.cells)
                if isinstance(content, temple.PlacedTile)
                and content.amulet
                and (cell, layout.tiles[content.tile_id].special) in fresh.connected_nodes()
            ]
            layout, collected = layout.collect_amulets()
            assert collected == joined
            assert layout._amulet_cells == temple.Temple(layout.tiles, layout.cells, layout.relics)._amulet_cells
            carried += 1
            collected_some += len(collected) > 1
    assert carried > 1500 and collected_some >= 5  # several amulets collected at once, too
