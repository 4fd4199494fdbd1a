"""What the service's calls return and how they refuse: plain values, no Discord objects."""

from dataclasses import dataclass, field
from typing import Any, Literal

from engine.errors import RuleError
from storage import (
    MessageRef,
)

ReactionOutcome = Literal["applied", "refused", "stray", "ignored"]


class Refusal(Exception):
    """A request the platform refuses (not a rule of the game): the message is final and shown to the person.

    `outbox_ids` (with `game_id`): what the refusal queued for the table (the game's `action_refused` post), for the
    caller to deliver besides answering the person."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
        self.game_id: int | None = None
        self.outbox_ids: list[int] = []


class RuleRefusal(Refusal):
    """The engine refused the move (`RuleError`): `message` is rendered with the players' names, `rule_message` is
    the engine's own text with seat references (for a presentation that words it itself)."""

    def __init__(self, message: str, rule_message: str, error: "RuleError | None" = None) -> None:
        super().__init__(message)
        self.rule_message = rule_message
        self.error = error
        """The engine's refusal itself (its `code` and `values`), for a presentation that words it again."""


@dataclass(frozen=True)
class Person:
    user_id: int
    name: str


@dataclass
class Done:
    """What a service call did: the game it touched, the outbox rows to deliver and a word for the person."""

    game_id: int
    outbox_ids: list[int] = field(default_factory=list)
    message: str | None = None
    data: Any = None


@dataclass
class Reacted:
    """What became of one reaction on a tracked message (`Play.react`)."""

    outcome: ReactionOutcome
    """applied: its action was committed; refused: the engine refused it (the presentation's answer is queued);
    stray: the presentation says it may not stand (remove it if possible); ignored: it means nothing."""
    done: Done
    reason: str = ""


@dataclass
class Reconciled:
    """One reaction found changed at start-up (`Play.reconcile_reactions`) and what became of it."""

    ref: MessageRef
    user_id: int
    emoji: str
    added: bool
    reacted: Reacted
