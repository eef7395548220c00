"""What the games do when the layers below them say something changed."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from accounts.signals import block_changed, block_made
from games import push, services


@receiver(block_changed)
def on_block_changed(*, user_id: int, username: str, blocked: bool, **_: Any) -> None:
    """The blocker's open table sockets stop (or start) passing on that player's chat."""
    message: push.BlockChangedMessage = {
        "type": "user.block",
        "username": username,
        "blocked": blocked,
    }
    push.send(push.user_group(user_id), message)


@receiver(block_made)
def on_block_made(*, user_id: int, other_id: int, **_: Any) -> None:
    """In the block's transaction: neither watches or joins through the other's invitation."""
    services.invitations_between_end(user_id=user_id, other_id=other_id)
