// Shared helpers for every gamelib board. This file is prepended to each game's
// board module, so the names below are visible there. Rules never live here: the
// page only draws what Python sends and reports picks back through the `pick` trait.

const SVG_NS = "http://www.w3.org/2000/svg";

/** Create an SVG element with attributes and optional text. */
function svgEl(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) node.setAttribute(key, String(value));
  }
  if (text !== null) node.textContent = String(text);
  return node;
}

/** Create an HTML element with a class, attributes and optional text. */
function htmlEl(tag, className = "", attrs = {}, text = null) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== null) node.textContent = String(text);
  return node;
}

/** Report a pick to Python; the nonce makes a repeated identical pick count again. */
function sendPick(model, pick) {
  model.set("pick", { ...pick, nonce: Date.now() + Math.random() });
  model.save_changes();
}

/** Make an SVG or HTML node act as a button: click, Enter/Space, focus, label. */
function makeClickable(node, label, onActivate) {
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", label);
  node.classList.add("gl-clickable");
  node.addEventListener("click", (event) => { event.stopPropagation(); onActivate(); });
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); onActivate(); }
  });
  return node;
}

/** The message line under a board (info or error), kept in sync with Python. */
function renderMessage(model, node) {
  node.textContent = model.get("message") || "";
  node.dataset.kind = model.get("message_kind") || "info";
  node.setAttribute("role", model.get("message_kind") === "error" ? "alert" : "status");
}

/** The history bar: start, back, forward, end, and "move i of n". */
function buildHistoryBar(model) {
  const bar = htmlEl("div", "gl-history");
  const steps = [["start", "|◀", "Go to the start"], ["back", "◀", "Step back"],
                 ["forward", "▶", "Step forward"], ["end", "▶|", "Go to the latest move"]];
  const buttons = {};
  for (const [to, symbol, label] of steps) {
    const button = htmlEl("button", "gl-history-" + to, { "aria-label": label, title: label }, symbol);
    button.addEventListener("click", () => sendPick(model, { kind: "history", to }));
    buttons[to] = button;
    bar.appendChild(button);
  }
  const where = htmlEl("span", "gl-history-where");
  bar.appendChild(where);
  // ipywidgets marks a model's comm dead when its kernel restarts or stops (and then drops what
  // it sends); every board has this bar, so the board learns it here (see watchForLostKernel).
  model.on("comm_live_update", () => {
    const board = bar.closest(".gl-board");
    if (board) board.classList.add("gl-kernel-lost");
  });
  const update = () => {
    const h = model.get("history") || {};
    buttons.start.disabled = buttons.back.disabled = !h.can_back;
    buttons.forward.disabled = buttons.end.disabled = !h.can_forward;
    where.textContent = `move ${h.index ?? 0} of ${h.length ?? 0}`;
  };
  update();
  return { bar, update };
}

/**
 * Call `redraw` once after any of the traits `names` changed, however many changed together
 * (Python sends them in one message; the handlers run one by one, so coalesce them into a
 * single microtask). Returns the cleanup function anywidget's `render` should return.
 */
function listen(model, names, redraw) {
  let pending = false;
  const schedule = () => {
    if (pending) return;
    pending = true;
    queueMicrotask(() => { pending = false; redraw(); });
  };
  const events = names.map((name) => "change:" + name);
  for (const event of events) model.on(event, schedule);
  return () => { for (const event of events) model.off(event, schedule); };
}

/**
 * Run `draw()` (which rebuilds the children of `root`) and give keyboard focus back to the
 * element that had it: elements carry a stable `data-focus-key`, so the rebuilt one is found.
 */
function redrawKeepingFocus(root, draw) {
  const active = root.ownerDocument.activeElement;
  const key = active && root.contains(active) ? active.getAttribute("data-focus-key") : null;
  draw();
  if (key === null) return;
  const again = root.querySelector(`[data-focus-key="${CSS.escape(key)}"]`);
  if (again) again.focus({ preventScroll: true });
}

/**
 * A board left from before a kernel restart: its widget models lost their kernel, and
 * ipywidgets silently drops what they send (it marks each view `jupyter-widgets-disconnected`).
 * One listener per page catches a click or key on such a board before the board acts, and
 * says on the board that the kernel is gone and the cell must run again.
 */
const KERNEL_GONE = "The kernel behind this board has stopped or restarted, so the board cannot answer any more. "
  + "Run this cell again (after a restart: Run ▸ Run All Cells) to get a live board.";
const BOARD_ROOTS = ".gl-board, .gl-explorer";

function kernelGone(target) {
  const board = target instanceof Element ? target.closest(BOARD_ROOTS) : null;
  return board && target.closest(".gl-kernel-lost, .jupyter-widgets-disconnected") ? board : null;
}

// A page exported with its widgets' saved state (nbconvert, embed_minimal_html) never had a kernel.
const SAVED_PAGE = "This is a saved copy of the notebook, without a kernel: the board shows how it was left. "
  + "Open the notebook in Jupyter and run it to play.";

function sayKernelGone(board) {
  let notice = board.querySelector(":scope > .gl-kernel-gone");
  if (!notice) {
    const saved = document.querySelector('script[type="application/vnd.jupyter.widget-state+json"]');
    notice = htmlEl("div", "gl-kernel-gone", { role: "alert" }, saved ? SAVED_PAGE : KERNEL_GONE);
    board.prepend(notice);
  }
  notice.scrollIntoView({ block: "nearest" });
}

function watchForLostKernel() {
  if (window.__gamelibKernelWatch) return;
  window.__gamelibKernelWatch = true;
  const stop = (event) => {
    if (event.type === "keydown" && (event.key === "Tab" || event.key === "Shift")) return;
    const board = kernelGone(event.target);
    if (!board) return;
    event.preventDefault();
    event.stopPropagation();
    sayKernelGone(board);
  };
  for (const type of ["pointerdown", "click", "keydown", "change"]) document.addEventListener(type, stop, true);
}

watchForLostKernel();

/**
 * The playtest panel of a board that records (`board.record(...)`, Python): a line saying that the
 * games are recorded and where, and when a recorded game ends, its short survey (fun, tension,
 * fairness, clarity on 1-5 and one line of comment). Hidden while the board does not record.
 * The page only sends the answers; Python checks and saves them. Its listener stops itself once
 * the panel has left the page (a view closed), so a board needs one line to mount it.
 */
const SURVEY_QUESTIONS = [["fun", "Fun"], ["tension", "Tension"], ["fairness", "Fairness"], ["clarity", "Clarity of the rules"]];

function buildPlaytestPanel(model) {
  const box = htmlEl("div", "gl-playtest", { role: "region", "aria-label": "Playtest recording" });
  let answered = null;  // the game whose survey this view last drew (keeps half-filled answers across redraws)
  const draw = () => {
    const p = model.get("playtest") || {};
    box.hidden = !p.recording;
    if (!p.recording) return;
    box.dataset.survey = p.survey === null || p.survey === undefined ? "none" : String(p.survey);
    const status = htmlEl("div", "gl-playtest-status", { role: "status" }, p.problem
      ? `Playtest ${p.file}: ${p.problem} (the games finished before are kept)`
      : `● Recording playtest: ${p.file} · game ${p.game} · ${p.finished} finished · seats: ${(p.seats || []).join(", ")}`);
    box.dataset.problem = p.problem ? "yes" : "no";
    if (p.survey === null || p.survey === undefined || p.problem) { box.replaceChildren(status); answered = null; return; }
    if (answered === p.survey && box.querySelector("form")) return;
    answered = p.survey;
    const form = htmlEl("form", "gl-survey", { "aria-label": `Survey for game ${p.survey}` });
    form.appendChild(htmlEl("div", "gl-survey-title", {}, `Game ${p.survey} is over: a short survey (1 = not at all, 5 = very; any question may stay empty)`));
    for (const [key, words] of SURVEY_QUESTIONS) {
      const set = htmlEl("fieldset", "gl-survey-question", { "data-question": key });
      set.appendChild(htmlEl("legend", "", {}, words));
      for (let value = 1; value <= 5; value++) {
        const label = htmlEl("label", "gl-survey-choice");
        const input = htmlEl("input", "", { type: "radio", name: `gl-${key}-${p.survey}-${Math.random().toString(36).slice(2)}`,
          value: String(value), "data-question": key, "aria-label": `${words}: ${value} of 5` });
        label.append(input, document.createTextNode(" " + value));
        set.appendChild(label);
      }
      form.appendChild(set);
    }
    const comment = htmlEl("input", "gl-survey-comment", { type: "text", maxlength: "300",
      placeholder: "One line of comment (optional)", "aria-label": "One line of comment" });
    const save = htmlEl("button", "gl-survey-save", { type: "submit" }, "Save the survey");
    const skip = htmlEl("button", "gl-survey-skip", { type: "button" }, "Skip");
    const actions = htmlEl("div", "gl-survey-actions");
    actions.append(comment, save, skip);
    form.appendChild(actions);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const answers = { kind: "survey", comment: comment.value };
      for (const [key] of SURVEY_QUESTIONS) {
        const chosen = form.querySelector(`input[data-question="${key}"]:checked`);
        answers[key] = chosen ? Number(chosen.value) : null;
      }
      sendPick(model, answers);
    });
    skip.addEventListener("click", () => sendPick(model, { kind: "skip_survey" }));
    box.replaceChildren(status, form);
  };
  let stop = null;
  const guarded = () => {
    if (!box.isConnected && box.dataset.mounted === "yes") { stop(); return; }
    if (box.isConnected) box.dataset.mounted = "yes";
    draw();
  };
  stop = listen(model, ["playtest"], guarded);
  draw();
  return box;
}
