"""The one LeagueLock row that rating a game locks."""

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def create_lock(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    apps.get_model("league", "LeagueLock").objects.get_or_create(pk=1)


class Migration(migrations.Migration):
    dependencies = [("league", "0001_initial")]
    operations = [migrations.RunPython(create_lock, migrations.RunPython.noop)]
