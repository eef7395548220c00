"""A client generated from the served schema by openapi-python-client plays a whole game: it
sends only what its models let it build and reads every answer through its models, so a schema
that allows what the server refuses, or says less than the server answers, fails here."""

from __future__ import annotations

import importlib
import json
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.games.helpers import API, PASSWORD

PACKAGE = "wizard_api_client"


def generate_client(base_url: str, into: Path) -> ModuleType:
    """Generate the client from the live server's schema into `into`, offline, and import it."""
    with urllib.request.urlopen(f"{base_url}{API}/schema/?format=json") as response:
        (into / "schema.json").write_bytes(response.read())
    # No formatting step: the generator runs ruff on its output unless told not to.
    (into / "config.json").write_text(json.dumps({"post_hooks": []}))
    generator = shutil.which("openapi-python-client", path=str(Path(sys.executable).parent))
    assert generator is not None, "openapi-python-client is a dev dependency"
    done = subprocess.run(
        [
            generator,
            "generate",
            "--path", str(into / "schema.json"),
            "--config", str(into / "config.json"),
            "--meta", "none",
            "--output-path", str(into / PACKAGE),
            "--fail-on-warning",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    sys.path.insert(0, str(into))
    try:
        return importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(into))


class Generated:
    """The generated package's modules, by the names the test uses."""

    def __init__(self, package: ModuleType) -> None:
        def module(name: str) -> Any:
            return importlib.import_module(f"{PACKAGE}.{name}")

        self.client, self.models = module("client"), module("models")
        self.register = module("api.accounts.accounts_register")
        self.create = module("api.games.games_create")
        self.join = module("api.games.games_join")
        self.retrieve = module("api.games.games_retrieve")
        self.move = module("api.games.games_move")
        self.events = module("api.games.games_events")


def sign_up(api: Generated, base_url: str, username: str) -> Any:
    """A new account through the generated register call: its authenticated client."""
    body = api.models.RegisterRequest(
        username=username, password=PASSWORD, email=f"{username}@example.com"
    )
    anonymous = api.client.Client(base_url=base_url, raise_on_unexpected_status=True)
    registered = api.register.sync(client=anonymous, body=body)
    assert isinstance(registered, api.models.Registered), registered
    return api.client.AuthenticatedClient(
        base_url=base_url, token=registered.token, prefix="Token", raise_on_unexpected_status=True
    )


def decision(api: Generated, view: Any) -> Any:
    """The first legal decision of a view, as the generated move model of its kind."""
    models, legal = api.models, view.legal
    if isinstance(legal, models.LegalBids):
        return models.BidRequest(type_=models.BidTypeEnum.BID, bid=legal.bids[0], seq=view.seq)
    if isinstance(legal, models.LegalCards):
        card = models.CardEnum(legal.cards[0])
        return models.PlayRequest(type_=models.PlayTypeEnum.PLAY, card=card, seq=view.seq)
    assert isinstance(legal, models.LegalSuits), legal
    suit = models.SuitEnum(legal.suits[0])
    return models.TrumpRequest(type_=models.TrumpTypeEnum.TRUMP, suit=suit, seq=view.seq)


@pytest.mark.django_db(transaction=True)
def test_generated_client_plays_a_whole_game(live_server: Any, tmp_path: Path) -> None:
    base_url = live_server.url
    api = Generated(generate_client(base_url, tmp_path))
    models = api.models
    ada, bob = (sign_up(api, base_url, name) for name in ("ada", "bob"))

    # Six seats, four of them bots: ten rounds, the last dealing the whole deck (no trump card,
    # R6), in a third of the requests three seats would take.
    table = models.GameCreate6SeatsRequest(seats=6, bots=4, bot_kind=models.BotKindEnum.EASY)
    created = api.create.sync(client=ada, body=table)
    assert isinstance(created, models.GameView), created
    assert created.status == models.GameViewStatus.OPEN
    view = api.join.sync(game_id=created.id, client=bob)
    assert isinstance(view, models.GameView), view
    assert view.status == models.GameViewStatus.ACTIVE

    # The people's entries have a null difficulty, the bot's its own: both read as models.
    difficulties = {player.is_bot: player.difficulty for player in view.players}
    assert difficulties[False] is None and difficulties[True] == "easy"

    seats: dict[int, Any] = {}
    for client in (ada, bob):
        mine = api.retrieve.sync(game_id=view.id, client=client)
        assert isinstance(mine, models.GameView) and mine.you is not None, mine
        seats[mine.you] = client
    # An answer is the game as its request left it; the bot replies in its own task (eager
    # here) before the next look, so a person is to act in every view read back.
    view = api.retrieve.sync(game_id=view.id, client=ada)
    while view.status == models.GameViewStatus.ACTIVE:
        client = seats[view.to_act]
        mine = api.retrieve.sync(game_id=view.id, client=client)
        assert isinstance(mine, models.GameView) and mine.you == mine.to_act, mine
        moved = api.move.sync(game_id=view.id, client=client, body=decision(api, mine))
        assert isinstance(moved, models.GameView), moved
        assert moved.seq > mine.seq
        view = moved  # the game as the move left it: a bot to act in it moves after it
        if view.status == models.GameViewStatus.ACTIVE and view.to_act not in seats:
            view = api.retrieve.sync(game_id=view.id, client=client)
            assert isinstance(view, models.GameView), view

    assert view.status == models.GameViewStatus.FINISHED
    assert [record.round_ for record in view.scores] == list(range(1, 60 // 6 + 1))
    assert view.winners and all(len(record.totals) == 6 for record in view.scores)
    page = api.events.sync(game_id=view.id, client=ada, page_size=1000)
    assert isinstance(page, models.PaginatedEventRowList), page
    assert page.next_ is None and isinstance(page.results[-1].payload, models.GameOver)
