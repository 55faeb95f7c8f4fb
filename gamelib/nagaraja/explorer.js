// The fate-stick explorer's numbers and plots (anywidget). Python (explorer.py) sends, in ONE
// state message per change (`data`), the number boxes, the effect's result and the published
// ranges as HTML (`data.page`) and exact integer counts; this module draws the counts as SVG:
// the points bars with the simulated dots, the at-least curves, a points x Nagas heat map and the sweep panels. Exact
// fractions (for hover titles) are reduced here with BigInt, so the kernel sends only
// counts, a few kilobytes. No odds are computed here beyond sums of the sent counts.
//
// Test handles: classes prefixed gx-, and data-* attributes: rect.gx-bar carries
// data-player, data-points, data-exact (reduced fraction) and data-value (its float); past 2**64
// outcomes a player's bars are one path.gx-bar-path-<player> with data-bars, data-first, data-last;
// each plot svg carries data-ymax and data-plot-height; in a sweep, the current count's
// circle.gx-sweep-current carries data-count and data-exact (its other points are one path);
// the root carries data-revision, and the bench's marks (data-received-at, data-drawn-at,
// data-painted-at, data-panel-ms).

const NS = "http://www.w3.org/2000/svg";
const SERIES = ["#0072B2", "#E69F00"];            // Okabe-Ito blue and orange (gamelib.plots)
const MODEL_SERIES = ["#009E73", "#CC79A7"];     // Okabe-Ito green and purple for Models A, B
const VIRIDIS = ["#440154", "#3b528b", "#21918c", "#5ec962", "#fde725"];
const PLOT = { width: 415, height: 240, left: 52, right: 12, top: 40, bottom: 40 };

function svgElement(tag, attributes = {}, parent = null) {
  const node = document.createElementNS(NS, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (parent) parent.appendChild(node);
  return node;
}

function addText(parent, x, y, text, attributes = {}) {
  const node = svgElement("text", { x, y, class: "gx-text", ...attributes }, parent);
  node.textContent = text;
  return node;
}

function addTitle(node, text) {
  svgElement("title", {}, node).textContent = text;
}

/** A hover title (a text, or a function making it) written only when the pointer first reaches
 *  the node: hundreds of marks at 36 sticks would otherwise cost hundreds of elements per redraw. */
function lazyTitle(node, text) {
  node.__title = text;
}

function titlesOnHover(group) {
  group.addEventListener("pointerover", (event) => {
    const node = event.target;
    if (node.__title === undefined) return;
    addTitle(node, typeof node.__title === "function" ? node.__title() : node.__title);
    node.__title = undefined;
  });
}

// ------------------------------------------------------------------ exact numbers

// A pool past 2**64 equally likely outcomes (explorer.EXACT_TOTAL) arrives with total null and each
// chance as a float: no exact fraction is shown for it, only "≈" (a smaller message, no BigInt work).

// Counts arrive as hexadecimal strings, cheap to write in Python: "1f" or, in the heat map, "0x1f".
const big = (hex) => BigInt(hex[1] === "x" ? hex : `0x${hex}`);

function gcd(a, b) {
  // The totals are powers of the face count, nearly always 4: a power of two's gcd with a is
  // a's lowest set bit, a few BigInt operations instead of forty divisions.
  if (a > 0n && b > 0n && (b & (b - 1n)) === 0n) {
    const low = a & -a;
    return low < b ? low : b;
  }
  while (b) {
    const rest = a % b;
    a = b;
    b = rest;
  }
  return a;
}

/** "num/den" reduced; long fractions are shortened so a title stays readable. */
function fraction(numerator, denominator) {
  if (numerator === 0n) return "0";
  const g = gcd(numerator, denominator);
  const n = numerator / g, d = denominator / g;
  return d === 1n ? `${n}` : `${n}/${d}`;
}

function ratio(numerator, denominator) {
  // Counts stay below 2**1000 within the library's bounds (100 sticks of 16 faces), so Number() keeps
  // 16 significant digits of each and the ratio is a correctly sized float.
  return Number(numerator) / Number(denominator);
}

/** A short honest decimal: never 100% for a chance below 1, never 0% above 0. */
function readable(p, exactOne, exactZero) {
  if (exactZero) return "0%";
  if (exactOne) return "100%";
  if (p < 1e-4) return p.toExponential(1).replace("e-", " × 10^-");
  if (1 - p < 1e-4) return "> 99.99%";
  return `${(100 * p).toFixed(p < 0.01 ? 3 : 2)}%`;
}

// ------------------------------------------------------------------ axes

function niceTicks(low, high, count) {
  const span = Math.max(high - low, 1e-12);
  const raw = span / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw);
  const ticks = [];
  for (let t = Math.ceil(low / step) * step; t <= high + step * 1e-9; t += step) ticks.push(+t.toFixed(10));
  return ticks;
}

function integerTicks(low, high, count) {
  return niceTicks(low, high, count).filter((t) => Number.isInteger(t));
}

/** A plot frame: axes, ticks and labels; returns scale functions and the drawing group. */
function frame(svg, { xlow, xhigh, ylow, yhigh, xlabel, ylabel, title, xticks, yticks, percentY }) {
  const w = +svg.getAttribute("width"), h = +svg.getAttribute("height");
  const inner = { x0: PLOT.left, x1: w - PLOT.right, y0: h - PLOT.bottom, y1: PLOT.top };
  const x = (v) => inner.x0 + ((v - xlow) / (xhigh - xlow || 1)) * (inner.x1 - inner.x0);
  const y = (v) => inner.y0 - ((v - ylow) / (yhigh - ylow || 1)) * (inner.y0 - inner.y1);
  const axes = svgElement("g", { class: "gx-axes" }, svg);
  // The axis lines and tick marks as one path, the grid lines as another (issue 25: speed): each element
  // costs the page a style match against JupyterLab's thousands of rules on every redraw.
  const axis = [`M${inner.x0} ${inner.y0}H${inner.x1}M${inner.x0} ${inner.y0}V${inner.y1}`], grid = [];
  for (const t of xticks) {
    axis.push(`M${x(t)} ${inner.y0}v4`);
    addText(axes, x(t), inner.y0 + 15, `${t}`, { "text-anchor": "middle", class: "gx-text gx-tick" });
  }
  for (const t of yticks) {
    grid.push(`M${inner.x0 - 4} ${y(t)}H${inner.x1}`);
    const label = percentY ? `${Math.round(t * 100)}%` : `${+t.toFixed(3)}`;
    addText(axes, inner.x0 - 6, y(t) + 4, label, { "text-anchor": "end", class: "gx-text gx-tick" });
  }
  svgElement("path", { d: axis.join(""), fill: "none", class: "gx-axis" }, axes);
  svgElement("path", { d: grid.join(""), fill: "none", class: "gx-grid" }, axes);  // over the axes, as before
  addText(axes, (inner.x0 + inner.x1) / 2, h - 6, xlabel, { "text-anchor": "middle", class: "gx-text gx-label" });
  addText(axes, 13, (inner.y0 + inner.y1) / 2, ylabel,
    { "text-anchor": "middle", transform: `rotate(-90 13 ${(inner.y0 + inner.y1) / 2})`, class: "gx-text gx-label" });
  addText(axes, inner.x0, 14, title, { class: "gx-text gx-title" });
  svg.setAttribute("data-plot-height", inner.y0 - inner.y1);
  const group = svgElement("g", { class: "gx-data" }, svg);
  titlesOnHover(group);
  return { x, y, inner, group };
}

function legend(svg, entries, x, y) {
  const group = svgElement("g", { class: "gx-legend" }, svg);
  let at = x;
  for (const { label, fill, kind } of entries) {
    if (kind === "dot") svgElement("circle", { cx: at + 5, cy: y - 4, r: 3, class: "gx-dot" }, group);
    else if (kind === "line") svgElement("line", { x1: at, x2: at + 12, y1: y - 4, y2: y - 4, stroke: fill, "stroke-width": 2 }, group);
    else svgElement("rect", { x: at, y: y - 10, width: 12, height: 10, fill, class: "gx-swatch" }, group);
    const text = addText(group, at + 16, y, label, { class: "gx-text gx-tick" });
    at += 24 + 6.5 * label.length;
    text.setAttribute("data-legend", label);
  }
}

function patterns(svg) {
  const defs = svgElement("defs", {}, svg);
  // Player 0: solid; player 1: diagonal hatching, so the two differ without colour.
  const hatch = svgElement("pattern", { id: "gx-hatch-1", patternUnits: "userSpaceOnUse", width: 6, height: 6,
    patternTransform: "rotate(45)" }, defs);
  svgElement("rect", { width: 6, height: 6, fill: SERIES[1] }, hatch);
  svgElement("line", { x1: 0, y1: 0, x2: 0, y2: 6, stroke: "#000", "stroke-width": 1.6, "stroke-opacity": 0.55 }, hatch);
  return ["" + SERIES[0], "url(#gx-hatch-1)"];
}

function newSvg(parent, cls, width = PLOT.width, height = PLOT.height) {
  const svg = svgElement("svg", { width, height, viewBox: `0 0 ${width} ${height}`, class: `gx-plot ${cls}`,
    role: "img" });
  parent.appendChild(svg);
  return svg;
}

// ------------------------------------------------------------------ the panels

/** Many marks as ONE path (issue 25: speed). A pool past 2**64 outcomes has hundreds of bars or tail
 *  points, each narrower than a pixel at 100 sticks a side; hundreds of elements cost the page more to
 *  make, style and lay out than the kernel spends computing them. A transparent rectangle over the
 *  plot area carries the hover title instead: the marks at the pointer's points value, found from x
 *  (thin bars are easier to read this way than by hitting one). */
function hoverOverlay(f, describe) {
  const overlay = svgElement("rect", { x: f.inner.x0, y: f.inner.y1, width: f.inner.x1 - f.inner.x0,
    height: f.inner.y0 - f.inner.y1, fill: "transparent", class: "gx-hover" }, f.group);
  const title = svgElement("title", {}, overlay);
  const svg = f.group.ownerSVGElement, unit = f.x(1) - f.x(0);
  overlay.addEventListener("pointermove", (event) => {
    const point = svg.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    const text = describe(Math.round((point.matrixTransform(svg.getScreenCTM().inverse()).x - f.x(0)) / unit));
    if (title.textContent !== text) title.textContent = text;
  });
  return overlay;
}

/** The bars of one player, one path: a rectangle subpath per bar, as the rects of small pools draw them. */
function barPath(f, bars, offset, width, fill, i) {
  const w = Math.max(width, 0.5), parts = [];
  for (const [p, , value] of bars) {
    const top = f.y(value);
    parts.push(`M${(f.x(p) + offset - width / 2).toFixed(2)} ${f.inner.y0}V${top.toFixed(2)}h${w.toFixed(2)}V${f.inner.y0}z`);
  }
  svgElement("path", { d: parts.join(""), fill, class: `gx-bar gx-bar-path gx-bar-path-${i}`, "data-player": i,
    "data-bars": bars.length, "data-first": bars.length ? bars[0][0] : "", "data-last": bars.length ? bars[bars.length - 1][0] : "" },
  f.group);
}

function drawBars(parent, data) {
  const svg = newSvg(parent, "gx-bars");
  svg.setAttribute("aria-label", "points thrown by each player: exact bars, simulated dots");
  const fills = patterns(svg);
  const players = data.players.map((player) => {
    if (player.total === null) return { ...player, bars: player.points.map(([p, v]) => [p, null, v]), totalBig: null };
    const total = big(player.total);
    return { ...player, bars: player.points.map(([p, c]) => [p, big(c), ratio(big(c), total)]), totalBig: total };
  });
  const all = players.flatMap((pl) => pl.bars.map((b) => b[0]));
  const xlow = Math.min(...all) - 0.7, xhigh = Math.max(...all) + 0.7;
  const highest = Math.max(...players.flatMap((pl) => [...pl.bars.map((b) => b[2]), ...pl.sim.map((s) => s[1])]));
  const ymax = highest * 1.25;
  svg.setAttribute("data-ymax", ymax);
  const f = frame(svg, { xlow, xhigh, ylow: 0, yhigh: ymax, xlabel: "points thrown", ylabel: "probability",
    title: "Points thrown (bars exact, dots simulated)", xticks: integerTicks(xlow, xhigh, 10),
    yticks: niceTicks(0, highest, 4) });
  const width = Math.min(0.8 / players.length, 0.4) * (f.x(1) - f.x(0));
  const labels = players.map((player, i) => (p, count, value) => {
    const exact = count === null ? null : fraction(count, player.totalBig);
    const one = exact === null ? value >= 1 : count === player.totalBig;
    return `${data.names[i]}: P(${p} points) ${exact === null ? "" : `= ${exact} `}≈ ${readable(value, one, false)}`;
  });
  const offsets = players.map((_, i) => (i - (players.length - 1) / 2) * width);
  players.forEach((player, i) => {
    if (player.totalBig === null) barPath(f, player.bars, offsets[i], width, fills[i], i);
    else for (const [p, count, value] of player.bars) {
      const top = f.y(value), exact = fraction(count, player.totalBig);
      const bar = svgElement("rect", { x: f.x(p) + offsets[i] - width / 2, y: top, width: Math.max(width, 0.5),
        height: f.inner.y0 - top, fill: fills[i], class: `gx-bar gx-bar-${i}`, "data-player": i, "data-points": p,
        "data-value": value, "data-exact": exact }, f.group);
      lazyTitle(bar, () => labels[i](p, count, value));
    }
  });
  if (players.some((player) => player.totalBig === null)) {  // bars as paths: one hover title for the plot
    const byPoints = players.map((player) => new Map(player.bars.map((bar) => [bar[0], bar])));
    hoverOverlay(f, (p) => players.map((_, i) => byPoints[i].get(p)).map((bar, i) => (bar ? labels[i](p, bar[1], bar[2]) : ""))
      .filter(Boolean).join("\n"));
  }
  players.forEach((player, i) => {
    for (const [p, frequency] of player.sim) {
      const dot = svgElement("circle", { cx: f.x(p) + offsets[i], cy: f.y(frequency), r: 2.6, class: "gx-dot",
        "data-player": i, "data-points": p }, f.group);
      lazyTitle(dot, `${data.names[i]}: ${p} points in ${(100 * frequency).toFixed(1)}% of the simulated throws`);
    }
  });
  legend(svg, [{ label: data.names[0], fill: fills[0] }, { label: data.names[1], fill: fills[1] },
    { label: "simulated", kind: "dot" }], PLOT.left, 30);
}

function drawTails(parent, data) {
  const svg = newSvg(parent, "gx-tails");
  svg.setAttribute("aria-label", "chance of at least k points for each player");
  const series = data.players.map((player) => {
    if (player.total === null) {  // floats: the running sum in floats, capped at 1
      let running = 0;
      const tail = [];
      for (let j = player.points.length - 1; j >= 0; j--) {
        running = Math.min(1, running + player.points[j][1]);
        tail.push([player.points[j][0], running, null]);
      }
      return tail.reverse();
    }
    const total = big(player.total);
    let running = 0n;
    const tail = [];
    for (let j = player.points.length - 1; j >= 0; j--) {
      running += big(player.points[j][1]);
      tail.push([player.points[j][0], running, total]);
    }
    return tail.reverse();
  });
  const all = data.players.flatMap((pl) => pl.points.map((b) => b[0]));
  const xlow = Math.min(...all) - 0.7, xhigh = Math.max(...all) + 0.7;
  svg.setAttribute("data-ymax", 1.15);
  const f = frame(svg, { xlow, xhigh, ylow: 0, yhigh: 1.15, xlabel: "k (points)", ylabel: "P(points ≥ k)",
    title: "Chance of at least k points", xticks: integerTicks(xlow, xhigh, 10), yticks: [0, 0.25, 0.5, 0.75, 1],
    percentY: true });
  series.forEach((tail, i) => {
    const value = (n, d) => (d === null ? n : ratio(n, d));
    const points = tail.map(([k, n, d]) => [f.x(k), f.y(value(n, d))]);
    const d = points.map(([px, py], j) => (j ? `L ${px} ${py}` : `M ${px} ${py}`)).join(" ");
    svgElement("path", { d, class: `gx-tail gx-tail-${i}`, stroke: SERIES[i], fill: "none",
      "stroke-width": 2, "stroke-dasharray": i ? "5 3" : "" }, f.group);
    // The markers: circles (first player) or squares (second), all in one path (see barPath).
    const marks = points.map(([px, py]) => (i ? `M${(px - 3).toFixed(2)} ${(py - 3).toFixed(2)}h6v6h-6z`
      : `M${(px - 3.2).toFixed(2)} ${py.toFixed(2)}a3.2 3.2 0 1 0 6.4 0a3.2 3.2 0 1 0 -6.4 0z`));
    svgElement("path", { d: marks.join(""), fill: SERIES[i], class: `gx-tail-points gx-tail-points-${i}`,
      "data-player": i, "data-points": tail.length }, f.group);
  });
  // One hover title for the plot (see hoverOverlay): each player's chance of at least k points, the exact
  // fraction only when pointed at.
  const byK = series.map((tail) => new Map(tail.map((entry, j) => [entry[0], j])));
  hoverOverlay(f, (k) => series.map((tail, i) => {
    const j = byK[i].get(k);
    if (j === undefined) return "";
    const [, n, dd] = tail[j];
    if (dd === null) return `${data.names[i]}: P(at least ${k} points) ≈ ${readable(n, j === 0, false)}`;
    return `${data.names[i]}: P(at least ${k} points) = ${fraction(n, dd)} ≈ ${readable(ratio(n, dd), n === dd, n === 0n)}`;
  }).filter(Boolean).join("\n"));
  legend(svg, [{ label: data.names[0], fill: SERIES[0], kind: "line" }, { label: data.names[1], fill: SERIES[1], kind: "line" }],
    PLOT.left, 30);
}

function viridisColour(t) {
  const scaled = t * (VIRIDIS.length - 1);
  const i = Math.min(Math.floor(scaled), VIRIDIS.length - 2), u = scaled - i;
  const [a, b] = [VIRIDIS[i], VIRIDIS[i + 1]].map((hex) => [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16)));
  return `rgb(${a.map((v, k) => Math.round(v + (b[k] - v) * u)).join(",")})`;
}

const VIRIDIS_TABLE = Array.from({ length: 101 }, (_, i) => viridisColour(i / 100));  // computed once

const VIRIDIS_RGB = VIRIDIS_TABLE.map((text) => text.slice(4, -1).split(",").map(Number));
// The same colours as little-endian RGBA words (alpha 255), for the heat map's pixels.
const VIRIDIS_WORDS = VIRIDIS_RGB.map(([r, g, b]) => ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0);

function viridis(t) {
  return VIRIDIS_TABLE[Math.round(Math.min(Math.max(t, 0), 1) * 100)];
}

let COLOUR_BAR = null;

/** The heat map's colour bar, 20 steps from the top (highest) down, as one image made once: one
 *  element per redraw instead of twenty rectangles (issue 25: speed). Step s has viridis((s + 0.5) / 20). */
function colourBarImage() {
  if (COLOUR_BAR === null) {
    const steps = 20, canvas = document.createElement("canvas");
    canvas.width = 1;
    canvas.height = steps;
    const context = canvas.getContext("2d");
    for (let s = 0; s < steps; s++) {
      context.fillStyle = viridis((s + 0.5) / steps);
      context.fillRect(0, steps - 1 - s, 1, 1);
    }
    COLOUR_BAR = canvas.toDataURL();
  }
  return COLOUR_BAR;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The heat map's cells as one dense grid, row nmax first (the canvas's top row): values[at] is the
 *  chance of (points, Nagas) at at = (nmax - nagas) * columns + (points - pmin), 0 where impossible;
 *  counts[at] its exact count when the pool has one. No array per cell (issue 25: speed).
 *  Past 2**64 outcomes the heat map arrives as dense rows of float chances (explorer._dense_heat):
 *  {rows: [[nagas, first points, length], ...], f64: base64 of little-endian float64}; 0 = impossible. */
function heatGrid(player) {
  let pmin = Infinity, pmax = -Infinity, nmax = 0;
  if (Array.isArray(player.heat)) {
    if (!player.heat.length) return null;
    for (const [p, n] of player.heat) { pmin = Math.min(pmin, p); pmax = Math.max(pmax, p); nmax = Math.max(nmax, n); }
    const columns = pmax - pmin + 1, total = big(player.total);
    const values = new Float64Array(columns * (nmax + 1)), counts = new Array(values.length);
    for (const [p, n, hex] of player.heat) {
      const at = (nmax - n) * columns + (p - pmin), c = big(hex);
      counts[at] = c;
      values[at] = ratio(c, total);
    }
    return { pmin, pmax, nmax, columns, values, counts, total, cells: player.heat.length };
  }
  const { rows, f64 } = player.heat;
  if (!rows.length) return null;
  for (const [n, first, length] of rows) { pmin = Math.min(pmin, first); pmax = Math.max(pmax, first + length - 1); nmax = Math.max(nmax, n); }
  const text = atob(f64), bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  const view = new DataView(bytes.buffer), sent = LITTLE_ENDIAN ? new Float64Array(bytes.buffer) : null;
  const columns = pmax - pmin + 1, values = new Float64Array(columns * (nmax + 1));
  let from = 0, cells = 0;
  for (const [n, first, length] of rows) {
    const at = (nmax - n) * columns + (first - pmin);
    for (let k = 0; k < length; k++, from++) {
      const value = sent ? sent[from] : view.getFloat64(8 * from, true);
      values[at + k] = value;
      if (value > 0) cells += 1;
    }
  }
  return { pmin, pmax, nmax, columns, values, counts: null, total: null, cells };
}

function drawHeat(parent, data, playerIndex) {
  const player = data.players[playerIndex];
  const svg = newSvg(parent, "gx-heat");
  svg.setAttribute("aria-label", `joint chance of points and Nagas for ${data.names[playerIndex]}`);
  svg.setAttribute("data-player", playerIndex);
  const grid = heatGrid(player);
  if (!grid) return;  // the heat player just changed: the kernel's counts are on their way
  const { pmin, pmax, nmax, columns, values, counts, total } = grid;
  let highest = 0;
  for (let at = 0; at < values.length; at++) if (values[at] > highest) highest = values[at];
  svg.setAttribute("data-ymax", nmax + 0.5);
  const f = frame(svg, { xlow: pmin - 0.5, xhigh: pmax + 0.5 + (pmax - pmin + 1) * 0.12, ylow: -0.5, yhigh: nmax + 0.5,
    xlabel: "points thrown", ylabel: "Nagas", title: `${data.names[playerIndex]}: P(points, Nagas)`,
    xticks: integerTicks(pmin, pmax, 10), yticks: integerTicks(0, nmax, 6) });
  const cw = f.x(1) - f.x(0), ch = f.y(0) - f.y(1);
  // The cells are painted one pixel each on a small canvas, which the SVG stretches over the data
  // area as an image: a thousand cells at 36 sticks cost one element, not a thousand (issue 12).
  const rows = nmax + 1;
  const canvas = document.createElement("canvas");
  canvas.width = columns;
  canvas.height = rows;
  const context = canvas.getContext("2d");
  const pixels = context.createImageData(columns, rows);
  const words = new Uint32Array(pixels.data.buffer), colours = LITTLE_ENDIAN ? VIRIDIS_WORDS : null;
  for (let pixel = 0; pixel < values.length; pixel++) {
    const value = values[pixel];
    if (!(value > 0)) continue;  // impossible: left transparent
    const level = Math.round(Math.min(Math.sqrt(value / highest), 1) * 100);
    if (colours) { words[pixel] = colours[level]; continue; }  // one store per pixel: r, g, b and opaque
    const [r, g, b] = VIRIDIS_RGB[level];
    pixels.data.set([r, g, b, 255], 4 * pixel);
  }
  context.putImageData(pixels, 0, 0);
  const image = svgElement("image", { x: f.x(pmin) - cw / 2, y: f.y(nmax) - ch / 2, width: cw * columns,
    height: ch * rows, preserveAspectRatio: "none", href: canvas.toDataURL(), class: "gx-cells" }, f.group);
  svg.setAttribute("data-cells", grid.cells);
  // Hover: the cell under the pointer is outlined and its exact chance shown above the map.
  const outline = svgElement("rect", { width: cw, height: ch, class: "gx-cell-outline", visibility: "hidden" }, f.group);
  const readout = addText(svg, f.inner.x0, 29, "point at a cell for its exact chance",
    { class: "gx-text gx-tick gx-heat-readout" });  // under the title, clear of the colour bar's labels
  const show = (event) => {
    const point = svg.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    const local = point.matrixTransform(svg.getScreenCTM().inverse());
    const p = Math.round(pmin + (local.x - f.x(pmin)) / cw), n = Math.round((f.y(0) - local.y) / ch);
    const at = p >= pmin && p <= pmax && n >= 0 && n <= nmax ? (nmax - n) * columns + (p - pmin) : -1;
    if (!(values[at] > 0)) { outline.setAttribute("visibility", "hidden"); return; }
    outline.setAttribute("x", f.x(p) - cw / 2);
    outline.setAttribute("y", f.y(n) - ch / 2);
    outline.setAttribute("visibility", "visible");
    const value = values[at], c = counts ? counts[at] : null, exact = c === null ? "" : fraction(c, total);
    Object.assign(readout.dataset, { points: p, nagas: n, exact });
    readout.textContent = `P(${p} points, ${n} Naga${n === 1 ? "" : "s"}) ${exact.length > 24 || !exact ? "" : `= ${exact} `}≈ ${readable(value, c !== null && c === total, false)}`;
  };
  image.addEventListener("pointermove", show);
  // colour bar: the square-root scale shows the rare throws too
  const bar = svgElement("g", { class: "gx-colourbar" }, svg);
  const x0 = f.inner.x1 - 14;
  svgElement("image", { x: x0, y: f.inner.y1, width: 10, height: f.inner.y0 - f.inner.y1, preserveAspectRatio: "none",
    href: colourBarImage(), class: "gx-colourbar-steps" }, bar);
  addText(bar, x0 - 2, f.inner.y1 - 3, `${(100 * highest).toFixed(1)}%`, { "text-anchor": "end", class: "gx-text gx-tick" });
  addText(bar, x0 - 2, f.inner.y0, "0%", { "text-anchor": "end", class: "gx-text gx-tick" });
  addText(bar, x0 + 10, f.inner.y1 - 14, "√ scale", { "text-anchor": "end", class: "gx-text gx-tick" });
}

// A sweep does not change while its own slider moves (only "now" does), so its points, exact
// fractions included, are read once per sweep, not once per key press (issue 25: speed).
const SWEEP_POINTS = new Map();

function sweepPoint([k, numerator, denominator]) {
  const key = `${numerator}/${denominator}`;
  let entry = SWEEP_POINTS.get(key);
  if (entry === undefined) {
    const n = big(numerator), d = big(denominator);
    entry = [n, d, ratio(n, d), fraction(n, d)];
    if (SWEEP_POINTS.size > 2000) SWEEP_POINTS.clear();  // bounded: a few sweeps' worth
    SWEEP_POINTS.set(key, entry);
  }
  return [k, ...entry];
}

function drawSweep(parent, data, modelIndex) {
  const sweep = data.sweep, model = sweep.models[modelIndex];
  const svg = newSvg(parent, `gx-sweep gx-sweep-${model.name}`, 204, 240);
  svg.setAttribute("aria-label", `P(${data.names[0]} wins) against the number of ${sweep.colour} sticks, Model ${model.name}`);
  const kmax = model.values[model.values.length - 1][0];
  const f = frame(svg, { xlow: -0.5, xhigh: kmax + 0.5, ylow: 0, yhigh: 1.05, xlabel: `${sweep.owner}'s ${sweep.colour} sticks`,
    ylabel: `P(${data.names[0]} wins)`, title: `Model ${model.name}${model.name === sweep.in_use ? " (in use)" : ""}`,
    xticks: integerTicks(0, kmax, 6), yticks: [0, 0.5, 1], percentY: true });
  svgElement("line", { x1: f.x(sweep.current), x2: f.x(sweep.current), y1: f.inner.y0, y2: f.inner.y1,
    class: "gx-current" }, f.group);
  const pts = model.values.map(sweepPoint);
  const path = pts.map(([k, , , value], j) => `${j ? "L" : "M"} ${f.x(k)} ${f.y(value)}`).join(" ");
  svgElement("path", { d: path, stroke: MODEL_SERIES[modelIndex], fill: "none", "stroke-width": 2 }, f.group);
  // The marks: the current count a circle of its own (a test handle, data-count and data-exact), the
  // others one path (issue 25: speed; up to 37 circles a sweep), with one hover title for the plot.
  const label = ([k, n, d, value, exact]) =>
    `${k} ${sweep.colour}: P(${data.names[0]} wins) = ${exact} ≈ ${readable(value, n === d, n === 0n)}`;
  const others = pts.filter(([k]) => k !== sweep.current).map(([k, , , value]) =>
    `M${(f.x(k) - 3).toFixed(2)} ${f.y(value).toFixed(2)}a3 3 0 1 0 6 0a3 3 0 1 0 -6 0z`);
  svgElement("path", { d: others.join(""), fill: MODEL_SERIES[modelIndex], class: "gx-sweep-point gx-sweep-points",
    "data-points": others.length }, f.group);
  const byCount = new Map(pts.map((point) => [point[0], point]));
  hoverOverlay(f, (k) => (byCount.has(k) ? label(byCount.get(k)) : ""));
  const now = byCount.get(sweep.current);
  if (now) {
    svgElement("circle", { cx: f.x(now[0]), cy: f.y(now[3]), r: 5.5, fill: MODEL_SERIES[modelIndex],
      class: "gx-sweep-point gx-sweep-current", "data-count": now[0], "data-exact": now[4], "pointer-events": "none" },
    f.group);
  }
  // "now" beside its line, on the side with room: at the right edge it goes to the line's left.
  const rightRoom = f.inner.x1 - f.x(sweep.current) > 28;
  addText(f.group, f.x(sweep.current) + (rightRoom ? 4 : -4), f.inner.y1 + 10, "now",
    { class: "gx-text gx-tick gx-now", "text-anchor": rightRoom ? "start" : "end" });
}

// ------------------------------------------------------------------ render

/** The parts of the page the kernel writes as HTML (explorer.py's PagePart), in their boxes above the
 *  plots; a part is rewritten only when its text changed (an opened "exact" stays open). */
function pageParts(el) {
  const box = (cls, parent) => {
    const node = document.createElement("div");
    node.className = cls;
    parent.appendChild(node);
    return node;
  };
  const odds = box("gl-odds", el);
  odds.style.cssText = "border: 1px solid var(--jp-border-color1, #ccc); padding: 2px 10px; margin: 6px 0;";
  const parts = { numbers: box("gl-numbers", odds), error: box("gl-odds-error", odds), effect: box("gl-effect", el),
    ranges: box("gl-edition-ranges", el) };
  return (page) => {
    for (const [key, node] of Object.entries(parts)) {
      const text = (page && page[key]) || "";
      if (node.__text !== text) { node.innerHTML = text; node.__text = text; }
    }
  };
}

function render({ model, el }) {
  const showParts = pageParts(el);
  const root = document.createElement("div");
  root.className = "gx-root";
  el.appendChild(root);
  let revision = 0;

  const draw = () => {
    const started = performance.now();
    root.dataset.receivedAt = `${started}`;  // performance marks for bench/bench_explorer_browser.py
    const data = JSON.parse(model.get("data") || "{}");
    const parsed = performance.now();
    showParts(data && data.page);
    const parts = performance.now();
    root.replaceChildren();
    const cleared = performance.now();
    if (data && data.absent) {  // nothing computed for the sliders' pools: no plot of another pool stays
      const note = document.createElement("div");
      note.className = "gx-absent";
      note.textContent = `${data.absent} No plot is shown for these pools.`;
      root.appendChild(note);
      revision += 1;
      requestAnimationFrame(() => { root.dataset.revision = `${revision}`; });
      return;
    }
    if (!data || !data.players) {  // numbers only (explorer.plot is False): nothing to draw
      revision += 1;
      requestAnimationFrame(() => { root.dataset.revision = `${revision}`; });
      return;
    }
    const top = document.createElement("div");
    top.className = "gx-row";
    root.appendChild(top);
    const panels = { parse: parsed - started, parts: parts - parsed, clear: cleared - parts };
    const timed = (name, work) => { const t0 = performance.now(); work(); panels[name] = performance.now() - t0; };
    timed("bars", () => drawBars(top, data));
    timed("tails", () => drawTails(top, data));

    const heatBox = document.createElement("div");
    heatBox.className = "gx-heat-box";
    const chooser = document.createElement("div");
    chooser.className = "gx-heat-chooser";
    chooser.setAttribute("role", "group");
    chooser.setAttribute("aria-label", "whose heat map");
    const heatPlayer = model.get("heat_player");
    data.names.forEach((name, i) => {
      const button = document.createElement("button");
      button.textContent = `${name}'s throw`;
      button.className = `gx-heat-button${i === heatPlayer ? " gx-on" : ""}`;
      button.setAttribute("aria-pressed", i === heatPlayer);
      button.addEventListener("click", () => { model.set("heat_player", i); model.save_changes(); });
      chooser.appendChild(button);
    });
    heatBox.appendChild(chooser);
    timed("heat", () => drawHeat(heatBox, data, heatPlayer));
    const bottom = document.createElement("div");
    bottom.className = "gx-row";
    root.appendChild(bottom);
    bottom.appendChild(heatBox);
    const sweepBox = document.createElement("div");
    sweepBox.className = "gx-sweep-box";
    bottom.appendChild(sweepBox);
    const sweepRow = document.createElement("div");
    sweepRow.className = "gx-row";
    sweepBox.appendChild(sweepRow);
    timed("sweeps", () => data.sweep.models.forEach((_, i) => drawSweep(sweepRow, data, i)));
    root.dataset.panelMs = JSON.stringify(panels);
    revision += 1;
    root.dataset.drawMs = `${performance.now() - started}`;
    requestAnimationFrame(() => {
      root.dataset.drawnAt = `${performance.now()}`;
      // A task queued in the frame runs once the frame is styled, laid out and painted: the bench's
      // "repainted" mark, set with the revision it waits for.
      setTimeout(() => {
        root.dataset.paintedAt = `${performance.now()}`;
        root.dataset.revision = `${revision}`;
        el.dispatchEvent(new CustomEvent("gx-drawn", { bubbles: true }));
      }, 0);
    });
  };
  model.on("change:data", draw);
  model.on("change:heat_player", draw);
  draw();
  // Home / End on one of this explorer's slider handles: the kernel moves that slider to its lowest /
  // highest allowed count (ipywidgets' slider ignores the two keys). Captured on the document, before
  // the slider or JupyterLab's notebook shortcuts see the key.
  let presses = 0;
  const onKey = (event) => {
    if (event.key !== "Home" && event.key !== "End") return;
    const slider = event.target.closest && event.target.closest("[class*='gl-slider-']");
    const explorer = slider && slider.closest(".gl-explorer");
    if (!explorer || !explorer.contains(el)) return;
    const name = [...slider.classList].find((c) => /^gl-slider-\d-/.test(c));
    if (!name) return;
    event.preventDefault();
    event.stopPropagation();
    presses += 1;
    model.set("slider_key", `${name.slice("gl-slider-".length)}:${event.key}:${presses}`);
    model.save_changes();
  };
  document.addEventListener("keydown", onKey, true);
  return () => {
    model.off("change:data", draw);
    model.off("change:heat_player", draw);
    document.removeEventListener("keydown", onKey, true);
  };
}

export default { render };
