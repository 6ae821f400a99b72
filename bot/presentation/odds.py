"""/odds as Discord shows it: a table of each result's chance, the rolls behind it, the chart."""

from __future__ import annotations

import io

import discord

from bot.presentation.formatting import plain
from bot.rendering.odds_chart import percent
from bot.services.odds import OddsAnswer
from rules_core.odds import Odds, OddsTable

LIMIT = 2000


def odds_text(answer: OddsAnswer) -> str:
    """The chances as a monospaced table per question, then the rolls and any assumptions."""
    odds = answer.odds
    lines = [f"🎲 **{plain(odds.title)}** · {plain(answer.battle_name)}"]
    if answer.planned_for:
        lines.append(f"Planned for {plain(answer.planned_for)}: odds as the table stands now.")
    for table in odds.tables:
        chances = chance_rows(table)
        width = max((len(label) for label, _ in chances), default=0)
        rows = "\n".join(f"{label:<{width}}  {chance:>6}" for label, chance in chances)
        lines.append(f"**{plain(table.title)}**\n```\n{rows}\n```")
    lines += [f"-# {plain(roll)}" for roll in odds.rolls]
    lines += [f"-# {plain(said)}" for said in assumptions(odds)]
    text = "\n".join(lines)
    return text if len(text) <= LIMIT else text[: LIMIT - 1] + "…"


def chance_rows(table: OddsTable) -> list[tuple[str, str]]:
    """Each result of a table and its chance in percent, as ``/odds`` lists them."""
    return [(c.label, percent(c.percent)) for c in table.chances]


def assumptions(odds: Odds) -> list[str]:
    """What the odds assume, one line a note, as ``/odds`` says it."""
    return [f"Assumed: {note}" for note in odds.notes]


def odds_file(answer: OddsAnswer) -> discord.File:
    """The bar chart as an attachment."""
    return discord.File(io.BytesIO(answer.chart), filename="odds.png")
