"""The whole state of a Casablanca game: one pydantic model, JSON round-trippable, random generator included.

The map and the agents are copied in at set-up, so a stored game keeps its map if the data file changes later.

Phases: `hq` (variant only: players choose their HQs in seat order) → `turn` (the player to move bribes, or announces
a move or a hit) → `objections` (every other player may object, all at once) → `contest` (for each objector in turn,
clockwise: the active player contests or withdraws; a contest runs the auction at once) → back to `turn` (next
player, or the same one after a successful objection in the main game) … `over`.

Secrets: `capital`, `bribes`, `lost` and the objections' limits (and, until the window closes, who objected).
"""

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from engine.casablanca.board import AgentData
from engine.casablanca.options import CasablancaOptions
from engine.rng import Rng

Phase = Literal["hq", "turn", "objections", "contest", "over"]

START_CAPITAL = 10_000
STEP = 100
HIT_COST = 1_000


class Announcement(BaseModel):
    """A move or a hit announced and not yet in effect."""

    no: int
    """The game's announcement number (names its objection window and its auction message)."""
    kind: Literal["move", "hit"]
    seat: int
    agent: int
    """The acting agent: the one moving, or the hitter."""
    source: str
    """The building the agent stands in."""
    to: str | None = None
    suitcase: bool = False
    """A move that takes the suitcase along."""
    victim: int | None = None
    behind: bool = False
    """A move that leaves the suitcase behind (it lay in the source, or the agent carried it): the table is told."""
    said: str = ""
    """No longer written (the engine speaks no language; the bot words an announcement from its fields); kept so
    stored games still load."""

    def same_as(self, other: "Announcement") -> bool:
        """The same agent to the same place (taking the suitcase along or not), or the same hit: what may not be
        announced again after an objection stopped it."""
        return (self.kind, self.agent, self.to, self.victim) == (other.kind, other.agent, other.to, other.victim)


class Objection(BaseModel):
    seat: int
    limit: int
    """The most the objector lets the bot claim for them (a multiple of $100, at most their bribe)."""


Ending = Literal["no_opening", "active_passed", "objector_passed", "withdrawn"]


class Auction(BaseModel):
    """One objection taken: withdrawn, or the claims of its auction. Kept small: the claims follow from `top`."""

    objector: int
    ending: Ending
    top: int = 0
    """The highest claim: the objector's last (when the active player passed) or the last one matched."""

    @property
    def succeeded(self) -> bool:
        return self.ending in ("active_passed", "withdrawn")

    def claims(self, active: int) -> list[tuple[int, str, int]]:
        """The claims as a live table would have heard them: (seat, "claim" | "match" | "pass", amount); a pass
        claims nothing (amount 0)."""
        out: list[tuple[int, str, int]] = []
        if self.ending == "withdrawn":
            return out
        if self.ending == "no_opening":
            return [(self.objector, "pass", 0)]
        last = self.top if self.ending == "objector_passed" else self.top - STEP
        for amount in range(STEP, last + 1, STEP):
            out += [(self.objector, "claim", amount), (active, "match", amount)]
        if self.ending == "active_passed":
            out += [(self.objector, "claim", self.top), (active, "pass", 0)]
        else:
            out.append((self.objector, "pass", 0))
        return out


class HitRecord(BaseModel):
    """A hit that took effect: the announcement of every player's (now lost) bribe on the victim is public."""

    seat: int
    hitter: int
    victim: int
    where: str
    amounts: list[int]
    """Each seat's bribe on the victim, as announced."""


class Deadline(BaseModel):
    key: str
    since: datetime
    until: datetime


class LastDeed(BaseModel):
    """The move or hit that just ended a player's turn, for a refusal that names the rule it breaks."""

    seat: int
    kind: Literal["move", "hit"]


class CasablancaState(BaseModel):
    options: CasablancaOptions
    seats: int
    streets: dict[str, list[str]]
    hqs: list[str]
    bazaar: str
    agents: list[AgentData]

    phase: Phase = "turn"
    first: int = 0
    turn: int = 0
    turn_no: int = 0
    """Turns begun so far (part of the turn deadline's key)."""
    hq_owner: dict[str, int] = Field(default_factory=dict)
    """Variant: HQ → its owner's seat. An HQ nobody owns is an ordinary building."""
    face_down: list[bool]
    """Variant: a seat that lost an objection lies face down until its next turn (which is only turning it up)."""

    capital: list[int]
    bribes: list[list[int]]
    """bribes[seat][agent]: money on each agent."""
    lost: list[int]
    """Money each seat lost: bribes on hit agents and $1,000 per hit."""
    started: list[bool]
    """Main game: the seat has had its first turn (the compulsory bribe of three agents)."""

    at: list[str | None]
    """Each agent's building; None once it has been hit."""
    suitcase: str | None
    """The building where the suitcase lies, or None while an agent carries it."""
    carrier: int | None = None
    carried_by: list[int] = Field(default_factory=list)
    """Agents that have carried the suitcase in a move that took effect, first first."""

    announcements: int = 0
    announcement: Announcement | None = None
    last_announcement: Announcement | None = None
    """The most recent announcement, kept after it was resolved (for the table's record of it)."""
    verdict: Literal["", "effect", "stopped", "off"] = ""
    """What became of `last_announcement`: still open (""), took effect, stopped by an objection, or called off
    (its player left)."""
    awaited: list[int] = Field(default_factory=list)
    """Seats asked in the objection window (all at once); `answered` those who did."""
    answered: list[int] = Field(default_factory=list)
    objections: list[Objection] = Field(default_factory=list)
    """Secret while the window is open; once it closes, the objectors still to be taken, clockwise."""
    objected_by: list[int] = Field(default_factory=list)
    """Who objected to the current (or last) announcement, clockwise: public once its window closed."""
    auctions: list[Auction] = Field(default_factory=list)
    """The objections taken against the current (or last) announcement."""
    defeated: list[Announcement] = Field(default_factory=list)
    """Main game: this turn's announcements that an objection defeated (they may not be announced again)."""
    objected: bool = False
    """Main game: an objection succeeded this turn, so the player may not bribe any more."""
    last_deed: LastDeed | None = None
    hits: list[HitRecord] = Field(default_factory=list)

    winner_agent: int | None = None
    winners: list[int] = Field(default_factory=list)
    end_reason: str = ""
    left: list[int] = Field(default_factory=list)
    deadline: Deadline | None = None
    rng: Rng

    @property
    def variant(self) -> bool:
        return self.options.variant == "hq"

    def playing(self, seat: int) -> bool:
        return seat not in self.left

    def next_seat(self, seat: int) -> int:
        """The next seat clockwise that is still playing."""
        for step in range(1, self.seats + 1):
            nxt = (seat + step) % self.seats
            if nxt not in self.left:
                return nxt
        return seat

    def clockwise_from(self, seat: int) -> list[int]:
        """The other playing seats, clockwise from `seat`'s left."""
        return [(seat + k) % self.seats for k in range(1, self.seats) if (seat + k) % self.seats not in self.left]

    def in_game(self) -> list[int]:
        """The agents not yet hit."""
        return [a for a, where in enumerate(self.at) if where is not None]

    def suitcase_place(self) -> str:
        """Where the suitcase is: the building it lies in, or its carrier's building."""
        if self.carrier is not None:
            where = self.at[self.carrier]
            assert where is not None
            return where
        assert self.suitcase is not None
        return self.suitcase

    def name(self, agent: int) -> str:
        return self.agents[agent].name

    def owner(self, building: str) -> int | None:
        return self.hq_owner.get(building)


def clone(state: CasablancaState) -> CasablancaState:
    """An exact copy for `step` to mutate, much faster than a deep `model_copy`: the rules replace nested models
    rather than change them, so only the containers they change (and the generator) are copied; the map, the agents
    and the options are never changed and are shared."""
    new = state.model_copy()
    new.__dict__.update(
        face_down=list(state.face_down),
        capital=list(state.capital),
        bribes=[list(row) for row in state.bribes],
        lost=list(state.lost),
        started=list(state.started),
        at=list(state.at),
        carried_by=list(state.carried_by),
        hq_owner=dict(state.hq_owner),
        awaited=list(state.awaited),
        answered=list(state.answered),
        objections=list(state.objections),
        auctions=list(state.auctions),
        objected_by=list(state.objected_by),
        defeated=list(state.defeated),
        hits=list(state.hits),
        winners=list(state.winners),
        left=list(state.left),
        rng=Rng(state=state.rng.state),
    )
    return new
