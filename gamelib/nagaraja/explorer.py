"""An interactive explorer of fate-stick odds (nagaraja.md#effects, nagaraja.md#odds, nagaraja.md#lessons).

Two players choose their pools, by stick counts or by laying cards from a dealt hand;
the explorer shows, exactly, both players' points distributions, the chance of at
least k points, the joint points x Nagas heat map, who wins the room (the guide wins
ties, nagaraja.md#odds), the mean and spread of each player's points, what a stick effect
(PLUS2, DISCARD2, RETHROW2) does to the room, and how P(win) moves with the number of
sticks of one colour under Models A and B. A "throw" button simulates throws (seeded)
and overlays their frequencies on the exact bars; a face editor lets students design
their own sticks.

The kernel sends only exact integer counts (a few kilobytes) to the explorer's own
front end (``explorer.js``, SVG), which draws the plots; matplotlib and numpy are not
used, so the explorer also runs as a web app and in a browser-only Python. Each change
reaches the page as one state message (the plots widget's ``data``), holding the number
boxes, the effect's result, the published ranges and the plot data together.

This module is the widget; its words and number boxes are in ``odds_view`` and its lesson
check (``check_contest``) in ``lesson_checks``, where the other games keep theirs (both
names are still importable from here, as the lessons do).

    >>> explorer = explore()                # Elodie (0, 3, 0) vs Marion (3, 1, 1), nagaraja.md#example
    >>> explorer.shown("pwin")              # the exact fraction in the "P(win)" box
    Fraction(35, 4096)
    >>> explorer.set_pool(0, (0, 4, 0))     # moves three sliders, as a user would
"""

from __future__ import annotations

import base64
import html
import json
import math
import re
import sys
import time
import warnings
from array import array
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import groupby, repeat
from pathlib import Path

import anywidget
import ipywidgets as widgets
import traitlets

from gamelib.core import chance_rng
from gamelib.nagaraja import published, sticks
from gamelib.nagaraja.lesson_checks import check_contest  # noqa: F401  (the lessons import it from here)
from gamelib.nagaraja.odds_view import (  # noqa: F401  (the lessons and the board import these from here)
    ABSENT_BOX,
    EFFECT_WORDS,
    absent_note,
    faces_to_text,
    number_box,
    number_boxes,
    parse_faces,
    percent,
    pool_words,
    range_row,
    ranges_panel,
    readable,
)
from gamelib.simulate import proportion
from gamelib.widgets import assets

HERE = Path(__file__).parent
SUPPLY = 12  # the supply holds 12 sticks of each colour in all (nagaraja.md#stick-models)
FREE_MAX = 36  # free mode: each slider goes to 36, the whole game's sticks
POOL_MAX = sticks.MAX_POOL_STICKS  # ... while a side's three sliders together stop where exact odds stop (100)
HAND_SIZE = 5  # nagaraja.md#setup: each player is dealt 5 cards
DEFAULT_NAMES = ("Elodie", "Marion")
DEFAULT_POOLS = ((0, 3, 0), (3, 1, 1))  # the rulebook's example, nagaraja.md#example
STICK_COLOURS = {"BROWN": "#8B5A2B", "WHITE": "#F4F1E8", "GREEN": "#3A8F5C"}
STICK_LENGTHS = {"BROWN": 1.0, "WHITE": 0.78, "GREEN": 0.56}  # long, medium, short (nagaraja.md#fate-sticks)
_EXACT = re.compile(r'class="gl-exact"[^>]*data-value="([^"]+)"')


# --------------------------------------------------------------------------- the sticks picture (static)


def draw_sticks(faces="A", ax=None):
    """A picture of the three sticks and their faces (matplotlib, for the lessons' static figures only)."""
    from matplotlib.patches import FancyBboxPatch

    table = sticks.load_faces(faces)
    if ax is None:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        from gamelib import plots

        plots.style()
        fig = Figure(figsize=(7.0, 3.0), layout="constrained")
        FigureCanvasAgg(fig)
        ax = fig.add_subplot()
    widest = max(len(fs) for fs in table.values())
    gap = 1.3  # between rows, leaving room for each face's caption
    top = (len(sticks.COLOURS) - 1) * gap
    for row, colour in enumerate(sticks.COLOURS):
        y = top - row * gap
        length = 3.2 * STICK_LENGTHS[colour]
        ax.add_patch(
            FancyBboxPatch(
                (0, y - 0.16),
                length,
                0.32,
                boxstyle="round,pad=0.02,rounding_size=0.12",
                facecolor=STICK_COLOURS[colour],
                edgecolor="black",
                linewidth=1,
            )
        )
        ax.text(-0.15, y, colour.lower(), ha="right", va="center", fontsize=10)
        for i, (points, naga) in enumerate(table[colour]):
            _draw_face(ax, 4.0 + i * 0.9, y, points, naga, STICK_COLOURS[colour])
    ax.text(
        4.0 + (widest - 1) * 0.45, top + 0.5, "the faces (each equally likely)", ha="center", va="bottom", fontsize=9
    )
    ax.set_xlim(-1.0, 4.5 + widest * 0.9)
    ax.set_ylim(-0.75, top + 0.8)
    ax.set_aspect("equal")
    ax.axis("off")
    return ax.figure


def _draw_face(ax, x: float, y: float, points: int, naga: int, colour: str) -> None:
    from matplotlib.patches import FancyBboxPatch

    ax.add_patch(
        FancyBboxPatch(
            (x - 0.35, y - 0.35),
            0.7,
            0.7,
            boxstyle="round,pad=0,rounding_size=0.08",
            facecolor=colour,
            edgecolor="black",
            linewidth=1,
        )
    )
    ink = "white" if colour != STICK_COLOURS["WHITE"] else "black"
    if naga:  # a snake: a sine wave with a head
        xs = [x - 0.25 + 0.45 * i / 39 for i in range(40)]
        ax.plot(xs, [y + 0.1 * math.sin((v - x) * 14) for v in xs], color=ink, linewidth=2)
        ax.plot([x + 0.22], [y + 0.1 * math.sin(0.22 * 14)], marker="o", color=ink, markersize=4)
    if points:
        columns = 2 if points == 4 else min(points, 3)
        for k in range(min(points, 9)):
            px = x + (k % columns - (columns - 1) / 2) * 0.2
            py = y + (k // columns - (points - 1) // columns / 2) * 0.2 - (0.2 if naga else 0)
            ax.plot([px], [py], marker="o", color=ink, markersize=5)
    ax.text(
        x,
        y - 0.5,
        "Naga" if naga and not points else str(points) + (" + Naga" if naga else ""),
        ha="center",
        va="top",
        fontsize=8,
    )


# --------------------------------------------------------------------------- the plots widget


class StickPlots(anywidget.AnyWidget):
    """The explorer's plots, drawn in the page from the exact counts in ``data``."""

    # The shared board helpers come first: they include the notice for a board left by a restarted kernel.
    _esm, _css = assets(HERE / "explorer.js", HERE / "explorer.css")
    # One JSON string, not a nested dict: ipywidgets would walk every element looking for binary buffers.
    data = traitlets.Unicode("{}").tag(sync=True)
    heat_player = traitlets.Int(0).tag(sync=True)
    # The page's Home/End keys on a slider handle: "<player>-<colour>:<Home|End>:<press number>".
    slider_key = traitlets.Unicode("").tag(sync=True)

    @property
    def content(self) -> dict:
        """The data sent, read back as the page reads it."""
        return json.loads(self.data)

    def __repr__(self) -> str:
        return "StickPlots()"


# --------------------------------------------------------------------------- the explorer


class PagePart:
    """One part of the page the kernel computes (a number box, the ranges, the effect's result), as HTML in
    ``value``. Not a widget: every part travels in the plots widget's one state message per change."""

    def __init__(self, key: str):
        self.key, self.value = key, ""

    def __repr__(self) -> str:
        return f"PagePart({self.key!r})"


NumberBox = PagePart  # the number boxes' earlier name


class OddsExplorer:
    """Sliders or cards, exact odds, stick effects, a sweep, simulated throws and a face editor."""

    def __init__(
        self,
        faces="A",
        pools=DEFAULT_POOLS,
        names=DEFAULT_NAMES,
        guide: int = 0,
        seed: int = 2019,
        throws: int = 200,
        free: bool = False,
        plot: bool = True,
    ):
        self.names = tuple(names)
        self.plot = plot  # False skips building the plot data (fast headless sweeps); numbers still update
        self.seed = seed
        self.faces = sticks.load_faces(faces)
        self.face_source = f"Model {faces.upper()}" if isinstance(faces, str) else "your own table"
        self.kernel_ms: list[float] = []
        self._joint = None  # the heat map's last joint table (sticks.joint_step): the next one steps from it
        self._quiet = False  # True while the explorer itself moves several controls
        self._reset_simulation()
        self.plots = StickPlots()
        self.plots.add_class("gl-plot")
        self.plots.observe(lambda _: self.refresh(), names="heat_player")
        self.plots.observe(self._on_slider_key, names="slider_key")
        self._build_sliders(pools, guide, free)
        self._build_cards()
        self._build_throws(throws)
        self._build_effects()
        self._build_editor()
        self._build_layout()
        self.refresh()

    # ------------------------------------------------------------- construction
    def _build_sliders(self, pools, guide: int, free: bool) -> None:
        self.mode = widgets.ToggleButtons(
            options=[("game: 12 of each colour in all", "game"), ("free: no supply limit", "free")],
            value="free" if free else "game",
            style={"button_width": "240px"},
        )
        self.mode.add_class("gl-mode")
        self.sliders: list[dict[str, widgets.IntSlider]] = []
        columns = []
        for player, (name, pool) in enumerate(zip(self.names, pools)):
            row = {}
            for colour, count in zip(sticks.COLOURS, sticks.as_pool(pool)):
                slider = widgets.IntSlider(
                    value=count,
                    min=0,
                    max=FREE_MAX,
                    description=colour.lower(),
                    continuous_update=False,
                    readout=True,
                    style={"description_width": "50px"},
                    layout=widgets.Layout(width="280px"),
                )
                slider.add_class(f"gl-slider-{player}-{colour.lower()}")
                row[colour] = slider
            self.sliders.append(row)
            title = widgets.HTML(f"<b>{html.escape(name)}</b> throws")
            columns.append(widgets.VBox([title, *row.values()], layout=widgets.Layout(flex="0 0 auto", width="290px")))
        self.guide = widgets.ToggleButtons(
            options=[(name, i) for i, name in enumerate(self.names)],
            value=guide,
            style={"button_width": "90px"},
            tooltips=["the guide wins ties (rules page: Odds)"] * 2,
        )
        self.guide.add_class("gl-guide")
        columns.append(widgets.VBox([widgets.HTML("<b>Guide</b> (wins ties)"), self.guide]))
        self.players = widgets.HBox(columns)
        self.supply_message = widgets.HTML()
        self.supply_message.add_class("gl-supply")
        self._apply_supply()
        for row in self.sliders:
            for slider in row.values():
                slider.observe(self._on_slider, names="value")
        self.guide.observe(self._on_guide, names="value")
        self.mode.observe(self._on_mode, names="value")

    def _build_cards(self) -> None:
        from gamelib.nagaraja import (
            default_edition,  # the packaged cards (nagaraja.md#card-list)
        )

        self.cards = default_edition().cards
        self.deal_button = widgets.Button(description="deal new hands", icon="refresh")
        self.deal_button.add_class("gl-deal")
        self.deal_button.on_click(lambda _: self.deal())
        self.card_message = widgets.HTML()
        self.card_message.add_class("gl-card-message")
        self.hand_rows = [widgets.HBox() for _ in self.names]
        self.card_buttons: list[list[widgets.ToggleButton]] = [[], []]
        self._deals = 0
        self.card_panel = widgets.VBox(
            [
                widgets.HTML(
                    "<b>Or lay cards</b> from a dealt hand (any number of cards of <i>one symbol</i>, "
                    "rules page: Call of fate); the sliders follow."
                ),
                self.deal_button,
                *[
                    widgets.HBox([widgets.HTML(f"{html.escape(name)}:", layout=widgets.Layout(width="60px")), row])
                    for name, row in zip(self.names, self.hand_rows)
                ],
                self.card_message,
            ]
        )
        self.deal()

    def _build_throws(self, throws: int) -> None:
        self.throw_count = widgets.BoundedIntText(
            value=throws,
            min=1,
            max=100_000,
            step=100,
            description="N =",
            style={"description_width": "30px"},
            layout=widgets.Layout(width="130px"),
        )
        self.throw_button = widgets.Button(
            description="throw N times", icon="random", tooltip="simulate N more throws of both pools"
        )
        self.throw_button.add_class("gl-throw")
        self.throw_button.on_click(lambda _: self.throw())
        self.clear_button = widgets.Button(description="clear throws")
        self.clear_button.on_click(lambda _: self._clear_throws())
        self.simulation = widgets.HTML()
        self.simulation.add_class("gl-sim")
        self.throw_panel = widgets.VBox(
            [widgets.HBox([self.throw_count, self.throw_button, self.clear_button]), self.simulation]
        )

    def _build_effects(self) -> None:
        self.effect = widgets.Dropdown(
            options=[("no effect (the raw throw)", "")]
            + [(f"{name}: {words}", name) for name, words in EFFECT_WORDS.items()],
            value="",
            description="effect",
            layout=widgets.Layout(width="330px"),
        )
        self.effect.add_class("gl-effect-choice")
        self.effect_target = widgets.ToggleButtons(
            options=[(name, i) for i, name in enumerate(self.names)],
            value=1,
            description="on",
            style={"button_width": "80px"},
        )
        self.effect_target.add_class("gl-effect-target")
        self.effect_chooser = widgets.ToggleButtons(
            options=[(name, i) for i, name in enumerate(self.names)],
            value=1,
            description="chosen by",
            style={"button_width": "80px"},
        )
        self.effect_chooser.add_class("gl-effect-chooser")
        self.effect_result = PagePart("effect")  # shown under the number boxes, in the plots widget
        for control in (self.effect, self.effect_target, self.effect_chooser):
            control.observe(lambda _: self.refresh(), names="value")
        self.sweep_choice = widgets.Dropdown(
            options=[
                (f"{name}'s {colour.lower()} sticks", (player, colour))
                for player, name in enumerate(self.names)
                for colour in sticks.COLOURS
            ],
            value=(0, "WHITE"),
            description="sweep",
            layout=widgets.Layout(width="330px"),
        )
        self.sweep_choice.add_class("gl-sweep-choice")
        self.sweep_choice.observe(lambda _: self.refresh(), names="value")
        self.effect_panel = widgets.VBox(
            [
                widgets.HTML(
                    "<b>After the throw</b>: one stick effect (rules page: Effects), its sticks chosen by whoever "
                    "activates it, with both throws in view; then the room is resolved."
                ),
                widgets.HBox([self.effect, self.effect_target, self.effect_chooser]),
            ]
        )

    def _build_editor(self) -> None:
        self.face_texts = {}
        for colour in sticks.COLOURS:
            text = widgets.Text(
                value=faces_to_text(self.faces[colour]),
                description=colour.lower(),
                continuous_update=False,
                layout=widgets.Layout(width="240px"),
            )
            text.add_class(f"gl-faces-{colour.lower()}")
            text.observe(self._on_faces_edited, names="value")
            self.face_texts[colour] = text
        self.free_design = widgets.Checkbox(value=False, description="free design (any number of faces)", indent=False)
        self.free_design.add_class("gl-free-design")
        self.free_design.observe(self._on_faces_edited, names="value")
        model_buttons = []
        for model in sticks.MODELS:
            button = widgets.Button(description=f"Model {model}", layout=widgets.Layout(width="90px"))
            button.on_click(lambda _, m=model: self.load_model(m))
            model_buttons.append(button)
        self.face_message = widgets.HTML()
        self.face_message.add_class("gl-error")
        self.face_title = widgets.HTML()
        self.editor = widgets.VBox(
            [
                self.face_title,
                widgets.HBox(list(self.face_texts.values())),
                widgets.HBox([self.free_design, widgets.HTML("start again from:"), *model_buttons]),
                self.face_message,
            ]
        )

    def _build_layout(self) -> None:
        # Everything a change repaints (the six number boxes, the reason nothing is computed, the effect's
        # result, the published ranges and the plots) travels in ONE message: the plots widget's state,
        # drawn by explorer.js in that order (.gl-odds > .gl-numbers + .gl-odds-error, .gl-effect,
        # .gl-edition-ranges, then the plots). The controls all sit above it.
        self.numbers = {key: PagePart(key) for key in ("pwin", "plose", "ptie", "pswap", "moments", "nagas")}
        self.number_boxes = PagePart("numbers")
        self.odds_error = PagePart("error")
        self.edition_ranges = PagePart("ranges")
        self.widget = widgets.VBox(
            [
                widgets.HTML("<h3 style='margin:0'>Fate-stick odds explorer</h3>"),
                self.mode,
                self.players,
                self.supply_message,
                self.card_panel,
                self.throw_panel,
                self.effect_panel,
                self.plots,
                self.sweep_choice,
                widgets.HTML(
                    "<b>Design your own sticks</b> (press Enter to apply): "
                    "one entry per face, e.g. <code>2,3,3,4</code>; <code>N</code> is a Naga."
                ),
                self.editor,
            ]
        )
        self.widget.add_class("gl-explorer")

    # ------------------------------------------------------------- pools and the supply
    @property
    def pools(self) -> tuple[sticks.Pool, sticks.Pool]:
        return tuple(tuple(row[c].value for c in sticks.COLOURS) for row in self.sliders)

    def set_pool(self, player: int, pool) -> None:
        """Move one player's three sliders (each move recomputes, as a user's would)."""
        pool = sticks.as_pool(pool)
        if self.mode.value == "game":
            other = self.pools[1 - player]
            for colour, mine, theirs in zip(sticks.COLOURS, pool, other):
                if mine + theirs > SUPPLY:
                    raise ValueError(
                        f"the supply has {SUPPLY} {colour.lower()} sticks in all and "
                        f"{self.names[1 - player]} holds {theirs}: switch to free mode for more"
                    )
        elif sum(pool) > POOL_MAX:
            raise ValueError(f"at most {POOL_MAX} sticks a side: exact odds stop there")
        # Lower counts first, so that each step stays within the side's total of POOL_MAX sticks.
        for colour, count in sorted(
            zip(sticks.COLOURS, pool), key=lambda item: item[1] - self.pools[player][sticks.COLOURS.index(item[0])]
        ):
            self.sliders[player][colour].value = count

    def _apply_supply(self) -> None:
        """Game mode: a slider can take only what the other player left in the supply. Free mode: up to
        36 a colour, but a side's three sliders stop together at POOL_MAX sticks, where exact odds stop,
        so every pool the sliders can show is computed (issue 25)."""
        for colour in sticks.COLOURS:
            for player in (0, 1):
                top = self._slider_top(player, colour)
                if self.sliders[player][colour].max != top:
                    self.sliders[player][colour].max = top

    def _slider_top(self, player: int, colour: str) -> int:
        """The highest count the supply rule (_apply_supply) allows on this slider, given the other sliders."""
        if self.mode.value == "game":
            return SUPPLY - self.sliders[1 - player][colour].value
        others = sum(s.value for c, s in self.sliders[player].items() if c != colour)
        return min(FREE_MAX, POOL_MAX - others)

    def _on_mode(self, change) -> None:
        changes = []
        if change["new"] == "game":  # the guide takes first (nagaraja.md#call-of-fate); the other gets what is left
            guide = self.guide.value
            self._quiet = True
            try:
                for colour in sticks.COLOURS:
                    for player in (guide, 1 - guide):
                        slider = self.sliders[player][colour]
                        left = SUPPLY - (self.sliders[guide][colour].value if player != guide else 0)
                        if slider.value > left:
                            changes.append(f"{self.names[player]}'s {colour.lower()} {slider.value} → {left}")
                            slider.value = left
            finally:
                self._quiet = False
        self._apply_supply()
        self.supply_message.value = (
            ""
            if not changes
            else (
                f'<span class="gl-mode-note">Game mode: the supply holds {SUPPLY} sticks of each colour and the guide, '
                f"{html.escape(self.names[self.guide.value])}, takes first (rules page: Call of fate), so the sliders "
                f"moved: {html.escape('; '.join(changes))}.</span>"
            )
        )
        self._reset_simulation()
        self.refresh()

    # ------------------------------------------------------------- cards
    def deal(self) -> None:
        """Deal a fresh hand of 5 cards to each player (seeded: deal k uses seed (seed, "deal", k))."""
        rng = chance_rng(f"{self.seed}:deal", self._deals)
        self._deals += 1
        dealt = rng.sample(sorted(self.cards), HAND_SIZE * len(self.names))
        self.hands = [sorted(dealt[i * HAND_SIZE : (i + 1) * HAND_SIZE]) for i in range(len(self.names))]
        for player, hand in enumerate(self.hands):
            buttons = []
            for index, card_id in enumerate(hand):
                card = self.cards[card_id]
                button = widgets.ToggleButton(
                    value=False,
                    description=f"{card.sticks} · {card.id}",
                    tooltip=f"{card.id}: sticks {card.sticks}, effect {card.effect}",
                    layout=widgets.Layout(width="135px"),
                )
                button.add_class(f"gl-card-{player}-{index}")
                button.observe(lambda change, p=player: self._on_card(p, change), names="value")
                buttons.append(button)
            self.card_buttons[player] = buttons
            self.hand_rows[player].children = buttons
        self.card_message.value = ""

    def laid(self, player: int) -> list[str]:
        """The ids of the cards a player has laid."""
        return [card_id for card_id, button in zip(self.hands[player], self.card_buttons[player]) if button.value]

    def lay(self, player: int, card_ids) -> None:
        """Lay exactly these cards of the player's hand, as clicks would."""
        for card_id, button in zip(self.hands[player], self.card_buttons[player]):
            if button.value and card_id not in card_ids:
                button.value = False
        for card_id, button in zip(self.hands[player], self.card_buttons[player]):
            if card_id in card_ids and not button.value:
                button.value = True

    def _on_card(self, player: int, change) -> None:
        if self._quiet:
            return
        laid = self.laid(player)
        symbols = {self.cards[c].symbol for c in laid}
        if len(symbols) > 1:
            self._quiet = True
            change["owner"].value = False  # refused: the state goes back to the cards laid before
            self._quiet = False
            self.card_message.value = (
                '<span class="gl-card-refused" style="color:#B00020">Cards laid together must share one symbol '
                f"(rules page: Call of fate): {html.escape(self.names[player])} has laid {', '.join(sorted(symbols - {self.cards[change['owner'].description.split(' · ')[1]].symbol}))} "
                "cards already.</span>"
            )
            return
        self.card_message.value = ""
        self._pools_from_cards()

    def _pools_from_cards(self) -> None:
        wanted = [sticks.as_pool([self.cards[c].sticks for c in self.laid(p)] or (0, 0, 0)) for p in (0, 1)]
        pools, notes = [list(pool) for pool in wanted], []
        if (
            self.mode.value == "game"
        ):  # a short colour: the guide takes first, the rest is not thrown (nagaraja.md#call-of-fate)
            guide = self.guide.value
            for i, colour in enumerate(sticks.COLOURS):
                left = SUPPLY - pools[guide][i]
                if pools[1 - guide][i] > left:
                    notes.append(
                        f"{self.names[1 - guide]}'s cards show {pools[1 - guide][i]} {colour.lower()} "
                        f"but only {left} are left in the supply"
                    )
                    pools[1 - guide][i] = left
        self._quiet = True
        try:
            for player in (0, 1):
                for colour, count in zip(sticks.COLOURS, pools[player]):
                    self.sliders[player][colour].max = FREE_MAX  # set the values first, then the supply limits
                    self.sliders[player][colour].value = count
            self._apply_supply()
        finally:
            self._quiet = False
        self.supply_message.value = (
            f'<span class="gl-shortfall">{html.escape("; ".join(notes))} '
            "(the guide takes first: rules page, Call of fate).</span>"
            if notes
            else ""
        )
        self._reset_simulation()
        self.refresh()

    def _clear_cards(self) -> None:
        self._quiet = True
        try:
            for buttons in self.card_buttons:
                for button in buttons:
                    button.value = False
        finally:
            self._quiet = False
        self.supply_message.value = ""

    # ------------------------------------------------------------- callbacks
    def _on_slider(self, change) -> None:
        if self._quiet:
            return
        if any(self.laid(p) for p in (0, 1)):
            self._clear_cards()  # a slider moved by hand: the pools are counts again, not cards
        self._reset_simulation()  # the old throws were of other pools
        # The plots first, then the other sliders' new limits: each kernel message before the plot data
        # costs the page a task (a slider redrawn) and often a frame before it can draw (issue 25: speed).
        self.refresh()
        self._apply_supply()

    def _on_slider_key(self, change) -> None:
        """Home / End on a slider handle in the page: the slider goes to its lowest / highest allowed count."""
        try:
            slider_name, key, _ = change["new"].split(":")
            player, colour = slider_name.split("-")
            slider = self.sliders[int(player)][colour.upper()]
        except (ValueError, KeyError, IndexError):
            return  # not a message of ours
        slider.value = slider.min if key == "Home" else slider.max if key == "End" else slider.value

    def _on_guide(self, change) -> None:
        if any(self.laid(p) for p in (0, 1)) and self.mode.value == "game":
            self._pools_from_cards()  # the supply rule depends on who takes first
        else:
            self.refresh()

    def shown(self, key: str) -> Fraction:
        """The exact value displayed in a number box: ``pwin``, ``plose``, ``ptie``, ``pswap``, ``effect``
        (None when the box shows that nothing is computed for the sliders' pools)."""
        box = self.effect_result if key == "effect" else self.numbers[key]
        match = _EXACT.search(box.value)
        return Fraction(match.group(1)) if match else None  # None: nothing computed for these pools

    # ------------------------------------------------------------- exact odds
    def _odds(self) -> dict:
        """Everything the number boxes need, computed exactly for the current pools and guide."""
        mine, theirs = self.pools
        guide = self.guide.value
        greater, tie, less = sticks.compare(mine, theirs, self.faces)
        return {
            "pwin": greater + tie if guide == 0 else greater,
            "plose": less + tie if guide == 1 else less,
            "pswap": greater if guide == 0 else greater + tie,
            "compare": (greater, tie, less),
            "moments": [_pool_moments(pool, sticks._faces_key(self.faces)) for pool in (mine, theirs)],
        }

    def _show_numbers(self, odds) -> None:
        for key, text in number_boxes(self.names, self.guide.value, odds).items():
            self.numbers[key].value = text
        self._join_numbers()

    def _join_numbers(self) -> None:
        self.number_boxes.value = "".join(
            f'<div class="gl-{key}">{box.value}</div>' for key, box in self.numbers.items()
        )

    def _show_effect(self, odds) -> None:
        effect = self.effect.value
        self.effect_chooser.layout.display = "" if effect == "RETHROW2" else "none"
        if not effect:
            self.effect_result.value = (
                '<div class="gl-number"><i>Choose an effect to see what it does to the room.</i></div>'
            )
            return
        target = self.effect_target.value
        chooser = self.effect_chooser.value if effect == "RETHROW2" else (target if effect == "PLUS2" else 1 - target)
        words = ("mine", "theirs")
        after = sticks.win_probability_after(
            *self.pools, self.guide.value == 0, effect, words[target], words[chooser], self.faces
        )
        change = after - odds["pwin"]
        how = {
            "PLUS2": f"{self.names[target]} gets +2 points",
            "DISCARD2": f"{self.names[target]} loses the two sticks with the most points, chosen by {self.names[chooser]}",
            "RETHROW2": f"{self.names[chooser]} chooses 1 or 2 of {self.names[target]}'s sticks to throw again",
        }[effect]
        note = (
            " (no stick to act on: the effect cannot be played)"
            if effect != "PLUS2" and not sum(self.pools[target])
            else ""
        )
        self.effect_result.value = number_box(
            "gl-effect-value",
            f"After {effect} ({how}): P({self.names[0]} wins) =",
            after,
            f"{'+' if change >= 0 else '−'}{float(abs(change)) * 100:.2f} percentage points against the raw throw{note}",
        )

    # ------------------------------------------------------------- plot data
    def _plot_data(self) -> dict:
        """The exact counts the front end draws: a few kilobytes (integers in hexadecimal); the heat map's
        rows are put in by _send."""
        players = []
        for player, pool in enumerate(self.pools):
            counts, total = sticks.points_counts(pool, self.faces)
            exact = total <= EXACT_TOTAL  # past it the page gets each chance as a float (issue 25: speed)
            entry = {
                "pool": list(pool),
                "total": f"{total:x}" if exact else None,
                "points": [[p, f"{c:x}" if exact else _float(c, total)] for p, c in sorted(counts.items())],
                "sim": [[p, f] for p, f in self.simulated[player].items()],
                "heat": _HEAT_MARK if player == self.plots.heat_player else [],
            }
            players.append(entry)
        owner, colour = self.sweep_choice.value
        # Game mode: what the supply allows; free mode: as far as the slider goes, which does not move
        # while that slider moves, so the sweep is computed once per drag, not once per step.
        top = self._slider_top(owner, colour)
        models = []
        for model in sticks.MODELS:
            models.append({"name": model, "values": _sweep(*self._sweep_key(owner, colour), top, model)})
        in_use = self.face_source.replace("Model ", "") if self.face_source.startswith("Model") else ""
        return {
            "names": list(self.names),
            "guide": self.guide.value,
            "players": players,
            "sweep": {
                "owner": self.names[owner],
                "colour": colour.lower(),
                "current": self.pools[owner][sticks.COLOURS.index(colour)],
                "models": models,
                "in_use": in_use,
            },
        }

    def _sweep_key(self, owner: int, colour: str) -> tuple:
        """The sweep does not depend on the swept count itself: key it without that count."""
        pools = [list(pool) for pool in self.pools]
        pools[owner][sticks.COLOURS.index(colour)] = 0
        return tuple(pools[0]), tuple(pools[1]), self.guide.value == 0, owner, colour

    # ------------------------------------------------------------- simulation
    def _reset_simulation(self) -> None:
        self._batches = 0
        self._throws = 0
        self._point_counts: list[Counter] = [Counter(), Counter()]
        self._outcomes = Counter()  # first player's points >, = or < the second's

    def _clear_throws(self) -> None:
        self._reset_simulation()
        self.refresh()

    def _simulate_pool(self, pool: sticks.Pool, count: int, rng) -> list[int]:
        totals = [0] * count
        for colour, sticks_thrown in zip(sticks.COLOURS, pool):
            if sticks_thrown:
                points = [p for p, _ in self.faces[colour]]
                for i in range(count):
                    totals[i] += sum(rng.choices(points, k=sticks_thrown))
        return totals

    def throw(self, times: int | None = None) -> None:
        """Throw both pools ``times`` more times (default: the N box); batch k uses seed (seed, k)."""
        times = self.throw_count.value if times is None else times
        rng = chance_rng(self.seed, self._batches)
        first, second = (self._simulate_pool(pool, times, rng) for pool in self.pools)
        for counts, totals in zip(self._point_counts, (first, second)):
            counts.update(totals)
        self._outcomes.update(
            {
                ">": sum(a > b for a, b in zip(first, second)),
                "=": sum(a == b for a, b in zip(first, second)),
                "<": sum(a < b for a, b in zip(first, second)),
            }
        )
        self._batches += 1
        self._throws += times
        self.refresh()

    @property
    def simulated(self) -> list[dict[int, float]]:
        """Each player's simulated points frequencies so far (empty before any throw)."""
        return [{p: c / self._throws for p, c in sorted(counts.items())} for counts in self._point_counts]

    def _show_simulation(self, odds) -> None:
        if not self._throws:
            self.simulation.value = "<i>No throws yet: press the button to simulate.</i>"
            return
        wins = self._outcomes[">"] + (self._outcomes["="] if self.guide.value == 0 else 0)
        estimate = proportion(wins, self._throws)
        self.simulation.value = (
            f"After <b>{self._throws}</b> throws, {html.escape(self.names[0])} won "
            f"<b>{estimate.value:.1%}</b> (95% CI {estimate.low:.1%} to {estimate.high:.1%}); "
            f"exact {readable(odds['pwin'])}."
        )

    # ------------------------------------------------------------- refresh
    def refresh(self) -> None:
        """Recompute the exact odds and send the page's one state message; the kernel CPU time is kept in
        ``kernel_ms``."""
        start = time.process_time()
        self.face_title.value = f"<b>Faces in use:</b> {html.escape(self.face_source)}"
        try:
            with warnings.catch_warnings():  # a points-and-Naga face is reported once, in the editor
                warnings.simplefilter("ignore")
                odds = self._odds()
                data = self._plot_data() if self.plot else {}
                self._show_numbers(odds)
                self._show_ranges()
                self._show_effect(odds)
        except ValueError as problem:  # a pool too big for these faces: say so, and show no number of another pool
            self._show_absent(str(problem))
            return
        self.odds_error.value = ""
        self._send(data)
        self._show_simulation(odds)  # its own widget: after the plot data, which the page waits for
        self.kernel_ms.append((time.process_time() - start) * 1000)

    def _send(self, data: dict) -> None:
        """The one state message: the page's parts and the plot data in one JSON string. The heat map's
        thousand cells are written by _heat_json straight into the text, not walked by json.dumps."""
        data = {
            **data,
            "page": {
                part.key: part.value
                for part in (self.number_boxes, self.odds_error, self.effect_result, self.edition_ranges)
            },
        }
        text = json.dumps(data, separators=(",", ":"))
        if data.get("players"):
            # The heat map's table is stepped from the one on screen when a slider moved one stick (issue 25).
            pool = self.pools[self.plots.heat_player]
            self._joint = sticks.joint_step(pool, sticks._faces_key(self.faces), self._joint)
            text = text.replace(f'"{_HEAT_MARK}"', _heat_json(self._joint), 1)
        self.plots.data = text

    def _show_ranges(self) -> None:
        """What the published rules allow: each headline number's range over every consistent stick table
        (gamelib.nagaraja.published), the teaching edition (Model A) marked inside it."""
        model_a = sticks.load_faces("A")
        rows = []
        for name, pool in zip(self.names, self.pools):
            ranges = published.pool_ranges(pool)
            rows.append(
                range_row(
                    f"{name}'s {pool_words(pool)}: mean points",
                    *ranges["mean"],
                    _pool_moments(pool, sticks._faces_key(model_a))["mean_points"],
                    f"range-mean-{len(rows) // 2}",
                    False,
                )
            )
            rows.append(
                range_row(
                    f"{name}'s {pool_words(pool)}: P(at least one Naga)",
                    *ranges["naga"],
                    published._p_naga(pool, model_a),
                    f"range-naga-{len(rows) // 2}",
                    True,
                )
            )
        for key, entry in published.headline_ranges().items():
            if key in ("pwin", "edge"):
                rows.append(
                    range_row(entry["label"], entry["low"], entry["high"], entry["teaching"], f"range-{key}", True)
                )
        self.edition_ranges.value = ranges_panel(rows, len(published.consistent_tables()))

    def _show_absent(self, problem: str) -> None:
        """Nothing can be computed for the sliders' pools: every number, plot and bar is taken away (a
        number of the previous pool at full opacity would be read as this pool's), and the reason shown."""
        self.odds_error.value = absent_note(problem)
        for box in (*self.numbers.values(), self.effect_result):
            box.value = ABSENT_BOX
        self._join_numbers()
        self.simulation.value = ""
        self._show_ranges()  # over the published tables, not these faces: they are still the sliders' pools'
        self._send(
            {"absent": f"Cannot compute: {problem}.", "pools": [list(pool) for pool in self.pools]} if self.plot else {}
        )

    # ------------------------------------------------------------- face editor
    def _on_faces_edited(self, change) -> None:
        if self._quiet:
            return
        try:
            table = {colour: parse_faces(colour, text.value) for colour, text in self.face_texts.items()}
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                faces = sticks.validate_faces(table)
            if not self.free_design.value:
                for colour, stick_faces in faces.items():
                    if len(stick_faces) != 4:
                        raise sticks.FaceTableError(
                            f"{colour} has {len(stick_faces)} faces, but a fate stick has four (rules page: Fate sticks); "
                            "switch on free design to try other sticks"
                        )
        except sticks.FaceTableError as problem:
            self.face_message.value = (
                f'<div class="gl-error-text" style="color:#B00020"><b>This table cannot be used:</b> '
                f"{html.escape(str(problem))}. The odds above still use the last good table.</div>"
            )
            return
        self.face_message.value = "".join(
            f'<div class="gl-warning" style="color:#8a5a00">Note: {html.escape(str(w.message))}.</div>' for w in caught
        )
        self._use_faces(faces, "your own table")

    def load_model(self, model: str) -> None:
        """Put one of the packaged models back into the editor and use it."""
        faces = sticks.load_faces(model)
        self._quiet = True
        try:
            for colour, text in self.face_texts.items():
                text.value = faces_to_text(faces[colour])
        finally:
            self._quiet = False
        self.face_message.value = ""
        self._use_faces(faces, f"Model {model}")

    def _use_faces(self, faces, source: str) -> None:
        self.faces, self.face_source = faces, source
        self._reset_simulation()
        self.refresh()

    # ------------------------------------------------------------- display
    def __repr__(self) -> str:
        pools = ", ".join(f"{name}={pool}" for name, pool in zip(self.names, self.pools))
        return f"OddsExplorer({pools}, guide={self.names[self.guide.value]!r}, faces={self.face_source!r})"

    def _repr_html_(self) -> str:
        """A static summary, for saved notebooks and code hosts that cannot run widgets."""
        odds = self._odds()
        rows = "".join(
            f"<tr><td>{html.escape(label)}</td><td>{value}</td><td>{readable(value)}</td></tr>"
            for label, value in (
                (f"P({self.names[0]} wins the room)", odds["pwin"]),
                (f"P({self.names[1]} wins the room)", odds["plose"]),
                ("P(equal points)", odds["compare"][1]),
            )
        )
        return (
            f"<p><b>Fate-stick odds explorer</b> (run the notebook to move the sliders): "
            f"{html.escape(repr(self))}, guide wins ties.</p>"
            f"<table><tr><th></th><th>exact</th><th>decimal</th></tr>{rows}</table>"
        )

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = self.widget._repr_mimebundle_(include=include, exclude=exclude)
        bundle["text/plain"] = repr(self)
        bundle["text/html"] = self._repr_html_()
        return bundle


_HEAT_MARK = "@@gx-heat-rows@@"  # where the heat map's rows go in the JSON text


EXACT_TOTAL = 2**64  # pools with more equally likely outcomes (33 sticks of 4 faces) are sent as floats


def _float(count: int, total: int) -> float:
    """count / total as a float of 7 significant digits (what the page draws and writes as "≈")."""
    return float(f"{count / total:.7g}")  # int / int is correctly rounded in Python, however long the ints


def _heat_json(step) -> str:
    """A joint (points, Nagas) table (a value of sticks.joint_step) as JSON rows ``[points, nagas,
    "0x<count>"]``, or, past EXACT_TOTAL outcomes, as dense rows (_dense_heat): smaller, and no float
    formatting. A table stepped from the one before is read by Naga rows straight from its packed grid
    (sticks.joint_columns), a few times faster than sorting its cells (issue 25)."""
    outcomes, counts, total = step[2][0]
    if total <= EXACT_TOTAL:
        return "[" + ",".join([f'[{p},{n},"{h}"]' for (p, n), h in zip(outcomes, map(hex, counts))]) + "]"
    columns = sticks.joint_columns(step)
    dense = _dense_heat(outcomes, counts, total) if columns is None else _dense_rows(columns, total)
    return json.dumps(dense, separators=(",", ":"))


def _dense_rows(columns, total: int) -> dict:
    """_dense_heat's message from rows already by Nagas: ``[(nagas, first points, counts), ...]``."""
    dense = array("d")
    for _, _, counts in columns:
        dense.extend(_chances(counts, total))
    return _packed_heat([[n, first, len(counts)] for n, first, counts in columns], dense)


def _packed_heat(rows: list, dense: array) -> dict:
    if sys.byteorder != "little":  # pragma: no cover - no big-endian machine runs the tests
        dense.byteswap()
    return {"rows": rows, "f64": base64.b64encode(dense.tobytes()).decode("ascii")}


def _dense_heat(outcomes, counts, total: int) -> dict:
    """Each chance count / total as a float64, row by row of Nagas: ``{"rows": [[nagas, first points,
    length], ...], "f64": base64 of the little-endian float64 values}``; a 0 in a row is an impossible
    (points, Nagas). Issue 25: 8 bytes of base64 a cell against about 20 of ``[p,n,1.2345e-12]`` text, and
    every chance is the correctly rounded float, not 5 digits of it."""
    points = [p for p, _ in outcomes]
    nagas = [n for _, n in outcomes]
    chances = list(_chances(counts, total))
    rows, dense = [], array("d")
    # outcomes come sorted by points, so a stable sort by Nagas leaves each row sorted by points
    for n, row in groupby(sorted(range(len(nagas)), key=nagas.__getitem__), key=nagas.__getitem__):
        row = list(row)
        first, length = points[row[0]], points[row[-1]] - points[row[0]] + 1
        if length == len(row):  # no gap: the rows of the published tables
            dense.extend(map(chances.__getitem__, row))
        else:
            values = [0.0] * length
            for i in row:
                values[points[i] - first] = chances[i]
            dense.extend(values)
        rows.append([n, first, length])
    return _packed_heat(rows, dense)


def _chances(counts, total: int):
    """Each count / total as the correctly rounded float. Totals are nearly always powers of two (4 faces
    a stick): then float(count), itself correctly rounded, times the exact 2**-k is (a tenth of the time
    of a big-integer division); otherwise the division, which Python rounds correctly."""
    if total & (total - 1) == 0:
        return map(math.ldexp, map(float, counts), repeat(1 - total.bit_length()))
    return (count / total for count in counts)


@lru_cache(maxsize=64)
def _stick_moments(faces_key: tuple) -> list[tuple[Fraction, Fraction, Fraction, Fraction]]:
    """Per colour, one stick's mean and variance of points and of Nagas (faces equally likely)."""
    result = []
    for stick_faces in faces_key:
        sides = len(stick_faces)
        row = []
        for index in (0, 1):
            mean = Fraction(sum(face[index] for face in stick_faces), sides)
            row += [mean, Fraction(sum(face[index] ** 2 for face in stick_faces), sides) - mean * mean]
        result.append(tuple(row))
    return result


@lru_cache(maxsize=1024)
def _pool_moments(pool: sticks.Pool, faces_key: tuple) -> dict[str, Fraction]:
    """``sticks.moments`` for a table already validated: independent sticks, so means and variances add."""
    names = ("mean_points", "variance_points", "mean_nagas", "variance_nagas")
    totals = [
        sum((count * row[i] for count, row in zip(pool, _stick_moments(faces_key))), Fraction(0)) for i in range(4)
    ]
    return dict(zip(names, totals))


@lru_cache(maxsize=256)
def _sweep(mine, theirs, mine_is_guide: bool, owner: int, colour: str, top: int, model: str) -> list:
    """[count, numerator, denominator] (hexadecimal) of P(first player wins) for each count of the swept sticks."""
    values = sticks.sweep(mine, theirs, mine_is_guide, owner, colour, range(top + 1), faces=model)
    return [[k, f"{v.numerator:x}", f"{v.denominator:x}"] for k, v in enumerate(values)]


def explore(faces="A", **options) -> OddsExplorer:
    """The odds explorer, starting from the rulebook's example (Elodie: 3 white; Marion: 3 brown, 1 white, 1 green)."""
    return OddsExplorer(faces=faces, **options)
