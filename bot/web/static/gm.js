// The GM's table: every side's orders given and planned (api/gm/orders: /orders all as a GM
// reads it) and /gm move by pointing: drag a unit where it should stand, say why, Move
// (api/gm/move). Only a GM's page builds this panel, and only a GM is answered: the server
// decides, through the same services as the slash commands.

import { csrfToken, el, plain, svgPoint, toSvg, toTable } from "./orders.js";
import { bindTerrain, terrainApplied } from "./gm_terrain.js";
import { answerOf, sendChange } from "./gm_send.js";

const SVG = "http://www.w3.org/2000/svg";
const DRAG_PX = 6;
let drag = null; // a unit being dragged: {unit, from: [clientX, clientY], moved}
let aimed = null; // the move to send: {unit, to}
let dragged = false; // the click that ends a drag is not a click on the unit
let refreshTable = () => {};

function byId(id) {
  return document.getElementById(id);
}

function labelled(words, input) {
  const label = el("label", words);
  label.append(input);
  return label;
}

/** The GM's panel: the order book, then the move tool. */
function panel() {
  const found = byId("gm-table");
  if (found) return found;
  const section = el("section");
  section.id = "gm-table";
  const book = el("ul");
  book.id = "gm-orders";
  const aim = el("p", "Drag a unit on the map to where it should stand.");
  aim.id = "gm-aim";
  const reason = el("input");
  reason.id = "gm-reason";
  reason.maxLength = 200;
  const facing = el("input");
  facing.id = "gm-facing";
  facing.type = "number";
  facing.min = "0";
  facing.max = "360";
  const move = el("button", "Move");
  move.id = "gm-move";
  move.type = "button";
  move.disabled = true;
  move.addEventListener("click", sendMove);
  const said = el("output");
  said.id = "gm-said";
  section.append(el("h2", "GM's table"), el("h3", "Every side's orders"), book, el("h3", "Move a unit"), aim,
    labelled("Reason (posted with the change): ", reason), labelled("Facing (degrees, optional): ", facing),
    move, said);
  byId("panels").prepend(section);
  return section;
}

async function fillOrders() {
  const answer = await fetch("api/gm/orders", { credentials: "same-origin", cache: "no-store" });
  const data = await answerOf(answer);
  const lines = data.lines ?? [data.error];
  byId("gm-orders").replaceChildren(...lines.filter((l) => l).map((l) => el("li", plain(l))));
}

/** A new state (the battle changed, an order was given): on a GM's page (the server's word),
 * the panel and the order book again. */
export function gmApplied(state) {
  if (!csrfToken() || !state.battle.orders?.gm) return;
  terrainApplied(panel()).catch(() => {});
  fillOrders().catch(() => {});
}

async function sendMove() {
  if (!aimed) return;
  const facing = byId("gm-facing").value;
  const body = { unit: aimed.unit, to: aimed.to, reason: byId("gm-reason").value };
  if (facing !== "") body.facing = Number(facing);
  if (await sendChange("api/gm/move", body, "gm-said")) {
    aimed = null;
    byId("gm-move").disabled = true;
    refreshTable();
  }
}

/** The ghost of the dragged unit where it would stand. */
function ghost(to) {
  const svg = byId("map");
  svg.querySelector("#gm-ghost")?.remove();
  if (!to) return;
  const [cx, cy] = toSvg(to);
  const mark = document.createElementNS(SVG, "circle");
  for (const [name, value] of Object.entries({ id: "gm-ghost", cx, cy, r: 12, class: "order-marker" })) {
    mark.setAttribute(name, String(value));
  }
  svg.append(mark);
}

function pressed(event) {
  const unit = event.target.closest?.("#map .unit");
  if (!unit || !byId("gm-table")) return;
  drag = { unit: unit.dataset.owner, from: [event.clientX, event.clientY], moved: false };
  event.stopPropagation(); // the board would pan the map under the dragged unit
}

function moving(event) {
  if (!drag) return;
  if (Math.hypot(event.clientX - drag.from[0], event.clientY - drag.from[1]) > DRAG_PX) drag.moved = true;
  if (drag.moved) ghost(toTable(svgPoint(event)));
}

function released(event) {
  if (!drag) return;
  const done = drag;
  drag = null;
  if (!done.moved) return;
  dragged = true;
  aimed = { unit: done.unit, to: toTable(svgPoint(event)) };
  const [x, y] = aimed.to;
  byId("gm-aim").textContent = `Move ${done.unit} to (${x}, ${y}).`;
  byId("gm-aim").dataset.unit = done.unit;
  byId("gm-move").disabled = false;
}

/** Bind the GM's dragging (it acts only once a GM's panel is on the page). */
export function bindGm(refresh) {
  if (!csrfToken()) return;
  refreshTable = refresh;
  bindTerrain(refresh); // first: a press that draws terrain is not a unit picked up
  document.addEventListener("pointerdown", pressed, true);
  document.addEventListener("pointermove", moving, true);
  document.addEventListener("pointerup", released, true);
  document.addEventListener("click", (event) => {
    if (!dragged) return;
    dragged = false;
    event.stopPropagation(); // the end of a drag, not a click on a unit or a point
  }, true);
  // The map is swapped whole when the battle changes: the aimed ghost drawn on the new one.
  new MutationObserver(() => ghost(aimed?.to)).observe(byId("board"), { childList: true });
}
