"""A student's drawing of a position (SVG or simple HTML), cleaned before any page shows it.

A studio game may give ``state.drawing()``, a string of SVG or HTML. The board shows it inside a
notebook, where a script would run with the notebook's rights, so the markup is rebuilt from an
allow-list: known drawing and text elements, known presentation attributes whose values hold no
script, link or CSS function; everything else is dropped and all text is escaped. What is left
can only draw. (The standard library's parser, so no dependency; the rebuilt markup is
well-formed because every tag is closed by this module, not by the input.)
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

MAX_DRAWING_CHARS = 200_000
MAX_DEPTH = 40

SVG_ELEMENTS = {
    "svg",
    "g",
    "rect",
    "circle",
    "ellipse",
    "line",
    "polyline",
    "polygon",
    "path",
    "text",
    "tspan",
    "title",
    "desc",
    "defs",
    "lineargradient",
    "radialgradient",
    "stop",
    "pattern",
    "clippath",
    "marker",
}
HTML_ELEMENTS = {
    "div",
    "span",
    "p",
    "b",
    "i",
    "strong",
    "em",
    "br",
    "small",
    "sub",
    "sup",
    "pre",
    "code",
    "table",
    "thead",
    "tbody",
    "tr",
    "td",
    "th",
    "ul",
    "ol",
    "li",
    "h3",
    "h4",
    "h5",
    "hr",
}
VOID = {"br", "hr", "img", "input", "link", "meta", "base", "embed", "source", "wbr", "col", "area", "param"}
DROP_WITH_CONTENT = {
    "script",
    "style",
    "iframe",
    "object",
    "embed",
    "foreignobject",
    "template",
    "noscript",
    "textarea",
    "select",
    "math",
    "audio",
    "video",
    "image",
    "img",
    "a",
    "use",
    "animate",
    "set",
    "animatetransform",
    "animatemotion",
    "form",
    "input",
    "button",
    "link",
    "meta",
    "base",
}
ATTRIBUTES = {
    "x",
    "y",
    "x1",
    "y1",
    "x2",
    "y2",
    "cx",
    "cy",
    "r",
    "rx",
    "ry",
    "width",
    "height",
    "d",
    "points",
    "viewbox",
    "transform",
    "fill",
    "stroke",
    "stroke-width",
    "stroke-dasharray",
    "stroke-linecap",
    "stroke-linejoin",
    "opacity",
    "fill-opacity",
    "stroke-opacity",
    "font-size",
    "font-weight",
    "font-family",
    "font-style",
    "text-anchor",
    "dominant-baseline",
    "class",
    "offset",
    "stop-color",
    "stop-opacity",
    "colspan",
    "rowspan",
    "dx",
    "dy",
    "preserveaspectratio",
    "xmlns",
    "role",
    "aria-label",
    "gradientunits",
    "gradienttransform",
    "patternunits",
    "markerwidth",
    "markerheight",
    "refx",
    "refy",
    "orient",
    "title",
    "align",
    "letter-spacing",
}
# A value may hold no markup, no URL or CSS function, no entity tricks and no scheme.
UNSAFE_VALUE = re.compile(r"[<>`\\]|url\s*\(|expression|javascript|vbscript|data\s*:|&#|@import", re.IGNORECASE)
CASE = {
    "viewbox": "viewBox",
    "preserveaspectratio": "preserveAspectRatio",
    "lineargradient": "linearGradient",
    "radialgradient": "radialGradient",
    "clippath": "clipPath",
    "gradientunits": "gradientUnits",
    "gradienttransform": "gradientTransform",
    "patternunits": "patternUnits",
    "markerwidth": "markerWidth",
    "markerheight": "markerHeight",
    "refx": "refX",
    "refy": "refY",
}
ALLOWED = SVG_ELEMENTS | HTML_ELEMENTS


class DrawingError(ValueError):
    """A drawing that is not a string, or too large to show."""


def sanitize_drawing(markup: object) -> str:
    """The drawing rebuilt from allowed elements and attributes only, every text escaped."""
    if not isinstance(markup, str):
        raise DrawingError(f"drawing() should return SVG or HTML text (or None), not {type(markup).__name__}")
    if len(markup) > MAX_DRAWING_CHARS:
        raise DrawingError(
            f"drawing() returned {len(markup):,} characters; a drawing holds at most {MAX_DRAWING_CHARS:,}"
        )
    cleaner = _Cleaner()
    cleaner.feed(markup)
    cleaner.close()
    return cleaner.result()


class _Cleaner(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.open: list[str] = []
        self.dropping = 0  # inside an element dropped with its content

    def handle_starttag(self, tag, attrs):
        self._start(tag, attrs, closed=False)

    def handle_startendtag(self, tag, attrs):
        self._start(tag, attrs, closed=True)

    def _start(self, tag, attrs, closed):
        tag = tag.lower()
        if self.dropping:  # inside a dropped element: only count its nesting (safety never rests on this count)
            self.dropping += 0 if closed or tag in VOID else 1
            return
        if tag in DROP_WITH_CONTENT:
            self.dropping = 0 if closed or tag in VOID else 1
            return
        if tag not in ALLOWED or len(self.open) >= MAX_DEPTH:
            return
        kept = "".join(
            f' {CASE.get(name, name)}="{html.escape(value, quote=True)}"' for name, value in _clean_attributes(attrs)
        )
        name = CASE.get(tag, tag)
        if tag in VOID:
            self.out.append(f"<{name}{kept}>")
        elif closed:
            self.out.append(f"<{name}{kept}></{name}>")
        else:
            self.out.append(f"<{name}{kept}>")
            self.open.append(tag)

    def handle_endtag(self, tag):
        tag = tag.lower()
        if self.dropping:
            self.dropping -= 1
            return
        if tag in self.open:
            while self.open:
                inner = self.open.pop()
                self.out.append(f"</{CASE.get(inner, inner)}>")
                if inner == tag:
                    break

    def handle_data(self, data):
        if not self.dropping:
            self.out.append(html.escape(data, quote=False))

    def result(self) -> str:
        while self.open:
            inner = self.open.pop()
            self.out.append(f"</{CASE.get(inner, inner)}>")
        return "".join(self.out)


def _clean_attributes(attrs):
    for name, value in attrs:
        name = name.lower()
        if name not in ATTRIBUTES or value is None or len(value) > 20_000 or UNSAFE_VALUE.search(value):
            continue
        yield name, value
