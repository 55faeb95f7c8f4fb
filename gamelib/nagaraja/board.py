"""The Nagaraja board: both temples, the room at stake, sticks, hands and controls (anywidget).

The board draws only ``state.observation(viewer)`` (nagaraja.md#hidden-information): what it sends to the page
is built from the observation alone, so the page never holds a card, relic or amulet
the viewer may not know. Clicks come back as ``pick`` dicts; this module turns them into
engine actions and lets the engine decide, so an illegal click shows the engine's reason.

``NagarajaBoard(game_or_match=None, *, seed=None, rules=None, viewer=None, bots=None, label=None)``:
a new game from ``seed`` and ``rules`` unless a state or a :class:`~gamelib.core.Match` is given;
``bots`` maps seats to policies (default: the heuristic bot opposite the viewer, seat 0);
``bots={}`` is hot-seat (the board always shows the player to act).

Picks the page sends (a headless test may assign the same dicts to ``board.pick``):

* ``{"kind": "commit", "cards": [...]}``, ``{"kind": "keep", "cards": [...]}``
* ``{"kind": "place", "cell": [r, c], "rotation": k}``, ``{"kind": "pass"}``
* ``{"kind": "naga", "source": colour, "card": id}`` (a Naga on a card with no legal
  parameters: the engine says why), ``{"kind": "action", "index": i}`` (the i-th legal action)
* ``{"kind": "bot"}`` (let the bot move), ``{"kind": "history", "to": ...}`` (base class)

The analysis overlay (like Pangu's hints) is off until ``show_analysis`` is set (the page's
checkbox sets it): then ``analysis`` carries, at the viewer's Call of Fate, P(win the room)
for each commitment, and in the Confrontation, P(win the room) after each legal move, all
computed by :mod:`gamelib.nagaraja.analysis` from the viewer's observation alone.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Mapping

import traitlets

from gamelib.core import IllegalMove, Match
from gamelib.nagaraja import analysis
from gamelib.nagaraja.actions import Commit, Keep, NoParams, Pass, PlaceTile, UseNaga
from gamelib.nagaraja.bots import heuristic_policy
from gamelib.nagaraja.cards import AMULET_EFFECTS, EFFECTS
from gamelib.nagaraja.edition import default_edition
from gamelib.nagaraja.odds_view import readable
from gamelib.nagaraja.rules import Rules, new_game
from gamelib.nagaraja.temple import CELLS, RELIC_SPOTS, TRAP, PlacedTile, Temple
from gamelib.nagaraja.words import effect_title, plain
from gamelib.widgets import BoardWidget, assets

_ESM, _CSS = assets(Path(__file__).with_name("board.js"), Path(__file__).with_name("board.css"))

PHASE_WORDS = {
    "CALL_OF_FATE": "Call of Fate",
    "CONFRONTATION": "Confrontation",
    "EXPLORATION": "Exploration",
    "NEW_DEAL": "New deal",
    "GAME_OVER": "Game over",
}
REASON_WORDS = {
    "CURSED_LOSS": "three cursed relics face up",
    "REACHED_25": "25 VP reached",
    "NINTH_TILE": "the ninth room placed",
    "ROOMS_EXHAUSTED": "no rooms left",
}
ENTRANCES = ("ENTRANCE_0", "ENTRANCE_1", "ENTRANCE_2")
EVENTS_SHOWN = 6
ANALYSIS_CACHE_SIZE = 64  # information sets remembered per board (stepping through the history revisits them)


class NagarajaBoard(BoardWidget):
    """A playable Nagaraja board showing one player's view."""

    _esm = _ESM
    _css = _CSS
    show_analysis = traitlets.Bool(False).tag(sync=True)
    analysis = traitlets.Dict().tag(sync=True)

    def __init__(
        self,
        game_or_match: Any = None,
        *,
        seed: int | None = None,
        rules: Rules | None = None,
        viewer: int | None = None,
        bots: Mapping[int, Callable] | Callable | None = None,
        label: str | None = None,
        **kwargs,
    ):
        if game_or_match is None:
            game_or_match = new_game(seed=seed, rules=rules)
        start = game_or_match.state if isinstance(game_or_match, Match) else game_or_match
        self.viewer = 0 if viewer is None else viewer
        if bots is None:
            bots = {1 - self.viewer: heuristic_policy}
        elif callable(bots):
            bots = {1 - self.viewer: bots}
        self.bots: dict[int, Callable] = dict(bots)
        self.bot_rng = random.Random(start.seed if seed is None else seed)
        self.label = label
        # the engine's event texts call the seats P0 and P1, so the names carry them too
        self.names = (
            ("P0", "P1")
            if not self.bots
            else tuple(f"Bot (P{seat})" if seat in self.bots else f"You (P{seat})" for seat in (0, 1))
        )
        self._analysis_cache: dict[str, dict] = {}
        super().__init__(game_or_match, **kwargs)
        self.observe(lambda _change: self.refresh(), names="show_analysis")
        if not isinstance(game_or_match, Match):
            self.play_bots()

    def __repr__(self) -> str:
        return _board_repr(self)

    # ------------------------------------------------------------ analysis overlay
    def refresh(self, message: str | None = None, kind: str = "info") -> None:
        with self.hold_sync():  # the overlay travels in the same message as the state it belongs to
            super().refresh(None if message is None else plain(message), kind)
            self.analysis = self.analysis_json(self.game_state)

    def analysis_json(self, state: Any) -> dict:
        """The overlay for the viewer's decision: computed only when switched on, cached by what the viewer knows."""
        if not self.show_analysis:
            return {"on": False}
        viewer = self.viewer_for(state)
        obs = state.observation(viewer)
        deciding = self.humans_turn(state) and state.to_act == viewer
        if not deciding or obs["phase"] not in ("CALL_OF_FATE", "CONFRONTATION"):
            return {
                "on": True,
                "phase": obs["phase"],
                "columns": [],
                "rows": [],
                "note": "the overlay shows the odds of your own Call of Fate and Confrontation decisions",
            }
        actions = state.legal_actions() if obs["phase"] == "CONFRONTATION" else []
        key = json.dumps([_information_set(obs), [str(a) for a in actions]], sort_keys=True)
        if key not in self._analysis_cache:
            if len(self._analysis_cache) >= ANALYSIS_CACHE_SIZE:
                self._analysis_cache.clear()
            self._analysis_cache[key] = _confrontation_overlay(obs, actions) if actions else _call_of_fate_overlay(obs)
        return self._analysis_cache[key]

    # ------------------------------------------------------------ who sees what
    def viewer_for(self, state: Any) -> int:
        """Hot-seat boards follow the player to act; a board against a bot stays with the human."""
        if not self.bots and state.to_act is not None:
            return state.to_act
        return self.viewer

    def humans_turn(self, state: Any) -> bool:
        return not state.is_terminal and state.to_act is not None and state.to_act not in self.bots

    # ------------------------------------------------------------ drawing
    def state_json(self, state: Any) -> dict:
        viewer = self.viewer_for(state)
        obs = state.observation(viewer)
        players = [self._player_json(obs, seat, viewer) for seat in (0, 1)]
        room = obs.get("current_room")
        return {
            "edition": obs.get("edition", ""),
            "placeholder": bool(obs.get("placeholder", True)),
            "viewer": viewer,
            "phase": obs["phase"],
            "to_act": obs["to_act"],
            "guide": obs["guide"],
            "your_turn": obs["to_act"] == viewer and self.humans_turn(state),
            "bot_to_act": not state.is_terminal and obs["to_act"] in self.bots,
            "status": self._status(obs, viewer),
            "players": players,
            "room": dict(room) if room else None,
            "room_winner": self.names[obs["room_winner"]] if obs.get("room_winner") is not None else None,
            "piles": {
                "rooms": obs.get("room_pile", 0),
                "draw": obs.get("draw_pile", 0),
                "discard": len(obs.get("discard_pile") or []),
                "amulets": obs.get("amulet_pile", 0),
            },
            "drawn": [_card_json(card) for card in obs.get("deal") or []] if obs["phase"] == "NEW_DEAL" else [],
            "events": [plain(event) for event in list(obs.get("events") or [])[-EVENTS_SHOWN:]],
            "result": self._result_json(obs, viewer),
        }

    def _player_json(self, obs: dict, seat: int, viewer: int) -> dict:
        p = obs["players"][seat]
        mine = seat == viewer
        hand = p.get("hand")
        committed = p.get("committed") or []
        played = [dict(_card_json(c), activated=False) for c in committed]
        played += [dict(_card_json(c), activated=True) for c in p.get("activated") or []]
        amulets = p.get("amulets")
        if mine:
            score_text = f"{p['score']} VP"
        else:
            count = p.get("amulet_count", 0)
            score_text = f"{p.get('visible_score', 0)} VP face up + {count} amulet{'s' if count != 1 else ''}"
        return {
            "seat": seat,
            "name": self.names[seat],
            "is_viewer": mine,
            "is_guide": obs["guide"] == seat,
            "to_act": obs["to_act"] == seat and obs["phase"] != "GAME_OVER",
            "score": p.get("score") if mine else None,
            "score_text": score_text,
            "hand": [_card_json(c) for c in hand] if hand is not None else None,
            "hand_count": p.get("hand_size", len(hand or [])),
            "known_hand": [_card_json(c) for c in p.get("known_hand") or []] if hand is None else [],
            "committed_count": p.get("committed_count", 0),
            "played": played,
            "sticks": [dict(s) for s in p.get("sticks") or []],
            "total": p.get("total"),
            "modifier": p.get("modifier", 0),
            "amulets": [_amulet_json(a) for a in amulets] if amulets is not None else None,
            "amulet_count": p.get("amulet_count", len(amulets or [])),
            "temple": _temple_json(p["temple"]),
        }

    def _status(self, obs: dict, viewer: int) -> str:
        phase = obs["phase"]
        if phase == "GAME_OVER":
            return "Game over"
        seat = obs["to_act"]
        who = "Your" if seat == viewer and seat not in self.bots else f"{self.names[seat]}'s"
        doing = {
            "CALL_OF_FATE": "commit cards of one symbol",
            "CONFRONTATION": "use a Naga or pass",
            "EXPLORATION": "place the room tile won",
            "NEW_DEAL": "keep 2 of the 3 cards drawn",
        }.get(phase, "")
        return f"{PHASE_WORDS.get(phase, phase)} · {who} turn: {doing}"

    def _result_json(self, obs: dict, viewer: int) -> dict | None:
        result = obs.get("result")
        if not result:
            return None
        winner, scores = result["winner"], result["scores"]
        who = "You win" if winner == viewer and self.bots else f"{self.names[winner]} wins"
        reason = REASON_WORDS.get(result["reason"], result["reason"])
        text = f"{who}: {reason} ({scores[0]} to {scores[1]} VP)"
        return {"winner": winner, "reason": result["reason"], "scores": list(scores), "text": text}

    def legal_json(self, state: Any) -> list:
        if not self.humans_turn(state):
            return []  # the bot's options would reveal its hand
        return [_action_json(i, action) for i, action in enumerate(state.legal_actions())]

    def describe(self, state: Any) -> str:
        events = state.observation(self.viewer_for(state)).get("events") or []
        return plain(events[-1]) if events else ""

    # ------------------------------------------------------------ clicks
    def handle_pick(self, pick: dict) -> str | None:
        state = self.game_state
        kind = pick.get("kind")
        if kind == "bot":
            if not self.play_bots(force=True):
                raise IllegalMove("it is not the bot's turn")
            return None
        if state.is_terminal:
            raise IllegalMove("the game is over: step back through the history, or start a new board")
        if not self.humans_turn(state):
            raise IllegalMove("it is the bot's turn: press 'let the bot play'")
        self.apply(self.action_for(pick, state))
        self.play_bots()
        return None

    def action_for(self, pick: dict, state: Any) -> Any:
        """The engine action a pick stands for (the engine, not the board, judges it)."""
        player, kind = state.to_act, pick.get("kind")
        if kind == "action":
            legal = state.legal_actions()
            index = pick.get("index")
            if type(index) is not int or not 0 <= index < len(legal):  # true is not move 1
                raise IllegalMove("that move is no longer on offer: the position has changed")
            return legal[index]
        if kind == "commit":
            return Commit(player, _picked_cards(pick))
        if kind == "keep":
            return Keep(player, _picked_cards(pick))
        if kind == "place":
            return PlaceTile(player, _picked_cell(pick), pick.get("rotation", 0))
        if kind == "pass":
            return Pass(player)
        if kind == "naga":
            return _naga_action(state, player, pick.get("source"), pick.get("card"))
        raise IllegalMove(f"the board does not know the pick {_short(kind)}")

    def play_bots(self, force: bool = False) -> bool:
        """Let the bot seats move until a human is to act (after a human move, or when asked)."""
        if self.match.can_step_forward and not force:
            return False  # looking at the past: do not rewrite the future by itself
        moved = False
        while not self.game_state.is_terminal and self.game_state.to_act in self.bots:
            state = self.game_state
            self.match.apply(self.bots[state.to_act](state, self.bot_rng))
            moved = True
        return moved

    # ------------------------------------------------------------ fallback
    def text_fallback(self) -> str:
        """The viewer's observation as text (never the full state: it holds hidden cards)."""
        data = self.state_json(self.game_state)
        lines = [f"Nagaraja (PLACEHOLDER teaching edition) - {data['status']}"]
        for player in data["players"]:
            hand = (
                " ".join(c["id"] for c in player["hand"])
                if player["hand"] is not None
                else f"{player['hand_count']} cards"
            )
            lines.append(
                f"{player['name']}{' (guide)' if player['is_guide'] else ''}: {player['score_text']}; hand: {hand}"
            )
            lines.extend("  " + row for row in _temple_rows(player["temple"]))
        if data["room"]:
            lines.append(f"Room at stake: {data['room']['tile']} ({data['room']['shape']})")
        lines.extend(data["events"][-3:])
        if data["result"]:
            lines.append(data["result"]["text"])
        return "\n".join(lines)


# --------------------------------------------------------------------------- the analysis overlay


def _information_set(obs: dict) -> dict:
    """The part of an observation the overlay depends on (its cache key)."""
    players = [
        {
            "hand": [c["id"] for c in p["hand"]] if p["hand"] is not None else None,
            "hand_size": p["hand_size"],
            "has_committed": p["has_committed"],
            "committed_count": p["committed_count"],
            "sticks": p["sticks"],
            "total": p["total"],
        }
        for p in obs["players"]
    ]
    return {
        "viewer": obs["viewer"],
        "guide": obs["guide"],
        "phase": obs["phase"],
        "players": players,
        "discard_pile": sorted(obs.get("discard_pile") or []),
    }


def _cell(p: Fraction, best: bool) -> dict:
    return {"p": str(p), "text": readable(p), "best": best}


def _call_of_fate_overlay(obs: dict) -> dict:
    odds = analysis.call_of_fate_odds(obs)
    if odds.is_guide:
        columns = [f"they commit {k}" for k in odds.counts]
        note = (
            "You are the guide: you win ties, and you commit before knowing how many cards your opponent "
            "will commit, so each column assumes one count."
        )
    else:
        columns = [f"they committed {k}" for k in odds.counts]
        note = "You follow: you know how many cards the guide committed; the guide wins ties."
    best = [max((row[2][j] for row in odds.rows), default=None) for j in range(len(odds.counts))]
    rows = [
        {
            "label": " + ".join(ids) or "nothing",
            "cards": list(ids),
            "pool": "B{} W{} G{}".format(*pool),
            "cells": [_cell(p, p == best[j]) for j, p in enumerate(values)],
        }
        for ids, pool, values in odds.rows
    ]
    return {
        "on": True,
        "phase": "CALL_OF_FATE",
        "title": "P(win the room) for each commitment",
        "columns": columns,
        "rows": rows,
        "note": note + " Model: every one-symbol set of that many cards you have not seen (hand or discard "
        "pile) is equally likely; raw throw, before any Naga.",
    }


def _confrontation_overlay(obs: dict, actions: list) -> dict:
    odds = analysis.confrontation_odds(obs, actions)
    best = max((p for _, p in odds), default=None)
    rows = [
        {"label": plain(str(action)), "index": i, "cells": [_cell(p, p == best)]} for i, (action, p) in enumerate(odds)
    ]
    return {
        "on": True,
        "phase": "CONFRONTATION",
        "title": "P(win the room) after each move",
        "columns": ["P(win)"],
        "rows": rows,
        "note": "If nobody uses another Naga or amulet afterwards (the room is then resolved at once); "
        "only a re-throw leaves anything to chance. The guide wins ties.",
    }


# --------------------------------------------------------------------------- JSON helpers


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _naga_action(state: Any, player: int, source: Any, card: Any) -> UseNaga:
    """The Naga a click on a card asks for; where the click can do nothing, the reason a student reads.

    The page sends the stick chosen (``source``, None when none is) and the card clicked. A card
    already in play, or no Naga at all, is explained here in the board's words; a card with a
    single legal way to use it is played at once (nothing to choose); several ways raise a
    reason that points at the choice buttons. Anything else goes to the engine, which says why.
    """
    if not isinstance(card, str) or not isinstance(source, (str, type(None))):
        return UseNaga(player, source, card, NoParams())  # the engine names what is malformed
    if state.phase != "CONFRONTATION":  # the engine names the phase (any colour: the phase is checked first)
        return UseNaga(player, source or "BROWN", card, NoParams())
    me = state.players[player]
    if card in set(me.committed or ()) | set(me.activated):
        how = "it was activated already" if card in me.activated else "it was committed this round"
        raise IllegalMove(f"{card} is already in play ({how}): a Naga activates a card still in your hand")
    nagas = [a for a in state.legal_actions() if isinstance(a, UseNaga)]
    sources = {a.source for a in nagas}
    ways = [a for a in nagas if a.card == card and (source is None or a.source == source)]
    if source is None and not sources:
        raise IllegalMove(
            "you have no Naga to use: a card of your hand is activated by spending a Naga stick "
            "(or an amulet's extra Naga); press pass to end your part of the Confrontation"
        )
    if source is None and len(sources) > 1:
        raise IllegalMove("first click the Naga stick you want to spend, then the card")
    if len(ways) == 1:
        return ways[0]
    if len(ways) > 1:
        raise IllegalMove(f"{card} can be used in {len(ways)} ways here: choose one of the buttons under 'Use a Naga'")
    source = next(iter(sources)) if source is None else source
    return UseNaga(player, source, card, NoParams())  # the engine says why this card cannot be used


def _picked_cards(pick: dict) -> tuple:
    """The card ids of a commit or keep pick, sorted as the engine wants them; the page sends a list of ids."""
    cards = pick.get("cards") or ()
    if not isinstance(cards, (list, tuple)) or not all(isinstance(c, str) for c in cards):
        raise IllegalMove(f"pick the cards by their ids, not {_short(cards)}")
    return tuple(sorted(cards))


def _picked_cell(pick: dict) -> tuple:
    """The (row, column) of a place pick as sent; the engine judges the numbers."""
    cell = pick.get("cell")
    if not isinstance(cell, (list, tuple)) or len(cell) != 2:
        raise IllegalMove(f"pick a cell of the temple as [row, column], not {_short(cell)}")
    return tuple(cell)


def _board_repr(board: BoardWidget) -> str:
    """A repr without a memory address (nbval compares it), naming the label when there is one."""
    named = f"{board.label!r}, " if board.label else ""
    return f"{type(board).__name__}({named}move {board.match.index} of {board.match.length})"


def _card_json(card: dict) -> dict:
    effect = EFFECTS.get(card["effect"])
    return {
        "id": card["id"],
        "symbol": card["symbol"],
        "sticks": card["sticks"],
        "effect": card["effect"],
        "title": effect_title(card["effect"]),
        "target": card.get("target") or (effect.target.value if effect else ""),
        "text": effect.text if effect else "",
    }


def _amulet_json(amulet: dict) -> dict:
    effect = amulet.get("effect")
    return {
        "id": amulet["id"],
        "vp": amulet["vp"],
        "effect": effect,
        "title": effect_title(effect),
        "text": AMULET_EFFECTS.get(effect, ""),
    }


def _temple_json(temple: dict) -> dict:
    """Cells as a 3x3 grid; every spot (entrances included) with what the viewer may see."""
    lit = {}
    for row, col, segment in temple.get("connected_nodes") or []:
        lit.setdefault((row, col), []).append(segment)
    cells: list[list[dict | None]] = [[None] * 3 for _ in range(3)]
    for entry in temple["cells"]:
        row, col = entry["cell"]
        content = entry["content"]
        if content is None:
            continue
        if content == "TRAP":
            cells[row][col] = {"trap": True}
            continue
        cells[row][col] = {
            "tile": content["tile"],
            "rotation": content["rotation"],
            "segments": list(content["segments"]),  # already turned: the page draws them as they lie
            "special": content.get("special"),
            "amulet": bool(content.get("amulet")),
            "connected": sorted(lit.get((row, col), [])),
            "trap": False,
        }
    spots = {}
    for spot, relic in temple["relics"].items():
        spots[spot] = {"face_up": bool(relic["face_up"]), "value": relic.get("vp"), "cursed": relic.get("cursed")}
    for entrance in ENTRANCES:
        spots[entrance] = {"entrance": True}
    return {
        "cells": cells,
        "spots": spots,
        "connected_spots": sorted(temple.get("connected_spots") or []),
        "legal_cells": [list(c) for c in temple.get("legal_cells") or []],
    }


def _open_temple_view(temple: Temple, edition) -> dict:
    """A sandbox temple in the engine's observation shape; face-up relics show, the rest do not."""
    relics = edition.relic_by_id
    cells = []
    for cell in CELLS:
        content = temple.cell(cell)
        if isinstance(content, PlacedTile):
            content = {
                "tile": content.tile_id,
                "rotation": content.rotation,
                "segments": temple.open_segments(cell),
                "special": edition.tiles[content.tile_id].special,
                "amulet": content.amulet is not None,
            }
        cells.append({"cell": list(cell), "content": content})
    views = {}
    for spot in RELIC_SPOTS:
        relic = relics.get(temple.relic_at(spot)) if temple.face_up(spot) else None
        views[spot] = {
            "face_up": temple.face_up(spot),
            "vp": relic.vp if relic else None,
            "cursed": relic.cursed if relic else None,
        }
    return {
        "cells": cells,
        "relics": views,
        "connected_spots": sorted(temple.connected_spots()),
        "connected_nodes": sorted([r, c, seg] for (r, c), seg in temple.connected_nodes()),
        "legal_cells": [list(cell) for cell in temple.legal_cells()],
    }


def _temple_rows(temple: dict) -> list[str]:
    def cell_text(cell):
        if cell is None:
            return " .  "
        if cell["trap"]:
            return "TRAP"
        return f"{cell['tile']}{cell['rotation']}"

    def relic(spot):
        info = temple["spots"][spot]
        if info["face_up"]:
            return ("C" if info["cursed"] else "S") + str(info["value"])
        return "??"

    top = "     " + " ".join(f"{relic(f'TOP_{c}'):^4}" for c in range(3))
    rows = [top]
    for r in range(3):
        rows.append(
            f"{relic(f'LEFT_{r}'):>3}  "
            + " ".join(cell_text(temple["cells"][r][c]) for c in range(3))
            + f"  {relic(f'RIGHT_{r}')}"
        )
    rows.append("      ^    ^    ^  (entrances)")
    return rows


def _action_json(index: int, action: Any) -> dict:
    """A legal action as the page needs it: its type, label and the fields it highlights."""
    entry = {"index": index, "type": type(action).__name__, "label": plain(str(action))}
    for name in ("cards", "source", "card", "amulet", "swap", "rotation"):
        if hasattr(action, name):
            value = getattr(action, name)
            entry[name] = list(value) if isinstance(value, tuple) else value
    if hasattr(action, "cell"):
        entry["cell"] = list(action.cell)
    if hasattr(action, "params"):
        entry["params_label"] = plain(str(action.params))
    return entry


# --------------------------------------------------------------------------- temple sandbox


@dataclass(frozen=True)
class Placement:
    """Put the next tile of a sandbox in ``cell``, turned ``rotation`` quarter-turns clockwise."""

    cell: tuple[int, int]
    rotation: int

    def __str__(self) -> str:
        return f"place at {tuple(self.cell)} turned {self.rotation}"


@dataclass(frozen=True)
class TempleSandbox:
    """One temple and a queue of room tiles to place: the live board of the temple lesson.

    Not a game (nobody wins): a state with the engine's shape, so the board's history
    bar steps through the placements. Relics are ``{spot: relic id}`` of the edition.
    """

    temple: Temple
    queue: tuple[str, ...] = ()
    amulets: tuple[str, ...] = ()  # ids of the tiles in the queue that carry a face-down amulet
    collected: tuple[str, ...] = ()
    placed: int = 0
    current_player = 0
    to_act = 0

    @property
    def is_terminal(self) -> bool:
        return not self.queue

    def legal_actions(self) -> list[Placement]:
        if self.is_terminal:
            return []
        return [Placement(cell, k) for cell in self.temple.legal_cells() for k in range(4)]

    def apply(self, action: Placement) -> "TempleSandbox":
        if self.is_terminal:
            raise IllegalMove("there is no tile left to place")
        if (
            not isinstance(action, Placement)
            or type(action.rotation) is not int
            or not (isinstance(action.cell, (tuple, list)) and all(type(v) is int for v in action.cell))
        ):
            raise IllegalMove(f"{action!r} is not a placement: Placement((row, column), rotation) of whole numbers")
        tile = self.queue[0]
        amulet = f"amulet on {tile}" if tile in self.amulets else None
        temple = self.temple.place(tuple(action.cell), tile, action.rotation, amulet=amulet)
        temple, taken = temple.collect_amulets()
        return replace(
            self, temple=temple, queue=self.queue[1:], collected=self.collected + tuple(taken), placed=self.placed + 1
        )

    def __str__(self) -> str:
        return "\n".join(self.temple.rows())


def sandbox(tiles=("R16",), cells=None, relics=None, amulets=None, seed=0) -> TempleSandbox:
    """A temple sandbox: ``cells`` {(r, c): (tile, rotation) | "TRAP"} already placed, ``tiles`` to place.

    Relics default to the edition's nine in a seeded shuffle; tiles with a special location
    carry an amulet unless ``amulets`` lists which do.
    """
    edition = default_edition()
    if relics is None:
        ids = [relic.id for relic in edition.relics]
        random.Random(seed).shuffle(ids)
        relics = dict(zip(RELIC_SPOTS, ids))
    temple = Temple(edition.tiles).with_relics(relics)
    for cell, content in (cells or {}).items():
        if content == TRAP:
            temple, _ = temple.put_trap(cell)
        else:
            tile, rotation = content
            temple = temple.place(cell, tile, rotation, legal_only=False)
    tiles = tuple(tiles)
    if amulets is None:
        amulets = tuple(t for t in tiles if edition.tiles[t].special is not None)
    return TempleSandbox(temple, tiles, tuple(amulets))


class TempleBoard(BoardWidget):
    """One temple on its own: click a highlighted cell to place the next tile; rotate it first."""

    _esm = _ESM
    _css = _CSS

    def __init__(self, game_or_match: Any = None, *, seed: int | None = None, label: str | None = None, **kwargs):
        """A sandbox (``sandbox(...)``) or a Match of one; by default one R16 tile on a temple seeded ``seed``."""
        self.label = label
        if game_or_match is None:
            game_or_match = sandbox(seed=0 if seed is None else seed)
        super().__init__(game_or_match, **kwargs)

    def __repr__(self) -> str:
        return _board_repr(self)

    def state_json(self, state: TempleSandbox) -> dict:
        edition = default_edition()
        temple = state.temple
        room = None
        if state.queue:
            tile = edition.tiles[state.queue[0]]
            room = dict(tile.to_dict(), tile=tile.id, amulet=tile.id in state.amulets)
        up = temple.face_up_spots()
        status = (
            f"place {state.queue[0]}: rotate it, then click a highlighted cell"
            if state.queue
            else "all tiles placed: step back to try another way"
        )
        return {
            "mode": "temple",
            "viewer": 0,
            "phase": "EXPLORATION" if state.queue else "GAME_OVER",
            "to_act": 0,
            "your_turn": bool(state.queue),
            "status": status,
            "room": room,
            "players": [
                {
                    "seat": 0,
                    "name": "Temple",
                    "is_viewer": True,
                    "temple": _temple_json(_open_temple_view(temple, edition)),
                }
            ],
            "events": [
                f"face-up relics: {', '.join(up) if up else 'none'}",
                f"amulets collected: {len(state.collected)}",
            ],
        }

    def legal_json(self, state: TempleSandbox) -> list:
        return [
            {"index": i, "type": "PlaceTile", "cell": list(a.cell), "rotation": a.rotation, "label": str(a)}
            for i, a in enumerate(state.legal_actions())
        ]

    def handle_pick(self, pick: dict) -> str | None:
        if pick.get("kind") != "place":
            raise IllegalMove("in the temple sandbox you can only place the tile")
        self.apply(Placement(_picked_cell(pick), pick.get("rotation", 0)))
        return None

    def describe(self, state: TempleSandbox) -> str:
        up = state.temple.face_up_spots()
        tiles = len(state.temple.tile_cells())  # tiles laid before the lesson's first click count too
        return (
            f"{tiles} tile{'s' if tiles != 1 else ''} in the temple; face-up relics: {', '.join(up) if up else 'none'}"
        )

    def text_fallback(self) -> str:
        return str(self.game_state)
