"""The report queue: open reports oldest first, and a report's page with all a moderator weighs
(the message in its chat, links to the game and the player, the player's record) and the usual
answers, each one click after a reason. Every answer goes through moderation.services, which
writes the audit row."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import URLPattern, path, reverse
from django.views.decorators.http import require_POST

from apikit.admin_guard import SecretFieldsAdmin
from core.errors import Refusal
from core.text import has_refused_characters
from moderation import selectors
from moderation import services as moderation
from moderation.admin.actions import moderator_of, with_reason
from moderation.models import Report, ReportStatus

# The answers a report's page offers, in its order: (value, its button).
ANSWERS: list[tuple[str, str]] = [
    ("dismiss", "Dismiss"),
    ("hide", "Hide the message"),
    ("warn", "Warn"),
    ("suspend_1", "Suspend 1 day"),
    ("suspend_7", "Suspend 7 days"),
    ("suspend_30", "Suspend 30 days"),
    ("ban", "Ban"),
]
SUSPEND_DAYS = {"suspend_1": 1, "suspend_7": 7, "suspend_30": 30, "ban": None}


def answer(report: Report, value: str, reason: str, *, hide_message: bool) -> Callable[..., Any]:
    """The service call for one of ANSWERS, to run with the moderator."""
    if value == "dismiss":
        return lambda moderator: moderation.report_resolve(
            moderator=moderator, report=report, resolution=f"dismissed: {reason}"
        )
    if value == "hide":
        return lambda moderator: moderation.report_hide(
            moderator=moderator, report=report, reason=reason
        )
    if value == "warn":
        return lambda moderator: moderation.report_warn(
            moderator=moderator, report=report, reason=reason
        )
    days = SUSPEND_DAYS[value]
    return lambda moderator: moderation.report_sanction(
        moderator=moderator, report=report, reason=reason, days=days, hide_message=hide_message
    )


@admin.register(Report)
class ReportAdmin(SecretFieldsAdmin):
    list_display = (
        "id",
        "status",
        "category",
        "reported",
        "reporter",
        "short_reason",
        "message",
        "created_at",
    )
    list_filter = ("status", "category", "created_at")
    search_fields = ("reported__username", "reporter__username", "reason")
    ordering = ("status", "created_at", "pk")  # the open ones first, the oldest of them first
    readonly_fields = (
        "reporter",
        "reported",
        "message",
        "category",
        "reason",
        "status",
        "resolution",
        "created_at",
        "resolved_at",
        "resolved_by",
    )
    actions = ["dismiss", "hide_message", "suspend_for_a_week", "ban"]
    change_form_template = "admin/moderation/report/review.html"

    @admin.display(description="reason")
    def short_reason(self, report: Report) -> str:
        return report.reason[:80]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_resolve_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("moderation.resolve_report")

    # -- a report's page ---------------------------------------------------------------------
    def get_urls(self) -> list[URLPattern]:
        answering = self.admin_site.admin_view(require_POST(self.answer_view))
        mine = [path("<int:report_id>/answer/", answering, name="moderation_report_answer")]
        return mine + super().get_urls()

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        report = self.get_object(request, object_id)
        context = dict(extra_context or {})
        if report is not None:
            context.update(self._review(request, report))
        return super().change_view(request, object_id, form_url, context)

    def _review(self, request: HttpRequest, report: Report) -> dict[str, Any]:
        message = report.message
        game_url, game_label = selectors.game_link(message) if message else ("", "")
        return {
            "review": True,
            "reported": report.reported,
            "message": message,
            "transcript": selectors.transcript(message) if message else [],
            "game_url": game_url,
            "game_label": game_label,
            "record": selectors.record(report),
            "answers": ANSWERS,
            "may_answer": report.status == ReportStatus.OPEN
            and self.has_resolve_permission(request),
        }

    def answer_view(self, request: HttpRequest, report_id: int) -> HttpResponse:
        """One of ANSWERS for an open report, with its reason; then the next open report."""
        report = get_object_or_404(Report, pk=report_id)
        page = reverse("admin:moderation_report_change", args=[report.pk])
        if not self.has_resolve_permission(request):
            self.message_user(request, "You may not answer reports.", messages.ERROR)
            return HttpResponseRedirect(page)
        value = request.POST.get("answer", "")
        reason = request.POST.get("reason", "").strip()
        if report.status != ReportStatus.OPEN:
            self.message_user(request, "This report is closed already.", messages.WARNING)
            return HttpResponseRedirect(page)
        if value not in dict(ANSWERS) or not reason or has_refused_characters(reason):
            self.message_user(request, "Choose an answer and say why.", messages.ERROR)
            return HttpResponseRedirect(page)
        run = answer(report, value, reason, hide_message=bool(request.POST.get("hide_message")))
        try:
            run(moderator_of(request))
        except Refusal as refusal:
            self.message_user(request, refusal.message, messages.ERROR)
            return HttpResponseRedirect(page)
        self.message_user(request, f"Report #{report.pk}: {dict(ANSWERS)[value]}, done.")
        return HttpResponseRedirect(self._next_page(report))

    def _next_page(self, done: Report) -> str:
        """The oldest open report left, else the queue."""
        following = Report.objects.filter(status=ReportStatus.OPEN).order_by("created_at", "pk")
        nxt = following.exclude(pk=done.pk).first()
        if nxt is not None:
            return reverse("admin:moderation_report_change", args=[nxt.pk])
        return reverse("admin:moderation_report_changelist") + "?status__exact=open"

    # -- the list's bulk actions: a reason asked once for the rows ticked --------------------
    def _bulk(
        self, request: HttpRequest, queryset: QuerySet[Report], title: str, value: str
    ) -> HttpResponse | None:
        def perform(report: Report, reason: str) -> None:
            answer(report, value, reason, hide_message=True)(moderator_of(request))

        return with_reason(self, request, queryset, title, perform)

    @admin.action(description="Dismiss (no action needed)", permissions=["resolve"])
    def dismiss(self, request: HttpRequest, queryset: QuerySet[Report]) -> HttpResponse | None:
        open_ones = queryset.filter(status=ReportStatus.OPEN)
        return self._bulk(request, open_ones, "Dismiss reports", "dismiss")

    @admin.action(description="Hide the reported message", permissions=["resolve"])
    def hide_message(self, request: HttpRequest, queryset: QuerySet[Report]) -> HttpResponse | None:
        return self._bulk(request, queryset, "Hide reported messages", "hide")

    @admin.action(
        description="Suspend the reported player for 7 days (and hide the message)",
        permissions=["resolve"],
    )
    def suspend_for_a_week(
        self, request: HttpRequest, queryset: QuerySet[Report]
    ) -> HttpResponse | None:
        return self._bulk(request, queryset, "Suspend reported players", "suspend_7")

    @admin.action(
        description="Ban the reported player (and hide the message)", permissions=["resolve"]
    )
    def ban(self, request: HttpRequest, queryset: QuerySet[Report]) -> HttpResponse | None:
        return self._bulk(request, queryset, "Ban reported players", "ban")
