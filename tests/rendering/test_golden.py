"""Golden images: a few states must render exactly as the committed PNGs in ``golden/``.

After an intended change to the look of the map, look at the new pictures and regenerate
them with ``UPDATE_GOLDEN=1 python -m pytest tests/rendering/test_golden.py``.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot.rendering import MapOptions, Reach, SideView, render_map
from tests.rendering import states

GOLDEN = Path(__file__).parent / "golden"
WIDTH = 800  # small pictures keep the repository light; the drawing code is the same


def _start() -> bytes:
    return render_map(states.start(), options=MapOptions(width=WIDTH))


def _mid_battle() -> bytes:
    state, events = states.mid_battle()
    return render_map(state, events, MapOptions(width=WIDTH))


def _showcase() -> bytes:
    return render_map(states.showcase(), options=MapOptions(width=WIDTH))


def _zoomed_range() -> bytes:
    state, events = states.mid_battle()
    options = MapOptions(width=WIDTH, area=(4.0, 4.0, 30.0, 26.0), reach=Reach("r2", "range"))
    return render_map(state, events, options)


def _red_view() -> bytes:
    state, events = states.mid_battle()
    riders = states.start().unit("b3")
    view = SideView("red", visible=frozenset({"b1", "b2"}), last_known={"b3": riders})
    options = MapOptions(width=WIDTH, side_view=view, reach=Reach("r3"))
    return render_map(state, events, options)


CASES: dict[str, Callable[[], bytes]] = {
    "start": _start,
    "mid_battle": _mid_battle,
    "showcase": _showcase,
    "zoomed_range": _zoomed_range,
    "red_view": _red_view,
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_golden_image(name: str, tmp_path: Path) -> None:
    data = CASES[name]()
    path = GOLDEN / f"{name}.png"
    if os.environ.get("UPDATE_GOLDEN") == "1":
        path.write_bytes(data)
    assert path.exists(), f"no golden image {path}; run with UPDATE_GOLDEN=1 to create it"
    expected = Image.open(path).convert("RGB")
    actual = Image.open(io.BytesIO(data)).convert("RGB")
    if actual.size != expected.size or ImageChops.difference(actual, expected).getbbox():
        (tmp_path / f"{name}.png").write_bytes(data)
        pytest.fail(f"{name} differs from {path}; this run's picture is {tmp_path / name}.png")
