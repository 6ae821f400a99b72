"""The war table's HTML, written on the server from the same data ``state.json`` carries.

No inline script or style (the Content-Security-Policy forbids both): the page's code is
``/static/table.js``, its look ``/static/table.css``, and its data a JSON block the browser
does not run. Every text is escaped here; the script builds DOM nodes, never HTML.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any, NamedTuple

HEAD = (
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
    '<meta name="viewport" content="width=device-width, initial-scale=1">'
    "<title>{title}</title>{csrf}"
    '<link rel="icon" href="/static/icon.svg" type="image/svg+xml">'
    '<link rel="stylesheet" href="/static/table.css">'
    '<script type="module" src="/static/table.js"></script></head>'
)


class Panel(NamedTuple):
    """A side panel: its section's id, its heading and what it says when it has nothing."""

    id: str
    heading: str
    empty: str


# Each side panel, as a table: its section's id | its heading | what it says when empty.
PANEL_TABLE = """
sides     | Sides                 | No sides yet.
steps     | This turn             | No step is open.
log       | Log                   | No step has resolved yet.
plans     | Your orders           | You have given no orders for this step.
standing  | Standing instructions | No standing instructions.
questions | Questions for you     | No question is waiting for you.
"""
PANELS = tuple(
    Panel(*(cell.strip() for cell in row.split("|"))) for row in PANEL_TABLE.strip().splitlines()
)

TOOLS = (
    '<div class="tools" role="toolbar" aria-label="Zoom">'
    '<button type="button" id="zoom-in" aria-label="Zoom in">+</button>'
    '<button type="button" id="zoom-out" aria-label="Zoom out">−</button>'
    '<button type="button" id="zoom-fit">Fit</button></div>'
)


def block_html(block: dict[str, Any]) -> str:
    """One entry of a panel: its title, its lines, and a time (the open step's deadline)."""
    current = ' aria-current="step"' if block.get("current") else ""
    parts = [f'<div class="block"{current}><h3>{escape(block["title"])}</h3>']
    if block.get("time"):
        parts.append(f'<p>Deadline: <time datetime="{escape(block["time"])}">')
        parts.append(f"{escape(block['time'])}</time></p>")
    if block["lines"]:
        items = "".join(f"<li>{escape(line)}</li>" for line in block["lines"])
        parts.append(f"<ul>{items}</ul>")
    return "".join(parts) + "</div>"


def section_html(section: str, heading: str, empty: str, blocks: list[dict[str, Any]]) -> str:
    """A side panel with its entries, or its words for having none."""
    inner = "".join(block_html(b) for b in blocks) or f'<p class="empty">{escape(empty)}</p>'
    return (
        f'<section id="{section}" data-empty="{escape(empty)}"><h2>{escape(heading)}</h2>'
        f'<div class="blocks">{inner}</div></section>'
    )


def replay_html(frames: int) -> str:
    """The replay's slider over the stored stages, its play button and the way back to live."""
    last = max(frames - 1, 0)
    disabled = "" if frames > 1 else " disabled"
    return (
        '<div id="replay-bar"><button type="button" id="play"' + disabled + ">Play</button>"
        f'<input type="range" id="replay" min="0" max="{last}" value="{last}" step="1"'
        f' aria-label="Replay: stage"{disabled}>'
        '<button type="button" id="live-now" aria-pressed="true">Live</button>'
        '<output id="frame-title" for="replay"></output></div>'
    )


def data_block(state: dict[str, Any]) -> str:
    """The state as a JSON block the browser does not run (``</script>`` cannot end it)."""
    text = json.dumps(state, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    return f'<script type="application/json" id="data">{text}</script>'


def csrf_meta(csrf: str) -> str:
    """The token the page's script sends back with each write (``X-CSRF-Token``)."""
    return f'<meta name="csrf-token" content="{escape(csrf)}">' if csrf else ""


ORDER_PANEL = (
    '<section id="order-panel" hidden aria-live="polite"><h2>Orders</h2>'
    '<div id="order-form"></div><p id="verdict" role="status"></p>'
    '<div class="actions"><button type="button" id="order-submit" disabled>Submit</button>'
    '<button type="button" id="order-close">Close</button></div></section>'
    '<div id="turn-bar"><button type="button" id="done-turn">Done for the turn</button>'
    '<output id="turn-said"></output></div>'
)


def page_html(state: dict[str, Any], svg: str, csrf: str = "") -> str:
    """The whole page: header, the map with its tools and replay bar, the card, the order
    panel and the side panels; ``csrf`` is the session's token for the page's writes."""
    battle = state["battle"]
    sections = "".join(
        section_html(p.id, p.heading, p.empty, state["panels"][p.id]) for p in PANELS
    )
    body = (
        f'<body data-version="{escape(state["version"])}" data-frame="live">'
        f"<header><h1>{escape(battle['name'])}</h1>"
        f'<p id="where">{escape(battle["summary"])}</p></header>'
        f'<main><div id="table-area"><div id="board">{TOOLS}{svg}</div>'
        f"{replay_html(state['replay']['frames'])}</div>"
        '<div id="side"><aside id="card" aria-live="polite"><p class="hint">Hover, tap or focus '
        f"a unit for its card.</p></aside>{ORDER_PANEL if csrf else ''}</div>"
        f'<div id="panels">{sections}</div></main>{data_block(state)}</body></html>'
    )
    title = escape(f"{battle['name']} — war table")
    return HEAD.format(title=title, csrf=csrf_meta(csrf)) + body


def no_battle_html(words: str) -> str:
    """The page of a campaign with no battle in play: what to do instead."""
    return (
        HEAD.format(title="No battle yet — war table", csrf="")
        + '<body data-version="none"><main id="no-battle"><h1>No battle yet</h1>'
        f"<p>{escape(words)}</p><p>This page shows the battle once a GM creates it "
        "(<code>/battle create</code>); reload it then.</p></main></body></html>"
    )
