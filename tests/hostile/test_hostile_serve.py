"""Threat: any web page the reviewer has open drives ``reviewtui serve``'s workbench.

A page at ``http://evil.example`` could open a websocket to ``127.0.0.1:8000`` and press
``y``. The server now serves the page only with this launch's token (printed by ``serve``)
and refuses websockets without the token or from another origin, with a raw websocket
client standing in for the hostile page. The real-browser path is tests/ui/test_browser.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from reviewtui.shell.serve import plan_serve
from reviewtui.shell.serve_guard import parse_origin, served_origins

START_TIMEOUT = 20.0


@dataclass
class Running:
    port: int
    address: str  # the URL serve printed, with the token
    token: str

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def running() -> Iterator[Running]:
    """``reviewtui serve --dry-run`` on the demo (a scratch copy per connection).

    One server for the module's tests: each only sends requests and opens websockets,
    which the server answers from the request alone (the token, the origin), and an
    accepted websocket works on a scratch copy of its own; a server start costs ~0.5 s
    of CPU in its child processes."""
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "reviewtui", "serve", "--port", str(port), "--dry-run"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True, start_new_session=True)
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        found = re.search(r"open (\S+) in a browser", first)
        assert found, first
        address = found.group(1)
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            assert process.poll() is None, "reviewtui serve exited"
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "reviewtui serve did not listen"
                time.sleep(0.05)
        token = parse_qs(urlsplit(address).query).get("token", [""])[0]
        yield Running(port, address, token)
    finally:
        for sig in (signal.SIGTERM, signal.SIGKILL):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, sig)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(5)
        if process.stdout is not None:
            process.stdout.close()


async def _status(url: str) -> int:
    import aiohttp  # here, not at collection: ~0.14 s of every suite worker's start

    async with aiohttp.ClientSession() as http, http.get(url) as response:
        return response.status


async def _page(url: str) -> str:
    import aiohttp

    async with aiohttp.ClientSession() as http, http.get(url) as response:
        assert response.status == 200
        assert response.headers.get("Referrer-Policy") == "no-referrer"
        return await response.text()


async def _websocket(url: str, origin: str | None) -> int | str:
    """403 (or another status) when refused; "open" and the first bytes when accepted."""
    import aiohttp

    headers = {"Origin": origin} if origin is not None else {}
    async with aiohttp.ClientSession() as http:
        try:
            ws = await http.ws_connect(url, headers=headers)
        except aiohttp.WSServerHandshakeError as refused:
            return refused.status
        async with ws:
            await ws.send_json(["resize", {"width": 80, "height": 24}])
            message = await asyncio.wait_for(ws.receive(), 20)
            return f"open:{message.type.name}"


def test_the_printed_url_carries_an_unguessable_token(running: Running) -> None:
    assert running.address.startswith(f"http://127.0.0.1:{running.port}/?token=")
    assert len(running.token) >= 40
    tour = Path(__file__).resolve().parents[2] / "sample_sessions" / "workshop-tour"
    assert len({running.token, plan_serve(tour, None).token, plan_serve(tour, None).token}) == 3


def test_the_page_needs_the_token(running: Running) -> None:
    assert asyncio.run(_status(f"{running.base}/")) == 403
    assert asyncio.run(_status(f"{running.base}/?token=wrong")) == 403
    assert asyncio.run(_status(f"{running.base}/?token={running.token[:-1]}")) == 403
    page = asyncio.run(_page(running.address))
    assert f"ws://127.0.0.1:{running.port}/ws/{running.token}" in page


def test_a_websocket_without_the_token_is_refused(running: Running) -> None:
    ws = f"ws://127.0.0.1:{running.port}"
    origin = running.base
    assert asyncio.run(_websocket(f"{ws}/ws", origin)) == 403  # textual-serve's own route
    assert asyncio.run(_websocket(f"{ws}/ws?token={running.token}", origin)) == 403
    assert asyncio.run(_websocket(f"{ws}/ws/wrong-token", origin)) == 403
    assert asyncio.run(_websocket(f"{ws}/ws/wrong-token", None)) == 403


def test_a_cross_origin_websocket_is_refused_even_with_the_token(running: Running) -> None:
    ws = f"ws://127.0.0.1:{running.port}/ws/{running.token}"
    for origin in ("http://evil.example", f"http://evil.example:{running.port}",
                   f"https://127.0.0.1:{running.port}", "http://127.0.0.1:1",
                   "null", "file://", ""):
        assert asyncio.run(_websocket(ws, origin)) == 403, origin


@pytest.mark.slow
def test_the_right_token_from_the_page_origin_gets_a_workbench(running: Running) -> None:
    ws = f"ws://127.0.0.1:{running.port}/ws/{running.token}"
    assert str(asyncio.run(_websocket(ws, running.base))).startswith("open:")
    assert str(asyncio.run(_websocket(ws, f"http://localhost:{running.port}"))).startswith(
        "open:")
    # A client with no Origin header is no browser page; it still needs the token.
    assert str(asyncio.run(_websocket(ws, None))).startswith("open:")


def test_downloads_are_not_served(running: Running) -> None:
    assert asyncio.run(_status(f"{running.base}/download/anything")) == 403


def test_origins_are_compared_as_scheme_host_and_port() -> None:
    origins = served_origins("http://127.0.0.1:8000", "127.0.0.1", 8000, loopback=True)
    assert parse_origin("http://LOCALHOST:8000") in origins
    assert parse_origin("http://[::1]:8000") in origins
    assert parse_origin("http://127.0.0.1:8001") not in origins
    assert parse_origin("http://127.0.0.1") not in origins
    public = served_origins("https://review.example.org/", "0.0.0.0", 8000, loopback=False)
    assert parse_origin("https://review.example.org") in public
    assert parse_origin("http://localhost:8000") not in public
    assert parse_origin("not a url") is None
    assert parse_origin("http://x:99999") is None
