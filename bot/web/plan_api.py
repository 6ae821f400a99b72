"""The war table's plan for the turn: conditional plans, ``ask_me`` and standing instructions.

The same doors as ``bot.web.actions`` (its token check, rates and JSON refusals) onto the
services of ``/order alternative``, ``/plan change`` and ``/standing``, answered in their
words. Shapes (``{cid}`` the campaign; every POST as in ``bot.web.actions``):

- ``POST /c/{cid}/api/else`` ``{"step", "unit", "kind", "params", "number"?}`` → ``{"ok",
  "text"}``: an alternative to the unit's (``number``-th) order planned for ``step``.
- ``POST /c/{cid}/api/alternative/move`` ``{"step", "unit", "alternative", "up", "number"?}``
  → ``{"ok", "text"}``: the ``alternative``-th (1 first) tried one place earlier or later.
- ``POST /c/{cid}/api/ask_me`` ``{"step", "unit", "on", "number"?}`` → ``{"ok", "text"}``.
- ``GET /c/{cid}/api/standing`` → ``{"text", "instructions": [{"words", "side", "topic",
  "unit"}], "topics": [{"id", "title", "choices": [[id, label]], "conditions": [[id,
  title]]}], "units": [[id, name]], "recommended": bool}`` (``/standing list`` and the
  choices its ``set`` autocomplete offers).
- ``POST /c/{cid}/api/standing/set`` ``{"topic", "choice", "condition"?, "unit"?, "side"?}``,
  ``…/standing/clear`` ``{"topic"?, "unit"?, "side"?}``, ``…/standing/recommended`` ``{}``
  → ``{"ok", "text"}``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from bot.presentation.orders import alternative_text, planned_text
from bot.presentation.standing import (
    accepted_text,
    instruction_words,
    standing_cleared_text,
    standing_list_text,
    standing_set_text,
)
from bot.services.campaigns import Place
from bot.services.plan_edits import PlanEdit
from bot.services.standing import StandingView
from bot.web.actions import Api, ApiRefusal, _text, json_errors, order_of
from bot.web.table_view import unmarked


def _number(body: dict[str, Any], name: str, required: bool = False) -> int | None:
    """A whole number of the body (1 for the first), refused when it is anything else."""
    value = body.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 < value <= 100:
        raise ApiRefusal(422, f"`{name}` is which one: 1 for the first.")
    return value


def standing_json(view: StandingView) -> dict[str, Any]:
    """One instruction as the page lists it, with what its Remove button sends."""
    return {
        "words": unmarked(instruction_words(view)),
        "side": view.side_id,
        "topic": view.topic_id,
        "unit": view.unit_id,
    }


@dataclass
class PlanApi:
    """The plan panel's routes, over the write API's doors (``api``)."""

    api: Api

    def add_routes(self, router: web.UrlDispatcher, prefix: str) -> None:
        """Register the routes under a campaign's prefix (``/c/{campaign}``)."""
        routes = {
            "else": self.give_else,
            "alternative/move": self.move,
            "ask_me": self.ask_me,
            "standing/set": self.standing_set,
            "standing/clear": self.standing_clear,
            "standing/recommended": self.recommended,
        }
        for path, handler in routes.items():
            router.add_post(f"{prefix}/api/{path}", json_errors(handler))
        router.add_get(prefix + "/api/standing", json_errors(self.standing))

    async def _write(self, request: web.Request) -> tuple[Place, int, dict[str, Any], int | None]:
        """A write's place, user id, body and battle (to publish to)."""
        reader, user_id, body = await self.api._writer(request, self.api.writes)
        return reader.place, user_id, body, reader.battle_id

    def _done(self, battle_id: int | None, text: str) -> web.Response:
        """Tell every page of the battle, and answer the writer."""
        if battle_id is not None:
            self.api.hub.publish(battle_id)
        return web.json_response({"ok": True, "text": text})

    async def give_else(self, request: web.Request) -> web.Response:
        """``POST api/else``: an alternative to a planned order, as ``/order alternative``."""
        place, user_id, body, battle = await self._write(request)
        wanted, step = order_of(body)
        if step is None:
            raise ApiRefusal(422, "`step` is required: the later step the order is planned for.")
        services = self.api.services
        view = await services.alternatives.add(
            place, user_id, step, wanted, _number(body, "number")
        )
        return self._done(battle, alternative_text(view))

    async def move(self, request: web.Request) -> web.Response:
        """``POST api/alternative/move``: an alternative tried one place earlier or later."""

        def moved(body: dict[str, Any]) -> PlanEdit:
            which, number = _number(body, "alternative", required=True), _number(body, "number")
            if body.get("up") is True:
                return PlanEdit(earlier=which, number=number)
            return PlanEdit(later=which, number=number)

        return await self._changed(request, moved)

    async def ask_me(self, request: web.Request) -> web.Response:
        """``POST api/ask_me``: be asked (or not) when the planned order cannot be carried out."""

        def asked(body: dict[str, Any]) -> PlanEdit:
            on = body.get("on")
            if not isinstance(on, bool):
                raise ApiRefusal(422, "`on` is true (ask me) or false (use the default).")
            return PlanEdit(ask=on, number=_number(body, "number"))

        return await self._changed(request, asked)

    async def _changed(
        self, request: web.Request, edit_of: Callable[[dict[str, Any]], PlanEdit]
    ) -> web.Response:
        """A planned order changed as ``/plan change`` changes it."""
        place, user_id, body, battle = await self._write(request)
        step, unit = _text(body, "step"), _text(body, "unit")
        assert step is not None and unit is not None
        edits = self.api.services.plan_edits
        view = await edits.change(place, user_id, step, unit, edit_of(body))
        return self._done(battle, planned_text(view))

    async def standing(self, request: web.Request) -> web.Response:
        """``GET api/standing``: ``/standing list`` and what ``/standing set`` offers."""
        reader = await self.api.reader_of(request)
        user_id = self.api._member(reader, self.api.judgements)
        place, standing = reader.place, self.api.services.standing
        views = await standing.shown(place, user_id)
        topics = [
            {
                "id": topic,
                "title": title,
                "choices": await standing.choices(place, topic),
                "conditions": await standing.conditions(place, topic),
            }
            for topic, title in await standing.topics(place)
        ]
        found = await standing.recommended(place, user_id)
        return web.json_response(
            {
                "text": standing_list_text(views),
                "instructions": [standing_json(v) for v in views],
                "topics": topics,
                "units": await standing.units(place, user_id),
                "recommended": bool(found.side_id),
            }
        )

    async def standing_set(self, request: web.Request) -> web.Response:
        """``POST api/standing/set``: as ``/standing set``, answering an open question it covers."""
        place, user_id, body, battle = await self._write(request)
        topic, choice = _text(body, "topic"), _text(body, "choice")
        assert topic is not None and choice is not None
        condition = _text(body, "condition", required=False) or ""
        unit, side = _text(body, "unit", required=False), _text(body, "side", required=False)
        standing = self.api.services.standing
        view = await standing.set(place, user_id, topic, choice, condition, unit, side)
        await self._carried_on(place)
        return self._done(battle, standing_set_text(view))

    async def standing_clear(self, request: web.Request) -> web.Response:
        """``POST api/standing/clear``: as ``/standing clear``."""
        place, user_id, body, battle = await self._write(request)
        topic = _text(body, "topic", required=False)
        unit, side = _text(body, "unit", required=False), _text(body, "side", required=False)
        views = await self.api.services.standing.clear(place, user_id, topic, unit, side)
        return self._done(battle, standing_cleared_text(views))

    async def recommended(self, request: web.Request) -> web.Response:
        """``POST api/standing/recommended``: adopt the ruleset's recommended set, as the call to
        arms' button does."""
        place, user_id, _, battle = await self._write(request)
        views = await self.api.services.standing.accept_recommended(place, user_id)
        await self._carried_on(place)
        return self._done(battle, accepted_text(views))

    async def _carried_on(self, place: Place) -> None:
        """Answer an open question the instructions now cover, and post the step it resolves."""
        report = await self.api.services.standing.answer_open(place)
        if report is not None and self.api.reports is not None:
            await self.api.reports(report)
