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
