"""The house style for every figure in the notebooks.

Colours come from Okabe & Ito's palette, which stays distinguishable with the common
forms of colour blindness; bars also get hatching where two series overlap, so a
grey-scale print still tells them apart. Every helper labels its axes.
"""

from __future__ import annotations

from typing import Mapping, Sequence

import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

# Okabe & Ito (2008), "Color Universal Design".
PALETTE = {
    "blue": "#0072B2",
    "orange": "#E69F00",
    "green": "#009E73",
    "vermillion": "#D55E00",
    "sky": "#56B4E9",
    "purple": "#CC79A7",
    "yellow": "#F0E442",
    "black": "#000000",
    "grey": "#999999",
}
SERIES = [PALETTE[name] for name in ("blue", "orange", "green", "vermillion", "purple", "sky")]
HATCHES = ["", "//", "..", "xx", "\\\\", "++"]

SMALL = (5.0, 3.0)
WIDE = (8.0, 3.2)
SQUARE = (4.2, 4.0)


def style() -> None:
    """Apply the house style to every later figure."""
    plt.rcParams.update(
        {
            "figure.dpi": 100,
            "axes.prop_cycle": plt.cycler(color=SERIES),
            "axes.spines.top": False,
            "axes.spines.right": False,
            "axes.grid": True,
            "grid.alpha": 0.3,
            "axes.titlesize": 11,
            "axes.labelsize": 10,
            "legend.frameon": False,
            "font.size": 9,
        }
    )


def figure(size: tuple[float, float] = SMALL, ncols: int = 1, nrows: int = 1) -> tuple[Figure, Axes]:
    """A new figure in the house style (axes array when more than one)."""
    style()
    fig, axes = plt.subplots(nrows, ncols, figsize=size, constrained_layout=True)
    return fig, axes


def label(ax: Axes, xlabel: str, ylabel: str, title: str | None = None) -> Axes:
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    return ax


def bars(
    ax: Axes,
    series: Mapping[str, Mapping[int, float]],
    xlabel: str = "outcome",
    ylabel: str = "probability",
    title: str | None = None,
) -> Axes:
    """Side-by-side bars for one or more distributions ``{name: {outcome: probability}}``."""
    names = list(series)
    width = 0.8 / max(1, len(names))
    for i, name in enumerate(names):
        data = series[name]
        xs = [x + (i - (len(names) - 1) / 2) * width for x in data]
        ax.bar(
            xs,
            [float(v) for v in data.values()],
            width=width,
            label=name,
            color=SERIES[i % len(SERIES)],
            hatch=HATCHES[i % len(HATCHES)],
            edgecolor="white",
            linewidth=0.5,
        )
    if len(names) > 1:
        ax.legend()
    return label(ax, xlabel, ylabel, title)


def steps(
    ax: Axes,
    series: Mapping[str, Mapping[int, float]],
    xlabel: str = "k",
    ylabel: str = "P(X ≥ k)",
    title: str | None = None,
) -> Axes:
    """Step curves of a function of a whole number k, for tails such as P(X >= k); markers differ per series.

    Each value holds from its k up to the next k (``where="post"``), so the jumps sit at the
    whole numbers where the value changes, never half-way between them.
    """
    markers = "osD^vP"
    for i, (name, data) in enumerate(series.items()):
        ax.step(
            list(data),
            [float(v) for v in data.values()],
            where="post",
            label=name,
            color=SERIES[i % len(SERIES)],
            marker=markers[i % len(markers)],
            markersize=3,
        )
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylim(-0.02, 1.02)
    if len(series) > 1:
        ax.legend()
    return label(ax, xlabel, ylabel, title)


def interval_bars(
    ax: Axes,
    names: Sequence[str],
    values: Sequence[float],
    lows: Sequence[float],
    highs: Sequence[float],
    ylabel: str = "win rate",
    title: str | None = None,
) -> Axes:
    """Bars with 95% confidence intervals as error bars (for simulated rates)."""
    errors = [[v - lo for v, lo in zip(values, lows)], [hi - v for v, hi in zip(values, highs)]]
    ax.bar(
        names,
        values,
        color=[SERIES[i % len(SERIES)] for i in range(len(names))],
        yerr=errors,
        capsize=4,
        edgecolor="white",
    )
    return label(ax, "", ylabel, title)
