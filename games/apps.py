from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        # games.dispatch sends tasks by name: every process knows them, not only workers.
        from games import receivers, tasks  # noqa: F401
