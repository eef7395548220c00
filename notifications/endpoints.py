"""Which Web Push endpoints the site connects to: https on port 443 of a push service's own
host (WEB_PUSH_HOSTS), named by its DNS name, and only at an address on the public internet.

A subscription's endpoint is chosen by whoever posts it, so it is checked twice: its URL when
it is posted (`refusal`), and the addresses its name resolves to right before each push
(`resolve`); the push then connects to the address that was checked (notifications.webpush).
"""

from __future__ import annotations

import ipaddress
import re
import socket
from dataclasses import dataclass
from urllib.parse import SplitResult, urlsplit

from django.conf import settings

HTTPS_PORT = 443
_LABEL = re.compile(r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?")
_IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class AddressRefused(Exception):
    """The endpoint's name resolves to an address the site never connects to (or to none)."""


@dataclass(frozen=True)
class Endpoint:
    """A checked endpoint: where to connect (`scheme`, `host`, `port`) and what to ask for."""

    scheme: str
    host: str
    port: int
    target: str  # path and query
    unchecked: bool  # an origin of WEB_PUSH_TEST_ORIGINS: no address check (tests only)

    @property
    def authority(self) -> str:
        """host[:port], as the Host header and the VAPID audience name it."""
        shown = f"[{self.host}]" if ":" in self.host else self.host
        default = HTTPS_PORT if self.scheme == "https" else 80
        return shown if self.port == default else f"{shown}:{self.port}"

    @property
    def origin(self) -> str:
        return f"{self.scheme}://{self.authority}"


def _split(url: str) -> tuple[SplitResult, str, int | None] | None:
    if any(char.isspace() or not char.isprintable() for char in url):
        return None
    try:
        parts = urlsplit(url)
        host, port = parts.hostname, parts.port  # a bad port raises here
    except ValueError:
        return None
    if not host or parts.username is not None or parts.password is not None:
        return None
    return parts, host, port


def _origin_of(parts: SplitResult, host: str, port: int | None) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"{parts.scheme}://{shown}" + (f":{port}" if port is not None else "")


def _is_address(host: str) -> bool:
    """Any spelling of an IP address a resolver or a URL parser may accept: dotted, short
    (127.1), decimal (2130706433), hex (0x7f000001), octal (0177.0.0.1), IPv6."""
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        pass
    try:
        socket.inet_aton(host)
        return True
    except OSError:
        pass
    # Anything whose last label is numeric is no DNS name a push service uses (RFC 3696 2).
    last = host.rstrip(".").rsplit(".", 1)[-1]
    return last.isdigit() or last.startswith("0x")


def host_allowed(host: str) -> bool:
    """The host is one of WEB_PUSH_HOSTS (`*.example.com`: any name under example.com)."""
    for pattern in settings.WEB_PUSH_HOSTS:
        pattern = pattern.lower()
        if host == pattern or (pattern.startswith("*.") and host.endswith(pattern[1:])):
            return True
    return False


def url_pattern() -> str:
    """WEB_PUSH_HOSTS as a regular expression of the endpoints they allow, for the schema."""
    label = "[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
    hosts = [
        f"({label}\\.)+{re.escape(host[2:])}" if host.startswith("*.") else re.escape(host)
        for host in settings.WEB_PUSH_HOSTS
    ]
    # `(?!\n)`: in Python `$` also matches before a final newline (apikit.schema.whole_text).
    return f"^https://({'|'.join(hosts)})(:443)?(/[!-~]*)?$(?!\\n)"


def _is_dns_name(host: str) -> bool:
    return len(host) <= 253 and all(_LABEL.fullmatch(label) for label in host.split("."))


def _checked(url: str) -> Endpoint | str:
    """The endpoint, or why the site would not push to it."""
    split = _split(url)
    if split is None:
        return "must be an https:// URL"
    parts, host, port = split
    unchecked = _origin_of(parts, host, port) in settings.WEB_PUSH_TEST_ORIGINS
    if not unchecked:
        if parts.scheme != "https":
            return "must be an https:// URL"
        if port not in (None, HTTPS_PORT):
            return "must use the push service's port 443"
        if _is_address(host):
            return "must name a push service's host, not an address"
        if not _is_dns_name(host) or not host_allowed(host):
            return "must be on a push service's own host (FCM, Mozilla, Apple or Windows)"
    default = HTTPS_PORT if parts.scheme == "https" else 80
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Endpoint(parts.scheme, host, port or default, target, unchecked)


def refusal(url: str) -> str | None:
    """Why the site would not push to this URL, or None when it may."""
    checked = _checked(url)
    return checked if isinstance(checked, str) else None


def parse(url: str) -> Endpoint | None:
    """The endpoint if the site may push to it, else None."""
    checked = _checked(url)
    return checked if isinstance(checked, Endpoint) else None


def address_refusal(address: _IPAddress) -> str | None:
    """Why the site never connects to this address (loopback, private, link-local, multicast,
    reserved, unspecified, shared, documentation...), or None for a public one."""
    if isinstance(address, ipaddress.IPv6Address):
        # An IPv4 address spelt as IPv6 is judged as itself (::ffff:127.0.0.1 is loopback).
        embedded = address.ipv4_mapped or address.sixtofour or (address.teredo or (None, None))[1]
        if embedded is not None and address_refusal(embedded) is not None:
            return f"{address} embeds a non-public address"
    if (
        not address.is_global
        or address.is_loopback
        or address.is_private
        or address.is_link_local
        or address.is_multicast
        or address.is_reserved
        or address.is_unspecified
    ):
        return f"{address} is not a public address"
    return None


def resolve(endpoint: Endpoint) -> str:
    """The address to connect to for this endpoint: its name resolved now, every address it
    has checked (one bad address refuses all: the name is not a push service's). Raises
    AddressRefused, or OSError when the name does not resolve just now."""
    found = socket.getaddrinfo(endpoint.host, endpoint.port, type=socket.SOCK_STREAM)
    addresses = [ipaddress.ip_address(str(info[4][0]).split("%", 1)[0]) for info in found]
    if not addresses:
        raise AddressRefused(f"{endpoint.host} has no address")
    if not endpoint.unchecked:
        for address in addresses:
            problem = address_refusal(address)
            if problem is not None:
                raise AddressRefused(f"{endpoint.host}: {problem}")
    return str(addresses[0])
