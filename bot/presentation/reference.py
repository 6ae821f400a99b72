"""How /help and /rules read: the game loop, this ruleset's steps and orders, its tables."""

from __future__ import annotations

from bot.presentation.help import TOUR, loop_text, pack
from bot.services.reference import Table
from rules_core.registry import Ruleset
from rules_core.steps import Actors
from rules_core.tables import ScoreTable

LIMIT = 1990
TOPICS_AS_YOU_TYPE = " (what each asks is offered as you type `topic:`)"
NO_CAMPAIGN = "There is no campaign in this channel: `/campaign create` starts one here."
NO_RULES = "{name} cannot fight battles yet: campaigns, armies and `/roll` work here."
WHO = {
    Actors.BOTH: "every side",
    Actors.ACTIVE: "the side whose turn it is",
    Actors.NOBODY: "nobody (the bot resolves it)",
}


def help_messages(ruleset: Ruleset | None) -> list[str]:
    """/help as messages: the game loop (set-up as the ruleset does it), the tour of the
    features, then the ruleset's steps and orders, packed into as few messages as fit."""
    intro = [loop_text(ruleset), TOUR]
    if ruleset is None:
        return pack([*intro, NO_CAMPAIGN])
    if ruleset.rules is None:
        return pack([*intro, NO_RULES.format(name=ruleset.name)])
    own = _forms(ruleset)
    return pack([*intro, next((t for t in own if len(t) <= LIMIT), own[-1][:LIMIT])])


def _forms(ruleset: Ruleset) -> list[str]:
    """The ruleset's part of /help, fullest first: with who acts
    in each step and each topic's title, then topics by id (titles offered as you type),
    then the steps without who acts."""
    assert ruleset.rules is not None
    head = [f"**{ruleset.name}: the steps and the orders each accepts**"]
    tables = "Tables of the sheet: `/rules table:<name>`."
    topics = ruleset.rules.topics
    asked = "Questions `/standing set` can answer for you, at once: {}."
    full = asked.format(", ".join(f"`{topic.id}` ({topic.title})" for topic in topics))
    brief = asked.format(", ".join(f"`{topic.id}`" for topic in topics)) + TOPICS_AS_YOU_TYPE
    texts = []
    for who_acts, about in ((True, full), (True, brief), (False, brief)):
        lines = [*head]
        for step in ruleset.rules.sequence.steps:
            orders = ", ".join(f"`{kind}`" for kind in step.order_kinds)
            who = WHO.get(step.actors, str(step.actors)) if who_acts else ""
            line = f"• {step.title}:" + (f" {who}" if who else "")
            line += (";" if who and orders else "") + (f" orders {orders}" if orders else "")
            lines.append(line if who or orders else f"• {step.title}: the bot resolves it")
        texts.append("\n".join([*lines, *([about] if topics else []), tables]))
    return texts


def tables_text(ruleset: Ruleset, names: list[str]) -> str:
    """/rules without a table: the names of the ruleset's tables."""
    if not names:
        return f"{ruleset.name} has no tables to show yet."
    listed = ", ".join(f"`{n}`" for n in names)
    return f"The tables of **{ruleset.name}**: {listed}. Show one with `/rules table:<name>`."[
        :LIMIT
    ]


def table_text(ruleset: Ruleset, name: str, table: Table) -> str:
    """One table as the sheet prints it: bands and results, or a grid row by row."""
    title = f"**{name}** ({ruleset.name})"
    if isinstance(table, ScoreTable):
        body = [f"{band.scores}: {band.text or band.result}" for band in table.bands]
        text = "\n".join([title, "```", *body, "```"])
    else:
        header = " | ".join(("", *table.columns))
        rows = [" | ".join((key, *(_cell(c) for c in cells))) for key, cells in table.rows.items()]
        text = "\n".join([title, "```", header.strip(" |"), *rows, "```"])
    if len(text) > LIMIT:
        text = text[: LIMIT - 8].rsplit("\n", 1)[0] + "\n…\n```"
    return text


def _cell(value: object) -> str:
    """A grid cell in words: none as a dash."""
    return "-" if value is None else str(value)
