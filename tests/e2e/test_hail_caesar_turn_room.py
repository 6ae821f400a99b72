"""A Hail Caesar move with no room to turn where the unit stands, refused through Discord.

The First Cohort is deployed with the Second Cohort ahead of its left front. Sent up to the
right, two moves away, its turn would swing it into the Second Cohort and, given one move
by the order test, it would stay where it stood (#36, round 48): the `/order give` is
refused privately, saying who is in the way and how to move instead, and that way forward
(straight back, keeping its facing) is taken.
"""

from __future__ import annotations

import pytest

from tests.e2e.sheet_battle import confirm, refused_order
from tests.e2e.test_refusals_way_forward import GALLIC_UNITS, ROMAN_DEPLOYMENT, set_up
from tools.harness import Harness

pytestmark = pytest.mark.usefixtures("fixed_seed")
BATTLE = "Shallow Ford"
# The sample armies on the usual table (48 by 36): the Second Cohort ahead of the First's
# left front, the rest of the Legio out of the way, the Gauls at the far edge.
SPOTS = ([20, 2], [15.8, 5.4], [36, 2], [44, 2], [6, 8], [8, 2])
ROMANS = [dict(placed, at=at) for placed, at in zip(ROMAN_DEPLOYMENT, SPOTS, strict=True)]
GAULS = [
    {"unit": name, "at": [x, 33.5]}
    for name, x in zip(GALLIC_UNITS, (10, 20, 28, 36, 44), strict=True)
]
NO_ROOM = (
    "**First Cohort** cannot move: First Cohort has no room to turn towards that point where "
    "it stands: it would swing into Second Cohort.\n"
    "➡️ To make it possible: move First Cohort without turning first: a point straight ahead "
    "or behind it keeps its facing of 0°; once clear of Second Cohort it has room to turn."
)


async def test_a_turn_with_no_room_is_refused_with_the_way_forward(aide: Harness) -> None:
    h, where = aide, aide.channel("punic-wars")
    await set_up(h, (ROMANS, GAULS), depth=36)
    await confirm(h, where, BATTLE, h.alice)  # Rome's General Advance: none
    refused = await refused_order(h, h.alice, where, "move", "First Cohort", x=28.2, y=7.5)
    assert refused == NO_ROOM
    # Straight back, keeping its facing (``number``): taken.
    back = await h.slash(
        h.alice, "order give", channel=where, kind="move", unit="First Cohort", x=20, y=1.5,
        number=0,
    )  # fmt: skip
    assert back.ephemeral
    assert back.content.startswith('✅ **First Cohort**: moves 0.5"'), back
