"""The web server behind ``reviewtui serve``: textual-serve's, behind a token and an origin check.

A workbench in a browser can accept operations and so write files; any web page the reviewer
has open could otherwise open a websocket to ``127.0.0.1:8000`` and press ``y``. So:

- every launch makes an unguessable token (``serve.new_token``); the page is served only to
  ``/?token=...`` (the URL ``serve`` prints, as Jupyter does) and the terminal's websocket
  lives at ``/ws/<token>``; anything else that could start a workbench answers 403;
- a websocket whose ``Origin`` is not the served page's own origin is refused (403): a page
  elsewhere, or one reached through DNS rebinding, never gets a workbench. A client that
  sends no ``Origin`` is no browser (browsers always send it on websockets) and needs the
  token all the same;
- the page is sent with ``Referrer-Policy: no-referrer`` and ``Cache-Control: no-store`` so
  the token does not leak through links or caches.

textual-serve's static files (its JavaScript, CSS and fonts, the same for every install) stay
public; its ``/download`` route is not used by reviewtui and is refused.
"""

from __future__ import annotations

import hmac
from collections.abc import Awaitable, Callable, Iterable
from typing import Any
from urllib.parse import urlsplit

import aiohttp_jinja2
from aiohttp import web
from textual_serve.server import Server

Origin = tuple[str, str, int]
_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}
_LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
_Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def parse_origin(value: str) -> Origin | None:
    """``scheme://host[:port]`` as (scheme, host, port), default ports filled in; None: junk."""
    try:
        parts = urlsplit(value.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if scheme not in _DEFAULT_PORTS or not host:
        return None
    return scheme, host, port if port is not None else _DEFAULT_PORTS[scheme]


def served_origins(public_url: str, host: str, port: int, *,
                   loopback: bool) -> frozenset[Origin]:
    """The origins a page of this server has: the printed URL's, and on a loopback bind the
    loopback names at this port (``localhost`` and ``127.0.0.1`` reach the same server)."""
    found: set[Origin] = set()
    public = parse_origin(public_url)
    if public is not None:
        found.add(public)
    names: Iterable[str] = (host, *_LOOPBACK_NAMES) if loopback else (host,)
    for name in names:
        found.add(("http", name.lower(), port))
    return frozenset(found)


def _same_token(given: str | None, token: str) -> bool:
    return given is not None and hmac.compare_digest(given.encode(), token.encode())


class GuardedServer(Server):
    """textual-serve's :class:`Server`, reachable only with the token and from its own page."""

    def __init__(self, command: str, *, token: str, origins: frozenset[Origin],
                 **kwargs: Any) -> None:
        super().__init__(command, **kwargs)
        self.token = token
        self.origins = origins

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        app.router.add_get("/ws/{token}", self.handle_websocket, name="guarded-websocket")
        app.middlewares.append(self._guard)
        return app

    @aiohttp_jinja2.template("app_index.html")
    async def handle_index(self, request: web.Request) -> dict[str, Any]:
        context: dict[str, Any] = await Server.handle_index.__wrapped__(  # type: ignore[attr-defined]
            self, request)
        context["app_websocket_url"] = f"{context['app_websocket_url']}/{self.token}"
        return context

    def refusal(self, request: web.Request) -> str | None:
        """Why this request may not reach the workbench; None: it may."""
        path = request.path
        if path.startswith("/static/"):
            return None
        if path == "/":
            if not _same_token(request.query.get("token"), self.token):
                return "the page needs the token printed by 'reviewtui serve' (/?token=...)"
            return None
        if path.startswith("/ws/"):
            if not _same_token(request.match_info.get("token"), self.token):
                return "wrong token"
            origin = request.headers.get("Origin")
            if origin is not None and parse_origin(origin) not in self.origins:
                return "cross-origin websocket refused"
            return None
        if path == "/ws" or path.startswith("/download/"):
            return "not served"
        return None

    @web.middleware
    async def _guard(self, request: web.Request, handler: _Handler) -> web.StreamResponse:
        reason = self.refusal(request)
        if reason is not None:
            raise web.HTTPForbidden(text=f"403 Forbidden: {reason}\n")
        response = await handler(request)
        if request.path == "/":
            response.headers["Referrer-Policy"] = "no-referrer"
            response.headers["Cache-Control"] = "no-store"
        return response
