"""The war table's writes: orders given by pointing, through the same services as ``/order``.

JSON in, JSON out. Every POST carries the page's anti-forgery token (``X-CSRF-Token``, bound to
the link: ``WebLinkService.csrf``), ``Content-Type: application/json`` and, when the browser
sends one, a same-origin ``Origin``; each member has a rate of writes and a larger one of
judgements. Services decide who may do what and answer in the slash commands' words.

Shapes (``{cid}`` the campaign):
- ``GET /c/{cid}/api/choices?unit=U`` → ``{"actor": {"id", "name", "kind"}, "steps": [{"key",
  "words", "open", "kinds": [{"id", "title", "params": [{"name", "type", "required",
  "choices"}]}]}]}``
- ``POST /c/{cid}/api/judge`` ``{"step", "kind", "unit", "params"}`` → ``{"ok", "text"}`` and,
  for an order with a point or path, the rules' facts: ``"path"`` ``[[x, y], ...]`` (from the
  unit, the way the rules take it), ``"used"`` (its length), ``"left"`` (the distance the unit
  has after it; when refused, all it has), ``"terrain"`` (names crossed) and, for an "as far
  as possible" move cut short, ``"stops_at"`` ``[x, y]``; and ``"odds"`` for a charge or a
  shot, as ``/odds`` gives them: ``{"title", "lines": [[label, percent], ...], "assumes"}``, a
  line with no percent a table's title (``bot.web.odds_view``); nothing is kept.
- ``GET /c/{cid}/api/reach?unit=U&kind=K&step=S`` → ``{"outline": [[x, y], ...]}``: where the
  unit can get with a move of that kind (each bearing's farthest candidate the rules accept).
- ``POST /c/{cid}/api/order`` same, with ``"ask_me"``, ``"as_far_as_possible"`` → ``{"ok",
  "text"}``; a refused order: 422 ``{"ok": false, "text", "error"}``.
- ``POST /c/{cid}/api/withdraw`` ``{"unit", "step"?, "number"?}`` → ``{"ok", "text"}``.
- ``POST /c/{cid}/api/done`` ``{"turn"}`` → ``{"ok", "text"}``; with nothing planned and
  ``turn``: ``{"confirm": question}`` until sent again with ``"confirmed": true``.
- ``POST /c/{cid}/api/answer`` ``{"decision"?, "choice"}`` (an option's id or label, a unit,
  ``[x, y]``, a number) → ``{"ok", "text"}``, as ``/answer`` (``bot.web.gm_api``).
- ``GET /c/{cid}/api/gm/orders`` → ``{"lines"}``, ``/orders all`` as a GM reads it; GMs only.
- ``POST /c/{cid}/api/gm/move`` ``{"unit", "to": [x, y], "facing"?, "reason"}`` → ``{"ok",
  "text"}``, as ``/gm move``; GMs only, the reason required.
- The plan for the turn (an "else", alternatives moved, ``ask_me``, standing instructions):
  ``bot.web.plan_api``'s shapes.
- Any refusal: 4xx ``{"error": message}`` (403 forgery, spectators, permissions; 404 not found;
  409 not now; 415 not JSON; 422 bad input; 429 too fast).

``params`` maps the order kind's parameter names to values: a unit, leader or group by id or
name, a point ``[x, y]``, a path ``[[x, y], ...]``, a number, a choice or text.
"""

from __future__ import annotations

import hmac
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web

from bot.errors import (
    HandedAway,
    InvalidInput,
    NotFound,
    NotYourGroup,
    PermissionDenied,
    RefusedOrder,
    UserError,
)
from bot.presentation.orders import (
    RESOLVING,
    RESOLVING_TURN,
    preview_text,
    turn_defaults_question,
    waiting_text,
    withdrawn_text,
)
from bot.presentation.refusals import refused_text
from bot.presentation.replies import handed_away_text, not_your_group_text
from bot.services import Services
from bot.services.aiming import aimed, reach
from bot.services.intake import Wanted
from bot.services.order_choices import ActorChoices
from bot.services.order_params import OrderInput
from bot.services.stages import StageReport
from bot.services.web_links import Reader
from bot.web.aiming import aimed_json, reach_json
from bot.web.live import Hub
from bot.web.odds_view import odds_json

CSRF_HEADER = "X-CSRF-Token"
ReaderOf = Callable[[web.Request], Awaitable[Reader]]
TokenOf = Callable[[web.Request], str]
Reports = Callable[[StageReport], Awaitable[None]]
FORGED = (
    "This request did not come from your war table's page (its security token is missing or "
    "wrong): reload the page and try again."
)
SPECTATOR = (
    "A spectator's link shows the table; it gives no orders. Members give orders with their "
    "own link (`/battle table`)."
)
SLOW_DOWN = "Slow down: too many requests from you at once. Wait a moment and try again."
NOT_JSON = "The war table's requests are JSON (`Content-Type: application/json`)."
MAX_TEXT = 400
MAX_POINTS = 64


class ApiRefusal(Exception):
    """A request refused before any service saw it: its status and message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


@dataclass
class Bucket:
    """A token bucket: ``capacity`` requests at once, refilled at ``per_s`` a second."""

    capacity: float
    per_s: float
    clock: Callable[[], float] = time.monotonic
    _held: dict[tuple[int, int], tuple[float, float]] = field(default_factory=dict)

    def take(self, key: tuple[int, int]) -> bool:
        """Take one token for this member (campaign, user); False when there is none left."""
        now = self.clock()
        tokens, then = self._held.get(key, (self.capacity, now))
        tokens = min(self.capacity, tokens + (now - then) * self.per_s)
        if tokens < 1:
            self._held[key] = (tokens, now)
            return False
        self._held[key] = (tokens - 1, now)
        if len(self._held) > 10_000:  # members long gone: forget the oldest half
            for old in sorted(self._held, key=lambda k: self._held[k][1])[:5_000]:
                del self._held[old]
        return True


def answer_text(error: UserError) -> str:
    """A service's refusal in the words ``/order`` answers it with."""
    if isinstance(error, NotYourGroup):
        return not_your_group_text(error)
    if isinstance(error, HandedAway):
        return handed_away_text(error)
    if isinstance(error, RefusedOrder):
        return refused_text(error)
    return error.message


def status_of(error: UserError) -> int:
    """The HTTP status of a service's refusal."""
    if isinstance(error, PermissionDenied):
        return 403
    if isinstance(error, NotFound):
        return 404
    if isinstance(error, InvalidInput):
        return 422
    return 409


def _refused(status: int, message: str, **more: Any) -> web.Response:
    return web.json_response({"error": message, **more}, status=status)


def _value(name: str, value: Any) -> str:
    """A parameter's value as ``/order give`` types it (``x,y``, ``x,y x,y``, a number)."""
    if isinstance(value, str) and 0 < len(value) <= MAX_TEXT:
        return value
    if isinstance(value, bool):
        pass
    elif isinstance(value, int | float):
        return repr(float(value))
    elif _is_point(value):
        return f"{float(value[0])!r},{float(value[1])!r}"
    elif isinstance(value, list) and 0 < len(value) <= MAX_POINTS and all(map(_is_point, value)):
        return " ".join(f"{float(p[0])!r},{float(p[1])!r}" for p in value)
    raise ApiRefusal(422, f"`{name}` takes a name, a number, a point [x, y] or a path [[x, y], …].")


def _is_point(value: Any) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(c, int | float) and not isinstance(c, bool) for c in value)
    )


def _text(body: dict[str, Any], name: str, required: bool = True) -> str | None:
    value = body.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not 0 < len(value) <= MAX_TEXT:
        raise ApiRefusal(422, f"`{name}` is required: a name or id of at most {MAX_TEXT} letters.")
    return value


def order_of(body: dict[str, Any]) -> tuple[Wanted, str | None]:
    """The order a body gives and its step; a malformed one is refused."""
    kind, unit = _text(body, "kind"), _text(body, "unit")
    assert kind is not None and unit is not None  # required
    params = body.get("params") or {}
    if not isinstance(params, dict) or len(params) > 20:
        raise ApiRefusal(422, "`params` maps the order's parameter names to their values.")
    named = {str(name)[:40]: _value(str(name), value) for name, value in params.items()}
    far = body.get("as_far_as_possible") is True
    given = OrderInput(named=named, as_far_as_possible=far)
    return Wanted(kind, unit, given), _text(body, "step", required=False)


def choices_json(choices: ActorChoices) -> dict[str, Any]:
    """An actor's order forms as the page builds them."""
    return {
        "actor": {"id": choices.actor_id, "name": choices.name, "kind": choices.actor_kind},
        "steps": [
            {
                "key": step.key,
                "words": step.words,
                "open": step.open,
                "kinds": [
                    {
                        "id": kind.id,
                        "title": kind.title,
                        "params": [
                            {
                                "name": p.name,
                                "type": p.kind,
                                "required": p.required,
                                "choices": list(p.choices),
                            }
                            for p in kind.params
                        ],
                    }
                    for kind in step.kinds
                ],
            }
            for step in choices.steps
        ],
    }


def _left(error: RefusedOrder) -> dict[str, float]:
    """The distance a unit has, when the refusal says its move is too long."""
    found = [way.distance for way in error.ways if way.kind == "distance"]
    return {"left": round(found[0], 2)} if found else {}


async def csrf_for(services: Services, token: str) -> str:
    """The anti-forgery token the page of this link sends back with every write."""
    return await services.web_links.csrf(token)


Handler = Callable[[web.Request], Awaitable[web.Response]]


def json_errors(handler: Handler) -> Handler:
    """Refusals as JSON (never a page, never a stack trace)."""

    async def answered(request: web.Request) -> web.Response:
        try:
            return await handler(request)
        except ApiRefusal as refusal:
            return _refused(refusal.status, refusal.message)
        except RefusedOrder as refused:
            text = answer_text(refused)
            return _refused(422, text, ok=False, text=text, **_left(refused))
        except UserError as error:
            return _refused(status_of(error), answer_text(error))

    return answered


@dataclass
class Api:
    """The write routes over the bot's services: who asks (``reader_of``, the link's token),
    where news goes (``hub``) and resolved steps (``reports``: posted to Discord)."""

    services: Services
    hub: Hub
    reader_of: ReaderOf
    token_of: TokenOf
    reports: Reports | None = None
    writes: Bucket = field(default_factory=lambda: Bucket(capacity=20, per_s=2.0))
    judgements: Bucket = field(default_factory=lambda: Bucket(capacity=40, per_s=10.0))

    def add_routes(self, router: web.UrlDispatcher, prefix: str) -> None:
        """Register the routes under a campaign's prefix (``/c/{campaign}``)."""
        router.add_get(prefix + "/api/choices", json_errors(self.choices))
        router.add_post(prefix + "/api/judge", json_errors(self.judge))
        router.add_get(prefix + "/api/reach", json_errors(self.reach))
        router.add_post(prefix + "/api/order", json_errors(self.order))
        router.add_post(prefix + "/api/withdraw", json_errors(self.withdraw))
        router.add_post(prefix + "/api/done", json_errors(self.done))

    @staticmethod
    def _member(reader: Reader, bucket: Bucket) -> int:
        """The reader's user id: a member's (a spectator writes nothing), within their rate."""
        if reader.user_id is None:
            raise ApiRefusal(403, SPECTATOR)
        if not bucket.take((reader.campaign_id, reader.user_id)):
            raise ApiRefusal(429, SLOW_DOWN)
        return reader.user_id

    async def _writer(
        self, request: web.Request, bucket: Bucket
    ) -> tuple[Reader, int, dict[str, Any]]:
        """A POST's reader and body, once it is JSON, same-origin and carries the token."""
        if request.content_type != "application/json":
            raise ApiRefusal(415, NOT_JSON)
        origin = request.headers.get("Origin")
        if origin is not None and origin not in self._origins(request):
            raise ApiRefusal(403, FORGED)
        reader = await self.reader_of(request)  # a bad link is refused first, saying why
        expected = await csrf_for(self.services, self.token_of(request))
        if not hmac.compare_digest(request.headers.get(CSRF_HEADER, ""), expected):
            raise ApiRefusal(403, FORGED)
        user_id = self._member(reader, bucket)
        try:
            body = await request.json()
        except ValueError:
            raise ApiRefusal(422, "The request's body is not JSON.") from None
        if not isinstance(body, dict):
            raise ApiRefusal(422, "The request's body is a JSON object.")
        return reader, user_id, body

    def _origins(self, request: web.Request) -> set[str]:
        """The page's own origin: as this server is reached, and as its public address."""
        public = urlsplit(self.services.web_links.base_url)
        return {f"{request.scheme}://{request.host}", f"{public.scheme}://{public.netloc}"}

    def _published(self, reader: Reader) -> None:
        if reader.battle_id is not None:
            self.hub.publish(reader.battle_id)

    async def choices(self, request: web.Request) -> web.Response:
        """``GET api/choices?unit=``: the order forms of one of the reader's actors."""
        reader = await self.reader_of(request)
        user_id = self._member(reader, self.judgements)
        unit = _text(dict(request.query), "unit")
        assert unit is not None
        found = await self.services.lookups.order_choices(reader.place, user_id, unit)
        return web.json_response(choices_json(found))

    async def judge(self, request: web.Request) -> web.Response:
        """``POST api/judge``: the verdict on an order as drawn, keeping nothing."""
        reader, user_id, body = await self._writer(request, self.judgements)
        wanted, step = order_of(body)
        found = await aimed(self.services.play.db, reader.place, user_id, wanted, step)
        if found.refused is not None:
            refusal = (answer_text(found.refused), _left(found.refused))
            judged = aimed_json(found, *refusal)
        else:
            assert found.view is not None  # judged legal
            judged = aimed_json(found, preview_text(found.view), {})
        if found.odds is not None:
            judged["odds"] = odds_json(found.odds)
        return web.json_response(judged)

    async def reach(self, request: web.Request) -> web.Response:
        """``GET api/reach?unit=&kind=&step=``: where the unit can get with this move."""
        reader = await self.reader_of(request)
        user_id = self._member(reader, self.judgements)
        query = dict(request.query)
        unit, kind = _text(query, "unit"), _text(query, "kind")
        assert unit is not None and kind is not None
        step = _text(query, "step", required=False)
        outline = await reach(self.services.play.db, reader.place, user_id, unit, kind, step)
        return web.json_response(reach_json(outline))

    async def order(self, request: web.Request) -> web.Response:
        """``POST api/order``: give (or plan) the order, as ``/order give`` does."""
        reader, user_id, body = await self._writer(request, self.writes)
        wanted, step = order_of(body)
        ask_me = body.get("ask_me") is True
        view = await self.services.play.submit(
            reader.place, user_id, wanted.kind, wanted.unit, wanted.given, step, ask_me
        )
        self._published(reader)
        return web.json_response({"ok": True, "text": preview_text(view)})

    async def withdraw(self, request: web.Request) -> web.Response:
        """``POST api/withdraw``: take an order back, as ``/order withdraw`` does."""
        reader, user_id, body = await self._writer(request, self.writes)
        unit, step = _text(body, "unit"), _text(body, "step", required=False)
        assert unit is not None
        number = body.get("number")
        if number is not None and (not isinstance(number, int) or isinstance(number, bool)):
            raise ApiRefusal(422, "`number` is which of the unit's orders: 1 for the first.")
        view = await self.services.play.withdraw(reader.place, user_id, unit, number, step)
        self._published(reader)
        return web.json_response({"ok": True, "text": withdrawn_text(view)})

    async def done(self, request: web.Request) -> web.Response:
        """``POST api/done``: orders complete for the step (``turn``: for the turn), asking
        first, as Discord does, when nothing is planned for the rest of the turn."""
        reader, user_id, body = await self._writer(request, self.writes)
        turn = body.get("turn") is True
        if turn and body.get("confirmed") is not True:
            unplanned = await self.services.turn_defaults.unplanned(reader.place, user_id)
            if unplanned is not None:
                return web.json_response({"confirm": turn_defaults_question(unplanned)})
        confirmed = await self.services.play.confirm(reader.place, user_id, turn)
        self._published(reader)
        if confirmed.report is None:
            return web.json_response({"ok": True, "text": waiting_text(confirmed)})
        if self.reports is not None:
            await self.reports(confirmed.report)
        return web.json_response({"ok": True, "text": RESOLVING_TURN if turn else RESOLVING})
