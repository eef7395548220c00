"""Reports and the audit log now belong to the moderation app (state only: the tables stay)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_moderators_group"),
        ("moderation", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="AuditLog"),
                migrations.DeleteModel(name="Report"),
            ],
        ),
    ]
