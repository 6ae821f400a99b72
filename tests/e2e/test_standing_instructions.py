"""Standing instructions through Discord: a Tree of Battles charge response answered at once.

Agincourt as in test_tree_of_battles_turn.py (same layout, orders and fixed seed): England
tells York's Vaward ahead to counter-charge when charged. When Vendôme's Horse charges it, no
button waits for England: the step goes on at once to the combat, the log says the standing
instruction answered, and the record still verifies. ``/standing`` lists, sets and clears, and
refuses another side's unit, an unknown topic and a choice the topic does not offer. One set
while the question it covers waits answers it at once.
"""

from __future__ import annotations

import pytest

from tests.e2e.sheet_battle import (
    check_post,
    confirm,
    end_and_verify,
    full_log,
    give,
    posts,
    question,
    reports,
    start,
)
from tests.e2e.test_tree_of_battles_turn import (
    BATTLE,
    approach_and_shooting,
    command_phase,
    set_up,
    title,
)
from tools.harness import Harness

pytestmark = pytest.mark.usefixtures("fixed_seed")
STANDING_WORDS = "answered by standing instruction: counter-charge (response to a charge)"


def _buttons(h: Harness, where: object) -> int:
    """How many posts show question buttons."""
    return sum(
        any(c.get("custom_id", "").startswith("decide:") for c in m.interactive)
        for m in posts(h, where)  # type: ignore[arg-type]
    )


async def standing_commands(h: Harness) -> None:
    """Autocomplete, refusals that change nothing, set, list and clear."""
    where = h.channel("hundred-years")
    topics = await h.autocomplete(h.alice, "standing set", "topic", channel=where, topic="")
    assert [c["value"] for c in topics] == [
        "charge_response", "after_combat", "control_adjust", "treachery",
    ]  # fmt: skip
    choices = await h.autocomplete(
        h.alice, "standing set", "choice", channel=where, topic="charge_response", choice=""
    )
    assert [c["value"] for c in choices] == ["stand", "evade", "counter_charge", "break"]
    conditions = await h.autocomplete(
        h.alice, "standing set", "condition", channel=where, topic="charge_response", condition=""
    )
    assert "by_mounted" in [c["value"] for c in conditions]
    units = await h.autocomplete(h.alice, "standing set", "unit", channel=where, unit="")
    assert "York's Vaward" in [c["name"] for c in units]
    assert "Vendôme's Horse" not in [c["name"] for c in units]  # only her own

    refusals = {
        "other side's unit": (
            {"topic": "charge_response", "choice": "evade", "unit": "Vendôme's Horse"},
            "**Vendôme's Horse** is not one of your units.",
        ),
        "unknown topic": (
            {"topic": "bribery", "choice": "evade"},
            "The rules ask no questions about **bribery**. Topics: charge_response, "
            "after_combat, control_adjust, treachery.",
        ),
        "choice not offered": (
            {"topic": "charge_response", "choice": "surrender"},
            "**surrender** is not a choice for response to a charge. Choose from: stand, "
            "evade, counter_charge, break.",
        ),
        "other side": (
            {"topic": "charge_response", "choice": "evade", "side": "France"},
            "You can set instructions only for your own side, not **France**.",
        ),
    }
    for name, (options, text) in refusals.items():
        refused = await h.slash(h.alice, "standing set", channel=where, **options)
        assert refused.ephemeral and refused.content == text, name
    listed = await h.slash(h.alice, "standing list", channel=where)
    assert listed.ephemeral and listed.content.startswith("No standing instructions.")

    # A side-wide one, replaced by nothing but cleared; then the unit's own.
    evade = await h.slash(
        h.alice, "standing set", channel=where,
        topic="charge_response", choice="evade", condition="by_mounted",
    )  # fmt: skip
    assert evade.ephemeral and evade.content.startswith(
        "✅ Standing instruction set: **England** · response to a charge: **evade** "
        "if the enemy is mounted."
    )
    cleared = await h.slash(h.alice, "standing clear", channel=where, topic="charge_response")
    assert cleared.ephemeral and cleared.content.startswith("Cleared 1 standing instruction:")
    york = await h.slash(
        h.alice, "standing set", channel=where,
        topic="charge_response", choice="counter-charge", unit="York's Vaward",
    )  # fmt: skip
    assert york.content.startswith(
        "✅ Standing instruction set: **England** · **York's Vaward** · response to a charge: "
        "**counter-charge**."
    )
    mine = await h.slash(h.alice, "standing list", channel=where)
    assert mine.content.splitlines()[1:] == [
        "• **England** · **York's Vaward** · response to a charge: **counter-charge**"
    ]
    theirs = await h.slash(h.bob, "standing list", channel=where)
    assert theirs.content.startswith("No standing instructions.")  # France sees not England's
    gm = await h.slash(h.gm, "standing list", channel=where)
    assert "York's Vaward" in gm.content
    not_his = await h.slash(h.bob, "standing clear", channel=where, side="England")
    assert not_his.ephemeral and not_his.content == "You cannot clear **England**'s instructions."
    assert "York's Vaward" in (await h.slash(h.alice, "standing list", channel=where)).content


async def test_a_charge_response_answered_by_a_standing_instruction(
    aide: Harness, fixed_seed: bytes
) -> None:
    h, where = aide, aide.channel("hundred-years")
    await set_up(h)
    published, _ = await start(h, where, BATTLE, fixed_seed)
    await command_phase(h)
    await approach_and_shooting(h)
    await standing_commands(h)

    moved = await give(h, h.bob, where, "move", "Vendôme's Horse", x=6, y=5.5, option="extra_d6")
    assert moved == "moves 2 AvD + D6 x ½ SF (2.5-8 SF) toward (6, 5.5), 5.4 SF away"
    await confirm(h, where, BATTLE, h.alice, h.bob)
    charge = await give(h, h.bob, where, "charge", "Vendôme's Horse", target="York's Vaward")
    assert charge.startswith("charges York's Vaward")
    buttons = _buttons(h, where)

    # No question to England: the charge, the counter-charge and the combat in one result.
    fought = await confirm(h, where, BATTLE, h.bob)
    check_post(
        h, fought, title("Combat: charges and responses"), "Combat: moves after combat",
        [h.alice],
    )  # fmt: skip
    log = full_log(fought)
    assert f"England chose counter charge, {STANDING_WORDS}" in log
    assert "Vendôme's Horse moves 2.9 SF to (8.5, 4) facing 180°; charges home" in log
    assert _buttons(h, where) == buttons + 1  # only the move after combat asks England
    asked = question(h, where)
    assert "what move after combat?" in asked.content

    # Set while that question waits, an instruction answers it at once: the result is posted.
    before = len(reports(h, where, BATTLE))
    pursue = await h.slash(
        h.alice, "standing set", channel=where, topic="after_combat", choice="pursue"
    )
    assert pursue.ephemeral and pursue.content.startswith("✅ Standing instruction set:")
    (after,) = reports(h, where, BATTLE)[before:]
    check_post(
        h, after, title("Combat: moves after combat"), "Command — action 1", [h.alice, h.bob]
    )
    log = full_log(after)
    assert log[0] == (
        "England chose pursue, answered by standing instruction: pursue (move after combat "
        "(follow up, pursue, halt, fall back))"
    )
    # The pursuit the instruction chose is carried out: the Horse fell back, so the Vaward
    # stays in contact with it (the sheet breaks only retiring troops caught by pursuers).
    assert (
        "York's Vaward moves 1 SF to (8.5, 4) facing 0°; pursues and stays in contact with "
        "Vendôme's Horse: the mêlée goes on (only retiring troops caught by pursuers break)"
    ) in log

    await end_and_verify(h, where, BATTLE, fixed_seed, published, "tree_of_battles")


async def test_help_names_the_questions_standing_instructions_answer(aide: Harness) -> None:
    await aide.slash(aide.gm, "campaign create", name="Gergovia", ruleset="hail_caesar")
    shown = await aide.slash(aide.alice, "help")
    assert "Questions `/standing set` can answer for you, at once: `reroll` (" in shown.text
    assert "`hold_or_retreat`" in shown.text
    assert all(len(m.text) <= 2000 for m in shown.messages)
    refused = await aide.slash(aide.alice, "standing list")
    assert refused.ephemeral and "has no battle in play" in refused.text
