"""``python -m bot demo``: play a sample battle offline through the same services the cogs use.

A temporary database, a GM and two scripted players: the ruleset's sample armies are imported,
deployed across their zones, and each step is given the ruleset's demo orders, confirmed and
resolved. The transcript, the map of every step and the verified battle record are written
to the output folder. No Discord token is needed.

The output folder must be empty or new; with ``--force`` the demo's own files in it (its
step maps, transcript.md and record.json) are replaced and every other file is kept.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, NamedTuple

from bot.db.migrate import upgrade_to_head
from bot.db.session import Database
from bot.errors import UserError
from bot.rendering.render import MapOptions, render_map_async
from bot.services import Services
from bot.services.ai_seat import AI_GENERAL, is_ai
from bot.services.battle_state import BattleView
from bot.services.campaigns import Place
from bot.services.order_params import SLOT_OF, OrderInput
from bot.services.shapes import TypedTerrain
from bot.services.stages import StageReport
from rules_core import registry
from rules_core.orders import Order, path_param
from rules_core.plugin import Rules
from rules_core.state import Group, Leader, Side, Unit
from rules_core.verify import verify

GM, PLAYERS = 1, (2, 3)
PLACE = Place(guild_id=100, channel_id=200)
MAX_STAGES = 400
OWN_FILE = re.compile(r"step-\d{3,}\.png|transcript\.md|record\.json")  # what the demo writes


class DemoFeature(NamedTuple):
    """A terrain feature of the demo table, in fractions of its width and depth."""

    kind: str
    shape: str
    points: tuple[tuple[float, float], ...]  # the centre, or a line's ends
    size: tuple[float, ...] | None
    name: str


# Terrain for the demo table, in fractions of its width and depth, so it fits any measure.
DEMO_TERRAIN = (
    DemoFeature("wood", "rectangle", ((0.375, 0.5),), (1 / 6, 1 / 6), "Thornwood"),
    DemoFeature("hill", "circle", ((0.79, 0.75),), (1 / 12,), "Gallows Hill"),
    DemoFeature("stream", "line", ((0.54, 0.44), (1.0, 0.56)), None, "Mill Stream"),
)


class StepClock:
    """A clock that moves on an hour each time it is asked to."""

    def __init__(self) -> None:
        self._now = datetime(2026, 1, 1, 12, tzinfo=UTC)

    def now(self) -> datetime:
        """The demo's current time."""
        return self._now

    def tick(self) -> None:
        """An hour passes."""
        self._now += timedelta(hours=1)


@dataclass
class Transcript:
    """What the demo writes: lines of text and one map per resolved step."""

    out: Path
    lines: list[str]
    maps: int = 0
    last: StageReport | None = None  # the latest step: whether and how the battle ended

    async def step(self, report: StageReport) -> None:
        """Write down one resolved step and draw its map."""
        self.maps += 1
        self.last = report
        name = f"step-{self.maps:03d}.png"
        options = MapOptions(lost=report.lost, gone=report.gone, after=report.title)
        png = await render_map_async(report.battle.state, report.events, options)
        (self.out / name).write_bytes(png)
        self.lines += [f"## {report.title}", "", *report.lines, "", f"![map]({name})", ""]


def demo_terrain(rules: Rules) -> list[tuple[str, str, str, str | None, str]]:
    """The demo's terrain scaled to the ruleset's usual table, as a GM would type it."""
    width, depth = rules.default_table
    laid = []
    for kind, shape, points, size, name in DEMO_TERRAIN:
        typed = " ".join(f"{x * width:.1f},{y * depth:.1f}" for x, y in points)
        scale = None if size is None else ",".join(f"{v * width:.1f}" for v in size)
        laid.append((kind, shape, typed, scale, name))
    return laid


def order_input(rules: Rules, order: Order) -> OrderInput:
    """A scripted order as the typed slots a player would fill."""
    kind = rules.order_kind(order.kind)
    given: dict[str, Any] = {}
    choices = 0
    for param in kind.params:
        value = order.params.get(param.name)
        if value is None:
            continue
        if param.kind == "point":
            assert isinstance(value, list | tuple)  # the numbers as the script wrote them
            given["x"], given["y"] = value
        elif param.kind == "path":
            points = path_param(order, param.name)
            given["path"] = " ".join(f"{x:g},{y:g}" for x, y in points)
        elif param.kind == "choice":
            given["option2" if choices else "option"] = value
            choices += 1
        else:
            given[SLOT_OF[param.kind]] = value
    return OrderInput(**given)


async def set_up(services: Services, ruleset_id: str, rules: Rules) -> None:
    """Campaign, players, sample armies, a battle with every unit deployed in its zone."""
    armies = rules.sample_armies()
    if len(armies) < 2:
        raise SystemExit(f"The ruleset {ruleset_id} has no sample armies to play a demo with.")
    await services.campaigns.create(PLACE, GM, "Demo campaign", ruleset_id)
    for player, army in zip(PLAYERS, armies, strict=False):
        await services.campaigns.join(PLACE, player, str(army["name"]))
        await services.armies.import_roster(PLACE, player, json.dumps(army).encode(), "army.json")
    names = [str(a["name"]) for a in armies[:2]]
    view = await services.battles.create(PLACE, GM, "Demo battle", names)
    if rules.setup_in_rules:
        return  # the ruleset's own set-up steps lay the terrain and place the units
    for kind, shape, at, size, name in demo_terrain(rules):
        await services.battles.add_terrain(PLACE, GM, TypedTerrain(kind, shape, at, size, name))
    await deploy_in_lines(services, rules, view)


async def deploy_in_lines(services: Services, rules: Rules, view: BattleView) -> None:
    """Each side's units spread along the middle of its deployment zone."""
    units = await services.lookups.roster_units(PLACE, GM)
    width = view.state.battlefield.width
    for side in view.sides:
        zone = rules.deployment_zone(view.state, side.side_id)
        if zone is None:
            raise SystemExit(f"The ruleset gives {side.name} no deployment zone to line up in.")
        y = sum(p[1] for p in zone) / len(zone)
        own = [u for u in units if u[0].startswith(side.side_id)]
        for index, (unit_id, _, _) in enumerate(own):
            x = width * (index + 1) / (len(own) + 1)
            await services.battles.deploy(PLACE, GM, unit_id, f"{x:g},{y:g}", None)


async def play(
    services: Services, rules: Rules, clock: StepClock, turns: int, log: Transcript
) -> BattleView:
    """Scripted players give orders and confirm until the battle ends or the turns run out."""
    report = await services.play.start(PLACE, GM)
    await log.step(report)
    for _ in range(MAX_STAGES):
        report = await ai_steps(services, report, turns, log)
        view = report.battle
        if report.ended is not None or view.state.cursor.turn > turns:
            return view
        clock.tick()
        report = await next_stage(services, rules, view)
        await log.step(report)
    return report.battle


async def hand_to_ai(services: Services, ai: str | None) -> None:
    """``--ai``: the AI general plays the side named (``both``: every side, AI against AI)."""
    if ai is None:
        return
    view = await services.battles.view(PLACE)
    names = [s.name for s in view.sides] if ai.casefold() == "both" else [ai]
    for name in names:
        try:
            await services.battles.hand_over(PLACE, GM, name, AI_GENERAL)
        except UserError as refused:
            raise SystemExit(f"--ai {ai}: {refused}") from None


async def ai_steps(
    services: Services, report: StageReport, turns: int, log: Transcript
) -> StageReport:
    """The steps the AI general plays at once for its sides, each written down; the last."""
    for _ in range(MAX_STAGES):
        if report.ended is not None or report.battle.state.cursor.turn > turns:
            break
        following = await services.general.next_step(report.battle.id)
        if following is None:
            break
        await log.step(following)
        explained = []  # the orders of a step stopped at a question stay sealed till it ends
        if following.battle.state.pending is None:
            explained = await services.general.explained(following.battle.id, following.stage - 1)
        log.lines += [f"- AI: {e.actor}: {e.summary} — {e.reason}" for e in explained]
        log.lines += [""] if explained else []
        report = following
    return report


def ending(last: StageReport, ruleset_name: str, turns: int) -> str:
    """Why the demo's battle ended, in one sentence for the transcript's last line."""
    if last.ended is not None:
        turn = last.battle.state.cursor.turn
        result = last.ended.result.rstrip(".")
        return f"The battle ended in turn {turn} by the rules of {ruleset_name}: {result}."
    if last.battle.state.cursor.turn > turns:
        stopped = f"The demo stopped after {turns} turns (--turns {turns})"
    else:
        stopped = f"The demo stopped after {MAX_STAGES} steps, its limit,"
    return f"{stopped} before either army had won, so the battle is recorded as a draw."


async def next_stage(services: Services, rules: Rules, view: BattleView) -> StageReport:
    """Answer the waiting question, or give every acting side its orders and confirm."""
    state = view.state
    if state.pending is not None:
        asked: StageReport | None = None
        for decision in state.pending.open:  # questions asked together are answered in turn
            owner = GM if decision.who == "gm" else _owner(view, decision.who)
            first = decision.id == state.pending.decision.id
            choice = rules.demo_answer(state) if first else decision.default
            report = await services.play.answer(view.id, view.stage, owner, decision.id, choice)
            asked = report or asked
        assert asked is not None  # the last answer resolves the step
        return asked
    acting = [s for s in view.sides if s.owner_id in view.waiting_for and not is_ai(s.owner_id)]
    for side in acting:
        for order in rules.demo_orders(state, side.side_id):
            actors: tuple[Unit | Leader | Group | Side, ...]
            actors = (*state.units, *state.leaders, *state.groups, *state.sides)
            unit = next(a.name for a in actors if a.id == order.actor)
            await services.play.submit(
                PLACE, side.owner_id, order.kind, unit, order_input(rules, order)
            )
    report = None
    for side in acting:
        report = (await services.play.confirm(PLACE, side.owner_id)).report or report
    if report is None:
        report = await services.gm.force(PLACE, GM)
    return report


def _owner(view: BattleView, side_id: str) -> int:
    return next(s.owner_id for s in view.sides if s.side_id == side_id)


async def run_demo(
    ruleset_id: str, turns: int, out: Path, seed: int = 0, ai: str | None = None
) -> Path:
    """Play the demo and write transcript.md, the maps and record.json into ``out``."""
    rules = registry.get(ruleset_id).rules
    if rules is None:
        raise SystemExit(f"The ruleset {ruleset_id} cannot run battles yet.")
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite+aiosqlite:///{Path(folder) / 'demo.db'}"
        await upgrade_to_head(url)
        db, clock = Database.from_url(url), StepClock()
        try:
            services = Services.build(db, clock=clock)
            name = registry.get(ruleset_id).name
            log = Transcript(out, [f"# Demo: {name}", ""])
            await set_up(services, ruleset_id, rules)
            await hand_to_ai(services, ai)
            final = await play(services, rules, clock, turns, log)
            if final.status.value != "finished":
                ended = await services.gm.end(
                    PLACE, GM, None, f"the demo stops after {turns} turns"
                )
            else:
                ended = None
            record = await services.records.record(PLACE) if ended is None else ended.record
        finally:
            await db.dispose()
    (out / "record.json").write_bytes(record)
    check = verify(json.loads(record))
    log.lines += ["## The record", "", check.text(), ""]
    assert log.last is not None  # play writes down at least the start
    log.lines += ["## How it ended", "", ending(log.last, name, turns), ""]
    (out / "transcript.md").write_text("\n".join(log.lines), encoding="utf-8")
    return out / "transcript.md"


def ruleset_problem(ruleset_id: str) -> str | None:
    """Why the demo cannot play this ruleset, in one line naming those it can; None if it can."""
    playable = [r.id for r in registry.all_rulesets() if r.rules is not None]
    try:
        ruleset = registry.get(ruleset_id)
    except KeyError:
        return f"No ruleset {ruleset_id!r}; the demo plays {', '.join(playable)}."
    if ruleset.rules is None or len(ruleset.rules.sample_armies()) < 2:
        return f"{ruleset.name} cannot play a demo yet; the demo plays {', '.join(playable)}."
    return None


def clear_output(out: Path, force: bool) -> str | None:
    """Make ``out`` ready for a run; why it cannot be used (nothing changed then), else None.

    A folder holding files is refused unless ``force``; then only the demo's own files go, so
    a stale step map of a longer run cannot sit beside the new ones.
    """
    if out.exists() and not out.is_dir():
        return f"{out} is a file, not a folder: choose a folder for --out."
    held = sorted(p.name for p in out.iterdir()) if out.exists() else []
    if held and not force:
        shown = ", ".join(held[:5]) + (f" and {len(held) - 5} more" if len(held) > 5 else "")
        return (
            f"The folder {out} already holds files ({shown}): choose an empty or new --out "
            "folder, or add --force to replace the demo's own files there (its maps, "
            "transcript.md and record.json; other files are kept)."
        )
    for name in held:
        if OWN_FILE.fullmatch(name) and (out / name).is_file():
            (out / name).unlink()
    return None


def main(argv: list[str] | None = None) -> int:
    """Parse the demo's options and run it."""
    parser = argparse.ArgumentParser(prog="python -m bot demo", description=__doc__)
    parser.add_argument("--ruleset", default="skirmish", help="ruleset id (default skirmish)")
    parser.add_argument("--turns", type=int, default=3, help="turns to play (default 3)")
    parser.add_argument(
        "--out", type=Path, default=Path("demo-out"), help="output folder (default demo-out)"
    )
    parser.add_argument(
        "--force", action="store_true", help="replace the demo's own files in a used folder"
    )
    parser.add_argument("--ai", help="the AI general plays this side, or both (AI against AI); #36")
    args = parser.parse_args(argv)
    problem = ruleset_problem(args.ruleset) or clear_output(args.out, args.force)
    if problem is not None:
        parser.exit(2, problem + "\n")
    transcript = asyncio.run(run_demo(args.ruleset, args.turns, args.out, ai=args.ai))
    print(f"Wrote {transcript} and the maps beside it.")
    return 0
