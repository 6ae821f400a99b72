// The war table's writes: pick a unit, an order kind and its parameters (a point or a path by
// clicking the map), see the rules' verdict as you go, submit, withdraw, say you are done.
// Every order goes through the bot's own endpoints (api/…), which call the same services as the
// slash commands; the browser keeps no rules of its own: the kinds and their typed parameters
// come from api/choices, every verdict from api/judge. Texts go in by textContent, never HTML.

import { bindAim, drawAim, factsText, placeAim, startAim, stopAim } from "./aim.js";
import { showOdds } from "./odds.js";
import { unitAim } from "./unit_pick.js";

const SVG = "http://www.w3.org/2000/svg";
const JUDGE_AFTER_MS = 250; // judge once the player pauses, not at every click of a path

let cardsOf = () => new Map();
let refreshTable = () => {};
// What the panel is building: the unit, its steps (from api/choices), the chosen step and kind,
// the parameters so far, and which point or path parameter a click on the map fills.
const order = { unit: null, name: "", steps: [], step: null, kind: null, params: {}, picking: null };
let judged = 0; // the latest judgement asked: an older answer arriving late is dropped
let judgeTimer = null;
let drawnPath = null; // the path the rules gave for a legal order, [[x, y], ...]
// The planned order an alternative is being built for ({unit, step, number}; plan.js's "Add
// else…"), or null: the form then submits to api/else instead of api/order.
let alternativeOf = null;

export function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

/** A service's words without Discord's bold and code marks (the page shows them plain). */
export function plain(text) {
  return String(text ?? "").replace(/\*\*|`/g, "");
}

export function byId(id) {
  return document.getElementById(id);
}

// --- Talking to the bot ---------------------------------------------------------------------

export function csrfToken() {
  return document.querySelector('meta[name="csrf-token"]')?.content ?? "";
}

/** The answer's JSON; a refusal (4xx) keeps its {"error": ...}; anything else says the status. */
async function answerOf(answer) {
  let data = null;
  try {
    data = await answer.json();
  } catch {
    data = null;
  }
  if (data && typeof data === "object") return answer.ok || data.error ? data : { error: `${answer.status}` };
  return { error: `The table could not answer (${answer.status}); try again.` };
}

export async function post(what, body) {
  const answer = await fetch(`api/${what}`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrfToken() },
    body: JSON.stringify(body),
  });
  return answerOf(answer);
}

async function choicesFor(unitId) {
  const answer = await fetch(`api/choices?unit=${encodeURIComponent(unitId)}`, {
    credentials: "same-origin",
    cache: "no-store",
  });
  return answerOf(answer);
}

// --- The map's coordinates: <svg id="map" data-table="x0 y0 scale"> -----------------------

function mapElement() {
  return byId("map");
}

/** Table point (the ruleset's measure, y up) of an SVG point (px, y down), and back. */
export function toTable([px, py]) {
  const [x0, y0, scale] = mapElement().dataset.table.split(" ").map(Number);
  const round = (v) => Math.round(v * 10) / 10;
  return [round(x0 + px / scale), round(y0 - py / scale)];
}

export function toSvg([x, y]) {
  const [x0, y0, scale] = mapElement().dataset.table.split(" ").map(Number);
  return [(x - x0) * scale, (y0 - y) * scale];
}

/** The SVG point under a click (through the map's zoom, pan and letterboxing). */
export function svgPoint(event) {
  const svg = mapElement();
  const point = svg.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  const found = point.matrixTransform(svg.getScreenCTM().inverse());
  return [found.x, found.y];
}

// --- What is drawn over the map: the point, the waypoints, the path the rules will take ------

function svgNode(tag, attributes) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  return node;
}

function pointsText(points) {
  return points.map((p) => toSvg(p).map((v) => v.toFixed(1)).join(",")).join(" ");
}

/** Draw the marks of the order being built on the current map (again after the map is swapped). */
function drawOverlay() {
  const svg = mapElement();
  if (!svg || !svg.dataset.table) return;
  svg.querySelector("#order-overlay")?.remove();
  const layer = svgNode("g", { id: "order-overlay" });
  drawAim(layer); // the reach's shading under the marks, the ghost over it
  for (const [name, value] of Object.entries(order.params)) {
    const param = paramsOf().find((p) => p.name === name);
    if (param?.type === "point") layer.append(marker(value, "order-marker"));
    if (param?.type === "path") {
      if (value.length > 1) layer.append(svgNode("polyline", { points: pointsText(value), class: "order-waypoints" }));
      for (const waypoint of value) layer.append(marker(waypoint, "order-waypoint"));
    }
  }
  if (drawnPath && drawnPath.length > 1) {
    layer.append(svgNode("polyline", { points: pointsText(drawnPath), class: "order-path" }));
  }
  svg.append(layer);
}

function marker(point, className) {
  const [cx, cy] = toSvg(point);
  return svgNode("circle", { cx: cx.toFixed(1), cy: cy.toFixed(1), r: 8, class: className });
}

// --- The panel: steps, kinds, each parameter's control ---------------------------------------

function currentStep() {
  return order.steps.find((s) => s.key === order.step) ?? order.steps[0];
}

function currentKind() {
  return currentStep()?.kinds.find((k) => k.id === order.kind);
}

function paramsOf() {
  return currentKind()?.params ?? [];
}

function select(id, label, options, chosen, changed) {
  const holder = el("label", label);
  const box = el("select");
  box.id = id;
  for (const [value, words] of options) {
    const option = el("option", words);
    option.value = value;
    option.selected = value === chosen;
    box.append(option);
  }
  box.addEventListener("change", () => changed(box.value));
  holder.append(box);
  return holder;
}

/** The names a unit, leader or group parameter offers: its own choices, else the map's units. */
function namesFor(param) {
  if (param.choices.length) return param.choices;
  return param.type === "unit" ? [...cardsOf().values()].map((c) => c.name) : [];
}

function setParam(name, value) {
  if (value === "" || value === null || value === undefined) delete order.params[name];
  else order.params[name] = value;
  drawOverlay();
  judgeSoon();
}

function pickButton(param) {
  const picking = order.picking === param.name;
  const words = { path: "Click waypoints on the map", unit: "Click a unit on the map" }[param.type] ?? "Click the map";
  const button = el("button", picking ? `${words}…` : words);
  button.type = "button";
  button.setAttribute("aria-pressed", String(picking));
  button.addEventListener("click", () => {
    order.picking = picking ? null : param.name;
    buildForm();
  });
  return button;
}

function placeControl(param) {
  const holder = el("div", undefined, "param");
  const value = order.params[param.name];
  const said = value === undefined ? "not yet chosen" : param.type === "path"
    ? value.map((p) => `(${p.join(", ")})`).join(" → ")
    : `(${value.join(", ")})`;
  holder.append(el("span", `${param.name}: `), el("output", said), pickButton(param));
  if (value !== undefined) {
    const clear = el("button", "Clear");
    clear.type = "button";
    clear.addEventListener("click", () => {
      setParam(param.name, undefined);
      buildForm();
    });
    holder.append(clear);
  }
  holder.dataset.param = param.name;
  return holder;
}

function inputControl(param) {
  const holder = el("label", `${param.name}${param.required ? "" : " (optional)"} `, "param");
  const input = el("input");
  input.type = param.type === "number" ? "number" : "text";
  input.name = param.name;
  input.value = order.params[param.name] ?? "";
  input.addEventListener("input", () => {
    const raw = input.value.trim();
    setParam(param.name, param.type === "number" && raw !== "" ? Number(raw) : raw);
  });
  holder.append(input);
  return holder;
}

function control(param) {
  if (param.type === "point" || param.type === "path") return placeControl(param);
  const names = param.type === "choice" ? param.choices : namesFor(param);
  if (!names.length) return inputControl(param);
  const options = [["", param.required ? "— choose —" : "— none —"], ...names.map((n) => [n, n])];
  const holder = select(`param-${param.name}`, `${param.name} `, options, order.params[param.name] ?? "", (v) =>
    setParam(param.name, v),
  );
  holder.className = "param";
  if (param.type === "unit") holder.append(pickButton(param)); // or point at it on the map
  return holder;
}

function checkbox(id, words, checked) {
  const holder = el("label", ` ${words}`, "param");
  const box = el("input");
  box.type = "checkbox";
  box.id = id;
  box.checked = checked === true;
  holder.prepend(box);
  return holder;
}

/** Rebuild the form for the chosen step and kind (the parameters chosen so far kept). */
function buildForm() {
  const form = byId("order-form");
  const step = currentStep();
  const [askMe, far] = ["order-ask-me", "order-far"].map((id) => byId(id)?.checked); // kept
  form.replaceChildren(el("h3", alternativeOf ? `${order.name}: else…` : order.name));
  if (!step) {
    form.append(el("p", "Nothing is open to this unit in this turn."));
    return;
  }
  form.append(select("order-step", "Step ", order.steps.map((s) => [s.key, s.title]), step.key, (key) => {
    order.step = key;
    chooseKind(currentStep().kinds[0]?.id ?? null);
  }));
  form.append(select("order-kind", "Order ", step.kinds.map((k) => [k.id, k.title]), order.kind, chooseKind));
  for (const param of paramsOf()) form.append(control(param));
  form.append(checkbox("order-ask-me", "Ask me if it cannot be done", askMe));
  form.append(checkbox("order-far", "As far as possible", far));
  byId("order-far").addEventListener("change", judgeSoon);
}

function chooseKind(kind) {
  order.kind = kind;
  order.params = {};
  drawnPath = null;
  // A move is aimed by clicking the map at once: its first point or path parameter is picked.
  order.picking = paramsOf().find((p) => p.type === "point" || p.type === "path")?.name ?? null;
  if (order.picking) startAim(cardsOf().get(order.unit), null, reachUrl());
  else stopAim();
  buildForm();
  drawOverlay();
  judgeSoon();
}

/** Read api/choices into steps of {key, title, kinds: [{id, title, params: [...]}]}. */
function stepsOf(data) {
  return (data.steps ?? []).map((step) => ({
    key: step.key,
    words: step.words,
    title: step.open ? `${step.words} (now)` : step.words,
    open: step.open === true,
    kinds: (step.kinds ?? []).map((kind) => ({
      id: kind.id,
      title: kind.title ?? kind.id,
      params: (kind.params ?? []).map((p) => ({
        name: p.name,
        type: p.type,
        required: p.required !== false,
        choices: p.choices ?? [],
      })),
    })),
  }));
}

/** A unit of the reader's was clicked: the order kinds open to it, or nothing if none is. */
async function openFor(unitId) {
  const data = await choicesFor(unitId);
  const panel = byId("order-panel");
  if (data.error) {
    if (order.unit === null) panel.hidden = true;
    return;
  }
  Object.assign(order, { unit: data.actor.id, name: data.actor.name });
  order.steps = stepsOf(data);
  if (alternativeOf) order.steps = order.steps.filter((s) => s.words === alternativeOf.step);
  order.step = order.steps[0]?.key ?? null;
  panel.hidden = false;
  chooseKind(currentStep()?.kinds[0]?.id ?? null);
}

/** A unit clicked on the map: a new order, not an alternative. */
function openPlain(unitId) {
  alternativeOf = null;
  return openFor(unitId);
}

function closePanel() {
  alternativeOf = null;
  Object.assign(order, { unit: null, steps: [], step: null, kind: null, params: {}, picking: null });
  drawnPath = null;
  stopAim();
  byId("order-panel").hidden = true;
  byId("verdict").textContent = "";
  drawOverlay();
}

// --- Verdicts, submitting, withdrawing, done --------------------------------------------------

/** The order as the API takes it: a step named only when it is a later one (planned), as
 * `/order give` without `step:` gives it for the step open now. */
function body() {
  const sent = { kind: order.kind, unit: order.unit, params: { ...order.params } };
  if (!currentStep()?.open) sent.step = order.step;
  if (byId("order-far")?.checked) sent.as_far_as_possible = true; // judged where it would stop
  return sent;
}

function missing() {
  return paramsOf().filter((p) => p.required && order.params[p.name] === undefined).map((p) => p.name);
}

function showVerdict(ok, text) {
  const verdict = byId("verdict");
  verdict.textContent = plain(text);
  verdict.dataset.ok = ok === null ? "" : String(ok);
  // An alternative not possible now is kept all the same: it is judged again at its step.
  byId("order-submit").disabled = ok !== true && !(alternativeOf && ok === false);
}

function judgeSoon() {
  clearTimeout(judgeTimer);
  const wanted = missing();
  if (!order.kind) return showVerdict(null, "");
  if (wanted.length) return showVerdict(null, `Choose ${wanted.join(", ")} to see if the rules allow it.`);
  showVerdict(null, "Judging…");
  showOdds(null); // the last aim's figures go with its verdict
  judgeTimer = setTimeout(judge, JUDGE_AFTER_MS);
}

/** The order's line as aimed, from where the unit stands through its point or waypoints (the
 * rules' own path when the verdict carries one replaces it). */
function aimedPath() {
  const from = cardsOf().get(order.unit)?.xy;
  const aimed = paramsOf().flatMap((p) =>
    p.type === "point" && order.params[p.name] ? [order.params[p.name]]
      : p.type === "path" ? order.params[p.name] ?? [] : []);
  return from && aimed.length ? [from, ...aimed] : null;
}

async function judge() {
  const asked = ++judged;
  const verdict = await post("judge", body()).catch(() => ({ error: "The table did not answer; try again." }));
  if (asked !== judged) return;
  drawnPath = verdict.ok ? verdict.path ?? aimedPath() : null;
  const facts = factsText(verdict); // the path, used and left, terrain, where it stops
  showVerdict(verdict.ok === true, (verdict.text ?? verdict.error ?? "") + (facts ? ` ${facts}` : ""));
  showOdds(verdict.odds);
  byId("verdict").dataset.judged = String(asked); // which judgement the words answer
  drawOverlay();
}

async function submit() {
  if (alternativeOf) return submitElse();
  const sent = { ...body(), ask_me: byId("order-ask-me").checked, as_far_as_possible: byId("order-far").checked };
  byId("order-submit").disabled = true;
  const answer = await post("order", sent);
  showVerdict(answer.ok === true ? null : false, answer.text ?? answer.error ?? "");
  if (answer.ok) refreshTable();
}

/** The form's order as an alternative to the planned one it was opened for (api/else). */
async function submitElse() {
  const sent = { ...body(), step: alternativeOf.step, number: alternativeOf.number };
  byId("order-submit").disabled = true;
  const answer = await post("else", sent);
  showVerdict(answer.ok === true ? null : false, answer.text ?? answer.error ?? "");
  if (answer.ok) refreshTable();
}

/** Open the order form to add an alternative ("else") to a planned order of the reader's. */
export function openAlternative(planned) {
  alternativeOf = { unit: planned.unit, step: planned.step, number: planned.number };
  return openFor(planned.unit);
}

/** Fetch the reader's state again (after a write of plan.js's). */
export function refreshNow() {
  refreshTable();
}

async function withdraw(planned, button) {
  button.disabled = true;
  const sent = { unit: planned.unit, number: planned.number };
  if (planned.step) sent.step = planned.step; // "" is the open step: no step named
  const answer = await post("withdraw", sent);
  byId("turn-said").textContent = plain(answer.text ?? answer.error);
  if (!answer.error) refreshTable();
  else button.disabled = false;
}

function confirmDone(question) {
  const said = byId("turn-said");
  const yes = el("button", "Yes, done for the turn");
  const no = el("button", "Not yet");
  for (const button of [yes, no]) button.type = "button";
  yes.id = "done-confirm";
  yes.addEventListener("click", () => done(true));
  no.addEventListener("click", () => said.replaceChildren());
  said.replaceChildren(el("span", plain(question)), yes, no);
}

async function done(confirmed = false) {
  byId("turn-said").replaceChildren(); // the last answer (a withdrawal's) is not this one's
  const answer = await post("done", confirmed ? { turn: true, confirmed: true } : { turn: true });
  if (answer.confirm) return confirmDone(answer.confirm);
  byId("turn-said").replaceChildren(el("span", plain(answer.text ?? answer.error)));
  if (!answer.error) refreshTable();
}

/** The plans panel was filled again: a Withdraw button beside each order the reader gave. */
export function ordersApplied(state) {
  orderable = state.battle.orders ?? orderable;
  const blocks = [...document.querySelectorAll("#plans .block")];
  state.panels.plans.forEach((block, n) => {
    const holder = blocks[n];
    if (!holder || !block.orders?.length) return;
    const list = el("ul", undefined, "withdraw");
    for (const planned of block.orders) {
      const button = el("button", `Withdraw: ${planned.said}`);
      button.type = "button";
      button.addEventListener("click", () => withdraw(planned, button));
      const item = el("li");
      item.append(button);
      list.append(item);
    }
    holder.append(list);
  });
}

let orderable = { gm: false, sides: [] }; // whose units this reader's page offers orders for

/** A unit the reader may order (a GM: any): only those ask api/choices (others would 404). */
function mayOrder(unitId) {
  return orderable.gm || orderable.sides.includes(cardsOf().get(unitId)?.side);
}

/** The api/reach query of the move being aimed (its kind, and its step when a later one). */
function reachUrl() {
  const query = new URLSearchParams({ unit: order.unit, kind: order.kind });
  if (!currentStep()?.open) query.set("step", order.step);
  return `api/reach?${query}`;
}

/** The ghost was dragged (or turned): its point (a path's last waypoint) and, when the kind
 * takes one, its facing are the order's; judged again, debounced. */
function ghostMoved(point, facing) {
  const param = paramsOf().find((p) => p.type === "point" || p.type === "path");
  if (!param) return;
  const waypoints = order.params[param.name] ?? [];
  if (facing !== null && paramsOf().some((p) => p.name === "facing")) order.params.facing = facing;
  setParam(param.name, param.type === "path" ? [...waypoints.slice(0, -1), point] : point);
  buildForm();
}

// --- Clicks on the map -------------------------------------------------------------------------

let pressedAt = null; // where the pointer went down: a click after a drag was a pan
const PAN_PX = 6;

function clicked(event) {
  const moved = pressedAt && Math.hypot(event.clientX - pressedAt[0], event.clientY - pressedAt[1]);
  if (moved > PAN_PX) return;
  const unit = event.target.closest?.("#map .unit");
  const card = unit && order.unit !== null ? cardsOf().get(unit.dataset.owner) : null;
  const aimed = unitAim(paramsOf(), order.picking, card, unit && mayOrder(unit.dataset.owner), namesFor);
  if (aimed) {
    event.stopPropagation(); // aiming: the unit is the parameter, not a unit to show
    setParam(aimed.name, aimed.value);
    order.picking = null;
    buildForm();
    return;
  }
  if (order.picking && order.unit !== null && event.target.closest?.("#map")) {
    const param = paramsOf().find((p) => p.name === order.picking);
    if (!param) return;
    event.stopPropagation(); // aiming: the click is a point, not a unit to show
    const point = toTable(svgPoint(event));
    setParam(param.name, param.type === "path" ? [...(order.params[param.name] ?? []), point] : point);
    if (param.type === "point") order.picking = null;
    placeAim(point); // the ghost stands where the point (or the last waypoint) is
    buildForm();
    return;
  }
  if (unit && mayOrder(unit.dataset.owner)) openPlain(unit.dataset.owner);
}

/** Make the page write, when it may (the server gave it a token and the order panel). */
export function bindOrders(cards, refresh) {
  if (!csrfToken() || !byId("order-panel")) return;
  cardsOf = cards;
  refreshTable = refresh;
  const board = byId("board");
  bindAim(board, { toSvg, toTable, svgPoint, moved: ghostMoved, redraw: drawOverlay });
  board.addEventListener("click", clicked, true);
  board.addEventListener("pointerdown", (event) => { pressedAt = [event.clientX, event.clientY]; }, true);
  board.addEventListener("keydown", (event) => {
    const unit = event.target.closest?.("#map .unit");
    if (!unit || (event.key !== "Enter" && event.key !== " ")) return;
    event.preventDefault(); // the keyboard's way to a unit's orders, as a click is
    if (mayOrder(unit.dataset.owner)) openPlain(unit.dataset.owner);
  });
  // The map is swapped whole when the battle changes: draw the order's marks on the new one.
  new MutationObserver(drawOverlay).observe(board, { childList: true });
  byId("order-submit").addEventListener("click", submit);
  byId("order-close").addEventListener("click", closePanel);
  byId("done-turn").addEventListener("click", () => done(false));
}
