"""The war table's HTTP server: routes, the link's cookie, the security headers, error pages.

Every request under ``/c/{campaign}/`` carries the cookie ``/t/{token}`` set, and asks the link
service who its holder is *now*; the pages decide nothing about access themselves.
"""

from __future__ import annotations

import functools
import logging
import re
import secrets
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp import web

from bot.config import Settings
from bot.errors import NotFound, PermissionDenied, UserError
from bot.presentation.web import error_page
from bot.services import Services
from bot.services.stages import StageReport
from bot.services.web_links import ASK_AGAIN, LinkRefused, Reader
from bot.web import live, pages
from bot.web.actions import Api, csrf_for
from bot.web.gm_api import Announce, GmApi
from bot.web.gm_terrain import GmTerrain
from bot.web.live import Hub
from bot.web.names import Namer
from bot.web.plan_api import PlanApi

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
STATIC_TYPES = {
    ".js": "text/javascript",
    ".css": "text/css",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
}
STATIC_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,80}")
SERVICES = web.AppKey("services", Services)
HUB = web.AppKey("hub", Hub)
API = web.AppKey("api", Api)  # the write routes (their rates)
SECURE = web.AppKey("secure", bool)
NAMES: web.AppKey[Namer | None] = web.AppKey("names")  # members' display names the bot keeps
Connected = Callable[[], bool]
CONNECTED: web.AppKey[Connected] = web.AppKey("connected")
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
NO_COOKIE = (
    "This page opens from your personal link: ask for it with `/battle table` in the "
    "campaign's channel (the link signs you in on this browser)."
)


def cookie_name(campaign_id: int) -> str:
    """The cookie that carries a campaign's link."""
    return f"adc_{campaign_id}"


async def _security_headers(request: web.Request, response: web.StreamResponse) -> None:
    """Every response, pages, errors, files and streams alike, carries the strict policy."""
    response.headers.update(SECURITY_HEADERS)
    if request.path.startswith(("/c/", "/t/")):  # one member's view: never kept by a cache
        response.headers["Cache-Control"] = "no-store"


def _page(status: int, title: str, message: str) -> web.Response:
    return web.Response(
        status=status, text=error_page(status, title, message), content_type="text/html"
    )


@web.middleware
async def _error_pages(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Refusals and failures as small pages, never a stack trace."""
    try:
        return await handler(request)
    except LinkRefused as refused:
        return _page(403, "This link does not open the table", refused.message)
    except PermissionDenied as denied:
        return _page(403, "Not yours to see", denied.message)
    except NotFound as missing:
        return _page(404, "Not found", missing.message)
    except UserError as error:
        return _page(409, "Not now", error.message)
    except web.HTTPException as http:
        if http.status < 400:
            raise
        return _page(http.status, http.reason, "There is nothing here. " + ASK_AGAIN)
    except Exception:
        reference = secrets.token_hex(4)
        log.exception(
            "war table: %s %s failed (reference %s)", request.method, request.path, reference
        )
        return _page(
            500, "Something went wrong", f"The bot could not draw this (reference {reference})."
        )


async def health(request: web.Request) -> web.Response:
    """``/health``: the web server answers; is the bot connected, does the database answer."""
    database = await request.app[SERVICES].web_links.database_answers()
    body = {"web": "ok", "discord": bool(request.app[CONNECTED]()), "database": database}
    return web.json_response(body, status=200 if database else 503)


async def open_link(request: web.Request) -> web.Response:
    """``/t/{token}``: check the link, keep it in the campaign's cookie, go to the table by a
    URL without the token (so it stays out of history, logs and referrers)."""
    token = request.match_info["token"]
    reader, left_s = await request.app[SERVICES].web_links.open_link(token)
    where = f"/c/{reader.campaign_id}/"
    response = web.Response(status=303, headers={"Location": where})
    response.set_cookie(
        cookie_name(reader.campaign_id),
        token,
        path=where,
        max_age=left_s,
        httponly=True,
        samesite="Strict",
        secure=request.app[SECURE],
    )
    return response


async def reader_of(request: web.Request) -> Reader:
    """The reader of a request under ``/c/{campaign}/``, asked of the link service now."""
    try:
        campaign_id = int(request.match_info["campaign"])
    except ValueError:
        raise web.HTTPNotFound() from None
    token = request.cookies.get(cookie_name(campaign_id))
    if not token:
        raise LinkRefused(NO_COOKIE)
    return await request.app[SERVICES].web_links.reader(token, campaign_id)


def token_of(request: web.Request) -> str:
    """The link's token a request under ``/c/{campaign}/`` carries ("" if none)."""
    return request.cookies.get(cookie_name(int(request.match_info["campaign"])), "")


async def table(request: web.Request) -> web.Response:
    """The table's page (for a member, with the token its writes send; a spectator's writes
    nothing)."""
    services, reader = request.app[SERVICES], await reader_of(request)
    csrf = "" if reader.user_id is None else await csrf_for(services, token_of(request))
    html = await pages.table_page(services, reader, csrf, request.app[NAMES])
    return web.Response(text=html, content_type="text/html")


async def map_svg(request: web.Request) -> web.Response:
    """The battle as SVG, in the reader's view."""
    svg = await pages.map_svg(request.app[SERVICES], await reader_of(request))
    return web.Response(text=svg, content_type="image/svg+xml")


async def state(request: web.Request) -> web.Response:
    """What the page shows besides the map, as JSON."""
    reader = await reader_of(request)
    data = await pages.table_state(request.app[SERVICES], reader, request.app[NAMES])
    return web.json_response(data)


async def events(request: web.Request) -> web.StreamResponse:
    """The battle's news for an open page (server-sent events)."""
    reader = await reader_of(request)
    if reader.battle_id is None:
        raise web.HTTPNotFound()
    return await live.stream(request, request.app[HUB], reader.battle_id)


async def replay_index(request: web.Request) -> web.Response:
    """The stages the reader may replay."""
    data = await pages.replay_index(request.app[SERVICES], await reader_of(request))
    return web.json_response(data)


async def replay_frame(request: web.Request) -> web.Response:
    """One stage of the replay as SVG."""
    reader = await reader_of(request)
    number = request.match_info["n"]
    if not number.isdigit() or len(number) > 9:
        raise web.HTTPNotFound()
    svg = await pages.replay_frame(request.app[SERVICES], reader, int(number))
    return web.Response(text=svg, content_type="image/svg+xml")


async def static(request: web.Request) -> web.Response:
    """A file of ``bot/web/static`` (only those: no folders, no listing, no other file)."""
    name = request.match_info["name"]
    kind = STATIC_TYPES.get(Path(name).suffix)
    body = _static_bytes(STATIC, name) if STATIC_NAME.fullmatch(name) and kind is not None else None
    if body is None or kind is None:
        raise web.HTTPNotFound()
    return web.Response(body=body, content_type=kind)


@functools.cache
def _static_bytes(folder: Path, name: str) -> bytes | None:
    """A static file's bytes, read from disk once (they come with the installed package);
    None when there is no such file."""
    path = folder / name
    return path.read_bytes() if path.is_file() else None


def make_app(
    services: Services,
    hub: Hub,
    settings: Settings,
    connected: Callable[[], bool] = lambda: False,
    reports: Callable[[StageReport], Awaitable[None]] | None = None,
    announce: Announce | None = None,
    names: Namer | None = None,
) -> web.Application:
    """The war table's application over the bot's services (``reports``: posts a step
    resolved from the page to its channel; ``announce``: posts a text there; ``names``: the
    members' display names the bot keeps)."""
    app = web.Application(middlewares=[_error_pages], client_max_size=64 * 1024)
    app[SERVICES], app[HUB], app[CONNECTED] = services, hub, connected
    app[SECURE] = settings.web_url.lower().startswith("https://")
    app[NAMES] = names
    app.on_response_prepare.append(_security_headers)
    cid = "/c/{campaign:[0-9]{1,18}}"
    app.router.add_get("/health", health)
    app.router.add_get("/t/{token}", open_link)
    app.router.add_get(cid + "/", table)
    app.router.add_get(cid + "/map.svg", map_svg)
    app.router.add_get(cid + "/state.json", state)
    app.router.add_get(cid + "/events", events)
    app.router.add_get(cid + "/replay.json", replay_index)
    app.router.add_get(cid + "/replay/{n}.svg", replay_frame)
    app[API] = Api(services, hub, reader_of, token_of, reports)
    app[API].add_routes(app.router, cid)
    gm = GmApi(app[API], announce)
    gm.add_routes(app.router, cid)
    GmTerrain(gm).add_routes(app.router, cid)
    PlanApi(app[API]).add_routes(app.router, cid)
    app.router.add_get("/static/{name}", static)
    return app


class WebServer:
    """The war table served from the bot's process: started and stopped with the bot."""

    def __init__(self, app: web.Application, host: str, port: int) -> None:
        self.app, self.host, self.port = app, host, port
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        """Listen; ``port`` is then the bound port (the one asked for, or a free one for 0)."""
        runner = web.AppRunner(self.app, access_log=None, handle_signals=False)
        await runner.setup()
        try:
            await web.TCPSite(runner, self.host, self.port).start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        address: Any = runner.addresses[0]
        self.port = int(address[1])

    async def stop(self) -> None:
        """Stop listening and close open connections (streams included)."""
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()
