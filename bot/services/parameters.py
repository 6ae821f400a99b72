"""A campaign's ruleset parameters: what the rules declare, what the GM changed, and the check.

The overrides live in the campaign's settings; a battle copies them when it is created, so a
change reaches the battles created after it and never one already on the table.
"""

from __future__ import annotations

import difflib
import json
import math
from dataclasses import dataclass

from bot.db.models import Campaign
from bot.errors import ClosedCampaign, InvalidInput, NotFound
from bot.services import settings
from bot.services.base import Service
from bot.services.campaigns import Place, load_open_campaign, require_gm
from bot.services.settings import CampaignSettings
from rules_core import registry
from rules_core.codec import Json
from rules_core.plugin import Parameter, Rules

TABLE_KEYS = ("table_width", "table_depth")  # editable defaults kept outside ``parameters``
TRUE_WORDS = frozenset({"true", "yes", "on", "1"})
FALSE_WORDS = frozenset({"false", "no", "off", "0"})


@dataclass(frozen=True)
class ParameterRow:
    """One parameter as a campaign sees it: its value here and the ruleset's own."""

    name: str
    description: str
    value: Json
    default: Json
    source: str

    @property
    def overridden(self) -> bool:
        """Whether the campaign plays with a value other than the ruleset's."""
        return self.value != self.default


@dataclass(frozen=True)
class ParameterSheet:
    """Every parameter of a campaign's ruleset, in the order the ruleset declares them."""

    campaign_name: str
    ruleset_name: str
    rows: tuple[ParameterRow, ...]


def editable(rules: Rules | None) -> tuple[Parameter, ...]:
    """The ruleset's parameters and its editable defaults (the usual table size)."""
    if rules is None:
        return ()
    width, depth = rules.default_table
    measure = rules.measure_name()
    usual = "the ruleset's usual table"
    return (
        *rules.parameters,
        Parameter("table_width", width, f"table width ({measure}) of a new battle", usual),
        Parameter("table_depth", depth, f"table depth ({measure}) of a new battle", usual),
    )


def current(chosen: CampaignSettings, parameter: Parameter) -> Json:
    """The value a campaign plays a parameter with."""
    if parameter.name in TABLE_KEYS:
        size = getattr(chosen, parameter.name)
        return parameter.default if size is None else size
    return chosen.parameters.get(parameter.name, parameter.default)


def battle_parameters(campaign: Campaign, rules: Rules) -> dict[str, Json]:
    """The overrides a new battle copies in: those the ruleset still declares."""
    known = {parameter.name for parameter in rules.parameters}
    overrides = settings.load(campaign).parameters
    return {name: value for name, value in overrides.items() if name in known}


def table_size(campaign: Campaign, rules: Rules) -> tuple[float, float]:
    """The table a new battle gets when its creator gives no size."""
    chosen = settings.load(campaign)
    width, depth = rules.default_table
    return chosen.table_width or width, chosen.table_depth or depth


def find_parameter(rules: Rules | None, name: str) -> Parameter:
    """The parameter with this name, or NotFound naming the close ones."""
    found = {parameter.name: parameter for parameter in editable(rules)}
    key = name.strip().casefold().replace(" ", "_").replace("-", "_")
    if key in found:
        return found[key]
    close = difflib.get_close_matches(key, list(found), n=3, cutoff=0.5)
    hint = f" Did you mean {', '.join(f'`{c}`' for c in close)}?" if close else ""
    hint += " `/campaign rules show` lists them all."
    raise NotFound(f"This ruleset has no parameter `{name}`.{hint}")


def parse_value(parameter: Parameter, text: str) -> Json:
    """A typed value for a parameter, read from what the GM typed; its default sets the type."""
    default, text = parameter.default, text.strip()
    if isinstance(default, bool):
        return _boolean(parameter.name, text)
    if isinstance(default, int | float):
        return _number(parameter, text)
    if isinstance(default, str):
        return text
    return _structured(parameter, text)


def _boolean(name: str, text: str) -> bool:
    """``yes``/``no`` and their usual spellings."""
    word = text.casefold()
    if word in TRUE_WORDS or word in FALSE_WORDS:
        return word in TRUE_WORDS
    raise InvalidInput(f"`{name}` is `true` or `false`, not `{text}`.")


def _number(parameter: Parameter, text: str) -> int | float:
    """A whole number where the default is one, else any finite number; never a new sign."""
    whole = isinstance(parameter.default, int)
    try:
        value: int | float = int(text) if whole else float(text)
    except ValueError:
        kind = "a whole number" if whole else "a number"
        raise InvalidInput(
            f"`{parameter.name}` takes {kind} like `{parameter.default}`, not `{text}`."
        ) from None
    if not math.isfinite(value):
        raise InvalidInput(f"`{parameter.name}` takes a finite number, not `{text}`.")
    if value < 0 and not str(parameter.default).startswith("-"):
        raise InvalidInput(f"`{parameter.name}` cannot be negative.")
    return value


def _structured(parameter: Parameter, text: str) -> Json:
    """A table or list as JSON, shaped like the default (same kinds of cells)."""
    shape = json.dumps(parameter.default)
    example = shape if len(shape) <= 200 else shape[:200] + "…"
    try:
        value: Json = json.loads(text)
    except json.JSONDecodeError:
        raise InvalidInput(
            f"`{parameter.name}` takes JSON shaped like its default: `{example}`."
        ) from None
    if not fits(parameter.default, value):
        raise InvalidInput(f"`{parameter.name}` must keep the shape of its default: `{example}`.")
    return value


def fits(default: Json, value: Json, *, top: bool = True) -> bool:
    """Whether a value has the default's shape: same kinds of cells; only a whole table (the
    top level) may gain or lose rows, each row like one of the default's."""
    if default is None:
        return value is None or _is_number(value)  # an open cell, or a number closing it
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(default, bool) and isinstance(value, bool)
    if isinstance(default, int | float):
        return _is_number(value) and (isinstance(default, float) or isinstance(value, int))
    if isinstance(default, str):
        return isinstance(value, str)
    if isinstance(default, dict):
        return (
            isinstance(value, dict)
            and value.keys() == default.keys()
            and all(fits(default[key], value[key], top=False) for key in default)
        )
    if not isinstance(value, list):
        return False
    if len(value) == len(default):
        return all(fits(d, v, top=False) for d, v in zip(default, value, strict=True))
    return top and bool(value) and all(any(fits(d, v, top=False) for d in default) for v in value)


def _is_number(value: Json) -> bool:
    """An int or float that is not a bool."""
    return isinstance(value, int | float) and not isinstance(value, bool)


class ParameterService(Service):
    """Show and change a campaign's ruleset parameters; each call is one database session."""

    async def sheet(self, place: Place, name: str | None = None) -> ParameterSheet:
        """The parameters of this channel's campaign (or the one named), values and defaults."""
        async with self.db.read() as session:
            campaign = await load_open_campaign(session, place)
            return _sheet(campaign, name)

    async def override(self, place: Place, user_id: int, name: str, text: str) -> ParameterRow:
        """Play a parameter with another value in this campaign's new battles (a GM only)."""
        async with self.db.write() as session:
            campaign = await load_open_campaign(session, place)
            require_gm(campaign, user_id)
            parameter = find_parameter(_rules(campaign), name)
            value = parse_value(parameter, text)
            _store(campaign, parameter, None if value == parameter.default else value)
            return _row(settings.load(campaign), parameter)

    async def reset(self, place: Place, user_id: int, name: str) -> ParameterRow:
        """Play a parameter with the ruleset's own value again (a GM only)."""
        async with self.db.write() as session:
            campaign = await load_open_campaign(session, place)
            require_gm(campaign, user_id)
            parameter = find_parameter(_rules(campaign), name)
            _store(campaign, parameter, None)
            return _row(settings.load(campaign), parameter)

    async def names(self, place: Place) -> list[str]:
        """The parameter names of this channel's campaign (for autocomplete)."""
        async with self.db.read() as session:
            try:
                campaign = await load_open_campaign(session, place)
            except (NotFound, ClosedCampaign):
                return []
            return [parameter.name for parameter in editable(_rules(campaign))]


def _rules(campaign: Campaign) -> Rules | None:
    """The campaign's rules, or None while its ruleset is a placeholder."""
    return registry.get(campaign.ruleset_id).rules


def _row(chosen: CampaignSettings, parameter: Parameter) -> ParameterRow:
    """One parameter as the campaign plays it."""
    value = current(chosen, parameter)
    return ParameterRow(
        parameter.name, parameter.description, value, parameter.default, parameter.source
    )


def _sheet(campaign: Campaign, name: str | None) -> ParameterSheet:
    """The campaign's parameter sheet, or the row of the one parameter named."""
    chosen, rules = settings.load(campaign), _rules(campaign)
    shown = editable(rules) if name is None else (find_parameter(rules, name),)
    rows = tuple(_row(chosen, parameter) for parameter in shown)
    return ParameterSheet(campaign.name, registry.get(campaign.ruleset_id).name, rows)


def _store(campaign: Campaign, parameter: Parameter, value: Json) -> None:
    """Keep an override in the settings; None takes it away."""
    chosen = settings.load(campaign)
    if parameter.name in TABLE_KEYS:
        settings.save(campaign, chosen.changed(**{parameter.name: value}))
        return
    kept = {name: v for name, v in chosen.parameters.items() if name != parameter.name}
    overrides = kept if value is None else {**kept, parameter.name: value}
    settings.save(campaign, chosen.changed(parameters=overrides))
