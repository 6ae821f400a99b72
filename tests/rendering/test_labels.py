"""Label placement: labels keep off each other, off units and on the map where they can."""

from __future__ import annotations

from itertools import combinations

from bot.rendering.labels import Box, Occupied, place, spots
from bot.rendering.units import compact, short


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_labels_of_a_close_line_of_units_do_not_overlap() -> None:
    occupied = Occupied((0.0, 0.0, 800.0, 600.0))
    units = [(100.0 + i * 70, 300.0, 160.0 + i * 70, 330.0) for i in range(8)]
    for box in units:
        occupied.add(box)
    labels = [place(occupied, spots(unit, (110.0, 19.0), (0.0, 1.0)), unit) for unit in units]
    assert not any(_overlap(a, b) for a, b in combinations(labels, 2))
    for index, label in enumerate(labels):
        others = units[:index] + units[index + 1 :]
        assert not any(_overlap(label, unit) for unit in others)


def test_the_side_away_from_the_front_is_tried_first() -> None:
    item = (100.0, 100.0, 200.0, 140.0)
    below = spots(item, (150.0, 19.0), (0.0, 1.0))[0]
    above = spots(item, (150.0, 19.0), (0.0, -1.0))[0]
    assert below[1] >= item[3] and above[3] <= item[1]


def test_a_label_as_narrow_as_its_unit_sits_on_it() -> None:
    item = (100.0, 100.0, 200.0, 140.0)
    first = spots(item, (90.0, 19.0), (0.0, 1.0))[0]
    assert item[0] <= first[0] and first[2] <= item[2] and item[1] <= first[1] <= item[3]


def test_off_map_spots_lose_to_spots_on_the_map() -> None:
    occupied = Occupied((0.0, 0.0, 300.0, 300.0))
    item = (10.0, 270.0, 60.0, 295.0)  # in the bottom-left corner
    box = place(occupied, spots(item, (80.0, 19.0), (0.0, 1.0)), item)
    assert box[0] >= 0 and box[3] <= 300


def test_overlap_counts_each_box_once_across_buckets() -> None:
    occupied = Occupied((0.0, 0.0, 1000.0, 1000.0))
    occupied.add((50.0, 50.0, 450.0, 450.0))  # spans many buckets
    assert occupied.overlap((0.0, 0.0, 500.0, 500.0)) == 400.0 * 400.0


def test_short_and_compact_labels() -> None:
    assert short("Household Knights of the Duke", 12) == "Household K…"
    assert compact("Orange band 28") == "OB28"
    assert compact("Red Spearmen") == "Red Spe…"


def test_emoji_are_left_out_of_map_text_and_long_titles_are_cut() -> None:
    from bot.rendering.text import drawable, shortened, width

    assert drawable("Ford 🐎 of the Dead ⚔️") == "Ford of the Dead"
    assert drawable("Vendôme · Turn 1 → 2") == "Vendôme · Turn 1 → 2"
    long = "The Very Long Battle of " * 10
    cut = shortened(long, 20, 300, bold=True)
    assert cut.endswith("…") and width(cut, 20, bold=True) <= 300
    assert shortened("Ford", 20, 300) == "Ford"


def test_the_title_names_the_step_just_resolved() -> None:
    from bot.rendering.scene import title_words
    from tests.rendering import states

    state = states.start()
    left, _ = title_words(state, None, after="Turn 1 · Shooting (Red)")
    assert left.endswith("· after Turn 1 · Shooting (Red)")
    assert "Setup" in title_words(state, None)[0]


def test_a_long_leader_name_is_written_whole_where_there_is_room() -> None:
    from bot.rendering.labels import Occupied
    from bot.rendering.placement import leader_owner, place_all
    from bot.rendering.style import side_style
    from rules_core.rulesets.hail_caesar.sample import sample_battle

    king = next(ld for ld in sample_battle().leaders if len(ld.name) > 16)
    owner = leader_owner(king, (300.0, 300.0), side_style((200, 40, 40)), {})
    label = place_all(Occupied((0.0, 0.0, 600.0, 600.0)), [owner], []).labels[0]
    assert label.name is not None and label.name.text == king.name and label.line is not None
