"""Render each sample battle, under way, to ``docs/maps/``: ``python -m tools.sample_maps``.

Each battle is played with its ruleset's demo orders and answers (the engine alone, no
database) up to the first step in which a unit leaves the table, or the end of turn
``LAST_TURN``, and that step's map is drawn with its moves, shots and combats. The README
shows these maps and names the step each shows; run this again after changing the renderer,
a sample battle or a ruleset's demo orders.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from bot.rendering.render import MapOptions, render_map
from rules_core import engine, registry
from rules_core.decisions import Answer
from rules_core.events import Event
from rules_core.plugin import Rules
from rules_core.state import BattleState, Unit

DEFAULT_FOLDER = Path(__file__).resolve().parents[1] / "docs" / "maps"
SEED = b"sample-maps"  # fixed, so the pictures only change when the rules or the renderer do
LAST_TURN = 4
MAX_STEPS = 300


@dataclass(frozen=True)
class Shown:
    """The step a sample map shows: the state after it, its events, the units it lost."""

    state: BattleState
    events: tuple[Event, ...] = ()
    lost: tuple[Unit, ...] = ()
    title: str = ""  # "Turn 2 · Charges and melee"; "" for the battle as play begins

    def render(self) -> bytes:
        """The map of this step, as the bot posts it."""
        return render_map(self.state, self.events, MapOptions(lost=self.lost, after=self.title))


def at_first_step(state: BattleState) -> BattleState:
    """The sample as play begins, so the title names the first step."""
    rules = registry.get(state.ruleset).rules
    return state if rules is None else engine.begin(rules, state)


def under_way(state: BattleState) -> Shown:
    """The sample played on with the demo's orders and answers to the first step that takes
    a unit off the table (or the last step of turn ``LAST_TURN``, or the battle's end)."""
    rules = registry.get(state.ruleset).rules
    now = at_first_step(state)
    shown = Shown(now)
    if rules is None:
        return shown
    carried: tuple[Event, ...] = ()  # a step that stopped for a question goes on in the next
    for _ in range(MAX_STEPS):
        if now.outcome is not None or now.cursor.turn > LAST_TURN:
            break
        title = _step_title(rules, now)
        result = _play_step(rules, now)
        events = carried + result.events
        gone = tuple(u for u in now.units_on_table if u.id not in _on_table(result.state))
        kept = {unit.id for unit in result.state.units}
        shown = Shown(result.state, events, tuple(u for u in gone if u.id not in kept), title)
        if gone:
            break
        carried = events if result.state.pending is not None else ()
        now = result.state
    return shown


def _on_table(state: BattleState) -> set[str]:
    return {unit.id for unit in state.units_on_table}


def _step_title(rules: Rules, state: BattleState) -> str:
    """The step about to be resolved, as the bot titles it: "Turn 2 · Movement"."""
    turn = "Set-up" if state.cursor.turn == 0 else f"Turn {state.cursor.turn}"
    return f"{turn} · {engine.waiting(rules, state).title}"


def _play_step(rules: Rules, state: BattleState) -> engine.Resolution:
    """One step: the pending question answered as the demo does, or every waiting side's
    demo orders given."""
    if state.pending is not None:
        decision = state.pending.decision
        reply = Answer(decision.id, rules.demo_answer(state), decision.who)
        return engine.answer(rules, SEED, state, reply)
    sides = engine.waiting(rules, state).sides
    orders = [order for side in sides for order in rules.demo_orders(state, side)]
    return engine.run(rules, SEED, state, orders)


def sample_battles() -> dict[str, BattleState]:
    """Each ruleset's sample battle, by ruleset id (rulesets without one are left out)."""
    found = {}
    for ruleset in registry.all_rulesets(include_unlisted=True):
        state = ruleset.rules.sample_battle() if ruleset.rules is not None else None
        if state is not None:
            found[ruleset.id] = state
    return found


def main(argv: list[str] | None = None) -> int:
    """Write one PNG per sample battle and print where each went and which step it shows."""
    parser = argparse.ArgumentParser(
        prog="python -m tools.sample_maps", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--out", type=Path, default=DEFAULT_FOLDER, help="folder to write to")
    folder = parser.parse_args(argv).out
    folder.mkdir(parents=True, exist_ok=True)
    for name, state in sample_battles().items():
        path = folder / f"{name}.png"
        shown = under_way(state)
        path.write_bytes(shown.render())
        print(f"{path} ({path.stat().st_size // 1024} KB): after {shown.title or 'the start'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
