"""Crash anywhere: the real bot, in its own process, killed with SIGKILL at 50+ points of a
scripted battle and restarted on the same database, ends where an uninterrupted run ends.

The same script (a skirmish battle: set-up, orders, confirmations, deadlines and reminders,
questions answered by buttons and by a deadline, a GM ruling, the GM ending the battle) is
played twice against the fake Discord with the same dice seed: once without a kill, then with
the bot killed at the Nth event of each process it runs (an event: a write transaction before
its commit, just after a commit, just after Discord answered a request), N drawn from a fixed
schedule (tests/e2e/crash_play.py). At the end:

- every acknowledged order is stored for its step (and used when the step resolved);
- the steps are numbered without gap or repeat, each resolved once;
- the channel shows every step result and question, each once, as in the uninterrupted run;
- the database (battle state, step logs, record, orders, confirmations, deadlines, armies)
  equals the uninterrupted run's.

The other rulesets' scripts are in test_crash_rulesets.py.
"""

from __future__ import annotations

from pathlib import Path

from tests.e2e.crash_play import (
    Kills,
    Step,
    Timeline,
    click,
    end_battle,
    killed_anywhere,
    slash,
    upload,
)
from tools.skirmish_battle import BATTLE, BLUE, BLUE_DEPLOYMENT, CAMPAIGN, RED, RED_DEPLOYMENT

KILLS = Kills(target=60, least=50, most=150)  # 180 events: kill points drawn from 1-6
later = Timeline()
SCRIPT: list[Step] = [
    slash("gm", "campaign create", name=CAMPAIGN, ruleset="skirmish"),
    slash("alice", "campaign join", side="Red"),
    slash("bob", "campaign join", side="Blue"),
    upload("alice", "army import", "red.json", RED),
    upload("bob", "army import", "blue.json", BLUE),
    slash("gm", "battle create", name=BATTLE, army_a="Red Host", army_b="Blue Host"),
    *[slash("alice", "battle deploy", unit=u, at=at) for u, at in RED_DEPLOYMENT.items()],
    upload("bob", "battle deploy-file", "blue-deployment.json", BLUE_DEPLOYMENT),
    slash("gm", "battle start"),
    # Deployment: a reminder, then Bob's confirmation resolves it; Bob answers the initiative.
    slash("alice", "order place", unit="Red Archers", x=26, y=11),
    slash("alice", "order done"),
    later.wait(25),
    slash("bob", "order done"),
    click("bob", "go first"),
    # Turn 1.
    slash("bob", "order move", unit="Blue Slingers", x=24, y=20),
    slash("bob", "order done"),
    slash("bob", "order shoot", unit="Blue Slingers", target="Red Archers"),
    slash("bob", "order done"),
    slash("alice", "order move", unit="Red Horse", x=32, y=16),
    slash("alice", "order done"),
    slash("alice", "order shoot", unit="Red Archers", target="Blue Slingers"),
    slash("alice", "order done"),
    # Turn 2: the initiative question times out; a charge asks Blue a question; a deadline.
    later.wait(25),
    slash("alice", "order charge", unit="Red Horse", target="Blue Riders"),
    slash("alice", "order move", unit="Red Spearmen", x=16, y=16),
    slash("alice", "order done"),
    click("bob", "stand"),
    later.wait(25),
    later.wait(22.5),
    later.wait(1),
    slash("bob", "order move", unit="Blue Warriors", x=16, y=20),
    slash("bob", "order hold", unit="Blue Riders"),
    slash("bob", "order done"),
    slash("bob", "order shoot", unit="Blue Slingers", target="Red Spearmen"),
    slash("bob", "order done"),
    # Turn 3: a GM ruling, a move, then the GM ends the battle.
    slash("gm", "gm ruling", choice="second"),
    slash("alice", "order move", unit="Red Archers", x=26, y=8),
    slash("alice", "order done"),
    end_battle("Blue"),
]


def test_script_is_a_battle_with_every_kind_of_moment() -> None:
    """The script covers orders, confirmations, deadlines, questions, a ruling and the end."""
    labels = " ".join(s.label for s in SCRIPT)
    for moment in ("/order done", "hours pass", "clicks", "/gm ruling", "/battle end", "/order"):
        assert moment in labels


async def test_killed_anywhere_the_battle_ends_as_if_never_killed(tmp_path: Path) -> None:
    reference, _ = await killed_anywhere(SCRIPT, tmp_path, KILLS)
    assert reference.database["battle"][-1][2] == "finished"
