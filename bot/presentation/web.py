"""The war table's words: the `/battle table` answers and the small pages of a refusal."""

from __future__ import annotations

import html
import re

import discord

from bot.services.web_links import LINK_DAYS, Link


def link_text(link: Link, *, revoked: bool = False) -> str:
    """The private answer to `/battle table`: the link, whose view it shows and when it ends."""
    ends = discord.utils.format_dt(link.expires_at, "f")
    if link.spectator:
        who = (
            f"It is the **public** view of **{link.campaign_name}** (what any spectator sees): "
            "you may share it."
        )
    else:
        who = (
            f"It is **yours only**: anyone with it sees what you see of **{link.campaign_name}**, "
            "so do not share it. `/battle table revoke:true` ends it if it leaks."
        )
    head = (
        f"Your old links are ended. This new one lasts {LINK_DAYS} days."
        if revoked
        else f"The war table of **{link.campaign_name}** (valid {LINK_DAYS} days):"
    )
    return f"{head}\n<{link.url}>\n{who}\nIt works until {ends}."


def revoked_link_text(link: Link) -> str:
    """The private answer to `/battle table revoke:true`: old links ended, the new one."""
    return link_text(link, revoked=True)


_BOLD = re.compile(r"\*\*(.+?)\*\*")
_CODE = re.compile(r"`([^`]+)`")


def _html_of(message: str) -> str:
    """A service's message (Discord markdown: bold and code) as HTML text."""
    escaped = html.escape(message)
    return _CODE.sub(r"<code>\1</code>", _BOLD.sub(r"<strong>\1</strong>", escaped))


def error_page(status: int, title: str, message: str) -> str:
    """A small page for a refused or failed request: what happened and what to do; no
    script, no style, nothing from the request but what the message says."""
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{status} {html.escape(title)} · Aide-de-Camp</title></head>"
        f"<body><main><h1>{html.escape(title)}</h1><p>{_html_of(message)}</p></main></body></html>"
    )
