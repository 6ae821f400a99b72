"""The GM's terrain by pointing: ``POST api/gm/terrain`` lays a piece drawn on the map.

During set-up it is ``/battle terrain add`` (a name, no reason); once the battle runs it is
``/gm terrain add`` (a reason on the record). The points drawn are typed as the slash commands
type them (``x,y x,y``, ``r`` or ``w,d``) and go through the very same service call, so its
checks (a GM, the phase, the kind and shape, the table's edge) and its words are the ones
Discord shows; the channel reads what the slash command posts there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from aiohttp import web

from bot.db.models import BattleStatus
from bot.presentation.battles import laid_text
from bot.presentation.gm import change_text
from bot.services.shapes import SHAPES, TypedTerrain
from bot.services.web_links import Reader
from bot.web.actions import MAX_POINTS, ApiRefusal, json_errors
from bot.web.actions import _is_point as is_point
from bot.web.actions import _text as text_of
from bot.web.gm_api import GmApi
from rules_core.state import LINEAR_KINDS, TERRAIN_KINDS

NOT_POINTS = (
    f"`at` is where the piece lies: a list of points [x, y] on the table (at most {MAX_POINTS}), "
    "its outline for a polygon or line, its centre for a circle or rectangle."
)
NOT_A_SIZE = "`size` is a circle's radius, or a rectangle's [width, depth]: positive numbers."
NO_NAME_NOW = (
    "A piece laid mid-battle is named by its kind (as `/gm terrain add`): leave the name empty."
)


@dataclass
class GmTerrain:
    """``api/gm/terrain`` over the GM table's services, checks and announcer."""

    gm: GmApi

    def add_routes(self, router: web.UrlDispatcher, prefix: str) -> None:
        """Register the route under a campaign's prefix (``/c/{campaign}``)."""
        router.add_get(prefix + "/api/gm/terrain", json_errors(self.form))
        router.add_post(prefix + "/api/gm/terrain", json_errors(self.lay))

    async def form(self, request: web.Request) -> web.Response:
        """``GET api/gm/terrain``: what the GM's terrain form offers, as the slash command of
        the battle's phase does (its kinds and shapes; a name in set-up, a reason after)."""
        api = self.gm.api
        reader = await api.reader_of(request)
        user_id = api._member(reader, api.judgements)
        await api.services.gm.check(reader.place, user_id)
        view = await api.services.battles.view(reader.place)
        setup = view.status is BattleStatus.SETUP
        kinds = [{"value": kind, "name": kind.replace("_", " ")} for kind in TERRAIN_KINDS]
        lines = sorted(LINEAR_KINDS)
        answer = {"kinds": kinds, "shapes": list(SHAPES), "lines": lines, "setup": setup}
        return web.json_response(answer)

    async def lay(self, request: web.Request) -> web.Response:
        """``POST api/gm/terrain``: lay a piece of terrain as the slash command of the
        battle's phase does, and post what it posts."""
        api = self.gm.api
        reader, user_id, body = await api._writer(request, api.writes)
        services = api.services
        await services.gm.check(reader.place, user_id)  # a non-GM learns nothing more
        name = text_of(body, "name", required=False)
        piece = TypedTerrain(
            text_of(body, "kind") or "",
            text_of(body, "shape") or "",
            _typed_points(body.get("at")),
            _typed_size(body.get("size")),
            name,
        )
        view = await services.battles.view(reader.place)
        if view.status is BattleStatus.SETUP:
            feature = await services.battles.add_terrain(reader.place, user_id, piece)
            said = laid_text(feature)
        else:
            said = await self._mid_battle(reader, user_id, piece, body.get("reason"))
        api._published(reader)
        await self.gm._say(reader, said)
        return web.json_response({"ok": True, "text": said})

    async def _mid_battle(
        self, reader: Reader, user_id: int, piece: TypedTerrain, reason: Any
    ) -> str:
        """``/gm terrain add``: the reason required (the service refuses none), no name (the
        service names it by kind)."""
        if piece.name is not None:
            raise ApiRefusal(422, NO_NAME_NOW)
        gm = self.gm.api.services.gm
        said_why = reason if isinstance(reason, str) else ""
        return change_text(await gm.lay_terrain(reader.place, user_id, piece, said_why))


def _typed(value: float) -> str:
    """A coordinate as a GM types it (two decimals: the map's precision)."""
    return f"{float(value):.2f}"


def _typed_points(value: Any) -> str:
    """Points ``[[x, y], …]`` as the slash commands' ``at``: ``x,y x,y``."""
    if not isinstance(value, list) or not 0 < len(value) <= MAX_POINTS:
        raise ApiRefusal(422, NOT_POINTS)
    if not all(is_point(point) for point in value):
        raise ApiRefusal(422, NOT_POINTS)
    return " ".join(f"{_typed(x)},{_typed(y)}" for x, y in value)


def _typed_size(value: Any) -> str | None:
    """A radius or ``[width, depth]`` as the slash commands' ``size`` (None: none given)."""
    if value is None:
        return None
    if isinstance(value, int | float) and not isinstance(value, bool):
        return _typed(value)
    if is_point(value):  # two numbers
        return f"{_typed(value[0])},{_typed(value[1])}"
    raise ApiRefusal(422, NOT_A_SIZE)
