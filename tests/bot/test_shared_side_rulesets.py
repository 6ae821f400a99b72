"""A shared side in Pike and shot, the heroic age and Impetus: the GM gives a second player one
group (a wing, a contingent, a command), and the first step in which it has something to order
calls that player to arms naming their part, waits for them and resolves only on their word."""

from __future__ import annotations

import pytest

from bot import demo
from bot.db.models import StageLog
from bot.demo import GM, PLACE, PLAYERS
from bot.services import Services
from bot.services.plans import CallToArms
from bot.services.stages import StageReport, fit_to_column
from rules_core import registry

CAROL = 4
ALICE, BOB = PLAYERS  # the demo's players: Alice has side a, Bob side b
MAX_STEPS = 60


async def shared(services: Services, ruleset: str, group: str) -> str:
    """The ruleset's demo battle with Carol beside Alice, given one of side a's groups; its name."""
    rules = registry.get(ruleset).rules
    assert rules is not None
    await demo.set_up(services, ruleset, rules)
    view = await services.battles.view(PLACE)
    await services.campaigns.join(PLACE, CAROL, view.sides[0].name)
    given = await services.battles.assign(PLACE, GM, group, CAROL)
    assert (given.side_name, given.user_id) == (view.sides[0].name, CAROL)
    return given.group_name


async def until_carol_is_called(
    services: Services,
    calls: list[CallToArms] | None = None,
    turn: int = 0,
    waited: bool = False,
) -> StageReport:
    """Start, and resolve every step until one calls Carol to arms in ``turn`` or later (with
    ``waited``, until one waits for her, once called); everyone awaited confirms, questions
    take the demo's answers. The report of that step; every call made on the way is added to
    ``calls`` if given."""
    called = False
    reports = [await services.play.start(PLACE, GM)]
    rules = registry.get(reports[0].battle.ruleset_id).rules
    assert rules is not None
    for _ in range(MAX_STEPS):
        if calls is not None:
            calls += reports[-1].calls
        view = reports[-1].battle
        now = any(call.user_id == CAROL for call in reports[-1].calls)
        called = called or now
        found = called and CAROL in view.waiting_for if waited else now
        if found and view.state.cursor.turn >= turn:
            return reports[-1]
        if view.state.pending is not None:
            reports.append(await demo.next_stage(services, rules, view))
            continue
        report = None
        for user in view.waiting_for:
            report = (await services.play.confirm(PLACE, user)).report or report
        reports.append(report or await services.gm.force(PLACE, GM))
    raise AssertionError("no step waited for Carol")


@pytest.mark.parametrize(
    ("ruleset", "group"),
    [
        ("pike_and_shot", "a_left"),
        ("heroic_age", "a_aethelnoth_contingent"),
        ("impetus", "a_labienus"),
    ],
)
async def test_the_first_step_with_carol_s_group_calls_and_waits_for_her(
    services: Services, ruleset: str, group: str
) -> None:
    part = await shared(services, ruleset, group)
    calls: list[CallToArms] = []
    opened = await until_carol_is_called(services, calls, waited=True)
    view = opened.battle
    assert CAROL in view.waiting_for
    assert all(call.part == (part,) for call in calls if call.user_id == CAROL), calls
    assert all(part not in call.part for call in calls if call.user_id == ALICE), calls
    for user in view.waiting_for:  # Impetus: her command's own step, awaiting her alone
        if user != CAROL:
            done = await services.play.confirm(PLACE, user)
            assert done.report is None and CAROL in done.waiting_for
    assert (await services.play.confirm(PLACE, CAROL)).report is not None


def test_a_stage_title_longer_than_its_column_is_cut_with_an_ellipsis() -> None:
    """PostgreSQL refused an Impetus set-up step titled with two long army names (102 characters
    in a 100-character column); the title kept is cut to fit."""
    limit = StageLog.title.type.length
    assert limit is not None
    long = "Set-up · 4. Terrain: the defender again — " + "The Arverni and their allies " * 3
    kept = fit_to_column(long, limit)
    assert len(kept) == limit and kept.endswith("…") and kept.startswith(long[:40])
    assert fit_to_column("Turn 1 · Movement", limit) == "Turn 1 · Movement"
