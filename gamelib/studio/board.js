// The studio board: draws what Python sends for any contract game and reports clicks through
// `pick`. Nothing here knows a rule: the moves, their names, the log and whose view is drawn all
// come from Python (see board.py for the JSON this file reads).

/** Defence in depth: Python already rebuilt the drawing from an allow-list; drop anything active anyway. */
function placeDrawing(box, markup) {
  const template = document.createElement("template");
  template.innerHTML = markup;
  for (const node of template.content.querySelectorAll("script, foreignObject, iframe, object, embed, a, use, image")) node.remove();
  for (const node of template.content.querySelectorAll("*")) {
    for (const attribute of [...node.attributes]) {
      if (/^on/i.test(attribute.name) || /^(href|xlink:href|src|style)$/i.test(attribute.name)) node.removeAttribute(attribute.name);
    }
  }
  box.replaceChildren(template.content);
}

function seatChips(s) {
  const row = htmlEl("div", "studio-seats", { role: "list", "aria-label": "Seats" });
  for (const seat of s.seats || []) {
    const chip = htmlEl("span", `studio-seat studio-seat-${seat.kind}` + (seat.to_move ? " studio-seat-to-move" : ""),
      { role: "listitem", "data-seat": seat.seat, "data-kind": seat.kind },
      `${seat.to_move ? "▶ " : ""}${seat.name}${seat.kind === "bot" && !/bot/i.test(seat.name) ? " (bot)" : ""}`);
    if (seat.to_move) chip.setAttribute("aria-current", "true");
    row.appendChild(chip);
  }
  return row;
}

function coverBox(s, model) {
  const box = htmlEl("div", "studio-cover", { role: "alert", "data-seat": s.cover.seat });
  box.appendChild(htmlEl("div", "studio-cover-title", {}, `Pass the screen to ${s.cover.name}`));
  box.appendChild(htmlEl("p", "", {}, `${s.cover.name} only: press the button when nobody else can see the screen. `
    + "The position, the moves and the log stay hidden until then."));
  const button = htmlEl("button", "studio-reveal", { type: "button", "data-focus-key": "reveal",
    "aria-label": `I am ${s.cover.name}: show my view` }, `I am ${s.cover.name}: show my view`);
  button.addEventListener("click", () => sendPick(model, { kind: "reveal" }));
  box.appendChild(button);
  return box;
}

function positionBox(s) {
  const box = htmlEl("div", "studio-position", { "data-viewer": s.viewer === null ? "all" : s.viewer });
  if (s.drawing) {
    const drawing = htmlEl("div", "studio-drawing", { role: "img", "aria-label": s.text });
    placeDrawing(drawing, s.drawing);
    box.appendChild(drawing);
  } else {
    box.appendChild(htmlEl("pre", "studio-text", {}, s.text || ""));
  }
  if (s.drawing_note) box.appendChild(htmlEl("div", "studio-note", {}, s.drawing_note));
  return box;
}

function movesBox(s, model) {
  const box = htmlEl("div", "studio-moves", { role: "group", "aria-label": "Legal moves" });
  if (s.moves && s.moves.length) {
    const who = (s.seats || []).find((seat) => seat.to_move);
    box.appendChild(htmlEl("span", "studio-moves-title", {}, `${who ? who.name : "You"}, choose:`));
    for (const move of s.moves) {
      const button = htmlEl("button", "studio-move", { type: "button", "data-index": move.index,
        "data-label": move.label, "data-focus-key": "move:" + move.index, "aria-label": `Move: ${move.label}` }, move.label);
      button.addEventListener("click", () => sendPick(model, { kind: "move", index: move.index, ply: s.ply }));
      box.appendChild(button);
    }
  }
  if (s.chance && s.chance.length) {
    const odds = s.chance.map((o) => `${o.label} (${o.probability})`).join(", ");
    box.appendChild(htmlEl("span", "studio-moves-title", {}, `Chance decides: ${odds}`));
    const button = htmlEl("button", "studio-chance", { type: "button", "data-focus-key": "chance" }, "Let chance decide");
    button.addEventListener("click", () => sendPick(model, { kind: "chance" }));
    box.appendChild(button);
  }
  if (s.bot_waiting) {
    const button = htmlEl("button", "studio-bots", { type: "button", "data-focus-key": "bots" }, "Let the bots play on");
    button.addEventListener("click", () => sendPick(model, { kind: "bots" }));
    box.appendChild(button);
  }
  box.hidden = !box.childNodes.length;
  return box;
}

function logBox(s) {
  const box = htmlEl("details", "studio-log-box", { open: "" });
  const count = (s.log || []).length;
  box.appendChild(htmlEl("summary", "", {}, `Log (${count} ${count === 1 ? "move" : "moves"})`));
  const list = htmlEl("ol", "studio-log", { "aria-label": "Log of the game", "aria-live": "polite" });
  for (const entry of s.log || []) {
    const item = htmlEl("li", `studio-log-${entry.kind}`, { value: entry.ply, "data-ply": entry.ply, "data-kind": entry.kind });
    item.append(htmlEl("span", "studio-log-who", {}, entry.who + ": "), document.createTextNode(entry.text));
    list.appendChild(item);
  }
  box.appendChild(list);
  return { box, list };
}

function render({ model, el }) {
  const root = htmlEl("div", "gl-board studio-board");
  const head = htmlEl("div", "studio-head");
  const body = htmlEl("div", "studio-body");
  const message = htmlEl("div", "gl-message studio-message", { "aria-live": "polite" });
  const controls = htmlEl("div", "studio-controls");
  const history = buildHistoryBar(model);
  const undo = htmlEl("button", "studio-undo", { type: "button", "aria-label": "Undo the last person's move", "data-focus-key": "undo" }, "↶ Undo");
  const fresh = htmlEl("button", "studio-new-game", { type: "button", "aria-label": "Start a new game", "data-focus-key": "new" }, "New game");
  undo.addEventListener("click", () => sendPick(model, { kind: "undo" }));
  fresh.addEventListener("click", () => sendPick(model, { kind: "new_game" }));
  controls.append(history.bar, undo, fresh);
  root.append(head, body, message, controls);
  root.appendChild(buildPlaytestPanel(model));
  el.appendChild(root);

  const draw = () => {
    const s = model.get("state") || {};
    root.dataset.board = model.get("label") || "";
    root.dataset.ply = s.ply;
    root.dataset.toMove = s.to_move;
    root.dataset.terminal = s.terminal ? "yes" : "no";
    root.dataset.covered = s.cover ? "yes" : "no";
    root.setAttribute("role", "region");
    root.setAttribute("aria-label", `${model.get("label") || s.game || "Game"} board`);
    const title = htmlEl("div", "studio-title", {}, s.game ? s.game.charAt(0).toUpperCase() + s.game.slice(1) : "Game");
    const status = htmlEl("div", "studio-status", { role: "status", "data-terminal": s.terminal ? "yes" : "no" }, s.status || "");
    head.replaceChildren(title, seatChips(s), status);
    undo.disabled = !s.can_undo;
    if (s.cover) { body.replaceChildren(coverBox(s, model)); return; }
    const log = logBox(s);
    const main = htmlEl("div", "studio-main");
    main.append(positionBox(s), movesBox(s, model));
    body.replaceChildren(main, log.box);
    log.list.scrollTop = log.list.scrollHeight;
  };
  const stops = [
    listen(model, ["state", "label"], () => {
      // the person who pressed "show my view" (keyboard) lands on the first move, not on the page
      const revealing = root.ownerDocument.activeElement && root.ownerDocument.activeElement.dataset.focusKey === "reveal";
      redrawKeepingFocus(root, draw);
      const first = revealing && root.querySelector(".studio-move, .studio-reveal, .studio-chance, .studio-bots");
      if (first) first.focus({ preventScroll: true });
    }),
    listen(model, ["message", "message_kind"], () => renderMessage(model, message)),
    listen(model, ["history"], history.update),
  ];
  draw();
  renderMessage(model, message);
  return () => stops.forEach((stop) => stop());
}

export default { render };
