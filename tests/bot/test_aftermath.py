"""The after-action report's arithmetic: how lucky a roll was, which steps stand, the sections."""

from __future__ import annotations

import pytest

from bot.rendering.replay import Frame
from bot.services.aftermath import Stage, kept_stages, luck, sections, seen_frame
from bot.services.gm import UNDONE
from rules_core.dice import Die, Roll
from rules_core.events import DiceRolled, Private, StepBegan, UnitDestroyed, UnitMoved
from rules_core.render import Renderer
from rules_core.secrets import Viewer
from tests.rendering import states


def test_a_sum_at_its_average_is_neither_lucky_nor_unlucky() -> None:
    even = Roll("Test", "2D6", (Die("D6", 3), Die("D6", 4)), total=7)
    assert luck(even) == pytest.approx(0.0)


def test_a_sums_luck_is_its_distance_from_the_mean_in_standard_deviations() -> None:
    sixes = Roll("Test", "2D6", (Die("D6", 6), Die("D6", 6)), total=12)
    # 2D6: mean 7, variance 2 * 35/12.
    assert luck(sixes) == pytest.approx(5 / (70 / 12) ** 0.5)
    ones = Roll("Test", "2D6", (Die("D6", 1), Die("D6", 1)), total=2)
    assert luck(ones) == pytest.approx(-luck(sixes))


def test_a_pools_luck_counts_successes_against_each_dies_chance() -> None:
    dice = (Die("D6", 5), Die("D6", 6), Die("D6", 4))
    pool = Roll("Melee", "3D6>=4", dice, total=3, target=4, successes=3, mode="pool")
    # 3 dice at 1/2: mean 1.5, variance 0.75.
    assert luck(pool) == pytest.approx(1.5 / 0.75**0.5)


def stage(number: int, trigger: str | None = "orders") -> Stage:
    state = states.start()
    return Stage(number, 1, f"stage {number}", state, state, (), trigger)


def test_an_undo_and_the_step_it_took_back_are_left_out() -> None:
    kept = kept_stages([stage(1), stage(2), stage(3, UNDONE), stage(4)])
    assert [s.number for s in kept] == [1, 4]


def test_sections_follow_the_steps_the_engine_began_across_stages() -> None:
    state = states.start()
    unit = state.units[0].id
    began = StepBegan(1, "melee", "Melee", side=state.sides[0].id)
    first = Stage(1, 1, "Turn 1 · Shooting", state, state, (began,))
    second = Stage(2, 1, "Turn 1 · Shooting", state, state, (UnitDestroyed(unit, "beaten"),))
    found = sections([first, second], Renderer.for_state(state))
    assert [(s.turn, s.title) for s in found] == [(1, f"Turn 1 · Melee ({state.sides[0].name})")]
    assert found[0].events == [UnitDestroyed(unit, "beaten")]
    assert not any(isinstance(e, DiceRolled) for e in found[0].events)


def test_during_play_a_frame_shows_a_side_only_its_own_private_events() -> None:
    """A move private to Blue is drawn in Blue's and the GM's replay, not in Red's."""
    state, _ = states.mid_battle()
    secret = UnitMoved("b1", ((12.0, 30.0), (12.0, 22.0)), 8.0, 180.0)
    frame = Frame(state, (Private("blue", secret),), title="Turn 2 · Movement")
    assert seen_frame(frame, Viewer.of_side("blue")).events == (secret,)
    assert seen_frame(frame, Viewer.game_master()).events == (secret,)
    assert seen_frame(frame, Viewer.of_side("red")).events == ()
    assert seen_frame(frame, Viewer.public()).events == ()
