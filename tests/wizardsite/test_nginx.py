"""docs/nginx.conf, the README's reverse proxy, run as it is (its two ports changed) in front of
the Procfile's web server: pages, their cookies and the sockets pass through it, and it closes
a request that trickles in, which the ASGI server alone would keep open. Needs Debian's nginx
(`.ci/run` installs it); skipped without it, except under REQUIRE_SERVICES=1."""

from __future__ import annotations

import asyncio
import http.client
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.asyncio.client import connect

from tests.processes import ROOT, ProcessStack, free_port

SNIPPET = ROOT / "docs" / "nginx.conf"
HEADER_SECONDS = int(re.findall(r"client_header_timeout (\d+)s;", SNIPPET.read_text())[0])


def nginx_binary() -> str:
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else "")
    if not found:
        if os.environ.get("REQUIRE_SERVICES") == "1":
            pytest.fail(
                "REQUIRE_SERVICES=1 but nginx is not installed (apt-get install nginx-light)"
            )
        pytest.skip("needs nginx (apt-get install nginx-light)")
    return found


def nginx_conf(folder: Path, listen: int, upstream: int) -> Path:
    """A whole nginx configuration around the README's snippet, in `folder`."""
    snippet = SNIPPET.read_text()
    snippet = snippet.replace("server 127.0.0.1:8000;", f"server 127.0.0.1:{upstream};")
    snippet = snippet.replace("listen 80;", f"listen 127.0.0.1:{listen};")
    (folder / "wizard.conf").write_text(snippet)
    temp = "".join(
        f"{kind}_temp_path {folder / kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    user = "user root;\n" if os.geteuid() == 0 else ""  # its workers write to `folder`
    conf = folder / "nginx.conf"
    conf.write_text(
        f"{user}daemon off;\nworker_processes 1;\npid {folder / 'nginx.pid'};\n"
        f"error_log {folder / 'error.log'} warn;\nevents {{ worker_connections 64; }}\n"
        f"http {{\naccess_log off;\n{temp}include {folder / 'wizard.conf'};\n}}\n"
    )
    return conf


def answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """The web server (SQLite, no Redis) behind nginx; nginx's port."""
    binary = nginx_binary()
    folder = tmp_path_factory.mktemp("nginx")
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DATABASE_URL"}}
    env.update(
        DJANGO_SETTINGS_MODULE="wizardsite.settings",
        DATABASE_URL=f"sqlite:///{folder / 'site.sqlite3'}",
        TRUSTED_PROXIES="1",
        PYTHONUNBUFFERED="1",
    )
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    web_port, listen = free_port(), free_port()
    with ProcessStack(env, folder) as stack:
        stack.start("web", stack.command("web", WEB_PORT=str(web_port)))
        stack.wait_web(f"http://127.0.0.1:{web_port}")
        conf = nginx_conf(folder, listen, web_port)
        stack.start("nginx", [binary, "-c", str(conf), "-p", str(folder)])
        stack.wait_for("nginx", lambda: answers(listen))
        yield listen


def test_a_page_and_its_cookie_pass_through(proxy: int) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", proxy, timeout=10)
    connection.request("GET", "/accounts/login/")
    response = connection.getresponse()
    assert response.status == 200, response.read()[:500]
    cookies = response.msg.get_all("Set-Cookie") or []
    assert any(cookie.startswith("csrftoken=") for cookie in cookies), cookies
    assert b"<form" in response.read()


def test_a_socket_passes_through(proxy: int) -> None:
    async def lobby() -> None:
        url = f"ws://127.0.0.1:{proxy}/ws/lobby/"
        async with connect(url, origin=f"http://127.0.0.1:{proxy}") as socket_:  # type: ignore[arg-type]
            with pytest.raises(TimeoutError):  # open, and quiet: the lobby only tells changes
                await asyncio.wait_for(socket_.recv(), 0.5)

    asyncio.run(lobby())


def test_a_request_that_trickles_in_is_closed(proxy: int) -> None:
    """One header byte every 2 s: never idle, never whole. nginx closes it once its header
    timeout passes; the ASGI server alone would wait for ever."""
    with socket.create_connection(("127.0.0.1", proxy), timeout=HEADER_SECONDS + 10) as client:
        client.sendall(b"GET /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        started = time.monotonic()
        client.settimeout(2)
        closed = False
        while time.monotonic() - started < HEADER_SECONDS + 10:
            try:
                client.sendall(b"a")
                if client.recv(1024) == b"":
                    closed = True
                    break
            except TimeoutError:
                continue
            except OSError:  # reset: closed as well
                closed = True
                break
        assert closed, f"still open after {time.monotonic() - started:.0f} s"
        assert time.monotonic() - started <= HEADER_SECONDS + 5
