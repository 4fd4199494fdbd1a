"""The interface every game implements, and the one place where `apply` is made safe.

A game is a set-up, a list of moves and per-seat views, as in boardgame.io, with the state kept apart from the
rules as in OpenSpiel:

- `setup(seats, options, seed, now)` builds the first state; all randomness comes from `seed`;
  `setup_events(state)` is what the table is told about it when the game starts.
- `apply(state, actor, action, now)` returns an `Outcome` (new state and events) or raises `RuleError`. The
  actor is a seat, or None for the system (timeouts, closed windows). The given state is never modified:
  the game's `step` works on a deep copy, so a refusal leaves nothing half-done.
- `view(state, seat)` is all a seat may know; `view(state, None)` is the public table.
- `legal_actions(state, seat)` lists what a seat may do now (free amounts sampled), for autocomplete and fuzzing.
- `waiting_on(state)` lists the waits with their deadlines and the system action applied at each deadline.
- `result(state)` is None until the game is over, then the final standings.
- `parts` (a `Parts`): the game's own modules' functions that `view`, `legal_actions`, `waiting_on` and
  `copy_state` forward to, so a game's rules need no forwarding methods of their own; `rng_state` reads
  `state.rng` (every game's state keeps its random generator there). A game may still override any of them.
- `from_data_folder(folder)` builds the game with a server owner's replacement data files (`data_files`, read from
  `folder`; any file missing there falls back to the packaged default); `engine.registry.build` calls it. A game must
  copy what it reads from them into the state at set-up, so that replacing a file never changes a game in progress,
  and `for_state(state)` gives the game as it was set up (for replaying a stored game from its set-up).

Because `step` is deterministic given the state (which holds the random generator) and the action, a game is
replayed exactly from its seed and action log.
"""

import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, ClassVar, Generic, Literal, Self, TypeVar

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

from engine.errors import MALFORMED_ACTION, UNKNOWN_ACTION, RuleError
from engine.events import Event, Wait
from engine.options import GameOptions

S = TypeVar("S", bound=BaseModel)
OptT = TypeVar("OptT", bound=GameOptions)


class Standing(BaseModel):
    model_config = ConfigDict(frozen=True)

    seat: int
    score: int
    rank: int
    """1 for the winner(s); equal scores share a rank."""


class Result(BaseModel):
    """The end of a game: standings best first. Several seats with rank 1 share the win."""

    model_config = ConfigDict(frozen=True)

    standings: tuple[Standing, ...]
    reason: str = ""

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(s.seat for s in self.standings if s.rank == 1)


def rank_by_score(scores: dict[int, int], reason: str = "") -> Result:
    """Standings by score, highest first; equal scores share a rank (1, 1, 3, …)."""
    ordered = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
    standings: list[Standing] = []
    for i, (seat, score) in enumerate(ordered):
        rank = standings[-1].rank if standings and standings[-1].score == score else i + 1
        standings.append(Standing(seat=seat, score=score, rank=rank))
    return Result(standings=tuple(standings), reason=reason)


LEAVE = "boardroom.leave"


class Leave(BaseModel):
    """The platform's system action for a player who leaves mid-game (a moderator's kick).

    `Game.apply` answers it with the game's `remove_seat` rule, so a departure is an ordinary entry in the action
    log and a replay (undo, verify, import) reproduces it. Refused (RuleError) when the game cannot go on.
    """

    model_config = ConfigDict(frozen=True)

    type: Literal["boardroom.leave"] = LEAVE
    seat: int


@dataclass(frozen=True)
class Outcome(Generic[S]):
    """What one accepted action produced."""

    state: S
    events: list[Event] = field(default_factory=list)
    used_randomness: bool = False
    """The action drew on the random generator (a shuffle, a die): an undo would let a player re-roll."""

    @property
    def reveals_hidden(self) -> bool:
        """The action showed someone something that was hidden (a private event or a public reveal)."""
        return any(e.reveals or e.to is not None for e in self.events)


@dataclass(frozen=True)
class Parts(Generic[S]):
    """The pure functions in a game's own modules that the `Game` interface forwards to (one object, composed into
    the game as its `parts`, instead of the same four forwarding methods in every `rules.py`)."""

    public_view: Callable[[S], BaseModel]
    """`views.public_view(state)`: the public table (`Game.view(state, None)`)."""
    seat_view: Callable[[S, int], BaseModel]
    """`views.seat_view(state, seat)`: all one seat may know (`Game.view(state, seat)`)."""
    legal_actions: Callable[[S, int | None], list[Any]]
    """`legal.legal_actions(state, seat)`."""
    waiting_on: Callable[[S], list[Wait]]
    """`waits.waiting_on(state)`."""
    copy: Callable[[S], S] | None = None
    """A fast exact copy of the state for `step` (None: pydantic's deep copy)."""


class Game(ABC, Generic[S, OptT]):
    """A game's rules. Subclasses set the class attributes and implement the abstract methods."""

    name: ClassVar[str]
    """Registry key, also stored with every game: never change it once games exist."""
    title: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    summary: ClassVar[str] = ""
    """A few lines for `/game rules`."""
    uses_reaction_time: ClassVar[bool] = True
    """Whether the game opens reaction windows (and so uses the shared `reaction_time` option); a game without
    them (e.g. Kesse Rügen) sets False, and the platform's lobby message doesn't show a reaction time for it."""
    reaction_windows: ClassVar[Mapping[str, timedelta]] = {}
    """The kinds of reaction window the game opens (codes, e.g. "objection"), each with its default length (the
    game's `waits.WINDOWS`); a table's `reaction_time`, if set, overrides them all (`GameOptions.window_length`).
    The platform shows them in the lobby and in `/game rules`."""

    state_model: ClassVar[type[BaseModel]]
    options_model: ClassVar[type[GameOptions]]
    action_adapter: ClassVar[TypeAdapter[Any]]
    """Validates any of the game's actions (a discriminated union on `type`)."""
    data_files: ClassVar[tuple[str, ...]] = ()
    """The data files a server owner may replace (names in the game's own data folder), e.g. ("board.toml",)."""
    parts: ClassVar["Parts[Any] | None"] = None
    """What `view`, `legal_actions`, `waiting_on` and `copy_state` forward to; None: the game overrides them."""

    def seat_range(self, options: OptT) -> tuple[int, int]:
        """The seat counts the game allows with these options, checked at `/game new` (e.g. a variant for fewer
        players than the game's `min_seats`–`max_seats`). Default: the class's range whatever the options."""
        return self.min_seats, self.max_seats

    @classmethod
    def from_data_folder(cls, folder: Path | None) -> Self:
        """The game with the server owner's data files in `folder` (its own folder, e.g. GAME_DATA_DIR/kkk), each
        file missing there (or no folder) taken from the packaged defaults. Raises `DataFileError` naming the file
        and the field. Games without data files have nothing to replace: the default builds the plain game."""
        return cls()

    def for_state(self, state: S) -> Self:
        """The game with the data files `state` was set up with, e.g. to replay a stored game from its set-up (undo,
        verify, import) after a server owner replaced a data file: `setup` then gives the same first state again.
        Default: this game (a game without data files, or one whose data `state` doesn't keep)."""
        return self

    # --- serialisation --------------------------------------------------------------------------------

    def parse_action(self, data: Any) -> Any:
        """An action from JSON-like data (a dict, or a JSON string), or an action model checked to be one of this
        game's; the platform's `Leave` is understood too. Anything else (an unknown move, malformed fields,
        unreadable JSON, another game's action) is refused with a `RuleError` coded `UNKNOWN_ACTION` or
        `MALFORMED_ACTION`, for every game alike: a player's typo is a refusal, not a crash."""
        try:
            if isinstance(data, Leave):
                return data
            if isinstance(data, str | bytes):
                if LEAVE in (data if isinstance(data, str) else data.decode("utf-8", "replace")):
                    raw = json.loads(data)
                    if isinstance(raw, dict) and raw.get("type") == LEAVE:
                        return Leave.model_validate(raw)
                return self.action_adapter.validate_json(data)
            if isinstance(data, dict) and data.get("type") == LEAVE:
                return Leave.model_validate(data)
            # An action model of this game passes unchanged (pydantic doesn't revalidate an instance).
            return self.action_adapter.validate_python(data)
        except ValidationError as exc:
            raise _unreadable(exc, self.title) from None
        except ValueError:  # json.loads on a text that merely mentions the platform's action
            raise RuleError(
                "That move isn't valid JSON.",
                MALFORMED_ACTION,
                {"field": None, "problem": "json_invalid", "detail": ""},
            ) from None

    def dump_action(self, action: Any) -> dict[str, Any]:
        if isinstance(action, Leave):
            return action.model_dump(mode="json")
        return self.action_adapter.dump_python(action, mode="json")

    def parse_options(self, data: Any = None) -> OptT:
        return self.options_model.model_validate(data or {})  # type: ignore[return-value]

    def load_state(self, data: str | bytes | dict[str, Any]) -> S:
        if isinstance(data, dict):
            return self.state_model.model_validate(data)  # type: ignore[return-value]
        return self.state_model.model_validate_json(data)  # type: ignore[return-value]

    def dump_state(self, state: S) -> str:
        return state.model_dump_json()

    # --- rules ----------------------------------------------------------------------------------------

    @abstractmethod
    def setup(self, seats: int, options: OptT, seed: int, now: datetime) -> S:
        """The first state for `seats` players. Raises `RuleError` for a seat count out of range."""

    def setup_events(self, state: S) -> list[Event]:
        """What the table is told when the game starts (e.g. who starts; private events go to their seats only).

        The platform posts them with the start of the game. Default: nothing."""
        return []

    def apply(self, state: S, actor: int | None, action: Any, now: datetime) -> Outcome[S]:
        """Apply one action to a copy of `state`; raise `RuleError` (state untouched) if it is refused.

        `action` is read by `parse_action` first, so `step` only ever sees one of the game's own actions."""
        action = self.parse_action(action)
        if isinstance(action, Leave):
            return self._leave(state, actor, action.seat, now)
        work = self.copy_state(state)
        before = self.rng_state(state)
        events = self.step(work, actor, action, now)
        return Outcome(state=work, events=events, used_randomness=self.rng_state(work) != before)

    def _leave(self, state: S, actor: int | None, seat: int, now: datetime) -> Outcome[S]:
        if actor is not None:
            raise RuleError("Only a moderator can take a player out of the game.")
        if not 0 <= seat < self.seat_count(state):
            raise RuleError(f"There is no seat {seat + 1} in this game.")
        before = self.rng_state(state)
        outcome = self.remove_seat(self.copy_state(state), seat, now)
        if outcome is None:
            raise RuleError("The game cannot go on without that player.")
        used = outcome.used_randomness or self.rng_state(outcome.state) != before
        return Outcome(state=outcome.state, events=outcome.events, used_randomness=used)

    def copy_state(self, state: S) -> S:
        """A private deep copy for `step` to mutate: the game's `parts.copy` (a faster exact copy), else pydantic's."""
        copy = self.parts.copy if self.parts is not None else None
        return copy(state) if copy is not None else state.model_copy(deep=True)

    @abstractmethod
    def step(self, state: S, actor: int | None, action: Any, now: datetime) -> list[Event]:
        """Mutate `state` (already a private copy) by `action`, or raise `RuleError` before changing it."""

    def rng_state(self, state: S) -> int:
        """The random generator's state, to tell whether an action used randomness (the state's `rng`)."""
        return int(state.rng.state)  # type: ignore[attr-defined]

    def view(self, state: S, seat: int | None) -> BaseModel:
        """All that `seat` may know (None: the public table). The only way state leaves the engine."""
        parts = _parts(self, "view")
        return parts.public_view(state) if seat is None else parts.seat_view(state, seat)

    def seat_view(self, state: S, seat: int, public: BaseModel) -> BaseModel:
        """`view(state, seat)`, given `public` = `view(state, None)` of the same state: a game whose seat views
        contain the public view may build on it instead of computing it again for every seat."""
        return self.view(state, seat)

    def legal_actions(self, state: S, seat: int | None) -> list[Any]:
        """What `seat` may do now; None lists the system's actions (timeouts). Free amounts are sampled."""
        return _parts(self, "legal_actions").legal_actions(state, seat)

    def waiting_on(self, state: S) -> list[Wait]:
        """Who the game waits for, for what, until when, and what happens at the deadline."""
        return _parts(self, "waiting_on").waiting_on(state)

    def free_to_act(self, state: S) -> set[int]:
        """Seats that may act now though no wait names them (Kohle, Kies & Knete: everyone in an open negotiation
        round may offer, answer an offer or play a card at any moment). The platform asks seats that play
        themselves among them too, so a computer player can answer an offer made to it. Default: none."""
        return set()

    @abstractmethod
    def result(self, state: S) -> Result | None:
        """Final standings once the game is over, else None."""

    def standings(self, state: S) -> Result:
        """Standings as they are now, for a game a moderator ends early (hidden scores are revealed then).

        Defaults to the final result, or everyone level; games with a running score override it.
        """
        result = self.result(state)
        if result is not None:
            return result
        return rank_by_score(dict.fromkeys(range(self.seat_count(state)), 0), reason="ended early")

    def seat_count(self, state: S) -> int:
        """How many seats the game has (states keep it as `seats` unless a game says otherwise)."""
        return int(state.seats)  # type: ignore[attr-defined]

    def remove_seat(self, state: S, seat: int, now: datetime) -> Outcome[S] | None:
        """The game's rule for a player who leaves mid-game, as an outcome; None when the game cannot go on.

        The default is None: the platform then ends the game and posts the standings so far. It is given a
        private copy of the state (it may change it). The platform reaches it through `apply` with the system
        action `Leave(seat=…)`, so the departure is logged and replays.
        """
        return None


def _parts(game: Game[Any, Any], method: str) -> Parts[Any]:
    """The game's `parts`, for a forwarding method the game doesn't override."""
    if game.parts is None:
        raise NotImplementedError(f"{type(game).__name__} must set `parts` or override `{method}`")
    return game.parts


def _unreadable(exc: ValidationError, title: str) -> RuleError:
    """The game's refusal of an action pydantic couldn't read, from its first error (codes and values for the
    presentation's words; a plain message for everyone else)."""
    errors = exc.errors(include_url=False)
    error = errors[0] if errors else {}
    kind = str(error.get("type", ""))
    ctx = error.get("ctx") or {}
    if kind in ("union_tag_invalid", "union_tag_not_found"):
        moves = [t.strip().strip("'") for t in str(ctx.get("expected_tags", "")).split(",") if t.strip()]
        tag = ctx.get("tag") if kind == "union_tag_invalid" else None
        values = {"move": None if tag is None else str(tag), "moves": moves}
        if tag is None:
            return RuleError(f"That move doesn't say which {title} move it is (its `type`).", UNKNOWN_ACTION, values)
        return RuleError(f"{title} has no move called “{tag}” (its moves: {', '.join(moves)}).", UNKNOWN_ACTION, values)
    # A discriminated union puts the move's tag first ("play", "card", …): the field is the name after it (a key or
    # a position deeper in it says less to a player than the field itself).
    names = [str(p) for p in error.get("loc", ()) if isinstance(p, str)]
    field = names[1] if len(names) > 1 else None
    detail = str(error.get("msg", ""))
    values = {"field": field, "problem": kind, "detail": detail}
    if kind == "json_invalid":
        return RuleError("That move isn't valid JSON.", MALFORMED_ACTION, values)
    if field is None:
        return RuleError(f"That isn't a {title} move.", MALFORMED_ACTION, values)
    return RuleError(f"That {title} move isn't well formed: `{field}`: {detail}.", MALFORMED_ACTION, values)
