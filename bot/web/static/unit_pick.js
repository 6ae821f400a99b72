// A unit parameter aimed by pointing: a unit clicked on the map while its parameter is being
// picked (its "Click a unit on the map" button), or an enemy unit clicked while the order's
// form has a unit parameter (a charge's or a shot's target), fills that parameter with the
// unit's name, as its list would. The server still judges the order.

/**
 * The parameter a click on a unit fills and its value, or null when the click is no aim.
 * @param params the order kind's parameters
 * @param picking the parameter being picked (null: none)
 * @param card the clicked unit's card ({name})
 * @param own whether the reader may order the clicked unit (their own: it opens its orders)
 * @param namesFor the names a parameter's list offers
 */
export function unitAim(params, picking, card, own, namesFor) {
  if (!card) return null;
  const units = params.filter((p) => p.type === "unit");
  const picked = params.find((p) => p.name === picking);
  if (picked && picked.type !== "unit") return null; // a point or a path is being aimed
  const param = picked ?? (own ? null : units[0]);
  if (!param) return null;
  const names = namesFor(param);
  if (names.length && !names.includes(card.name)) return null; // not one its list offers
  return { name: param.name, value: card.name };
}
