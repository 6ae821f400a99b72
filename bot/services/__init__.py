"""Domain services: each call opens one session, loads, applies the rules, saves, returns data."""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.clock import Clock, SystemClock
from bot.db.session import Database
from bot.services.aftermath import AftermathService
from bot.services.alternatives import AlternativeService
from bot.services.armies import ArmyService
from bot.services.battles import BattleService
from bot.services.campaign_map import CampaignMapService
from bot.services.campaigns import CampaignService
from bot.services.dice import DiceService
from bot.services.general import GeneralService
from bot.services.gm import GmService
from bot.services.hands import HandService
from bot.services.lookups import LookupService
from bot.services.news import NewsService
from bot.services.odds import OddsService
from bot.services.order_book import OrderBookService
from bot.services.outbox import OutboxService
from bot.services.parameters import ParameterService
from bot.services.plan_edits import PlanEditService
from bot.services.play import PlayService
from bot.services.records import RecordService
from bot.services.reference import ReferenceService
from bot.services.standing import StandingService
from bot.services.turn_defaults import TurnDefaultsService
from bot.services.unit_sheet import UnitSheetService
from bot.services.web_links import WebLinkService


@dataclass(frozen=True)
class Services:
    """The services the cogs call, built once per bot."""

    campaigns: CampaignService
    armies: ArmyService
    dice: DiceService
    battles: BattleService
    lookups: LookupService
    play: PlayService
    gm: GmService
    records: RecordService
    hands: HandService
    parameters: ParameterService
    outbox: OutboxService
    reference: ReferenceService
    standing: StandingService
    order_book: OrderBookService
    unit_sheet: UnitSheetService
    odds: OddsService
    aftermath: AftermathService
    campaign_map: CampaignMapService
    alternatives: AlternativeService
    turn_defaults: TurnDefaultsService
    news: NewsService  # the war table's hub polls it (bot.web.live)
    web_links: WebLinkService
    plan_edits: PlanEditService  # the war table's plan panel: alternatives reordered, ask_me
    general: GeneralService  # the AI general (#36)

    @classmethod
    def build(
        cls, db: Database, *, rng: random.Random | None = None, clock: Clock | None = None
    ) -> Services:
        """Wire every service to one database and one clock."""
        clock = clock or SystemClock()
        play = PlayService(db, clock)
        return cls(
            campaigns=CampaignService(db),
            armies=ArmyService(db),
            dice=DiceService(rng),
            battles=BattleService(db, clock),
            lookups=LookupService(db),
            play=play,
            gm=GmService(db, clock, play),  # the GM's tools share the turn loop and its armer
            records=RecordService(db),
            hands=HandService(db),
            parameters=ParameterService(db),
            outbox=OutboxService(db, clock),
            reference=ReferenceService(db),
            standing=StandingService(db, clock, play),
            order_book=OrderBookService(db),
            unit_sheet=UnitSheetService(db),
            odds=OddsService(db),
            aftermath=AftermathService(db),
            campaign_map=CampaignMapService(db),
            alternatives=AlternativeService(db, clock),
            turn_defaults=TurnDefaultsService(db),
            news=NewsService(db),
            web_links=WebLinkService(db, clock),
            plan_edits=PlanEditService(db, clock),
            general=GeneralService(db, clock, play),
        )
