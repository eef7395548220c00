"""Notices sent, for operators: Web Push, FCM, APNs and mail, counted once each is handed over."""

from __future__ import annotations

from typing import Literal

from prometheus_client import Counter

NoticeKind = Literal["webpush", "fcm", "apns", "mail"]

notices_sent = Counter("wizard_notices_sent", "Notices handed to a push service or mail.", ["kind"])


def notice_sent(kind: NoticeKind) -> None:
    notices_sent.labels(kind=kind).inc()
