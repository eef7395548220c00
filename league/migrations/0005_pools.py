"""R27: two pools, classic and anniversary. Ratings are derived from the rating changes, so the
Rating table is made again (one row per player and pool) and filled from them; every earlier
game was classic."""

from django.conf import settings
from django.db import migrations, models
from django.db.models import Count, Q, Sum


def refill_ratings(apps, schema_editor):  # type: ignore[no-untyped-def]
    Rating = apps.get_model("league", "Rating")
    RatingChange = apps.get_model("league", "RatingChange")
    rows = []
    for user_id in RatingChange.objects.values_list("user_id", flat=True).distinct():
        changes = RatingChange.objects.filter(user_id=user_id)
        latest = changes.order_by("-order").first()
        totals = changes.aggregate(
            games=Count("pk"), wins=Count("pk", filter=Q(place=1)), points=Sum("score")
        )
        rows.append(
            Rating(
                user_id=user_id,
                pool="classic",
                mu=latest.mu,
                sigma=latest.sigma,
                ordinal=latest.ordinal,
                games=totals["games"],
                wins=totals["wins"],
                points=totals["points"] or 0,
            )
        )
    Rating.objects.bulk_create(rows, batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0004_league_games"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.DeleteModel(name="Rating"),
        migrations.CreateModel(
            name="Rating",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "pool",
                    models.CharField(
                        choices=[("classic", "Classic"), ("anniversary", "Anniversary")],
                        default="classic",
                        max_length=12,
                    ),
                ),
                ("mu", models.FloatField()),
                ("sigma", models.FloatField()),
                (
                    "ordinal",
                    models.FloatField(
                        db_index=True, help_text="mu − 3σ: the conservative rating shown"
                    ),
                ),
                ("games", models.PositiveIntegerField(default=0)),
                ("wins", models.PositiveIntegerField(default=0)),
                ("points", models.IntegerField(default=0)),
                ("updated_at", models.DateTimeField(auto_now=True)),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=models.deletion.CASCADE,
                        related_name="league_ratings",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(fields=("user", "pool"), name="one_rating_per_pool")
                ],
                "indexes": [models.Index(fields=["pool", "-ordinal", "user"], name="rating_board")],
            },
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="pool",
            field=models.CharField(
                choices=[("classic", "Classic"), ("anniversary", "Anniversary")],
                default="classic",
                max_length=12,
            ),
        ),
        migrations.RemoveIndex(model_name="ratingchange", name="rating_history"),
        migrations.AddIndex(
            model_name="ratingchange",
            index=models.Index(fields=["user", "pool", "order"], name="rating_history"),
        ),
        migrations.AddField(
            model_name="seasonstanding",
            name="pool",
            field=models.CharField(
                choices=[("classic", "Classic"), ("anniversary", "Anniversary")],
                default="classic",
                max_length=12,
            ),
        ),
        migrations.RemoveConstraint(model_name="seasonstanding", name="one_standing_per_season"),
        migrations.AddConstraint(
            model_name="seasonstanding",
            constraint=models.UniqueConstraint(
                fields=("season", "pool", "user"), name="one_standing_per_season"
            ),
        ),
        migrations.RemoveIndex(model_name="seasonstanding", name="season_board"),
        migrations.AddIndex(
            model_name="seasonstanding",
            index=models.Index(fields=["season", "pool", "-ordinal", "user"], name="season_board"),
        ),
        migrations.RunPython(refill_ratings, migrations.RunPython.noop),
    ]
