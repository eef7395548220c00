"""Development settings: every value has an embedded default, so nothing needs to be set.

Production: DJANGO_SETTINGS_MODULE=wizardsite.settings.production (see production.py).
"""

from wizardsite.settings.base import *  # noqa: F403
