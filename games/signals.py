"""What the games tell the layers above them, without knowing who listens."""

from __future__ import annotations

from django.dispatch import Signal

# Sent after the commit of a game's last move, with `game_id`: the league rates it (R17).
game_finished = Signal()
