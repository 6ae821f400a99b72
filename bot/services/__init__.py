"""Domain services: each call opens one session, loads, applies the rules, saves, returns data."""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.clock import Clock, SystemClock
from bot.db.session import Database
from bot.services.armies import ArmyService
from bot.services.battles import BattleService
from bot.services.campaigns import CampaignService
from bot.services.dice import DiceService
from bot.services.gm import GmService
from bot.services.parameters import ParameterService


@dataclass(frozen=True)
class Services:
    """The services the cogs call, built once per bot."""

    campaigns: CampaignService
    armies: ArmyService
    dice: DiceService
    battles: BattleService
    play: GmService  # the turn loop with the GM's tools on top
    parameters: ParameterService

    @classmethod
    def build(
        cls, db: Database, *, rng: random.Random | None = None, clock: Clock | None = None
    ) -> Services:
        """Wire every service to one database and one clock."""
        clock = clock or SystemClock()
        return cls(
            CampaignService(db),
            ArmyService(db),
            DiceService(rng),
            BattleService(db, clock),
            GmService(db, clock),
            ParameterService(db),
        )
