"""The Moderators group, with exactly the permissions moderation needs."""

from django.apps import apps as global_apps
from django.contrib.auth.management import create_permissions
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

MODERATOR_PERMISSIONS = {
    "games": [
        "view_game",
        "abort_game",
        "void_game",
        "view_seat",
        "view_event",
        "view_chatmessage",
        "hide_chatmessage",
    ],
    "accounts": [
        "view_report",
        "resolve_report",
        "view_auditlog",
        "view_suspension",
        "add_suspension",
        "change_suspension",
        "delete_suspension",
    ],
    "auth": ["view_user"],
}


def create_group(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    # Permissions are normally made after all migrations; make them now to attach them (for
    # the apps as installed, which create_permissions reads whatever it is given).
    for app_config in global_apps.get_app_configs():
        create_permissions(app_config, verbosity=0)
    group_model = apps.get_model("auth", "Group")
    permission_model = apps.get_model("auth", "Permission")
    group, _ = group_model.objects.get_or_create(name="Moderators")
    # Reports and the audit log later moved to the moderation app (moderation 0001): on a new
    # database their permissions are made there already.
    permissions = [
        permission_model.objects.get(
            content_type__app_label__in=[app, "moderation"] if app == "accounts" else [app],
            codename=codename,
        )
        for app, codenames in MODERATOR_PERMISSIONS.items()
        for codename in codenames
    ]
    group.permissions.set(permissions)


def remove_group(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    apps.get_model("auth", "Group").objects.filter(name="Moderators").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
        ("games", "0004_alter_game_options_chatmessage"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]
    operations = [migrations.RunPython(create_group, remove_group)]
