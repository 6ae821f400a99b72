// Questions on the page: each question waiting for the reader (state.json's questions panel,
// private ones only on their addressee's page: the server decides) gets its options as buttons,
// a point or a unit picked on the map, a number or a facing typed. Every answer goes to
// api/answer, the same service as /answer (its deadline, record and wording).

import { csrfToken, el, plain, svgPoint, toTable } from "./orders.js";

const PAN_PX = 6;
let picking = null; // the question a click on the map answers: {ask, said}
let pressedAt = null;
let refreshTable = () => {};

async function send(ask, choice, said) {
  said.textContent = "Answering…";
  let data = null;
  try {
    const answer = await fetch("api/answer", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrfToken() },
      body: JSON.stringify({ decision: ask.decision, choice }),
    });
    data = await answer.json();
  } catch {
    data = { error: "The table could not answer; try again." };
  }
  picking = null;
  said.dataset.ok = data.error ? "false" : "true";
  said.textContent = plain(data.text ?? data.error);
  if (!data.error) refreshTable();
}

function button(words, action) {
  const node = el("button", words);
  node.type = "button";
  node.addEventListener("click", action);
  return node;
}

/** The typed input of a number or a facing, with its Answer button. */
function typed(ask, said) {
  const box = el("div", undefined, "typed");
  const input = el("input");
  input.type = "number";
  input.step = "any";
  input.setAttribute("aria-label", ask.answer === "facing" ? "Facing (degrees)" : "Number");
  if (ask.low !== null) input.min = String(ask.low);
  if (ask.high !== null) input.max = String(ask.high);
  box.append(input, button("Answer", () => send(ask, Number(input.value), said)));
  return box;
}

/** The ways to answer one question, below its block. */
function answers(ask) {
  const holder = el("div", undefined, "answers");
  holder.dataset.decision = ask.decision;
  const said = saidOutput();
  for (const [value, label] of ask.options) holder.append(button(label, () => send(ask, value, said)));
  if (["point", "unit", "leader"].includes(ask.answer)) {
    const words = ask.answer === "point" ? "Pick the point on the map" : `Click the ${ask.answer} on the map`;
    const pick = button(words, () => {
      picking = { ask, said };
      pick.setAttribute("aria-pressed", "true");
      said.textContent = "Click the map…";
    });
    pick.className = "pick";
    holder.append(pick);
  }
  if (["number", "facing"].includes(ask.answer)) holder.append(typed(ask, said));
  return holder;
}

/** Where the last answer's outcome is said: below the panel's blocks, kept when they are
 * rebuilt (an answer refreshes the panel, its question gone). */
function saidOutput() {
  let said = document.getElementById("answer-said");
  if (!said) {
    said = el("output");
    said.id = "answer-said";
    said.setAttribute("role", "status");
    document.getElementById("questions")?.append(said);
  }
  return said;
}

/** The questions panel was filled again: the answers of each question in it. */
export function questionsApplied(state) {
  if (!csrfToken()) return;
  const blocks = [...document.querySelectorAll("#questions .block")];
  (state.panels.questions ?? []).forEach((block, n) => {
    if (blocks[n] && block.ask) blocks[n].append(answers(block.ask));
  });
  picking = null;
}

/** A click on the map while a question waits for a point or a unit: that is the answer. */
function clicked(event) {
  if (!picking || !event.target.closest?.("#map")) return;
  const moved = pressedAt && Math.hypot(event.clientX - pressedAt[0], event.clientY - pressedAt[1]);
  if (moved > PAN_PX) return; // a pan, not a pick
  const { ask, said } = picking;
  let choice = null;
  if (ask.answer === "point") choice = toTable(svgPoint(event));
  else choice = event.target.closest(".unit")?.dataset.owner ?? null;
  if (choice === null) return;
  event.stopPropagation(); // the answer, not a unit's orders
  send(ask, choice, said);
}

/** Answer on the page when it writes (the server gave it a token). */
export function bindQuestions(refresh) {
  if (!csrfToken()) return;
  refreshTable = refresh;
  // On the document, capturing: before the board's own handlers (orders, cards) see the click.
  document.addEventListener("pointerdown", (event) => { pressedAt = [event.clientX, event.clientY]; }, true);
  document.addEventListener("click", clicked, true);
}
