"""`python -m bot demo` battles: no two friendly units overlap at the end of any step (issue 19).

The demo deploys each side in a line across its zone and plays the rulesets' demo policy
through the services. With this seed, the Hail Caesar demo's turn-1 charges put Arverni
Warband and Carnutes Warband 0.29 sq in into each other before charges looked for room.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import bot.services.battles
from bot.demo import run_demo
from rules_core.verify import replayed
from tests.rules_core.test_friends_apart import overlaps_by_step

SEEDS = {
    "hail_caesar": bytes([3] * 32),
    "tree_of_battles": bytes([2] * 32),
    "impetus": bytes([5] * 32),
}


@pytest.mark.parametrize("ruleset", sorted(SEEDS))
async def test_no_friends_overlap_after_any_step_of_the_demo(
    ruleset: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The seed is the one edge of the bot's randomness (as the e2e fixed_seed fixture).
    monkeypatch.setattr(bot.services.battles, "new_seed", lambda: SEEDS[ruleset])
    await run_demo(ruleset, 3, tmp_path)
    record = json.loads((tmp_path / "record.json").read_text(encoding="utf-8"))
    states = list(replayed(record))
    assert len(states) > 20
    assert overlaps_by_step(states) == []
