"""A map's key names a kind of ground in the same words as the pieces' labels on the table."""

from __future__ import annotations

from dataclasses import replace

from bot.rendering.render import legend_entries
from bot.rendering.scene import build_scene
from rules_core.rulesets.impetus.terrain_tables import FEATURES, GRADE_WORDS
from rules_core.state import TerrainFeature
from tests.rendering import states

SQUARE = ((10.0, 10.0), (14.0, 10.0), (14.0, 14.0), (10.0, 14.0))


def test_impetus_keys_each_graded_piece_in_the_words_of_its_label() -> None:
    graded = [f for f in FEATURES.values() if f.grade is not None and f.kind is not None]
    assert {f.kind for f in graded} == {"rough", "wood", "impassable"}
    for feature in graded:
        assert feature.kind is not None
        piece = TerrainFeature("t1", feature.kind, SQUARE, feature.words, {"feature": feature.key})
        state = replace(states.start(), ruleset="impetus", terrain=(piece,))
        words = {entry.words for entry in legend_entries(build_scene(state, (), None, None, ()))}
        key = GRADE_WORDS[feature.kind]
        assert key in words, feature.key
        assert piece.name.endswith(key), (piece.name, key)  # "small broken ground"


def test_a_ruleset_without_its_own_words_keys_ground_in_the_common_words() -> None:
    piece = TerrainFeature("t1", "rough", SQUARE, "scrub", {})
    state = replace(states.start(), terrain=(piece,))
    words = {entry.words for entry in legend_entries(build_scene(state, (), None, None, ()))}
    assert "rough ground" in words
