"""Ending the servers that tests start as subprocesses."""

from __future__ import annotations

import subprocess
from typing import Any


def end(process: subprocess.Popen[Any]) -> None:
    """SIGTERM, and SIGKILL if it has not exited within 10 s."""
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)
