"""Pictures of a table: a game's presentation may draw its public view as a PNG (`Presentation.picture`).

The platform shows it as the image of the status message's embed (attachment `table.png`). Three rules:

- Only the public view: the picture is drawn from `game.view(state, None)` and the seats' display names (public:
  the text status shows them too), so it cannot show a secret.
- Never in the way: rendering runs in a worker thread (`asyncio.to_thread`) and is awaited only for `PICTURE_WAIT`
  seconds; a slow picture is finished in the background and shown by a later status edit, a failing one is logged
  and the text goes out alone (keeping the picture already on the message).
- No needless uploads: pictures are cached per game by version and by a hash of what they show, the public view's
  JSON and the names (a move that changes nothing public reuses the bytes; a rename draws again), and a status
  message whose picture is unchanged is edited with its existing attachment kept rather than uploaded again.

The cache is in memory: after a restart the first status edit of a game renders and uploads once.
"""

import asyncio
import hashlib
import io
import logging
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import current
from bot.i18n.platform import _
from bot.logs import game_logger

if TYPE_CHECKING:
    from pydantic import BaseModel

    from bot.presentation import Presentation, Table
    from engine.game import Game

FILENAME = "table.png"
IMAGE_URL = f"attachment://{FILENAME}"
PICTURE_WAIT = 1.0
"""Seconds a status edit waits for its picture before the text goes out without the new one."""
MAX_BYTES = 300_000
"""A picture larger than this is a bug of its game's renderer: it is logged and not shown."""
CACHE_LIMIT = 500

log = logging.getLogger("boardroom.pictures")
_DRAWING = threading.Lock()


@dataclass(frozen=True)
class Picture:
    png: bytes
    digest: str
    """sha256 of the PNG: whether the message already shows these very bytes."""


@dataclass(frozen=True)
class _Rendered:
    version: int
    names: tuple[str, ...]
    view_digest: str
    """Of the view and the names (`view_digest`)."""
    picture: Picture | None


def view_digest(view: "BaseModel", names: Sequence[str] = ()) -> str:
    """What a picture shows, as a hash: the public view and the players' names."""
    shown = hashlib.sha256(view.model_dump_json().encode())
    for name in names:
        shown.update(b"\0" + name.encode())
    return shown.hexdigest()


def picture_names(table: "Table") -> tuple[str, ...]:
    """Each seat's name for the picture: its display name as typed (the picture is no markdown: nothing to escape,
    and nothing in it can ping), or "Seat 2" for a seat without one. The same names as the text status, without its
    "(autopilot)" remark, which would leave no room for the name itself."""
    count = table.game.seat_count(table.state) if table.state is not None else len(table.seats)
    names = [_("Seat %(n)d", n=n + 1) for n in range(count)]
    for s in table.seats:
        if s.seat < count and s.display_name:
            names[s.seat] = s.display_name
    return tuple(names)


def draw(
    presentation: "Presentation",
    game: "Game",  # type: ignore[type-arg]
    view: "BaseModel",
    names: Sequence[str],
) -> Picture | None:
    """Render (in the calling thread): the game's picture of this public view, or None if it has none."""
    with _DRAWING:  # one picture at a time: Pillow's shared font objects are not meant for concurrent use
        png = presentation.picture(game, view, names)
    if png is None:
        return None
    if len(png) > MAX_BYTES:
        raise ValueError(f"the picture is {len(png)} bytes, over {MAX_BYTES}")  # for the log
    return Picture(png, hashlib.sha256(png).hexdigest())


def has_picture(presentation: "Presentation") -> bool:
    from bot.presentation import Presentation

    return type(presentation).picture is not Presentation.picture


class Pictures:
    """Rendered pictures by game, and the attachment each status message shows (see the module docstring)."""

    def __init__(self) -> None:
        self._rendered: OrderedDict[int, _Rendered] = OrderedDict()
        self._shown: OrderedDict[int, tuple[str, discord.Attachment]] = OrderedDict()
        """Status message id → (digest of the picture on it, its attachment), as last sent by this process."""
        self._pending: dict[tuple[int, str], asyncio.Task[Picture | None]] = {}
        self.renders = 0
        """How many pictures were drawn (for tests: a cache hit draws none)."""

    async def picture(self, presentation: "Presentation", table: "Table", *, wait: float | None = None) -> Any:
        """The table's picture, or None (no picture, a failure, or not ready within `wait` — then it is finished in
        the background and `ready(game_id)` is resolved; the caller decides whether to edit again)."""
        found, _late = await self.picture_or_task(presentation, table, wait=wait)
        return found

    async def picture_or_task(
        self, presentation: "Presentation", table: "Table", *, wait: float | None = None
    ) -> tuple[Picture | None, "asyncio.Task[Picture | None] | None"]:
        """The picture (or None), and the render task still running when it took longer than `wait` (default
        `PICTURE_WAIT`)."""
        wait = PICTURE_WAIT if wait is None else wait
        if table.state is None or not has_picture(presentation):
            return None, None
        game_id, version = table.record.id, table.record.version
        logger = game_logger(game_id, "boardroom.pictures")
        cached = self._rendered.get(game_id)
        names = picture_names(table)  # a rename changes no version but must show
        if cached is not None and cached.version == version and cached.names == names:
            return cached.picture, None
        try:
            view = table.game.view(table.state, None)
            digest = view_digest(view, (*names, current()))  # its labels are in the language spoken
        except Exception:
            logger.exception("the public view for the picture failed")
            return None, None
        if cached is not None and cached.view_digest == digest:
            self._store(game_id, _Rendered(version, names, digest, cached.picture))
            return cached.picture, None
        key = (game_id, digest)
        task = self._pending.get(key)
        if task is None:
            task = asyncio.get_running_loop().create_task(
                self._render(presentation, table.game, view, names, version, key)
            )
            self._pending[key] = task
        try:
            return await asyncio.wait_for(asyncio.shield(task), timeout=wait), None
        except TimeoutError:
            logger.warning("the picture took longer than %.1f s: the text goes out first", wait)
            return None, task
        except Exception:
            return None, None  # logged by `_render`

    async def _render(
        self,
        presentation: "Presentation",
        game: "Game",  # type: ignore[type-arg]
        view: "BaseModel",
        names: Sequence[str],
        version: int,
        key: tuple[int, str],
    ) -> Picture | None:
        game_id, digest = key
        try:
            self.renders += 1
            picture = await asyncio.to_thread(draw, presentation, game, view, names)
        except Exception:
            game_logger(game_id, "boardroom.pictures").exception("drawing the picture failed")
            raise
        finally:
            self._pending.pop(key, None)
        self._store(game_id, _Rendered(version, tuple(names), digest, picture))
        return picture

    def _store(self, game_id: int, rendered: _Rendered) -> None:
        old = self._rendered.get(game_id)
        if old is not None and old.version > rendered.version:
            return  # a slow render finishing after a newer one must not take its place
        self._rendered[game_id] = rendered
        self._rendered.move_to_end(game_id)
        while len(self._rendered) > CACHE_LIMIT:
            self._rendered.popitem(last=False)

    # --- what a status message shows -------------------------------------------------------------------

    def edit_args(self, message_id: int | None, picture: Picture | None, embed: discord.Embed | None) -> dict[str, Any]:
        """The embed and attachment arguments of a status send or edit: upload the picture only if the message
        doesn't show these bytes already; with no new picture, keep the one it shows (if this process knows it)."""
        shown = self._shown.get(message_id) if message_id is not None else None
        if picture is None and shown is None:
            return {"embed": embed}  # as without pictures: attachments untouched
        embed = embed if embed is not None else discord.Embed()
        embed.set_image(url=IMAGE_URL)
        if shown is not None and (picture is None or shown[0] == picture.digest):
            return {"embed": embed, "attachments": [shown[1]]}
        assert picture is not None
        file = discord.File(io.BytesIO(picture.png), filename=FILENAME)
        return {"embed": embed, "attachments": [file]} if message_id is not None else {"embed": embed, "file": file}

    def sent(self, message: discord.Message | None, picture: Picture | None) -> None:
        """Remember the attachment a status message now shows (from Discord's answer to the send or edit)."""
        if message is None:
            return
        attachment = next((a for a in message.attachments if a.filename == FILENAME), None)
        if attachment is None:
            self._shown.pop(message.id, None)
            return
        old = self._shown.get(message.id)
        digest = picture.digest if picture is not None else old[0] if old is not None else ""
        self._shown[message.id] = (digest, attachment)
        self._shown.move_to_end(message.id)
        while len(self._shown) > CACHE_LIMIT:
            self._shown.popitem(last=False)

    def shows(self, message_id: int) -> bool:
        """Whether the message shows a picture, as far as this process knows."""
        return message_id in self._shown

    def forget(self, message_id: int) -> None:
        self._shown.pop(message_id, None)


def status_file(picture: Picture | None) -> discord.File | None:
    """The picture as a file for a one-off message (e.g. `/game status`)."""
    return None if picture is None else discord.File(io.BytesIO(picture.png), filename=FILENAME)
