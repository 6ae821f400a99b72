"""A campaign map's sides checked against the campaign's before it is stored, so a map that
names other sides is refused at import, not at the first move."""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from bot.errors import InvalidInput
from bot.services.data_files import shown_name
from bot.services.map_files import Region

MAX_KEYS_SHOWN = 4  # file keys named per unknown side; the rest are counted


def fitted_holders(
    filename: str,
    regions: Sequence[Region],
    holders: dict[str, str],
    campaign: str,
    sides: Sequence[str],
) -> dict[str, str]:
    """The map's holders with each side spelt as the campaign spells it; InvalidInput naming
    every side the campaign lacks (with the file's keys) and every side that holds no region."""
    where = f"`{shown_name(filename)}`"
    if not holders:
        raise InvalidInput(
            f"{where}: no region has a `holder:`, so no army could enter the map (an army "
            "enters in a region its side holds). Give each side a starting region, e.g. "
            f"`holder: {sides[0] if sides else 'Red'}`."
        )
    if not sides:
        return dict(holders)  # no player has joined a side yet: the map's names are the sides
    known = {side.casefold(): side for side in sides}
    index = {region.name: i for i, region in enumerate(regions)}
    unknown: dict[str, list[str]] = {}
    fitted: dict[str, str] = {}
    for region, side in holders.items():
        if side.casefold() in known:
            fitted[region] = known[side.casefold()]
        else:
            unknown.setdefault(side, []).append(f"regions[{index[region]}].holder ({region})")
    problems = [_unknown_line(side, keys, campaign, sides) for side, keys in unknown.items()]
    held = set(fitted.values())
    problems += [
        f"**{side}** holds no region, so its armies could not enter the map: give it one "
        f"with `holder: {side}`"
        for side in sides
        if side not in held
    ]
    if problems:
        map_sides = _listed(dict.fromkeys(holders.values()))
        raise InvalidInput(
            f"{where} does not fit **{campaign}**: the map's sides are {map_sides}; the "
            f"campaign's are {_listed(sides)}. Nothing was imported.\n"
            + "\n".join(f"• {p}" for p in problems)
            + "\nRename each `holder:` in the file to one of the campaign's sides; a side no "
            "player has joined yet joins first (`/campaign join side:<name>`), then import "
            "the map again."
        )
    return fitted


def _unknown_line(side: str, keys: list[str], campaign: str, sides: Sequence[str]) -> str:
    """One side of the map the campaign lacks: where the file names it, and the nearest side."""
    shown = ", ".join(keys[:MAX_KEYS_SHOWN])
    more = f" and {len(keys) - MAX_KEYS_SHOWN} more" if len(keys) > MAX_KEYS_SHOWN else ""
    spelt = {s.casefold(): s for s in sides}
    # A near spelling only: at 0.6 "Wales" would be offered "Gauls".
    close = difflib.get_close_matches(side.casefold(), list(spelt), n=1, cutoff=0.8)
    hint = f"; did you mean **{spelt[close[0]]}**?" if close else ""
    return f"**{side}** ({shown}{more}) is not a side of **{campaign}**{hint}"


def _listed(names: Sequence[str] | dict[str, None]) -> str:
    """Names in bold, joined with commas and a final "and"."""
    bold = [f"**{name}**" for name in names]
    return bold[0] if len(bold) == 1 else ", ".join(bold[:-1]) + " and " + bold[-1]
