// The war table's page: unit cards, zoom and pan, the replay slider and live updates; the
// orders a member gives on it are orders.js's.
// Every text is put in with textContent (never innerHTML): the page shows data, never runs it.
import { follow } from "./live.js";
import { bindOrders, ordersApplied } from "./orders.js";
import { bindQuestions, questionsApplied } from "./questions.js";
import { bindGm, gmApplied } from "./gm.js";
import { planApplied } from "./plan.js";

const body = document.body;
let cards = new Map();

/** An element with a class and a text. */
function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

/** A titled list for the card; nothing when it has no lines. */
function listPart(list, title, lines) {
  if (!lines.length) return;
  list.append(el("dt", title));
  const dd = el("dd");
  const ul = el("ul");
  for (const line of lines) ul.append(el("li", line));
  dd.append(ul);
  list.append(dd);
}

/** Fill #card with one unit's card. */
function showCard(unitId) {
  const card = cards.get(unitId);
  const aside = document.getElementById("card");
  if (!card || !aside) return;
  // A unit outside any group is shown under its side alone (not "Red · Red").
  const under = card.group && card.group !== card.side_name ? ` · ${card.group}` : "";
  aside.replaceChildren(el("h2", card.name), el("p", `${card.side_name}${under}`));
  const list = el("dl");
  listPart(list, "Profile", card.profile);
  listPart(list, "Status", card.status);
  listPart(list, "Badges", card.badges.map((b) => `${b.word}: ${b.meaning}`));
  listPart(list, "Leaders attached", card.leaders);
  listPart(list, "Known to your side", card.secret);
  listPart(list, "Your orders", card.orders);
  listPart(list, "Where", [card.at]);
  aside.append(list);
  aside.dataset.unit = unitId;
  for (const g of document.querySelectorAll("#map .unit.chosen")) g.classList.remove("chosen");
  const chosen = document.querySelector(`#map .unit[data-owner="${CSS.escape(unitId)}"]`);
  if (chosen) chosen.classList.add("chosen");
}

/** Rebuild one side panel's entries from state.json's blocks. */
function fillSection(section, blocks) {
  const holder = section.querySelector(".blocks");
  if (!holder) return;
  const parts = blocks.map((block) => {
    const div = el("div", undefined, "block");
    if (block.current) div.setAttribute("aria-current", "step");
    div.append(el("h3", block.title));
    if (block.time) {
      const p = el("p", "Deadline: ");
      const time = el("time", new Date(block.time).toLocaleString());
      time.dateTime = block.time;
      p.append(time);
      div.append(p);
    }
    if (block.lines.length) {
      const ul = el("ul");
      for (const line of block.lines) ul.append(el("li", line));
      div.append(ul);
    }
    return div;
  });
  holder.replaceChildren(...(parts.length ? parts : [el("p", section.dataset.empty, "empty")]));
}

/** Take in a state: cards, panels, the replay's length and the version. */
function applyState(state) {
  cards = new Map(state.units.map((card) => [card.id, card]));
  for (const [id, blocks] of Object.entries(state.panels)) {
    const section = document.getElementById(id);
    if (section) fillSection(section, blocks);
  }
  const where = document.getElementById("where");
  if (where) where.textContent = state.battle.summary;
  const slider = document.getElementById("replay");
  if (slider) {
    const last = Math.max(state.replay.frames - 1, 0);
    const atEnd = Number(slider.value) === Number(slider.max);
    slider.max = String(last);
    if (atEnd || body.dataset.frame === "live") slider.value = String(last);
    slider.disabled = state.replay.frames < 2;
    document.getElementById("play").disabled = state.replay.frames < 2;
  }
  ordersApplied(state);
  questionsApplied(state);
  gmApplied(state);
  planApplied(state);
  body.dataset.version = state.version;
  const shown = document.getElementById("card")?.dataset.unit;
  if (shown && cards.has(shown)) showCard(shown);
}

// --- The map: swapping it, zoom and pan by its viewBox -------------------------------------

let full = null; // the whole table's viewBox [x, y, w, h]

function mapElement() {
  return document.getElementById("map");
}

function box() {
  return mapElement().getAttribute("viewBox").split(/\s+/).map(Number);
}

function setBox([x, y, w, h]) {
  mapElement().setAttribute("viewBox", `${x} ${y} ${w} ${h}`);
}

/** Zoom by `factor` about a point of the table (its centre by default). */
function zoom(factor, cx, cy) {
  const [x, y, w, h] = box();
  const nw = Math.min(Math.max(w * factor, full[2] / 20), full[2]);
  const nh = (nw / w) * h;
  const px = cx ?? x + w / 2;
  const py = cy ?? y + h / 2;
  setBox([px - ((px - x) * nw) / w, py - ((py - y) * nh) / h, nw, nh]);
}

/** A client point in the map's own units. */
function tablePoint(clientX, clientY) {
  const rect = mapElement().getBoundingClientRect();
  const [x, y, w, h] = box();
  return [x + ((clientX - rect.left) / rect.width) * w, y + ((clientY - rect.top) / rect.height) * h];
}

/** Put a new SVG (text) in the map's place, keeping the zoom when the table is the same. */
function swapMap(text) {
  const parsed = new DOMParser().parseFromString(text, "image/svg+xml");
  const fresh = document.importNode(parsed.documentElement, true);
  const old = mapElement();
  const kept = old.getAttribute("viewBox");
  fresh.id = "map";
  const sameTable = fresh.getAttribute("viewBox") === full.join(" ");
  old.replaceWith(fresh);
  if (sameTable) fresh.setAttribute("viewBox", kept);
  else full = box();
}

async function fetchText(url) {
  const answer = await fetch(url, { credentials: "same-origin", cache: "no-store" });
  if (!answer.ok) throw new Error(`${url}: ${answer.status}`);
  return answer.text();
}

function bindBoard() {
  const board = document.getElementById("board");
  const pointers = new Map();
  let lastPinch = 0;
  const pick = (event) => {
    const unit = event.target.closest?.(".unit");
    if (unit) showCard(unit.dataset.owner);
  };
  board.addEventListener("pointerover", pick);
  board.addEventListener("focusin", pick);
  board.addEventListener("click", pick);
  board.addEventListener("wheel", (event) => {
    event.preventDefault();
    const [px, py] = tablePoint(event.clientX, event.clientY);
    zoom(event.deltaY > 0 ? 1.2 : 1 / 1.2, px, py);
  }, { passive: false });
  board.addEventListener("pointerdown", (event) => {
    if (event.target.closest?.("button")) return;
    pointers.set(event.pointerId, [event.clientX, event.clientY]);
  });
  board.addEventListener("pointermove", (event) => {
    const was = pointers.get(event.pointerId);
    if (!was) return;
    pointers.set(event.pointerId, [event.clientX, event.clientY]);
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      const apart = Math.hypot(a[0] - b[0], a[1] - b[1]);
      if (lastPinch) {
        const [px, py] = tablePoint((a[0] + b[0]) / 2, (a[1] + b[1]) / 2);
        zoom(lastPinch / apart, px, py);
      }
      lastPinch = apart;
      return;
    }
    const rect = mapElement().getBoundingClientRect();
    const [x, y, w, h] = box();
    const dx = ((event.clientX - was[0]) / rect.width) * w;
    const dy = ((event.clientY - was[1]) / rect.height) * h;
    setBox([x - dx, y - dy, w, h]);
  });
  const release = (event) => {
    pointers.delete(event.pointerId);
    if (pointers.size < 2) lastPinch = 0;
  };
  for (const name of ["pointerup", "pointercancel", "pointerleave"]) board.addEventListener(name, release);
  document.getElementById("zoom-in").addEventListener("click", () => zoom(1 / 1.5));
  document.getElementById("zoom-out").addEventListener("click", () => zoom(1.5));
  document.getElementById("zoom-fit").addEventListener("click", () => setBox(full));
}

// --- Replay and live -------------------------------------------------------------------------

let playing = null;

async function showFrame(number) {
  swapMap(await fetchText(`replay/${number}.svg`));
  body.dataset.frame = String(number);
  document.getElementById("live-now").setAttribute("aria-pressed", "false");
}

async function backToLive() {
  stopPlaying();
  swapMap(await fetchText("map.svg"));
  body.dataset.frame = "live";
  const slider = document.getElementById("replay");
  slider.value = slider.max;
  document.getElementById("live-now").setAttribute("aria-pressed", "true");
}

function stopPlaying() {
  if (playing !== null) clearInterval(playing);
  playing = null;
  document.getElementById("play").textContent = "Play";
}

function bindReplay() {
  const slider = document.getElementById("replay");
  slider.addEventListener("input", () => showFrame(Number(slider.value)));
  document.getElementById("live-now").addEventListener("click", backToLive);
  document.getElementById("play").addEventListener("click", () => {
    if (playing !== null) return stopPlaying();
    document.getElementById("play").textContent = "Pause";
    let next = Number(slider.value) >= Number(slider.max) ? 0 : Number(slider.value);
    const step = () => {
      if (next > Number(slider.max)) return stopPlaying();
      slider.value = String(next);
      showFrame(next);
      next += 1;
    };
    step();
    playing = setInterval(step, 1200);
  });
}

/** The battle changed: fetch this reader's state again (one read of the battle, the map
 * with it), and show its map unless replaying. */
async function refresh() {
  const state = JSON.parse(await fetchText("state.json"));
  if (body.dataset.frame === "live") swapMap(state.map);
  applyState(state);
}

function start() {
  const data = document.getElementById("data");
  if (!data || !mapElement()) return; // the page of a campaign with no battle
  full = box();
  applyState(JSON.parse(data.textContent));
  bindBoard();
  bindReplay();
  bindOrders(() => cards, () => refresh().catch(() => {}));
  bindQuestions(() => refresh().catch(() => {}));
  bindGm(() => refresh().catch(() => {}));
  follow(() => refresh().catch(() => {}));
}

start();
