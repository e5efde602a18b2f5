"""``reviewtui serve``: the command it serves, the exposure warning, and the server process.

The page itself, in a real browser, is tests/ui/test_browser.py.
"""

from __future__ import annotations

import shlex
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from reviewtui.cli import main
from reviewtui.core.errors import DiskError, UsageError
from reviewtui.shell import serve as serve_module
from reviewtui.shell.serve import ServePlan, is_loopback, page_url, plan_serve, workbench_command

REPO = Path(__file__).resolve().parents[2]
TOUR = REPO / "sample_sessions" / "workshop-tour"


def test_the_served_command_survives_the_shell(tmp_path: Path) -> None:
    odd = tmp_path / "it's a \"session\" $HOME `x`; rm -rf"
    root = tmp_path / "the root"
    # Stand in for python: a script that prints the arguments the shell handed it.
    echo = tmp_path / "echo args"
    echo.write_text('#!/bin/sh\nfor a in "$@"; do printf "%s\\n" "$a"; done\n')
    echo.chmod(0o755)
    command = workbench_command(odd, root, dry_run=True, python=str(echo))
    out = subprocess.run(["/bin/sh", "-c", command], capture_output=True, text=True,
                         check=True).stdout
    assert out.splitlines() == ["-m", "reviewtui", "open", str(odd), "--root", str(root),
                                "--dry-run"]


def test_the_command_runs_this_python_on_absolute_paths(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    plan = plan_serve("sample_sessions/workshop-tour", "sample_sessions/workshop-tour/base")
    assert shlex.split(plan.command) == [sys.executable, "-m", "reviewtui", "open", str(TOUR),
                                         "--root", str(TOUR / "base")]


@pytest.mark.parametrize(("host", "loopback"), [
    ("127.0.0.1", True), ("127.8.9.10", True), ("::1", True), ("localhost", True),
    ("0.0.0.0", False), ("::", False), ("10.1.2.3", False), ("2001:db8::1", False),
])
def test_is_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_page_url_brackets_ipv6_and_names_this_machine_for_a_wildcard() -> None:
    assert page_url("127.0.0.1", 8000) == "http://127.0.0.1:8000"
    assert page_url("::1", 9000) == "http://[::1]:9000"
    assert page_url("0.0.0.0", 8000) == f"http://{socket.gethostname()}:8000"


def test_loopback_needs_no_warning() -> None:
    plan = plan_serve(TOUR, None)
    assert (plan.host, plan.port, plan.url, plan.warning) == (
        "127.0.0.1", 8000, "http://127.0.0.1:8000", None)
    assert plan.title == "reviewtui: Workshop tour of the File Ops Protocol"


def test_another_address_warns_who_gets_in_and_what_they_can_write(tmp_path: Path) -> None:
    plan = plan_serve(TOUR, tmp_path, host="0.0.0.0", port=8123)
    assert plan.warning is not None
    assert "every network interface" in plan.warning
    assert "port 8123" in plan.warning
    assert "no encryption" in plan.warning
    assert "no shell" in plan.warning
    assert f"write files, in {tmp_path.resolve()}" in plan.warning
    scratch = plan_serve(TOUR, None, host="10.1.2.3")
    assert "scratch copy" in str(scratch.warning)
    dry = plan_serve(TOUR, tmp_path, host="10.1.2.3", dry_run=True)
    assert "--dry-run keeps them from writing" in str(dry.warning)


def test_public_url_overrides_the_page_address() -> None:
    plan = plan_serve(TOUR, None, host="0.0.0.0", public_url="http://192.0.2.7:8000/")
    assert plan.url == "http://192.0.2.7:8000"


def test_mistakes_fail_before_the_server_starts(tmp_path: Path) -> None:
    bare = tmp_path / "session.md"
    bare.write_text((TOUR / "session.md").read_text())
    with pytest.raises(UsageError, match="no base/ folder"):
        plan_serve(bare, None)
    with pytest.raises(DiskError, match="not a directory"):
        plan_serve(TOUR, tmp_path / "missing")
    with pytest.raises(UsageError, match="outside 1-65535"):
        plan_serve(TOUR, None, port=70000)


def test_cli_serves_the_workshop_tour_by_default(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    served: list[ServePlan] = []
    monkeypatch.setattr(serve_module, "run_server", served.append)
    port = _free_port()  # (the port is tried before the address is printed)
    assert main(["serve", "--port", str(port)]) == 0
    (plan,) = served
    assert shlex.split(plan.command)[4] == str(TOUR)
    out, err = capsys.readouterr()
    assert f"open http://127.0.0.1:{port}/?token={plan.token} in a browser" in out
    assert len(plan.token) >= 40
    assert err == ""


def test_cli_prints_the_warning_for_another_address(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(serve_module, "run_server", lambda plan: None)
    assert main(["serve", str(TOUR), "--host", "0.0.0.0", "--port", str(_free_port())]) == 0
    assert "reviewtui: warning: 0.0.0.0 listens on every network interface" in (
        capsys.readouterr().err)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_for_port(port: int, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 20
    while True:
        assert process.poll() is None, process.communicate()
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            assert time.monotonic() < deadline, "reviewtui serve did not listen in 20 s"
            time.sleep(0.05)


def test_the_server_serves_the_page_and_stops_on_ctrl_c() -> None:
    port = _free_port()
    process = subprocess.Popen([sys.executable, "-m", "reviewtui", "serve", "--port", str(port)],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        token = first.split("?token=", 1)[1].split()[0]
        _wait_for_port(port, process)
        with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
            conn.sendall(f"GET /?token={token} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".encode())
            page = b"".join(iter(lambda: conn.recv(65536), b"")).decode()
        assert page.split("\r\n", 1)[0].endswith(" 200 OK"), page[:200]
        assert "reviewtui: Workshop tour of the File Ops Protocol" in page
        assert f"ws://127.0.0.1:{port}/ws/{token}" in page
        process.send_signal(signal.SIGINT)
        out, _ = process.communicate(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 0, out
    assert f"open http://127.0.0.1:{port}/?token={token} in a browser" in first


def test_a_busy_port_is_a_clean_error() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "reviewtui", "serve", "--port", str(port)],
                              capture_output=True, text=True, timeout=30)
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"cannot listen on 127.0.0.1 port {port}" in done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert "in a browser" not in done.stdout  # no address to a port someone else owns
