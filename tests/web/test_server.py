"""The war table's server: the security headers on every response (pages, errors, files,
redirects), error pages without a trace, the static files and nothing else, /health."""

from __future__ import annotations

from pathlib import Path

import pytest
from aiohttp import ClientResponse

from bot.db.session import Database
from bot.services import Services
from bot.web import pages, server
from bot.web.server import CSP
from tests.conftest import ALICE
from tests.web.table import ENDPOINTS, Table, client_of

HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def assert_guarded(response: ClientResponse) -> None:
    """The response carries the strict policy and its companions."""
    for name, value in HEADERS.items():
        assert response.headers.get(name) == value, (response.url, name)


@pytest.fixture
def static(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A static folder with one script, one style and a file that is not served."""
    (tmp_path / "table.js").write_text("export const x = 1;\n")
    (tmp_path / "table.css").write_text("main { margin: 0 }\n")
    (tmp_path / "notes.txt").write_text("not served\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "folder.js").mkdir()
    (tmp_path / ".hidden.js").write_text("export const secret = 1;\n")
    monkeypatch.setattr(server, "STATIC", tmp_path)
    return tmp_path


async def test_every_response_carries_the_policy(table: Table, static: Path) -> None:
    token = await table.token(ALICE)
    cid, cookie = table.campaign_id, {"Cookie": f"adc_{table.campaign_id}={token}"}
    seen = set()
    for path in [f"/c/{cid}/{e}" for e in ENDPOINTS]:
        for headers in (cookie, {}):  # the page and its refusal
            response = await table.client.get(path, headers=headers)
            seen.add(response.status)
            assert_guarded(response)
            assert response.headers["Cache-Control"] == "no-store"
            response.close()
    others = [
        ("GET", f"/t/{token}"),
        ("GET", "/t/bad"),
        ("GET", "/health"),
        ("GET", "/static/table.js"),
        ("GET", "/static/missing.js"),
        ("GET", "/nowhere"),
        ("POST", f"/c/{cid}/"),
    ]
    for method, path in others:
        response = await table.client.request(method, path, allow_redirects=False)
        seen.add(response.status)
        assert_guarded(response)
    assert seen == {200, 303, 403, 404, 405}


async def test_static_files_and_nothing_else(table: Table, static: Path) -> None:
    script = await table.client.get("/static/table.js")
    assert script.status == 200 and script.content_type == "text/javascript"
    assert await script.text() == "export const x = 1;\n"
    style = await table.client.get("/static/table.css")
    assert style.status == 200 and style.content_type == "text/css"
    for name in (
        "notes.txt",
        "sub",
        "folder.js",
        "",
        ".hidden.js",
        "..%2Fserver.py",
        "%2e%2e/x.js",
    ):
        response = await table.client.get(f"/static/{name}")
        assert response.status == 404, name
        assert response.content_type == "text/html"


async def test_a_failure_is_a_small_page_without_a_trace(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(*_: object) -> str:
        raise RuntimeError("secret detail of the failure")

    monkeypatch.setattr(pages, "table_page", broken)
    token = await table.token(ALICE)
    cid = table.campaign_id
    response = await table.client.get(f"/c/{cid}/", headers={"Cookie": f"adc_{cid}={token}"})
    assert response.status == 500
    assert_guarded(response)
    text = await response.text()
    assert "reference" in text and "secret detail" not in text and "Traceback" not in text
    assert "<script" not in text and "style" not in text


async def test_health_says_what_answers(services: Services) -> None:
    async with client_of(services, connected=True) as client:
        response = await client.get("/health")
        assert response.status == 200
        assert await response.json() == {"web": "ok", "discord": True, "database": True}
    async with client_of(services, connected=False) as client:
        assert (await (await client.get("/health")).json())["discord"] is False


async def test_health_is_503_when_the_database_fails(tmp_path: Path) -> None:
    garbage = tmp_path / "aide.db"
    garbage.write_bytes(b"not a database " * 100)  # SQLite opens it, then cannot read it
    broken = Database.from_url(f"sqlite+aiosqlite:///{garbage}")
    try:
        async with client_of(Services.build(broken)) as client:
            response = await client.get("/health")
            assert response.status == 503
            assert await response.json() == {"web": "ok", "discord": False, "database": False}
            assert_guarded(response)
    finally:
        await broken.dispose()


async def test_a_replay_frame_number_must_be_a_number(table: Table) -> None:
    token = await table.token(ALICE)
    for frame in ("-1", "x", "1e3", "99999999999"):
        assert await table.get(token, f"replay/{frame}.svg") == 404, frame
