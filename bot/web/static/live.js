// Follow the battle live: each message of the server's event stream says "it changed";
// the page then fetches its own view again (the message carries nothing secret).

/** Listen to ./events and call `changed` on every message; the browser reconnects itself. */
export function follow(changed) {
  if (!("EventSource" in window)) return null;
  const source = new EventSource("events");
  source.addEventListener("message", () => changed());
  return source;
}
