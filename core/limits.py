"""Every limit of a table, a chat and a report, written once.

The engine, services, serializers, forms, error texts and (through `json_script`) the
browser all read them from here. Seat counts are the rules' own (R2, in the engine).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Final

from games.engine.rules import MAX_PLAYERS, MIN_PLAYERS

MIN_SEATS: Final = MIN_PLAYERS  # R2
MAX_SEATS: Final = MAX_PLAYERS
MIN_BOTS: Final = 0  # a table needs one human: at most seats - 1 bots

MIN_TURN_SECONDS: Final = 5  # R16: the turn limit a table may choose
MAX_TURN_SECONDS: Final = 604800  # 7 days: correspondence tables
CORRESPONDENCE_SECONDS: Final = 3600  # a limit this long or longer makes a correspondence table
AWAY_TURN_SECONDS: Final = 5  # R18: an away player's decisions wait at most this long

CHAT_MAX_LENGTH: Final = 300  # characters, after trimming
CHAT_RATE_COUNT: Final = 5  # messages per player ...
CHAT_RATE_WINDOW: Final = timedelta(seconds=10)  # ... in this window

REPORTS_PER_HOUR: Final = 10
REASON_MAX_LENGTH: Final = 1000


def max_bots(seats: int) -> int:
    """The most bots a table of `seats` may have."""
    return seats - 1


def for_clients() -> dict[str, int]:
    """The limits the browser checks before it sends (handed over with json_script)."""
    return {
        "min_seats": MIN_SEATS,
        "max_seats": MAX_SEATS,
        "min_turn_seconds": MIN_TURN_SECONDS,
        "max_turn_seconds": MAX_TURN_SECONDS,
        "correspondence_seconds": CORRESPONDENCE_SECONDS,
        "chat_max_length": CHAT_MAX_LENGTH,
        "chat_rate_count": CHAT_RATE_COUNT,
        "chat_rate_seconds": int(CHAT_RATE_WINDOW.total_seconds()),
        "reason_max_length": REASON_MAX_LENGTH,
    }


# Usernames: ASCII letters, digits, "_" and "-" only, so no name can pass for another in a
# different script (Cyrillic "а" for Latin "a"); unique regardless of case.
USERNAME_PATTERN: Final = r"[A-Za-z0-9_-]+"
USERNAME_MIN_LENGTH: Final = 2
USERNAME_MAX_LENGTH: Final = 30

JSON_MAX_DEPTH: Final = 32  # nesting of arrays and objects in a request body or socket message

# The longest socket message the contract has is a chat message of CHAT_MAX_LENGTH characters,
# each an emoji written as ASCII JSON ("\\ud83d\\ude00", 12 characters), in an envelope
# ("type", a preset's key, a move's fields and "seq"). A longer frame is refused unread.
JSON_CHARACTER_MAX_LENGTH: Final = 12
SOCKET_ENVELOPE_MAX_LENGTH: Final = 1024
SOCKET_MESSAGE_MAX_LENGTH: Final = (
    CHAT_MAX_LENGTH * JSON_CHARACTER_MAX_LENGTH + SOCKET_ENVELOPE_MAX_LENGTH
)  # characters of a text frame, bytes of a binary one
# The web server itself closes a socket (1009) that sends a message of more bytes than this,
# before the application reads it (uvicorn's --ws-max-size in the Procfiles; 16 MiB unless
# told): room for any frame the application answers, each character in 4 bytes of UTF-8.
SOCKET_SERVER_MAX_BYTES: Final = 64 * 1024
