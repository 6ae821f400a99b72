"""A campaign map file read and checked: its regions (names, centres, outlines, neighbours)
and starting holders, and a background picture; every problem named so it can be fixed."""

from __future__ import annotations

import io
import math
import warnings
from dataclasses import dataclass
from typing import Any

from PIL import Image
from shapely.geometry import Polygon

from bot.errors import InvalidInput
from bot.services.armies import parse_roster
from bot.services.data_files import shown_name
from rules_core import roster

MAX_MAP_BYTES = 256 * 1024
MIN_REGIONS, MAX_REGIONS = 2, 60
MAX_REGION_NAME = 40
MAX_POLYGON_POINTS = 64
MAX_COORD = 10_000
MAX_SIDE_NAME = 50
MAX_BACKGROUND_BYTES = 4 * 1024 * 1024
MAX_BACKGROUND_SIDE = 2048  # px; the map file's coordinates are the picture's pixels
EXAMPLE = (
    "e.g. `regions: [{name: Ford, at: [100, 80], adjacent: [Hill]}, "
    "{name: Hill, at: [300, 80], holder: Red}]`"
)
MAP_KEYS = ("name", "regions")
REGION_KEYS = ("name", "at", "polygon", "adjacent", "holder")


@dataclass(frozen=True)
class Region:
    """One region of the map: its name, centre, outline (if given) and neighbours."""

    name: str
    at: tuple[float, float]
    polygon: tuple[tuple[float, float], ...]
    adjacent: tuple[str, ...]


def parse_map(content: bytes, filename: str) -> tuple[str, list[Region], dict[str, str]]:
    """A map file read and checked: its name, regions (adjacency made both ways), holders."""
    if len(content) > MAX_MAP_BYTES:
        raise InvalidInput(
            f"`{shown_name(filename)}` is too large: at most {MAX_MAP_BYTES // 1024} KiB."
        )
    data = parse_roster(content, filename)
    where = f"`{shown_name(filename)}`"
    if not isinstance(data, dict) or not isinstance(data.get("regions"), list):
        raise InvalidInput(
            f"{where} is not a campaign map: it needs a list of `regions`, {EXAMPLE}."
        )
    name = data.get("name", "Campaign map")
    if not isinstance(name, str) or not 1 <= len(" ".join(name.split())) <= 100:
        raise InvalidInput(f"{where}: `name` must be text of 1 to 100 characters.")
    raw = data["regions"]
    if not MIN_REGIONS <= len(raw) <= MAX_REGIONS:
        raise InvalidInput(
            f"{where} has {len(raw)} regions; a map has at least {MIN_REGIONS} and at most "
            f"{MAX_REGIONS}."
        )
    problems = unknown_keys(data, MAP_KEYS, "")
    regions: list[dict[str, Any]] = []
    holders: dict[str, str] = {}
    for i, entry in enumerate(raw):
        if isinstance(entry, dict):
            problems += unknown_keys(entry, REGION_KEYS, f"regions[{i}].")
        region = _region(entry, f"regions[{i}]", problems)
        if region is None:
            continue
        if any(r["name"].casefold() == region["name"].casefold() for r in regions):
            problems.append(f"regions[{i}]: the name {region['name']} is used twice")
            continue
        regions.append(region)
        if region["holder"]:
            holders[region["name"]] = region["holder"]
    links = _links(regions, problems)
    problems += [
        f"{name}: no region is adjacent to it, so no army could march in or out; name it in "
        "its `adjacent` or a neighbour's"
        for name, near in links.items()
        if not near
    ]
    if problems:
        shown = "\n".join(f"• {p}" for p in problems[:20])
        more = f"\n…and {len(problems) - 20} more." if len(problems) > 20 else ""
        raise InvalidInput(
            f"{where} has {len(problems)} problem(s):\n{shown}{more}\nA region is written "
            f"as {EXAMPLE}."
        )
    order = [r["name"] for r in regions]
    built = [
        Region(
            r["name"],
            r["at"],
            r["polygon"],
            tuple(sorted(links[r["name"]], key=order.index)),
        )
        for r in regions
    ]
    return " ".join(name.split()), built, holders


def unknown_keys(entry: dict[Any, Any], known: tuple[str, ...], path: str) -> list[str]:
    """A problem for each key the file gives that the map does not read (a typo would else
    leave, say, a region with no holder), with the nearest known key."""
    return [
        f"{path}{key}: not a key of a campaign map"
        + (f"; did you mean `{near}`?" if near else f" (a map reads: {', '.join(known)})")
        for key, near in roster.unknown_keys(entry, known)
    ]


def _links(regions: list[dict[str, Any]], problems: list[str]) -> dict[str, set[str]]:
    """Each region's neighbours, both ways; a neighbour not on the map is a problem."""
    names = {r["name"].casefold(): r["name"] for r in regions}
    links: dict[str, set[str]] = {r["name"]: set() for r in regions}
    for region in regions:
        for other in region["adjacent"]:
            found = names.get(other.casefold())
            if found is None:
                problems.append(f"{region['name']}: adjacent region {other} is not on the map")
            elif found == region["name"]:
                problems.append(f"{region['name']}: a region is not adjacent to itself")
            else:
                links[region["name"]].add(found)
                links[found].add(region["name"])
    return links


def _region(entry: object, path: str, problems: list[str]) -> dict[str, Any] | None:
    """One region entry checked; its problems added to the list."""
    if not isinstance(entry, dict):
        problems.append(f"{path}: a region must be a mapping with name, at or polygon, adjacent")
        return None
    name = entry.get("name")
    if not isinstance(name, str) or not 1 <= len(" ".join(name.split())) <= MAX_REGION_NAME:
        problems.append(f"{path}.name: must be text of 1 to {MAX_REGION_NAME} characters")
        return None
    name = " ".join(name.split())
    polygon = _polygon(entry, name, problems)
    if polygon is None:
        return None
    at = _centre(entry, name, polygon, problems)
    if at is None:
        return None
    adjacent = entry.get("adjacent", [])
    if not isinstance(adjacent, list) or not all(isinstance(a, str) for a in adjacent):
        problems.append(f"{name}.adjacent: must be a list of region names")
        return None
    if len(adjacent) > MAX_REGIONS:
        problems.append(f"{name}.adjacent: at most {MAX_REGIONS} neighbours")
        return None
    holder = entry.get("holder")
    if holder is not None and (
        not isinstance(holder, str) or not 1 <= len(holder.strip()) <= MAX_SIDE_NAME
    ):
        problems.append(
            f"{name}.holder: must be a side's name of at most {MAX_SIDE_NAME} characters"
        )
        return None
    return {
        "name": name,
        "at": at,
        "polygon": polygon,
        "adjacent": [" ".join(a.split()) for a in adjacent],
        "holder": " ".join(holder.split()) if holder else None,
    }


def _polygon(
    entry: dict[str, Any], name: str, problems: list[str]
) -> tuple[tuple[float, float], ...] | None:
    """The region's outline checked (empty if it gives none), or None with its problem added."""
    if "polygon" not in entry:
        return ()
    points = entry["polygon"]
    if not isinstance(points, list) or not 3 <= len(points) <= MAX_POLYGON_POINTS:
        problems.append(f"{name}.polygon: must list 3 to {MAX_POLYGON_POINTS} points [x, y]")
        return None
    checked = [_point(p) for p in points]
    if any(p is None for p in checked):
        problems.append(f"{name}.polygon: every point must be [x, y] from 0 to {MAX_COORD}")
        return None
    polygon = tuple(p for p in checked if p is not None)
    if not Polygon(polygon).is_valid or Polygon(polygon).area <= 0:
        problems.append(f"{name}.polygon: the outline must not cross itself")
        return None
    return polygon


def _centre(
    entry: dict[str, Any],
    name: str,
    polygon: tuple[tuple[float, float], ...],
    problems: list[str],
) -> tuple[float, float] | None:
    """The region's ``at`` checked, else a point inside its outline; None with its problem added."""
    at = _point(entry["at"]) if "at" in entry else None
    if "at" in entry and at is None:
        problems.append(f"{name}.at: must be [x, y] from 0 to {MAX_COORD}")
        return None
    if at is None:
        if not polygon:
            problems.append(f"{name}: give its centre `at: [x, y]` or its outline `polygon`")
            return None
        centre = Polygon(polygon).representative_point()
        at = (round(centre.x, 1), round(centre.y, 1))
    return at


def _point(value: object) -> tuple[float, float] | None:
    """[x, y] within the map's bounds, or None."""
    if not isinstance(value, list | tuple) or len(value) != 2:
        return None
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value):
        return None
    x, y = float(value[0]), float(value[1])
    if not all(math.isfinite(v) and 0 <= v <= MAX_COORD for v in (x, y)):
        return None
    return (x, y)


def checked_background(content: bytes, filename: str) -> bytes:
    """A background picture checked (a PNG or JPEG of at most MAX_BACKGROUND_SIDE pixels a
    side) and re-encoded as a plain PNG, so nothing but its pixels is kept."""
    name = f"`{shown_name(filename)}`"
    if len(content) > MAX_BACKGROUND_BYTES:
        raise InvalidInput(
            f"{name} is too large: a background is at most {MAX_BACKGROUND_BYTES // 1024**2} MiB."
        )
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(content)) as image:
                kind, (width, height) = image.format, image.size
                if kind not in ("PNG", "JPEG"):
                    raise ValueError(kind)
                if max(width, height) > MAX_BACKGROUND_SIDE:
                    raise InvalidInput(
                        f"{name} is {width} × {height} pixels; a background is at most "
                        f"{MAX_BACKGROUND_SIDE} × {MAX_BACKGROUND_SIDE}."
                    )
                pixels = image.convert("RGB")
    except InvalidInput:
        raise
    except (OSError, ValueError, Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise InvalidInput(
            f"{name} is not a picture the bot can use as a background: give a PNG or JPEG file."
        ) from None
    out = io.BytesIO()
    pixels.save(out, format="PNG", optimize=True)
    return out.getvalue()
