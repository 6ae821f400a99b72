// The odds beside the verdict: when the judged order is a charge or a shot, api/judge answers
// with the chances `/odds` gives for it (the bot's odds service, on what this player may see):
// {title, lines: [[label, percent], ...], assumes}, a line with no percent a table's title.
// Built with createElement/textContent; nothing is worked out here.

function cell(tag, text, header) {
  const node = document.createElement(tag);
  node.textContent = text;
  if (header) node.scope = header;
  return node;
}

/** The #odds box, made once just after the verdict. */
function oddsBox() {
  let box = document.getElementById("odds");
  if (box) return box;
  box = document.createElement("section");
  box.id = "odds";
  box.hidden = true;
  box.setAttribute("aria-live", "polite");
  document.getElementById("verdict")?.after(box);
  return box;
}

function tableOf(lines) {
  const table = document.createElement("table");
  const body = document.createElement("tbody");
  for (const [label, chance] of lines) {
    const row = document.createElement("tr");
    if (chance) row.append(cell("td", label), cell("td", chance));
    else {
      const title = cell("th", label, "colgroup");
      title.colSpan = 2;
      row.append(title);
    }
    body.append(row);
  }
  table.append(body);
  return table;
}

/** Show a judgement's odds (a table and what they assume), or hide the box when it has none. */
export function showOdds(odds) {
  const box = oddsBox();
  const lines = Array.isArray(odds?.lines) ? odds.lines : [];
  if (!lines.length) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  const title = document.createElement("h3");
  title.textContent = `Odds: ${odds.title ?? ""}`;
  box.replaceChildren(title, tableOf(lines));
  if (odds.assumes) {
    const assumes = document.createElement("p");
    assumes.className = "assumes";
    assumes.textContent = odds.assumes;
    box.append(assumes);
  }
  box.hidden = false;
}
