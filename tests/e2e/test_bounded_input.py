"""Numbers a GM or player types are finite and bounded; refusals always fit in a message."""

from __future__ import annotations

import pytest

from tools.harness import Harness
from tools.skirmish_battle import posts, refused, set_up_battle

pytestmark = pytest.mark.usefixtures("fixed_seed")


@pytest.fixture
async def battle(aide: Harness) -> Harness:
    """Border Raids with the battle Ford set up and started."""
    await set_up_battle(aide, aide.channel("hundred-years"))
    await aide.slash(aide.gm, "battle start", channel=aide.channel("hundred-years"))
    return aide


@pytest.mark.parametrize("reminders", ["nan", "inf", "1e9", "24,nan", "-1", "0"])
async def test_reminders_must_be_finite_and_bounded(battle: Harness, reminders: str) -> None:
    """`nan`, `inf` or 1e9 hours would stop every step from opening: refused, nothing stored."""
    h, where = battle, battle.channel("hundred-years")
    text = await refused(h, h.gm, where, "campaign deadlines", reminders=reminders)
    assert "reminder times" in text
    shown = await h.slash(h.gm, "campaign deadlines", channel=where, reminders="24,1")
    assert "24" in shown.text


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e9", "9" * 60])
async def test_gm_set_values_bounded(battle: Harness, value: str) -> None:
    """A status of `nan` or 1e9 would break every map: refused before anything is written."""
    h, where = battle, battle.channel("hundred-years")
    before = len(posts(h, where))
    text = await refused(
        h, h.gm, where, "gm set", unit="Red Spearmen", field="stamina", value=value, reason="x"
    )
    assert "status number runs from" in text
    assert len(posts(h, where)) == before


@pytest.mark.parametrize(
    "zoom", ["10,10 10,10", "10,10 10.2,10.2", "0,0 48,0.5", "10,10 13,13", "-500,-500 -400,-400"]
)
async def test_map_zoom_too_small_refused(battle: Harness, zoom: str) -> None:
    """A zero or tiny zoom area divides by zero or asks for gigabytes: refused, saying why."""
    h, where = battle, battle.channel("hundred-years")
    text = await refused(h, h.alice, where, "battle map", zoom=zoom)
    assert "Zoom to an area at least 4 by 4" in text


async def test_map_zoom_clipped_to_the_table(battle: Harness) -> None:
    """A zoom reaching past the table is drawn from the table's part of it."""
    h, where = battle, battle.channel("hundred-years")
    shown = await h.slash(h.alice, "battle map", channel=where, zoom="-100,-100 20,20")
    assert shown.files and shown.files[0].data.startswith(b"\x89PNG")


async def test_error_echoing_long_input_is_delivered(battle: Harness) -> None:
    """An error that repeats a 3,000-character name still reaches the user, cut to fit."""
    h, where = battle, battle.channel("hundred-years")
    text = await refused(h, h.alice, where, "army show", name="x" * 3000)
    assert text.startswith("There is no army called") and len(text) <= 2000
