// The Chakra board: the Lotus board (plenitude tokens, Maya river) and every player's board.
// It only draws the JSON Python sends (`state`) and reports clicks through `pick`; the rules,
// the partly chosen action and every highlight come from Python.

const ENERGY = {
  K: { name: "black", fill: "#1d1d1f", ink: "#ffffff" },
  R: { name: "red", fill: "#d62828", ink: "#ffffff" },
  O: { name: "orange", fill: "#f28c1b", ink: "#1d1d1f" },
  Y: { name: "yellow", fill: "#f6d32d", ink: "#1d1d1f" },
  G: { name: "green", fill: "#2f9e44", ink: "#1d1d1f" },  // dark ink: white on this green is 3.5:1, below AA
  L: { name: "light blue", fill: "#4dabf7", ink: "#1d1d1f" },
  D: { name: "dark blue", fill: "#283f94", ink: "#ffffff" },
  P: { name: "purple", fill: "#8033a8", ink: "#ffffff" },
};
const LEVEL_LETTER = { RED: "R", ORANGE: "O", YELLOW: "Y", GREEN: "G", LIGHT_BLUE: "L", DARK_BLUE: "D", PURPLE: "P" };
const CHAKRA_ORDER = ["PURPLE", "DARK_BLUE", "LIGHT_BLUE", "GREEN", "YELLOW", "ORANGE", "RED"];
const SPACE_GLYPH = {
  D3: "↓3", D1x3: "↓1 ↓1 ↓1", D2_D1: "↓2 ↓1", U2: "↑2",
  U1x2: "↑1 ↑1", D1_U1: "↓1 ↑1", U1_or_D1: "↑1 or ↓1", SWAP: "K ⇄ bag",
};

function words(name) { return name.toLowerCase().replace("_", " "); }

/** One energy crystal: a coloured disc carrying its letter (colour-blind safe). */
function energy(letter, x, y, r, extraClass = "") {
  const look = ENERGY[letter];
  const g = svgEl("g", { class: `ck-energy ${extraClass}`.trim(), "data-colour": letter,
                          transform: `translate(${x},${y})` });
  g.appendChild(svgEl("circle", { r, fill: look.fill, class: "ck-energy-disc" }));
  g.appendChild(svgEl("ellipse", { cx: -r * 0.3, cy: -r * 0.38, rx: r * 0.42, ry: r * 0.24,
                                   fill: "#ffffff", opacity: 0.28, "pointer-events": "none" }));
  g.appendChild(svgEl("text", { class: "ck-letter", "text-anchor": "middle", "dominant-baseline": "central",
                                "font-size": r * 1.05, fill: look.ink }, letter));
  return g;
}

/** A click target with its test handles; `key` lets keyboard focus survive a redraw. */
function clickable(node, key, label, model, pick) {
  node.setAttribute("data-focus-key", key);
  return makeClickable(node, label, () => sendPick(model, pick));
}

// ------------------------------------------------------------------ Lotus board

function drawLotus(s, model, canPlay) {
  const svg = svgEl("svg", { viewBox: "0 0 380 360", class: "ck-lotus", role: "group",
                             "aria-label": "Lotus board: plenitude tokens and the Maya river" });
  svg.appendChild(svgEl("rect", { x: 2, y: 2, width: 376, height: 356, rx: 18, class: "ck-lotus-bg" }));
  // Seven petals, RED on the left to PURPLE on the right, each carrying its Karma space.
  const cx = 190, cy = 168;
  s.plenitude.forEach((token, i) => {
    const angle = Math.PI + (i + 0.5) * (Math.PI / 7);
    const px = cx + 78 * Math.cos(angle), py = cy + 78 * Math.sin(angle);
    const tx = cx + 122 * Math.cos(angle), ty = cy + 122 * Math.sin(angle);
    const deg = (angle * 180) / Math.PI + 90;
    const look = ENERGY[token.letter];
    svg.appendChild(svgEl("ellipse", { cx: px, cy: py, rx: 22, ry: 66, fill: look.fill, opacity: 0.22,
                                       stroke: look.fill, "stroke-width": 1.5,
                                       transform: `rotate(${deg} ${px} ${py})` }));
    const known = token.value !== null && token.value !== undefined;
    const g = svgEl("g", { class: "ck-plenitude" + (known ? " ck-known" : " ck-hidden"),
                           "data-colour": token.colour, "data-value": known ? token.value : "?",
                           transform: `translate(${tx},${ty})` });
    g.appendChild(svgEl("circle", { r: 19, class: "ck-karma", stroke: look.fill }));
    g.appendChild(svgEl("rect", { x: -14, y: -14, width: 28, height: 28, rx: 6,
                                  class: known ? "ck-token-face" : "ck-token-back" }));
    g.appendChild(svgEl("text", { class: "ck-token-value", "text-anchor": "middle", "dominant-baseline": "central" },
                        known ? token.value : "?"));
    g.appendChild(svgEl("text", { class: "ck-token-letter", y: 27, "text-anchor": "middle" }, token.letter));
    g.appendChild(svgEl("title", {}, `${words(token.colour)} chakra: ` +
                        (known ? `worth ${token.value}` : "plenitude token face down")));
    svg.appendChild(g);
  });
  svg.appendChild(svgEl("text", { x: cx, y: cy - 8, class: "ck-title", "text-anchor": "middle" }, "Lotus"));
  svg.appendChild(svgEl("text", { x: cx, y: cy + 8, class: "ck-small", "text-anchor": "middle" },
                        s.unused === null || s.unused === undefined ? "unused token hidden" : `unused token: ${s.unused}`));
  // The Maya river: three columns of three energies.
  const hints = s.hints || {}, sel = s.selection || {};
  s.maya.forEach((column, c) => {
    const x = 110 + c * 80;
    const col = svgEl("g", { class: "ck-maya-column", "data-column": c, "data-contents": column.join(" ") });
    col.appendChild(svgEl("rect", { x: x - 30, y: 190, width: 60, height: 140, rx: 26, class: "ck-river" }));
    col.appendChild(svgEl("text", { x, y: 346, class: "ck-small", "text-anchor": "middle" }, `Maya ${c}`));
    const chosen = sel.mode === "receive" && sel.column === c ? [...sel.colours] : [];
    column.forEach((letter, slot) => {
      const y = 216 + slot * 44;
      const picked = chosen.indexOf(letter);
      if (picked >= 0) chosen.splice(picked, 1);
      const pickable = (hints.maya || [])[c] && hints.maya[c].includes(letter);
      const node = energy(letter, x, y, 17, "ck-maya-energy" + (picked >= 0 ? " ck-selected" : "") +
                          (pickable ? " ck-pickable" : ""));
      node.dataset.column = c;
      node.dataset.slot = slot;
      if (canPlay) {
        clickable(node, `maya-${c}-${slot}`, `Maya column ${c}: ${ENERGY[letter].name} energy` +
                  (picked >= 0 ? " (picked)" : ""), model, { kind: "maya", column: c, colour: letter });
      }
      col.appendChild(node);
    });
    for (let slot = column.length; slot < 3; slot++) {
      col.appendChild(svgEl("circle", { cx: x, cy: 216 + slot * 44, r: 15, class: "ck-empty-slot" }));
    }
    svg.appendChild(col);
  });
  svg.appendChild(svgEl("text", { x: 372, y: 350, class: "ck-small ck-bag", "text-anchor": "end",
                                  "data-total": s.bag_total }, `bag ${s.bag_total}`));
  return svg;
}

// ------------------------------------------------------------------ a player's board

function drawPlayer(s, p, model, canPlay) {
  const isActive = s.phase === "play" && p.seat === s.to_move;
  const hints = isActive ? s.hints || {} : {};
  const sel = isActive ? s.selection || {} : {};
  const targets = new Set([...(hints.destinations || []), ...(hints.targets || [])]);
  const movable = new Set((hints.steps || []).map((step) => `${step.level}:${step.colour}`));
  const interactive = canPlay;
  const svg = svgEl("svg", { viewBox: "0 0 320 452", class: "ck-player-svg", role: "group",
                             "aria-label": `${s.names[p.seat]}'s board` });

  const rowY = (level) => (level === "BHAGYA" ? 10 : 58 + CHAKRA_ORDER.indexOf(level) * 44);
  const drawSlots = (level, contents, y, bubble) => {
    const row = svgEl("g", { class: "ck-level" + (bubble ? " ck-bhagya" : " ck-chakra"), "data-level": level,
                             "data-contents": contents.join(" "), "data-seat": p.seat });
    const harmonized = p.harmonized.includes(level);
    if (harmonized) row.classList.add("ck-harmonized");
    if (targets.has(level)) row.classList.add("ck-target");
    const look = bubble ? null : ENERGY[LEVEL_LETTER[level]];
    row.appendChild(svgEl("rect", {
      x: 6, y, width: 190, height: 38, rx: bubble ? 19 : 8, class: "ck-row-bg",
      fill: bubble ? "#fff8e1" : look.fill, "fill-opacity": bubble ? 1 : harmonized ? 0.45 : 0.16,
      stroke: bubble ? "#d9b44a" : look.fill,
    }));
    row.appendChild(svgEl("text", { x: 16, y: y + 23, class: "ck-row-label" },
                          bubble ? "Bhagya" : LEVEL_LETTER[level]));
    for (let i = 0; i < 3; i++) {
      const x = 92 + i * 36;
      row.appendChild(svgEl("circle", { cx: x, cy: y + 19, r: 15, class: bubble ? "ck-bubble" : "ck-empty-slot" }));
      if (i < contents.length) {
        const letter = contents[i];
        const moved = (p.moved || []).some((m) => m.to === level && m.colour === letter);
        const node = energy(letter, x, y + 19, 14, "ck-board-energy" + (moved ? " ck-moved" : "") +
                            (movable.has(`${level}:${letter}`) ? " ck-movable" : "") +
                            (sel.energy && sel.energy.level === level && sel.energy.colour === letter ? " ck-selected" : ""));
        node.dataset.level = level;
        if (interactive && !harmonized) {
          const pick = sel.mode === "channel" ? { kind: "energy", seat: p.seat, level, colour: letter }
                                              : { kind: "level", seat: p.seat, level };
          clickable(node, `energy-${p.seat}-${level}-${i}`,
                    `${ENERGY[letter].name} energy on ${bubble ? "the Bhagya" : "the " + words(level) + " chakra"}`,
                    model, pick);
        }
        row.appendChild(node);
      }
    }
    if (harmonized) {
      row.appendChild(svgEl("text", { x: 42, y: y + 24, class: "ck-harmonized-mark", "text-anchor": "middle" }, "✔"));
    }
    if (!bubble) {  // the notch beside the chakra
      const notch = svgEl("g", { class: "ck-notch", "data-level": level,
                                 "data-token": p.notches.includes(level) ? "1" : "0" });
      notch.appendChild(svgEl("rect", { x: 200, y: y + 9, width: 18, height: 20, rx: 3, class: "ck-notch-slot" }));
      if (p.notches.includes(level)) notch.appendChild(svgEl("circle", { cx: 209, cy: y + 19, r: 7, class: "ck-token" }));
      row.appendChild(notch);
    }
    if (interactive) {
      clickable(row, `level-${p.seat}-${level}`,
                `${bubble ? "The Bhagya" : "The " + words(level) + " chakra"}: ${contents.length} of 3` +
                (targets.has(level) ? " (a legal destination)" : ""),
                model, { kind: "level", seat: p.seat, level });
    }
    return row;
  };

  svg.appendChild(drawSlots("BHAGYA", p.levels.BHAGYA, rowY("BHAGYA"), true));
  for (const level of CHAKRA_ORDER) svg.appendChild(drawSlots(level, p.levels[level], rowY(level), false));

  // The Earth, with the alleviated blacks.
  const earth = svgEl("g", { class: "ck-earth", "data-earth": p.earth, "data-level": "EARTH" });
  earth.appendChild(svgEl("rect", { x: 6, y: 368, width: 212, height: 34, rx: 8, class: "ck-earth-bg" }));
  earth.appendChild(svgEl("text", { x: 16, y: 390, class: "ck-row-label ck-earth-label" }, "Earth"));
  const shown = Math.min(p.earth, 6);
  for (let i = 0; i < shown; i++) earth.appendChild(energy("K", 80 + i * 20, 385, 9, "ck-alleviated"));
  if (p.earth > shown || p.earth === 0) {
    earth.appendChild(svgEl("text", { x: 206, y: 390, class: "ck-small ck-earth-count", "text-anchor": "end" },
                            p.earth === 0 ? "no black yet" : `×${p.earth}`));
  }
  svg.appendChild(earth);

  // The eight channel spaces.
  s.spaces.forEach((space, i) => {
    const y = 10 + i * 44;
    const occupied = p.spaces.includes(space.id);
    const g = svgEl("g", { class: "ck-space" + (occupied ? " ck-occupied" : "") +
                             ((hints.spaces || []).includes(space.id) ? " ck-legal" : "") +
                             (sel.mode === "channel" && sel.space === space.id ? " ck-selected" : ""),
                           "data-space": space.id, "data-seat": p.seat });
    g.appendChild(svgEl("rect", { x: 232, y, width: 84, height: 38, rx: 7, class: "ck-space-bg" }));
    g.appendChild(svgEl("text", { x: 274, y: y + 17, class: "ck-space-glyph", "text-anchor": "middle" },
                        SPACE_GLYPH[space.id]));
    g.appendChild(svgEl("text", { x: 274, y: y + 31, class: "ck-space-name", "text-anchor": "middle" }, space.name || space.id));
    if (occupied) g.appendChild(svgEl("circle", { cx: 306, cy: y + 10, r: 7, class: "ck-token" }));
    if (interactive) {
      clickable(g, `space-${p.seat}-${space.id}`, `Channel space “${space.name || space.id}”: ${space.effect}` +
                (occupied ? " (occupied)" : ""), model, { kind: "space", seat: p.seat, space: space.id });
    }
    svg.appendChild(g);
  });

  // Reserve and Meditation tokens.
  const reserve = svgEl("g", { class: "ck-reserve", "data-reserve": p.reserve });
  reserve.appendChild(svgEl("text", { x: 8, y: 426, class: "ck-small" }, "reserve"));
  for (let i = 0; i < p.reserve; i++) reserve.appendChild(svgEl("circle", { cx: 66 + i * 18, cy: 422, r: 7, class: "ck-token" }));
  svg.appendChild(reserve);
  const meditation = svgEl("g", { class: "ck-meditation", "data-meditation": p.meditation.join(" ") });
  meditation.appendChild(svgEl("text", { x: 8, y: 446, class: "ck-small" }, "meditation"));
  p.meditation.forEach((letter, i) => {
    const x = 80 + i * 24;
    meditation.appendChild(svgEl("rect", { x: x - 9, y: 434, width: 18, height: 16, rx: 3, fill: ENERGY[letter].fill,
                                           class: "ck-med-token" }));
    meditation.appendChild(svgEl("text", { x, y: 446, "text-anchor": "middle", class: "ck-med-letter",
                                           fill: ENERGY[letter].ink }, letter));
  });
  svg.appendChild(meditation);
  return svg;
}

function drawPlayerCard(s, p, model, canPlay) {
  const card = htmlEl("div", "ck-player", { "data-seat": p.seat, "data-earth": p.earth, "data-reserve": p.reserve,
                                            "data-run": p.run });
  if (s.phase === "play" && p.seat === s.to_move) card.classList.add("ck-to-move");
  if (s.viewer === p.seat) card.classList.add("ck-viewer");
  const title = htmlEl("div", "ck-player-title");
  title.appendChild(htmlEl("span", "ck-player-name", {}, s.names[p.seat]));
  const facts = [`${p.harmonized.length} harmonized`, `run ${p.run}`];
  if (s.scores) facts.push(`score ${s.scores[p.seat]}`);
  title.appendChild(htmlEl("span", "ck-player-facts", {}, facts.join(" · ")));
  if (s.phase === "play" && p.seat === s.to_move) title.appendChild(htmlEl("span", "ck-badge", {}, "to play"));
  if (s.viewer === p.seat) title.appendChild(htmlEl("span", "ck-badge ck-viewing", {}, "view"));
  if (s.winners && s.winners.includes(p.seat)) title.appendChild(htmlEl("span", "ck-badge ck-winner", {}, "winner"));
  card.appendChild(title);
  card.appendChild(drawPlayer(s, p, model, canPlay));
  return card;
}

// ------------------------------------------------------------------ the side panel

function button(text, className, label, model, pick, key) {
  const node = htmlEl("button", "ck-button " + className, { "aria-label": label, title: label, "data-focus-key": key }, text);
  node.addEventListener("click", () => sendPick(model, pick));
  return node;
}

function colourButton(letter, className, label, model, pick, key, extra = "") {
  const node = button("", "ck-colour-button " + className, label, model, pick, key);
  node.style.background = ENERGY[letter].fill;
  node.style.color = ENERGY[letter].ink;
  node.textContent = letter + extra;
  node.dataset.colour = letter;
  if (className.includes("ck-off")) node.setAttribute("aria-disabled", "true");  // shown faded: not available now
  return node;
}

function drawPanel(s, model, canPlay) {
  const panel = htmlEl("div", "ck-panel-inner");
  const hints = s.hints || {}, sel = s.selection || {};
  const status = htmlEl("div", "ck-status", { "data-phase": s.phase, "data-to-move": s.to_move });
  if (s.phase === "over") {
    status.textContent = "Game over · scores " + s.scores.join(" – ");
  } else {
    status.textContent = `${s.names[s.to_move]} to play · turn ${s.turns[s.to_move] + 1}` +
                         (s.end_triggered ? " · last round!" : "");
  }
  panel.appendChild(status);
  if (s.last_action) panel.appendChild(htmlEl("div", "ck-last", { "data-last": s.last_action }, "Last: " + s.last_action));

  if (canPlay && sel.mode === "channel" && hints.steps) {
    const box = htmlEl("div", "ck-steps");
    const named = (s.spaces || []).find((space) => space.id === sel.space);
    box.appendChild(htmlEl("div", "ck-panel-label", {}, `“${named ? named.name : sel.space}”: next step`));
    hints.steps.forEach((step) => {
      box.appendChild(button(step.text, "ck-step", `Step ${step.text}`, model, { kind: "step", index: step.index },
                             `step-${step.index}`));
    });
    panel.appendChild(box);
  }
  if (canPlay && hints.swap) {
    const box = htmlEl("div", "ck-swap");
    box.appendChild(htmlEl("div", "ck-panel-label", {}, "Swap: take from the bag"));
    hints.swap.forEach((letter) => box.appendChild(colourButton(letter, "ck-swap-colour",
      `Take a ${ENERGY[letter].name} energy from the bag (${s.bag[letter]} left)`, model,
      { kind: "swap", colour: letter }, `swap-${letter}`, ` ${s.bag[letter]}`)));
    panel.appendChild(box);
  }
  if (canPlay && sel.mode) {
    panel.appendChild(button("Cancel", "ck-cancel", "Cancel the action being chosen", model, { kind: "cancel" }, "cancel"));
  }
  if (canPlay) {
    const box = htmlEl("div", "ck-meditate");
    box.appendChild(htmlEl("div", "ck-panel-label", {}, "Meditate (take back your channel tokens, look at a value)"));
    const legal = new Set(hints.meditate || []);
    for (const level of [...CHAKRA_ORDER].reverse()) {
      const letter = LEVEL_LETTER[level];
      box.appendChild(colourButton(letter, "ck-meditate-colour" + (legal.has(level) ? " ck-pickable" : " ck-off"),
        `Meditate on ${words(level)}` + (legal.has(level) ? "" : " (not available)"), model,
        { kind: "meditate", colour: level }, `meditate-${level}`));
    }
    if (legal.has("NONE")) {
      box.appendChild(button("no colour left", "ck-meditate-none ck-pickable", "Meditate without a new colour", model,
                             { kind: "meditate", colour: null }, "meditate-none"));
    }
    panel.appendChild(box);
  }
  // Whose knowledge to show, and the bots.
  const tools = htmlEl("div", "ck-tools");
  const label = htmlEl("label", "ck-viewer-label", {}, "View as ");
  const select = htmlEl("select", "ck-viewer-select", { "aria-label": "Whose knowledge the board shows", "data-focus-key": "viewer" });
  const options = [["auto", "player to move"], ...s.names.map((n, i) => [String(i), n]), ["all", "everyone (reveal all)"]];
  for (const [value, text] of options) {
    const option = htmlEl("option", "", { value }, text);
    if (value === s.viewer_choice) option.selected = true;
    select.appendChild(option);
  }
  select.addEventListener("change", () => sendPick(model, { kind: "viewer", seat: select.value }));
  label.appendChild(select);
  tools.appendChild(label);
  if (s.phase === "play") {
    const botSeat = s.bots.includes(s.to_move);
    tools.appendChild(button(botSeat ? "Bot move" : "Let a bot play this turn", "ck-bot",
                             "The bot chooses this turn's action", model, { kind: "bot" }, "bot"));
  }
  panel.appendChild(tools);
  return panel;
}

// ------------------------------------------------------------------ render

function render({ model, el }) {
  const root = htmlEl("div", "gl-board ck-board");
  const top = htmlEl("div", "ck-top");
  const lotus = htmlEl("div", "ck-lotus-wrap");
  const panel = htmlEl("div", "ck-panel");
  const message = htmlEl("div", "gl-message ck-message", { "aria-live": "polite" });
  const players = htmlEl("div", "ck-players");
  const history = buildHistoryBar(model);
  top.append(lotus, panel);
  root.append(top, message, players, history.bar);
  root.appendChild(buildPlaytestPanel(model));  // common.js: shown only while board.record(...) records
  el.appendChild(root);

  const draw = () => {
    const s = model.get("state") || {};
    if (!s.players) return;
    const canPlay = s.phase === "play";
    root.dataset.toMove = s.to_move;
    root.dataset.phase = s.phase;
    root.dataset.viewer = s.viewer === null ? "all" : s.viewer;
    root.dataset.mode = (s.selection && s.selection.mode) || "none";
    root.setAttribute("role", "region");
    root.setAttribute("aria-label", s.label || "Chakra board");
    lotus.replaceChildren(drawLotus(s, model, canPlay));
    panel.replaceChildren(drawPanel(s, model, canPlay));
    players.replaceChildren(...s.players.map((p) => drawPlayerCard(s, p, model, canPlay)));
  };
  const redraw = () => redrawKeepingFocus(root, draw);
  const showMessage = () => renderMessage(model, message);
  draw();
  showMessage();
  // Python sends every trait of an update in one message: one redraw of each part per update.
  const stopState = listen(model, ["state"], redraw);
  const stopMessage = listen(model, ["message", "message_kind"], showMessage);
  const stopHistory = listen(model, ["history"], history.update);
  return () => { stopState(); stopMessage(); stopHistory(); };
}

export default { render };
