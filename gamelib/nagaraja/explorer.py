"""An interactive explorer of fate-stick odds (spec sections 8 and 10), built on ipywidgets.

Two players each choose how many brown, white and green sticks to throw; the explorer
shows, exactly, both players' points distributions, the chance of at least k points,
who wins the room (the guide wins ties, spec 8.3) and the expected number of Nagas.
A "throw" button simulates throws (seeded, so a class sees the same numbers) and
overlays their frequencies on the exact bars; a face editor lets students design
their own sticks.

The figure is one matplotlib ``Figure`` (no pyplot, so no stray inline copies) that is
redrawn in place and shown as a PNG in an ``ipywidgets.Image``: it needs no extra
front-end extension and a headless test can read everything the user sees.

    >>> explorer = explore()                # Elodie (0, 3, 0) vs Marion (3, 1, 1), spec 2.7
    >>> explorer.shown("pwin")              # the exact fraction in the "P(win)" box
    Fraction(35, 4096)
    >>> explorer.set_pool(0, (0, 4, 0))     # moves three sliders, as a user would
"""

from __future__ import annotations

import html
import io
import re
import time
import warnings
from collections import Counter
from fractions import Fraction

import ipywidgets as widgets
import numpy as np
import PIL.Image
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.collections import PolyCollection
from matplotlib.patches import FancyBboxPatch
from matplotlib.ticker import MaxNLocator

from gamelib import plots
from gamelib.core import chance_rng
from gamelib.nagaraja import sticks
from gamelib.simulate import proportion

SLIDER_MAX = 12  # the supply holds 12 sticks of each colour (spec 3.2); the maths has no limit
DEFAULT_NAMES = ("Elodie", "Marion")
DEFAULT_POOLS = ((0, 3, 0), (3, 1, 1))  # the rulebook's example, spec 2.7
STICK_COLOURS = {"BROWN": "#8B5A2B", "WHITE": "#F4F1E8", "GREEN": "#3A8F5C"}
STICK_LENGTHS = {"BROWN": 1.0, "WHITE": 0.78, "GREEN": 0.56}  # long, medium, short (spec 2.3)
_EXACT = re.compile(r'class="gl-exact"[^>]*data-value="([^"]+)"')


# --------------------------------------------------------------------------- face text


def faces_to_text(faces: tuple[sticks.Face, ...]) -> str:
    """One stick's faces as the editor shows them: ``"N,1,2,3"`` (N is a Naga)."""
    return ",".join("N" if (p, n) == (0, 1) else f"{p}N" if n else str(p) for p, n in faces)


def parse_faces(colour: str, text: str) -> list[sticks.Face]:
    """Read ``"2,3,3,4"`` or ``"N, 1, 2, 3"``; ``2N`` is a face with 2 points and a Naga."""
    faces = []
    for token in re.split(r"[,\s;]+", text.strip()):
        if not token:
            continue
        match = re.fullmatch(r"(-?\d+)?\s*\+?\s*(N)?", token.upper())
        if not match or not any(match.groups()):
            raise sticks.FaceTableError(
                f"{colour}: cannot read {token!r}; write each face as a number of points (0, 1, 2, ...) "
                "or N for a Naga, separated by commas"
            )
        faces.append((int(match.group(1) or 0), 1 if match.group(2) else 0))
    return faces


# --------------------------------------------------------------------------- formatting


def percent(p: Fraction) -> str:
    """A probability as a percentage with enough digits that a small one does not read as 0%."""
    value = float(p) * 100
    if value == 0 or value >= 1:
        return f"{value:.2f}%"
    return f"{value:.2g}%"


def _number(css: str, label: str, value: Fraction, detail: str) -> str:
    return (
        f'<div class="gl-number {css}"><span class="gl-label">{html.escape(label)}</span> '
        f'<span class="gl-exact" data-value="{value}" style="font-weight:bold">{value}</span> '
        f'<span class="gl-detail">{html.escape(detail)}</span></div>'
    )


# --------------------------------------------------------------------------- drawing


def draw_sticks(faces="A", ax=None):
    """A picture of the three sticks and their four faces: dots are points, a snake is a Naga."""
    table = sticks.load_faces(faces)
    if ax is None:
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
        ax.add_patch(FancyBboxPatch((0, y - 0.16), length, 0.32, boxstyle="round,pad=0.02,rounding_size=0.12",
                                    facecolor=STICK_COLOURS[colour], edgecolor="black", linewidth=1))
        ax.text(-0.15, y, colour.lower(), ha="right", va="center", fontsize=10)
        for i, (points, naga) in enumerate(table[colour]):
            _draw_face(ax, 4.0 + i * 0.9, y, points, naga, STICK_COLOURS[colour])
    ax.text(4.0 + (widest - 1) * 0.45, top + 0.5, "the faces (each equally likely)",
            ha="center", va="bottom", fontsize=9)
    ax.set_xlim(-1.0, 4.5 + widest * 0.9)
    ax.set_ylim(-0.75, top + 0.8)
    ax.set_aspect("equal")
    ax.axis("off")
    return ax.figure


def _draw_face(ax, x: float, y: float, points: int, naga: int, colour: str) -> None:
    ax.add_patch(FancyBboxPatch((x - 0.35, y - 0.35), 0.7, 0.7, boxstyle="round,pad=0,rounding_size=0.08",
                                facecolor=colour, edgecolor="black", linewidth=1))
    ink = "white" if colour != STICK_COLOURS["WHITE"] else "black"
    if naga:  # a snake: a sine wave with a head
        xs = np.linspace(x - 0.25, x + 0.2, 40)
        ax.plot(xs, y + 0.1 * np.sin((xs - x) * 14), color=ink, linewidth=2)
        ax.plot([x + 0.22], [y + 0.1 * np.sin(0.22 * 14)], marker="o", color=ink, markersize=4)
    if points:
        columns = 2 if points == 4 else min(points, 3)
        for k in range(points):
            px = x + (k % columns - (columns - 1) / 2) * 0.2
            py = y + (k // columns - (points - 1) // columns / 2) * 0.2 - (0.2 if naga else 0)
            ax.plot([px], [py], marker="o", color=ink, markersize=5)
    ax.text(x, y - 0.5, "Naga" if naga and not points else str(points) + (" + Naga" if naga else ""),
            ha="center", va="top", fontsize=8)


def _bar(centre: float, height: float, width: float) -> list[tuple[float, float]]:
    left, right = centre - width / 2, centre + width / 2
    return [(left, 0), (left, height), (right, height), (right, 0)]


# --------------------------------------------------------------------------- the explorer


class OddsExplorer:
    """Sliders, exact odds, simulated throws and a face editor for two players' pools."""

    def __init__(self, faces="A", pools=DEFAULT_POOLS, names=DEFAULT_NAMES, guide: int = 0,
                 seed: int = 2019, throws: int = 200, plot: bool = True):
        self.names = tuple(names)
        self.plot = plot  # False skips the figure (fast headless sweeps); the numbers still update
        self.seed = seed
        self.faces = sticks.load_faces(faces)
        self.face_source = f"Model {faces.upper()}" if isinstance(faces, str) else "your own table"
        self.redraw_ms: list[float] = []
        self._loading_model = False
        self._reset_simulation()
        self._build_sliders(pools, guide)
        self._build_throws(throws)
        self._build_editor()
        self._build_figure()
        self.refresh()

    # ------------------------------------------------------------- construction
    def _build_sliders(self, pools, guide: int) -> None:
        self.sliders: list[dict[str, widgets.IntSlider]] = []
        columns = []
        for player, (name, pool) in enumerate(zip(self.names, pools)):
            row = {}
            for colour, count in zip(sticks.COLOURS, sticks.as_pool(pool)):
                slider = widgets.IntSlider(value=count, min=0, max=SLIDER_MAX, description=colour.lower(),
                                           continuous_update=False, readout=True,
                                           style={"description_width": "50px"}, layout=widgets.Layout(width="280px"))
                slider.add_class(f"gl-slider-{player}-{colour.lower()}")
                slider.observe(self._on_change, names="value")
                row[colour] = slider
            self.sliders.append(row)
            title = widgets.HTML(f"<b>{html.escape(name)}</b> throws")
            # A fixed, non-shrinking column: a squeezed column lets its neighbour cover the readouts.
            columns.append(widgets.VBox([title, *row.values()], layout=widgets.Layout(flex="0 0 auto", width="290px")))
        self.guide = widgets.ToggleButtons(options=[(name, i) for i, name in enumerate(self.names)], value=guide,
                                           style={"button_width": "90px"},
                                           tooltips=["the guide wins ties (spec 8.3)"] * 2)
        self.guide.add_class("gl-guide")
        self.guide.observe(self._on_change, names="value")
        columns.append(widgets.VBox([widgets.HTML("<b>Guide</b> (wins ties)"), self.guide]))
        self.players = widgets.HBox(columns)

    def _build_throws(self, throws: int) -> None:
        self.throw_count = widgets.BoundedIntText(value=throws, min=1, max=100_000, step=100,
                                                  description="N =", style={"description_width": "30px"},
                                                  layout=widgets.Layout(width="130px"))
        self.throw_button = widgets.Button(description="throw N times", icon="random",
                                           tooltip="simulate N more throws of both pools")
        self.throw_button.add_class("gl-throw")
        self.throw_button.on_click(lambda _: self.throw())
        self.clear_button = widgets.Button(description="clear throws")
        self.clear_button.on_click(lambda _: self._clear_throws())
        self.simulation = widgets.HTML()
        self.simulation.add_class("gl-sim")
        self.throw_panel = widgets.VBox([widgets.HBox([self.throw_count, self.throw_button, self.clear_button]),
                                    self.simulation])

    def _build_editor(self) -> None:
        self.face_texts = {}
        for colour in sticks.COLOURS:
            text = widgets.Text(value=faces_to_text(self.faces[colour]), description=colour.lower(),
                                continuous_update=False, layout=widgets.Layout(width="240px"))
            text.add_class(f"gl-faces-{colour.lower()}")
            text.observe(self._on_faces_edited, names="value")
            self.face_texts[colour] = text
        model_buttons = []
        for model in sticks.MODELS:
            button = widgets.Button(description=f"Model {model}", layout=widgets.Layout(width="90px"))
            button.on_click(lambda _, m=model: self.load_model(m))
            model_buttons.append(button)
        self.face_message = widgets.HTML()
        self.face_message.add_class("gl-error")
        self.face_title = widgets.HTML()
        self.editor = widgets.VBox([
            self.face_title,
            widgets.HBox(list(self.face_texts.values())),
            widgets.HBox([widgets.HTML("start again from:"), *model_buttons]),
            self.face_message,
        ])

    def _build_figure(self) -> None:
        plots.style()
        # Fixed margins instead of constrained layout: the layout pass would cost about
        # as much as drawing, on every slider move.
        self.figure = Figure(figsize=(9.0, 3.3), dpi=90)
        FigureCanvasAgg(self.figure)
        self.axes = self.figure.subplots(1, 2)
        self.figure.subplots_adjust(left=0.07, right=0.99, bottom=0.15, top=0.91, wspace=0.2)
        self._build_artists(*self.axes)
        self.image = widgets.Image(format="png", layout=widgets.Layout(max_width="100%"))
        self.image.add_class("gl-plot")
        self.numbers = {key: widgets.HTML() for key in ("pwin", "plose", "ptie", "pswap", "nagas")}
        for key, box in self.numbers.items():
            box.add_class(f"gl-{key}")
        odds = widgets.VBox(list(self.numbers.values()),
                            layout=widgets.Layout(border="1px solid #ccc", padding="2px 10px", margin="6px 0"))
        odds.add_class("gl-odds")
        self.widget = widgets.VBox([
            widgets.HTML("<h3 style='margin:0'>Fate-stick odds explorer</h3>"),
            self.players, self.throw_panel, odds, self.image,
            widgets.HTML("<b>Design your own sticks</b> (press Enter to apply): "
                         "one entry per face, e.g. <code>2,3,3,4</code>; <code>N</code> is a Naga."),
            self.editor,
        ])
        self.widget.add_class("gl-explorer")

    # ------------------------------------------------------------- reading the controls
    @property
    def pools(self) -> tuple[sticks.Pool, sticks.Pool]:
        return tuple(tuple(row[c].value for c in sticks.COLOURS) for row in self.sliders)

    def set_pool(self, player: int, pool) -> None:
        """Move one player's three sliders (each move recomputes, as a user's would)."""
        for colour, count in zip(sticks.COLOURS, sticks.as_pool(pool)):
            self.sliders[player][colour].value = count

    def shown(self, key: str) -> Fraction:
        """The exact value displayed in a number box: ``pwin``, ``plose``, ``ptie``, ``pswap``."""
        return Fraction(_EXACT.search(self.numbers[key].value).group(1))

    # ------------------------------------------------------------- exact odds
    def _odds(self):
        """Everything the display needs, computed exactly for the current pools and guide."""
        mine, theirs = self.pools
        guide = self.guide.value
        with warnings.catch_warnings():  # a points-and-Naga face is reported once, in the editor
            warnings.simplefilter("ignore")
            greater, tie, less = sticks.compare(mine, theirs, self.faces)
            return {
                "points": [sticks.points(pool, faces=self.faces) for pool in (mine, theirs)],
                "nagas": [sticks.nagas(pool, faces=self.faces).mean() for pool in (mine, theirs)],
                "pwin": sticks.win_probability(mine, theirs, guide == 0, self.faces),
                "plose": sticks.win_probability(theirs, mine, guide == 1, self.faces),
                "pswap": sticks.win_probability(mine, theirs, guide != 0, self.faces),
                "compare": (greater, tie, less),
            }

    def _show_numbers(self, odds) -> None:
        first, second = self.names
        guide_name, other_name = self.names[self.guide.value], self.names[1 - self.guide.value]
        self.numbers["pwin"].value = _number("gl-pwin-value", f"P({first} wins the room) =", odds["pwin"],
                                             f"≈ {percent(odds['pwin'])}")
        self.numbers["plose"].value = _number("gl-plose-value", f"P({second} wins the room) =", odds["plose"],
                                              f"≈ {percent(odds['plose'])}")
        self.numbers["ptie"].value = _number("gl-ptie-value", "P(equal points) =", odds["compare"][1],
                                             f"≈ {percent(odds['compare'][1])}, and ties go to the guide, {guide_name}")
        self.numbers["pswap"].value = _number(
            "gl-pswap-value", f"If {other_name} were the guide, P({first} wins) =", odds["pswap"],
            f"≈ {percent(odds['pswap'])}")
        nagas = ", ".join(f"{name} {mean} (≈ {float(mean):.2f})" for name, mean in zip(self.names, odds["nagas"]))
        self.numbers["nagas"].value = f'<div class="gl-number">Expected Nagas: {html.escape(nagas)}</div>'

    # ------------------------------------------------------------- simulation
    def _reset_simulation(self) -> None:
        self._batches = 0
        self._throws = 0
        self._point_counts: list[Counter] = [Counter(), Counter()]
        self._outcomes = Counter()  # first player's points >, = or < the second's

    def _clear_throws(self) -> None:
        self._reset_simulation()
        self.refresh()

    def _simulate_pool(self, pool: sticks.Pool, count: int, rng: np.random.Generator) -> np.ndarray:
        totals = np.zeros(count, dtype=np.int64)
        for colour, sticks_thrown in zip(sticks.COLOURS, pool):
            if sticks_thrown:
                points = np.array([p for p, _ in self.faces[colour]])
                totals += points[rng.integers(0, len(points), size=(count, sticks_thrown))].sum(axis=1)
        return totals

    def throw(self, times: int | None = None) -> None:
        """Throw both pools ``times`` more times (default: the N box); batch k uses seed (seed, k)."""
        times = self.throw_count.value if times is None else times
        rng = np.random.default_rng(chance_rng(self.seed, self._batches).getrandbits(64))
        first, second = (self._simulate_pool(pool, times, rng) for pool in self.pools)
        for counts, totals in zip(self._point_counts, (first, second)):
            counts.update(totals.tolist())
        self._outcomes.update({">": int((first > second).sum()), "=": int((first == second).sum()),
                               "<": int((first < second).sum())})
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
            f"exact {percent(odds['pwin'])}."
        )

    # ------------------------------------------------------------- drawing
    def _build_artists(self, left, right) -> None:
        """Every plotted artist is made once; a redraw only gives them new data.

        The bars of one player are one PolyCollection in the house colours and hatches
        (the look of ``plots.bars``): a bar per outcome as its own patch made a 36-stick
        pool several times slower to draw.
        """
        self._bar_sets, self._dots, self._tails = [], [], []
        for i, name in enumerate(self.names):
            bars = PolyCollection([], facecolor=plots.SERIES[i], hatch=plots.HATCHES[i], edgecolor="white",
                                  linewidth=0.5, label=name)
            self._bar_sets.append(left.add_collection(bars))
            self._dots.append(left.plot([], [], linestyle="none", marker="o", markersize=3.5, color="black",
                                        label="simulated" if i == 0 else "_nolegend_")[0])
            self._tails.append(right.step([], [], where="mid", color=plots.SERIES[i], marker="os"[i % 2],
                                          markersize=3, label=name)[0])
        plots.label(left, "points", "probability", "Points thrown (bars exact, dots simulated)")
        plots.label(right, "k (points)", "P(points ≥ k)", "Chance of at least k points")
        for ax in (left, right):
            ax.xaxis.set_major_locator(MaxNLocator(nbins=10, integer=True))
        # One row of legend in the head room above the data.
        left.legend(handles=[*self._bar_sets, self._dots[0]], loc="upper center", ncols=3)
        right.legend(loc="upper center", ncols=3)
        right.set_ylim(0, 1.3)
        right.set_yticks([0, 0.2, 0.4, 0.6, 0.8, 1.0])

    def _draw(self, odds) -> None:
        """Give the artists the new exact bars, simulated dots and tails, then render."""
        left, right = self.axes
        width = 0.8 / len(self.names)
        highest = 0.0
        for i, (bars, dots, tail, dist) in enumerate(zip(self._bar_sets, self._dots, self._tails, odds["points"])):
            offset = (i - (len(self.names) - 1) / 2) * width
            bars.set_verts([_bar(x + offset, float(p), width) for x, p in dist.items()])
            frequencies = self.simulated[i]
            dots.set_data([x + offset for x in frequencies], list(frequencies.values()))
            tail_table = dist.at_least_table()
            tail.set_data(list(tail_table), [float(p) for p in tail_table.values()])
            highest = max(highest, float(max(dist.probabilities)), *frequencies.values())
        lowest_x = min(min(dist.outcomes) for dist in odds["points"])
        highest_x = max(max(dist.outcomes) for dist in odds["points"])
        for ax in (left, right):
            ax.set_xlim(lowest_x - 0.7, highest_x + 0.7)
        for bars in self._bar_sets:  # white outlines would swallow the thin bars of a wide range
            bars.set_linewidth(0.5 if highest_x - lowest_x <= 30 else 0)
        left.set_ylim(0, 1.3 * highest)  # head room for the legend
        self.image.value = self._png()

    def _png(self) -> bytes:
        """Render once and encode quickly (savefig would draw the figure a second time)."""
        self.figure.canvas.draw()
        buffer = io.BytesIO()
        PIL.Image.fromarray(np.asarray(self.figure.canvas.buffer_rgba())).save(buffer, "png", compress_level=1)
        return buffer.getvalue()

    # ------------------------------------------------------------- callbacks
    def _on_change(self, change) -> None:
        if change["owner"] is not self.guide:
            self._reset_simulation()  # the old throws were of other pools
        self.refresh()

    def refresh(self) -> None:
        """Recompute the exact odds and redraw the figure; the time taken is kept in ``redraw_ms``."""
        start = time.perf_counter()
        odds = self._odds()
        self._show_numbers(odds)
        self._show_simulation(odds)
        if self.plot:
            self._draw(odds)
        self.face_title.value = f"<b>Faces in use:</b> {html.escape(self.face_source)}"
        self.redraw_ms.append((time.perf_counter() - start) * 1000)

    def _on_faces_edited(self, change) -> None:
        if self._loading_model:
            return
        try:
            table = {colour: parse_faces(colour, text.value) for colour, text in self.face_texts.items()}
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                faces = sticks.validate_faces(table)
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
        self._loading_model = True
        try:
            for colour, text in self.face_texts.items():
                text.value = faces_to_text(faces[colour])
        finally:
            self._loading_model = False
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
            f"<tr><td>{html.escape(label)}</td><td>{value}</td><td>{percent(value)}</td></tr>"
            for label, value in (
                (f"P({self.names[0]} wins the room)", odds["pwin"]),
                (f"P({self.names[1]} wins the room)", odds["plose"]),
                ("P(equal points)", odds["compare"][1]),
            )
        )
        return (f"<p><b>Fate-stick odds explorer</b> (run the notebook to move the sliders): "
                f"{html.escape(repr(self))}, guide wins ties.</p>"
                f"<table><tr><th></th><th>exact</th><th>percent</th></tr>{rows}</table>")

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = self.widget._repr_mimebundle_(include=include, exclude=exclude)
        bundle["text/plain"] = repr(self)
        bundle["text/html"] = self._repr_html_()
        return bundle


def explore(faces="A", **options) -> OddsExplorer:
    """The odds explorer, starting from the rulebook's example (Elodie: 3 white; Marion: 3 brown, 1 white, 1 green)."""
    return OddsExplorer(faces=faces, **options)
