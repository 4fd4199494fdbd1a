"""The records the store reads and writes: pydantic models, independent of any database and of any game.

Conventions:
- Ids of Discord things (guilds, channels, threads, users, roles, messages) are ints (snowflakes).
- Every timestamp is timezone-aware; the store keeps and returns them in UTC. Pass UTC datetimes
  (`datetime.now(UTC)`) to the engine *and* the store, so a replay feeds the engine the very same `now`.
- JSON payloads (options, actions, events, timer payloads, outbox targets and payloads) are plain JSON-like data.
  Pydantic models given where JSON is expected are dumped with `model_dump(mode="json")`, at any depth; for actions
  prefer `game.dump_action(action)`, which uses the game's discriminated union. A `New…` record checks its JSON by
  encoding it (what `dump_json` refuses raises TypeError when the record is built) rather than by walking it:
  plain data is kept as given (a tuple is stored as a list), which makes building the records of a commit cheap.
- `New…` models are what a caller supplies; `…Record` models are what the store returns (with ids and times).
  A `New…` model encodes its JSON fields to compact JSON text once, when it is built (`json_text`; it is frozen,
  so the text cannot go stale, and `model_copy` encodes again only the fields its update changes): every backend
  writes JSON as text, so a commit then only lays out its rows. How a row is laid out (timestamps as text, the
  log's events compressed) is the backend's own business: `storage.sqlite.rows` for SQLite.
"""

from datetime import UTC, datetime, time, timedelta
from enum import Enum
from typing import Annotated, Any, ClassVar, Final, Literal, Self

import orjson
from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
    PrivateAttr,
    model_validator,
)

from storage import logcodec
from storage.jsontext import ORJSON_OPTIONS, dump_json, refuse

GameStatus = Literal["lobby", "active", "paused", "finished", "abandoned"]
"""lobby: players gather, no state yet. active/paused: running (paused: timers off). finished/abandoned: over."""

OPEN_STATUSES: tuple[GameStatus, ...] = ("lobby", "active", "paused")
"""Statuses of games the bot serves at start-up."""

LogKind = Literal["action", "undo", "note"]
"""action: an engine action applied by a seat or the system. undo: "the game is now as after entry `undo_to`".
note: a remark (moderator note, pause, substitution) that leaves the game state as it was."""
BotLevel = Literal["easy", "normal", "hard"]
"""A computer player's level: the words of `engine.policy.Level`, kept by the store without knowing the engine."""

SEED_MIN = -(1 << 63)
SEED_MAX = (1 << 63) - 1
ID_MAX = SEED_MAX
"""The largest id a row can have: ids (games, outbox rows, Discord's snowflakes) are positive signed 64-bit integers,
what SQLite's INTEGER and PostgreSQL's BIGINT hold."""


class Keep(Enum):
    KEEP = "keep"


KEEP: Final = Keep.KEEP
"""Default of optional update arguments: leave the field as it is (None would set it to NULL)."""


def given(**fields: Any) -> dict[str, Any]:
    """The update arguments given a value (not `KEEP`), by name: what an update writes (each backend encodes them)."""
    return {name: value for name, value in fields.items() if not isinstance(value, Keep)}


def utc(dt: datetime) -> datetime:
    """`dt` as a UTC datetime; refuses naive datetimes (their meaning depends on the machine)."""
    if dt.tzinfo is None or dt.utcoffset() is None:
        raise ValueError("timestamps must be timezone-aware (use datetime.now(UTC))")
    return dt.astimezone(UTC)


def now_utc() -> datetime:
    return datetime.now(UTC)


def as_json(value: Any) -> Any:
    """JSON-like data from a value that may be (or contain) pydantic models."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, list | tuple):
        return [as_json(v) for v in value]
    if isinstance(value, dict):
        return {k: as_json(v) for k, v in value.items()}
    return value


UtcTime = Annotated[AwareDatetime, AfterValidator(utc)]
"""A timezone-aware timestamp, kept in UTC (only timestamp fields run this check, not every field of every record)."""


def _dumped(value: Any) -> Any:
    """A JSON field's value as given, a model replaced by its JSON data. Models nested deeper, and anything else
    `dump_json` refuses, are dealt with when the record is encoded (`_JsonFields.json_text`): walking every value
    of every payload here would cost more than encoding it."""
    return value.model_dump(mode="json") if isinstance(value, BaseModel) else value


def _json_object(value: Any) -> dict[str, Any]:
    """A JSON object field's value (a model: its JSON data), checked as pydantic checks `dict[str, Any]` (a dict,
    its keys str) but kept as given rather than copied key by key: a commit builds a few of these on every move,
    and their values are checked when the record encodes them (`json_text`)."""
    if type(value) is not dict:  # `type` first: `isinstance` of a pydantic model class is an ABC's slow check
        value = _dumped(value)
        if not isinstance(value, dict):
            raise ValueError(f"a JSON object (dict) is needed, not a {type(value).__name__}")
    for key in value:
        if type(key) is not str and not isinstance(key, str):
            raise ValueError(f"a JSON object's keys are str, not {type(key).__name__}")
    return value


def _json_objects(value: Any) -> list[dict[str, Any]]:
    """A list of JSON objects (a tuple becomes a list, None an empty one), each checked as `_json_object`."""
    if value is None:
        return []
    if type(value) is not list and not isinstance(value, list | tuple):
        raise ValueError(f"a list of JSON objects is needed, not a {type(value).__name__}")
    return [_json_object(v) for v in value]


JsonObject = Annotated[dict[str, Any], PlainValidator(_json_object)]
"""A JSON object of a `New…` record: validated by `_json_object` alone (pydantic's own check of `dict[str, Any]`
copies it, and validation took half of building a move's records)."""
JsonObjects = Annotated[list[dict[str, Any]], PlainValidator(_json_objects)]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class _JsonFields(_Model):
    """A record with JSON fields (`_json_fields`) that knows their compact JSON text: encoded when it is built
    (`New…`: what is not JSON raises TypeError there and then) or on first use (records read back)."""

    _eager: ClassVar[bool] = True
    _json_fields: ClassVar[tuple[str, ...]] = ()
    _texts: dict[str, str | None] | None = PrivateAttr(default=None)

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        # pydantic wraps `model_post_init` in its generic set-up of private attributes once more at every level of
        # subclassing (a `NewOutbox` ran it twice, an `OutboxRecord` three times: a third of building a record).
        # `_texts` is the only private attribute, so one function sets it up, and encodes the JSON fields of a
        # `New…` record. pydantic-core calls `model_post_init` by name, so the class attribute is what runs.
        if set(cls.__private_attributes__) != {"_texts"}:
            raise TypeError(f"{cls.__name__}: _texts is the only private attribute a record with JSON fields has")
        cls.model_post_init = _encode_texts if cls._eager else _no_texts  # type: ignore[method-assign]

    def json_text(self, name: str) -> str | None:
        """The compact JSON text of field `name` (None if the field is None), encoded once. Plain data is encoded
        as it is (tuples become lists in the text; the record keeps what it was given). A model nested in it is
        dumped, and the record then holds the plain data, as it will read back; a value that is not JSON-like at
        all raises TypeError."""
        private = self.__pydantic_private__  # direct: pydantic's __getattr__ for private attributes is slow
        texts = private["_texts"]
        if texts is None:
            texts = private["_texts"] = {}
        elif name in texts:
            return texts[name]
        value = self.__dict__[name]
        if value is None:
            text = None
        else:
            try:
                text = dump_json(value)
            except TypeError:
                plain = as_json(value)
                text = dump_json(plain)
                self.__dict__[name] = plain  # frozen, but this only swaps a value for its equal plain data, once
        texts[name] = text
        return text

    def model_copy(self, *, update: dict[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy that keeps the JSON text of the fields `update` leaves alone (e.g. adding a note to a log entry
        does not encode its events again); the changed ones are encoded when first used."""
        copy = super().model_copy(update=update, deep=deep)
        texts = self.__pydantic_private__["_texts"]
        if texts is not None:
            copy.__pydantic_private__["_texts"] = (
                {k: v for k, v in texts.items() if k not in update} if update else dict(texts)
            )
        return copy


def _no_texts(self: _JsonFields, context: Any, /) -> None:
    """A record read back: its JSON text is encoded if and when it is asked for."""
    _setattr(self, "__pydantic_private__", {"_texts": None})


def _encode_texts(self: _JsonFields, context: Any, /) -> None:
    """A `New…` record: its JSON fields encoded now (what is not JSON raises TypeError while it is built)."""
    values = self.__dict__
    texts: dict[str, str | None] = {}
    _setattr(self, "__pydantic_private__", {"_texts": texts})
    for name in self._json_fields:
        value = values[name]
        if value is None:
            texts[name] = None
        else:
            try:
                texts[name] = _orjson_dumps(value, default=refuse, option=ORJSON_OPTIONS).decode()
            except TypeError:  # a model nested in plain data, what orjson leaves to `json`, or no JSON at all
                self.json_text(name)


_setattr = object.__setattr__
_orjson_dumps = orjson.dumps  # `dump_json`'s fast path, without a call more per field: `json_text` does the rest


# --- games ------------------------------------------------------------------------------------------


class GameRecord(_Model):
    """One game's row, without its snapshot (snapshots load lazily: `store.games.snapshot`)."""

    id: int
    kind: str
    """The engine's registry name (`Game.name`)."""
    guild_id: int | None = None
    channel_id: int | None = None
    thread_id: int | None = None
    status: GameStatus
    options: dict[str, Any] = Field(default_factory=dict)
    """The game's options as JSON (`game.parse_options(record.options)` gives the model)."""
    seed: int | None = None
    """Set-up seed; None while in the lobby."""
    seat_count: int | None = None
    """Seats at set-up; None while in the lobby."""
    setup_at: UtcTime | None = None
    """The `now` given to `Game.setup`; None while in the lobby."""
    version: int
    """Number of log entries so far; 0 right after set-up. Every commit names it and bumps it by one."""
    created_by: int | None = None
    created_at: UtcTime
    updated_at: UtcTime
    finished_at: UtcTime | None = None
    """When the game became finished or abandoned."""

    @property
    def started(self) -> bool:
        return self.seed is not None


class Snapshot(_Model):
    """A game's current state as the engine's JSON (`game.load_state(snapshot.state)`), at `version`: the text
    committed, less any trailing spaces (which JSON ignores; the SQLite store pads the stored text with them)."""

    game_id: int
    version: int
    state: str


# --- seats ------------------------------------------------------------------------------------------


AwayMode = Literal["pause", "autopilot"]
"""What a table does while a player is away for days (the table's `away` option)."""


class NewSeat(_Model):
    seat: int = Field(ge=0)
    """0-based seat number, as the engine counts seats."""
    player_id: int | None = None
    """The Discord user in this seat (None: empty / no one yet)."""
    display_name: str = ""
    dm_ok: bool | None = None
    """Whether DMs reach this player: None until the bot has tried, then True/False."""
    away_until: UtcTime | None = None
    """The player said they are away until then (None: not away)."""
    autopilot: bool = False
    """A person's seat played safely for them by the game's policy (see `bot.seat_players`)."""
    bot: bool = False
    """A computer player: no Discord user (`player_id` None), its name (with 🤖) in `display_name`."""
    missed: int = Field(default=0, ge=0)
    """Deadlines the seat's player let pass in a row (reset by any move of theirs)."""
    level: BotLevel = "normal"
    """How well the seat's computer player plays (meaningless for a person's seat)."""
    away_mode: AwayMode | None = None
    """While away (`away_until`): 'pause' (their turns' clocks stop) or 'autopilot' (it plays for them)."""
    away_pauses: list[tuple[UtcTime, UtcTime]] = Field(default_factory=list)
    """The intervals their turns' clocks stood still (kept after they return: deadlines are worked out from them)."""
    handover: dict[str, Any] | None = None
    """The seat's pending handover (a leaver's offer or a replacement vote; the bot's vocabulary), if any."""


class SeatRecord(NewSeat):
    game_id: int
    joined_at: UtcTime


# --- the action log ---------------------------------------------------------------------------------


class NewLogEntry(_JsonFields):
    """One entry to append to a game's log. Build it with `action`, `undo` or `note`."""

    _json_fields: ClassVar[tuple[str, ...]] = ("action", "events")

    kind: LogKind
    at: UtcTime
    """When it happened: for an action, the `now` given to `Game.apply` (replay gives the same)."""
    actor_seat: int | None = None
    """The seat that acted (None: the system, e.g. a timeout, or a moderator acting outside the seats)."""
    user_id: int | None = None
    """The Discord user who caused it (a player, or a moderator), if any."""
    action: JsonObject | None = None
    """The engine action as JSON (`game.dump_action(action)`); only for kind "action"."""
    events: JsonObjects = Field(default_factory=list)
    """The events it produced (`Event.model_dump(mode="json")` each; `Event` objects are accepted)."""
    undo_to: int | None = None
    """For kind "undo": the game is now as it was right after entry `undo_to` (0: right after set-up)."""
    note: str = ""
    """Free text: the reason for an undo, a moderator's note."""

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if self.kind == "action" and self.action is None:
            raise ValueError("an action entry needs its action")
        if self.kind != "action" and self.action is not None:
            raise ValueError(f"a {self.kind} entry carries no action")
        if self.kind == "undo" and (self.undo_to is None or self.undo_to < 0):
            raise ValueError("an undo entry needs undo_to >= 0 (the entry to go back to; 0 is set-up)")
        if self.kind != "undo" and self.undo_to is not None:
            raise ValueError("only an undo entry has undo_to")
        return self

    def stored_events(self) -> str | bytes:
        """The events as the log stores them on either backend (`storage.logcodec`: their JSON text, or deflated
        when that is shorter). Compressed at each call, by the commit: kept out of building the record (issue 29
        goal 5 counts it in the commit; see benchmarks/RESULTS.md)."""
        events = self.json_text("events")
        assert events is not None  # a list, never None
        return logcodec.encode(events)

    @classmethod
    def for_action(
        cls,
        actor_seat: int | None,
        action: Any,
        at: datetime,
        events: list[Any] | None = None,
        user_id: int | None = None,
    ) -> "NewLogEntry":
        """An applied engine action. Pass `game.dump_action(action)` (or the model) and `outcome.events`."""
        return cls(kind="action", actor_seat=actor_seat, action=action, at=at, events=events or [], user_id=user_id)

    @classmethod
    def for_undo(cls, to_seq: int, at: datetime, user_id: int | None = None, note: str = "") -> "NewLogEntry":
        """A moderator's undo: the game goes back to how it was right after entry `to_seq`."""
        return cls(kind="undo", undo_to=to_seq, at=at, user_id=user_id, note=note)

    @classmethod
    def for_note(
        cls, note: str, at: datetime, user_id: int | None = None, events: list[Any] | None = None
    ) -> "NewLogEntry":
        """A remark in the log that does not change the game state."""
        return cls(kind="note", note=note, at=at, user_id=user_id, events=events or [])


class LogEntry(NewLogEntry):
    """A committed log entry. `seq` runs 1, 2, 3… per game with no gaps; after it the game's version is `seq`."""

    _eager: ClassVar[bool] = False

    game_id: int
    seq: int


# --- timers -----------------------------------------------------------------------------------------


class NewTimer(_JsonFields):
    _json_fields: ClassVar[tuple[str, ...]] = ("payload",)

    kind: str
    """What fires: e.g. "deadline", "reminder", "reaction" (the bot's vocabulary; the store does not care)."""
    due_at: UtcTime
    payload: JsonObject = Field(default_factory=dict)
    """What the scheduler needs, e.g. the system action to apply and the version it was computed for."""


class TimerRecord(NewTimer):
    _eager: ClassVar[bool] = False
    id: int
    game_id: int
    created_at: UtcTime


# --- outbox -----------------------------------------------------------------------------------------

OutboxKind = str
"""e.g. "post" (into the game's thread), "edit" (an existing message), "dm" (to a player)."""


class NewOutbox(_JsonFields):
    _json_fields: ClassVar[tuple[str, ...]] = ("target", "payload")

    kind: OutboxKind
    target: JsonObject = Field(default_factory=dict)
    """Where it goes, e.g. {"channel_id": …}, {"user_id": …} or {"ref": {"kind": "status", "seat": None}}."""
    payload: JsonObject = Field(default_factory=dict)
    """What to send (text, embed data, component ids…), as the notifier defines it."""


class OutboxRecord(NewOutbox):
    _eager: ClassVar[bool] = False
    id: int
    game_id: int | None
    created_at: UtcTime
    delivered_at: UtcTime | None = None
    attempts: int = 0
    last_error: str | None = None


# --- message references -----------------------------------------------------------------------------


class MessageRef(_Model):
    """What a Discord message stands for: a game's status message, a seat's hand message, an offer ("Shake!")…

    At most one message per (game_id, kind, seat, key): storing a new one replaces the old reference.
    """

    message_id: int
    channel_id: int
    game_id: int | None
    kind: str
    """e.g. "status", "hand", "offer"."""
    seat: int | None = None
    key: str = ""
    """Tells apart several messages of one kind and seat, e.g. the offer id."""
    created_at: UtcTime = Field(default_factory=now_utc)
    token: str | None = Field(default=None, repr=False)
    """The token of the interaction (a slash command, a click) that made the message, while it may still edit it
    with that token, outside Discord's global limit (`bot.notifier.tokens`): a credential that lives 15 minutes,
    never shown (not in the model's repr; never logged). Stored with the reference (`token_expires`): after a
    restart the message is still edited with it. The store clears expired ones on its next write of references."""
    token_expires: UtcTime | None = None
    """When `token` expires (15 minutes after its interaction was created)."""


# --- per-server settings ----------------------------------------------------------------------------


class GuildSettings(_Model):
    """A server's settings; None means "not set: use the game's default"."""

    guild_id: int
    moderator_role_id: int | None = None
    turn_deadline: timedelta | None = Field(default=None, gt=timedelta(0))
    reaction_time: timedelta | None = Field(default=None, gt=timedelta(0))
    updated_at: UtcTime | None = None
    timezone: str | None = None
    """The time zone of new tables (an IANA name; None: UTC)."""
    language: Literal["en", "nl", "de"] | None = None
    """The language of new tables and of answers to readers whose own is none of ours (None: the server's
    preferred locale where it is one of ours, else English)."""


class QuietHours(_Model):
    """A person's quiet hours, the same in every server: from `start` to `end` on their clock (across midnight when
    `end` is earlier), in their IANA `timezone` (checked by the bot, which knows time zones)."""

    start: time
    end: time
    timezone: str


NotifyMode = Literal["thread", "dm", "digest"]
"""Where a player's prompts and reminders reach them: pinged in the thread, by DM, or only in the daily digest."""


class PlayerDelivery(_Model):
    """Where a person's prompts and reminders reach them, and their daily digest (the same in every server)."""

    player_id: int
    notify: NotifyMode = "thread"
    digest_at: str | None = None
    """The digest's local time of day, "HH:MM" (None: no digest)."""
    digest_zone: str | None = None
    """The IANA time zone of `digest_at` (e.g. "Europe/Berlin"), kept even while the digest is off."""
    digest_next: UtcTime | None = None
    """When the digest runs next (None: off)."""
    updated_at: UtcTime | None = None
    language: Literal["en", "nl", "de"] | None = None
    """The language of the person's hand DM, its prompts and their DM reminders (`/me language`); None: each
    table's own."""


# --- results ----------------------------------------------------------------------------------------


class Claim(_Model):
    """Who holds a timer or an outbox row, and until when (a lease): one bot process among several on one database
    (issue 30). A claim whose `until` has passed (its process died, or took too long) may be taken by anyone.
    `owner` is the process's id (`bot.claims`), unique among the processes on the database."""

    owner: str = Field(min_length=1, max_length=200)
    until: UtcTime


class CommitResult(_Model):
    """What a commit wrote: the game's new version (= the new log entry's seq) and the ids of its rows."""

    game_id: int
    version: int
    outbox_ids: list[int] = Field(default_factory=list)
    timer_ids: list[int] = Field(default_factory=list)

    @classmethod
    def of(cls, game_id: int, version: int, outbox_ids: list[int], timer_ids: list[int]) -> "CommitResult":
        """The result of a commit the store has just made (values of the right types): set as they are, without
        validation. A commit returns one on every move; this takes a third of `model_construct`'s time."""
        result = _new(cls)
        _setattr(result, "__dict__", {"game_id": game_id, "version": version, "outbox_ids": outbox_ids,
                                      "timer_ids": timer_ids})  # fmt: skip
        _setattr(result, "__pydantic_fields_set__", {"game_id", "version", "outbox_ids", "timer_ids"})
        _setattr(result, "__pydantic_extra__", None)
        _setattr(result, "__pydantic_private__", None)
        return result


_new = object.__new__


class LoadedGame(_Model):
    """Everything a move reads about a game, read at once (`store.games.load`): the record, the seats, the
    current snapshot (None before the start) and the pending timers, as of one moment."""

    record: GameRecord
    seats: list[SeatRecord]
    snapshot: Snapshot | None
    timers: list[TimerRecord]


class PlayerGame(_Model):
    """One game a player holds a seat in, as `/mine` and the digest read it (`store.games.of_player`): the record,
    every seat (for the names) and the pending timers (the waits' deadlines), without the snapshot."""

    record: GameRecord
    seats: list[SeatRecord]
    timers: list[TimerRecord]


# --- export -----------------------------------------------------------------------------------------

EXPORT_FORMAT = "boardroom-game/1"


class ExportedLogEntry(NewLogEntry):
    _eager: ClassVar[bool] = False  # encoded only if an import writes it

    seq: int


class ExportedGame(_Model):
    """A whole game as one JSON document: enough to rebuild it anywhere with the same engine."""

    format: Literal["boardroom-game/1"] = EXPORT_FORMAT
    exported_at: UtcTime = Field(default_factory=now_utc)
    id: int
    """The id it had where it was exported (an import keeps it when free)."""
    kind: str
    status: GameStatus
    guild_id: int | None = None
    channel_id: int | None = None
    thread_id: int | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int | None = None
    seat_count: int | None = None
    setup_at: UtcTime | None = None
    version: int
    created_by: int | None = None
    created_at: UtcTime
    finished_at: UtcTime | None = None
    seats: list[NewSeat] = Field(default_factory=list)
    log: list[ExportedLogEntry] = Field(default_factory=list)
    snapshot: str | None = None
    """The stored state at export time; an import checks that the replay reproduces it."""

    def to_json(self, indent: int | None = 2) -> str:
        return self.model_dump_json(indent=indent)

    @classmethod
    def from_json(cls, data: str | bytes) -> "ExportedGame":
        return cls.model_validate_json(data)


__all__ = [
    "EXPORT_FORMAT",
    "KEEP",
    "OPEN_STATUSES",
    "Claim",
    "CommitResult",
    "ExportedGame",
    "ExportedLogEntry",
    "GameRecord",
    "GameStatus",
    "GuildSettings",
    "Keep",
    "LogEntry",
    "LogKind",
    "MessageRef",
    "NewLogEntry",
    "NewOutbox",
    "NewSeat",
    "NewTimer",
    "OutboxRecord",
    "SeatRecord",
    "Snapshot",
    "TimerRecord",
]
