"""The workbench in a real browser: ``reviewtui serve`` in headless Chromium, over CDP.

textual-serve's page (``static/js/textual.js``) draws the terminal with xterm.js and loads
both the WebGL and the canvas addon, so the text ends up as pixels: the DOM rows are empty,
and the ``Terminal`` object lives in a local variable of the page's ``window.onload``, out
of reach. Before the page loads, the test therefore installs a setter for the two property
names textual.js stores the addons under (``this.webglAddon = ...``,
``this.canvasAddon = ...``) that turns their ``activate`` into a no-op. xterm.js then keeps
its built-in DOM renderer, and the rendered screen is ordinary text in ``.xterm-rows``.

That swaps only the drawing layer: the server, the websocket, xterm.js's parser and its
keyboard input are what a user's browser runs. Chromium is driven over the Chrome DevTools
Protocol with aiohttp's websocket client (aiohttp comes with textual-serve), and resolves
no name at all, so the test needs nothing beyond loopback.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import pytest

REPO = Path(__file__).resolve().parents[2]
TOUR = REPO / "sample_sessions" / "workshop-tour"
# Every wait is bounded, 60 s in all; a run here takes about 3 s (setup 0.6, drive 0.9).
START_TIMEOUT = 15.0  # each: the server's port, Chromium's DevTools endpoint
BUDGET = 30.0  # the page, the turn list, the key press and the file on disk
TURN_LIST_TEXT = "T1 0/1 Fix the"
ACCEPTED_TEXT = 'return f"Hello, {name}!"'

CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--no-proxy-server", "--window-size=1280,800",
    # The page links a Google Fonts stylesheet; fail it at once instead of waiting on DNS.
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]

# Runs before textual.js. See the module docstring.
DOM_RENDERER_HOOK = """
(() => {
  window.__reviewtuiDisabledAddons = [];
  for (const name of ["webglAddon", "canvasAddon"]) {
    Object.defineProperty(Object.prototype, name, {
      configurable: true,
      set(addon) {
        addon.activate = () => {};
        Object.defineProperty(this, name, {value: addon, writable: true,
                                           configurable: true, enumerable: true});
        window.__reviewtuiDisabledAddons.push(name);
      },
    });
  }
})();
"""

PAGE_STATE = """
(() => {
  const rows = document.querySelector(".xterm-rows");
  return {
    opened: document.querySelector(".xterm") !== null,
    text: rows ? rows.innerText.replaceAll("\\u00a0", " ") : "",
    closed: document.body !== null && document.body.classList.contains("-closed"),
    disabled: window.__reviewtuiDisabledAddons || [],
  };
})()
"""


def _chromium() -> str | None:
    found = shutil.which("chromium")
    if found is None and os.access("/usr/bin/chromium", os.X_OK):
        found = "/usr/bin/chromium"
    return found


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _stop(process: subprocess.Popen[bytes]) -> None:
    """End the process's whole group (the server's workbenches, Chromium's helpers)."""
    for sig, grace in ((signal.SIGTERM, 3.0), (signal.SIGKILL, 2.0)):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, sig)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(grace)
    with contextlib.suppress(ProcessLookupError):  # helpers that outlived the leader
        os.killpg(process.pid, signal.SIGKILL)


def _tail(path: Path, limit: int = 3000) -> str:
    text = path.read_text(errors="replace") if path.exists() else ""
    return text[-limit:] or "(empty)"


@dataclass
class Served:
    url: str
    root: Path
    log: Path


@dataclass
class Browser:
    devtools_port: int
    log: Path


@pytest.fixture
def chromium_path() -> str:
    path = _chromium()
    if path is None:
        pytest.skip("Chromium is not installed (apt-get install chromium); "
                    "the browser test cannot run")
    return path


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    session = tmp_path / "session"  # the session without its base/, so --root is used
    session.mkdir()
    shutil.copy2(TOUR / "session.md", session / "session.md")
    root = shutil.copytree(TOUR / "base", tmp_path / "root")
    port = _free_port()
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "reviewtui", "serve", str(session), "--root", str(root),
             "--port", str(port)],
            stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if process.poll() is not None:
                pytest.fail(f"reviewtui serve exited with {process.returncode}:\n{_tail(log)}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"reviewtui serve did not listen on port {port} within "
                                f"{START_TIMEOUT:.0f} s:\n{_tail(log)}")
                time.sleep(0.05)
        # The page is served only with this launch's token: open the URL serve printed.
        printed = re.search(r"open (\S+) in a browser", log.read_text(errors="replace"))
        assert printed, f"reviewtui serve printed no URL:\n{_tail(log)}"
        assert printed.group(1).startswith(f"http://127.0.0.1:{port}/?token=")
        yield Served(url=printed.group(1), root=root, log=log)
    finally:
        _stop(process)


@pytest.fixture
def browser(chromium_path: str, tmp_path: Path) -> Iterator[Browser]:
    profile = tmp_path / "chromium-profile"
    profile.mkdir()
    home = tmp_path / "chromium-home"  # its crash-report database and caches go here
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
           "XDG_CACHE_HOME": str(home / ".cache")}
    log = tmp_path / "chromium.log"
    with log.open("wb") as out:
        # Port 0 and the DevToolsActivePort file: no race for a free port.
        process = subprocess.Popen(
            [chromium_path, *CHROMIUM_FLAGS, f"--user-data-dir={profile}",
             "--remote-debugging-port=0", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, env=env,
            start_new_session=True)
    try:
        active = profile / "DevToolsActivePort"
        deadline = time.monotonic() + START_TIMEOUT
        while not (active.exists() and active.read_text().strip()):
            if process.poll() is not None:
                pytest.fail(f"Chromium exited with {process.returncode}:\n{_tail(log)}")
            if time.monotonic() > deadline:
                pytest.fail(f"Chromium opened no DevTools port within {START_TIMEOUT:.0f} s:"
                            f"\n{_tail(log)}")
            time.sleep(0.05)
        yield Browser(devtools_port=int(active.read_text().split()[0]), log=log)
    finally:
        _stop(process)


class DevTools:
    """The few Chrome DevTools Protocol calls the test needs, on one page's websocket."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self._ws = ws
        self._ids = itertools.count(1)

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        call_id = next(self._ids)
        await self._ws.send_json({"id": call_id, "method": method, "params": params})
        while True:  # skip the events in between
            message: dict[str, Any] = await self._ws.receive_json()
            if message.get("id") == call_id:
                if "error" in message:
                    raise AssertionError(f"{method} failed: {message['error']}")
                result: dict[str, Any] = message["result"]
                return result

    async def evaluate(self, expression: str) -> Any:
        result = await self.call("Runtime.evaluate", expression=expression,
                                 returnByValue=True)
        if "exceptionDetails" in result:
            raise AssertionError(f"the page threw: {result['exceptionDetails']}")
        return result["result"].get("value")

    async def press(self, key: str) -> None:
        code = f"Key{key.upper()}"
        await self.call("Input.dispatchKeyEvent", type="keyDown", key=key, code=code,
                        text=key, windowsVirtualKeyCode=ord(key.upper()))
        await self.call("Input.dispatchKeyEvent", type="keyUp", key=key, code=code,
                        windowsVirtualKeyCode=ord(key.upper()))


@dataclass
class Progress:
    """What the test waits for and what the page showed last, for the failure message."""

    waiting_for: str = "Chromium's DevTools endpoint"
    page: dict[str, Any] = field(default_factory=dict)


async def _page_target(http: aiohttp.ClientSession, devtools_port: int) -> dict[str, Any]:
    while True:  # the first tab can show up a moment after the DevTools port
        async with http.get(f"http://127.0.0.1:{devtools_port}/json/list") as response:
            targets: list[dict[str, Any]] = await response.json()
        for target in targets:
            if target["type"] == "page":
                return target
        await asyncio.sleep(0.05)


async def _drive(served: Served, browser: Browser, progress: Progress) -> None:
    core = served.root / "greeter" / "core.py"
    assert 'return f"Helo, {name}!"' in core.read_text()
    async with aiohttp.ClientSession() as http:
        page = await _page_target(http, browser.devtools_port)
        async with http.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0) as ws:
            devtools = DevTools(ws)
            await devtools.call("Page.enable")  # without it the script below never runs
            await devtools.call("Page.addScriptToEvaluateOnNewDocument",
                                source=DOM_RENDERER_HOOK)
            progress.waiting_for = f"the page to show {TURN_LIST_TEXT!r}"
            await devtools.call("Page.navigate", url=served.url)

            state: dict[str, Any] = {}
            while TURN_LIST_TEXT not in state.get("text", ""):
                await asyncio.sleep(0.1)
                state = progress.page = await devtools.evaluate(PAGE_STATE) or {}
                if state.get("opened") and len(state["disabled"]) < 2:
                    pytest.fail("textual.js opened its terminal without storing both "
                                "webglAddon and canvasAddon (only "
                                f"{state['disabled']}): its text is drawn as pixels. "
                                "Update DOM_RENDERER_HOOK for this textual-serve.")
                if state.get("closed"):
                    pytest.fail("the page says the session ended; server log:\n"
                                + _tail(served.log))

            # Keys reach xterm.js through its hidden textarea, as when a user clicks it.
            await devtools.evaluate("document.querySelector('.xterm-helper-textarea').focus()")
            await devtools.press("y")
            progress.waiting_for = f"{core} to contain {ACCEPTED_TEXT!r}"
            while ACCEPTED_TEXT not in core.read_text():
                await asyncio.sleep(0.1)


@pytest.mark.slow
def test_a_key_press_in_the_browser_accepts_an_operation_on_disk(
        browser: Browser, served: Served) -> None:  # browser first: it may skip
    progress = Progress()
    try:
        asyncio.run(asyncio.wait_for(_drive(served, browser, progress), BUDGET))
    except TimeoutError:
        page = progress.page
        pytest.fail(f"gave up after {BUDGET:.0f} s waiting for {progress.waiting_for}.\n"
                    f"addons switched off: {page.get('disabled')}; the terminal showed:\n"
                    f"{page.get('text')}\nserver log:\n{_tail(served.log)}", pytrace=False)


# Run in a page of another origin: try the workbench's websocket, token included.
CROSS_ORIGIN_PROBE = """
new Promise((resolve) => {
  const ws = new WebSocket(%s);
  let opened = false;
  ws.onopen = () => { opened = true; ws.send(JSON.stringify(["stdin", "y"])); };
  ws.onclose = () => resolve({opened});
  ws.onerror = () => {};
  setTimeout(() => resolve({opened, timeout: true}), 10000);
})
"""


async def _probe_from_elsewhere(served: Served, browser: Browser, elsewhere: str) -> Any:
    token = served.url.split("?token=", 1)[1]
    port = served.url.split(":")[2].split("/")[0]
    target = f"ws://127.0.0.1:{port}/ws/{token}"
    async with aiohttp.ClientSession() as http:
        page = await _page_target(http, browser.devtools_port)
        async with http.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0) as ws:
            devtools = DevTools(ws)
            await devtools.call("Page.enable")
            await devtools.call("Page.navigate", url=elsewhere)
            while await devtools.evaluate("document.readyState") != "complete":
                await asyncio.sleep(0.05)
            result = await devtools.call("Runtime.evaluate",
                                         expression=CROSS_ORIGIN_PROBE % repr(target),
                                         awaitPromise=True, returnByValue=True)
            return result["result"].get("value")


def test_a_page_of_another_origin_cannot_open_the_workbench(
        browser: Browser, served: Served, tmp_path: Path) -> None:
    site = tmp_path / "elsewhere"
    site.mkdir()
    (site / "index.html").write_text("<!doctype html><title>elsewhere</title><p>hi</p>")
    port = _free_port()
    other = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind",
                              "127.0.0.1", "--directory", str(site)],
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the other site did not start"
                time.sleep(0.05)
        core = served.root / "greeter" / "core.py"
        before = core.read_bytes()
        # Even a page that somehow knows the token is refused: its Origin is not the page's.
        outcome = asyncio.run(asyncio.wait_for(
            _probe_from_elsewhere(served, browser, f"http://127.0.0.1:{port}/"), BUDGET))
        assert outcome == {"opened": False}, outcome
        assert core.read_bytes() == before
    finally:
        _stop(other)
