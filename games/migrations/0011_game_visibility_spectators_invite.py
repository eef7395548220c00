"""Private tables, who may watch, and each table's invitation code (filled for existing tables
one by one, then unique)."""

from __future__ import annotations

from typing import Any

from django.db import migrations, models

import games.models


def fill_codes(apps: Any, schema_editor: Any) -> None:
    Game = apps.get_model("games", "Game")
    for game in Game.objects.filter(invite_code__isnull=True).only("pk").iterator():
        Game.objects.filter(pk=game.pk).update(invite_code=games.models.new_invite_code())


class Migration(migrations.Migration):
    dependencies = [("games", "0010_game_guided")]

    operations = [
        migrations.AddField(
            model_name="game",
            name="visibility",
            field=models.CharField(
                choices=[("public", "public"), ("private", "private")],
                default="public",
                max_length=8,
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="spectators",
            field=models.CharField(
                choices=[
                    ("everyone", "everyone"),
                    ("friends", "friends of a player"),
                    ("players", "players only"),
                ],
                default="everyone",
                max_length=8,
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="invite_code",
            field=models.CharField(editable=False, max_length=24, null=True),
        ),
        migrations.RunPython(fill_codes, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="game",
            name="invite_code",
            field=models.CharField(
                default=games.models.new_invite_code, editable=False, max_length=24, unique=True
            ),
        ),
    ]
