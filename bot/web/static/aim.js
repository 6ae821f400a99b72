// Aiming a move on the war table: a translucent ghost of the unit's base (its frontage, depth
// and facing from its card) follows the pointer while a point is picked and can be dragged
// after; a handle at its front, or the keys [ and ] (Q and E), turn it. Under it, the shading of
// where the unit can get (api/reach: the rules' own judge, sampled by the server). The browser
// decides nothing: each place the ghost is dropped is judged by api/judge, as a click is.

const SVG = "http://www.w3.org/2000/svg";
const TURN_DEGREES = 15;

// The aim: the unit's card, the point the ghost stands at (null: following the pointer), its
// facing (null: turned toward where it goes, as the rules turn a moving unit), whether the
// player turned it, the reach outline, and what is being dragged ("ghost", "handle" or null).
const aim = { card: null, at: null, pointer: null, facing: null, turned: false, reach: [], dragging: null };
let hooks = null; // {toSvg, toTable, svgPoint, moved(point, facing), redraw()}

function svgNode(tag, attributes) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  return node;
}

/** The compass facing from one table point toward another (0 is up the table, y). */
function towards([x0, y0], [x1, y1]) {
  return ((Math.atan2(x1 - x0, y1 - y0) * 180) / Math.PI + 360) % 360;
}

/** The base's corners on the table at ``centre`` facing ``facing`` (as rules_core.geometry). */
function corners([x, y], [frontage, depth], facing) {
  const angle = (facing * Math.PI) / 180;
  const [fx, fy] = [Math.sin(angle), Math.cos(angle)];
  const [rx, ry] = [fy, -fx];
  const at = (ahead, right) => [x + fx * ahead + rx * right, y + fy * ahead + ry * right];
  const [d, w] = [depth / 2, frontage / 2];
  return [at(d, -w), at(d, w), at(-d, w), at(-d, -w)];
}

function pointsText(points) {
  return points.map((p) => hooks.toSvg(p).map((v) => v.toFixed(1)).join(",")).join(" ");
}

/** Where the ghost stands and how it faces now. */
function pose() {
  const at = aim.at ?? aim.pointer;
  if (!at || !aim.card?.base) return null;
  const facing = aim.turned || aim.facing !== null ? aim.facing : towards(aim.card.xy, at);
  return { at, facing: facing ?? aim.card.base[2] };
}

/** Add the reach's shading and the ghost to the order's overlay layer (the shading first: under). */
export function drawAim(layer) {
  if (!hooks || !aim.card) return;
  if (aim.reach.length > 2) layer.append(svgNode("polygon", { points: pointsText(aim.reach), class: "aim-reach" }));
  const now = pose();
  if (!now) return;
  const [frontage, depth] = aim.card.base;
  const ghost = svgNode("polygon", { points: pointsText(corners(now.at, [frontage, depth], now.facing)), class: "aim-ghost" });
  ghost.id = "aim-ghost";
  const [hx, hy] = hooks.toSvg(corners(now.at, [0, depth + Math.max(frontage, depth) * 0.4], now.facing)[0]);
  const handle = svgNode("circle", { cx: hx.toFixed(1), cy: hy.toFixed(1), r: 7, class: "aim-handle" });
  handle.id = "aim-handle";
  layer.append(ghost, handle);
}

/** Start aiming for ``card``'s unit with a point already chosen (``at``) or not; ``reachUrl``
 * is the api/reach query for its move (null: no shading). */
export async function startAim(card, at, reachUrl) {
  Object.assign(aim, { card, at, pointer: null, facing: null, turned: false, reach: [], dragging: null });
  hooks?.redraw();
  if (!reachUrl) return;
  const answer = await fetch(reachUrl, { credentials: "same-origin", cache: "no-store" }).catch(() => null);
  const data = answer?.ok ? await answer.json().catch(() => null) : null;
  if (aim.card === card && Array.isArray(data?.outline)) {
    aim.reach = data.outline;
    hooks?.redraw();
  }
}

/** Stop aiming: no ghost, no shading. */
export function stopAim() {
  Object.assign(aim, { card: null, at: null, pointer: null, reach: [], dragging: null });
}

/** The point was chosen (a click): the ghost stands there. */
export function placeAim(point) {
  aim.at = point;
}

function moved() {
  const now = pose();
  if (now) hooks.moved(now.at, aim.turned ? Math.round(now.facing) : null);
}

function turn(by) {
  const now = pose();
  if (!now) return;
  Object.assign(aim, { facing: (now.facing + by + 360) % 360, turned: true });
  hooks.redraw();
  if (aim.at) moved();
}

function down(event) {
  const grabbed = event.target.id === "aim-ghost" ? "ghost" : event.target.id === "aim-handle" ? "handle" : null;
  if (!grabbed || !aim.at) return;
  event.stopPropagation(); // a drag of the ghost, not a pan of the map
  event.preventDefault();
  aim.dragging = grabbed;
}

function move(event) {
  if (!aim.card) return;
  const point = hooks.toTable(hooks.svgPoint(event));
  if (aim.dragging) event.stopPropagation();
  if (aim.dragging === "ghost") aim.at = point;
  else if (aim.dragging === "handle") Object.assign(aim, { facing: towards(aim.at, point), turned: true });
  else if (!aim.at && event.target.closest?.("#map")) aim.pointer = point;
  else return;
  hooks.redraw();
  if (aim.dragging) moved(); // judged as it goes (the page's judgement is debounced)
}

function up(event) {
  if (!aim.dragging) return;
  event.stopPropagation();
  aim.dragging = null;
}

function key(event) {
  if (!aim.card || event.target.closest?.("input, select, textarea")) return;
  const by = { "[": -TURN_DEGREES, q: -TURN_DEGREES, Q: -TURN_DEGREES, "]": TURN_DEGREES, e: TURN_DEGREES, E: TURN_DEGREES }[event.key];
  if (by === undefined) return;
  event.preventDefault();
  turn(by);
}

/** Bind the ghost's pointer and keys on the board; ``given`` are the page's coordinates and what
 * a move of the ghost does. */
export function bindAim(board, given) {
  hooks = given;
  board.addEventListener("pointerdown", down, true);
  board.addEventListener("pointermove", move, true);
  board.addEventListener("pointerup", up, true);
  document.addEventListener("keydown", key);
}

function xy(point) {
  return `(${point.map((v) => Math.round(v * 10) / 10).join(", ")})`;
}

/** The rules' facts of a verdict in words: the path, distance used and left, terrain crossed,
 * and where an "as far as possible" move stops. */
export function factsText(verdict) {
  const said = [];
  if (verdict.ok && Array.isArray(verdict.path)) said.push(`Path: ${verdict.path.map(xy).join(" → ")}.`);
  const has = typeof verdict.left === "number";
  if (verdict.ok && typeof verdict.used === "number") said.push(`Used ${verdict.used}${has ? `, ${verdict.left} left` : ""}.`);
  else if (typeof verdict.used === "number" && has) said.push(`Drawn ${verdict.used}; it has ${verdict.left}.`);
  if (verdict.terrain?.length) said.push(`Crosses ${verdict.terrain.join(", ")}.`);
  if (Array.isArray(verdict.stops_at)) said.push(`As far as possible, it stops at ${xy(verdict.stops_at)}.`);
  return said.join(" ");
}
