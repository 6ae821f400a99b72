"""rules_core/README.md's "Where things go" names files and names that exist where it says."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "rules_core" / "README.md").read_text()
SECTION = README.split("## Where things go", 1)[1].split("\n## ", 1)[0]

# Names the table says live in a file, checked against that file's source.
DEFINED_IN = {
    "RULESET": "rules_core/rulesets/skirmish/__init__.py",
    "is_gm": "bot/checks.py",
    "ShotMark": "rules_core/events.py",
    "CombatMark": "rules_core/events.py",
    "read_events": "bot/rendering/overlays.py",
    "MapOptions": "bot/rendering/render.py",
    "legend_entries": "bot/rendering/render.py",
    "CampaignSettings": "bot/services/settings.py",
    "Parameter": "rules_core/plugin.py",
}


def test_the_section_answers_the_four_questions() -> None:
    rows = [line.split("|")[1].strip() for line in SECTION.splitlines() if line.startswith("| a ")]
    assert rows == ["a ruleset", "a slash command", "a map overlay", "a campaign setting"]


def test_every_path_it_names_exists() -> None:
    paths = set(re.findall(r"`((?:bot|cogs|rules_core|tests)/[^`<]*?)`", SECTION))
    assert len(paths) >= 10
    missing = sorted(p for p in paths if not (ROOT / p.split(" ")[0]).exists())
    assert missing == []


def test_every_name_it_places_is_defined_there() -> None:
    for name, path in DEFINED_IN.items():
        assert re.search(rf"[`@.]{name}\b", SECTION), name
        source = (ROOT / path).read_text()
        assert re.search(rf"(def|class) {name}\b|^{name} =|\b{name}\(", source, re.M), (name, path)
