"""The seeded games the browser tests play (tests/e2e/table_scenarios.py) still deal and play
out as written: on the engine alone, and through the API at a table whose seed the creator's
X-Test-Shuffle-Seed fixes, with the server's bots answering. Together the accessibility
scenarios reach every phase of the table the accessibility checks name."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.conf import settings
from django.test import override_settings

from games import engine
from games.models import Game
from tests.e2e.table_scenarios import (
    CONTINUE,
    PHASES,
    REVIEW_SCENARIO,
    TABLE_SCENARIOS,
    YOU,
    Scenario,
    final_state,
    kind_of,
    parse,
    steps_of,
    table_options,
)
from tests.games.helpers import Player

SCENARIOS = {scenario.seed: scenario for scenario in (*TABLE_SCENARIOS, REVIEW_SCENARIO)}
LEGAL_KEY = {"bid": "bids", "play": "cards", "trump": "suits", "pass": "passes", "adjust": "adjust"}
WITH_HEADER = override_settings(MIDDLEWARE=[*settings.MIDDLEWARE, "games.fixed_seeds.from_header"])


@pytest.mark.parametrize("seed", list(SCENARIOS))
def test_each_scenario_plays_out_on_the_engine_as_written(seed: str) -> None:
    scenario = SCENARIOS[seed]
    assert steps_of(seed, scenario.moves, scenario.special_cards) == scenario.steps


def test_the_scenarios_reach_every_phase_of_the_table() -> None:
    shown = {
        phase for scenario in TABLE_SCENARIOS for step in scenario.steps for phase in step.shows
    }
    # The waiting room comes before any deal, and the game's end after each scenario's last step.
    assert shown | {"waiting-room", "game-over"} == set(PHASES)
    assert len(PHASES) == len(set(PHASES))


def play_through_the_api(player: Player, scenario: Scenario) -> Game:
    """The scenario's table created with its seed in the header, each move of the player sent
    when the view says it is theirs to make (the bots answer in their eager tasks)."""
    answer = player.client.post(
        "/api/v1/games/",
        table_options(scenario.special_cards),
        format="json",
        headers={"X-Test-Shuffle-Seed": scenario.seed},
    )
    assert answer.status_code == 201, answer.json()
    game_id = answer.json()["id"]
    assert answer.json()["shuffle_commitment"] == engine.commitment(scenario.seed)
    for step in scenario.steps:
        if step.move == CONTINUE:  # a round's summary is the page's alone
            continue
        view = player.view(game_id)
        assert view["status"] == "active" and view["to_act"] == view["you"] == YOU, view
        legal = view["legal"]
        assert list(legal) == [LEGAL_KEY[kind_of(step.move)]], (step, legal)
        body = {**parse(step.move).to_json(), "seq": view["seq"]}
        response = player.move(game_id, body)
        assert response.status_code == 200, (step, response.json())
    return Game.objects.get(pk=game_id)


@WITH_HEADER
@pytest.mark.django_db
@pytest.mark.parametrize("seed", list(SCENARIOS))
def test_each_scenario_plays_out_through_the_api_as_on_the_engine(
    make_player: Callable[..., Player], seed: str
) -> None:
    scenario = SCENARIOS[seed]
    game = play_through_the_api(make_player("scenario"), scenario)
    assert game.status == "finished"
    assert game.seed == seed
    assert game.engine_state() == final_state(scenario)  # the same deals, the same bots
