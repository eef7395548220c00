"""What the games tell the layers above them, without knowing who listens."""

from __future__ import annotations

from django.dispatch import Signal

# Sent after the commit of a game's last move, with `game_id`: the league rates it (R17).
game_finished = Signal()

# Sent after the commit of a moderator's change to whether a finished game is void, with
# `game_id` and `voided`: the league re-rates from it (R17).
game_voided = Signal()

# Sent after the commit of a change that made a decision due from a person: `game_id`,
# `user_id`, `seq` (the game's event seq then), `deadline` (when R16 moves for them) and
# `turn_seconds` (the table's limit).
# Not sent when the player just decided themselves and is to act again: they are there.
turn_started = Signal()

# Sent after a player invited a friend to a table, with `game_id`, `user_id` (the friend),
# `inviter` (a username) and `rematch` (the table is the rematch of a game they played): the
# friend hears it by Web Push where they have no socket open, and it stays in their notices.
game_invited = Signal()
