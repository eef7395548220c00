"""Slow requests against a running web server: how many half-sent requests it still holds open.

Opens `--connections` connections, sends each the start of a request (the request line and
one header, never the blank line that ends the headers), then, with `--drip`, one more header
byte every `--drip` seconds (a slowloris); prints how many are still open at each `--at` mark.

    python -m bench.slow_requests --port 8000 --connections 400 --at 5 15 25 60 --drip 0
"""

from __future__ import annotations

import argparse
import asyncio
import time


async def hold(host: str, port: int, drip: float, until: float, closed_at: list[float]) -> None:
    """One half-sent request, held until the server closes it or `until` passes."""
    started = time.monotonic()
    try:
        reader, writer = await asyncio.open_connection(host, port)
    except OSError:
        closed_at.append(0.0)
        return
    writer.write(b"GET /api/v1/health/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    try:
        while time.monotonic() < until:
            wait = min(drip or 1.0, until - time.monotonic())
            try:
                data = await asyncio.wait_for(reader.read(1024), max(wait, 0.01))
            except TimeoutError:
                if drip:
                    writer.write(b"a")
                    await writer.drain()
                continue
            if not data or b"HTTP/1.1 4" in data or b"HTTP/1.1 5" in data:
                closed_at.append(time.monotonic() - started)
                return
    except OSError:
        closed_at.append(time.monotonic() - started)
        return
    finally:
        writer.close()


async def main(host: str, port: int, connections: int, marks: list[float], drip: float) -> None:
    closed_at: list[float] = []
    started = time.monotonic()
    until = started + max(marks) + 0.5
    tasks = [
        asyncio.create_task(hold(host, port, drip, until, closed_at)) for _ in range(connections)
    ]
    for mark in marks:
        await asyncio.sleep(max(0.0, mark - (time.monotonic() - started)))
        still_open = connections - sum(1 for moment in closed_at if moment <= mark)
        print(f"after {mark:>4.0f} s: {still_open} of {connections} still open")
    await asyncio.gather(*tasks)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--connections", type=int, default=400)
    parser.add_argument("--at", type=float, nargs="+", default=[5, 15, 25])
    parser.add_argument("--drip", type=float, default=0.0, help="seconds between header bytes")
    args = parser.parse_args()
    asyncio.run(main(args.host, args.port, args.connections, sorted(args.at), args.drip))
