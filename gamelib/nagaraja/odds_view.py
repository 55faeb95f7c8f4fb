"""The odds explorer's words and number boxes: how a chance, a pool, a face table and a range read.

Pure text, no widget: ``explorer.py`` keeps the widget and builds its page from these functions,
and the duel board uses ``readable`` for its chances too (the same place as Pangu's and Chakra's
``view``-style formatting: what is shown, apart from the widget that shows it).

    >>> readable(Fraction(35, 4096))
    '0.85%'
    >>> pool_words((3, 1, 1))
    '3 brown + 1 white + 1 green'
"""

from __future__ import annotations

import html
import math
import re
from fractions import Fraction

from gamelib.nagaraja import sticks

EFFECT_WORDS = {"PLUS2": "+2 points", "DISCARD2": "discard two sticks", "RETHROW2": "throw two sticks again"}
_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
ABSENT_BOX = '<div class="gl-number gl-absent"><i>not computed for these pools</i></div>'


# --------------------------------------------------------------------------- chances


def _power_of_ten(value: float) -> str:
    mantissa, exponent = f"{value:.1e}".split("e")
    return f"{mantissa} × 10{str(int(exponent)).translate(_SUPERSCRIPT)}"


def readable(p: Fraction) -> str:
    """A probability as a short decimal that stays honest: never "100%" for a chance below 1
    nor "0%" for one above 0 ("1 − 2.9 × 10⁻⁸", "3.1 × 10⁻⁶").

    >>> readable(Fraction(1, 3)), readable(Fraction(1, 10**9))
    ('33.33%', '1.0 × 10⁻⁹')
    """
    p = Fraction(p)
    if p <= 0 or p >= 1:
        return "0%" if p <= 0 else "100%"
    value, rest = float(p), float(1 - p)
    if value < 1e-4:
        return _power_of_ten(value)
    if rest < 1e-4:
        return f"1 − {_power_of_ten(rest)}"
    if value < 0.01:
        return f"{value * 100:.2g}%"
    return f"{value * 100:.2f}%"


percent = readable  # the name earlier lessons used


def number_box(css: str, label: str, value: Fraction, detail: str = "") -> str:
    """A number box: the short decimal, the exact fraction on demand (a click), a remark."""
    exact = str(value)
    digits = sum(len(part) for part in exact.split("/"))
    size = f" ({len(exact.split('/')[0])}-digit / {len(exact.split('/')[-1])}-digit)" if digits > 24 else ""
    return (
        f'<div class="gl-number {css}"><span class="gl-label">{html.escape(label)}</span> '
        f'<b class="gl-decimal">{readable(value)}</b> '
        f'<details><summary>exact{size}</summary><span class="gl-exact" data-value="{exact}">{exact}</span></details> '
        f'<span class="gl-detail">{html.escape(detail)}</span></div>'
    )


def number_boxes(names, guide: int, odds: dict) -> dict[str, str]:
    """The six number boxes of the explorer (P(win) each way, a tie, the guide swapped, points, Nagas)."""
    first, second = names
    guide_name, other_name = names[guide], names[1 - guide]
    spread = "; ".join(
        f"{name}: mean {m['mean_points']} (≈ {float(m['mean_points']):.2f}), "
        f"standard deviation ≈ {math.sqrt(m['variance_points']):.2f} (variance {m['variance_points']})"
        for name, m in zip(names, odds["moments"])
    )
    nagas = ", ".join(
        f"{name} {m['mean_nagas']} (≈ {float(m['mean_nagas']):.2f})" for name, m in zip(names, odds["moments"])
    )
    return {
        "pwin": number_box("gl-pwin-value", f"P({first} wins the room) =", odds["pwin"]),
        "plose": number_box("gl-plose-value", f"P({second} wins the room) =", odds["plose"]),
        "ptie": number_box(
            "gl-ptie-value", "P(equal points) =", odds["compare"][1], f"ties go to the guide, {guide_name}"
        ),
        "pswap": number_box("gl-pswap-value", f"If {other_name} were the guide, P({first} wins) =", odds["pswap"]),
        "moments": f'<div class="gl-number">Points: {html.escape(spread)}</div>',
        "nagas": f'<div class="gl-number">Expected Nagas: {html.escape(nagas)}</div>',
    }


# --------------------------------------------------------------------------- pools and faces


def pool_words(pool) -> str:
    """(3, 1, 1) -> "3 brown + 1 white + 1 green"; (0, 0, 0) -> "no sticks"."""
    return " + ".join(f"{k} {c.lower()}" for k, c in zip(pool, sticks.COLOURS) if k) or "no sticks"


def faces_to_text(faces: tuple[sticks.Face, ...]) -> str:
    """One stick's faces as the editor shows them: ``"N,1,2,3"`` (N is a Naga)."""
    return ",".join("N" if (p, n) == (0, 1) else f"{p}N" if n else str(p) for p, n in faces)


def parse_faces(colour: str, text: str) -> list[sticks.Face]:
    """Read ``"2,3,3,4"`` or ``"N, 1, 2, 3"``; ``2N`` is a face with 2 points and a Naga."""
    faces = []
    for token in re.split(r"[,\s;]+", text.strip()):
        if not token:
            continue
        match = re.fullmatch(r"(-?\d{1,12})?\s*\+?\s*(N)?", token.upper())
        if not match or not any(match.groups()):
            raise sticks.FaceTableError(
                f"{colour}: cannot read {token!r}; write each face as a number of points (0, 1, 2, ...) "
                "or N for a Naga, separated by commas"
            )
        faces.append((int(match.group(1) or 0), 1 if match.group(2) else 0))
    return faces


# --------------------------------------------------------------------------- the published ranges


def range_row(label: str, low: Fraction, high: Fraction, teaching: Fraction, css: str, chance: bool) -> str:
    """One number's range as a bar from its lowest to its highest value, the teaching edition marked by a
    dark triangle on its own white patch (readable on the bar and on either theme's page)."""
    at = 50.0 if high == low else float((teaching - low) / (high - low)) * 100
    show = readable if chance else (lambda v: f"{float(v):.2f}")
    return (
        f'<div class="gl-range {css}" data-low="{low}" data-high="{high}" data-teaching="{teaching}" '
        f'style="margin:2px 0 6px">'
        f'<div class="gl-range-label">{html.escape(label)}: teaching edition <b>{show(teaching)}</b></div>'
        f'<span class="gl-range-low" style="display:inline-block;min-width:74px;text-align:right">{show(low)}</span> '
        f'<span class="gl-range-bar" style="position:relative;display:inline-block;width:220px;height:8px;'
        f'margin:0 14px 0 8px;vertical-align:middle;border-radius:4px;background:#56B4E9">'
        f'<span class="gl-range-mark" style="position:absolute;left:{at:.1f}%;top:-7px;transform:translateX(-50%);'
        f'color:#222;background:#fff;border-radius:3px;padding:0 1px;font-size:15px;line-height:1" '
        f'title="teaching edition: {show(teaching)}">▲</span></span>'
        f'<span class="gl-range-high">{show(high)}</span></div>'
    )


def ranges_panel(rows: list[str], count: int) -> str:
    """The "What the published rules allow" panel around its range rows."""
    return (
        f"<details class='gl-ranges' open><summary><b>What the published rules allow</b>: over all {count} stick "
        f"tables that agree with every published fact (rules page: What is published about the sticks), "
        f"each number lies in its bar, lowest to highest; "
        f"<span style='color:#222;background:#fff;border-radius:3px;padding:0 2px'>▲</span> marks the "
        f"teaching edition (Model A), whose faces are invented.</summary>{''.join(rows)}</details>"
    )


def absent_note(problem: str) -> str:
    """Why no odds are shown for the sliders' pools."""
    return (
        f'<div class="gl-error-text" style="color:#B00020"><b>Cannot compute:</b> '
        f"{html.escape(problem)}. No odds are shown for these pools.</div>"
    )
