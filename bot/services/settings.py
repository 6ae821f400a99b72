"""A campaign's settings as one validated model: read and written only through this module.

The row keeps them as JSON (``Campaign.settings``); ``load`` reads any stored dict, old ones
included (missing keys take their defaults, keys no longer known are dropped), and ``save``
writes the model back. Every reader asks the model, never the dict.
"""

from __future__ import annotations

import logging
from typing import Annotated, Any, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, JsonValue, ValidationError
from pydantic_core import PydanticCustomError

from bot.db.models import Campaign
from bot.errors import InvalidInput

log = logging.getLogger(__name__)
M = TypeVar("M", bound=BaseModel)

MIN_HOURS, MAX_HOURS = 0.25, 24 * 60.0
MAX_REMINDERS = 5
MISSING_POLICIES = ("default", "gm", "ai")
MIN_TABLE, MAX_TABLE = 6.0, 400.0
VISIBILITIES = ("open", "closed")


def _hours(value: float) -> float:
    """A deadline's length: a quarter of an hour to sixty days."""
    if not MIN_HOURS <= value <= MAX_HOURS:
        raise PydanticCustomError("hours", "Deadlines run from 0.25 hours to 60 days.")
    return value


def _reminders(value: tuple[float, ...]) -> tuple[float, ...]:
    """At most five positive hours (up to sixty days) before a deadline, latest reminder last."""
    if len(value) > MAX_REMINDERS or any(not 0 < hours <= MAX_HOURS for hours in value):
        raise PydanticCustomError(
            "reminders",
            "Give at most five positive reminder times, each at most 1440 hours, e.g. `24,1`.",
        )
    return tuple(sorted(value, reverse=True))


def _missing(value: str) -> str:
    """What a passed deadline does with missing orders."""
    if value not in MISSING_POLICIES:
        raise PydanticCustomError(
            "missing",
            "Missing orders become `default`, `gm` or `ai`, not `{value}`.",
            {"value": value},
        )
    return value


def _table_size(value: float | None) -> float | None:
    """A table side within what the bot draws."""
    if value is not None and not MIN_TABLE <= value <= MAX_TABLE:
        raise PydanticCustomError("table", f"Table sizes run from {MIN_TABLE:g} to {MAX_TABLE:g}.")
    return value


def _visibility(value: str) -> str:
    """Who may see a campaign: anyone in the server (open) or only its members (closed)."""
    if value not in VISIBILITIES:
        raise PydanticCustomError(
            "visibility", "A campaign is `open` or `closed`, not `{value}`.", {"value": value}
        )
    return value


Hours = Annotated[float, AfterValidator(_hours)]
TableSize = Annotated[float | None, AfterValidator(_table_size)]


class DeadlinePolicy(BaseModel):
    """How long each step and question waits, when to remind, what a passed deadline does."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    step_hours: Hours = 48.0
    reminder_hours: Annotated[tuple[float, ...], AfterValidator(_reminders)] = (24.0, 1.0)
    decision_hours: Hours = 24.0
    missing: Annotated[str, AfterValidator(_missing)] = (
        "default"  # "default" orders, "gm", or "ai" (the AI stand-in)
    )


DEFAULT_POLICY = DeadlinePolicy()


def step_deadline(policy: DeadlinePolicy, own: float | None = None) -> float:
    """Hours a step waits: the campaign's step deadline, or the step's own length scaled as
    the campaign scales the default step deadline (a faster campaign shortens every step)."""
    if own is None:
        return policy.step_hours
    return _scaled(own, policy.step_hours / DEFAULT_POLICY.step_hours)


def decision_deadline(policy: DeadlinePolicy, own: float | None = None) -> float:
    """Hours a question waits: the campaign's question deadline, or the question's own length
    scaled as the campaign scales the default question deadline."""
    if own is None:
        return policy.decision_hours
    return _scaled(own, policy.decision_hours / DEFAULT_POLICY.decision_hours)


def _scaled(hours: float, factor: float) -> float:
    return min(max(hours * factor, MIN_HOURS), MAX_HOURS)


class CampaignSettings(BaseModel):
    """Everything a GM sets for a campaign; the defaults are what a new campaign plays with."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    deadlines: DeadlinePolicy = DeadlinePolicy()
    parameters: dict[str, JsonValue] = {}  # overrides of the ruleset's parameters, by name
    table_width: TableSize = None  # the ruleset's usual table when None
    table_depth: TableSize = None
    # open: anyone in the server may watch; closed: only members (GMs, players, admitted
    # observers) see anything of it. bot.services.seats says who is who.
    visibility: Annotated[str, AfterValidator(_visibility)] = "open"

    def changed(self, **changes: Any) -> CampaignSettings:
        """A copy with some fields replaced, validated; InvalidInput names every problem."""
        return validated(CampaignSettings, {**self.model_dump(), **changes})


def validated(model: type[M], data: dict[str, Any]) -> M:
    """The model built from data, or InvalidInput with each problem's own wording."""
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise InvalidInput(" ".join(dict.fromkeys(e["msg"] for e in error.errors()))) from None


def load(campaign: Campaign) -> CampaignSettings:
    """The campaign's settings; a stored section that no longer validates takes its default."""
    raw = campaign.settings or {}
    try:
        return CampaignSettings.model_validate(raw)
    except ValidationError:
        log.warning("campaign %s: stored settings invalid, keeping the valid parts", campaign.id)
    kept = {name: raw[name] for name in CampaignSettings.model_fields if _valid(name, raw)}
    return CampaignSettings.model_validate(kept)


def _valid(name: str, raw: dict[str, Any]) -> bool:
    """Whether a stored section is present and would load on its own."""
    if name not in raw:
        return False
    try:
        CampaignSettings.model_validate({name: raw[name]})
    except ValidationError:
        return False
    return True


def save(campaign: Campaign, settings: CampaignSettings) -> None:
    """Write the settings back to the campaign row (a new dict, so the change is noticed).

    Only what differs from the defaults is stored, so a default changed in code reaches every
    campaign that never set it.
    """
    campaign.settings = settings.model_dump(mode="json", exclude_defaults=True)
