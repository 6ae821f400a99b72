"""``python -m bench.replay``: the size and drawing time of a 10-turn battle's replay.

A sample battle is played offline through the services (as ``python -m bot demo`` does) for
``--turns`` turns and ended; then its replay is built from the stored stages and drawn under
the upload limit. Prints the replay's size, frames and drawing time: CPU seconds (the
machine may be shared, so wall time is printed only beside it) for the first ``--steps``
steps, beside the target of at most 3 s for 60 steps.

The README's example replay is drawn by this script:
``python -m bench.replay --ruleset skirmish --turns 4 --width 640 --limit 400000 --out
docs/replay/skirmish.gif``.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from bench.report import Figure
from bot.db.migrate import upgrade_to_head
from bot.db.session import Database
from bot.demo import GM, PLACE, StepClock, Transcript, play, set_up
from bot.rendering.replay import START_WIDTH, UPLOAD_LIMIT, ReplayImage, render_replay
from bot.services import Services
from bot.services.aftermath import Replay
from rules_core import registry

T = TypeVar("T")
STEPS = 60  # the replay: 60 steps (61 frames with the start)
CPU_TARGET = 3.0  # seconds of CPU to draw it


@dataclass(frozen=True)
class ReplayFigures:
    """What the benchmark measured: the replay, its drawing time, the battle's length (the
    turn it ended in: an army may break before the turns asked for are played)."""

    ruleset: str
    turns: int
    steps: int
    image: ReplayImage
    seconds: float
    cpu: float = 0.0  # process CPU seconds (Pillow's and Python's, every thread)


class _Quiet(Transcript):
    """A transcript that draws no maps: the benchmark times the replay, not the demo."""

    async def step(self, report: object) -> None:
        self.maps += 1


async def after_playing(ruleset_id: str, turns: int, read: Callable[[Services], Awaitable[T]]) -> T:
    """Play the ruleset's sample battle for ``turns`` turns on a temporary database, end it
    (unless an army broke first), and ``read`` what is wanted of it through the services."""
    rules = registry.get(ruleset_id).rules
    assert rules is not None, f"{ruleset_id} cannot run battles"
    async with on_a_new_database() as (services, _, folder):
        await set_up(services, ruleset_id, rules)
        final = await play(services, rules, StepClock(), turns, _Quiet(folder, []))
        if final.status.value != "finished":
            await services.gm.end(PLACE, GM, None, f"the benchmark stops after {turns} turns")
        return await read(services)


@asynccontextmanager
async def on_a_new_database() -> AsyncIterator[tuple[Services, Database, Path]]:
    """The services on a new SQLite file in a temporary folder (the stepped clock of the
    demo), the database and the folder; all gone afterwards."""
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}"
        await upgrade_to_head(url)
        db = Database.from_url(url)
        try:
            yield Services.build(db, clock=StepClock()), db, Path(folder)
        finally:
            await db.dispose()


async def played_replay(ruleset_id: str, turns: int) -> Replay:
    """The replay of the ruleset's sample battle played for ``turns`` turns."""
    return await after_playing(ruleset_id, turns, lambda s: s.aftermath.replay(PLACE))


def measure(
    ruleset_id: str,
    turns: int,
    limit: int = UPLOAD_LIMIT,
    width: int = START_WIDTH,
    steps: int | None = None,
) -> ReplayFigures:
    """Play, then time drawing the replay of its first ``steps`` steps (all: None), in CPU
    seconds and wall seconds."""
    replay = asyncio.run(played_replay(ruleset_id, turns))
    frames = replay.frames if steps is None else replay.frames[: steps + 1]
    started, cpu = time.perf_counter(), time.process_time()
    image = render_replay(frames, limit, width)
    cpu = time.process_time() - cpu
    seconds = time.perf_counter() - started
    played = frames[-1].state.cursor.turn
    return ReplayFigures(ruleset_id, played, len(frames) - 1, image, seconds, cpu)


def figures(smoke: bool = False) -> list[Figure]:
    """The benchmark's replay figure: CPU seconds to draw a 60-step Tree of Battles replay
    beside its target (``smoke``: a one-turn battle, no target judged)."""
    made = measure("tree_of_battles", 1 if smoke else 10, steps=STEPS)
    name = f"replay GIF of {made.steps} steps: CPU to draw"
    target = f"<= {CPU_TARGET:g} s"
    if smoke or made.steps < STEPS:  # fewer steps than the target's: shown, not judged
        return [Figure(name, made.cpu, "s", target)]
    return [Figure(name, made.cpu, "s", target, made.cpu <= CPU_TARGET)]


def main(argv: list[str] | None = None) -> int:
    """Print the replay's size, frames and time for a battle of ``--turns`` turns."""
    parser = argparse.ArgumentParser(prog="python -m bench.replay", description=__doc__)
    parser.add_argument(
        "--ruleset", default="tree_of_battles", help="ruleset id (default tree_of_battles, "
        "whose sample battle lasts longest: the others' armies often break by turn 3)",
    )  # fmt: skip
    parser.add_argument("--turns", type=int, default=10, help="turns to play (default 10)")
    parser.add_argument("--limit", type=int, default=UPLOAD_LIMIT, help="upload limit, bytes")
    parser.add_argument("--width", type=int, default=START_WIDTH, help="pixels to start at")
    parser.add_argument("--out", type=Path, help="also write the GIF here")
    parser.add_argument(
        "--steps", type=int, default=STEPS, help=f"steps drawn, from the start (default {STEPS})"
    )
    args = parser.parse_args(argv)
    figures = measure(args.ruleset, args.turns, args.limit, args.width, args.steps)
    image = figures.image
    print(f"replay of a {figures.turns}-turn {figures.ruleset} battle ({figures.steps} steps)")
    print(f"  size    {len(image.data) / 1024:.0f} KiB (limit {args.limit / 1024:.0f} KiB)")
    drawn = image.attempt
    print(
        f"  frames  {image.frames}, {drawn.width} px wide, every {drawn.stride} step(s), "
        f"{drawn.colours} colours, {image.tries} tries"
    )
    target = f"(target <= {CPU_TARGET:g} s for {STEPS} steps)"
    print(f"  CPU     {figures.cpu:.2f} s {target}, wall {figures.seconds:.2f} s")
    if args.out is not None:
        args.out.write_bytes(image.data)
        print(f"  written {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
