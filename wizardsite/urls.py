from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from accounts import api as accounts_api
from games import api as games_api
from wizardsite import views

api_v1 = [
    path("accounts/register/", accounts_api.Register.as_view(), name="api-register"),
    path("accounts/token/", accounts_api.ObtainToken.as_view(), name="api-token"),
    path("accounts/me/", accounts_api.Me.as_view(), name="api-me"),
    path("games/", games_api.GameListCreate.as_view(), name="api-games"),
    path("games/<int:game_id>/", games_api.GameDetail.as_view(), name="api-game"),
    path("games/<int:game_id>/join/", games_api.GameJoin.as_view(), name="api-game-join"),
    path("games/<int:game_id>/leave/", games_api.GameLeave.as_view(), name="api-game-leave"),
    path("games/<int:game_id>/moves/", games_api.GameMoves.as_view(), name="api-game-moves"),
    path("games/<int:game_id>/events/", games_api.GameEvents.as_view(), name="api-game-events"),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
]

urlpatterns = [
    path("api/v1/", include(api_v1)),
    re_path(r"^api/", views.api_not_found),  # JSON 404 for every other API path
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", views.home, name="home"),
]

handler404 = "wizardsite.views.page_not_found"
handler500 = "wizardsite.views.server_error"
