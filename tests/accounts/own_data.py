"""A player with every kind of data the site keeps, made through the API as players make it:
games finished, running and open, chat, reports, a push subscription, follows, a block, a
tournament entry, settings and league ratings."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from league import services as league_services
from tests.games.helpers import API, Player, create_game, game_url, play_auto, seat_players
from tests.notifications.push_server import BrowserKeys
from tests.tournaments.helpers import create_tournament, join

ENDPOINT = "https://fcm.googleapis.com/fcm/send/own-data-1"


@dataclass
class World:
    me: Player
    ana: Player
    bob: Player
    carl: Player  # blocked by me
    finished: int  # a league game of me, ana and bob, over
    running: int  # me, ana and bob, cards open (no blind round)
    blind: int  # me, ana and bob, in the blind first round (R9)
    with_bots: int  # me alone with two bots, running
    open_alone: int  # an open table where only I sit
    open_shared: int  # an open table of ana's that I joined
    tournament: int  # upcoming, entered by me
    my_message: int  # my chat line at `running`, reported by ana
    my_other_message: int  # another line of mine, nobody reported
    anas_message: int
    push_keys: BrowserKeys


APNS_TOKEN = "a0" * 32


def post(player: Player, url: str, body: dict[str, Any] | None = None, status: int = 201) -> Any:
    response = player.client.post(url, body or {}, format="json")
    assert response.status_code == status, response.content
    return response.json() if response.content else None


def build(make_player: Callable[..., Player]) -> World:
    me, ana, bob, carl = (make_player(name) for name in ("mara", "ana", "bob", "carl"))
    people = [me, ana, bob]
    finished = seat_players(people, rounds=2, blind_first_round=False)
    play_auto(finished, people)
    league_services.games_rate()  # the league's task, after the last move's commit
    running = seat_players(people, blind_first_round=False)
    blind = seat_players(people, blind_first_round=True)
    with_bots = create_game(me, seats=3, bots=2)["id"]
    open_alone = create_game(me, seats=4)["id"]
    open_shared = create_game(ana, seats=4)["id"]
    assert me.join(open_shared).status_code == 200

    chat = game_url(running, "chat")
    my_message = post(me, chat, {"text": "good luck, mara speaking"})["id"]
    my_other_message = post(me, chat, {"text": "second line by mara"})["id"]
    anas_message = post(ana, chat, {"text": "ana says hello"})["id"]
    report = {"username": "mara", "message_id": my_message, "reason": "ana's report"}
    post(ana, f"{API}/reports/", report)
    post(me, f"{API}/reports/", {"username": "bob", "reason": "mara reports bob"})

    keys = BrowserKeys.new()
    body = {"endpoint": ENDPOINT, "keys": {"p256dh": keys.p256dh, "auth": keys.auth}}
    post(me, f"{API}/accounts/me/push-subscriptions/", body)
    post(me, f"{API}/accounts/me/devices/", {"platform": "apns", "token": APNS_TOKEN})
    response = me.client.patch(
        f"{API}/accounts/me/notifications/", {"email_turns": False}, format="json"
    )
    assert response.status_code == 200, response.content

    for follower, followed in ((me, "ana"), (ana, "mara"), (bob, "mara")):
        post(follower, f"{API}/players/{followed}/follow/", status=204)
    post(me, f"{API}/players/carl/block/", status=204)

    tournament = create_tournament(ana)["id"]
    assert join(me, tournament).status_code == 200
    return World(
        me, ana, bob, carl, finished, running, blind, with_bots, open_alone, open_shared,
        tournament, my_message, my_other_message, anas_message, keys,
    )  # fmt: skip
