"""The tournaments' pages (Django's test client): the list, the creation form, a tournament's
page with its join, withdraw and start buttons, a private one's code, and the home page's
featured tournaments."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from tournaments import services
from tournaments.models import Entry, Status, Tournament

pytestmark = pytest.mark.django_db


def person(username: str) -> tuple[User, Client]:
    user = User.objects.create_user(username, f"{username}@example.com", "Plenty-of-Entropy-42")
    client = Client()
    client.force_login(user)
    return user, client


def tournament(creator: User, **options: Any) -> Tournament:
    defaults: dict[str, Any] = {
        "name": "Friday night",
        "format": "swiss",
        "starts_at": timezone.now() + timedelta(hours=1),
        "table_size": 3,
        "rounds": 1,
        "rounds_format": 1,
        "blind_first_round": False,
    }
    return services.tournament_create(user=creator, **{**defaults, **options})


def form_data(**changes: Any) -> dict[str, Any]:
    soon = timezone.now() + timedelta(hours=2)
    data = {
        "name": "Spring cup",
        "format": "swiss",
        "starts_at": soon.strftime("%Y-%m-%dT%H:%M"),
        "utc_offset": "0",
        "table_size": "3",
        "rounds": "2",
        "minutes": "60",
        "turn_seconds": "60",
        "rounds_format": "1",
        "hook_rule": "on",
        "special_cards": ["bomb"],
        "visibility": "public",
    }
    data.update(changes)
    return data


def test_the_list_shows_public_tournaments_and_hides_others_private_ones() -> None:
    host, _ = person("host")
    tournament(host, name="Open cup")
    tournament(host, name="Secret cup", visibility="private")
    _, stranger = person("stranger")
    page = stranger.get("/tournaments/").content.decode()
    assert "Open cup" in page
    assert "Secret cup" not in page
    assert 'data-testid="tournament-create"' in page
    host_client = Client()
    host_client.force_login(host)
    assert "Secret cup" in host_client.get("/tournaments/").content.decode()
    Tournament.objects.filter(name="Open cup").update(status=Status.CANCELLED)
    assert (
        "Open cup" in stranger.get("/tournaments/").context["sections"][2]["tournaments"][0]["name"]
    )
    anonymous = Client().get("/tournaments/").content.decode()
    assert "Open cup" in anonymous and 'data-testid="tournament-create"' not in anonymous
    assert "Cancelled" in anonymous


def test_the_form_creates_a_tournament_with_its_options() -> None:
    user, client = person("maker")
    response = client.post("/tournaments/new/", form_data())
    created = Tournament.objects.get(name="Spring cup")
    assert response.status_code == 302 and response["Location"] == f"/tournaments/{created.pk}/"
    assert created.created_by == user and created.format == "swiss" and created.rounds == 2
    assert created.minutes is None and created.table_size == 3
    assert created.rounds_format == "1" and created.special_cards == ["bomb"]
    assert created.hook_rule and not created.blind_first_round
    assert not Entry.objects.filter(tournament=created).exists()  # the creator joins apart


def test_the_form_reads_the_time_in_the_readers_zone() -> None:
    _, client = person("zoned")
    local = timezone.now().replace(second=0, microsecond=0) + timedelta(hours=3)
    data = form_data(starts_at=local.strftime("%Y-%m-%dT%H:%M"), utc_offset="120")
    assert client.post("/tournaments/new/", data).status_code == 302
    assert Tournament.objects.get().starts_at == local - timedelta(minutes=120)


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"name": ""}, "name"),
        ({"table_size": "7"}, "table_size"),
        ({"rounds": "16"}, "rounds"),
        ({"rounds": ""}, "rounds"),
        ({"format": "arena", "minutes": "5"}, "minutes"),
        ({"starts_at": "2001-01-01T10:00"}, "starts_at"),
        ({"rounds_format": "11"}, "rounds_format"),
    ],
)
def test_the_form_refuses_bad_input_with_its_errors(changes: dict[str, Any], field: str) -> None:
    _, client = person("careless")
    response = client.post("/tournaments/new/", form_data(**changes))
    assert response.status_code == 200
    assert field in response.context["form"].errors
    assert 'class="errorlist' in response.content.decode()
    assert not Tournament.objects.exists()


def test_an_arena_keeps_its_minutes_and_no_rounds() -> None:
    _, client = person("arena_maker")
    assert client.post("/tournaments/new/", form_data(format="arena", minutes="45")).status_code
    created = Tournament.objects.get()
    assert (created.format, created.minutes, created.rounds) == ("arena", 45, None)


def test_the_form_asks_a_visitor_to_log_in() -> None:
    response = Client().get("/tournaments/new/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_join_withdraw_and_start_from_the_page() -> None:
    host, host_client = person("host")
    event = tournament(host)
    page = f"/tournaments/{event.pk}/"
    clients = [host_client] + [person(name)[1] for name in ("ann", "bob")]
    assert 'data-testid="tournament-join"' in clients[1].get(page).content.decode()
    for client in clients:
        assert client.post(f"{page}join/")["Location"] == page
    assert Entry.objects.filter(tournament=event, withdrawn=False).count() == 3
    html = clients[1].get(page).content.decode()
    assert (
        'data-testid="tournament-withdraw"' in html and 'data-testid="tournament-join"' not in html
    )
    assert 'data-testid="tournament-start"' not in html  # for the creator only

    clients[2].post(f"{page}withdraw/")
    assert Entry.objects.get(tournament=event, user__username="bob").withdrawn
    refused = host_client.post(f"{page}start/", follow=True)
    assert Tournament.objects.get(pk=event.pk).status == Status.UPCOMING
    assert "fewer than 3 players" in refused.content.decode()  # the message, on the page
    assert clients[1].post(f"{page}start/", follow=True).status_code == 200
    assert Tournament.objects.get(pk=event.pk).status == Status.UPCOMING  # not the creator's

    clients[2].post(f"{page}join/")
    host_client.post(f"{page}start/")
    assert Tournament.objects.get(pk=event.pk).status == Status.RUNNING
    html = clients[1].get(page).content.decode()
    assert 'data-testid="tournament-start"' not in html
    assert html.count('data-testid="tournament-table"') == 1
    assert 'data-testid="tournament-table-link"' in html


def test_the_page_renders_standings_and_this_rounds_tables() -> None:
    host, host_client = person("host")
    event = tournament(host)
    names = ["host", "ann", "bob"]
    users = [host] + [person(name)[0] for name in names[1:]]
    for user in users:
        services.tournament_join(tournament_id=event.pk, user=user)
    services.tournament_start(tournament_id=event.pk, user=host)
    response = host_client.get(f"/tournaments/{event.pk}/")
    html = response.content.decode()
    assert response.status_code == 200
    assert html.count('data-testid="standing-row"') == 3
    assert 'data-testid="tournament-standings"' in html
    game = event.tables.get().game_id
    assert f'href="/games/{game}/"' in html
    assert "t-table mine" in html  # the host's own table, with its Play link
    assert ">Play<" in html
    view = response.context["t"]
    assert {row["username"] for row in view["standings"]} == set(names)
    assert 'data-testid="tournament-podium"' in html and 'id="t-podium-box" hidden' in html


def test_a_private_tournament_needs_its_code() -> None:
    host, host_client = person("host")
    event = tournament(host, visibility="private")
    page = f"/tournaments/{event.pk}/"
    _, stranger = person("stranger")
    refused = stranger.get(page)
    assert refused.status_code == 403
    assert "private" in refused.content.decode()
    assert stranger.get(f"{page}?invite=wrong").status_code == 403
    with_code = stranger.get(f"{page}?invite={event.invite_code}")
    assert with_code.status_code == 200
    html = with_code.content.decode()
    assert f'name="invite" value="{event.invite_code}"' in html
    assert 'data-testid="tournament-invite"' not in html  # the link is for its players
    stranger.post(f"{page}join/", {"invite": event.invite_code})
    assert Entry.objects.filter(tournament=event, user__username="stranger").exists()
    assert stranger.get(page).status_code == 200  # a player sees it without the code
    host_html = host_client.get(page).content.decode()
    assert 'data-testid="tournament-invite"' in host_html and event.invite_code in host_html


def test_joining_a_private_one_without_its_code_is_refused_with_a_message() -> None:
    host, _ = person("host")
    event = tournament(host, visibility="private")
    _, stranger = person("stranger")
    response = stranger.post(f"/tournaments/{event.pk}/join/", follow=True)
    assert response.status_code == 403  # back on the page, which asks for the code
    assert not Entry.objects.filter(tournament=event).exists()


def test_an_unknown_tournament_is_a_404() -> None:
    assert Client().get("/tournaments/999/").status_code == 404


def test_the_home_page_shows_a_featured_tournament() -> None:
    host, _ = person("host")
    shown = tournament(host, name="Grand final")
    tournament(host, name="Quiet cup")
    assert "Grand final" not in Client().get("/").content.decode()
    Tournament.objects.filter(pk=shown.pk).update(featured=True)
    home = Client().get("/").content.decode()
    assert "Grand final" in home and f'href="/tournaments/{shown.pk}/"' in home
    assert "Quiet cup" not in home


def test_the_nav_links_to_the_tournaments() -> None:
    assert 'data-testid="nav-tournaments"' in Client().get("/").content.decode()
