"""The only code that writes a game, its seats, its event rows and its chat.

REST views, socket consumers, Celery tasks and the moderators' actions all call these; each
runs in one transaction, with the game row locked where it touches a game.
"""

from games.services.away import seat_back, seat_resign, seat_sit_out
from games.services.chat import chat_hide, chat_post
from games.services.departure import chat_text_erase, seats_vacate, traces_erase
from games.services.invitations import game_invite, invitations_between_end
from games.services.moves import (
    bot_step,
    move_apply,
    turn_expire,
    turns_expire,
)
from games.services.tables import (
    game_abort,
    game_add_bot,
    game_create,
    game_join,
    game_leave,
    game_rematch,
    game_void,
    guided_game_start,
    presence_told,
    seated_game,
    turns_expedite,
)

__all__ = [
    "bot_step",
    "chat_hide",
    "chat_post",
    "chat_text_erase",
    "game_abort",
    "game_add_bot",
    "game_create",
    "game_invite",
    "game_join",
    "game_leave",
    "game_rematch",
    "game_void",
    "guided_game_start",
    "invitations_between_end",
    "move_apply",
    "presence_told",
    "seat_back",
    "seat_resign",
    "seat_sit_out",
    "seated_game",
    "seats_vacate",
    "traces_erase",
    "turn_expire",
    "turns_expedite",
    "turns_expire",
]
