"""Domain services: each call opens one session, loads, applies the rules, saves, returns data."""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.db.session import Database
from bot.services.armies import ArmyService
from bot.services.campaigns import CampaignService
from bot.services.dice import DiceService


@dataclass(frozen=True)
class Services:
    """The services the cogs call, built once per bot."""

    campaigns: CampaignService
    armies: ArmyService
    dice: DiceService

    @classmethod
    def build(cls, db: Database, *, rng: random.Random | None = None) -> Services:
        """Wire every service to one database."""
        return cls(CampaignService(db), ArmyService(db), DiceService(rng))
