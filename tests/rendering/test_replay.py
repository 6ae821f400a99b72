"""The replay GIF: one frame per step, under the upload limit, drawn off the event loop."""

from __future__ import annotations

import asyncio
import io
import threading

import pytest
from PIL import Image

from bot.rendering import replay
from bot.rendering.replay import (
    MIN_WIDTH,
    Attempt,
    Frame,
    ReplayTooLarge,
    frame_count,
    next_attempt,
    render_replay,
    render_replay_async,
    thin,
)
from tests.rendering import states


def frames() -> list[Frame]:
    """The table at the start, then a step with moves, a shot and a combat, three times."""
    state, events = states.mid_battle()
    step = Frame(state, events, title="Turn 1 · Movement")
    return [Frame(states.start()), step, step, step]


def test_a_replay_is_a_looping_gif_with_a_frame_per_step() -> None:
    made = render_replay(frames(), width=600)
    image = Image.open(io.BytesIO(made.data))
    assert image.format == "GIF" and image.width == 600
    assert image.n_frames == frame_count(made.data) == made.frames == 4
    assert image.info["loop"] == 0
    assert made.attempt == Attempt(600) and made.tries == 1


def test_the_steps_marks_are_in_their_frame() -> None:
    image = Image.open(io.BytesIO(render_replay(frames(), width=600).data))
    shown = []
    for index in range(2):
        image.seek(index)
        shown.append(image.convert("RGB").tobytes())
    assert shown[0] != shown[1]  # the start, then the moves, shots and combat drawn


def test_a_replay_over_the_limit_is_drawn_smaller_until_it_fits() -> None:
    full = render_replay(frames(), width=900)
    limit = len(full.data) * 3 // 4
    fitted = render_replay(frames(), limit=limit, width=900)
    assert len(fitted.data) <= limit
    assert fitted.tries > 1
    assert fitted.attempt.width < 900
    assert Image.open(io.BytesIO(fitted.data)).n_frames == fitted.frames >= 2


def test_nothing_fits_a_limit_too_small_for_one_frame() -> None:
    with pytest.raises(ReplayTooLarge) as raised:
        render_replay(frames(), limit=1_000, width=500)
    assert raised.value.limit == 1_000 and raised.value.size > 1_000


def test_shrinking_goes_narrower_then_fewer_frames_then_fewer_colours() -> None:
    narrower = next_attempt(Attempt(1000), size=4_000_000, limit=1_000_000, count=40)
    assert narrower is not None and MIN_WIDTH <= narrower.width < 1000 and narrower.stride == 1
    sparser = next_attempt(Attempt(MIN_WIDTH), size=3_000_000, limit=1_000_000, count=40)
    assert sparser == Attempt(MIN_WIDTH, stride=4)
    plainer = next_attempt(Attempt(MIN_WIDTH, stride=8), size=2, limit=1, count=40)
    assert plainer == Attempt(MIN_WIDTH, stride=8, colours=64)
    assert next_attempt(Attempt(MIN_WIDTH, stride=8, colours=16), 2, 1, 40) is None


def test_thinning_keeps_the_first_and_the_last_step() -> None:
    many = [Frame(states.start(), title=str(i)) for i in range(10)]
    assert [f.title for f in thin(many, 4)] == ["0", "4", "8", "9"]
    assert [f.title for f in thin(many, 3)] == ["0", "3", "6", "9"]
    assert thin(many, 1) == many


async def test_drawing_runs_in_a_worker_thread_while_the_loop_keeps_answering(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each frame waits for the event loop to answer before it is drawn: were it drawn on
    the loop's own thread, the loop could not answer and the wait would fail."""
    loop_thread = threading.current_thread()
    answered = threading.Event()
    drawn_in: list[threading.Thread] = []
    draw = replay.draw_frame

    def waiting_draw(
        frame: Frame, attempt: Attempt, step: int, steps: int, *kept: object
    ) -> Image.Image:
        drawn_in.append(threading.current_thread())
        asyncio.run_coroutine_threadsafe(answer(), loop)
        assert answered.wait(30), "the event loop did not answer while a frame was drawn"
        answered.clear()
        return draw(frame, attempt, step, steps, *kept)  # type: ignore[arg-type]

    async def answer() -> None:
        answered.set()

    loop = asyncio.get_running_loop()
    monkeypatch.setattr(replay, "draw_frame", waiting_draw)
    made = await render_replay_async(frames(), width=500)
    assert made.frames == 4
    assert drawn_in and all(thread is not loop_thread for thread in drawn_in)
