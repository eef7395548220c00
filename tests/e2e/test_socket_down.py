"""A player whose socket cannot connect (a proxy that drops websockets, a server whose socket
side is down) still plays: the page polls the game over REST and stays in step with a player
who has a socket, its moves go through REST, it keeps trying to reconnect, and a move whose
answer was lost is sent again with its seq and never applies twice. The table is dealt from a
fixed seed and played with fixed choices: the same turns each run."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import (
    Player,
    create_table,
    play_turn,
    sign_up,
    wait_table_live,
)
from tests.e2e.page_waits import MY_TURN, OVER, at_seq, seat_acts, until

pytestmark = pytest.mark.e2e

DECISIONS = 8  # a few turns of each player, through the first rounds
SEED = "socket-down-1"  # alice (seat 0), bob (seat 1) and a bot: whatever it deals

UNSENT_JS = "() => window.WizardTable.progress.unsent"
ERROR_LINE_JS = "() => document.getElementById('error-line').textContent"


@pytest.fixture
def players(browser: Any, server_url: str) -> Iterator[tuple[Player, Player, list[str]]]:
    """alice, whose every socket is refused, and bob, whose socket works."""
    alice = sign_up(browser, server_url, "alice_nows", seed=SEED)
    attempts: list[str] = []

    def refuse(socket: Any) -> None:
        attempts.append(socket.url)
        socket.close(code=1011)

    alice.context.route_web_socket("**/ws/**", refuse)
    bob = sign_up(browser, server_url, "bob_ws")
    try:
        yield alice, bob, attempts
    finally:
        alice.close()
        bob.close()


def test_without_a_socket_the_page_polls_moves_over_rest_and_resends_a_lost_move(
    players: tuple[Player, Player, list[str]],
) -> None:
    alice, bob, attempts = players
    rng = random.Random(14)
    game_id = create_table(alice, seats=3, bots=1, blind_first_round=False)
    bob.page.goto(f"/games/{game_id}/")
    with bob.page.expect_navigation():
        bob.page.locator("#join-button").click()
    # Alice's page learns that the game started without any push.
    wait_table_live(alice, what="the started game, by polling")
    lost = False
    view = both_at_a_persons_turn(alice, bob, after=None)
    for _ in range(DECISIONS):
        if view["status"] != "active":
            break
        if view["to_act"] == view["you"]:
            after = play_turn(bob, rng)
            alice.wait_seq(after["seq"], what="bob's move, by polling over REST")
        elif not lost:
            lose_the_answer_of_next_move(alice, view["seq"])
            lost = True
        else:
            after = play_turn(alice, rng)
            bob.wait_seq(after["seq"], what="alice's REST move, pushed to bob")
        view = both_at_a_persons_turn(alice, bob, after=view["seq"])
    assert lost, "alice never had a turn"
    assert alice.view()["seq"] == bob.view()["seq"]
    # It kept trying to reconnect (with back-off: not a socket per frame).
    assert 2 <= len(attempts) < 60, attempts
    box = alice.page.locator("#connection")
    assert "down" in (box.get_attribute("class") or "")


def both_at_a_persons_turn(alice: Player, bob: Player, *, after: int | None) -> dict[str, Any]:
    """Once the bot has answered (in the worker, after the answer to the move at seq `after`),
    both pages rest at alice's or bob's turn (or the game's end): bob's page, from his socket,
    then alice's, from her polling. Bob's view."""
    person = f"{MY_TURN}, {OVER}, {seat_acts(0, after=after)}"
    until(bob, person, what="the bot's answer: a person's turn")
    if after is not None:
        expect(bob.page.locator("#table")).not_to_have_attribute("data-seq", str(after))
    view = bob.view()
    until(alice, at_seq(view["seq"]), what="the game at a person's turn, by polling")
    return view


def lose_the_answer_of_next_move(player: Player, seq: int) -> None:
    """The player's next move reaches the server, but its answer is lost on the way back: the
    page sends it again with the same seq, the copy is refused as stale_state, silently."""
    page = player.page
    posts: list[dict[str, Any]] = []

    def answer_lost(route: Any) -> None:
        posts.append(route.request.post_data_json)
        if len(posts) == 1:
            route.fetch()  # the server applies the move...
            route.abort("connectionreset")  # ...and the page never hears of it
        else:
            route.continue_()

    page.route("**/moves/", answer_lost)
    try:
        state = player.view()
        legal = state["legal"]
        if "bids" in legal:
            page.click(f'[data-testid="bid-button"][data-bid="{legal["bids"][0]}"]')
        elif "suits" in legal:
            page.click(f'[data-testid="trump-choice"][data-suit="{legal["suits"][0]}"]')
        else:
            card = legal["cards"][0]
            page.click(f'[data-testid="hand-card"][data-legal="true"][data-card="{card}"]')
        player.wait_js(UNSENT_JS, what="the move kept as unsent after its answer was lost")
        player.wait_js(
            "() => window.WizardTable.progress.unsent === null", what="the move sent again"
        )
        player.wait_seq(seq + 1, what="the view after the move")
    finally:
        page.unroute("**/moves/")
    # The first try and one copy, with the same seq: the server refused the copy as stale.
    assert len(posts) == 2 and posts[0] == posts[1] and posts[0]["seq"] == seq, posts
    assert page.evaluate(ERROR_LINE_JS) == ""  # the refused copy is no news to the player
    game_id = page.url.rstrip("/").rsplit("/", 1)[1]
    events = page.evaluate(
        "async (u) => (await (await fetch(u)).json()).results",
        f"/api/v1/games/{game_id}/events/?after={seq}",
    )
    assert events[0]["seq"] == seq + 1 and events[0]["auto"] is False
