"""Settings for pytest: a fast password hasher, the in-memory channel layer, eager Celery.

Tests that need Redis or a real worker set those up themselves (tests/live).
"""

from wizardsite.settings.base import *  # noqa: F403

# Sign-ups go through the API; the default hasher would make each one take ~0.3 s.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
# Tasks run where they are sent (after the commit that sends them), in this process.
CELERY_BROKER_URL = "memory://"
CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
# Bots answer at once (their eager task runs right after the move's transaction); tests of
# the pacing turn it on themselves.
BOT_MOVE_DELAY_MS = 0
# A hard bot and the review of a finished game think only briefly (budget 0 still moves).
EXPERT_BOT_BUDGET_MS = 2
REVIEW_BUDGET_MS = 2
# Throttles and lockouts count across tests in one process: the tests of them turn them on.
RATE_LIMITS_ENABLED = False
AXES_ENABLED = False
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # A file, not Django's in-memory default: there a connection that meets another's table
    # lock fails at once ("database table is locked": its shared cache), where a file waits
    # out the timeout, as under `make run` (a socket's thread and a request's thread meet).
    # pytest-django gives each xdist worker a file of its own; no fsync, nothing outlives a run.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "test-db.sqlite3")}  # noqa: F405
    DATABASES["default"]["OPTIONS"]["init_command"] = "PRAGMA synchronous=OFF"  # noqa: F405
