"""ASGI entry point: Django's ASGI handler for HTTP, the health probes on the event loop before
it (wizardsite.health), Channels for the game websockets; the client's address decided first,
for both (wizardsite.client_address)."""

from __future__ import annotations

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "wizardsite.settings")
GC_ALLOCATIONS = 50_000  # allocations between two collections of the youngest objects
django_http = get_asgi_application()  # set up Django before importing consumers

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402

from games.consumers import GameConsumer, LobbyConsumer, MeConsumer  # noqa: E402
from tournaments.consumers import TournamentConsumer  # noqa: E402
from wizardsite.client_address import ClientAddress  # noqa: E402
from wizardsite.health import ProbesOnTheLoop  # noqa: E402
from wizardsite.ws_auth import SameOriginOnly, TokenAuthMiddleware  # noqa: E402
from wizardsite.ws_guard import RefuseWhileDatabaseDown  # noqa: E402

websocket_urls = [
    path("ws/games/<int:game_id>/", GameConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/me/", MeConsumer.as_asgi()),
    path("ws/tournaments/<int:tournament_id>/", TournamentConsumer.as_asgi()),
]

application = ClientAddress(
    ProtocolTypeRouter(
        {
            "http": ProbesOnTheLoop(django_http),
            "websocket": SameOriginOnly(
                RefuseWhileDatabaseDown(
                    TokenAuthMiddleware(AuthMiddlewareStack(URLRouter(websocket_urls)))
                )
            ),
        }
    )
)

# The cyclic garbage collector at its defaults runs every 700 allocations and, every so
# often, walks every object the server holds, in the middle of moves. Everything loaded so
# far lives as long as the process, so it is left out of the walks for good, and collections
# run 70 times less often (a move allocates a few thousand objects, nearly all freed at once
# by their count; tests/games/test_move_garbage.py keeps moves free of cycles). bench/live.py,
# socket K=20, measured while moves still made cycles: p99 90–112 ms instead of 160–176 ms.
gc.freeze()
gc.set_threshold(GC_ALLOCATIONS, 20, 100)
