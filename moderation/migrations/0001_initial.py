"""Reports and the audit log move here from accounts. Their tables stay as they are (state
only), and their content types follow, so permissions and the Moderators group keep working."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MOVED = ["report", "auditlog"]


def move_content_types(apps, schema_editor):  # type: ignore[no-untyped-def]
    content_types = apps.get_model("contenttypes", "ContentType").objects
    content_types.filter(app_label="accounts", model__in=MOVED).update(app_label="moderation")


def move_content_types_back(apps, schema_editor):  # type: ignore[no-untyped-def]
    content_types = apps.get_model("contenttypes", "ContentType").objects
    content_types.filter(app_label="moderation", model__in=MOVED).update(app_label="accounts")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("accounts", "0002_moderators_group"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("games", "0006_league_games"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="AuditLog",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("action", models.CharField(max_length=40)),
                        ("target_type", models.CharField(max_length=40)),
                        ("target_id", models.CharField(max_length=40)),
                        (
                            "target",
                            models.CharField(
                                help_text="What the target was, in words", max_length=200
                            ),
                        ),
                        ("reason", models.TextField(blank=True)),
                        ("created_at", models.DateTimeField(auto_now_add=True, db_index=True)),
                        (
                            "moderator",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "accounts_auditlog",
                        "ordering": ["-created_at", "-pk"],
                    },
                ),
                migrations.CreateModel(
                    name="Report",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("reason", models.TextField()),
                        (
                            "status",
                            models.CharField(
                                choices=[("open", "open"), ("resolved", "resolved")],
                                db_index=True,
                                default="open",
                                max_length=10,
                            ),
                        ),
                        ("resolution", models.CharField(blank=True, max_length=200)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("resolved_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "message",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to="games.chatmessage",
                            ),
                        ),
                        (
                            "reported",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="reports_received",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "reporter",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="reports_made",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "resolved_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "accounts_report",
                        "ordering": ["status", "-created_at"],
                        "permissions": [("resolve_report", "Can resolve reports")],
                    },
                ),
            ],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
