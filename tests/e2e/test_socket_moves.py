"""The table sends its moves over its open game socket, each with a client id that the server
echoes (API.md "WebSocket"), and over REST only while the socket is down: a whole seeded game
played by clicks makes no POST …/moves/; a move refused because the page held a stale view
says why, and the page catches up through the `sync` it then asks; a move whose echo is lost
is settled by a sync; a move whose socket drops before its echo is sent again over REST and
applies once; with the socket cut a move goes over REST, and once the socket is back the next
one goes over it again. Each at a phone's size and a laptop's; every table is dealt from a
seed and played with fixed choices. The socket is relayed through the test, which records
each frame before passing it on, so the records follow the order the frames went in."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import expect

from games.engine import MOVE_TYPES
from tests.e2e.axe_checks import SIZES, context_options
from tests.e2e.helpers import Player, screenshots_on_failure, sign_up
from tests.e2e.page_waits import MY_TURN, at_seq, my_turn, until
from tests.e2e.table_phases import YOUR_TURN, create_scenario_table, take_step, target_of
from tests.e2e.table_scenarios import CONTINUE, REVIEW_SCENARIO, TABLE_SCENARIOS, Scenario

if TYPE_CHECKING:
    from playwright.sync_api import Page, Request, WebSocketRoute

pytestmark = pytest.mark.e2e

# Every kind of move, a card declared as a Wizard (R25) among them: bid, play, trump, adjust
# (R24), pass (R24).
ALL_KINDS = TABLE_SCENARIOS[0]
GAME_SOCKET = "**/ws/games/**"
LIVE = '#connection[data-live="true"]'  # the page's socket is open
DOWN = '#connection[data-live="false"]'  # it is reconnecting
SETTLED_PAST = '#table[data-settled="true"]:not([data-seq="{seq}"])'
STALE_TEXT_JS = "() => JSON.parse(document.getElementById('error-texts').textContent).stale_state"


def nothing_to_check(phase: str) -> None:
    return None


def frame_of(move: str) -> dict[str, Any]:
    """A scenario's move ("bid 0", "play SH as wizard", "adjust +1" …) as the page sends it,
    without its seq and id."""
    kind, code, *rest = move.split()
    if kind == "bid":
        return {"type": "bid", "bid": int(code)}
    if kind == "trump":
        return {"type": "trump", "suit": code}
    if kind == "adjust":
        return {"type": "adjust", "delta": int(code)}
    if kind == "pass":
        return {"type": "pass", "card": code}
    if not rest:
        return {"type": "play", "card": code}
    return {"type": "play", "card": code, ("as" if code == "SH" else "suit"): rest[1]}


def is_move_post(request: Request) -> bool:
    return request.method == "POST" and request.url.endswith("/moves/")


def parsed(payload: str | bytes) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(payload)
    return message


@dataclass
class Traffic:
    """A page's POSTs of moves, and its game sockets' frames in order: ("sent", message) from
    the page, ("received", message) to it, ("held", message) kept from it."""

    posts: list[dict[str, Any]] = field(default_factory=list)
    frames: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    def watch_posts(self, page: Page) -> None:
        def on_request(request: Request) -> None:
            if is_move_post(request):
                self.posts.append(json.loads(request.post_data or "null"))

        page.on("request", on_request)

    def sent(self, *kinds: str) -> list[dict[str, Any]]:
        return [m for way, m in self.frames if way == "sent" and m.get("type") in kinds]

    def moves_sent(self) -> list[dict[str, Any]]:
        return self.sent(*MOVE_TYPES)

    def index(self, way: str, kind: str, message_id: object) -> int:
        """Where the first frame that way, of that kind, with that id, came."""
        for at, (went, message) in enumerate(self.frames):
            if went == way and message.get("type") == kind and message.get("id") == message_id:
                return at
        raise AssertionError(f"no {way} {kind} frame with id {message_id!r}: {self.frames}")


class Relay:
    """A page's game socket relayed through the test (Playwright's route_web_socket), each
    frame recorded before it is passed on. While `holding` names a message type, the server's
    views are kept from the page until a frame of that type passes (an "error" from the server,
    a "sync" from the page); `hold_after_move` starts such a hold once the page's next move has
    gone to the server. `cut_on_echo`: the socket drops just as the echo of a move comes (the
    echo is lost with it). While `cut`, every new socket is closed at once (1011, which the
    page retries) and the page runs on REST."""

    def __init__(self, traffic: Traffic) -> None:
        self.traffic = traffic
        self.holding: str | None = None
        self.hold_after_move: str | None = None
        self.cut_on_echo = False
        self.cut = False
        self.move_ids: set[object] = set()
        self.page_side: WebSocketRoute | None = None

    def handle(self, socket: WebSocketRoute) -> None:
        if self.cut:
            socket.close(code=1011)
            return
        server = socket.connect_to_server()
        self.page_side = socket
        frames = self.traffic.frames

        def from_page(payload: str | bytes) -> None:
            message = parsed(payload)
            frames.append(("sent", message))
            server.send(payload)
            if self.holding == message.get("type"):
                self.holding = None
            if message.get("type") in MOVE_TYPES:
                self.move_ids.add(message.get("id"))
                self.holding = self.hold_after_move or self.holding
                self.hold_after_move = None

        def from_server(payload: str | bytes) -> None:
            message = parsed(payload)
            kind = message.get("type")
            if self.cut_on_echo and kind == "state" and message.get("id") in self.move_ids:
                frames.append(("lost", message))
                self.cut_on_echo = False
                self.cut_now()
                return
            if self.holding is not None and kind == "state":
                frames.append(("held", message))
                return
            frames.append(("received", message))
            if self.holding == kind:
                self.holding = None
            socket.send(payload)

        socket.on_message(from_page)
        server.on_message(from_server)
        # Each side's close is passed on by hand: Playwright's own would hand the page's 1011
        # to the browser's WebSocket.close, which takes no such code.
        socket.on_close(lambda code, reason: server.close())
        server.on_close(lambda code, reason: socket.close(code=code, reason=reason))

    def cut_now(self) -> None:
        """The socket drops (a train enters a tunnel), and stays down until `restore`."""
        self.cut = True
        if self.page_side is not None:
            self.page_side.close(code=1011)

    def restore(self) -> None:
        self.cut = False


@pytest.fixture(params=list(SIZES))
def size(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


@pytest.fixture
def sign_up_at_size(
    browser: Any, server_url: str, size: str
) -> Iterator[Callable[[str, Scenario], Player]]:
    """Signs a player up at the size, with the seed of the scenario they will play."""
    players: list[Player] = []

    def at_size(name: str, scenario: Scenario) -> Player:
        options = context_options(size)
        player = sign_up(browser, server_url, f"{name}_{size}", seed=scenario.seed, **options)
        players.append(player)
        return player

    try:
        yield at_size
    finally:
        for player in players:
            player.close()


def open_table(player: Player, scenario: Scenario) -> int:
    """The scenario's table, created for the player, open on their page."""
    game_id = create_scenario_table(player, scenario)
    player.page.goto(f"/games/{game_id}/")
    return game_id


def without_ids(move: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in move.items() if k not in ("id", "seq")}


def without_id(move: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in move.items() if k != "id"}


def test_a_whole_game_sends_every_move_over_the_socket_with_an_id(
    sign_up_at_size: Callable[[str, Scenario], Player], artifacts: Path
) -> None:
    player = sign_up_at_size("sm_game", ALL_KINDS)
    page = player.page
    traffic = Traffic()
    traffic.watch_posts(page)
    # The socket's frames, each recorded before it is passed on: in the order they went.
    page.route_web_socket(GAME_SOCKET, Relay(traffic).handle)
    with screenshots_on_failure(artifacts, [player]):
        open_table(player, ALL_KINDS)
        expect(page.locator(LIVE)).to_be_attached()
        for step in ALL_KINDS.steps:
            take_step(player, step, nothing_to_check)
        expect(page.locator('[data-testid="game-over"]')).to_be_visible()

    assert traffic.posts == [], "a move went over REST while the socket was open"
    sent = traffic.moves_sent()
    assert [without_ids(m) for m in sent] == [frame_of(move) for move in ALL_KINDS.moves]
    ids = [m["id"] for m in sent]
    assert all(isinstance(i, str) and 1 <= len(i) <= 64 for i in ids), ids
    assert len(set(ids)) == len(ids), ids
    seqs = [m["seq"] for m in sent]
    assert seqs == sorted(set(seqs)), f"each move is made in a newer view: {seqs}"
    for move in sent:  # each applied: the first view to include it carries its id
        echo = traffic.frames[traffic.index("received", "state", move["id"])][1]
        assert echo["state"]["seq"] > move["seq"], echo["state"]["seq"]
    errors = [m for way, m in traffic.frames if way == "received" and m["type"] == "error"]
    assert errors == []


def test_a_move_refused_on_a_stale_view_says_why_and_the_page_resyncs(
    sign_up_at_size: Callable[[str, Scenario], Player], artifacts: Path
) -> None:
    """Alice's table is open in two tabs; the first stops hearing the game (its pushes lost),
    she bids in the second, then clicks the same bid in the first: the server refuses it as
    made on a stale view, and the first tab says so and catches up through the sync it asks."""
    player = sign_up_at_size("sm_stale", REVIEW_SCENARIO)
    page = player.page
    traffic = Traffic()
    traffic.watch_posts(page)
    relay = Relay(traffic)
    page.route_web_socket(GAME_SOCKET, relay.handle)
    other = Player(username=player.username, context=player.context, page=player.context.new_page())
    first = REVIEW_SCENARIO.steps[0]
    with screenshots_on_failure(artifacts, [player, other]):
        game_id = open_table(player, REVIEW_SCENARIO)
        expect(page.locator(LIVE)).to_be_attached()
        expect(page.locator(YOUR_TURN)).to_be_visible()
        stale_seq = int(page.locator("#table").get_attribute("data-seq") or "0")
        page.evaluate("() => { window.sameDocument = true; }")
        relay.holding = "error"

        # Her second tab: her running games, this table, the bid made there.
        other.page.goto("/games/mine/")
        other.page.locator(f'[data-testid="my-running"] li[data-game="{game_id}"] a').click()
        expect(other.page.locator(LIVE)).to_be_attached()
        take_step(other, first, nothing_to_check)
        server_seq = my_turn(other, what="her next decision, in the second tab")["seq"]

        # The first tab still offers the bid: clicked, it is refused, and the tab catches up.
        stale_text = page.evaluate(STALE_TEXT_JS)
        page.locator(target_of(first.move)).click()
        expect(page.locator("#error-line")).to_have_text(stale_text)
        until(player, at_seq(server_seq), what="the server's view, after the refusal")
        expect(page.locator(MY_TURN)).to_be_visible()
        expect(page.locator("#error-line")).to_have_text(stale_text)

    assert [way for way, _ in traffic.frames].count("held") >= 1, "no push was held back"
    (move,) = traffic.moves_sent()
    assert move == {**frame_of(first.move), "seq": stale_seq, "id": move["id"]}, move
    refused = traffic.index("received", "error", move["id"])
    assert traffic.frames[refused][1]["error"]["code"] == "stale_state"
    syncs = [
        at for at, (way, m) in enumerate(traffic.frames) if way == "sent" and m["type"] == "sync"
    ]
    after = [at for at in syncs if at > refused]
    assert after, f"no sync was asked after the refusal: {traffic.frames}"
    answer = traffic.frames[traffic.index("received", "state", traffic.frames[after[0]][1]["id"])]
    assert answer[1]["state"]["seq"] == server_seq
    assert page.evaluate("() => window.sameDocument === true"), "the page was reloaded"
    assert traffic.posts == []


def test_with_the_socket_cut_a_move_goes_over_rest_and_then_over_the_socket_again(
    sign_up_at_size: Callable[[str, Scenario], Player], artifacts: Path
) -> None:
    player = sign_up_at_size("sm_cut", REVIEW_SCENARIO)
    page = player.page
    traffic = Traffic()
    traffic.watch_posts(page)
    relay = Relay(traffic)
    page.route_web_socket(GAME_SOCKET, relay.handle)
    steps = list(REVIEW_SCENARIO.steps)
    moves = [step for step in steps if step.move != CONTINUE]  # bid 0, play W3, bid 0 …
    with screenshots_on_failure(artifacts, [player]):
        open_table(player, REVIEW_SCENARIO)
        expect(page.locator(LIVE)).to_be_attached()
        take_step(player, moves[0], nothing_to_check)
        assert len(traffic.moves_sent()) == 1 and traffic.posts == []

        relay.cut_now()
        expect(page.locator(DOWN)).to_be_attached()
        expect(page.locator(YOUR_TURN)).to_be_visible()
        seq = int(page.locator("#table").get_attribute("data-seq") or "0")
        with page.expect_request(is_move_post) as posted:
            take_step(player, moves[1], nothing_to_check)
        assert posted.value.post_data_json == {**frame_of(moves[1].move), "seq": seq}
        assert len(traffic.posts) == 1, traffic.posts
        assert len(traffic.moves_sent()) == 1, "a move was sent on a socket that was down"

        relay.restore()
        expect(page.locator(LIVE)).to_be_attached()
        for step in steps[steps.index(moves[1]) + 1 : steps.index(moves[2]) + 1]:
            take_step(player, step, nothing_to_check)  # the round's summary, then a bid

    assert len(traffic.posts) == 1, "a move went over REST once the socket was back"
    last = traffic.moves_sent()[-1]
    assert without_ids(last) == frame_of(moves[2].move), last
    traffic.index("received", "state", last["id"])  # applied, and echoed


def test_a_move_whose_echo_is_lost_is_settled_by_the_sync_the_page_asks(
    sign_up_at_size: Callable[[str, Scenario], Player], artifacts: Path
) -> None:
    """Pushes arrive at most once: the views after the player's bid, its echo among them, are
    lost, and no other comes. The page does not wait for ever: it asks for a sync, whose view
    settles the move, and plays out what it missed."""
    player = sign_up_at_size("sm_echo", REVIEW_SCENARIO)
    page = player.page
    traffic = Traffic()
    traffic.watch_posts(page)
    relay = Relay(traffic)
    page.route_web_socket(GAME_SOCKET, relay.handle)
    bid = REVIEW_SCENARIO.steps[0]
    with screenshots_on_failure(artifacts, [player]):
        open_table(player, REVIEW_SCENARIO)
        expect(page.locator(LIVE)).to_be_attached()
        relay.hold_after_move = "sync"
        take_step(player, bid, nothing_to_check)
        my_turn(player, what="her next decision, after the sync")

    (move,) = traffic.moves_sent()
    lost = [m for way, m in traffic.frames if way == "held" and m.get("id") == move["id"]]
    assert lost, f"the echo was not among the views held back: {traffic.frames}"
    moved = traffic.index("sent", move["type"], move["id"])
    syncs = [
        at for at, (way, m) in enumerate(traffic.frames) if way == "sent" and m["type"] == "sync"
    ]
    after = [at for at in syncs if at > moved]
    assert after, f"no sync was asked after the move: {traffic.frames}"
    answer = traffic.frames[traffic.index("received", "state", traffic.frames[after[0]][1]["id"])]
    assert answer[1]["state"]["seq"] > move["seq"]
    assert traffic.posts == [], "the move was sent again over REST"


def test_a_move_whose_socket_drops_before_its_echo_is_sent_again_and_applies_once(
    sign_up_at_size: Callable[[str, Scenario], Player], artifacts: Path
) -> None:
    """The player's bid reaches the server, but the socket drops just as its echo comes: the
    page sends the bid again over REST with the same seq, the server refuses the copy as
    stale (the first try did arrive), and the page says nothing of it and catches up."""
    player = sign_up_at_size("sm_drop", REVIEW_SCENARIO)
    page = player.page
    traffic = Traffic()
    relay = Relay(traffic)
    page.route_web_socket(GAME_SOCKET, relay.handle)
    bid = REVIEW_SCENARIO.steps[0]
    with screenshots_on_failure(artifacts, [player]):
        game_id = open_table(player, REVIEW_SCENARIO)
        expect(page.locator(LIVE)).to_be_attached()
        expect(page.locator(YOUR_TURN)).to_be_visible()
        seq = int(page.locator("#table").get_attribute("data-seq") or "0")
        relay.cut_on_echo = True
        with page.expect_response(lambda r: is_move_post(r.request)) as copy:
            page.locator(target_of(bid.move)).click()
        expect(page.locator(SETTLED_PAST.format(seq=seq))).to_be_attached()
        expect(page.locator("#error-line")).to_have_text("")

    (move,) = traffic.moves_sent()
    assert [m for way, m in traffic.frames if way == "lost"], "the echo was not lost"
    answer = copy.value
    assert answer.request.post_data_json == {**frame_of(bid.move), "seq": seq} == without_id(move)
    assert answer.status == 409 and answer.json()["error"]["code"] == "stale_state"
    events = player.context.request.get(f"/api/v1/games/{game_id}/events/?after={seq}").json()
    bids = [e for e in events["results"] if e["type"] == "bid" and e["seat"] == 0]
    assert len(bids) == 1 and bids[0]["seq"] == seq + 1 and bids[0]["auto"] is False, bids
