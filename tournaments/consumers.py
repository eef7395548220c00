"""The tournament websocket (`ws/tournaments/{id}/`, API.md "Tournaments"): the tournament's
view at once, and again after every change. A private one opens to its creator, its players
and the holder of its code (`?invite=`); anyone else is closed with 4403."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from core.errors import InviteRequired, NotFound
from games.consumers import CLOSE_NOT_ALLOWED, CLOSE_NOT_FOUND, FastJsonConsumer, in_db
from tournaments import selectors
from tournaments.notify import TournamentChangedMessage, tournament_group
from tournaments.selectors import AnyUser, TournamentSocketMessage, TournamentView


class TournamentConsumer(FastJsonConsumer):
    async def connect(self) -> None:
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        query = parse_qs(self.scope.get("query_string", b"").decode("latin1"))
        invite = (query.get("invite") or [None])[0]
        if not await self._within_address_limit():  # before the view is read: refusals cost none
            return
        try:
            view = await self._admit(invite)
        except NotFound:
            await self.refuse(CLOSE_NOT_FOUND)
            return
        except InviteRequired:
            await self.refuse(CLOSE_NOT_ALLOWED)
            return
        await self._join_and_accept((tournament_group(self.tournament_id),))
        message: TournamentSocketMessage = {"type": "tournament", "tournament": view}
        await self.send_json(message)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        return None  # the tournament's sockets only listen

    async def tournament_changed(self, message: TournamentChangedMessage) -> None:
        """The view after a change, as the push built it: an insider's, or anyone's."""
        frame = message["insider_frame"]
        if frame is None or self.scope["user"].pk not in message["insiders"]:
            frame = message["frame"]
        await self.send(text_data=frame)

    async def _admit(self, invite: str | None) -> TournamentView:
        """The view, once the socket's user may see the tournament (ensure_visible)."""
        view: TournamentView = await in_db(_view_for)(
            self.tournament_id, self.scope["user"], invite
        )
        return view


def _view_for(tournament_id: int, user: AnyUser, invite: str | None) -> TournamentView:
    tournament = selectors.tournament_get(tournament_id)
    selectors.ensure_visible(tournament, user, invite)
    return selectors.tournament_view(tournament, user)
