"""The web server's own bound on a socket message (uvicorn's --ws-max-size): the same in both
Procfiles, and wide enough for every frame the application reads itself (it answers those
past SOCKET_MESSAGE_MAX_LENGTH with an error; the server closes past its bound, 1009)."""

from __future__ import annotations

import pytest

from core import limits
from tests.processes import procfile

ENVIRONMENTS = {
    "Procfile": {"WEB_PORT": "8000"},
    "Procfile.production": {"HOST": "0.0.0.0", "PORT": "8000", "WEB_CONCURRENCY": "2"},
}


@pytest.mark.parametrize("name", sorted(ENVIRONMENTS))
def test_each_procfile_runs_the_web_server_with_the_bound(name: str) -> None:
    web = procfile(ENVIRONMENTS[name], name)["web"]
    assert web.count("--ws-max-size") == 1, web
    assert web[web.index("--ws-max-size") + 1] == str(limits.SOCKET_SERVER_MAX_BYTES)


def test_the_servers_bound_holds_any_frame_the_application_reads_in_utf_8() -> None:
    assert limits.SOCKET_SERVER_MAX_BYTES >= 4 * limits.SOCKET_MESSAGE_MAX_LENGTH
