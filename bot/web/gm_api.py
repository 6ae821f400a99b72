"""The war table's answers and GM tools: ``/answer``, ``/orders all`` and ``/gm move`` by pointing.

Each route goes through the very service its slash command calls and answers in its words;
the writes pass ``actions.Api``'s checks (JSON, same origin, the anti-forgery token, the
member's rate) and are posted to the campaign's channel as the slash command posts them.
Whether the reader is a GM is the services' to say (``GmService.check``), never the page's.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from bot.presentation.gm import answered_text, change_text
from bot.presentation.orders import order_book_text
from bot.presentation.questions import private_answered_note, private_answered_text
from bot.services.web_links import Reader
from bot.web.actions import MAX_TEXT, Api, ApiRefusal, json_errors
from bot.web.actions import _is_point as is_point
from bot.web.actions import _text as text_of

# Posts a text to a channel (its id) as the bot: the public note a slash command would post.
Announce = Callable[[int, str], Awaitable[object]]
NOT_A_POINT = "`to` is where the unit goes: a point [x, y] on the table."
NOT_A_FACING = "`facing` is a compass bearing in degrees, 0 to 360."


@dataclass
class GmApi:
    """``api/answer``, ``api/gm/orders`` and ``api/gm/move`` over ``api``'s services and
    checks; ``announce`` posts to Discord what the slash commands post there."""

    api: Api
    announce: Announce | None = None

    def add_routes(self, router: web.UrlDispatcher, prefix: str) -> None:
        """Register the routes under a campaign's prefix (``/c/{campaign}``)."""
        router.add_post(prefix + "/api/answer", json_errors(self.answer))
        router.add_get(prefix + "/api/gm/orders", json_errors(self.gm_orders))
        router.add_post(prefix + "/api/gm/move", json_errors(self.gm_move))

    async def _say(self, reader: Reader, text: str) -> None:
        if self.announce is not None:
            await self.announce(reader.place.channel_id, text)

    async def answer(self, request: web.Request) -> web.Response:
        """``POST api/answer``: answer a waiting question, as ``/answer`` does (a private one's
        answer is told to its player alone; the channel reads that it was answered)."""
        reader, user_id, body = await self.api._writer(request, self.api.writes)
        decision = text_of(body, "decision", required=False)
        choice = _choice(body.get("choice"))
        services = self.api.services
        shown = await services.lookups.questions_for(reader.place)  # none waiting: refused
        private = any(view.private for view, _ in shown)
        report = await services.play.answer_here(reader.place, user_id, choice, "", decision)
        self.api._published(reader)
        public = private_answered_note(user_id) if private else answered_text(user_id, choice)
        await self._say(reader, public)
        if report is not None and self.api.reports is not None:  # the step carried on
            await self.api.reports(report)
        said = private_answered_text(user_id, choice) if private else public
        return web.json_response({"ok": True, "text": said})

    async def gm_orders(self, request: web.Request) -> web.Response:
        """``GET api/gm/orders``: every side's orders given and planned, as ``/orders all``
        shows a GM; anyone else is refused with the GM commands' words."""
        reader = await self.api.reader_of(request)
        user_id = self.api._member(reader, self.api.judgements)
        services = self.api.services
        await services.gm.check(reader.place, user_id)
        book = await services.order_book.book(reader.place, user_id)
        return web.json_response({"lines": order_book_text(book).splitlines()})

    async def gm_move(self, request: web.Request) -> web.Response:
        """``POST api/gm/move``: move (and turn) a unit, as ``/gm move`` does, its reason
        posted with the change."""
        reader, user_id, body = await self.api._writer(request, self.api.writes)
        services = self.api.services
        await services.gm.check(reader.place, user_id)  # a non-GM learns nothing more
        unit = text_of(body, "unit")
        assert unit is not None  # required
        to, facing, reason = body.get("to"), body.get("facing"), body.get("reason")
        if not is_point(to) or not isinstance(to, list):
            raise ApiRefusal(422, NOT_A_POINT)
        if facing is not None and not _is_facing(facing):
            raise ApiRefusal(422, NOT_A_FACING)
        at = f"{float(to[0])!r},{float(to[1])!r}"
        said_why = reason if isinstance(reason, str) else ""  # the service refuses none
        change = await services.gm.move(reader.place, user_id, unit, at, facing, said_why)
        self.api._published(reader)
        said = change_text(change)
        await self._say(reader, said)
        return web.json_response({"ok": True, "text": said})


def _choice(value: Any) -> str:
    """An answer as ``/answer`` types it: an option, a unit, ``x,y``, a number."""
    if is_point(value):
        return f"{float(value[0])!r},{float(value[1])!r}"
    if isinstance(value, int | float) and not isinstance(value, bool):
        return repr(float(value))
    if isinstance(value, str) and 0 < len(value.strip()) <= MAX_TEXT:
        return value.strip()
    raise ApiRefusal(422, "`choice` is the answer: an option, a unit, a point [x, y] or a number.")


def _is_facing(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= 360
