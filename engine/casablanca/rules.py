"""Casablanca (Eric Solomon, Amigo 1990): the game as the bot plays it — `Casablanca`, the engine interface.

See `docs/rules/casablanca.md`; each rule lives in its own module (`bribes`, `moves`, `objections`, `ending`,
`turns`). Decisions where the specification is silent:

- A withdrawal counts as a successful objection (nothing happens; in the variant the turn ends; the objector doesn't
  lose their turn).
- Answers in the objection window are secret until it closes (the table sees "Anna has answered"), so an early
  objection can't sway the others; a player may change their answer (or, queued behind another objector, their
  limit) until their auction runs, and once it has closed an objector may drop out until their auction starts
  (`objections.drop`).
- An objector's limit may be $0 (a bluff): the bot then passes at once for them.
- After a successful objection in the main game the player gets a fresh turn deadline; at it the turn passes.
- In the variant, face-down sheets are not asked (they may not object); a player whose turn comes while their sheet is
  face down has it turned up by the bot at once. If nobody can be asked, the announcement takes effect at once.
- The variant's HQs are chosen in seat order (seat 1 first; the last free HQ goes to the last chooser by itself), or
  dealt at random with `deal_hqs`. `first_seat` is for the main game only.
- An agent may move into any building, the suitcase can be taken from an agent in the same building, and a move that
  leaves the suitcase behind says so. Agents hit are out; bribing them is refused.
- A player who leaves (`remove_seat`): their bribes stay on the agents and count for nobody (they can't win; the
  standings put them last); in the variant their HQ becomes an ordinary building. An announcement of theirs is off;
  an objection of theirs is dropped. With one player left the game cannot go on.
- Standings of a game ended early: main game, each player's money on the agents still in the game; variant, level.
- The bot's auction climbs in $100 steps from $100: the objector claims, the active player matches while their limit
  allows, the objector raises while theirs does. So the rulebook's example (B $100, A matches, B $200, A matches,
  B $500, A passes) is played as B $100 … B $300 with A passing at $300 when A's limit is $200: the claims reveal the
  smaller limit, plus $100, and never more. A pass claims nothing.
- The variant's HQ choice waits a turn deadline; its default is a free HQ drawn at random.
"""

from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar, Self

from pydantic import BaseModel, TypeAdapter

from engine.casablanca import bribes, ending, legal, objections, turns, waits
from engine.casablanca.actions import (
    ACTION_ADAPTER,
    Bribe,
    ChooseHq,
    Contest,
    DropObjection,
    EndTurn,
    Hit,
    Move,
    NoObjection,
    Object,
    Timeout,
    Withdraw,
)
from engine.casablanca.board import MapData, default_map, load_map
from engine.casablanca.moves import why_not_hit, why_not_move
from engine.casablanca.options import CasablancaOptions
from engine.casablanca.state import START_CAPITAL, Announcement, CasablancaState, clone
from engine.casablanca.views import public_view, seat_view
from engine.casablanca.words import agent_index, building
from engine.data import replacement
from engine.errors import refuse, rule
from engine.events import Event, public
from engine.game import Game, Outcome, Parts, Result
from engine.rng import Rng

MIN_PLAYERS = 2
MAX_PLAYERS = 8
VARIANT_MAX = 4


class Casablanca(Game[CasablancaState, CasablancaOptions]):
    name: ClassVar[str] = "casablanca"
    title: ClassVar[str] = "Casablanca"
    min_seats: ClassVar[int] = MIN_PLAYERS
    max_seats: ClassVar[int] = MAX_PLAYERS
    reaction_windows = waits.WINDOWS
    state_model: ClassVar[type[BaseModel]] = CasablancaState
    options_model: ClassVar[type[CasablancaOptions]] = CasablancaOptions
    action_adapter: ClassVar[TypeAdapter[Any]] = ACTION_ADAPTER
    data_files: ClassVar[tuple[str, ...]] = ("map.toml",)
    parts = Parts(public_view, seat_view, legal.legal_actions, waits.waiting_on, copy=clone)

    def __init__(self, map_data: MapData | None = None) -> None:
        self.map = map_data if map_data is not None else default_map()

    @classmethod
    def from_data_folder(cls, folder: Path | None) -> Self:
        """Casablanca with a server owner's `map.toml` from `folder` (else the packaged map); `DataFileError` names
        the file and the field."""
        found = replacement(folder, "map.toml")
        return cls(load_map(found) if found is not None else None)

    def for_state(self, state: CasablancaState) -> Self:
        """The game whose map gives `state`'s map at set-up (to replay it after the map file changed)."""
        kept = MapData(bazaar=state.bazaar, hqs=list(state.hqs), streets=state.streets, agents=list(state.agents))
        return self if kept == self.map else type(self)(kept)

    def seat_range(self, options: CasablancaOptions) -> tuple[int, int]:
        """The main game is for 2–8 players, the HQ variant for 2–4 (checked at `/game new` and at set-up)."""
        return MIN_PLAYERS, VARIANT_MAX if options.variant == "hq" else MAX_PLAYERS

    # --- set-up ---------------------------------------------------------------------------------------

    def setup(self, seats: int, options: CasablancaOptions, seed: int, now: datetime) -> CasablancaState:
        variant = options.variant == "hq"
        top = VARIANT_MAX if variant else MAX_PLAYERS
        if not MIN_PLAYERS <= seats <= top:
            raise rule("player_count", variant=variant, least=MIN_PLAYERS, most=top, count=seats)
        if variant and options.first_seat is not None:
            raise rule("variant_first_seat")
        if options.first_seat is not None and options.first_seat >= seats:
            raise rule("first_seat_range", seats=seats)
        m = self.map
        rng = Rng.from_seed(seed)
        state = CasablancaState(
            options=options,
            seats=seats,
            streets={k: list(v) for k, v in m.streets.items()},
            hqs=list(m.hqs),
            bazaar=m.bazaar,
            agents=list(m.agents),
            face_down=[False] * seats,
            capital=[START_CAPITAL] * seats,
            bribes=[[0] * len(m.agents) for _ in range(seats)],
            lost=[0] * seats,
            started=[False] * seats,
            at=[a.home for a in m.agents],
            suitcase=m.bazaar,
            rng=rng,
        )
        if variant:
            state.phase = "hq"
            if options.deal_hqs:
                dealt = rng.sample(state.hqs, seats)
                state.hq_owner = {hq: s for s, hq in enumerate(dealt)}
                turns.begin_variant(state)
            else:
                state.turn = 0
        else:
            state.first = options.first_seat if options.first_seat is not None else rng.below(seats)
            turns.start_turn(state, state.first)
        waits.refresh(state, now)
        return state

    def setup_events(self, state: CasablancaState) -> list[Event]:
        if state.phase == "hq":
            return [public("choose_hq", seat=state.turn)]
        events: list[Event] = []
        if state.variant:
            events.append(public("hqs", owners=dict(state.hq_owner)))
        first = not state.variant
        events.append(public("turn", seat=state.turn, first=first, variant=state.variant, begins=True))
        return events

    # --- apply ----------------------------------------------------------------------------------------

    def step(self, state: CasablancaState, actor: int | None, action: Any, now: datetime) -> list[Event]:
        if state.phase == "over":
            raise rule("game_over")
        if isinstance(action, Timeout):
            if actor is not None:
                raise rule("clock_only")
            events = self._timeout(state, action.key, now)
        else:
            if actor is None:
                raise rule("clock_deadlines_only")
            if not 0 <= actor < state.seats or not state.playing(actor):
                raise rule("not_playing")
            events = self._act(state, actor, action)
        waits.refresh(state, now)
        return events

    def _act(self, state: CasablancaState, actor: int, action: Any) -> list[Event]:
        match action:
            case ChooseHq():
                return self._choose_hq(state, actor, action.hq)
            case Bribe():
                self._my_turn(state, actor, "bribe")
                chosen = bribes.parse(state, action.amounts)
                refuse(bribes.why_not(state, actor, chosen))
                return bribes.bribe(state, actor, chosen) + turns.end_turn(state)
            case Move():
                self._my_turn(state, actor, "move")
                agent = agent_index(state, action.agent)
                to = building(state, action.to)
                refuse(why_not_move(state, actor, agent, to, action.suitcase))
                source = state.at[agent]
                assert source is not None
                no = state.announcements + 1
                ann = Announcement(
                    no=no, kind="move", seat=actor, agent=agent, source=source, to=to, suitcase=action.suitcase
                )
                return objections.open_window(state, ann)
            case Hit():
                self._my_turn(state, actor, "hit")
                agent, victim = agent_index(state, action.agent), agent_index(state, action.victim)
                refuse(why_not_hit(state, actor, agent, victim))
                where = state.at[agent]
                assert where is not None
                no = state.announcements + 1
                ann = Announcement(no=no, kind="hit", seat=actor, agent=agent, source=where, victim=victim)
                return objections.open_window(state, ann)
            case Object():
                return objections.object_(state, actor, action.limit)
            case NoObjection():
                return objections.no_objection(state, actor)
            case DropObjection():
                return objections.drop(state, actor)
            case Contest():
                return objections.contest(state, actor, action.limit)
            case Withdraw():
                return objections.withdraw(state, actor)
            case EndTurn():
                return self._end_turn(state, actor)
        raise rule("not_a_move")

    def _my_turn(self, state: CasablancaState, actor: int, doing: str) -> None:
        """The player may bribe, move or hit now; otherwise say why (naming the rule a repeat would break)."""
        if state.phase == "hq":
            raise rule("choose_hq_first", seat=state.turn)
        if state.phase in ("objections", "contest"):
            ann = state.announcement
            assert ann is not None
            if ann.seat == actor:
                raise rule("announced_already")
            raise rule("waiting_for_objections", seat=ann.seat)
        if actor != state.turn:
            deed = state.last_deed
            if deed is not None and deed.seat == actor and doing in ("move", "hit"):
                if deed.kind == "hit" and doing == "hit":
                    raise rule("one_hit_per_turn")
                raise rule("separate_turns", deed=deed.kind)
            raise rule("not_your_turn", seat=state.turn)
        if doing != "bribe" and bribes.first_turn(state, actor):
            raise rule("first_turn_bribe", least=bribes.FIRST_TURN_AGENTS)

    def _choose_hq(self, state: CasablancaState, actor: int, text: str) -> list[Event]:
        if state.phase != "hq":
            raise rule("hqs_chosen")
        if actor != state.turn:
            raise rule("not_your_hq_turn", seat=state.turn)
        hq = building(state, text)
        if hq not in state.hqs:
            raise rule("not_an_hq", building=hq, free=turns.free_hqs(state))
        if hq in state.hq_owner:
            raise rule("hq_taken", hq=hq, seat=state.hq_owner[hq])
        return turns.give_hq(state, actor, hq)

    def _end_turn(self, state: CasablancaState, actor: int) -> list[Event]:
        if state.phase != "turn" or actor != state.turn:
            raise rule("not_your_turn", seat=state.turn) if actor != state.turn else rule("cannot_end_now")
        if not state.objected:
            raise rule("end_turn_needs_objection")
        return [public("turn_ended", seat=actor), *turns.end_turn(state)]

    def _timeout(self, state: CasablancaState, key: str, now: datetime) -> list[Event]:
        cur = waits.current(state)
        due = state.deadline
        if cur is None or due is None or cur.key != key or due.key != key:
            raise rule("stale_deadline")
        if now < due.until:
            raise rule("deadline_not_due")
        match state.phase:
            case "hq":
                hq = state.rng.choice(turns.free_hqs(state))
                lead = public("timeout", seat=state.turn, what="hq")
                return [lead, *turns.give_hq(state, state.turn, hq)]
            case "turn":
                seat = state.turn
                if bribes.first_turn(state, seat):
                    chosen = bribes.default_first_bribe(state)
                    return bribes.bribe(state, seat, chosen, by_default=True) + turns.end_turn(state)
                lead = public("timeout", seat=seat, what="turn")
                return [lead, *turns.end_turn(state)]
            case "objections":
                return objections.close_window(state)
            case "contest":
                ann = state.announcement
                assert ann is not None
                limit = state.bribes[ann.seat][ann.agent]
                return objections.contest(state, ann.seat, limit, by_default=True)
        raise AssertionError(f"no timeout in phase {state.phase}")

    # --- queries --------------------------------------------------------------------------------------

    def result(self, state: CasablancaState) -> Result | None:
        return ending.result(state)

    def standings(self, state: CasablancaState) -> Result:
        return ending.standings(state)

    # --- a player leaves ------------------------------------------------------------------------------

    def remove_seat(self, state: CasablancaState, seat: int, now: datetime) -> Outcome[CasablancaState] | None:
        """A player leaves mid-game (see the module docstring); None when only one player would be left."""
        if state.phase == "over":
            raise rule("game_over")
        if not state.playing(seat):
            raise rule("already_left", seat=seat)
        if state.seats - len(state.left) - 1 < MIN_PLAYERS:
            return None
        state.left.append(seat)
        state.face_down[seat] = False
        hq = next((h for h, s in state.hq_owner.items() if s == seat), None) if state.variant else None
        if hq is not None:
            del state.hq_owner[hq]
        events: list[Event] = [public("left", seat=seat, hq=hq)]
        ann = state.announcement
        match state.phase:
            case "hq":
                if seat == state.turn:
                    nxt = turns.next_chooser(state)
                    if nxt is None:
                        events += turns.begin_variant(state)
                    else:
                        state.turn = nxt
                        events.append(public("choose_hq", seat=nxt))
            case "turn" if seat == state.turn:
                events += turns.end_turn(state)
            case "objections" | "contest" if ann is not None and ann.seat == seat:
                state.announcement = None
                state.verdict = "off"
                events.append(public("undone", seat=seat, how="off"))
                events += turns.end_turn(state)
            case "objections" if seat in state.awaited:
                state.awaited.remove(seat)
                state.objections = [o for o in state.objections if o.seat != seat]
                if seat in state.answered:
                    state.answered.remove(seat)
                if all(s in state.answered for s in state.awaited):
                    events += objections.close_window(state)
            case "contest":
                taken = state.objections[0].seat == seat
                state.objections = [o for o in state.objections if o.seat != seat]
                if taken:
                    events += objections.next_objection(state)
        state.last_deed = None if state.last_deed and state.last_deed.seat == seat else state.last_deed
        waits.refresh(state, now)
        return Outcome(state=state, events=events)
