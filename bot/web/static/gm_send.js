// The GM's writes and reads: JSON with the page's token, answered in the services' words.

import { csrfToken, plain } from "./orders.js";

/** The JSON of an answer (a refusal of the table's own when it is not JSON). */
export async function answerOf(answer) {
  try {
    return await answer.json();
  } catch {
    return { error: `The table could not answer (${answer.status}); try again.` };
  }
}

/** POST a GM's change (JSON, with the page's token); its answer said in ``saidId``. */
export async function sendChange(url, body, saidId) {
  const answer = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrfToken() },
    body: JSON.stringify(body),
  });
  const data = await answerOf(answer);
  const said = document.getElementById(saidId);
  said.dataset.ok = data.error ? "false" : "true";
  said.textContent = plain(data.text ?? data.error);
  return !data.error;
}
