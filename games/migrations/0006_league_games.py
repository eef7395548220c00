"""The league keeps its own decision on each finished game (league.LeagueGame): the game row
no longer carries it. league 0004 copies the old column first."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_indexes"),
        ("league", "0004_league_games"),
    ]

    operations = [
        migrations.RemoveIndex(model_name="game", name="league_order"),
        migrations.RemoveField(model_name="game", name="league"),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(
                condition=models.Q(("status", "finished")),
                fields=["finished_at", "id"],
                name="finished_order",
            ),
        ),
    ]
