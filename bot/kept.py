"""A person's settings as read or set so far in this process: one read for the people a move lacks, none after.

Settings of a person (`/me notify`, `/me quiet`) change only through `/me`, in this process, so the move path need
not read them again: `KeptPerPerson` keeps what `read` returned for each person asked (None: they have none) and what
`/me` set since. `bot.routing.Deliveries` and `bot.quiet.KnownQuietHours` each hold one.
"""

from collections.abc import Awaitable, Callable, Collection, Mapping
from typing import Generic, TypeVar

T = TypeVar("T")


class KeptPerPerson(Generic[T]):
    def __init__(self, read: Callable[[list[int]], Awaitable[Mapping[int, T]]]) -> None:
        self._read = read
        self._known: dict[int, T | None] = {}

    async def of(self, player_ids: Collection[int]) -> dict[int, T | None]:
        """Each of these people's setting (None: they have none), reading only those not kept yet, in one call."""
        missing = [p for p in set(player_ids) if p not in self._known]
        if missing:
            found = await self._read(missing)
            self._known.update({p: found.get(p) for p in missing})
        return {p: self._known[p] for p in player_ids}

    def keep(self, player_id: int, value: T | None) -> None:
        """What `/me` just stored for the person."""
        self._known[player_id] = value

    def forget(self, player_id: int) -> None:
        """Read the person's setting from the store next time."""
        self._known.pop(player_id, None)
