"""/battle replay through Discord: an animated GIF of the battle, one frame per resolved step.

The battle is the fixed-seed skirmish of ``test_battle_scenario`` (three turns, Red's horse
destroyed in turn 2), ended by the GM.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.rendering.replay import UPLOAD_LIMIT
from tests.e2e import test_battle_scenario as scenario
from tools.fake_discord import interactions
from tools.fake_discord.world import FakeChannel
from tools.harness import Harness
from tools.skirmish_battle import refused, reports, set_up_battle

pytestmark = pytest.mark.usefixtures("fixed_seed")
RENDERING = 120.0  # s: drawing a replay takes seconds on a busy machine (not a timing test)


async def ended_battle(h: Harness, where: FakeChannel, seed: bytes) -> int:
    """Play the scenario's three turns and end the battle; how many step results were posted."""
    h.timeout = RENDERING
    await scenario.play_to_turn_three(h, where, seed)
    asked = await h.slash(h.gm, "battle end", channel=where, reason="Dusk", winner="Blue")
    await h.click(h.gm, asked, label="Confirm")
    return len(reports(h, where))


def gif(data: bytes) -> Image.Image:
    """The attachment opened by Pillow as a GIF."""
    image = Image.open(io.BytesIO(data))
    assert image.format == "GIF"
    return image


async def test_a_finished_battles_replay_is_a_gif_with_a_frame_per_step(
    aide: Harness, fixed_seed: bytes
) -> None:
    h, where = aide, aide.channel("hundred-years")
    resolved = await ended_battle(h, where, fixed_seed)

    replay = await h.slash(h.bob, "battle replay", channel=where)
    assert not replay.ephemeral  # the battle has ended: everyone may watch
    (sent,) = replay.files
    assert sent.filename == "replay.gif"
    assert len(sent.data) <= UPLOAD_LIMIT
    image = gif(sent.data)
    # The table as the battle began, then the table after each resolved step.
    assert image.n_frames == resolved + 1
    assert image.info.get("loop") == 0
    assert replay.content == (f"🎞️ Replay of **Ford**: {resolved} steps, the whole battle.")


async def test_a_replay_is_shrunk_to_the_upload_limit_discord_gives(
    aide: Harness, fixed_seed: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    h, where = aide, aide.channel("hundred-years")
    resolved = await ended_battle(h, where, fixed_seed)
    full = (await h.slash(h.gm, "battle replay", channel=where)).files[0].data

    small = len(full) // 3  # a server whose limit is a third of the full replay
    monkeypatch.setattr(interactions, "ATTACHMENT_SIZE_LIMIT", small)
    shrunk = await h.slash(h.gm, "battle replay", channel=where)
    (sent,) = shrunk.files
    assert len(sent.data) <= small
    image = gif(sent.data)
    assert image.width < gif(full).width
    assert 2 <= image.n_frames <= resolved + 1

    monkeypatch.setattr(interactions, "ATTACHMENT_SIZE_LIMIT", 2_000)
    refusal = await h.slash(h.gm, "battle replay", channel=where)
    assert not refusal.files
    assert refusal.messages[-1].ephemeral
    assert refusal.messages[-1].content.startswith(
        "The replay does not fit in 0.0 MB even at its smallest"
    )


async def test_during_play_a_replay_is_private_and_before_play_there_is_none(
    aide: Harness, fixed_seed: bytes
) -> None:
    h, where = aide, aide.channel("hundred-years")
    h.timeout = RENDERING
    await set_up_battle(h, where)
    none = await refused(h, h.alice, where, "battle replay")
    assert none == (
        "No step of this battle has been resolved yet: there is nothing to replay. Ask again "
        "once the first step is resolved (`/battle status` shows where the battle stands)."
    )

    await scenario.start(h, where, fixed_seed)
    question = await scenario.deployment(h, where)
    await scenario.answer_initiative(h, where, question)
    resolved = len(reports(h, where))

    mine = await h.slash(h.alice, "battle replay", channel=where)
    assert mine.ephemeral  # her side's view, for her alone
    assert mine.content == (
        f"🎞️ Replay of **Ford**: {resolved} steps, as your side may see it, so far."
    )
    assert gif(mine.files[0].data).n_frames == resolved + 1
    gms = await h.slash(h.gm, "battle replay", channel=where)
    assert gms.ephemeral and gms.content.endswith("steps, the whole battle.")
