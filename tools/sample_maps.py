"""Render each sample battle's start to ``docs/maps/``: ``python -m tools.sample_maps``.

The README shows these maps; run this again after changing the renderer or a sample battle.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bot.rendering.render import render_map
from rules_core import engine, registry
from rules_core.state import BattleState

DEFAULT_FOLDER = Path(__file__).resolve().parents[1] / "docs" / "maps"


def at_first_step(state: BattleState) -> BattleState:
    """The sample as play begins, so the title names the first step."""
    rules = registry.get(state.ruleset).rules
    return state if rules is None else engine.begin(rules, state)


def sample_battles() -> dict[str, BattleState]:
    """Each ruleset's sample battle, by ruleset id (rulesets without one are left out)."""
    found = {}
    for ruleset in registry.all_rulesets(include_unlisted=True):
        state = ruleset.rules.sample_battle() if ruleset.rules is not None else None
        if state is not None:
            found[ruleset.id] = state
    return found


def main(argv: list[str] | None = None) -> int:
    """Write one PNG per sample battle and print where each went."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_FOLDER, help="folder to write to")
    folder = parser.parse_args(argv).out
    folder.mkdir(parents=True, exist_ok=True)
    for name, state in sample_battles().items():
        path = folder / f"{name}.png"
        path.write_bytes(render_map(at_first_step(state)))
        print(f"{path} ({path.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
