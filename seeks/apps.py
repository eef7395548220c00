from __future__ import annotations

from django.apps import AppConfig


class SeeksConfig(AppConfig):
    name = "seeks"
    verbose_name = "Play now"
