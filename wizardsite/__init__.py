"""The Wizard online site: settings, URLs, ASGI, and the Celery app (loaded with Django)."""

from wizardsite.celery import app as celery_app

__all__ = ["celery_app"]
