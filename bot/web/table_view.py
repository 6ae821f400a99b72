"""What one reader's war table shows, gathered from the services the slash commands call.

Every piece comes through the reader's place, so each service applies that member's view as
for their own command: ``/battle status`` (the battle, in their seat's ``secrets.view``),
``/battle replay`` (the last stage's marks), ``/battle log``, ``/orders mine``,
``/standing list`` and ``/answer``. A spectator reads as an outsider of the open campaign
(the public view), never as the bot (a place without a user, which sees everything).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from bot.db.models import BattleStatus
from bot.errors import UserError
from bot.presentation.standing import instruction_words
from bot.rendering.replay import Frame
from bot.services import Services
from bot.services.battle_state import BattleView
from bot.services.campaigns import Place
from bot.services.intake import OrderView
from bot.services.records import LoggedStep
from bot.services.stages import DecisionView
from bot.services.standing import StandingView
from bot.services.web_links import SPECTATOR, Reader
from bot.web.names import Namer, names_of
from rules_core import registry
from rules_core.render import absent_units
from rules_core.steps import SequenceOfPlay, Step

MARKDOWN = re.compile(r"\*\*|`")

Block = dict[str, Any]  # a panel's entry: title, lines, current (the open step), time


@dataclass(frozen=True)
class Table:
    """Everything one reader's page shows, as the services gave it to that reader."""

    view: BattleView
    frame: Frame  # the table now, with the last resolved step's moves, shots and combats
    stages: int  # frames the replay has (0 before the first step resolves)
    log: tuple[LoggedStep, ...]
    orders: tuple[OrderView, ...]
    standing: tuple[StandingView, ...]
    questions: tuple[DecisionView, ...]
    user_id: int | None
    names: Mapping[int, str] = field(default_factory=dict)  # display names by member id


def seen_place(reader: Reader) -> Place:
    """The place the services read through for this reader: with a user always."""
    user = SPECTATOR if reader.user_id is None else reader.user_id
    return replace(reader.place, user_id=user)


def unmarked(text: str) -> str:
    """Discord's bold and code marks taken out of a service's words, for HTML."""
    return MARKDOWN.sub("", text)


async def gather(services: Services, reader: Reader, namer: Namer | None = None) -> Table:
    """The reader's table now (``NotFound`` when the campaign has no battle in play); its
    players named by ``namer``'s display names."""
    place = seen_place(reader)
    view = await services.battles.view(place)
    frame, stages = Frame(view.state), 0
    if view.status is not BattleStatus.SETUP:
        try:
            replay = await services.aftermath.replay(place)
            # The table as it stands now (a GM's edit since included), with the marks of the
            # step resolved last.
            frame, stages = replace(replay.frames[-1], state=view.state), len(replay.frames)
        except UserError:  # nothing resolved yet
            pass
    turn = view.state.cursor.turn
    log = await services.records.log(place, turn)
    if not log and turn > 0:  # a new turn: its last one's log until a step of it resolves
        log = await services.records.log(place, turn - 1)
    user = reader.user_id
    orders = [] if user is None else await services.play.mine(place, user)
    standing = [] if user is None else await services.standing.shown(place, user)
    questions = _mine(await _asked(services, place))
    named = [side.owner_id for side in view.sides if side.owner_id] + list(view.waiting_for)
    names = names_of(namer, reader.place.guild_id, named)
    return Table(
        view, frame, stages, tuple(log), tuple(orders), tuple(standing), questions, user, names
    )


async def _asked(services: Services, place: Place) -> list[tuple[DecisionView, bool]]:
    try:
        return await services.lookups.questions_for(place)
    except UserError:  # no question open, or only another side's private one
        return []


def _mine(asked: list[tuple[DecisionView, bool]]) -> tuple[DecisionView, ...]:
    return tuple(view for view, theirs in asked if theirs)


def who(user_id: int, names: Mapping[int, str]) -> str:
    """A member as the page names them: their display name, as Discord's messages show it
    (their id when the bot knows no name)."""
    return names.get(user_id) or f"@{user_id}"


def side_blocks(table: Table) -> list[Block]:
    """The sides: who plays each, its army, its declared state and its absent units."""
    view, seat = table.view, table.view.seat
    yours = set(seat.sides) if seat is not None else set()
    blocks = []
    for side in view.sides:
        lines = [f"Played by {who(side.owner_id, table.names)}", f"Army: {side.army_name}"]
        lines += view.side_state.get(side.side_id, ())
        lines += absent_units(view.state, side.side_id)
        title = side.name + (" (yours)" if side.side_id in yours else "")
        blocks.append({"title": title, "lines": lines, "side": side.side_id})
    return blocks


def turn_steps(sequence: SequenceOfPlay, step_id: str) -> list[Step]:
    """The steps of the turn (or of the set-up) the open step belongs to, in order."""
    heads = [h for h in (sequence.turn_start, sequence.first, sequence.setup) if h is not None]
    for head in heads:
        chain: list[Step] = []
        step: Step | None = sequence.step(head)
        while step is not None and step not in chain:
            chain.append(step)
            step = None if step.next is None else sequence.step(step.next)
        if any(s.id == step_id for s in chain):
            return chain
    return [sequence.step(step_id)] if step_id in {s.id for s in sequence.steps} else []


def step_blocks(table: Table) -> list[Block]:
    """The turn's steps, the open one marked with its deadline and who it waits for."""
    view = table.view
    ruleset = registry.get(view.ruleset_id)
    if view.status is BattleStatus.SETUP or ruleset.rules is None:
        return [{"title": view.waiting_step, "lines": [], "current": True}]
    cursor = view.state.cursor
    blocks: list[Block] = []
    for step in turn_steps(ruleset.rules.sequence, cursor.step):
        block: Block = {"title": step.title, "lines": []}
        if step.id == cursor.step:
            waiting = ", ".join(who(u, table.names) for u in view.waiting_for) or "nobody"
            block = {
                "title": view.waiting_step,
                "lines": [f"Waiting for {waiting}"],
                "current": True,
                "time": None if view.deadline_at is None else view.deadline_at.isoformat(),
            }
        blocks.append(block)
    return blocks


def log_blocks(table: Table) -> list[Block]:
    """The turn's resolved steps (the last turn's, before one of this turn resolves)."""
    blocks = []
    for step in table.log:
        missing = [f"No orders from {', '.join(step.missing)}: defaults applied."]
        lines = (missing if step.missing else []) + list(step.lines)
        blocks.append({"title": step.title, "lines": lines or ["Nothing happened."]})
    return blocks


def plan_blocks(table: Table) -> list[Block]:
    """The reader's orders: this step's, then those planned for later steps of the turn."""
    steps: dict[str, list[str]] = {}
    given: dict[str, list[dict[str, Any]]] = {}  # what the page's Withdraw buttons send
    for order in table.orders:
        ask = " (ask me if it cannot be done)" if order.consult else ""
        lines = steps.setdefault(order.step or "This step", [])
        lines.append(f"{order.unit_name} ({order.kind}): {order.summary}{ask}")
        lines += [f"else {n}: {said}" for n, said in enumerate(order.alternatives, start=1)]
        orders = given.setdefault(order.step or "This step", [])
        number = 1 + sum(o["unit"] == order.unit_id for o in orders)
        said = f"{order.unit_name} ({order.kind}): {order.summary}"
        entry: dict[str, Any] = {"unit": order.unit_id, "step": order.step, "number": number}
        entry["said"] = said
        if order.step:  # planned: what the plan panel's ask-me and up/down buttons show
            entry |= {"consult": order.consult, "alternatives": list(order.alternatives)}
        orders.append(entry)
    return [{"title": step, "lines": lines, "orders": given[step]} for step, lines in steps.items()]


def standing_blocks(table: Table) -> list[Block]:
    """The standing instructions the reader may see."""
    lines = [unmarked(instruction_words(v)) for v in table.standing]
    return [{"title": "Standing instructions", "lines": lines}] if lines else []


def question_blocks(table: Table) -> list[Block]:
    """The questions waiting for the reader's answer, with their options and deadline."""
    return [
        {
            "title": unmarked(q.question),
            "lines": [f"{label} (`/answer {value}`)" for value, label in q.options],
            "time": None if q.deadline_at is None else q.deadline_at.isoformat(),
            "ask": asked_json(q),
        }
        for q in table.questions
    ]


def asked_json(question: DecisionView) -> dict[str, Any]:
    """What the page's answer buttons send (``api/answer``) and how the answer is given."""
    return {
        "decision": question.decision_id,
        "answer": question.answer,
        "options": [list(option) for option in question.options],
        "low": question.low,
        "high": question.high,
    }


def panels(table: Table) -> dict[str, list[Block]]:
    """Every side panel's entries, by the id of its section on the page."""
    return {
        "sides": side_blocks(table),
        "steps": step_blocks(table),
        "log": log_blocks(table),
        "plans": plan_blocks(table),
        "standing": standing_blocks(table),
        "questions": question_blocks(table),
    }
