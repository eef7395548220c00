"""The site's processes as the browser tests, the fault tests and the benchmarks start them:
each from its Procfile's command (as `make run` and `make serve` start them through honcho),
on free ports, with an environment and a log file of its own; waited for until it answers (the
web server a page, Redis a PING, a Celery worker a ping over the broker), a failure showing the
end of every log; killed with SIGKILL, or all stopped in the reverse of their start.

Nothing here needs Django's settings or pytest: bench/ imports it as it is."""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import signal
import socket
import string
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from pathlib import Path
from types import TracebackType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent  # the virtualenv's programs: uvicorn, celery, python
HOST = "127.0.0.1"
STARTUP_SECONDS = 90.0  # a loaded CI machine imports Django in several processes at once
STOP_SECONDS = 10.0  # SIGTERM, then SIGKILL
READY_PAGE = "/rules/"  # a page through Django's whole request path (not a probe of the loop)


def free_port() -> int:
    """A TCP port on loopback that nothing listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def run_python(env: Mapping[str, str], *argv: str) -> str:
    """Python with these settings, in the project's folder (`manage.py migrate`, a shell
    command); its output. A failure says what it printed."""
    done = subprocess.run(
        [sys.executable, *argv],
        cwd=ROOT,
        env=dict(env),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, f"{argv[:2]} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def procfile(env: Mapping[str, str], name: str = "Procfile") -> dict[str, list[str]]:
    """A Procfile's commands, as honcho runs them (its $VARIABLES from `env`)."""
    entries = re.findall(r"^([\w-]+):\s*(.+)$", (ROOT / name).read_text(), re.MULTILINE)
    return {
        process: shlex.split(string.Template(command).substitute(env))
        for process, command in entries
    }


def with_option(argv: list[str], option: str, value: str) -> list[str]:
    """`argv` with `option`'s value replaced (the option must be there)."""
    at = argv.index(option) + 1
    return [*argv[:at], value, *argv[at + 1 :]]


def end(process: subprocess.Popen[Any]) -> None:
    """SIGTERM, and SIGKILL if it has not exited within STOP_SECONDS."""
    process.terminate()
    try:
        process.wait(timeout=STOP_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=STOP_SECONDS)


# --------------------------------------------------------------------------- readiness


def web_answers(url: str, path: str = READY_PAGE) -> bool:
    """Whether the site at `url` answers `path` with 200."""
    try:
        with urllib.request.urlopen(url + path, timeout=2) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def redis_answers(url: str) -> bool:
    """Whether the Redis at `url` answers a PING."""
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=2)
    try:
        return bool(client.ping())
    except (redis.RedisError, OSError):
        return False
    finally:
        client.close()


def celery_answers(broker: str, names: set[str]) -> bool:
    """Whether a Celery worker of each of these names (`celery`, `notify`, …: before the @ of
    its node name) on this machine answers a ping over `broker` (`celery inspect ping`, without
    a process of its own); it returns as soon as they all have."""
    from celery import Celery
    from redis.exceptions import ConnectionError as RedisConnectionError

    nodes = {f"{name}@{socket.gethostname()}" for name in names}  # as Celery expands %h
    app = Celery("ping", broker=broker, set_as_current=False)
    try:
        replies = app.control.ping(destination=sorted(nodes), timeout=0.5, limit=len(nodes))
    except (OSError, RedisConnectionError):  # a broker restarted under an earlier ping's pool
        return False
    finally:
        app.close()
    return nodes <= {node for reply in replies or [] for node in reply}


def celery_node(argv: list[str]) -> str:
    """The name a Celery worker started with `argv` answers a ping with: its --hostname's part
    before the @, `celery` by default."""
    if "--hostname" not in argv:
        return "celery"
    return argv[argv.index("--hostname") + 1].split("@", 1)[0]


class StackFailed(RuntimeError):
    """A process exited, or did not become ready in time; the message ends every log."""


# --------------------------------------------------------------------------- the processes


class ProcessStack:
    """Named processes started from a Procfile's commands in `env` (with the virtualenv's
    programs first on PATH, as `make run` puts them), each logging to `log(name)`: a file in
    the folder `logs`, or what the callable `logs` says. A process started again under the
    same name appends to its log, so the log holds every life of it."""

    def __init__(
        self,
        env: Mapping[str, str],
        logs: Path | Callable[[str], Path],
        procfile_name: str = "Procfile",
        startup_seconds: float = STARTUP_SECONDS,
    ) -> None:
        self.env = dict(env)
        self.env["PATH"] = os.pathsep.join([str(BIN), self.env.get("PATH", os.defpath)])
        self._logs = logs
        self.procfile_name = procfile_name
        self.startup_seconds = startup_seconds
        self.processes: dict[str, subprocess.Popen[bytes]] = {}
        self.commands: dict[str, list[str]] = {}  # what each was started with
        self.started: list[str] = []  # every name ever started, in order: their logs

    def log(self, name: str) -> Path:
        return self._logs(name) if callable(self._logs) else self._logs / f"{name}.log"

    def command(self, process: str, procfile_name: str | None = None, **values: str) -> list[str]:
        """The Procfile's command for `process`, its $VARIABLES from the env and `values`."""
        env = {**self.env, **values}
        return procfile(env, procfile_name or self.procfile_name)[process]

    def start(self, name: str, argv: list[str] | None = None) -> subprocess.Popen[bytes]:
        """Starts `argv` (by default the Procfile's command called `name`) as `name`, in a
        session of its own: a Ctrl-C reaches only this process, which stops them in order, and
        a kill reaches any child the process has (uvicorn's workers)."""
        if name in self.processes:
            raise StackFailed(f"{name} is already running")
        command = argv if argv is not None else self.command(name)
        path = self.log(name)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("ab" if name in self.started else "wb") as log:
            process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.processes[name], self.commands[name] = process, command
        if name not in self.started:
            self.started.append(name)
        return process

    def check_alive(self) -> None:
        """StackFailed, with every log's end, if a process has exited."""
        for name, process in self.processes.items():
            if process.poll() is not None:
                raise StackFailed(f"{name} exited with {process.returncode}:\n{self.report()}")

    def wait_for(self, what: str, ready: Callable[[], bool]) -> None:
        """Until `ready()`; StackFailed at once if a process exits, or after startup_seconds."""
        deadline = time.monotonic() + self.startup_seconds
        while not ready():
            self.check_alive()
            if time.monotonic() > deadline:
                raise StackFailed(
                    f"{what} not ready within {self.startup_seconds:g} s:\n{self.report()}"
                )
            time.sleep(0.1)

    def wait_web(self, url: str, path: str = READY_PAGE) -> None:
        self.wait_for(f"the web server at {url}", lambda: web_answers(url, path))

    def wait_redis(self, url: str) -> None:
        self.wait_for(f"Redis at {url}", lambda: redis_answers(url))

    def wait_workers(self, broker: str, *names: str) -> None:
        """Until each of these Celery worker processes answers a ping over `broker`."""
        expected = {celery_node(self.commands[name]) for name in names}
        self.wait_for(
            f"the Celery workers {', '.join(names)}", lambda: celery_answers(broker, expected)
        )

    def tail(self, name: str, lines: int | None = 40) -> str:
        """The last `lines` lines of `name`'s log (None: all of it)."""
        try:
            text = self.log(name).read_text(errors="replace")
        except OSError:
            return "(no log)"
        return text if lines is None else "\n".join(text.splitlines()[-lines:])

    def report(self, lines: int | None = 40) -> str:
        """The end of every log (None: all of each), of the processes running and of those
        that have gone."""
        return "\n".join(f"--- {name}\n{self.tail(name, lines)}" for name in self.started)

    def kill(self, name: str) -> None:
        """SIGKILL to the process and its children: no shutdown of any kind, as when a machine
        or a container dies."""
        process = self.processes.pop(name)
        _kill_group(process)
        process.wait(timeout=STOP_SECONDS)

    def stop(self, name: str) -> None:
        """SIGTERM (a process with children stops them itself), SIGKILL if it has not exited
        within STOP_SECONDS; then any child it left is killed."""
        process = self.processes.pop(name)
        try:
            end(process)
        finally:
            _kill_group(process)

    def stop_all(self) -> None:
        """Each process in the reverse of its start: beat before the workers, the workers
        before the web server, Redis last (the others' broker)."""
        for name in reversed(list(self.processes)):
            self.stop(name)

    def __enter__(self) -> ProcessStack:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop_all()


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL to every process of `process`'s session group (it leads its own)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
