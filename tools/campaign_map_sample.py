"""Draw the README's example campaign map to ``docs/campaign_map/``:
``python -m tools.campaign_map_sample``.

The sample map file ``docs/campaign_map/marches.yaml`` after two campaign turns: England's
host has marched into Powys and is fighting the Welsh levy there, Glyndŵr's army (having lost
a unit in a battle) holds Snowdon, and a Welsh raiding party has met the Marcher Lords in
Shrewsbury, their battle still to come.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bot.rendering.campaign_map import render_map
from bot.services.campaign_map import ArmyMarker, MapPicture
from bot.services.map_files import parse_map

OUT = Path(__file__).resolve().parents[1] / "docs" / "campaign_map"
SOURCE = OUT / "marches.yaml"
NAME = "marches.png"
ARMIES = (
    ArmyMarker("English Host", "England", "Powys", 5, 5),
    ArmyMarker("Marcher Lords", "England", "Shrewsbury", 3, 4),
    ArmyMarker("Glyndwr's Army", "Wales", "Snowdon", 4, 5),
    ArmyMarker("Welsh Levy", "Wales", "Powys", 3, 3),
    ArmyMarker("Raiders", "Wales", "Shrewsbury", 2, 2),
)


def sample_picture() -> MapPicture:
    """The example map as it stands after two campaign turns."""
    name, regions, holders = parse_map(SOURCE.read_bytes(), SOURCE.name)
    holders["Powys"] = "England"
    sides = ("England", "Wales")
    return MapPicture(
        "Glyndwr's Rising", name, 3, tuple(regions), holders, ARMIES, sides, battles=("Powys",)
    )


def sample_map() -> bytes:
    """The example map's PNG bytes."""
    return render_map(sample_picture())


def main(argv: list[str] | None = None) -> None:
    """Write the map (to ``--out``, by default the README's picture in docs/)."""
    parser = argparse.ArgumentParser(
        prog="python -m tools.campaign_map_sample",
        description=__doc__.split("\n\n")[0].replace("\n", " "),
    )
    parser.add_argument("--out", type=Path, default=OUT, help="folder to write to")
    folder = parser.parse_args(argv).out
    folder.mkdir(parents=True, exist_ok=True)
    (folder / NAME).write_bytes(sample_map())
    print(folder / NAME)


if __name__ == "__main__":
    main()
