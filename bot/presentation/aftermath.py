"""Wording of ``/battle replay`` and ``/battle report``: captions, the report's Markdown, files."""

from __future__ import annotations

import io

import discord

from bot.rendering.replay import ReplayImage, ReplayTooLarge
from bot.services.aftermath import AfterAction, Replay, Swing, TurnStory
from bot.services.endings import ArmyLosses
from bot.services.story import TurnChanges

REPORT_FILE = "report.md"
LOG_FILE = "log.md"
START_MAP = "map-start.png"
END_MAP = "map-end.png"
RECORD_FILE = "record.json"
REPLAY_FILE = "replay.gif"
VERIFY = "python -m rules_core.verify record.json"
NO_TURNING_POINT = "No turn moved the balance: no unit was lost, routed or broken."


def replay_caption(replay: Replay, image: ReplayImage) -> str:
    """What the replay shows: how many steps, whose view, and whether it had to be thinned."""
    steps = len(replay.frames) - 1
    whose = "the whole battle" if replay.whole else "as your side may see it, so far"
    text = f"🎞️ Replay of **{replay.battle_name}**: {steps} step{_s(steps)}, {whose}."
    if image.attempt.stride > 1:
        text += f" To fit Discord's upload limit it shows every {image.attempt.stride} steps."
    return text


def replay_attachment(image: ReplayImage) -> discord.File:
    """The replay as a GIF attachment."""
    return discord.File(io.BytesIO(image.data), REPLAY_FILE)


def too_large_text(error: ReplayTooLarge) -> str:
    """Why no replay was sent: even its smallest form is over the upload limit."""
    return (
        f"The replay does not fit in {_mb(error.limit)} even at its smallest "
        f"({_mb(error.size)}). Read the battle turn by turn with `/battle log` instead."
    )


def report_caption(report: AfterAction) -> str:
    """The message the report's files come with: result and losses in two lines."""
    losses = "; ".join(_loss_words(loss) for loss in report.losses)
    return (
        f"📜 After-action report of **{report.battle_name}**: {report.result}.\n"
        f"{losses}. The story is in `{REPORT_FILE}`, every step in `{LOG_FILE}`; check them "
        f"against `{RECORD_FILE}`."
    )


def report_files(report: AfterAction, start_png: bytes, end_png: bytes) -> list[discord.File]:
    """The report, the full log, the maps the report names, and the record that proves it."""
    return [
        discord.File(io.BytesIO(report_markdown(report).encode()), REPORT_FILE),
        discord.File(io.BytesIO(log_markdown(report).encode()), LOG_FILE),
        discord.File(io.BytesIO(start_png), START_MAP),
        discord.File(io.BytesIO(end_png), END_MAP),
        discord.File(io.BytesIO(report.record), RECORD_FILE),
    ]


def report_markdown(report: AfterAction) -> str:
    """The after-action report as Markdown: result, losses, the turning point, what changed
    the battle turn by turn (one sentence each), the biggest swings of luck, the maps and how
    to verify it; the full log is beside it in ``log.md``."""
    point = report.turning_point
    parts = [
        f"# After-action report: {report.battle_name}",
        f"*{report.campaign_name} · {report.ruleset_name}*",
        f"**Result:** {report.result}",
        "## Losses",
        _losses_table(report.losses),
        "## The turning point",
        point.sentence if point else NO_TURNING_POINT,
        "## What changed the battle, turn by turn",
        *map(_changes, report.story),
    ]
    parts += _swings(report.swings)
    parts += [
        "## Maps",
        f"![The table as the battle began]({START_MAP})",
        f"![The table as the battle ended]({END_MAP})",
        "## Verification",
        f"Every step's full log is in `{LOG_FILE}`, and every roll in `{RECORD_FILE}` with the "
        f"revealed seed. Check it: `{VERIFY}`.",
    ]
    return "\n\n".join(parts) + "\n"


def log_markdown(report: AfterAction) -> str:
    """The battle's full log as Markdown: every turn, every step, every line."""
    parts = [f"# The full log: {report.battle_name}", *(_turn(turn) for turn in report.turns)]
    return "\n\n".join(parts) + "\n"


def _losses_table(losses: tuple[ArmyLosses, ...]) -> str:
    rows = ["| Side | Units | Lost |", "| --- | --- | --- |"]
    for loss in losses:
        lost = ", ".join(loss.lost) if loss.lost else "nothing"
        rows.append(f"| {loss.army} | {loss.started} | {len(loss.lost)}: {lost} |")
    return "\n".join(rows)


def _loss_words(loss: ArmyLosses) -> str:
    if not loss.lost:
        return f"{loss.army} lost nothing"
    return f"{loss.army} lost {len(loss.lost)} of {loss.started} units"


def _changes(turn: TurnChanges) -> str:
    heading = "### Set-up" if turn.turn == 0 else f"### Turn {turn.turn}"
    if turn.turning:
        heading += " (the turning point)"
    return "\n\n".join([heading, "\n".join(f"- {line}" for line in turn.sentences)])


def _swings(swings: tuple[Swing, ...]) -> list[str]:
    if not swings:
        return []
    items = [
        f"- **{s.title}**: {s.line} ({'lucky' if s.luck > 0 else 'unlucky'}, "
        f"{s.luck:+.1f} standard deviations from the average)"
        for s in swings
    ]
    return ["## The biggest swings of luck", "\n".join(items)]


def _turn(turn: TurnStory) -> str:
    heading = "### Set-up" if turn.turn == 0 else f"### Turn {turn.turn}"
    steps = []
    for step in turn.steps:
        lines = "\n".join(f"- {line}" for line in step.lines) or "- Nothing happened."
        steps.append(f"#### {step.title}\n\n{lines}")
    return "\n\n".join([heading, *(steps or ["Nothing happened this turn."])])


def _mb(size: int) -> str:
    return f"{size / 1024 / 1024:.1f} MB"


def _s(count: int) -> str:
    return "" if count == 1 else "s"
