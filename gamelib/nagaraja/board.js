// Nagaraja board. Python (board.py) sends the viewing player's observation as JSON in
// `state` and the legal actions as descriptors in `legal`; this module only draws them
// and reports clicks through `pick`. Rules never live here: an illegal click is sent
// anyway and Python shows the engine's reason in the message line.
//
// Test handles: classes prefixed nj- and data-* attributes (data-cell="r,c",
// data-spot, data-face, data-card, data-phase, data-to-act ...).

const CELL = 64;            // side of one room cell in the temple SVG
const MARGIN = 36;          // room around the grid for relic spots and entrances
const TEMPLE = 3 * CELL + 2 * MARGIN;
const SIDES = ["N", "E", "S", "W"];
const STICK_LETTER = { BROWN: "B", WHITE: "W", GREEN: "G" };
const STICK_LENGTH = { BROWN: 64, WHITE: 52, GREEN: 40 };   // longer sticks, more points
const SYMBOL_ICON = { STK: "≡", REL: "◆", ROM: "▦", CRD: "▭" };
const SYMBOL_NAME = { STK: "sticks", REL: "relics", ROM: "rooms", CRD: "cards" };
const TARGET_WORD = { SELF: "self", OPPONENT: "opponent", EITHER: "either player" };

/** The open sides of a segment after k clockwise quarter-turns (nagaraja.md#temple). */
function rotateSides(sides, k) {
  return [...sides].map((side) => SIDES[(SIDES.indexOf(side) + k) % 4]);
}

/** Midpoint of a cell side, relative to the cell's top-left corner. */
function sidePoint(side) {
  return { N: [CELL / 2, 0], E: [CELL, CELL / 2], S: [CELL / 2, CELL], W: [0, CELL / 2] }[side];
}

/** SVG path data for one segment, and the point where its special location sits. */
function segmentGeometry(sides) {
  const c = CELL / 2;
  if (sides.length === 1) {                       // a dead-end chamber
    const [x, y] = sidePoint(sides[0]);
    const ex = x + (c - x) * 0.62, ey = y + (c - y) * 0.62;
    return { d: `M ${x} ${y} L ${ex} ${ey}`, marker: [ex, ey], chamber: [ex, ey] };
  }
  if (sides.length === 2) {
    const [a, b] = sides.map(sidePoint);
    const opposite = a[0] === b[0] || a[1] === b[1];
    if (opposite) return { d: `M ${a[0]} ${a[1]} L ${b[0]} ${b[1]}`, marker: [c, c] };
    // A corner: a quarter circle around the cell corner the two sides share.
    const corner = [a[0] === c ? b[0] : a[0], a[1] === c ? b[1] : a[1]];
    const cross = (a[0] - corner[0]) * (b[1] - corner[1]) - (a[1] - corner[1]) * (b[0] - corner[0]);
    const mid = [corner[0] + (c - corner[0]) * 0.586, corner[1] + (c - corner[1]) * 0.586];
    return { d: `M ${a[0]} ${a[1]} A ${c} ${c} 0 0 ${cross > 0 ? 1 : 0} ${b[0]} ${b[1]}`, marker: mid };
  }
  const spokes = sides.map((side) => { const [x, y] = sidePoint(side); return `M ${c} ${c} L ${x} ${y}`; });
  return { d: spokes.join(" "), marker: [c, c], hub: true };
}

/** Draw a room tile (or its ghost) into an SVG group at the cell's top-left corner. */
function drawTile(group, tile, rotation, connected, extraClass = "") {
  group.appendChild(svgEl("rect", { x: 2, y: 2, width: CELL - 4, height: CELL - 4, rx: 6, class: "nj-tile-bg " + extraClass }));
  tile.segments.forEach((sides, index) => {
    const geometry = segmentGeometry(rotateSides(sides, rotation));
    const lit = connected && connected.includes(index);
    const cls = lit ? "nj-seg nj-seg-lit" : "nj-seg";
    const seg = svgEl("g", { class: cls, "data-segment": index });
    seg.appendChild(svgEl("path", { d: geometry.d, class: "nj-seg-wall" }));
    seg.appendChild(svgEl("path", { d: geometry.d, class: "nj-seg-floor" }));
    if (geometry.hub) seg.appendChild(svgEl("circle", { cx: CELL / 2, cy: CELL / 2, r: 7, class: "nj-seg-hub" }));
    if (geometry.chamber) {
      seg.appendChild(svgEl("rect", { x: geometry.chamber[0] - 8, y: geometry.chamber[1] - 8, width: 16, height: 16, rx: 3, class: "nj-seg-chamber" }));
    }
    if (tile.special === index) drawSpecial(seg, geometry.marker, tile.amulet);
    group.appendChild(seg);
  });
}

/** The special location: a diamond, with a face-down amulet token on it when one lies there. */
function drawSpecial(group, [x, y], amulet) {
  group.appendChild(svgEl("path", { d: `M ${x} ${y - 9} L ${x + 9} ${y} L ${x} ${y + 9} L ${x - 9} ${y} Z`, class: "nj-special" }));
  if (amulet) {
    const token = svgEl("g", { class: "nj-amulet-token", "data-amulet": "face-down" });
    token.appendChild(svgEl("circle", { cx: x, cy: y, r: 8 }));
    token.appendChild(svgEl("text", { x, y: y + 3.5, "text-anchor": "middle" }, "A"));
    token.appendChild(svgEl("title", {}, "a face-down amulet: connect this segment to an entrance to collect it"));
    group.appendChild(token);
  }
}

function drawTrap(group) {
  group.appendChild(svgEl("rect", { x: 2, y: 2, width: CELL - 4, height: CELL - 4, rx: 6, class: "nj-trap" }));
  group.appendChild(svgEl("path", { d: `M 14 14 L ${CELL - 14} ${CELL - 14} M ${CELL - 14} 14 L 14 ${CELL - 14}`, class: "nj-trap-x" }));
  group.appendChild(svgEl("text", { x: CELL / 2, y: CELL - 8, "text-anchor": "middle", class: "nj-trap-label" }, "TRAP"));
}

/** Where each perimeter spot sits in the temple SVG (nagaraja.md#temple). */
function spotCentre(name) {
  const [kind, index] = name.split("_");
  const i = Number(index), mid = MARGIN + i * CELL + CELL / 2;
  if (kind === "TOP") return [mid, MARGIN / 2];
  if (kind === "LEFT") return [MARGIN / 2, mid];
  if (kind === "RIGHT") return [MARGIN + 3 * CELL + MARGIN / 2, mid];
  return [mid, MARGIN + 3 * CELL + MARGIN / 2];   // ENTRANCE
}

function drawRelic(svg, name, spot) {
  const [x, y] = spotCentre(name);
  const state = spot.face_up ? (spot.cursed ? "cursed" : "sacred") : (spot.value != null ? "peeked" : "down");
  const g = svgEl("g", { class: `nj-relic nj-relic-${state}`, "data-spot": name, "data-face": spot.face_up ? "up" : "down" });
  g.appendChild(svgEl("circle", { cx: x, cy: y, r: 14 }));
  let label, words;
  if (spot.face_up) {
    label = (spot.cursed ? "☠" : "✦") + spot.value;
    words = `${name}: face up, ${spot.cursed ? "CURSED" : "sacred"} relic worth ${spot.value} VP`;
  } else if (spot.value != null) {
    label = (spot.cursed ? "☠" : "") + spot.value;
    words = `${name}: face down, but you know it: ${spot.cursed ? "cursed" : "sacred"} ${spot.value} VP`;
  } else {
    label = "?";
    words = `${name}: face-down relic (nobody knows it)`;
  }
  g.appendChild(svgEl("text", { x, y: y + 4, "text-anchor": "middle" }, label));
  g.appendChild(svgEl("title", {}, words));
  g.setAttribute("aria-label", words);
  svg.appendChild(g);
}

function drawEntrance(svg, name, lit) {
  const [x, y] = spotCentre(name);
  const g = svgEl("g", { class: "nj-entrance" + (lit ? " nj-entrance-lit" : ""), "data-spot": name });
  g.appendChild(svgEl("path", { d: `M ${x - 14} ${y + 12} L ${x - 14} ${y - 2} A 14 14 0 0 1 ${x + 14} ${y - 2} L ${x + 14} ${y + 12} Z` }));
  g.appendChild(svgEl("text", { x, y: y + 8, "text-anchor": "middle" }, "▲"));
  g.appendChild(svgEl("title", {}, `${name}: an entrance`));
  svg.appendChild(g);
}

/** One temple as SVG. `ui` says whether cells are clickable (placing the won tile). */
function drawTemple(temple, ui) {
  const svg = svgEl("svg", { viewBox: `0 0 ${TEMPLE} ${TEMPLE}`, width: TEMPLE, height: TEMPLE, class: "nj-temple-svg", role: "img" });
  svg.appendChild(svgEl("rect", { x: MARGIN - 6, y: MARGIN - 6, width: 3 * CELL + 12, height: 3 * CELL + 12, rx: 10, class: "nj-temple-floor" }));
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) {
      const cell = temple.cells[r][c];
      const key = `${r},${c}`;
      const g = svgEl("g", { transform: `translate(${MARGIN + c * CELL} ${MARGIN + r * CELL})`, class: "nj-cell", "data-cell": key });
      g.appendChild(svgEl("rect", { x: 1, y: 1, width: CELL - 2, height: CELL - 2, class: "nj-cell-slot" }));
      if (cell && cell.trap) { drawTrap(g); g.dataset.content = "trap"; }
      else if (cell) {
        drawTile(g, cell, 0, cell.connected);   // segments arrive already turned
        g.dataset.content = cell.tile;
        g.dataset.rotation = cell.rotation;
      } else g.dataset.content = "empty";
      if (ui && ui.placing) addPlacementTarget(g, r, c, cell, ui);
      svg.appendChild(g);
    }
  }
  for (const [name, spot] of Object.entries(temple.spots)) {
    if (name.startsWith("ENTRANCE")) drawEntrance(svg, name, temple.connected_spots.includes(name));
    else drawRelic(svg, name, spot);
  }
  return svg;
}

/** During EXPLORATION: legal cells are outlined, hovering shows the tile at the chosen rotation. */
function addPlacementTarget(g, r, c, cell, ui) {
  const legal = ui.legalCells.has(`${r},${c}`);
  if (legal) {
    g.classList.add("nj-cell-legal");
    const ghost = svgEl("g", { class: "nj-ghost" });
    drawTile(ghost, ui.room, ui.rotation, null, "nj-ghost-bg");
    g.appendChild(ghost);
    g.appendChild(svgEl("rect", { x: 3, y: 3, width: CELL - 6, height: CELL - 6, rx: 6, class: "nj-cell-outline" }));
  }
  if (cell) return;   // an occupied cell is not a target (a click would only repeat the reason)
  const label = `place the room tile at row ${r}, column ${c}, turned ${ui.rotation} quarter-turn(s)` + (legal ? "" : " (not a legal cell)");
  g.dataset.focusKey = `cell:${r},${c}`;
  makeClickable(g, label, () => ui.send({ kind: "place", cell: [r, c], rotation: ui.rotation }));
}

// ------------------------------------------------------------------ sticks and cards

/** One thrown stick: its colour, letter, and face (pips for points, a snake for a Naga). */
function drawStick(stick, onClick) {
  const length = STICK_LENGTH[stick.colour] || 52;
  const svg = svgEl("svg", { viewBox: `0 0 ${length + 4} 36`, width: length + 4, height: 36, class: `nj-stick nj-stick-${stick.colour.toLowerCase()}` + (stick.discarded ? " nj-stick-gone" : "") });
  svg.dataset.colour = stick.colour;
  svg.dataset.stick = stick.id;
  svg.dataset.focusKey = `stick:${stick.id}`;
  svg.appendChild(svgEl("text", { x: (length + 4) / 2, y: 34, "text-anchor": "middle", class: "nj-stick-id" }, stick.id));
  svg.dataset.face = stick.naga ? "naga" : String(stick.points);
  svg.appendChild(svgEl("rect", { x: 2, y: 3, width: length, height: 20, rx: 9, class: "nj-stick-body" }));
  svg.appendChild(svgEl("text", { x: 11, y: 17, "text-anchor": "middle", class: "nj-stick-letter" }, STICK_LETTER[stick.colour]));
  if (stick.naga) {
    svg.appendChild(svgEl("path", { d: "M 22 16 q 4 -8 8 0 t 8 0 t 8 0", class: "nj-naga" }));
  } else {
    for (let i = 0; i < stick.points; i++) svg.appendChild(svgEl("circle", { cx: 26 + i * 8, cy: 13, r: 3, class: "nj-pip" }));
  }
  const words = `${stick.colour.toLowerCase()} stick ${stick.id} (${STICK_LETTER[stick.colour]}): ` + (stick.naga ? "Naga" : `${stick.points} point${stick.points === 1 ? "" : "s"}`) + (stick.discarded ? ", discarded" : "");
  svg.appendChild(svgEl("title", {}, words));
  if (onClick) makeClickable(svg, "use the Naga on this " + words, onClick);
  else svg.setAttribute("aria-label", words);
  return svg;
}

function stickSetChips(letters) {
  const box = htmlEl("span", "nj-chips");
  for (const letter of letters) {
    const colour = { B: "brown", W: "white", G: "green" }[letter];
    box.appendChild(htmlEl("span", `nj-chip nj-chip-${colour}`, { title: `${colour} stick` }, letter));
  }
  return box;
}

/** A face-up card: symbol, stick set, effect with its target arrow. */
function drawCard(card, { selected = false, onClick = null, label = "" } = {}) {
  const node = htmlEl("div", `nj-card nj-card-${card.symbol.toLowerCase()}` + (selected ? " nj-card-selected" : ""), { "data-card": card.id, "data-focus-key": `card:${card.id}` });
  const head = htmlEl("div", "nj-card-head");
  head.appendChild(htmlEl("span", "nj-card-symbol", { title: `symbol: ${SYMBOL_NAME[card.symbol]}` }, `${SYMBOL_ICON[card.symbol] || "?"} ${SYMBOL_NAME[card.symbol] || card.symbol}`));
  head.appendChild(htmlEl("span", "nj-card-id", {}, card.id));
  node.appendChild(head);
  const sticks = htmlEl("div", "nj-card-sticks");
  sticks.appendChild(stickSetChips(card.sticks));
  node.appendChild(sticks);
  node.appendChild(htmlEl("div", "nj-card-effect", {}, card.effect));
  node.appendChild(htmlEl("div", "nj-card-text", {}, card.text || ""));
  node.appendChild(htmlEl("div", "nj-card-target", { title: "who the effect may target" }, `➜ ${TARGET_WORD[card.target] || card.target}`));
  if (onClick) makeClickable(node, label || `card ${card.id}: sticks ${card.sticks}, effect ${card.effect}`, onClick);
  if (selected) node.setAttribute("aria-pressed", "true");
  return node;
}

function cardBacks(count, className = "nj-card-back") {
  const row = htmlEl("div", "nj-backs", { "data-count": count, "aria-label": `${count} face-down card${count === 1 ? "" : "s"}` });
  for (let i = 0; i < count; i++) row.appendChild(htmlEl("div", className, { "aria-hidden": "true" }, "N"));
  if (count === 0) row.appendChild(htmlEl("span", "nj-muted", {}, "none"));
  return row;
}

function drawAmulet(amulet, onUse) {
  const node = htmlEl("span", "nj-amulet" + (amulet.effect ? " nj-amulet-effect" : ""), { "data-amulet": amulet.id, "data-focus-key": `amulet:${amulet.id}` });
  node.textContent = amulet.effect ? `${amulet.id} ${amulet.effect}` : `${amulet.id} +${amulet.vp} VP`;
  if (onUse) makeClickable(node, `use amulet ${amulet.id} ${amulet.effect}`, onUse);
  return node;
}

// ------------------------------------------------------------------ drawing the board

/** Rebuild the board from the `state` and `legal` traits. */
function drawBoard(ctx) {
  const { model, root, body } = ctx;
  const state = model.get("state") || {};
  const legal = model.get("legal") || [];
  body.replaceChildren();
  if (!state.players) return;
  root.dataset.phase = state.phase;
  root.dataset.toAct = state.to_act;
  root.dataset.viewer = state.viewer;
  body.appendChild(header(ctx, state));
  if (state.mode === "temple") {   // the temple sandbox of the paths lesson
    const table = htmlEl("div", "nj-table nj-table-sandbox");
    table.appendChild(templePanel(ctx, state.players[0], state, legal, true));
    table.appendChild(roomPanel(ctx, state, legal));
    body.append(table, eventLog(ctx, state));
    return;
  }
  const viewer = state.players[state.viewer];
  const other = state.players[1 - state.viewer];
  body.appendChild(playerStrip(ctx, other, state, legal));
  const table = htmlEl("div", "nj-table");
  table.appendChild(templePanel(ctx, viewer, state, legal, true));
  table.appendChild(arena(ctx, state, legal));
  table.appendChild(templePanel(ctx, other, state, legal, false));
  body.appendChild(table);
  body.appendChild(playerStrip(ctx, viewer, state, legal));
  body.appendChild(actionsPanel(ctx, state, legal));
  body.appendChild(analysisPanel(ctx));
  body.appendChild(eventLog(ctx, state));
}

/** A new position: forget the cards selected, the rotation and the Naga being built. */
function resetChoices(ui) {
  ui.cards.clear();
  ui.rotation = 0;
  ui.source = ui.card = ui.amulet = null;
}

function header(ctx, state) {
  const bar = htmlEl("div", "nj-header");
  bar.appendChild(htmlEl("span", "nj-title", {}, "Nagaraja"));
  bar.appendChild(htmlEl("span", "nj-placeholder", { title: "card, tile, amulet and stick data are the project's stand-ins (see Editions on the Nagaraja rules page, docs/rules/nagaraja.md)" }, "PLACEHOLDER teaching edition"));
  const status = htmlEl("span", "nj-status", { "data-phase": state.phase, "data-to-act": state.to_act }, state.status || "");
  if (state.your_turn) status.classList.add("nj-your-turn");
  bar.appendChild(status);
  if (state.mode !== "temple") bar.appendChild(analysisToggle(ctx));
  return bar;
}

/** The overlay's switch: it sets the `show_analysis` trait; Python computes and sends `analysis`. */
function analysisToggle(ctx) {
  const label = htmlEl("label", "nj-analysis-toggle");
  const box = htmlEl("input", "", { type: "checkbox", "data-focus-key": "analysis-toggle" });
  box.checked = !!ctx.model.get("show_analysis");
  box.addEventListener("change", () => { ctx.model.set("show_analysis", box.checked); ctx.model.save_changes(); });
  label.append(box, document.createTextNode(" show the odds"));
  return label;
}

/** The overlay: a table of exact chances (short percentages; the exact fraction on hover). */
function analysisPanel(ctx) {
  const data = ctx.model.get("analysis") || {};
  const box = htmlEl("div", "nj-analysis", { "data-on": data.on ? "true" : "false", "data-phase": data.phase || "" });
  if (!data.on) { box.hidden = true; return box; }
  box.appendChild(htmlEl("div", "nj-label", {}, data.title || "odds"));
  if ((data.rows || []).length) {
    const table = htmlEl("table", "nj-analysis-table");
    const head = htmlEl("tr");
    head.appendChild(htmlEl("th", "", {}, data.phase === "CALL_OF_FATE" ? "commit" : "move"));
    if (data.phase === "CALL_OF_FATE") head.appendChild(htmlEl("th", "", {}, "sticks"));
    for (const column of data.columns) head.appendChild(htmlEl("th", "", {}, column));
    table.appendChild(head);
    for (const row of data.rows) {
      const tr = htmlEl("tr", "nj-analysis-row", { "data-label": row.label });
      tr.appendChild(htmlEl("td", "nj-analysis-move", {}, row.label));
      if (row.pool) tr.appendChild(htmlEl("td", "nj-analysis-pool", {}, row.pool));
      for (const cell of row.cells) {
        tr.appendChild(htmlEl("td", "nj-analysis-value" + (cell.best ? " nj-analysis-best" : ""),
          { "data-p": cell.p, title: `exactly ${cell.p}` + (cell.best ? " (the best here)" : "") }, (cell.best ? "★ " : "") + cell.text));
      }
      table.appendChild(tr);
    }
    box.appendChild(table);
  }
  box.appendChild(htmlEl("div", "nj-hint nj-analysis-note", {}, data.note || ""));
  return box;
}

function playerStrip(ctx, player, state, legal) {
  const strip = htmlEl("div", "nj-player" + (player.is_viewer ? " nj-player-me" : " nj-player-them") + (player.to_act ? " nj-player-active" : ""), { "data-seat": player.seat });
  const who = htmlEl("div", "nj-player-who");
  who.appendChild(htmlEl("span", "nj-player-name", {}, player.name));
  if (player.is_guide) who.appendChild(htmlEl("span", "nj-scroll", { title: "the guide commits first and wins ties" }, "★ guide"));
  who.appendChild(htmlEl("span", "nj-score", { "data-score": player.score ?? "" }, player.score_text));
  if (player.to_act) who.appendChild(htmlEl("span", "nj-to-act", {}, "to act"));
  strip.appendChild(who);
  const hand = htmlEl("div", "nj-hand", { "data-count": player.hand_count });
  if (player.hand) {
    const pickable = handPickMode(ctx, state, legal);
    for (const card of player.hand) {
      const selected = ctx.ui.cards.has(card.id) || ctx.ui.card === card.id;
      const onClick = pickable ? () => { onHandCard(ctx, card, pickable, state, legal); } : null;
      hand.appendChild(drawCard(card, { selected, onClick, label: handCardLabel(card, pickable) }));
    }
    if (player.hand.length === 0) hand.appendChild(htmlEl("span", "nj-muted", {}, "no cards in hand"));
  } else {
    for (const card of player.known_hand || []) hand.appendChild(drawCard(card, { label: "" }));
    hand.appendChild(cardBacks(player.hand_count - (player.known_hand || []).length));
    if (player.known_hand && player.known_hand.length) hand.title = "cards you know are in this hand are shown face up";
  }
  strip.appendChild(hand);
  const amulets = htmlEl("div", "nj-amulets");
  amulets.appendChild(htmlEl("span", "nj-label", {}, "amulets"));
  if (player.amulets) {
    for (const amulet of player.amulets) {
      const options = legal.filter((a) => a.type === "UseAmulet" && a.amulet === amulet.id);
      amulets.appendChild(drawAmulet(amulet, options.length ? () => { ctx.ui.amulet = amulet.id; ctx.ui.card = ctx.ui.source = null; ctx.redraw(); } : null));
    }
    if (player.amulets.length === 0) amulets.appendChild(htmlEl("span", "nj-muted", {}, "none"));
  } else {
    amulets.appendChild(htmlEl("span", "nj-amulet nj-amulet-hidden", { "data-count": player.amulet_count }, `${player.amulet_count} face down`));
  }
  strip.appendChild(amulets);
  return strip;
}

function handPickMode(ctx, state, legal) {
  if (!state.your_turn) return null;
  if (state.phase === "CALL_OF_FATE") return "commit";
  if (state.phase === "CONFRONTATION" && legal.some((a) => a.type === "UseNaga")) return "naga";
  return null;
}

function handCardLabel(card, mode) {
  return mode === "commit"
  ? `select card ${card.id} (sticks ${card.sticks}) to commit`
  : `activate card ${card.id}: ${card.effect}, ${card.text || ""}`;
}

function onHandCard(ctx, card, mode, state, legal) {
  if (mode === "commit") {
    if (ctx.ui.cards.has(card.id)) ctx.ui.cards.delete(card.id); else ctx.ui.cards.add(card.id);
    ctx.redraw();
    return;
  }
  ctx.ui.card = ctx.ui.card === card.id ? null : card.id;
  ctx.ui.amulet = null;
  if (!ctx.ui.source) {
    const sources = [...new Set(legal.filter((a) => a.type === "UseNaga").map((a) => a.source))];
    if (sources.length === 1) ctx.ui.source = sources[0];
  }
  nagaChosen(ctx, legal);
}

/** Once a source and a card are chosen: with no legal way, let Python say why. */
function nagaChosen(ctx, legal) {
  if (ctx.ui.source && ctx.ui.card && !legal.some((a) => a.type === "UseNaga" && a.source === ctx.ui.source && a.card === ctx.ui.card)) {
    ctx.send({ kind: "naga", source: ctx.ui.source, card: ctx.ui.card });
    ctx.ui.card = null;
  }
  ctx.redraw();
}

function templePanel(ctx, player, state, legal, mine) {
  const panel = htmlEl("div", "nj-temple" + (mine ? " nj-temple-mine" : " nj-temple-theirs"), { "data-seat": player.seat });
  const title = state.mode === "temple" ? "the temple" : mine ? `${player.name}: your temple` : `${player.name}'s temple`;
  panel.appendChild(htmlEl("div", "nj-temple-title", {}, title));
  let placing = null;
  if (mine && state.your_turn && state.phase === "EXPLORATION" && state.room) {
    placing = {
      placing: true, room: state.room, rotation: ctx.ui.rotation, send: ctx.send,
      legalCells: new Set(legal.filter((a) => a.type === "PlaceTile").map((a) => a.cell.join(","))),
    };
  }
  panel.appendChild(drawTemple(player.temple, placing));
  const up = Object.values(player.temple.spots).filter((s) => s.face_up && s.cursed).length;
  panel.appendChild(htmlEl("div", "nj-curse-meter", { "data-cursed-up": up, title: "three cursed relics face up at once lose the game" }, `☠ cursed face up: ${up} of 3`));
  return panel;
}

function arena(ctx, state, legal) {
  const box = htmlEl("div", "nj-arena");
  box.appendChild(roomPanel(ctx, state, legal));
  for (const seat of [1 - state.viewer, state.viewer]) box.appendChild(throwPanel(ctx, state.players[seat], state, legal));
  if (state.drawn && state.drawn.length) box.appendChild(keepPanel(ctx, state, legal));
  if (state.result) box.appendChild(htmlEl("div", "nj-result", { "data-winner": state.result.winner, "data-reason": state.result.reason }, state.result.text));
  return box;
}

function roomPanel(ctx, state, legal) {
  const box = htmlEl("div", "nj-room", { "data-tile": state.room ? state.room.tile : "" });
  box.appendChild(htmlEl("div", "nj-label", {}, "room tile at stake"));
  if (!state.room) { box.appendChild(htmlEl("div", "nj-muted", {}, "none")); return box; }
  const svg = svgEl("svg", { viewBox: `-4 -4 ${CELL + 8} ${CELL + 8}`, width: 1.5 * CELL, height: 1.5 * CELL, class: "nj-room-svg", "data-rotation": ctx.ui.rotation });
  const g = svgEl("g");
  drawTile(g, state.room, ctx.ui.rotation, null);
  svg.appendChild(g);
  box.appendChild(svg);
  box.appendChild(htmlEl("div", "nj-room-name", {}, `${state.room.tile} · ${state.room.shape}` + (state.room.amulet ? " · amulet" : "")));
  if (state.phase === "EXPLORATION" && state.room_winner) box.appendChild(htmlEl("div", "nj-room-winner", {}, `won by ${state.room_winner}`));
  if (state.your_turn && state.phase === "EXPLORATION") {
    const rotate = htmlEl("button", "nj-button nj-rotate", { "data-rotation": ctx.ui.rotation, "data-focus-key": "rotate" }, `↻ rotate (${ctx.ui.rotation * 90}°)`);
    rotate.addEventListener("click", () => { ctx.ui.rotation = (ctx.ui.rotation + 1) % 4; ctx.redraw(); });
    box.appendChild(rotate);
    box.appendChild(htmlEl("div", "nj-hint", {}, "then click a highlighted cell of your temple"));
  }
  if (state.piles) box.appendChild(htmlEl("div", "nj-piles", {}, `rooms left ${state.piles.rooms} · draw ${state.piles.draw} · discard ${state.piles.discard}`));
  return box;
}

function throwPanel(ctx, player, state, legal) {
  const box = htmlEl("div", "nj-throw", { "data-seat": player.seat });
  const title = htmlEl("div", "nj-throw-title");
  title.appendChild(htmlEl("span", "", {}, player.is_viewer ? "your sticks" : `${player.name}'s sticks`));
  const showTotal = player.total != null && (player.sticks.length || player.modifier);
  title.appendChild(htmlEl("span", "nj-total", { "data-total": showTotal ? player.total : "" }, showTotal ? `total ${player.total}` : ""));
  box.appendChild(title);
  if (player.committed_count && !player.sticks.length) {
    box.appendChild(htmlEl("div", "nj-committed", { "data-count": player.committed_count }, `${player.committed_count} card${player.committed_count === 1 ? "" : "s"} committed face down`));
  }
  const row = htmlEl("div", "nj-sticks");
  const nagaSources = new Set(legal.filter((a) => a.type === "UseNaga").map((a) => a.source));
  for (const stick of player.sticks) {
    const usable = player.is_viewer && stick.naga && !stick.discarded && nagaSources.has(stick.colour);
    const node = drawStick(stick, usable ? () => { ctx.ui.source = ctx.ui.source === stick.colour ? null : stick.colour; ctx.ui.amulet = null; nagaChosen(ctx, legal); } : null);
    if (usable && ctx.ui.source === stick.colour) node.classList.add("nj-stick-selected");
    row.appendChild(node);
  }
  if (!player.sticks.length && !player.committed_count) row.appendChild(htmlEl("span", "nj-muted", {}, "no sticks thrown"));
  box.appendChild(row);
  if (player.played && player.played.length) {
    const played = htmlEl("div", "nj-played");
    played.appendChild(htmlEl("span", "nj-label", {}, "cards in play"));
    for (const card of player.played) played.appendChild(htmlEl("span", "nj-played-card", { "data-card": card.id }, `${card.id} ${card.sticks}` + (card.activated ? ` · ${card.effect}` : "")));
    box.appendChild(played);
  }
  if (player.modifier) box.appendChild(htmlEl("div", "nj-modifier", {}, `+${player.modifier} this round`));
  return box;
}

function keepPanel(ctx, state, legal) {
  const box = htmlEl("div", "nj-keep");
  box.appendChild(htmlEl("div", "nj-label", {}, state.your_turn ? "you drew these: keep 2, the third goes to your opponent" : "cards drawn"));
  const row = htmlEl("div", "nj-hand");
  for (const card of state.drawn) {
    const onClick = state.your_turn ? () => { if (ctx.ui.cards.has(card.id)) ctx.ui.cards.delete(card.id); else ctx.ui.cards.add(card.id); ctx.redraw(); } : null;
    row.appendChild(drawCard(card, { selected: ctx.ui.cards.has(card.id), onClick, label: `keep card ${card.id}` }));
  }
  box.appendChild(row);
  return box;
}

function button(text, cls, onClick, attrs = {}) {
  const b = htmlEl("button", "nj-button " + cls, { "data-focus-key": `${cls}:${text}`, ...attrs }, text);
  b.addEventListener("click", onClick);
  return b;
}

/** The buttons for the decision at hand, built from the legal descriptors. */
function actionsPanel(ctx, state, legal) {
  const box = htmlEl("div", "nj-actions");
  if (state.bot_to_act) box.appendChild(button("let the bot play", "nj-bot", () => ctx.send({ kind: "bot" })));
  if (!state.your_turn) return box;
  const types = new Set(legal.map((a) => a.type));
  if (state.phase === "CALL_OF_FATE") {
    const n = ctx.ui.cards.size;
    if (types.has("Commit") && legal.some((a) => a.type === "Commit" && a.cards.length === 0)) {
      box.appendChild(button("commit nothing (empty hand)", "nj-commit", () => ctx.send({ kind: "commit", cards: [] })));
    } else {
      box.appendChild(button(n ? `commit ${n} card${n === 1 ? "" : "s"}` : "select cards of one symbol to commit", "nj-commit", () => ctx.send({ kind: "commit", cards: [...ctx.ui.cards] }), n ? { "data-focus-key": "commit" } : { disabled: "", "data-focus-key": "commit" }));
    }
  }
  if (state.phase === "NEW_DEAL" && types.has("Keep")) {
    const n = ctx.ui.cards.size;
    box.appendChild(button(`keep ${n} selected`, "nj-keep-button", () => ctx.send({ kind: "keep", cards: [...ctx.ui.cards] }), n ? { "data-focus-key": "keep" } : { disabled: "", "data-focus-key": "keep" }));
  }
  if (types.has("DiscardTile")) box.appendChild(button("discard the tile (temple full)", "nj-discard-tile", () => ctx.send({ kind: "action", index: legal.find((a) => a.type === "DiscardTile").index })));
  for (const choice of legal.filter((a) => a.type === "SwapChoice")) {
    box.appendChild(button(choice.swap ? "swap the two relics" : "leave them", "nj-swap-choice", () => ctx.send({ kind: "action", index: choice.index })));
  }
  if (state.phase === "CONFRONTATION" || ctx.ui.amulet) box.appendChild(nagaPanel(ctx, legal));
  if (types.has("Pass")) box.appendChild(button("pass", "nj-pass", () => ctx.send({ kind: "pass" })));
  box.appendChild(allMoves(ctx, legal));
  return box;
}

/** Using a Naga: the stick (source), then the card, then the effect's parameters. */
function nagaPanel(ctx, legal) {
  const box = htmlEl("div", "nj-naga-panel");
  if (ctx.ui.amulet) {
    box.appendChild(htmlEl("div", "nj-label", {}, `amulet ${ctx.ui.amulet}: choose`));
    box.appendChild(optionPicker(ctx, legal.filter((x) => x.type === "UseAmulet" && x.amulet === ctx.ui.amulet), "use it"));
    return box;
  }
  const virtual = legal.some((a) => a.type === "UseNaga" && a.source === "VIRTUAL");
  if (virtual) box.appendChild(button("virtual Naga (amulet)", "nj-virtual" + (ctx.ui.source === "VIRTUAL" ? " nj-on" : ""), () => { ctx.ui.source = ctx.ui.source === "VIRTUAL" ? null : "VIRTUAL"; ctx.redraw(); }));
  if (!legal.some((a) => a.type === "UseNaga")) return box;
  const step = !ctx.ui.source ? "click one of your Naga sticks" : !ctx.ui.card ? "now click the card to activate" : "choose how";
  box.appendChild(htmlEl("div", "nj-hint", {}, `Use a Naga: ${step}`));
  if (ctx.ui.source && ctx.ui.card) {
    const options = legal.filter((a) => a.type === "UseNaga" && a.source === ctx.ui.source && a.card === ctx.ui.card);
    box.appendChild(optionPicker(ctx, options, "activate"));
  }
  return box;
}

/** The parameter choices of an effect: buttons when few, a list and a button when many. */
function optionPicker(ctx, options, fallback) {
  const box = htmlEl("span", "nj-options", { "data-count": options.length });
  if (options.length <= 8) {
    for (const a of options) box.appendChild(button(a.params_label || fallback, "nj-option", () => ctx.send({ kind: "action", index: a.index })));
    return box;
  }
  const select = htmlEl("select", "nj-option-select", { "aria-label": "choose the effect's target" });
  for (const a of options) select.appendChild(htmlEl("option", "", { value: a.index }, a.params_label || fallback));
  box.append(select, button("do it", "nj-option", () => ctx.send({ kind: "action", index: Number(select.value) })));
  return box;
}

/** Every legal move as a button, for keyboard users and for anything unusual. */
function allMoves(ctx, legal) {
  const details = htmlEl("details", "nj-all-moves");
  details.appendChild(htmlEl("summary", "", {}, `all legal moves (${legal.length})`));
  const list = htmlEl("div", "nj-all-list");
  for (const a of legal) list.appendChild(button(a.label, "nj-move", () => ctx.send({ kind: "action", index: a.index })));
  details.appendChild(list);
  return details;
}

function eventLog(ctx, state) {
  const box = htmlEl("div", "nj-events");
  box.appendChild(htmlEl("div", "nj-label", {}, "last events"));
  const list = htmlEl("ol", "nj-event-list");
  for (const line of state.events || []) list.appendChild(htmlEl("li", "", {}, line));
  box.appendChild(list);
  return box;
}

// ------------------------------------------------------------------ the page

/**
 * Python sends `state` and `legal` together (one `hold_sync`); `listen` turns them into one
 * redraw, and `redrawKeepingFocus` gives the keyboard focus back to the same control.
 * `ctx` carries the model, the choices the viewer is building (`ui`), `send` and `redraw`.
 */
export default {
  render({ model, el }) {
    const root = htmlEl("div", "gl-board nj-board");
    el.appendChild(root);
    const body = htmlEl("div", "nj-body");
    const message = htmlEl("div", "gl-message nj-message", { "aria-live": "polite" });
    const history = buildHistoryBar(model);
    root.append(body, message, history.bar);
    root.appendChild(buildPlaytestPanel(model));  // common.js: shown only while board.record(...) records
    const ctx = {
      model, root, body,
      ui: { cards: new Set(), rotation: 0, source: null, card: null, amulet: null },
      send: (pick) => sendPick(model, pick),
      redraw: () => redrawKeepingFocus(root, () => drawBoard(ctx)),
    };
    let shown = model.get("state");
    const onBoard = () => {
      if (model.get("state") !== shown) { shown = model.get("state"); resetChoices(ctx.ui); }
      ctx.redraw();
    };
    const stopBoard = listen(model, ["state", "legal", "analysis"], onBoard);
    const stopMessage = listen(model, ["message", "message_kind"], () => renderMessage(model, message));
    const stopHistory = listen(model, ["history"], () => history.update());
    ctx.redraw();
    renderMessage(model, message);
    return () => { stopBoard(); stopMessage(); stopHistory(); };
  },
};
