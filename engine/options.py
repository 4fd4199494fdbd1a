"""Options every game shares: how long a turn and a reaction window may take, or a daily deadline in the table's time
zone and weekends off (`turn_until`, computed by `engine.daily`); and the mark of an option that names a player.

Reaction windows come in kinds (a Casablanca objection, a KKK STOP window, a last call…), and each game declares the
default length of each kind it opens (`Game.reaction_windows`, from its `waits.WINDOWS`), sized for people who look
in every few hours. `reaction_time` is the table's override: not set (the default), each kind of window is open for
its game's own length; set, every reaction window of the table is open that long, whatever its kind. One number for
all kinds keeps a table's choice simple ("we play live: 15 minutes") and the rule easy to state; a table that wants
the per-kind lengths just leaves it unset. `window_length` applies this rule, and the engine alone decides deadlines.

Each game's own options model subclasses `GameOptions`. Durations are timedeltas (JSON: ISO 8601 durations).

`PlayerOption` marks an option whose value is a seat (0-based, in the game's final seat order), e.g. who begins:
`first_seat: Annotated[int | None, PlayerOption("first player")] = None`. The engine only ever sees the seat. People
opening a game don't know the seats yet (the order may be shuffled at the start), so a platform lets them name a
player instead and puts that player's seat into the options when the game starts (see `bot.game_options`).
"""

from dataclasses import dataclass
from datetime import datetime, time, timedelta
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from engine import daily


@dataclass(frozen=True)
class PlayerOption:
    """Metadata of an option field whose value is a seat, chosen by naming a player (see the module docstring)."""

    label: str
    """What the chosen player is, for people ("first player")."""


class GameOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)
    """Each field's docstring is its description, shown to players (`/game rules` lists a game's own options)."""

    turn_deadline: timedelta = Field(default=timedelta(hours=24), gt=timedelta(0))
    """How long the game waits for a player's move before applying the default."""
    reaction_time: timedelta | None = Field(default=None, gt=timedelta(0))
    """How long every reaction window (a STOP, a last call, an objection) stays open; not set: each kind of window
    its game's own default length."""

    def window_length(self, default: timedelta) -> timedelta:
        """The length of a reaction window whose kind's default is `default`: the table's `reaction_time` if set."""
        return self.reaction_time if self.reaction_time is not None else default

    away: Literal["pause", "autopilot"] = "pause"
    """What the table does while a player is away for days: `pause` stops the clocks of their turns (for at most the
    bot's AWAY_MAX_DAYS in this game), `autopilot` plays safe moves for them until they return. Either way reaction
    windows pass for them. The engine never reads it: the platform's clock does."""
    language: str = Field(default="en", pattern=r"^[a-z]{2,3}$")
    """The table's language code: everything the table shows publicly is said in it (the engine never reads it;
    the bot chooses the words and which languages it offers, `bot.i18n.LANGUAGES`)."""
    # The table's clock (`engine.daily`): a daily deadline instead of `turn_deadline`, in the table's time zone.
    deadline: time | None = None
    """A turn ends at this time of day (`daily 19:00`) in the table's time zone, instead of after `turn_deadline`."""
    timezone: str = "UTC"
    """The table's time zone (an IANA name such as Europe/Amsterdam), for `deadline` and `weekdays_only`."""
    weekdays_only: bool = False
    """Weekends off: a turn deadline that would fall on a Saturday or Sunday moves to Monday at the same time."""

    @field_validator("deadline", mode="before")
    @classmethod
    def _daily(cls, value: Any) -> Any:
        # "daily 19:00" as typed; "19:00:00" as stored in JSON goes to pydantic's own reading of a time.
        return daily.parse_daily(value) if isinstance(value, str) and value.count(":") != 2 else value

    @field_validator("timezone")
    @classmethod
    def _zone(cls, value: str) -> str:
        if not daily.is_zone(value):
            raise ValueError(f"“{value}” is not a time zone: give an IANA name such as Europe/Amsterdam")
        return value

    def turn_until(self, since: datetime, span: timedelta | None = None) -> datetime:
        """The deadline of a turn that begins at `since`: the daily time if the table has one (else `turn_deadline`
        after it); `span`, a game's own length for this wait (Schwarzmarkt's trading), replaces both; off the weekend
        if `weekdays_only`."""
        rule: time | timedelta = span if span is not None else self.deadline or self.turn_deadline
        if isinstance(rule, timedelta) and not self.weekdays_only:
            return since + rule  # the plain duration, exactly as before
        return daily.next_deadline(since, rule, self.timezone, self.weekdays_only)
