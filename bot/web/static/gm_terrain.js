// The GM's terrain by pointing: pick a kind and a shape, draw it on the map (a polygon or a
// line: click its points; a circle: press at its centre and drag out its radius; a rectangle:
// press at its centre and drag to a corner), name it (set-up) or say why (in battle), Place
// (api/gm/terrain: /battle terrain add or /gm terrain add, the server's choice by the battle's
// phase, through the same service and in its words). The kinds and shapes are the server's.

import { el, svgPoint, toSvg, toTable } from "./orders.js";
import { answerOf, sendChange } from "./gm_send.js";

const SVG = "http://www.w3.org/2000/svg";
let form = null; // the server's offer: {kinds, shapes, lines, setup}
let drawing = false; // the map takes the GM's points, not the board's panning or orders
let drawn = { points: [], size: null }; // a polygon's or line's points; a centre and its size
let pressedAt = null; // a circle's or rectangle's centre while it is dragged out
let refreshTable = () => {};

function byId(id) {
  return document.getElementById(id);
}

function shape() {
  return byId("gm-terrain-shape").value;
}

function option(value, name) {
  const made = el("option", name);
  made.value = value;
  return made;
}

function labelled(words, input) {
  const label = el("label", words);
  label.append(input);
  return label;
}

function button(id, words, act) {
  const made = el("button", words);
  made.id = id;
  made.type = "button";
  made.addEventListener("click", act);
  return made;
}

/** The tool under the GM's panel, built once from the server's offer. */
function build(section) {
  const kind = el("select");
  kind.id = "gm-terrain-kind";
  kind.append(...form.kinds.map((k) => option(k.value, k.name)));
  const shapes = el("select");
  shapes.id = "gm-terrain-shape";
  shapes.append(...form.shapes.map((s) => option(s, s)));
  // A river or a road is a line: the shape follows the kind (the server still checks).
  kind.addEventListener("change", () => {
    if (form.lines.includes(kind.value)) shapes.value = "line";
    else if (shapes.value === "line") shapes.value = "polygon";
    clear();
  });
  shapes.addEventListener("change", clear);
  const words = el("input");
  words.id = form.setup ? "gm-terrain-name" : "gm-terrain-reason";
  words.maxLength = form.setup ? 60 : 200;
  const asked = form.setup ? "Name (shown on the map, optional): " : "Reason (posted with it): ";
  const aim = el("p", "Pick a kind and a shape, then Draw on the map.");
  aim.id = "gm-terrain-aim";
  const place = button("gm-terrain-place", "Place", sendTerrain);
  place.disabled = true;
  const said = el("output");
  said.id = "gm-terrain-said";
  const tool = el("div");
  tool.id = "gm-terrain";
  tool.append(el("h3", "Lay terrain"), labelled("Kind: ", kind), labelled("Shape: ", shapes),
    labelled(asked, words), button("gm-terrain-draw", "Draw on the map", startDrawing),
    button("gm-terrain-clear", "Clear", clear), aim, place, said);
  section.append(tool);
}

/** A new state on a GM's page: the terrain tool, asked of the server once. */
export async function terrainApplied(section) {
  if (form || byId("gm-terrain")) return;
  form = {}; // asked once, even while the answer is on its way
  const answer = await fetch("api/gm/terrain", { credentials: "same-origin", cache: "no-store" });
  const data = await answerOf(answer);
  if (data.error) {
    form = null;
    return;
  }
  form = data;
  build(section);
}

function startDrawing() {
  clear();
  drawing = true;
  const how = {
    polygon: "Click each corner of the outline on the map.",
    line: "Click each point of the line on the map.",
    circle: "Press at the centre on the map and drag out the radius.",
    rectangle: "Press at the centre on the map and drag to a corner.",
  };
  byId("gm-terrain-aim").textContent = how[shape()];
}

function clear() {
  drawn = { points: [], size: null };
  pressedAt = null;
  drawing = false;
  ghost();
  const aim = byId("gm-terrain-aim");
  if (aim) aim.textContent = "Pick a kind and a shape, then Draw on the map.";
  const place = byId("gm-terrain-place");
  if (place) place.disabled = true;
}

function ready() {
  const few = { polygon: 3, line: 2 }[shape()];
  return few ? drawn.points.length >= few : drawn.size !== null;
}

function describe() {
  const at = drawn.points.map(([x, y]) => `(${x}, ${y})`).join(" ");
  const size = drawn.size === null ? "" : ` size ${[drawn.size].flat().join(" by ")}`;
  byId("gm-terrain-aim").textContent = `${shape()} at ${at}${size}`;
  byId("gm-terrain-place").disabled = !ready();
}

function svgNode(tag, attributes) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  return node;
}

/** The piece being drawn, over the map. */
function ghost() {
  const svg = byId("map");
  svg?.querySelector("#gm-terrain-ghost")?.remove();
  if (!svg || drawn.points.length === 0) return;
  const look = { id: "gm-terrain-ghost", fill: "none", stroke: "#8a5a00", "stroke-width": 2,
    "stroke-dasharray": "6 3", "pointer-events": "none" };
  const at = drawn.points.map(toSvg);
  const scale = Number(svg.dataset.table.split(" ")[2]);
  let node;
  if (shape() === "circle") {
    node = svgNode("circle", { ...look, cx: at[0][0], cy: at[0][1], r: (drawn.size ?? 0.2) * scale });
  } else if (shape() === "rectangle") {
    const [w, d] = drawn.size ?? [0.4, 0.4];
    node = svgNode("rect", { ...look, x: at[0][0] - (w * scale) / 2, y: at[0][1] - (d * scale) / 2,
      width: w * scale, height: d * scale });
  } else {
    const tag = shape() === "line" || at.length < 3 ? "polyline" : "polygon";
    node = svgNode(tag, { ...look, points: at.map((p) => p.join(",")).join(" ") });
  }
  svg.append(node);
}

function onMap(event) {
  return drawing && event.target.closest?.("#map");
}

function sized(to) {
  const [[cx, cy]] = drawn.points;
  const round = (v) => Math.max(0.1, Math.round(v * 10) / 10);
  if (shape() === "circle") return round(Math.hypot(to[0] - cx, to[1] - cy));
  return [round(2 * Math.abs(to[0] - cx)), round(2 * Math.abs(to[1] - cy))];
}

function pressed(event) {
  if (!onMap(event)) return;
  event.stopImmediatePropagation(); // not the board's panning, not the GM's unit dragging
  if (shape() !== "circle" && shape() !== "rectangle") return;
  pressedAt = toTable(svgPoint(event));
  drawn = { points: [pressedAt], size: null };
  ghost();
}

function moving(event) {
  if (!pressedAt) return;
  event.stopImmediatePropagation();
  drawn.size = sized(toTable(svgPoint(event)));
  ghost();
}

function released(event) {
  if (!pressedAt) return;
  event.stopImmediatePropagation();
  drawn.size = sized(toTable(svgPoint(event)));
  pressedAt = null;
  ghost();
  describe();
}

function clicked(event) {
  if (!onMap(event)) return;
  event.stopImmediatePropagation(); // a point of the piece, not a unit picked or a point aimed
  event.preventDefault();
  if (shape() !== "polygon" && shape() !== "line") return;
  drawn.points.push(toTable(svgPoint(event)));
  ghost();
  describe();
}

async function sendTerrain() {
  if (!ready()) return;
  const body = { kind: byId("gm-terrain-kind").value, shape: shape(), at: drawn.points };
  if (drawn.size !== null) body.size = drawn.size;
  const words = (byId("gm-terrain-name") ?? byId("gm-terrain-reason")).value;
  if (form.setup && words.trim()) body.name = words.trim();
  if (!form.setup) body.reason = words;
  if (await sendChange("api/gm/terrain", body, "gm-terrain-said")) {
    clear();
    (byId("gm-terrain-name") ?? byId("gm-terrain-reason")).value = ""; // a new piece, its own words
    refreshTable();
  }
}

/** Bind the drawing (it acts only while the GM draws); before the GM's unit dragging, so a
 * press that draws is not also a unit picked up. */
export function bindTerrain(refresh) {
  refreshTable = refresh;
  document.addEventListener("pointerdown", pressed, true);
  document.addEventListener("pointermove", moving, true);
  document.addEventListener("pointerup", released, true);
  document.addEventListener("click", clicked, true);
  // The map is swapped whole when the battle changes: the piece drawn on the new one.
  new MutationObserver(() => ghost()).observe(byId("board"), { childList: true });
}
