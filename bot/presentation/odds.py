"""/odds as Discord shows it: a table of each result's chance, the rolls behind it, the chart."""

from __future__ import annotations

import io

import discord

from bot.presentation.formatting import plain
from bot.rendering.odds_chart import percent
from bot.services.odds import OddsAnswer

LIMIT = 2000


def odds_text(answer: OddsAnswer) -> str:
    """The chances as a monospaced table per question, then the rolls and any assumptions."""
    odds = answer.odds
    lines = [f"🎲 **{plain(odds.title)}** · {plain(answer.battle_name)}"]
    if answer.planned_for:
        lines.append(f"Planned for {plain(answer.planned_for)}: odds as the table stands now.")
    for table in odds.tables:
        width = max((len(c.label) for c in table.chances), default=0)
        rows = "\n".join(f"{c.label:<{width}}  {percent(c.percent):>6}" for c in table.chances)
        lines.append(f"**{plain(table.title)}**\n```\n{rows}\n```")
    lines += [f"-# {plain(roll)}" for roll in odds.rolls]
    lines += [f"-# Assumed: {plain(note)}" for note in odds.notes]
    text = "\n".join(lines)
    return text if len(text) <= LIMIT else text[: LIMIT - 1] + "…"


def odds_file(answer: OddsAnswer) -> discord.File:
    """The bar chart as an attachment."""
    return discord.File(io.BytesIO(answer.chart), filename="odds.png")
