"""/odds through Discord: a player asks the chances of a charge, a shot, a test or an order,
privately, with a bar chart; a unit not theirs is refused; only what their side sees counts."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from rules_core.plugin import Rules
from tests.e2e.test_hands_matrix import hand_of, set_up
from tests.e2e.test_plan_ahead import step_keys, to_turn_one
from tools.harness import Harness, InteractionResult
from tools.skirmish_battle import set_up_battle

PNG = b"\x89PNG\r\n\x1a\n"


async def running(h: Harness) -> None:
    """The skirmish battle of the other e2e tests, started (deployment open)."""
    where = h.channel("punic-wars")
    await set_up_battle(h, where)
    started = await h.slash(h.gm, "battle start", channel=where)
    assert not started.ephemeral


def chart_of(answer: InteractionResult) -> Image.Image:
    """The one attachment of an answer, read back as the PNG it claims to be."""
    (chart,) = answer.files
    assert chart.filename == "odds.png" and chart.data.startswith(PNG)
    image = Image.open(io.BytesIO(chart.data))
    image.verify()
    return Image.open(io.BytesIO(chart.data))


async def test_a_player_gets_the_odds_of_a_charge_privately_with_a_chart(aide: Harness) -> None:
    await running(aide)
    where = aide.channel("punic-wars")
    offered = await aide.autocomplete(aide.alice, "odds charge", "unit", channel=where, unit="")
    assert [c["value"] for c in offered] == ["Red Spearmen", "Red Archers", "Red Horse"]
    targets = await aide.autocomplete(
        aide.alice, "odds charge", "target", channel=where, target="blue"
    )
    assert [c["value"] for c in targets] == ["Blue Warriors", "Blue Slingers", "Blue Riders"]

    answer = await aide.slash(
        aide.alice, "odds charge", channel=where, unit="Red Spearmen", target="Blue Warriors"
    )
    assert answer.ephemeral
    assert "🎲 **Melee: Red Spearmen against Blue Warriors** · Ford" in answer.text
    assert "**Result for Red Spearmen**" in answer.text
    # 3D6 hitting on 4+ and one more hit for charging, against 3D6 on 4+: it wins when the
    # enemy scores no more hits than it does, 42 in 64; a draw when one more, 15 in 64.
    assert "wins    65.6%" in answer.text and "draws   23.4%" in answer.text
    assert "Melee: Red Spearmen against Blue Warriors: 3D6>=4 +1 charged" in answer.text
    assert "Assumed: as if Red Spearmen charged home" in answer.text
    assert chart_of(answer).size[0] == 640


async def test_shots_and_tests_are_answered_or_refused_with_the_reason(aide: Harness) -> None:
    await running(aide)
    where = aide.channel("punic-wars")
    far = await aide.slash(
        aide.alice, "odds shoot", channel=where, unit="Red Archers", target="Blue Slingers"
    )
    assert far.ephemeral and not far.files
    assert far.text == 'No odds: Blue Slingers is 14" away, beyond 12" range.'

    rally = await aide.slash(aide.bob, "odds test", channel=where, unit="Blue Riders")
    assert rally.ephemeral and "**Rally test: Blue Riders**" in rally.text
    assert "3- disordered   50.0%" in rally.text and "4+ rallied      50.0%" in rally.text
    chart_of(rally)


async def test_a_unit_not_yours_is_refused_and_nothing_changes(aide: Harness) -> None:
    await running(aide)
    where = aide.channel("punic-wars")
    before = await aide.slash(aide.gm, "battle status", channel=where)
    refused = await aide.slash(
        aide.alice, "odds charge", channel=where, unit="Blue Warriors", target="Red Spearmen"
    )
    assert refused.ephemeral and not refused.files
    assert refused.text == (
        "There is no unit of yours called **Blue Warriors** on the table; "
        "one of: **Red Archers**, **Red Horse**, **Red Spearmen**."
    )
    outsider = await aide.slash(aide.outsider, "odds test", channel=where, unit="Red Horse")
    assert outsider.ephemeral and "Only a player of this battle" in outsider.text
    after = await aide.slash(aide.gm, "battle status", channel=where)
    assert after.text == before.text


async def test_the_odds_of_an_order_by_its_number(aide: Harness) -> None:
    await running(aide)
    where = aide.channel("punic-wars")
    none = await aide.slash(aide.alice, "odds order", channel=where, number=1)
    assert none.text.startswith("You have no orders given or planned in this battle: give one")
    placed = await aide.slash(
        aide.alice, "order place", channel=where, unit="Red Archers", x=26, y=11
    )
    assert placed.ephemeral
    wrong = await aide.slash(aide.alice, "odds order", channel=where, number=2)
    assert wrong.text == "You have 1 order(s); give 1 to 1."
    no_roll = await aide.slash(aide.alice, "odds order", channel=where, number=1)
    assert no_roll.text == "The skirmish rules give no odds for `place`."


async def test_the_odds_use_only_what_the_asking_side_may_know(
    parley: Rules, aide: Harness
) -> None:
    """Parley's nerve test counts each side's secret swaps: Blue swaps a card (its secret);
    Red's odds leave it out, Blue's and the GM's count it."""
    h, where = aide, aide.channel("hundred-years")
    await set_up(h, where)
    for user, side in ((h.alice, "Red"), (h.bob, "Blue")):
        card = (await hand_of(h, user, where))[0]
        await h.slash(user, "order give", channel=where, kind="play", unit=side, text=card)
        await h.slash(user, "order done", channel=where)
    await h.slash(h.alice, "answer", channel=where, answer="keep")
    await h.slash(h.bob, "answer", channel=where, answer="swap")

    red = await h.slash(h.alice, "odds test", channel=where, unit="Red Herald")
    assert red.ephemeral and "Nerve: Red Herald: D6\n" in red.text + "\n"
    assert "swaps" not in red.text and "4+ holds    50.0%" in red.text
    chart_of(red)
    blue = await h.slash(h.bob, "odds test", channel=where, unit="Blue Herald")
    assert "Nerve: Blue Herald: D6 +1 own swaps" in blue.text
    assert "4+ holds    66.7%" in blue.text
    gm = await h.slash(h.gm, "odds test", channel=where, unit="Red Herald")
    assert "Nerve: Red Herald: D6 -1 swaps by Blue" in gm.text
    assert "4+ holds    33.3%" in gm.text


@pytest.mark.usefixtures("fixed_seed")
async def test_the_odds_of_an_order_planned_for_a_later_step(aide: Harness) -> None:
    """Hail Caesar, Rome's turn 1: the archers' shot planned for the Shooting step, by number."""
    h, where = aide, aide.channel("punic-wars")
    await to_turn_one(h)
    keys = await step_keys(h, h.alice)
    planned = await h.slash(
        h.alice, "order shoot", channel=where,
        unit="Cretan Archers", target="Slingers", step=keys["Shooting"],
    )  # fmt: skip
    assert planned.content.startswith("🗓️ Planned for **Shooting** — **Cretan Archers**")
    answer = await h.slash(h.alice, "odds order", channel=where, number=1)
    assert answer.ephemeral
    assert "🎲 **Shooting: Cretan Archers at Slingers** · Gergovia" in answer.text
    assert "Planned for Shooting: odds as the table stands now." in answer.text
    # Two dice hitting on 5+ (4+, -1 for a target in open order); slingers have no save.
    assert "0 hits   44.4%\n1 hit    44.4%\n2 hits   11.1%" in answer.text
    assert "2D6>=5" in answer.text
    chart_of(answer)
    theirs = await h.slash(h.bob, "odds order", channel=where, number=1)
    assert theirs.text.startswith("You have no orders given or planned in this battle")


@pytest.mark.usefixtures("fixed_seed")
async def test_a_heroic_age_charge_test_and_combat(aide: Harness, fixed_seed: bytes) -> None:
    """Ethandun deployed: the Somerset Fyrd's charge at Ubba's Hird (the charge test, then the
    charge combat as if it went home), an A grade's control test with its +1, a shot out of
    the missiles' 2" range refused."""
    from tests.e2e.sheet_battle import start
    from tests.e2e.test_heroic_age_turn import BATTLE
    from tests.e2e.test_heroic_age_turn import set_up as set_up_heroic

    h, where = aide, aide.channel("hundred-years")
    await set_up_heroic(h)
    await start(h, where, BATTLE, fixed_seed)
    answer = await h.slash(
        h.alice, "odds charge", channel=where, unit="Somerset Fyrd", target="Ubba's Hird"
    )
    assert answer.ephemeral
    assert "🎲 **Charge: Somerset Fyrd at Ubba's Hird** · Ethandun" in answer.text
    # 1 D6, no modifier: 4-6 charges. Then 7 dice hitting on 5-6 (+1 for charging) against
    # the Hird's 15 (+2 Blood Lust, +1 Ubba the heroic champion) and Ubba's automatic hit.
    assert "**Charge test**\n```\n3- fail     50.0%\n4+ charge   50.0%\n```" in answer.text
    assert "**Somerset Fyrd's result**" in answer.text
    assert "-5 or less defeat      35.0%" in answer.text
    assert "**Somerset Fyrd's result after any refight**" in answer.text
    assert "separated (inconclusive twice)    1.8%" in answer.text
    assert "7D6>=5 [+1 dice +1 Charged this turn" in answer.text
    assert "15D6>=5 [+2 dice +2 Blood Lust]" in answer.text
    assert "Assumed: Ubba's Hird is not within 2\" to Somerset Fyrd's front now" in answer.text
    chart_of(answer)
    hearth = await h.slash(
        h.alice, "odds test", channel=where, unit="King's Hearthguard", option="+1"
    )
    # 1 AvD +1 for Ready for Battle, +1 chosen: 3-4 only on a 2, else 5+.
    assert "3-4 free        16.7%\n5+ blood lust   83.3%" in hearth.text
    assert "+1 A grade chose +1" in hearth.text
    assert "takes no control test as it stands" in hearth.text  # King Alfred is with it
    fyrd = await h.slash(h.alice, "odds test", channel=where, unit="Somerset Fyrd", option="+1")
    assert fyrd.text == "No odds: only an A grade may choose +1 or -1; Somerset Fyrd is C."
    far = await h.slash(
        h.alice, "odds shoot", channel=where, unit="Fyrd Archers", target="Danish Bowmen"
    )
    assert far.ephemeral and not far.files
    assert far.text == 'No odds: Danish Bowmen is 13.0" away; range is 2".'
