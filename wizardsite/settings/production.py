"""Production: DEBUG off, the secret from the environment, secure cookies and HTTPS."""

from wizardsite.env import env_bool, env_int, env_str
from wizardsite.settings.base import *  # noqa: F403
from wizardsite.settings.base import STORAGES

DEBUG = False
SECRET_KEY = env_str("SECRET_KEY")  # required: no default in production

SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# Tasks always go to the Celery worker through Redis: a bot (the hard one searches for
# EXPERT_BOT_BUDGET_MS) never thinks in a web process.
CELERY_TASK_ALWAYS_EAGER = False
