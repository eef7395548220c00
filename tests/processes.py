"""The servers that tests start as subprocesses: their commands, as the Procfiles give them,
and their end."""

from __future__ import annotations

import re
import shlex
import string
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def procfile(env: Mapping[str, str], name: str = "Procfile") -> dict[str, list[str]]:
    """A Procfile's commands, as honcho runs them (its $VARIABLES from `env`)."""
    entries = re.findall(r"^([\w-]+):\s*(.+)$", (ROOT / name).read_text(), re.MULTILINE)
    return {
        process: shlex.split(string.Template(command).substitute(env))
        for process, command in entries
    }


def end(process: subprocess.Popen[Any]) -> None:
    """SIGTERM, and SIGKILL if it has not exited within 10 s."""
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)
