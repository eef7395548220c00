from django.contrib import admin
from django.urls import include, path, re_path
from django.views.i18n import JavaScriptCatalog
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularSwaggerSplitView,
)

from accounts import api as accounts_api
from accounts import views as accounts_views
from games import api as games_api
from games import views as games_views
from league import api as league_api
from league import views as league_views
from moderation import api as moderation_api
from moderation import views as moderation_views
from notifications import api as notifications_api
from notifications import views as notifications_views
from privacy import api as privacy_api
from privacy import views as privacy_views
from review import api as review_api
from review import views as review_views
from seeks import api as seeks_api
from tournaments import api as tournaments_api
from tournaments import views as tournaments_views
from wizardsite import health, install, metrics, views

api_v1 = [
    path("accounts/register/", accounts_api.Register.as_view(), name="api-register"),
    path("accounts/token/", accounts_api.ObtainToken.as_view(), name="api-token"),
    path("accounts/me/", privacy_api.Me.as_view(), name="api-me"),
    path("accounts/me/export/", privacy_api.Export.as_view(), name="api-me-export"),
    path("accounts/me/email/", league_api.MeEmail.as_view(), name="api-me-email"),
    path("accounts/verify-email/", accounts_api.VerifyEmail.as_view(), name="api-verify-email"),
    path(
        "accounts/me/verify-email/resend/",
        accounts_api.VerificationResend.as_view(),
        name="api-me-verify-email-resend",
    ),
    path(
        "accounts/me/notifications/",
        notifications_api.NotificationSettings.as_view(),
        name="api-me-notifications",
    ),
    path(
        "accounts/me/push-subscriptions/",
        notifications_api.PushSubscriptions.as_view(),
        name="api-me-push-subscriptions",
    ),
    path("accounts/me/devices/", notifications_api.Devices.as_view(), name="api-me-devices"),
    path("notices/", notifications_api.Notices.as_view(), name="api-notices"),
    path("notices/read/", notifications_api.NoticesRead.as_view(), name="api-notices-read"),
    path("games/", games_api.GameListCreate.as_view(), name="api-games"),
    path("games/<int:game_id>/", games_api.GameDetail.as_view(), name="api-game"),
    path("games/<int:game_id>/join/", games_api.GameJoin.as_view(), name="api-game-join"),
    path("games/<int:game_id>/invite/", games_api.GameInvite.as_view(), name="api-game-invite"),
    path("games/<int:game_id>/leave/", games_api.GameLeave.as_view(), name="api-game-leave"),
    path("games/<int:game_id>/moves/", games_api.GameMoves.as_view(), name="api-game-moves"),
    path("games/<int:game_id>/back/", games_api.GameBack.as_view(), name="api-game-back"),
    path("games/<int:game_id>/sit-out/", games_api.GameSitOut.as_view(), name="api-game-sit-out"),
    path("games/<int:game_id>/resign/", games_api.GameResign.as_view(), name="api-game-resign"),
    path("games/<int:game_id>/events/", games_api.GameEvents.as_view(), name="api-game-events"),
    path("games/<int:game_id>/chat/", games_api.GameChat.as_view(), name="api-game-chat"),
    path(
        "games/<int:game_id>/analysis/",
        review_api.GameAnalysisDetail.as_view(),
        name="api-game-analysis",
    ),
    path("chat/presets/", games_api.ChatPresets.as_view(), name="api-chat-presets"),
    path("reports/", moderation_api.Reports.as_view(), name="api-reports"),
    path("league/leaderboard/", league_api.Leaderboard.as_view(), name="api-leaderboard"),
    path("players/<str:username>/", league_api.PlayerDetail.as_view(), name="api-player"),
    path("players/<str:username>/follow/", accounts_api.Follow.as_view(), name="api-follow"),
    path("players/<str:username>/block/", accounts_api.Block.as_view(), name="api-block"),
    path("accounts/me/friends/", games_api.Friends.as_view(), name="api-friends"),
    path("seeks/", seeks_api.SeekListCreate.as_view(), name="api-seeks"),
    path("seeks/mine/", seeks_api.SeekMine.as_view(), name="api-seek-mine"),
    path("tournaments/", tournaments_api.TournamentListCreate.as_view(), name="api-tournaments"),
    path(
        "tournaments/<int:tournament_id>/",
        tournaments_api.TournamentDetail.as_view(),
        name="api-tournament",
    ),
    path(
        "tournaments/<int:tournament_id>/join/",
        tournaments_api.TournamentJoin.as_view(),
        name="api-tournament-join",
    ),
    path(
        "tournaments/<int:tournament_id>/withdraw/",
        tournaments_api.TournamentWithdraw.as_view(),
        name="api-tournament-withdraw",
    ),
    path(
        "tournaments/<int:tournament_id>/start/",
        tournaments_api.TournamentStart.as_view(),
        name="api-tournament-start",
    ),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves its start-up script as a file: the CSP allows no inline script.
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
]

pages = [
    path("", views.home, name="home"),
    path("home/live/", views.home_live, name="home-live"),
    path("rules/", views.rules, name="rules"),
    path("how-to-play/", views.how_to_play, name="how-to-play"),
    path("lobby/", games_views.lobby, name="lobby"),
    path("lobby/tables/", games_views.lobby_tables, name="lobby-tables"),
    path("games/mine/", games_views.my_games, name="my-games"),
    path("games/guided/", games_views.guided, name="guided"),
    path("games/<int:game_id>/hint/", games_views.hint, name="hint"),
    path("games/<int:game_id>/presence/", games_views.table_presence, name="table-presence"),
    path("games/<int:game_id>/", games_views.table, name="table"),
    path("games/<int:game_id>/join/", games_views.join, name="join"),
    path("i/<str:code>/", games_views.invitation, name="invitation"),
    path("games/<int:game_id>/leave/", games_views.leave, name="leave"),
    path("games/<int:game_id>/add-bot/", games_views.add_bot, name="add-bot"),
    path("games/<int:game_id>/rematch/", games_views.rematch, name="rematch"),
    path("games/<int:game_id>/replay/", review_views.replay, name="replay"),
    path("games/<int:game_id>/ratings/", league_views.game_ratings, name="game-ratings"),
    path("players/<str:username>/", league_views.profile, name="profile"),
    path("players/<str:username>/relation/", accounts_views.relation, name="relation"),
    path("friends/", games_views.friends, name="friends"),
    path("accounts/delete/", privacy_views.account_delete, name="account-delete"),
    path("players/<str:username>/report/", moderation_views.report, name="report-player"),
    path("leaderboard/", league_views.leaderboard, name="leaderboard"),
    path("tournaments/", tournaments_views.tournament_list, name="tournaments"),
    path("tournaments/new/", tournaments_views.tournament_new, name="tournament-new"),
    path("tournaments/<int:tournament_id>/", tournaments_views.tournament_page, name="tournament"),
    path(
        "tournaments/<int:tournament_id>/join/",
        tournaments_views.tournament_join,
        name="tournament-join",
    ),
    path(
        "tournaments/<int:tournament_id>/withdraw/",
        tournaments_views.tournament_withdraw,
        name="tournament-withdraw",
    ),
    path(
        "tournaments/<int:tournament_id>/start/",
        tournaments_views.tournament_start,
        name="tournament-start",
    ),
    path(
        "notifications/unsubscribe/<str:token>/",
        notifications_views.unsubscribe,
        name="notifications-unsubscribe",
    ),
    path(
        "notifications/settings/", notifications_views.settings_form, name="notifications-settings"
    ),
    path("sw.js", notifications_views.service_worker, name="service-worker"),
    path("notices/", notifications_views.notices_page, name="notices"),
    path("notices/<int:notice_id>/", notifications_views.notice_open, name="notice-open"),
    path("manifest.webmanifest", install.manifest, name="manifest"),
    path("offline/", install.offline, name="offline"),
    path("favicon.ico", views.favicon, name="favicon"),
]

# For operators: a load balancer's probes and Prometheus's scrape (README, Operations).
operations = [
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("metrics", metrics.metrics, name="metrics"),
]

urlpatterns = [
    *operations,
    path("api/v1/", include(api_v1)),
    re_path(r"^api/", views.api_not_found),  # JSON 404 for every other API path
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    *pages,
]

handler400 = "wizardsite.views.bad_request"
handler404 = "wizardsite.views.page_not_found"
handler500 = "wizardsite.views.server_error"
