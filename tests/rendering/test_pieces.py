"""Each ruleset's pieces are drawn as what they are (#32 item 4): baggage, camps, fortifications,
bridges and fords have their own symbols, terrain is named in full words, and whose a piece is
the key says once, not its label on the map."""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache
from typing import Any

import pytest

from bot.rendering import legend, text
from bot.rendering.render import MapOptions, legend_entries
from bot.rendering.scene import build_scene
from bot.rendering.terrain import DRAWERS
from rules_core import registry
from rules_core.rulesets.impetus.terrain_tables import ABBREVIATIONS, FEATURES
from rules_core.state import TERRAIN_KINDS, BattleState, TerrainFeature
from rules_core.terrain_pieces import PIECE, PIECES, WORDS, owner_of, piece_of, words_for
from tests.rendering.helpers import changed, picture
from tests.rules_core.rulesets.impetus.helpers import play

RULESETS = sorted(r.id for r in registry.all_rulesets(include_unlisted=True) if r.rules)
ALL_PIECES = (*TERRAIN_KINDS, *PIECES)
WHOLE = MapOptions(width=1600)


@cache
def gergovia() -> BattleState:
    """The last state of the Impetus golden battle: rolled terrain and both baggage camps."""
    return play().result.state


def pieces_laid(ruleset: str) -> set[str]:
    """The pieces a ruleset puts on the table: its sample battle's, its terrain table's, and
    for Impetus those its pre-battle procedure lays (the sheet's features, baggage, forts)."""
    rules = registry.get(ruleset).rules
    assert rules is not None
    sample = rules.sample_battle()
    found = {piece_of(f) for f in sample.terrain} if sample is not None else set()
    table = rules.terrain_table(sample) if sample is not None else None
    found |= {piece.kind for piece in table.pieces.values()} if table is not None else set()
    if ruleset == "impetus":
        found |= {f.kind for f in FEATURES.values() if f.kind is not None}
        found |= {piece_of(f) for f in gergovia().terrain} | {"fortification"}
    return found


def swatch_bytes(piece: str) -> bytes:
    """The key's sample of a piece, as Pillow draws it."""
    return legend._swatch(piece, "").tobytes()


def test_every_kind_and_piece_is_named_in_full_words() -> None:
    assert set(WORDS) == set(ALL_PIECES)
    for piece in ALL_PIECES:
        assert "_" not in words_for(piece)
        assert not set(words_for(piece).split()) & {w.lower() for w in ABBREVIATIONS}


def test_every_piece_has_a_symbol_of_its_own() -> None:
    assert set(DRAWERS) == set(ALL_PIECES)
    samples = {swatch_bytes(piece) for piece in ALL_PIECES if piece != "linear_obstacle"}
    assert len(samples) == len(ALL_PIECES) - 1


@pytest.mark.parametrize("ruleset", RULESETS)
def test_each_rulesets_pieces_map_to_distinct_symbols(ruleset: str) -> None:
    laid = pieces_laid(ruleset) - {"linear_obstacle"}  # obstacles: one look per style
    assert laid <= set(DRAWERS), f"{ruleset} lays pieces with no symbol"
    assert len({swatch_bytes(piece) for piece in laid}) == len(laid)


def test_impetus_baggage_is_drawn_as_baggage_not_as_a_village() -> None:
    state = gergovia()
    camps = [f for f in state.terrain if piece_of(f) == "baggage"]
    assert sorted(str(owner_of(f)) for f in camps) == ["gauls", "romans"]
    assert all(f.kind == "village" for f in camps)  # fought over as a village, as the sheet says
    as_villages = tuple(
        TerrainFeature(
            f.id, f.kind, f.points, f.name, {k: v for k, v in f.properties.items() if k != PIECE}
        )
        for f in state.terrain
    )
    drawn = picture(state)
    village = picture(replace(state, terrain=as_villages))
    assert changed(drawn, village) is not None


def written(monkeypatch: pytest.MonkeyPatch, state: BattleState) -> list[str]:
    """Every text the renderer writes on the whole map (table and key), as it writes it."""
    texts: list[str] = []
    render_text = text.rendered

    def kept(words: str, *args: Any) -> text.Rendered:
        texts.append(words)
        return render_text(words, *args)

    monkeypatch.setattr(text, "rendered", kept)
    picture(state, options=WHOLE)
    return texts


def test_no_terrain_label_on_the_map_is_abbreviated(monkeypatch: pytest.MonkeyPatch) -> None:
    state = gergovia()
    texts = written(monkeypatch, state)
    names = {f.name for f in state.terrain}
    assert names <= set(texts)  # every piece is named on the map
    assert {"small broken ground", "small difficult ground"} <= names
    short = re.compile(rf"\b({'|'.join(ABBREVIATIONS)})\b")
    assert [text for text in texts if short.search(text)] == []


def test_the_owner_of_a_piece_is_said_once_in_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    state = gergovia()
    sides = [side.name for side in state.sides]
    named = {f.name for f in state.terrain}
    assert not [name for name in named if any(side in name for side in sides)]
    key = [e.words for e in legend_entries(build_scene(state, (), None, None))]
    for side in sides:
        assert [words for words in key if "baggage camp" in words].count(
            f"{side}'s baggage camp"
        ) == 1
    assert sum("baggage camp" in words for words in key) == len(sides)
    texts = written(monkeypatch, state)
    for side in sides:
        assert texts.count(f"{side}'s baggage camp") == 1


def test_a_side_named_in_the_plural_owns_its_piece_with_an_apostrophe() -> None:
    state = gergovia()
    renamed = tuple(replace(side, name=f"{side.name} Legions") for side in state.sides)
    key = [
        e.words for e in legend_entries(build_scene(replace(state, sides=renamed), (), None, None))
    ]
    owned = sorted(words for words in key if "baggage camp" in words)
    assert owned == sorted(f"{side.name}' baggage camp" for side in renamed)  # not "Legions's"
