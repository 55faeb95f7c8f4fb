"""Nagaraja's rules: the rule parameters, the state of a duel and a new game (nagaraja.md#round).

Phases: SETUP -> CALL_OF_FATE -> CONFRONTATION -> (RESOLVE) -> EXPLORATION -> NEW_DEAL
-> CALL_OF_FATE ... ; GAME_OVER can follow any action (nagaraja.md#end). The actions and their
checks live in :mod:`~gamelib.nagaraja.actions`, chance in :mod:`~gamelib.nagaraja.chance`;
``State.apply`` checks and applies one action (``actions.apply_action``) or one chance outcome, then
finishes the turn (``effects.finish_turn``): it resolves the chance the action set off (from the
state's seed, unless ``explicit_chance``) and the automatic steps, on a draft frozen at the end.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gamelib.core import (
    CHANCE,
    TERMINAL,
    IllegalMove,
    RulesBase,
    StateBase,
    check_choice,
    check_int,
    resolve_seed,
    returns_for,
    rules_or_default,
    single_winner,
)
from gamelib.nagaraja import actions, chance
from gamelib.nagaraja.effects import finish_turn
from gamelib.nagaraja.cards import COLOURS
from gamelib.nagaraja.chance import Task
from gamelib.nagaraja.edition import Edition, default_edition
from gamelib.nagaraja.position import (
    PUBLIC,
    Player,
    Result,
    TurnDraft,
    combined,
    face_up_relics,
    fate_total,
)
from gamelib.nagaraja.temple import RELIC_SPOTS, Temple


TIE_RULES = ("guide", "opponent")  # who wins a room on equal totals: the published rule, or its reverse
# Which of the opponent's sticks DISCARD2 may take. The Spanish rules' example says the card makes Marion
# "descartar 2 palos marrones" (discard 2 brown sticks): "any" reads that as the story's choice among any
# two sticks (the project's reading, the default), "brown" as the card's own limit to brown sticks.
DISCARD2_STICKS = ("any", "brown")


@dataclass(frozen=True)
class Rules(RulesBase):
    """Every rule parameter of Nagaraja; the defaults are the published game (nagaraja.md#parameters)."""

    win_score: int = 25
    starting_hand: int = 5
    deal_draw: int = 3
    deal_keep: int = 2
    sticks_per_colour: int = 12
    max_first_guide_ties: int = 1000
    tie_rule: str = "guide"  # a design variant: "opponent" gives the ties to the player who commits second
    discard2_sticks: str = "any"  # a reading: "brown" lets DISCARD2 take only brown sticks (nagaraja.md#readings)

    def __post_init__(self):
        check_int("win_score", self.win_score, 1, 500)
        check_int("starting_hand", self.starting_hand, 1, 20)  # both hands come from the 48 cards
        check_int("deal_draw", self.deal_draw, 1, 20)
        check_int("deal_keep", self.deal_keep, 0, self.deal_draw)
        check_int("sticks_per_colour", self.sticks_per_colour, 1, 99)  # stick ids have two digits
        check_int("max_first_guide_ties", self.max_first_guide_ties, 1, 1_000_000)
        check_choice("tie_rule", self.tie_rule, TIE_RULES)
        check_choice("discard2_sticks", self.discard2_sticks, DISCARD2_STICKS)


@dataclass(frozen=True)
class State(StateBase):
    edition: Edition = field(compare=False, repr=False)
    rules: Rules = field(compare=False, repr=False)
    players: tuple = ()
    phase: str = "SETUP"
    to_act: int | None = None
    guide: int = 0
    round: int = 0
    draw_pile: tuple = ()  # unordered: a draw is uniform over it
    discard_pile: tuple = ()  # in the order cards were discarded (all were seen face up)
    room_pile: tuple = ()  # unordered, face down
    room_bottom: tuple = ()  # rooms sent to the bottom by TRAP, in order
    current_room: str | None = None
    room_amulet: str | None = None
    amulet_pile: tuple = ()
    supply: tuple = ()  # stick ids in the common supply
    out_of_game: tuple = ()  # discarded rooms, used amulets, amulets lost with a room
    pass_streak: int = 0
    queue: tuple = ()  # pending chance tasks
    deal: tuple | None = None  # cards drawn by the guide in NEW_DEAL, until Keep
    pending_swap: tuple | None = None  # (player, a, b) after PEEK2_SWAP
    first_guide: tuple = ((), ())  # the throw-off faces (points) of each player
    first_guide_ties: int = 0
    room_winner: int | None = None
    seed: int | str | None = None
    draws: int = 0
    explicit_chance: bool = False
    log: tuple = ()  # (audience, text) pairs: audience PUBLIC or the one seat that may read the text
    result: Result | None = None
    moves: tuple = field(
        default=(), compare=False
    )  # every action and explicit chance outcome applied: a save replays them

    # The legal actions of this position once listed (``legal_actions``), kept for the check of the move
    # chosen from them (``actions.check_action``), and likewise its chance outcomes once listed
    # (``chance_outcomes``), for the check of the outcome drawn from them (``chance.matching_outcome``).
    # Slots, not fields: they live outside ``__dict__``, so a draft (which copies ``__dict__``), a save,
    # ``==``, ``hash`` and pickling never see them.
    __slots__ = ("listed", "chance_listed")

    def __getstate__(self) -> dict:
        """Pickle and copy the fields only (the listing is worked out again when asked for)."""
        return self.__dict__

    # ----------------------------------------------------------------- contract
    @property
    def current_player(self) -> int:
        if self.result is not None:
            return TERMINAL
        if self.queue:
            return CHANCE
        return self.to_act

    @property
    def is_terminal(self) -> bool:
        return self.result is not None

    @property
    def winners(self) -> tuple[int, ...]:
        return () if self.result is None else (self.result.winner,)

    @property
    def winner(self) -> int | None:
        return single_winner(self.winners)

    def returns(self) -> list[float]:
        return returns_for(self.winners, 2)

    def scores(self) -> tuple[int, int]:
        """Each seat's victory points now (hidden amulets included)."""
        return (self.score(0), self.score(1))

    def legal_actions(self) -> list:
        """The legal actions of the seat to act (a fresh list), listed once per position: a bot asks
        for them, then the check of the move it picks finds it among them (``actions.check_action``)."""
        if self.result is not None or self.queue:
            return []
        try:
            listed = self.listed
        except AttributeError:  # a state not made by a turn (``copied``, ``State(...)``, a pickle) until listed
            listed = None
        if listed is None:
            listing = actions.legal_actions(self)
            object.__setattr__(self, "listed", tuple(listing))  # the frozen dataclass refuses a plain set
            return listing
        return list(listed)

    def chance_outcomes(self) -> list:
        """The next chance event's ``(outcome, probability)`` pairs (a fresh list), listed once per
        position: a driver draws one of them, then the check of the outcome finds it among them."""
        if self.result is not None or not self.queue:
            return []
        listed = getattr(self, "chance_listed", None)  # None: not listed yet, or a state not made by a turn
        if listed is None:
            listed = chance.chance_outcomes(self)
            object.__setattr__(self, "chance_listed", listed)  # the frozen dataclass refuses a plain set
        return list(listed)

    def apply(self, action) -> "State":
        """The state after ``action`` and everything it sets off that needs no decision."""
        if self.result is not None:
            raise IllegalMove(f"the game is over: {actions.describe_result(self)}", action)
        if self.queue:
            outcome = chance.matching_outcome(self, action)
            if outcome is None:
                raise IllegalMove(
                    f"{action!r} is not a possible outcome of this chance event ({chance.task_text(self.queue[0])})",
                    action,
                )
            draft = TurnDraft(self, queue=self.queue[1:], moves=self.moves + (outcome,))
            chance.resolve(draft, self.queue[0], outcome)
            return finish_turn(draft)
        return actions.apply_action(self, action)

    # ----------------------------------------------------------------- reading
    def opponent(self, player: int) -> int:
        return 1 - player

    def score(self, player: int) -> int:
        """Face-up relic VP plus collected amulet VP (hidden amulets included)."""
        amulets = self.players[player].amulets
        amulet_vp = sum(self.edition.amulets[a].vp for a in amulets) if amulets else 0
        return self.visible_score(player) + amulet_vp

    def visible_score(self, player: int) -> int:
        """What the opponent can see of a score: the face-up relic VP."""
        return face_up_relics(self.edition, self.players[player].temple)[0]

    def total(self, player: int) -> int:
        """Fate points this round: thrown, undiscarded sticks plus modifiers."""
        return fate_total(self, player)

    def events(self, player: int) -> list[str]:
        """The log as player ``player`` may read it."""
        return [text for audience, text in self.log if audience in (PUBLIC, player)]


def new_game(
    seed=None, rules: Rules | None = None, *, explicit_chance: bool = False, edition: Edition | None = None
) -> State:
    """A new game: relics hidden, first guide thrown, hands dealt, first room up (nagaraja.md#setup).

    ``seed=None`` draws a fresh seed, which the state records (``state.seed``).
    """
    start = _start(edition or default_edition(), rules_or_default(rules, Rules, _DEFAULT_RULES))
    return finish_turn(TurnDraft(start, seed=resolve_seed(seed), explicit_chance=explicit_chance))


_DEFAULT_RULES = Rules()


def _start(edition: Edition, rules: Rules) -> State:
    """The position of every new game of ``edition`` under ``rules`` before its chance is drawn: the
    setup's tasks queued, full piles, blank seats (immutable, so every new game copies one), kept on
    the edition."""
    key = ("start", rules)
    found = edition.memo.get(key)
    if found is None:
        supply = tuple(f"{colour[0]}{i:02d}" for colour in COLOURS for i in range(1, rules.sticks_per_colour + 1))
        queue = [Task("RELIC", p, spot) for p in (0, 1) for spot in RELIC_SPOTS]
        queue += [Task("FIRST_GUIDE", p, "2") for p in (0, 1)]
        queue += [Task("DRAW", p, "HAND") for _ in range(rules.starting_hand) for p in (0, 1)]
        queue.append(Task("ROOM"))
        players = tuple(combined(Player(Temple(edition.tiles))) for _ in (0, 1))
        start = combined(
            State(
                edition=edition,
                rules=rules,
                players=players,
                draw_pile=tuple(sorted(edition.cards)),
                room_pile=tuple(sorted(edition.tiles)),
                amulet_pile=tuple(sorted(edition.amulets)),
                supply=supply,
                queue=tuple(queue),
                log=((PUBLIC, f"New game of Nagaraja ({edition.describe()}); relics are hidden at random."),),
            )
        )
        found = edition.memo[key] = start
    return found
