"""Bots for Nagaraja and tournaments between them.

A policy is ``policy(state, rng) -> action``; ``random_policy`` is the core's. The bots here read only
``state.observation(seat)`` and ``state.legal_actions()`` (what the seated player may
know and do), never the hidden parts of the state.

The heuristic bot:

* **Call of Fate** -- commits the cheapest set of cards whose exact chance of winning
  the room (``analysis.commitment_table``, built on ``sticks``) reaches a target; if no
  set does, it throws away its weakest single card.
* **Ties** -- it reads ``Rules.tie_rule`` (public, like the whole rule set): a tie counts as
  a win for the guide under the published rule and for the other player under
  ``tie_rule="opponent"``, both in its chance of winning a room and in whether it is winning.
* **Confrontation** -- when losing on the current totals, uses the Naga or amulet that
  wins the room outright (or gains the most points); when winning, spends Nagas on
  lasting effects (steal, draw, discard, attacks on the opponent's paths).
* **Exploration** -- places the tile where it turns up the most expected relic VP and
  amulets and keeps paths open towards face-down relics, with a heavy penalty for the
  exact chance of turning up the last cursed relic.
* **New deal** -- keeps the two strongest cards and gives away the weakest.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from gamelib import core
from gamelib.core import random_policy
from gamelib.nagaraja import analysis, rules
from gamelib.nagaraja.actions import Commit, Keep, Pass, PlaceTile, SwapChoice, UseAmulet, UseNaga
from gamelib.nagaraja.edition import Edition
from gamelib.nagaraja.temple import CELL_OF_SPOT, PlacedTile, Temple
from gamelib.simulate import Estimate, mean, proportion

WIN_TARGET = 0.6  # commit the cheapest set with at least this chance to win the room
CURSED_LOSS_PENALTY = 60.0  # VP-equivalent cost of losing the game on the spot
LASTING_EFFECTS = {"STEAL": 3.0, "DRAW2": 2.5, "OPP_DISCARD": 1.5}


# --------------------------------------------------------------------------- reading the observation


def _edition(state) -> Edition:
    return state.edition  # public component data, not hidden state


def _stick_mean(edition: Edition, colour: str) -> float:
    faces = edition.faces[colour]
    return sum(p for p, _ in faces) / len(faces)


def _card_value(edition: Edition, card: dict) -> float:
    """What a card is worth in hand: its expected stick points plus a little for a strong effect."""
    letters = {"B": "BROWN", "W": "WHITE", "G": "GREEN"}
    points = sum(_stick_mean(edition, letters[s]) for s in card["sticks"])
    return points + LASTING_EFFECTS.get(card["effect"], 0.0) / 2


def _temple_from_view(view: dict, edition: Edition) -> Temple:
    """The public layout of a temple (tiles and trap; relics unknown)."""
    cells = []
    for entry in view["cells"]:
        content = entry["content"]
        if isinstance(content, dict):
            content = PlacedTile(content["tile"], content["rotation"], "?" if content["amulet"] else None)
        cells.append(content)
    return Temple(edition.tiles, tuple(cells), (None,) * 9)


def _spot_value(obs: dict, owner: int, spot: str, edition: Edition) -> float:
    """Expected VP of a relic spot as the viewer knows it."""
    relic = obs["players"][owner]["temple"]["relics"][spot]
    if relic["vp"] is not None:
        return relic["vp"]
    unknown, _, _ = analysis.unknown_relics(obs, owner, edition)
    known_ids_vp = sum(r["vp"] for r in obs["players"][owner]["temple"]["relics"].values() if r["vp"] is not None)
    total_vp = sum(r.vp for r in edition.relics)
    return (total_vp - known_ids_vp) / max(1, len(unknown))


def _exposure(temple: Temple, spot: str) -> int:
    """How close a relic spot is to being turned up: 2 if its cell holds a tile, 1 if the cell is legal."""
    cell = CELL_OF_SPOT[spot]
    if isinstance(temple.cell(cell), PlacedTile):
        return 2
    return 1 if cell in temple.legal_cells() else 0


# --------------------------------------------------------------------------- decisions


def heuristic_policy(state, rng: random.Random):
    """A sensible player that uses only what its seat may see."""
    seat = state.current_player
    obs = state.observation(seat)
    actions = state.legal_actions()
    edition = _edition(state)
    if any(isinstance(a, SwapChoice) for a in actions):
        return _swap_choice(obs, actions, seat, edition)
    phase = obs["phase"]
    if phase == "CALL_OF_FATE":
        return _commit(obs, actions, seat, edition, _wins_ties(obs, state.rules, seat))
    if phase == "CONFRONTATION":
        return _confront(obs, actions, seat, edition, _wins_ties(obs, state.rules, seat))
    if phase == "EXPLORATION":
        return _explore(obs, actions, seat, edition)
    if phase == "NEW_DEAL":
        return _keep(obs, actions, edition)
    return actions[0]


greedy_policy = heuristic_policy
"""The contract's greedy bot: the heuristic bot takes, at each decision, the action with the best
immediate estimate (the exact chance to win the room, the relic VP a placement turns up)."""

__all__ = ["random_policy", "greedy_policy", "heuristic_policy", "tournament", "TournamentResult"]


def _wins_ties(obs: dict, game_rules: rules.Rules, seat: int) -> bool:
    """Whether ``seat`` wins a tied room under the game's tie rule (nagaraja.md#winning-the-room);
    the rules are public, like the edition."""
    return (obs["guide"] == seat) == (game_rules.tie_rule == "guide")


def _commit(obs, actions, seat, edition, wins_ties: bool):
    commits = [a for a in actions if isinstance(a, Commit)]
    if len(commits) == 1:
        return commits[0]
    me, them = obs["players"][seat], obs["players"][1 - seat]
    hand = [c["id"] for c in me["hand"]]
    is_guide = obs["guide"] == seat
    their_count = them["committed_count"] if not is_guide else min(2, them["hand_size"])
    their_count = min(their_count, 12)
    try:
        # the table's ``mine_is_guide`` means "my ties win", which the tie rule decides
        table = analysis.commitment_table(hand, their_count, wins_ties, edition, seen=obs["discard_pile"])
    except ValueError:
        table = analysis.commitment_table(hand, 1, wins_ties, edition, seen=obs["discard_pile"])
    good = [row for row in table if row.p_win >= WIN_TARGET]
    if good:
        cheapest = min(good, key=lambda row: (len(row.cards), -row.p_win))
        return Commit(seat, cheapest.cards)
    weakest = min(hand, key=lambda c: _card_value(edition, edition.cards[c].to_dict()))
    return Commit(seat, (weakest,))


def _totals_after(obs, seat, action, edition) -> tuple[float, float]:
    """Expected (my total, their total) after a stick effect."""
    me, them = obs["players"][seat], obs["players"][1 - seat]
    mine, theirs = float(me["total"]), float(them["total"])
    params = getattr(action, "params", None)
    effect = None
    if isinstance(action, UseNaga):
        effect = edition.cards[action.card].effect
    elif isinstance(action, UseAmulet):
        effect = edition.amulets[action.amulet].effect
    if effect in ("PLUS2", "AM_PLUS2"):
        mine += 2
    elif effect in ("DISCARD2", "RETHROW2", "AM_RETHROW1"):
        target = obs["players"][params.target]
        for stick in target["sticks"]:
            if stick["id"] in params.stick_ids:
                change = -stick["points"] + (effect != "DISCARD2") * _stick_mean(edition, stick["colour"])
                if params.target == seat:
                    mine += change
                else:
                    theirs += change
    return mine, theirs


def _wins(mine, theirs, wins_ties: bool) -> bool:
    return mine > theirs or (mine == theirs and wins_ties)


def _confront(obs, actions, seat, edition, wins_ties: bool):
    me, them = obs["players"][seat], obs["players"][1 - seat]
    passing = next(a for a in actions if isinstance(a, Pass))
    moves = [a for a in actions if not isinstance(a, Pass)]
    if _wins(me["total"], them["total"], wins_ties):
        return _lasting_move(obs, moves, seat, edition) or passing
    # losing: the move that wins outright with the cheapest card, else the biggest expected swing
    best, best_key = None, None
    for action in moves:
        mine, theirs = _totals_after(obs, seat, action, edition)
        swing = (mine - theirs) - (me["total"] - them["total"])
        if swing <= 0:
            continue
        cost = _card_value(edition, edition.cards[action.card].to_dict()) if isinstance(action, UseNaga) else 1.0
        key = (_wins(mine, theirs, wins_ties), swing - cost / 10)
        if best_key is None or key > best_key:
            best, best_key = action, key
    if best is None and any(isinstance(a, UseAmulet) and edition.amulets[a.amulet].effect == "AM_NAGA" for a in moves):
        return next(a for a in moves if isinstance(a, UseAmulet) and edition.amulets[a.amulet].effect == "AM_NAGA")
    return best or passing


def _lasting_move(obs, moves, seat, edition):
    """While winning the room: a Naga on an effect that pays off beyond this round, if any is worth it."""
    best, best_value = None, 0.5
    opponent_temple = _temple_from_view(obs["players"][1 - seat]["temple"], edition)
    for action in moves:
        if not isinstance(action, UseNaga):
            continue
        card = edition.cards[action.card]
        value = LASTING_EFFECTS.get(card.effect, 0.0)
        if card.effect in ("ROTATE", "TRAP", "MOVE_SWAP") and getattr(action.params, "temple", 1 - seat) == 1 - seat:
            value = _attack_value(obs, seat, opponent_temple, action.params, card.effect, edition)
        value -= _card_value(edition, card.to_dict()) / 4
        if value > best_value:
            best, best_value = action, value
    return best


def _attack_value(obs, seat, temple: Temple, params, effect, edition) -> float:
    """Face-up VP of the opponent's temple that an attack turns face down."""
    try:
        if effect == "ROTATE":
            after = temple.rotate(params.cell, params.k)
        elif effect == "TRAP":
            after, _ = temple.put_trap(params.cell)
        elif hasattr(params, "origin"):
            after = temple.move(params.origin, params.destination)
        else:
            after = temple.swap_cells(params.a, params.b)
    except ValueError:
        return 0.0
    relics = obs["players"][1 - seat]["temple"]["relics"]
    lost = [s for s in temple.face_up_spots() if not after.face_up(s)]
    gained = [s for s in after.face_up_spots() if not temple.face_up(s)]
    return sum(relics[s]["vp"] or 0 for s in lost) - sum(_spot_value(obs, 1 - seat, s, edition) for s in gained)


def _explore(obs, actions, seat, edition):
    peeks = [a for a in actions if isinstance(a, UseAmulet)]
    temple = _temple_from_view(obs["players"][seat]["temple"], edition)
    if peeks:  # look before building: peek the most exposed unknown relic
        relics = obs["players"][seat]["temple"]["relics"]
        unknown = [a for a in peeks if relics[a.params.spot]["vp"] is None]
        if unknown:
            return max(unknown, key=lambda a: _exposure(temple, a.params.spot))
    placements = [a for a in actions if isinstance(a, PlaceTile)]
    if not placements:
        return actions[-1]
    room = obs["current_room"]
    scored = [(_placement_value(obs, seat, temple, room, a, edition), -i, a) for i, a in enumerate(placements)]
    return max(scored)[2]


def _placement_value(obs, seat, temple: Temple, room: dict, action: PlaceTile, edition) -> float:
    after = temple.place(action.cell, room["tile"], action.rotation, "?" if room["amulet"] else None)
    new_spots = [s for s in after.face_up_spots() if not temple.face_up(s)]
    value = sum(_spot_value(obs, seat, s, edition) for s in new_spots)
    loss = analysis.cursed_loss_chance(obs, after.face_up_spots(), seat, edition)
    value -= float(loss) * CURSED_LOSS_PENALTY
    if room["amulet"] and (action.cell, room["special"]) in after.connected_nodes():
        value += 1.5
    # open ends of the connected paths that point at empty cells: future reach
    for (r, c), seg in after.connected_nodes():
        for side in after.open_segments((r, c))[seg]:
            dr, dc = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}[side]
            if 0 <= r + dr <= 2 and 0 <= c + dc <= 2 and after.cell((r + dr, c + dc)) is None:
                value += 0.3
    return value


def _keep(obs, actions, edition):
    keeps = [a for a in actions if isinstance(a, Keep)]
    if not keeps:
        return actions[0]
    return max(keeps, key=lambda a: sum(_card_value(edition, edition.cards[c].to_dict()) for c in a.cards))


def _swap_choice(obs, actions, seat, edition):
    pending = obs["pending_swap"]
    relics = obs["players"][seat]["temple"]["relics"]
    temple = _temple_from_view(obs["players"][seat]["temple"], edition)
    a, b = pending["a"], pending["b"]
    if _exposure(temple, a) < _exposure(temple, b):
        a, b = b, a  # a is now the more exposed spot
    exposed, hidden = relics[a], relics[b]
    swap = bool(exposed["cursed"]) and not hidden["cursed"]
    swap = swap or (not exposed["cursed"] and not hidden["cursed"] and (hidden["vp"] or 0) > (exposed["vp"] or 0))
    return next(x for x in actions if isinstance(x, SwapChoice) and x.swap == swap)


# --------------------------------------------------------------------------- tournaments


@dataclass
class TournamentResult:
    """Win rates with 95% intervals, end reasons, game length and the guide's advantage."""

    names: tuple[str, str]
    games: int
    wins: tuple[int, int]
    reasons: Counter
    rounds: list = field(repr=False)
    first_guide_wins: int = 0
    rooms: int = 0
    rooms_won_by_guide: int = 0

    def win_rate(self, index: int = 0) -> Estimate:
        return proportion(self.wins[index], self.games)

    def reason_shares(self) -> dict[str, Estimate]:
        return {reason: proportion(count, self.games) for reason, count in sorted(self.reasons.items())}

    def game_length(self) -> Estimate:
        return mean(self.rounds)

    def first_guide_win_rate(self) -> Estimate:
        return proportion(self.first_guide_wins, self.games)

    def guide_room_rate(self) -> Estimate:
        return proportion(self.rooms_won_by_guide, self.rooms)

    def summary(self) -> str:
        lines = [
            f"{self.names[0]} vs {self.names[1]}, {self.games} games (seats alternate):",
            f"  {self.names[0]} wins {self.win_rate(0).percent()}",
            f"  {self.names[1]} wins {self.win_rate(1).percent()}",
            f"  rounds per game {self.game_length()}",
            f"  first guide wins the game {self.first_guide_win_rate().percent()}",
            f"  the guide wins the room {self.guide_room_rate().percent()}",
        ]
        lines += [f"  ends by {reason}: {share.percent()}" for reason, share in self.reason_shares().items()]
        return "\n".join(lines)


def tournament(
    policy_a,
    policy_b,
    games: int = 50,
    seed: int = 0,
    edition: Edition | None = None,
    names: tuple[str, str] | None = None,
    show_progress: bool = True,
) -> TournamentResult:
    """Nagaraja's preset of :func:`gamelib.core.tournament`: two bots, with Nagaraja's own figures.

    Args:
        policy_a, policy_b: the two bots (policy index 0 and 1).
        games: the number of DEALS, as everywhere in gamelib. Each deal is played twice, once
            with each bot in seat 0 (seats rotated, seeds paired), so ``2 * games`` games are
            played and neither bot is luckier in its deals.
        seed: the master seed of the deals.
        edition: the edition to play (default: the game's).
        names: the bots' labels (default: their function names).
        show_progress: show a progress bar.

    Returns:
        A :class:`TournamentResult`: wins by bot, how games ended, rounds, the first guide's and
        the guide's success (its ``games`` is the number of games played).
    """
    names = names or (getattr(policy_a, "__name__", "A"), getattr(policy_b, "__name__", "B"))
    setup = {"edition": edition} if edition is not None else {}
    records = core.tournament(
        rules, (policy_a, policy_b), games, seed=seed, setup=setup, progress=show_progress, keep_final=True
    )
    wins = [0, 0]
    reasons: Counter = Counter()
    rounds, first_guide_wins, rooms, guide_rooms = [], 0, 0, 0
    for record in records:
        final = record.final
        wins[record.seating[final.winner]] += 1
        reasons[final.result.reason] += 1
        rounds.append(final.round)
        guides, room_winners = rooms_and_guides(final)
        first_guide_wins += final.winner == guides[0]
        rooms += len(room_winners)
        guide_rooms += sum(guides[i] == winner for i, winner in enumerate(room_winners))
    return TournamentResult(names, len(records), tuple(wins), reasons, rounds, first_guide_wins, rooms, guide_rooms)


def rooms_and_guides(final) -> tuple[list[int], list[int]]:
    """The guide of each round and the winner of each room resolved, read from the public log."""
    guides, room_winners = [], []
    for audience, text in final.log:
        if audience == -1 and text.startswith("Round ") and " is the guide and commits first." in text:
            guides.append(int(text.split(": P", 1)[1][0]))
        elif audience == -1 and text.startswith("Totals: ") and " wins the room" in text:
            room_winners.append(int(text.split(". P", 1)[1][0]))
    return guides, room_winners
