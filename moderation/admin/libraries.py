"""The admins the libraries register (auth's groups, django-axes' log-in records), with the
same refusals as ours (apikit.admin_guard). DRF's token admin is taken away: a token's text
is its name (`Token.__str__`), which every page of it would show, titles and messages
included; a player's tokens end when their password changes."""

from __future__ import annotations

from axes.admin import AccessAttemptAdmin, AccessFailureLogAdmin, AccessLogAdmin
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib import admin
from django.contrib.auth.admin import GroupAdmin
from django.contrib.auth.models import Group
from django.db.models import Model
from rest_framework.authtoken.models import TokenProxy

from apikit.admin_guard import SecretFieldsAdmin


class GuardedGroupAdmin(SecretFieldsAdmin, GroupAdmin):
    pass


class GuardedAccessAttemptAdmin(SecretFieldsAdmin, AccessAttemptAdmin):  # type: ignore[misc]
    pass


class GuardedAccessLogAdmin(SecretFieldsAdmin, AccessLogAdmin):  # type: ignore[misc]
    pass


class GuardedAccessFailureLogAdmin(SecretFieldsAdmin, AccessFailureLogAdmin):  # type: ignore[misc]
    pass


def _replace(model: type[Model], model_admin: type[SecretFieldsAdmin]) -> None:
    if admin.site.is_registered(model):  # axes registers none with AXES_ENABLE_ADMIN off
        admin.site.unregister(model)
        admin.site.register(model, model_admin)


_replace(Group, GuardedGroupAdmin)
_replace(AccessAttempt, GuardedAccessAttemptAdmin)
_replace(AccessLog, GuardedAccessLogAdmin)
_replace(AccessFailureLog, GuardedAccessFailureLogAdmin)
if admin.site.is_registered(TokenProxy):
    admin.site.unregister(TokenProxy)
