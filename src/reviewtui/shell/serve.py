"""``reviewtui serve``: the workbench as a web page, through textual-serve.

textual-serve starts a shell command for every browser connection and relays that process's
terminal over a websocket to xterm.js in the page. The command here is ``reviewtui open``
with the same Python, so each browser tab is a whole workbench process:

- without ``--root`` every connection reviews its own fresh scratch copy of the session's
  ``base/`` (a workshop audience can all press keys without stepping on each other);
- with ``--root`` the connections write to that project, one at a time: a second tab meets
  the project lock and its page says the session ended.

Everything is checked here, before the server starts, so a typo fails once on the
command line instead of in every browser tab. The server only answers the page's URL with
this launch's token, and refuses websockets from other origins
(:mod:`reviewtui.shell.serve_guard`).
"""

from __future__ import annotations

import ipaddress
import secrets
import shlex
import socket
import sys
from pathlib import Path

from reviewtui.core.errors import DiskError, UsageError
from reviewtui.core.record import record
from reviewtui.shell.loader import load_session

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


@record(frozen=True)
class ServePlan:
    """What ``reviewtui serve`` will run, where, and what it should tell the user first."""

    command: str
    """The shell command textual-serve starts per browser connection."""
    host: str
    port: int
    url: str
    """The page's address; textual-serve also builds its script and websocket URLs from it."""
    title: str
    warning: str | None
    """Set when the host is reachable from other machines."""
    token: str = ""
    """This launch's secret: the page is served only to ``/?token=...``."""

    @property
    def address(self) -> str:
        """The URL to open: the page with the token."""
        return f"{self.url}/?token={self.token}"


def new_token() -> str:
    """An unguessable per-launch token (256 bits), for the URL ``serve`` prints."""
    return secrets.token_urlsafe(32)


def workbench_command(session: Path, root: Path | None, *, dry_run: bool,
                      python: str = sys.executable) -> str:
    """``python -m reviewtui open SESSION ...``, quoted for the ``/bin/sh`` that runs it."""
    argv = [python, "-m", "reviewtui", "open", str(session)]
    if root is not None:
        argv += ["--root", str(root)]
    if dry_run:
        argv.append("--dry-run")
    return shlex.join(argv)


def is_loopback(host: str) -> bool:
    """True when every address ``host`` names is a loopback address (unknown names: False)."""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        pass
    if host.lower() == "localhost":
        return True
    try:
        infos = socket.getaddrinfo(host, None)
    except (OSError, UnicodeError):
        return False
    try:
        return bool(infos) and all(ipaddress.ip_address(info[4][0]).is_loopback
                                   for info in infos)
    except ValueError:
        return False


def _is_wildcard(host: str) -> bool:
    try:
        return not host or ipaddress.ip_address(host).is_unspecified
    except ValueError:
        return False


def page_url(host: str, port: int) -> str:
    """The URL a browser opens; a wildcard bind is reached by this machine's name."""
    if _is_wildcard(host):
        host = socket.gethostname()
    elif ":" in host:  # an IPv6 literal
        host = f"[{host}]"
    return f"http://{host}:{port}"


def plan_serve(session: str | Path, root: str | Path | None, *, host: str = DEFAULT_HOST,
               port: int = DEFAULT_PORT, dry_run: bool = False,
               public_url: str | None = None) -> ServePlan:
    loaded = load_session(session)
    session_path = Path(session).resolve()  # the served process may start anywhere
    if root is None:
        if loaded.base is None:
            raise UsageError("no --root given and the session has no base/ folder to copy "
                             "for each browser connection", source=str(loaded.file),
                             rule="root")
        root_path = None
        target = f"a fresh scratch copy of {loaded.base} per browser connection"
    else:
        root_path = Path(root).resolve()
        if not root_path.is_dir():
            raise DiskError("project root is not a directory", source=str(root), rule="root")
        target = str(root_path)
    if not 1 <= port <= 65535:
        raise UsageError(f"--port {port} is outside 1-65535", rule="port")
    url = (public_url or page_url(host, port)).rstrip("/")
    warning = None
    if not is_loopback(host):
        effect = ("can read the project, though --dry-run keeps them from writing to it"
                  if dry_run else
                  "can accept, reject and edit operations, and so write files, in "
                  f"{target}")
        who = (f"{host or 'the empty host'} listens on every network interface: anyone "
               f"who can reach this machine on port {port}" if _is_wildcard(host) else
               f"{host} is not a loopback address: anyone who can reach it on port {port}")
        warning = (f"{who} and has the printed URL gets the workbench, over plain HTTP: "
                   "no encryption, so its token travels in the clear. It has no "
                   f"shell, but they {effect}. Keep the default --host {DEFAULT_HOST} and "
                   f"tunnel (ssh -L {port}:127.0.0.1:{port} HOST) to share it with one "
                   "person.")
    title = f"reviewtui: {loaded.session.title}" if loaded.session.title else "reviewtui"
    return ServePlan(command=workbench_command(session_path, root_path, dry_run=dry_run),
                     host=host, port=port, url=url, title=title, warning=warning,
                     token=new_token())


def check_listen(plan: ServePlan) -> None:
    """That the server can listen where the plan says, before its address is printed (on a
    busy port it was printed, pointing at whatever owned the port, then the server failed).
    The port is only tried (with the reuse the server itself asks for) and let go."""
    import socket

    try:
        found = socket.getaddrinfo(plan.host or None, plan.port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
        family, kind, proto, _name, address = found[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as exc:
        raise UsageError(f"cannot listen on {plan.host} port {plan.port}: "
                         f"{exc.strerror or exc} (choose another --port or --host)",
                         rule="listen") from None


def run_server(plan: ServePlan) -> None:
    """Serve until Ctrl+C (or SIGTERM); each open page's workbench is told to quit."""
    from reviewtui.shell.serve_guard import GuardedServer, served_origins

    origins = served_origins(plan.url, plan.host, plan.port, loopback=is_loopback(plan.host))
    server = GuardedServer(plan.command, token=plan.token, origins=origins, host=plan.host,
                           port=plan.port, title=plan.title, public_url=plan.url)
    try:
        server.serve()
    except OSError as exc:
        raise UsageError(f"cannot listen on {plan.host} port {plan.port}: "
                         f"{exc.strerror or exc} (choose another --port or --host)",
                         rule="listen") from None
