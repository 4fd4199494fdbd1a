"""What a seat (or the public table) may know: the only way a Casablanca state leaves the engine.

Public: the map, where every agent is (or that it was hit), the suitcase and who has carried it, whose turn it is,
the announcement under way, who has answered the objection window (who objected only once it closes), the auctions'
claims, hits with their announced bribes, the variant's HQ owners and face-down sheets, and at the end every sheet.
A seat's own view adds its secrets: capital left, money on each agent, money lost, and its answer in the window.
"""

from pydantic import BaseModel, ConfigDict

from engine.casablanca.state import Announcement, Auction, CasablancaState, HitRecord, Phase
from engine.casablanca.waits import current


class AgentView(BaseModel):
    model_config = ConfigDict(frozen=True)

    index: int
    name: str
    colour: str
    home: str
    at: str | None
    """Its building; None once hit."""
    carries: bool
    carried: bool
    """It has carried the suitcase in a move that took effect."""


class PlayerView(BaseModel):
    model_config = ConfigDict(frozen=True)

    seat: int
    hq: str | None
    face_down: bool
    left: bool


class PublicView(BaseModel):
    model_config = ConfigDict(frozen=True)

    variant: bool
    streets: dict[str, list[str]]
    hqs: list[str]
    bazaar: str
    agents: tuple[AgentView, ...]
    players: tuple[PlayerView, ...]
    suitcase_at: str
    """Where the suitcase is (lying there, or carried by an agent there)."""
    carrier: int | None
    carriers: int
    """How many different agents have carried the suitcase."""
    phase: Phase
    turn: int
    first_turn: bool
    """Main game: the player to move is in their first turn (a bribe of three agents)."""
    objected: bool
    announcement: Announcement | None
    last_announcement: Announcement | None
    verdict: str
    """What became of the last announcement: "" (open), "effect", "stopped" or "off"."""
    asked: tuple[int, ...]
    answered: tuple[int, ...]
    objectors: tuple[int, ...] | None
    """The objectors still to be taken, clockwise (None while the window is open: secret until it closes)."""
    objected_by: tuple[int, ...]
    """Who objected to the current (or last) announcement, clockwise (empty while its window is open)."""
    auctions: tuple[Auction, ...]
    hits: tuple[HitRecord, ...]
    deadline_key: str | None
    winners: tuple[int, ...]
    winner_agent: int | None
    end_reason: str
    sheets: tuple[tuple[int, ...], ...] | None
    """Every seat's bribes on every agent: only once the game is over."""


class SeatView(PublicView):
    seat: int
    capital: int
    bribes: tuple[int, ...]
    lost: int
    my_limit: int | None
    """My objection's limit while it stands (None: no objection from me)."""
    answered_me: bool


def public_view(state: CasablancaState) -> PublicView:
    return PublicView(**_public_fields(state))


def seat_view(state: CasablancaState, seat: int) -> SeatView:
    if not 0 <= seat < state.seats:
        raise ValueError(f"seat {seat} is not in this {state.seats}-player game")
    mine = next((o.limit for o in state.objections if o.seat == seat), None)
    return SeatView(
        **_public_fields(state),
        seat=seat,
        capital=state.capital[seat],
        bribes=tuple(state.bribes[seat]),
        lost=state.lost[seat],
        my_limit=mine,
        answered_me=seat in state.answered,
    )


def _public_fields(state: CasablancaState) -> dict[str, object]:
    owners = {s: hq for hq, s in state.hq_owner.items()}
    cur = current(state)
    return {
        "variant": state.variant,
        "streets": state.streets,
        "hqs": list(state.hqs),
        "bazaar": state.bazaar,
        "agents": tuple(
            AgentView(
                index=i,
                name=a.name,
                colour=a.colour,
                home=a.home,
                at=state.at[i],
                carries=state.carrier == i,
                carried=i in state.carried_by,
            )
            for i, a in enumerate(state.agents)
        ),
        "players": tuple(
            PlayerView(seat=s, hq=owners.get(s), face_down=state.face_down[s], left=not state.playing(s))
            for s in range(state.seats)
        ),
        "suitcase_at": state.suitcase_place(),
        "carrier": state.carrier,
        "carriers": len(state.carried_by),
        "phase": state.phase,
        "turn": state.turn,
        "first_turn": not state.variant and state.phase == "turn" and not state.started[state.turn],
        "objected": state.objected,
        "announcement": state.announcement,
        "last_announcement": state.last_announcement,
        "verdict": state.verdict,
        "asked": tuple(state.awaited),
        "answered": tuple(state.answered),
        "objectors": tuple(o.seat for o in state.objections) if state.phase == "contest" else None,
        "objected_by": tuple(state.objected_by),
        "auctions": tuple(state.auctions),
        "hits": tuple(state.hits),
        "deadline_key": cur.key if cur is not None else None,
        "winners": tuple(state.winners),
        "winner_agent": state.winner_agent,
        "end_reason": state.end_reason,
        "sheets": tuple(tuple(b) for b in state.bribes) if state.phase == "over" else None,
    }
