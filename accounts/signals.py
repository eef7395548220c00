"""What accounts tell the layers above them, without knowing who listens."""

from __future__ import annotations

from django.dispatch import Signal

# Sent after the commit of a block or its lifting, with `user_id` (the blocker), `username`
# (the other player) and `blocked` (True for a block): the blocker's open table sockets hear
# that player's chat, or no longer, at once.
block_changed = Signal()

# Sent inside a block's transaction, with `user_id` (the blocker) and `other_id`: the layers
# above end in the same commit what a block forbids between the two (their invitations).
block_made = Signal()

# Sent inside a new follow's transaction, with `user_id` (the player followed) and `follower`
# (a username): the notices remember it in the same commit.
followed = Signal()
