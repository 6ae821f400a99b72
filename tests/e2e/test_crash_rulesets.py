"""Crash anywhere for the sheet rulesets (The Tree of Battles, Hail Caesar, pike and shot, the
heroic age, Impetus): each ruleset's short script (tests/e2e/crash_scripts.py) played
uninterrupted, then with the bot SIGKILLed at drawn events, ends the same
(tests/e2e/crash_play.py); the kills land inside the ruleset's own moments (a command action,
a charge's response, an order test, a card drawn, a private question answered, a plan sealed,
an activation passed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.databases import on_postgres
from tests.e2e.crash_play import Kills, killed_anywhere
from tests.e2e.crash_scripts import SCRIPTS

# CI runs the suite twice, on SQLite then PostgreSQL, with a minute to spare: these scripts
# run in the SQLite pass only. They exercise the rulesets' own steps; the skirmish's crash
# test (test_crash_anywhere.py) still kills the bot on PostgreSQL in the second pass.
pytestmark = pytest.mark.skipif(
    on_postgres(), reason="CI's time: the PostgreSQL pass runs the skirmish's crash test"
)

OWN_MOMENTS = {
    "tree_of_battles": {
        "a command action",
        "a charge declared",
        "a charge response answered",
        "a move after combat chosen",
    },
    "hail_caesar": {
        "a division's orders",
        "an order test",
        "a re-roll answered",
        "shooting and a break test",
    },
    "pike_and_shot": {"a wing order", "a question answered", "a commander's move"},
    "heroic_age": {
        "a card drawn (the god pack)",
        "hands dealt (cards drawn)",
        "a private question answered",
    },
    "impetus": {
        "a set-up step by orders",
        "a plan sealed",
        "an activation passed",
        "a question answered",
    },
}


@pytest.mark.parametrize("ruleset", sorted(SCRIPTS))
async def test_killed_anywhere_the_ruleset_plays_on_as_if_never_killed(
    ruleset: str, tmp_path: Path
) -> None:
    # A few kills per ruleset (CI's time is short), each of its own moments interrupted.
    kills = Kills(target=10, least=6, most=8, every=frozenset(OWN_MOMENTS[ruleset]))
    reference, crashed = await killed_anywhere(SCRIPTS[ruleset](), tmp_path, kills)
    assert reference.database["battle"][-1][2] == "finished"
    # The script reaches the ruleset's own moments, and kills land inside each of them.
    assert OWN_MOMENTS[ruleset] <= set(reference.moments), set(reference.moments)
    assert OWN_MOMENTS[ruleset] <= set(crashed.interrupted), crashed.interrupted
