// The Pangu board: draws what Python sends in the `state` trait and reports clicks
// through `pick`. No rule is decided here: legality, costs, recoveries and hints all
// come from Python (see board.py for the JSON this file reads).

const CARD_W = 150;
const CARD_H = 100;
const GAP = 6;
const HALF_R = 13;          // radius of a half circle on a card edge
const MARGIN = 20;
const HEADER_H = 54;
const PANEL_W = 230;
const EDGE_NAMES = ["TOP", "RIGHT", "BOTTOM", "LEFT"];
// Inward normal of each edge, in card coordinates (y grows downwards).
const EDGE_NORMALS = { TOP: [0, 1], RIGHT: [-1, 0], BOTTOM: [0, -1], LEFT: [1, 0] };
const PIPS = {
  1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};
const DIE_LETTER = { BLUE: "B", WHITE: "W" };
const DIE_WORD = { BLUE: "blue", WHITE: "white" };

const cellKey = (cell) => `${cell[0]},${cell[1]}`;
const cellName = (cell) => `row ${cell[0]}, column ${cell[1]}`;
const actionKey = (card, die, cell, orientation) => `${card}|${die}|${cell[0]}|${cell[1]}|${orientation}`;

/** Where the board, the side panel and the hand sit, for a grid of rows x cols. */
function layout(state) {
  const boardW = state.cols * CARD_W + (state.cols - 1) * GAP;
  const boardH = state.rows * CARD_H + (state.rows - 1) * GAP;
  const board = { x: MARGIN, y: HEADER_H + 10, w: boardW, h: boardH };
  const panel = { x: board.x + boardW + 28, y: board.y, w: PANEL_W };
  const hand = { x: MARGIN, y: board.y + boardH + 38 };
  const width = panel.x + PANEL_W + MARGIN;
  const height = Math.max(hand.y + CARD_H + 52, panel.y + 400);
  return { board, panel, hand, width, height };
}

function cellOrigin(box, cell) {
  return [box.x + cell[1] * (CARD_W + GAP), box.y + cell[0] * (CARD_H + GAP)];
}

/** A half circle on `edge` of a card at (x, y), bulging into the card. */
function halfCircle(x, y, edge, colour, extraClass = "") {
  const [nx, ny] = EDGE_NORMALS[edge];
  const mid = {
    TOP: [x + CARD_W / 2, y], BOTTOM: [x + CARD_W / 2, y + CARD_H],
    LEFT: [x, y + CARD_H / 2], RIGHT: [x + CARD_W, y + CARD_H / 2],
  }[edge];
  const [tx, ty] = [ny, -nx];
  const start = [mid[0] - HALF_R * tx, mid[1] - HALF_R * ty];
  const end = [mid[0] + HALF_R * tx, mid[1] + HALF_R * ty];
  const d = `M ${start[0]} ${start[1]} A ${HALF_R} ${HALF_R} 0 0 0 ${end[0]} ${end[1]} Z`;
  return svgEl("path", {
    d, class: `pangu-half pangu-${colour.toLowerCase()} ${extraClass}`.trim(),
    "data-edge": edge, "data-colour": colour,
  });
}

/** The blue or white number of a card, in a box labelled B or W (colour-blind safe). */
function numberBox(x, y, die, value) {
  const group = svgEl("g", { class: `pangu-number pangu-number-${die.toLowerCase()}`, "data-die": die });
  group.appendChild(svgEl("rect", { x, y, width: 42, height: 38, rx: 6 }));
  group.appendChild(svgEl("text", { x: x + 6, y: y + 12, class: "pangu-number-letter" }, DIE_LETTER[die]));
  group.appendChild(svgEl("text", { x: x + 25, y: y + 30, class: "pangu-number-value" }, value));
  return group;
}

/** An Ages card face at (x, y): id, name, the two numbers and four half circles. */
function cardFace(card, x, y, extraClass = "") {
  const group = svgEl("g", {
    class: `pangu-card ${extraClass}`.trim(), "data-card": card.id,
    "data-blue": card.blue, "data-white": card.white,
  });
  group.appendChild(svgEl("rect", { x, y, width: CARD_W, height: CARD_H, rx: 8, class: "pangu-card-bg" }));
  group.appendChild(svgEl("text", { x: x + 8, y: y + 16, class: "pangu-card-id" }, card.id));
  group.appendChild(svgEl("text", { x: x + CARD_W / 2, y: y + 30, class: "pangu-card-name" }, card.name));
  group.appendChild(numberBox(x + 16, y + 40, "BLUE", card.blue));
  group.appendChild(numberBox(x + CARD_W - 58, y + 40, "WHITE", card.white));
  card.half.forEach((colour, i) => group.appendChild(halfCircle(x, y, EDGE_NAMES[i], colour)));
  if (card.orientation === 180) {
    group.appendChild(svgEl("text", { x: x + CARD_W - 8, y: y + 16, class: "pangu-card-turned" }, "↻180°"));
  }
  return group;
}

/** The two centre cards, with the Yin-Yang symbol drawn across their shared edge. */
function drawCentre(svg, box, centre) {
  for (const { cell, colour } of centre) {
    const [x, y] = cellOrigin(box, cell);
    const group = svgEl("g", { class: `pangu-centre pangu-centre-${colour.toLowerCase()}`, "data-colour": colour });
    group.appendChild(svgEl("rect", { x, y, width: CARD_W, height: CARD_H, rx: 8, class: "pangu-card-bg" }));
    for (const edge of EDGE_NAMES) group.appendChild(halfCircle(x, y, edge, colour, "pangu-centre-half"));
    // The label sits in the corner away from the Yin-Yang symbol, clear of the half circles.
    const outer = centre.find((c) => c !== centre.find((d) => d.colour === colour)) || centre[0];
    const awayLeft = cell[1] < outer.cell[1] || cell[0] < outer.cell[0];
    const labelX = awayLeft ? x + 10 : x + CARD_W - 22;
    const anchor = awayLeft ? "start" : "end";
    const below = !awayLeft && cell[1] === outer.cell[1];  // lower card of a 4x3 grid: label at the bottom
    const labelY = below ? y + CARD_H - 30 : y + 22;
    group.appendChild(svgEl("text", { x: labelX, y: labelY, class: "pangu-centre-label", "text-anchor": anchor },
      colour === "YIN" ? "Yin" : "Yang"));
    group.appendChild(svgEl("text", { x: labelX, y: labelY + 16, class: "pangu-centre-sub", "text-anchor": anchor },
      colour === "YIN" ? "● black" : "○ white"));
    group.appendChild(svgEl("title", {}, `${colour === "YIN" ? "Yin" : "Yang"} centre card: all its half circles are ${colour === "YIN" ? "black" : "white"}`));
    svg.appendChild(group);
  }
  if (centre.length === 2) svg.appendChild(taijitu(box, centre));
}

/** A Yin-Yang symbol centred where the two centre cards meet. */
function taijitu(box, centre) {
  const [a, b] = centre.map((c) => cellOrigin(box, c.cell));
  const horizontal = a[1] === b[1];
  const cx = (a[0] + b[0]) / 2 + CARD_W / 2;
  const cy = (a[1] + b[1]) / 2 + CARD_H / 2;
  const r = 40;
  // The black half faces the Yin card: rotate the symbol so it does.
  const yinFirst = centre[0].colour === "YIN";
  const angle = (horizontal ? 0 : 90) + (yinFirst ? 0 : 180);
  const group = svgEl("g", { class: "pangu-taijitu", transform: `rotate(${angle} ${cx} ${cy})`, "aria-hidden": "true" });
  group.appendChild(svgEl("circle", { cx, cy, r, class: "pangu-taijitu-yang" }));
  const d = `M ${cx} ${cy - r} A ${r} ${r} 0 0 0 ${cx} ${cy + r} A ${r / 2} ${r / 2} 0 0 0 ${cx} ${cy}`
          + ` A ${r / 2} ${r / 2} 0 0 1 ${cx} ${cy - r} Z`;
  group.appendChild(svgEl("path", { d, class: "pangu-taijitu-yin" }));
  group.appendChild(svgEl("circle", { cx, cy: cy - r / 2, r: r / 7, class: "pangu-taijitu-yin" }));
  group.appendChild(svgEl("circle", { cx, cy: cy + r / 2, r: r / 7, class: "pangu-taijitu-yang" }));
  group.appendChild(svgEl("circle", { cx, cy, r, class: "pangu-taijitu-outline" }));
  return group;
}

/** A ring of two matched half circles, drawn on the shared edge of two cells. */
function matchRing(box, cell, edge) {
  const [x, y] = cellOrigin(box, cell);
  const centres = {
    TOP: [x + CARD_W / 2, y - GAP / 2], BOTTOM: [x + CARD_W / 2, y + CARD_H + GAP / 2],
    LEFT: [x - GAP / 2, y + CARD_H / 2], RIGHT: [x + CARD_W + GAP / 2, y + CARD_H / 2],
  };
  const [cx, cy] = centres[edge];
  return svgEl("circle", { cx, cy, r: HALF_R + GAP / 2 + 3, class: "pangu-match", "data-cell": cellKey(cell), "data-edge": edge });
}

/** A die with pips, its letter, and what it would cost the selected card. */
function drawDie(x, y, die, value, info, selected) {
  const size = 62;
  const classes = ["pangu-die", `pangu-die-${die.toLowerCase()}`];
  if (selected) classes.push("pangu-die-selected");
  if (info && !info.legal) classes.push("pangu-die-illegal");
  const group = svgEl("g", { class: classes.join(" "), "data-die": die, "data-value": value });
  group.appendChild(svgEl("rect", { x, y, width: size, height: size, rx: 10, class: "pangu-die-body" }));
  for (const [px, py] of PIPS[value] || []) {
    group.appendChild(svgEl("circle", { cx: x + size / 2 + px * 17, cy: y + size / 2 + py * 17, r: 5.5, class: "pangu-pip" }));
  }
  group.appendChild(svgEl("text", { x: x + size / 2, y: y + size + 16, class: "pangu-die-label" },
    `${DIE_LETTER[die]} die: ${value}`));
  if (info) {
    const text = info.legal ? `pay ${info.cost}` : "✗ equal";
    group.appendChild(svgEl("text", { x: x + size / 2, y: y + size + 32, class: "pangu-die-cost" }, text));
  }
  return group;
}

/** The Karma track: one cube per point up to the starting value, filled while held. */
function drawKarma(svg, x, y, state, preview) {
  const total = state.starting_karma;
  const perRow = total <= 10 ? 5 : 10;
  const size = total <= 20 ? 26 : 14;
  const group = svgEl("g", { class: "pangu-karma", "data-karma": state.karma, "aria-label": `Karma ${state.karma} of ${total}` });
  group.appendChild(svgEl("text", { x, y, class: "pangu-panel-title" }, "Karma"));
  group.appendChild(svgEl("text", { x: x + PANEL_W - 24, y, class: "pangu-karma-value", "text-anchor": "end" },
    `${state.karma} / ${total}`));
  const after = preview ? preview.karma : state.karma;
  const paidDown = preview ? Math.max(state.karma - preview.cost, 0) : state.karma;
  for (let i = 0; i < total; i++) {
    const cx = x + (i % perRow) * (size + 6);
    const cy = y + 12 + Math.floor(i / perRow) * (size + 6);
    let kind = i < state.karma ? "held" : "empty";
    if (preview) {
      if (i < Math.min(after, paidDown)) kind = "held";
      else if (i < state.karma && i >= after) kind = "lose";
      else if (i >= paidDown && i < after) kind = i < state.karma ? "held" : "gain";
    }
    group.appendChild(svgEl("rect", { x: cx, y: cy, width: size, height: size, rx: 4, class: `pangu-cube pangu-cube-${kind}` }));
  }
  svg.appendChild(group);
  return y + 12 + Math.ceil(total / perRow) * (size + 6);
}

/** A face-down pile with the number of cards left. */
function drawDeck(svg, x, y, count) {
  const group = svgEl("g", { class: "pangu-deck", "data-count": count });
  const shown = Math.min(count, 4);
  for (let i = shown - 1; i >= 0; i--) {
    group.appendChild(svgEl("rect", { x: x + i * 4, y: y + 12 - i * 4, width: 66, height: 44, rx: 5, class: "pangu-card-back" }));
  }
  if (count === 0) group.appendChild(svgEl("rect", { x, y: y + 12, width: 66, height: 44, rx: 5, class: "pangu-deck-empty" }));
  group.appendChild(svgEl("text", { x: x + 86, y: y + 40, class: "pangu-deck-count" },
    `${count} card${count === 1 ? "" : "s"} in the deck`));
  svg.appendChild(group);
}

/** The evaluation bar: the chance of winning (or the lookahead's expected Karma) of the position. */
function buildEvalBar(model) {
  const box = htmlEl("div", "pangu-eval");
  const head = htmlEl("div", "pangu-eval-head");
  const label = htmlEl("span", "pangu-eval-label");
  const modes = htmlEl("span", "pangu-eval-mode", { role: "radiogroup", "aria-label": "What the evaluation shows" });
  const inputs = {};
  for (const [mode, text] of [["chance", "chance of winning (exact)"], ["karma", "expected Karma (lookahead)"]]) {
    const option = htmlEl("label", "pangu-eval-option");
    const input = htmlEl("input", "", { type: "radio", name: "pangu-eval-" + Math.random().toString(36).slice(2), value: mode });
    input.addEventListener("change", () => { if (input.checked) sendPick(model, { kind: "eval_mode", mode }); });
    option.append(input, document.createTextNode(" " + text));
    inputs[mode] = input;
    modes.appendChild(option);
  }
  head.append(label, modes);
  const track = htmlEl("div", "pangu-eval-track", { role: "meter", "aria-valuemin": "0", "aria-valuemax": "100" });
  const fill = htmlEl("div", "pangu-eval-fill");
  track.appendChild(fill);
  const note = htmlEl("div", "pangu-eval-note");
  const cost = htmlEl("div", "pangu-move-cost", { "aria-live": "polite" });
  box.append(head, track, note, cost);
  const update = (state) => {
    const ev = state.evaluation;
    box.hidden = !ev;
    if (!ev) return;
    inputs.chance.checked = ev.mode === "chance";
    inputs.karma.checked = ev.mode === "karma";
    box.dataset.mode = ev.mode;
    box.dataset.exact = ev.exact ? "yes" : "no";
    const showChance = ev.mode === "chance" && ev.exact;
    let share = 0;
    if (showChance) {
      share = ev.win;
      label.textContent = `Chance of winning: ${ev.win_text}` + (ev.win_fraction.includes("/") ? ` (${ev.win_fraction})` : "");
      box.dataset.win = ev.win_text;
    } else {
      const karma = ev.karma_best_text;
      share = karma === undefined ? (state.status === "WON" ? 1 : 0) : Number(karma) / state.starting_karma;
      label.textContent = karma === undefined ? (state.status === "WON" ? "Won" : "Lost")
        : `Lookahead: expected Karma ${karma} of ${state.starting_karma} at the end of the turn`;
      delete box.dataset.win;
    }
    fill.style.width = `${Math.max(0, Math.min(1, share)) * 100}%`;
    track.setAttribute("aria-valuenow", String(Math.round(share * 100)));
    track.setAttribute("aria-label", label.textContent);
    note.textContent = ev.mode === "chance" && !ev.exact ? `${ev.note}: showing the lookahead's expected Karma instead` : "";
    cost.textContent = ev.last_move ? `Last move: ${ev.last_move}` : "";
  };
  return { box, update };
}

/** Every move of the game with its cost; a click shows the position before that move was played. */
function buildMoveList(model) {
  const box = htmlEl("details", "pangu-moves");
  box.open = true;
  box.appendChild(htmlEl("summary", "", {}, "Moves and what each cost"));
  const list = htmlEl("ol", "pangu-move-list");
  box.appendChild(list);
  const update = (state) => {
    const moves = (state.evaluation && state.evaluation.moves) || [];
    box.hidden = !moves.length;
    list.replaceChildren(...moves.map((move) => {
      const item = htmlEl("li", "pangu-move" + (move.current ? " pangu-move-current" : ""));
      item.dataset.index = move.index;
      if (move.cost !== null) item.dataset.cost = move.cost;
      item.classList.add(move.cost === null ? "pangu-move-unjudged" : move.cost > 0 ? "pangu-move-loss" : "pangu-move-best");
      const button = htmlEl("button", "pangu-move-jump", { type: "button", title: "Show the position before this move" }, "▸");
      button.addEventListener("click", () => sendPick(model, { kind: "jump", to: move.index - 1 }));
      item.append(button, document.createTextNode(" " + move.text));
      return item;
    }));
  };
  return { box, update };
}

/** Paragraphs of narration text: blank lines split paragraphs, **bold** is bold; no HTML is read. */
function narrationParagraphs(text) {
  return (text || "").split(/\n\s*\n/).filter((p) => p.trim()).map((paragraph) => {
    const node = htmlEl("p", "pangu-narration-paragraph");
    paragraph.split(/(\*\*[^*]+\*\*)/).forEach((part) => {
      if (part.startsWith("**") && part.endsWith("**") && part.length > 4) node.appendChild(htmlEl("strong", "", {}, part.slice(2, -2)));
      else if (part) node.appendChild(document.createTextNode(part));
    });
    return node;
  });
}

const OPTION_COLUMNS = [["card", "card"], ["die", "die"], ["cell", "cell"], ["cost", "cost"], ["recovery", "recovery"],
  ["kept", "kept"], ["end_karma", "expected Karma at turn end"], ["chance", "chance of winning"], ["loss", "cost in chance"]];

/** The narrated guided game: the step's text, the prediction prompt, and the table of every option. */
function buildNarration(model) {
  const box = htmlEl("section", "pangu-narration", { "aria-live": "polite" });
  const options = htmlEl("details", "pangu-options");
  options.open = true;
  const send = (pick) => () => sendPick(model, pick);
  const update = (state) => {
    const n = state.narration;
    box.hidden = options.hidden = !n;
    if (!n) return;
    box.dataset.step = n.step;
    box.dataset.onLine = n.on_line ? "yes" : "no";
    box.dataset.awaiting = n.awaiting ? "yes" : "no";
    const nodes = [];
    const head = htmlEl("div", "pangu-narration-head");
    const where = n.on_line ? `Step ${n.step + 1} of ${n.steps + 1}` : `Move ${n.step} of your own line`;
    head.append(htmlEl("span", "pangu-narration-where", {}, where), htmlEl("span", "pangu-narration-title", {}, n.title || ""));
    const nav = htmlEl("span", "pangu-narration-nav");
    const back = htmlEl("button", "pangu-narration-back", { type: "button" }, "◀ back");
    const next = htmlEl("button", "pangu-narration-next", { type: "button" }, "next ▶");
    const h = model.get("history") || {};
    back.disabled = !h.can_back;
    next.disabled = !h.can_forward;
    back.addEventListener("click", send({ kind: "history", to: "back" }));
    next.addEventListener("click", send({ kind: "history", to: "forward" }));
    nav.append(back, next);
    head.appendChild(nav);
    nodes.push(head);
    if (n.predict) {
      const ask = htmlEl("div", "pangu-narration-predict");
      ask.append(htmlEl("strong", "", {}, "Predict first: "), document.createTextNode(n.predict));
      if (n.awaiting) {
        ask.appendChild(htmlEl("div", "pangu-narration-how", {}, "Pick a card and click the cell you would choose (nothing is played), or"));
        const reveal = htmlEl("button", "pangu-reveal", { type: "button" }, "show the answer");
        reveal.addEventListener("click", send({ kind: "reveal" }));
        ask.appendChild(reveal);
      }
      nodes.push(ask);
    }
    if (n.move) nodes.push(htmlEl("div", "pangu-narration-move", {}, n.move));
    if (n.prediction) {
      const judged = htmlEl("div", "pangu-narration-judgement", {}, n.prediction + " ");
      if (n.can_play_prediction) {
        const play = htmlEl("button", "pangu-play-prediction", { type: "button" }, "play my move instead");
        play.addEventListener("click", send({ kind: "play_prediction" }));
        judged.appendChild(play);
      }
      nodes.push(judged);
    }
    nodes.push(...narrationParagraphs(n.text));
    if (n.commentary && n.commentary.length) {
      const list = htmlEl("ul", "pangu-commentary");
      list.replaceChildren(...n.commentary.map((line) => htmlEl("li", "", {}, line)));
      nodes.push(list);
    }
    if (!n.on_line) {
      const rejoin = htmlEl("button", "pangu-rejoin", { type: "button" }, `back to the guided game (move ${n.left_at + 1})`);
      rejoin.addEventListener("click", send({ kind: "rejoin" }));
      nodes.push(rejoin);
    }
    box.replaceChildren(...nodes);

    options.hidden = !(n.table && n.table.length);
    const table = htmlEl("table", "pangu-option-table");
    const headRow = htmlEl("tr");
    headRow.append(...OPTION_COLUMNS.map(([, title]) => htmlEl("th", "", { scope: "col" }, title)), htmlEl("th", "", { scope: "col" }, ""));
    const body = htmlEl("tbody");
    for (const row of n.table || []) {
      const tr = htmlEl("tr", "pangu-option" + (row.best ? " pangu-option-best" : "") + row.marks.map((m) => " pangu-option-" + m).join(""));
      tr.append(...OPTION_COLUMNS.map(([key]) => htmlEl("td", "pangu-col-" + key, {}, row[key])));
      const labels = [row.best ? "★ best" : "", ...row.marks.map((m) => (m === "guided" ? "guided line" : "your prediction"))];
      tr.appendChild(htmlEl("td", "pangu-col-marks", {}, labels.filter(Boolean).join(", ")));
      body.appendChild(tr);
    }
    const thead = htmlEl("thead");
    thead.appendChild(headRow);
    table.append(thead, body);
    const summary = htmlEl("summary", "", {}, `Every option here (${(n.table || []).length}): cost, recovery, expected Karma, chance of winning`
      + (n.exact ? "" : ` (${n.note})`));
    const scroller = htmlEl("div", "pangu-option-scroll");
    scroller.appendChild(table);
    options.replaceChildren(summary, scroller);
  };
  return { box, options, update };
}

function render({ model, el }) {
  const root = htmlEl("div", "gl-board pangu-board");
  const evalBar = buildEvalBar(model);
  const moveList = buildMoveList(model);
  const narration = buildNarration(model);
  const svg = svgEl("svg", { class: "pangu-svg", role: "group", "aria-label": "Pangu board" });
  const event = htmlEl("div", "pangu-event", { "aria-live": "polite" });
  const message = htmlEl("div", "gl-message");
  const controls = htmlEl("div", "pangu-controls");
  const history = buildHistoryBar(model);
  const hintLabel = htmlEl("label", "pangu-hint-toggle");
  const hintBox = htmlEl("input", "", { type: "checkbox" });
  hintLabel.append(hintBox, document.createTextNode(" show the evaluation (chance of winning, best move)"));
  hintBox.addEventListener("change", () => sendPick(model, { kind: "hints", on: hintBox.checked }));
  const rotate = htmlEl("button", "pangu-rotate", { type: "button" }, "↻ turn card 180°");
  rotate.addEventListener("click", () => sendPick(model, { kind: "rotate" }));
  const hintList = htmlEl("ol", "pangu-hint-list");
  controls.append(history.bar, rotate, hintLabel);
  root.append(narration.box, evalBar.box, svg, event, message, controls, narration.options, hintList, moveList.box);
  root.appendChild(buildPlaytestPanel(model));  // common.js: shown only while board.record(...) records
  el.appendChild(root);

  let hovered = null;  // key of the legal action under the pointer or focus (this view only)

  const draw = () => {
    const state = model.get("state") || {};
    if (!state.rows) { svg.replaceChildren(); return; }
    const legal = model.get("legal") || [];
    const byKey = Object.fromEntries(legal.map((a) => [a.key, a]));
    const sel = state.selection || {};
    const L = layout(state);
    svg.setAttribute("viewBox", `0 0 ${L.width} ${L.height}`);
    svg.setAttribute("width", L.width);
    svg.replaceChildren();
    root.dataset.board = model.get("label") || "";
    root.dataset.status = state.status;
    root.dataset.karma = state.karma;

    // Header: turn and outcome on the first line, the rules in force under it.
    svg.appendChild(svgEl("text", { x: MARGIN, y: 26, class: "pangu-title" }, `Pangu · turn ${state.turn}`));
    const outcome = state.status === "WON" ? `Won with Karma ${state.karma}!`
      : state.status === "LOST" ? `Lost: Karma fell to ${state.karma}.` : "";
    svg.appendChild(svgEl("text", { x: L.width - MARGIN, y: 26, "text-anchor": "end",
      class: `pangu-status pangu-status-${state.status.toLowerCase()}`, "data-status": state.status }, outcome));
    const variant = Object.entries(state.rules_changed || {}).map(([k, v]) => `${k} = ${v}`).join(", ");
    svg.appendChild(svgEl("text", { x: MARGIN, y: 46, class: "pangu-rules" }, variant ? `Variant: ${variant}` : "Default rules"));

    // The grid: empty ring cells, centre, placed cards, matches.
    const legalCells = new Set((state.legal_cells || []).map(cellKey));
    for (const cell of state.empty) {
      const [x, y] = cellOrigin(L.board, cell);
      const key = cellKey(cell);
      const isLegal = legalCells.has(key) && state.status === "ONGOING";
      const action = sel.card && sel.die ? byKey[actionKey(sel.card, sel.die, cell, sel.orientation || 0)] : null;
      const group = svgEl("g", { class: "pangu-cell" + (isLegal ? " pangu-cell-legal" : ""), "data-cell": key, "data-key": "cell:" + key, "data-focus-key": "cell:" + key });
      group.appendChild(svgEl("rect", { x, y, width: CARD_W, height: CARD_H, rx: 8,
        class: "pangu-slot" + (isLegal && sel.card ? " gl-legal" : "") }));
      group.appendChild(svgEl("text", { x: x + CARD_W / 2, y: y + CARD_H / 2 + 4, class: "pangu-slot-label" }, `(${cell[0]},${cell[1]})`));
      if (action) {
        group.appendChild(svgEl("text", { x: x + CARD_W / 2, y: y + 24, class: "pangu-slot-preview" },
          `pay ${action.cost}, recover ${action.gain}`));
        const chance = state.eval_mode === "chance" && action.win_text !== undefined;
        if (chance || (action.hint !== undefined && action.hint !== null)) {
          const best = state.best_action === action.key;
          group.appendChild(svgEl("text", { x: x + CARD_W / 2, y: y + CARD_H - 14, class: "pangu-slot-hint" + (best ? " pangu-slot-best" : ""),
            "data-hint": action.hint, "data-win": chance ? action.win_text : null },
            `${best ? "★ " : ""}${chance ? "win " + action.win_text : "expected Karma " + action.hint_text}`));
        }
      }
      if (state.status === "ONGOING") {
        const label = action
          ? `Place ${sel.card} at ${cellName(cell)}: pay ${action.cost}, recover ${action.gain}, Karma becomes ${action.karma}`
          : `${isLegal ? "Empty cell" : "Cell (not adjacent yet)"} at ${cellName(cell)}`;
        makeClickable(group, label, () => sendPick(model, { kind: "cell", cell }));
        const enter = () => { hovered = action ? action.key : null; drawPreview(); };
        const leave = () => { hovered = null; drawPreview(); };
        group.addEventListener("mouseenter", enter);
        group.addEventListener("focus", enter);
        group.addEventListener("mouseleave", leave);
        group.addEventListener("blur", leave);
      }
      svg.appendChild(group);
    }
    drawCentre(svg, L.board, state.centre);
    for (const placed of state.placed) {
      const [x, y] = cellOrigin(L.board, placed.cell);
      const face = cardFace(placed, x, y, "pangu-placed" + (placed.last ? " pangu-last" : ""));
      face.dataset.cell = cellKey(placed.cell);
      makeClickable(face, `${placed.id} ${placed.name} at ${cellName(placed.cell)}: blue ${placed.blue}, white ${placed.white} (occupied)`,
        () => sendPick(model, { kind: "cell", cell: placed.cell }));
      face.dataset.key = face.dataset.focusKey = "cell:" + cellKey(placed.cell);
      svg.appendChild(face);
    }
    for (const m of state.matches || []) svg.appendChild(matchRing(L.board, m.cell, m.edge));

    // The hand: the revealed cards of this turn.
    svg.appendChild(svgEl("text", { x: L.hand.x, y: L.hand.y - 12, class: "pangu-panel-title" },
      !state.revealed.length ? "No revealed cards"
        : state.status === "ONGOING" ? "Revealed cards: place every one this turn" : "Revealed cards, never placed"));
    state.revealed.forEach((card, i) => {
      const x = L.hand.x + i * (CARD_W + 22);
      const selected = sel.card === card.id;
      const y = L.hand.y - (selected ? 6 : 0);
      const shown = selected && sel.orientation === 180 ? { ...card, half: card.half_turned, orientation: 180 } : card;
      const face = cardFace(shown, x, y, "pangu-revealed" + (selected ? " pangu-selected" : "") + (card.blocked ? " pangu-blocked" : ""));
      face.dataset.key = face.dataset.focusKey = "card:" + card.id;
      const dieText = ["BLUE", "WHITE"].map((d) => {
        const info = card.dice[d];
        return `${DIE_LETTER[d]}: ${info.legal ? "pay " + info.cost : "✗"}`;
      }).join("   ");
      face.appendChild(svgEl("text", { x: x + CARD_W / 2, y: L.hand.y + CARD_H + 18, class: "pangu-hand-cost" },
        card.blocked ? "blocked by this roll" : dieText));
      const ev = state.evaluation;
      const cardValue = ev && (ev.mode === "chance" && ev.exact ? ev.card_win[card.id] : ev.card_karma[card.id]);
      if (cardValue !== undefined && state.status === "ONGOING") {
        face.appendChild(svgEl("text", { x: x + CARD_W / 2, y: L.hand.y + CARD_H + 34, class: "pangu-card-eval", "data-value": cardValue },
          ev.mode === "chance" && ev.exact ? `best ${cardValue}` : `best E[Karma] ${cardValue}`));
      }
      if (state.best_card === card.id) {
        face.appendChild(svgEl("text", { x: x + CARD_W - 10, y: y + CARD_H - 8, class: "pangu-slot-best pangu-best-card", "text-anchor": "end" }, "★"));
      }
      if (state.status === "ONGOING") {
        makeClickable(face, `Revealed card ${card.id} ${card.name}: blue ${card.blue}, white ${card.white}. ${dieText}${selected ? " (selected)" : ""}`,
          () => sendPick(model, { kind: "card", card: card.id }));
      }
      svg.appendChild(face);
    });

    // The side panel: dice, Karma, deck.
    const P = L.panel;
    svg.appendChild(svgEl("text", { x: P.x, y: P.y + 10, class: "pangu-panel-title" }, "Dice"));
    const selCard = state.revealed.find((c) => c.id === sel.card);
    if (state.dice) {
      ["BLUE", "WHITE"].forEach((die, i) => {
        const info = selCard ? selCard.dice[die] : null;
        const node = drawDie(P.x + i * 92, P.y + 22, die, state.dice[die], info, sel.die === die);
        node.dataset.key = node.dataset.focusKey = "die:" + die;
        if (state.status === "ONGOING") {
          const what = info ? (info.legal ? `costs ${info.cost}` : `equals the card's ${DIE_WORD[die]} number`) : "";
          makeClickable(node, `Use the ${DIE_WORD[die]} die, showing ${state.dice[die]}${what ? ": " + what : ""}`,
            () => sendPick(model, { kind: "die", die }));
        }
        svg.appendChild(node);
      });
    }
    const karmaTop = P.y + 150;
    const karmaBottom = drawKarma(svg, P.x, karmaTop, state, null);
    drawDeck(svg, P.x, karmaBottom + 14, state.deck_count);

    const drawPreview = () => {
      const old = svg.querySelector(".pangu-karma");
      const action = hovered ? byKey[hovered] : null;
      if (old) old.remove();
      drawKarma(svg, P.x, karmaTop, state, action);
    };
    drawPreview();

    event.textContent = state.last_event || "";
    rotate.hidden = !(state.allow_rotation && sel.card && state.status === "ONGOING");
    hintBox.checked = !!state.hints_on;
    hintList.replaceChildren(...(state.hint_list || []).map((line) => htmlEl("li", "", {}, line)));
    hintList.hidden = !(state.hint_list || []).length;
    evalBar.update(state);
    moveList.update(state);
    narration.update(state);
  };

  const onMessage = () => renderMessage(model, message);
  // One redraw per update however many traits it changed (Python sends them together), keeping
  // keyboard focus on the element with the same data-focus-key.
  const stops = [
    listen(model, ["state", "legal", "label"], () => redrawKeepingFocus(root, draw)),
    listen(model, ["message", "message_kind"], onMessage),
    listen(model, ["history"], () => { history.update(); narration.update(model.get("state") || {}); }),
  ];
  draw();
  onMessage();
  return () => stops.forEach((stop) => stop());
}

export default { render };
