// The war table's plan for the turn, beside orders.js: for each order planned for a later step,
// "Add else…" (the order form in alternative mode), up/down for its alternatives and an ask-me
// toggle; the standing instructions with Remove buttons, an add form built from the ruleset's
// topics (api/standing: the choices `/standing set` offers as you type) and "Adopt the
// recommended set". Every write goes to the bot's endpoints (bot/web/plan_api.py), which call
// the services of `/order alternative` and `/standing`; the page decides nothing.
import { byId, el, openAlternative, plain, post, refreshNow } from "./orders.js";

function button(words, pressed, clicked) {
  const node = el("button", words);
  node.type = "button";
  if (pressed !== null) node.setAttribute("aria-pressed", String(pressed));
  node.addEventListener("click", async () => {
    node.disabled = true;
    await clicked();
  });
  return node;
}

/** Say the bot's answer under the plans panel; fetch the state again after a write. */
function said(answer) {
  byId("turn-said")?.replaceChildren(el("span", plain(answer.text ?? answer.error)));
  refreshNow();
}

/** The buttons of one planned order: else, ask me, and each alternative's up and down. */
function plannedTools(planned) {
  const which = { step: planned.step, unit: planned.unit, number: planned.number };
  const item = el("li", undefined, "planned");
  item.dataset.unit = planned.unit;
  item.append(el("span", planned.said));
  item.append(button("Add else…", null, () => openAlternative(planned)));
  const asked = planned.consult === true;
  item.append(button("Ask me if it cannot be done", asked, async () =>
    said(await post("ask_me", { ...which, on: !asked }))));
  const alternatives = el("ol", undefined, "alternatives");
  planned.alternatives.forEach((words, n) => {
    const line = el("li", `else ${n + 1}: ${words}`);
    const move = (up) => async () => said(await post("alternative/move", { ...which, alternative: n + 1, up }));
    if (n > 0) line.append(button(`Up: else ${n + 1}`, null, move(true)));
    if (n < planned.alternatives.length - 1) line.append(button(`Down: else ${n + 1}`, null, move(false)));
    alternatives.append(line);
  });
  if (planned.alternatives.length) item.append(alternatives);
  return item;
}

function applyPlans(state) {
  const blocks = [...document.querySelectorAll("#plans .block")];
  state.panels.plans.forEach((block, n) => {
    const planned = (block.orders ?? []).filter((o) => o.step);
    if (!blocks[n] || !planned.length) return;
    const list = el("ul", undefined, "plan-tools");
    for (const order of planned) list.append(plannedTools(order));
    blocks[n].append(list);
  });
}

// --- Standing instructions ------------------------------------------------------------------

function choose(id, label, options, blank) {
  const holder = el("label", `${label} `);
  const box = el("select");
  box.id = id;
  for (const [value, words] of blank === null ? options : [["", blank], ...options]) {
    const option = el("option", words);
    option.value = value;
    box.append(option);
  }
  holder.append(box);
  return [holder, box];
}

/** The add form: a topic, then its choices and conditions, and the reader's own units. */
function addForm(data) {
  const form = el("div", undefined, "standing-add");
  const topics = data.topics.map((t) => [t.id, t.title]);
  const [topicLabel, topic] = choose("standing-topic", "Question", topics, null);
  const [choiceLabel, choice] = choose("standing-choice", "Answer", [], null);
  const [conditionLabel, condition] = choose("standing-condition", "Only when", [], "always");
  const [unitLabel, unit] = choose("standing-unit", "For", data.units, "the whole side");
  const fill = () => {
    const found = data.topics.find((t) => t.id === topic.value);
    const [, choices] = choose("x", "", found?.choices ?? [], null);
    const [, conditions] = choose("x", "", found?.conditions ?? [], "always");
    choice.replaceChildren(...choices.children);
    condition.replaceChildren(...conditions.children);
  };
  topic.addEventListener("change", fill);
  fill();
  const set = button("Set", null, async () => {
    const sent = { topic: topic.value, choice: choice.value };
    if (condition.value) sent.condition = condition.value;
    if (unit.value) sent.unit = unit.value;
    standingSaid(await post("standing/set", sent));
  });
  set.id = "standing-set";
  form.append(topicLabel, choiceLabel, conditionLabel, unitLabel, set);
  return form;
}

function standingSaid(answer) {
  byId("standing-said")?.replaceChildren(el("span", plain(answer.text ?? answer.error)));
  refreshNow();
}

function standingTools(data) {
  const tools = el("div");
  tools.id = "standing-tools";
  const list = el("ul", undefined, "standing-remove");
  for (const instruction of data.instructions) {
    const sent = { topic: instruction.topic, side: instruction.side };
    if (instruction.unit) sent.unit = instruction.unit;
    const item = el("li");
    item.append(button(`Remove: ${instruction.words}`, null, async () =>
      standingSaid(await post("standing/clear", sent))));
    list.append(item);
  }
  tools.append(list, addForm(data));
  if (data.recommended) {
    const adopt = button("Adopt the recommended set", null, async () =>
      standingSaid(await post("standing/recommended", {})));
    adopt.id = "standing-adopt";
    tools.append(adopt);
  }
  const out = el("output");
  out.id = "standing-said";
  out.textContent = byId("standing-said")?.textContent ?? ""; // the last answer stays shown
  tools.append(out);
  return tools;
}

let asked = 0; // the latest api/standing asked: an older answer arriving late is dropped

async function applyStanding() {
  const section = byId("standing");
  if (!section) return;
  const mine = ++asked;
  const answer = await fetch("api/standing", { credentials: "same-origin", cache: "no-store" });
  if (!answer.ok || mine !== asked) return;
  const tools = standingTools(await answer.json());
  const old = byId("standing-tools");
  if (old) old.replaceWith(tools);
  else section.append(tools);
}

/** The state was applied: the plan panel's buttons and the standing instructions' tools, for
 * a member's page (one that may write: it has the order panel). */
export function planApplied(state) {
  if (!byId("order-panel")) return;
  applyPlans(state);
  applyStanding().catch(() => {});
}
