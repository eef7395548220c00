"""The league's own record of each finished game and its rating order, copied from the games'
old `league` column; rating changes carry that order."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def copy_decisions(apps, schema_editor):  # type: ignore[no-untyped-def]
    game_model = apps.get_model("games", "Game")
    entry_model = apps.get_model("league", "LeagueGame")
    change_model = apps.get_model("league", "RatingChange")
    finished = game_model.objects.filter(status="finished").order_by("finished_at", "pk")
    entry_model.objects.bulk_create(
        [
            entry_model(game_id=pk, counts=league)
            for pk, league in finished.values_list("pk", "league")
        ],
        batch_size=1000,
    )
    order = dict(entry_model.objects.values_list("game_id", "pk"))
    changes = list(change_model.objects.all())
    for change in changes:
        change.order = order[change.game_id]
    change_model.objects.bulk_update(changes, ["order"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_indexes"),
        ("league", "0003_indexes"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="LeagueGame",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "counts",
                    models.BooleanField(help_text="R17: every seat a distinct human, not voided"),
                ),
                ("rated_at", models.DateTimeField(auto_now_add=True)),
            ],
        ),
        migrations.AlterModelOptions(
            name="ratingchange",
            options={"ordering": ["order", "user_id"]},
        ),
        migrations.RemoveIndex(
            model_name="ratingchange",
            name="rating_history",
        ),
        migrations.AddField(
            model_name="leaguelock",
            name="replay_from",
            field=models.PositiveBigIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="order",
            field=models.PositiveBigIntegerField(
                default=0, help_text="The game's rating order (LeagueGame.id)"
            ),
            preserve_default=False,
        ),
        migrations.AddIndex(
            model_name="ratingchange",
            index=models.Index(fields=["user", "order"], name="rating_history"),
        ),
        migrations.AddField(
            model_name="leaguegame",
            name="game",
            field=models.OneToOneField(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="league_entry",
                to="games.game",
            ),
        ),
        migrations.AddIndex(
            model_name="leaguegame",
            index=models.Index(condition=models.Q(("counts", True)), fields=["id"], name="counted"),
        ),
        migrations.RunPython(copy_decisions, migrations.RunPython.noop),
    ]
