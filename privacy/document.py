"""The shape of `GET /accounts/me/export/`: these types are its OpenAPI schema and what the
export writes, so the two cannot drift apart."""

from __future__ import annotations

from typing import TypedDict

from apikit.schema import DateTime
from games.models import GameStatus
from games.selectors import EventRow
from league.models import Pool
from moderation.models import ReportCategory, ReportStatus
from notifications.notices import NoticeView
from notifications.services import SettingsView
from tournaments.models import Status


class ExportedAccount(TypedDict):
    username: str
    email: str
    email_verified: bool
    date_joined: DateTime
    last_login: DateTime | None
    language: str  # the site's language they last used ("" before any visit)


class ExportedPushSubscription(TypedDict):
    """A browser or app subscribed to Web Push (its keys are not exported)."""

    endpoint: str
    created: DateTime


class ExportedDevice(TypedDict):
    """A phone app registered for native push."""

    platform: str  # fcm or apns
    token: str
    created: DateTime


class ExportedHand(TypedDict):
    """A hand as dealt to the player; null while a running game's blind round hides it (R9)."""

    round: int
    hand: list[str] | None


class ExportedGame(TypedDict):
    """A game the player sat in: their seat, its result, their hands and their own moves."""

    id: int
    status: GameStatus
    created_at: DateTime
    started_at: DateTime | None
    finished_at: DateTime | None
    players: list[str]  # the names at the table, by seat
    seat: int
    final_score: int | None
    place: int | None
    exact_bids: int | None
    away: bool  # R18
    resigned: bool  # R18
    league: bool  # counted by the league (R17)
    shuffle_commitment: str
    shuffle_seed: str | None  # public once the game is over
    hands: list[ExportedHand]
    moves: list[EventRow]  # their own decisions (the R16 auto-moves too), as their seat sees them


class ExportedChatMessage(TypedDict):
    game: int
    text: str
    preset: str | None
    at: DateTime
    hidden: bool  # hidden by a moderator


class ExportedReport(TypedDict):
    """A report the player made."""

    reported: str
    message: int | None
    category: ReportCategory
    reason: str  # their note, "" when they wrote none
    status: ReportStatus
    created_at: DateTime


class ExportedEntry(TypedDict):
    """A tournament entered, and the player's standing in it (T2)."""

    tournament: int
    name: str
    status: Status
    joined_at: DateTime
    withdrawn: bool
    points: int
    wizard_points: int
    exact_bids: int
    games: int


class ExportedRating(TypedDict):
    pool: Pool
    rating: float  # mu − 3σ, as shown
    mu: float
    sigma: float
    games: int
    wins: int
    points: int


class ExportedRatingChange(TypedDict):
    game: int
    pool: Pool
    at: DateTime
    place: int
    score: int
    rating: float  # after the game


class DataExport(TypedDict):
    """Everything the site holds about the caller; `games` comes last, one game at a time."""

    exported_at: DateTime
    account: ExportedAccount
    notifications: SettingsView
    push_subscriptions: list[ExportedPushSubscription]
    devices: list[ExportedDevice]
    notices: list[NoticeView]
    following: list[str]
    followers: list[str]
    blocked: list[str]
    chat_messages: list[ExportedChatMessage]
    reports: list[ExportedReport]
    tournaments: list[ExportedEntry]
    ratings: list[ExportedRating]
    rating_changes: list[ExportedRatingChange]
    games: list[ExportedGame]
