"""Schwarzmarkt (Stefan Dorra, Amigo 1996): the game, tying its rules together.

See `docs/rules/schwarzmarkt.md`; each rule lives in its own module (`playing`, `trading`, `eventcards`, `rounds`,
`leaving`), whose docstrings list the decisions taken where the specification is silent. Here:
- The dealer is `options.dealer`, else drawn at random; the player to the dealer's left (the next seat) starts.
- Deadlines (see `waits`): the starter's card and the events' choices have the shared `turn_deadline`; a trading
  turn has the game's own `trade_hours` (default 12). A `Timeout` carries its wait's key and is refused once stale;
  an event's default is drawn from public facts only (`defaults`).
- Standings (`result` after the second game round, `standings` for a game ended early): luxury goods, richest first;
  equal totals share; players who left come after everyone still playing.
"""

from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar, Self

from pydantic import BaseModel, TypeAdapter

from engine.data import replacement
from engine.errors import rule
from engine.events import Event
from engine.game import Game, Outcome, Parts, Result, Standing, rank_by_score
from engine.rng import Rng
from engine.schwarzmarkt import defaults, eventcards, leaving, legal, playing, trading, waits
from engine.schwarzmarkt.actions import ACTION_ADAPTER, Give, Pick, Play, Target, Timeout, Trade
from engine.schwarzmarkt.market import (
    GOODS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Market,
    Space,
    cards_of,
    default_market,
    load_market,
)
from engine.schwarzmarkt.options import SchwarzmarktOptions
from engine.schwarzmarkt.rounds import draw_goods
from engine.schwarzmarkt.state import SchwarzmarktState, clone
from engine.schwarzmarkt.turns import start_play
from engine.schwarzmarkt.views import public_view, seat_view


class Schwarzmarkt(Game[SchwarzmarktState, SchwarzmarktOptions]):
    name: ClassVar[str] = "schwarzmarkt"
    title: ClassVar[str] = "Schwarzmarkt"
    min_seats: ClassVar[int] = MIN_PLAYERS
    max_seats: ClassVar[int] = MAX_PLAYERS
    uses_reaction_time: ClassVar[bool] = False
    state_model: ClassVar[type[BaseModel]] = SchwarzmarktState
    options_model: ClassVar[type[SchwarzmarktOptions]] = SchwarzmarktOptions
    action_adapter: ClassVar[TypeAdapter[Any]] = ACTION_ADAPTER
    data_files: ClassVar[tuple[str, ...]] = ("market.toml",)
    parts = Parts(public_view, seat_view, legal.legal_actions, waits.waiting_on, copy=clone)

    def __init__(self, market: Market | None = None) -> None:
        self.market = market if market is not None else default_market()

    @classmethod
    def from_data_folder(cls, folder: Path | None) -> Self:
        """Schwarzmarkt with a server owner's `market.toml` from `folder` (else the packaged one). Raises
        `DataFileError` naming the file and the field. The data is copied into each game at set-up."""
        path = replacement(folder, "market.toml")
        return cls(load_market(path) if path is not None else None)

    def for_state(self, state: SchwarzmarktState) -> Self:
        """The game whose data gives `state`'s numbers at set-up (to replay it after the data file changed)."""
        offers = [{g: n for g, n in zip(GOODS, c.wants, strict=True) if n} for c in state.cards if c.event is None]
        events: dict[str, int] = {}
        for c in state.cards:
            if c.event is not None:
                events[c.event] = events.get(c.event, 0) + 1
        market = self.market.model_copy(
            update={
                "track": [Space(price=s.price, die=s.die) for s in state.track],
                "limit_space": state.limit_space,
                "hand_size": state.hand_size,
                "black_market_hand": state.black_market_hand,
                "goods": dict(zip(GOODS, state.goods_counts, strict=True)),
                "quick_deal": state.quick_deal,
                "new_goods_cost": state.new_goods_cost,
                "offers": offers,
                "events": events,
            }
        )
        return self if market == self.market else type(self)(market)

    # --- set-up ---------------------------------------------------------------------------------------

    def setup(self, seats: int, options: SchwarzmarktOptions, seed: int, now: datetime) -> SchwarzmarktState:
        if not MIN_PLAYERS <= seats <= MAX_PLAYERS:
            raise rule("player_count", low=MIN_PLAYERS, high=MAX_PLAYERS, seats=seats)
        rng = Rng.from_seed(seed)
        if options.dealer is None:
            dealer = rng.below(seats)
        elif options.dealer < seats:
            dealer = options.dealer
        else:
            raise rule("dealer_not_seated", seats=seats)
        m = self.market
        cards = cards_of(m)
        pile = [c.id for c in cards]
        rng.shuffle(pile)
        hands = [pile[i * m.black_market_hand : (i + 1) * m.black_market_hand] for i in range(seats)]
        pile = pile[seats * m.black_market_hand :]
        state = SchwarzmarktState(
            options=options,
            seats=seats,
            track=list(m.track),
            limit_space=m.limit_space,
            hand_size=m.hand_size,
            black_market_hand=m.black_market_hand,
            goods_counts=[m.goods[g] for g in GOODS],
            quick_deal=m.quick_deal,
            new_goods_cost=m.new_goods_cost,
            cards=cards,
            starter=(dealer + 1) % seats,
            turn=(dealer + 1) % seats,
            goods=[[0] * len(GOODS) for _ in range(seats)],
            goods_pile=[m.goods[g] for g in GOODS],
            black_market=hands,
            black_pile=pile,
            luxury=[0] * seats,
            end_space=len(m.track),
            since=now,
            rng=rng,
        )
        for seat in range(seats):
            draw_goods(state, seat, m.hand_size)
        start_play(state, state.starter, now)
        return state

    def setup_events(self, state: SchwarzmarktState) -> list[Event]:
        """The deal: `dealer`, the cards each player got (`hand_size`, `black_market_hand`), and the first starter."""
        dealer = (state.starter - 1) % state.seats
        data = {
            "seat": state.starter,
            "dealer": dealer,
            "hand_size": state.hand_size,
            "black_market_hand": state.black_market_hand,
        }
        return [Event(kind="starter", data=data)]

    # --- apply ----------------------------------------------------------------------------------------

    def step(self, state: SchwarzmarktState, actor: int | None, action: Any, now: datetime) -> list[Event]:
        if state.phase == "over":
            raise rule("game_over")
        if isinstance(action, Timeout):
            if actor is not None:
                raise rule("clock_only")
            return self._timeout(state, action.key, now)
        if actor is None:
            raise rule("clock_deadlines_only")
        if not 0 <= actor < state.seats or not state.playing(actor):
            raise rule("not_playing")
        match action:
            case Play():
                if state.phase != "play" or actor != state.turn:
                    raise rule("cannot_play_now", **self._waiting(state))
                return playing.play(state, actor, action.card, now, by_default=False)
            case Trade():
                if state.phase != "trade":
                    raise rule("no_trading_round", **self._waiting(state))
                if actor != state.turn:
                    raise rule("not_your_trading_turn", seat=state.turn)
                return trading.trade(state, actor, action.cards, action.move, now, by_default=False)
            case Target():
                return eventcards.choose_target(state, actor, action.seat, now)
            case Pick():
                return eventcards.pick(state, actor, action.good, now)
            case Give():
                return eventcards.give(state, actor, tuple(action.cards), now)
        raise rule("not_a_move")

    def _timeout(self, state: SchwarzmarktState, key: str, now: datetime) -> list[Event]:
        due = next((d for d in waits.pending(state) if d.key == key), None)
        if due is None:
            raise rule("stale_deadline")
        seat = due.seat
        match due.what:
            case "play":
                card = state.rng.choice(state.black_market[seat])
                return playing.play(state, seat, card, now, by_default=True)
            case "trade" | "last_call":
                return trading.trade(state, seat, (), 0 if state.last_call else 1, now, by_default=True)
            case "event":
                choice = defaults.event_default(state)
                match choice:
                    case Target():
                        return eventcards.choose_target(state, seat, choice.seat, now, by_default=True)
                    case Pick():
                        return eventcards.pick(state, seat, choice.good, now, by_default=True)
                    case Give():
                        return eventcards.give(state, seat, choice.cards, now, by_default=True)
        raise AssertionError(f"unknown wait {due.what}")

    def _waiting(self, state: SchwarzmarktState) -> dict[str, Any]:
        """What the game waits for, as a refusal's values (public knowledge only): the `phase`, the awaited `seat`,
        and during an event its `event` kind."""
        p = state.pending
        event = p.kind if state.phase == "event" and p is not None else None
        seat = p.chooser if event is not None and p is not None else state.turn
        return {"phase": state.phase, "seat": seat, "event": event}

    # --- queries --------------------------------------------------------------------------------------

    def result(self, state: SchwarzmarktState) -> Result | None:
        if state.phase != "over":
            return None
        return _ranked(state)

    def standings(self, state: SchwarzmarktState) -> Result:
        return self.result(state) or _ranked(state)

    def remove_seat(self, state: SchwarzmarktState, seat: int, now: datetime) -> Outcome[SchwarzmarktState] | None:
        events = leaving.remove_seat(state, seat, now)
        return None if events is None else Outcome(state=state, events=events)


def _ranked(state: SchwarzmarktState) -> Result:
    """Luxury goods, richest first; players who left after everyone still playing. No `reason` words: the
    presentation says why (the engine speaks no language)."""
    playing_now = rank_by_score({s: state.luxury[s] for s in range(state.seats) if state.playing(s)})
    standings = list(playing_now.standings)
    gone = rank_by_score({s: state.luxury[s] for s in state.left})
    standings += [Standing(seat=g.seat, score=g.score, rank=len(standings) + g.rank) for g in gone.standings]
    return Result(standings=tuple(standings))
