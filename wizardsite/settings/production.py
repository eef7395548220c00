"""Production: DEBUG off, the secret from the environment, secure cookies and HTTPS."""

from django.core.exceptions import ImproperlyConfigured

from wizardsite.env import env_bool, env_choice, env_int, env_str
from wizardsite.logs import logging_config
from wizardsite.settings.base import *  # noqa: F403
from wizardsite.settings.base import LOG_LEVEL, STORAGES

DEBUG = False
if TEST_SHUFFLE_SEEDS:  # noqa: F405
    raise ImproperlyConfigured("TEST_SHUFFLE_SEEDS fixes shuffle seeds: tests only, never here")
SECRET_KEY = env_str("SECRET_KEY")  # required: no default in production

# Push needs VAPID_PRIVATE_KEY (and VAPID_PUBLIC_KEY) here: no key is derived in production.
VAPID_DERIVE_FROM_SECRET = False

SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
# A load balancer probes over plain HTTP: the probes and the scrape are never redirected.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$", r"^metrics$"]
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

# JSON lines for the log collector unless LOG_FORMAT=text.
LOG_FORMAT = env_choice("LOG_FORMAT", "json", ["text", "json"])
LOGGING = logging_config(json_lines=LOG_FORMAT == "json", level=LOG_LEVEL)
