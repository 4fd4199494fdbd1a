"""Kohle, Kies & Knete as a `Game`: set-up, and `step` dispatching each action to the module that owns its rule.

After every accepted action the reaction windows nobody is awaited in any more are closed (`windows.settle`), the
action counter moves on, and the current wait's deadline is refreshed (`waits.refresh`). Every handler checks
everything before it changes anything, so a refusal (`RuleError`) leaves the state untouched; `Game.apply` works on a
copy anyway (`copy_state`, a fast exact copy).

Events (`kind`; all public unless marked private; `data` carries seats, families, amounts and offer ids; every event
of a reaction window or last call carries its number as `window` — the number in its wait key "window:N"/"call:N"):
- set-up (`KKK.setup_events`): `setup`, `starting_player`
- turns: `marker_placed`, `turn`, `rolled`, `draw` (+ private `drew` with the cards), `reshuffle`, `piles_empty`,
  `timeout` (a deadline's default is being applied)
- hand limit: `over_limit` (+ private `must_discard`), `discarded` (+ private `you_discarded` with the cards)
- round: `round_opened`, `clan_played`, `pending` (a travel, recruitment or Boss card opens its window; an answering
  Boss card restarts the open one and names it as `previous_window`), `passed`, `always_pass`, `always_pass_off`,
  `stopped` (closes its window), `timeout`; the window's resolution: `on_travel`, `clan_travelled`, `recruited`,
  `boss_changed`, `boss_stays`
- offers (data: `offer` id, parties, terms, `status`, `shaken`, `replaces`, `counters` (the agreement a
  counter-offer replaces if it binds), `proposer`, `by_offer`, `reopened`): `offer`, `shaken`, `unshaken`,
  `agreement` (binding), `withdrawn`, `offer_replaced` (with `replaced_by`), `offer_void`, `offer_reopened` (same
  id, to the new Boss; `previous_boss`); `offers_ended` at the end of a round (`paid` and `dropped` ids, and
  `offers`: each one's terms as above plus `ended`, "paid" or "dropped")
- closing: `last_call`, `last_call_cancelled`, `deal_closed` (these three with the call's `window`), `clans_returned`,
  `discarded_played`, `payout`, `paid`,
  `boss_keeps`, `tile_placed`, `end_roll`, `deal_failed` (followed by `pending_discarded`, with its `window`, for a
  travel card still pending when the Boss fails: it is discarded with the round), `game_over` (reveals everyone's
  money)
"""

from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar, Self

from pydantic import BaseModel, TypeAdapter

from engine.data import replacement
from engine.errors import rule
from engine.events import Event
from engine.game import Game, Parts, Result, rank_by_score
from engine.kkk import actions as A
from engine.kkk import conclusion, effects, handlimit, negotiation, turns, windows
from engine.kkk.data import KkkData, default_data, load_board, load_tiles
from engine.kkk.legal import legal_actions
from engine.kkk.options import KkkOptions
from engine.kkk.state import KkkState, clone
from engine.kkk.views import PublicView, player_view, public_view
from engine.kkk.waits import WINDOWS, refresh, timeout, waiting_on


class KKK(Game[KkkState, KkkOptions]):
    name = "kkk"
    title = "Kohle, Kies & Knete"
    min_seats = 3
    max_seats = 6
    reaction_windows = WINDOWS
    # No `summary`: the engine speaks no language; `/game rules` says the presentation's (`rules_text`).
    state_model: ClassVar[type[BaseModel]] = KkkState
    options_model = KkkOptions
    action_adapter: ClassVar[TypeAdapter[Any]] = A.action_adapter
    parts = Parts(
        public_view=public_view, seat_view=player_view, legal_actions=legal_actions, waiting_on=waiting_on, copy=clone
    )

    data_files: ClassVar[tuple[str, ...]] = ("board.toml", "tiles.toml")

    def __init__(self, data: KkkData | None = None) -> None:
        self.data = data if data is not None else default_data()
        """The board and tiles new games are set up with; a game in progress plays with its own copy (`state.data`)."""

    @classmethod
    def from_data_folder(cls, folder: Path | None) -> Self:
        """KKK with a server owner's `board.toml` and/or `tiles.toml` from `folder`; a file missing there is the
        packaged one. Raises `DataFileError` naming the file and the field."""
        board, tiles = replacement(folder, "board.toml"), replacement(folder, "tiles.toml")
        default = default_data()
        return cls(
            KkkData(
                board=load_board(board) if board is not None else default.board,
                tiles=load_tiles(tiles) if tiles is not None else default.tiles,
            )
        )

    def for_state(self, state: KkkState) -> Self:
        """The game set up with `state`'s own board and tiles (to replay it from set-up after a data file changed)."""
        return self if state.data == self.data else type(self)(state.data)

    # --- set-up -----------------------------------------------------------------------------------------

    def setup(self, seats: int, options: KkkOptions, seed: int, now: datetime) -> KkkState:
        if not self.min_seats <= seats <= self.max_seats:
            raise rule("player_count", low=self.min_seats, high=self.max_seats, seats=seats)
        state = turns.setup(seats, options, seed, self.data)
        refresh(state, now)
        return state

    def setup_events(self, state: KkkState) -> list[Event]:
        """The public announcements of a new game (who owns which investor, who starts, who places the marker)."""
        return turns.setup_events(state)

    # --- actions ----------------------------------------------------------------------------------------

    def step(self, state: KkkState, actor: int | None, action: Any, now: datetime) -> list[Event]:
        if state.phase == "over":
            raise rule("game_over")
        if actor is None:
            if not isinstance(action, A.Timeout):
                raise rule("system_timeouts_only")
            events = timeout(state, action, now)
        else:
            if not 0 <= actor < state.seats:
                raise rule("not_seated")
            handler = _HANDLERS.get(type(action))
            if handler is None:
                raise rule("timer_only")
            events = handler(state, actor, action)
        if not isinstance(action, A.Stop):
            state.stopped_last = False  # "a STOP on a STOP" only right after one
        events += windows.settle(state)
        state.seq += 1
        refresh(state, now)
        return events

    # --- reading ----------------------------------------------------------------------------------------

    def seat_view(self, state: KkkState, seat: int, public: BaseModel) -> BaseModel:
        assert isinstance(public, PublicView)
        return player_view(state, seat, public)

    def free_to_act(self, state: KkkState) -> set[int]:
        """In an open negotiation round (nothing pending, no last call) everyone may act; the Boss is awaited."""
        r = state.round
        if state.phase == "over" or r is None or state.pending or r.last_call is not None:
            return set()
        return set(range(state.seats)) - {r.boss}

    def result(self, state: KkkState) -> Result | None:
        if state.phase != "over":
            return None
        return rank_by_score(dict(enumerate(state.money)))  # the presentation's summary says why it ended

    def standings(self, state: KkkState) -> Result:
        """Money so far, richest first (for a game a moderator ends early; money is revealed then)."""
        return self.result(state) or rank_by_score(dict(enumerate(state.money)))

    # `remove_seat` keeps the platform's default (None: the game ends and `standings` are posted). The rulebook
    # has no rule for a player leaving; an investor and hand without a player would change every later deal.


Handler = Any

_HANDLERS: dict[type, Handler] = {
    A.PlaceMarker: lambda s, a, x: turns.place_marker(s, a, x),
    A.Open: lambda s, a, x: turns.open_deal(s, a),
    A.Roll: lambda s, a, x: turns.roll(s, a),
    A.Draw: lambda s, a, x: turns.draw(s, a),
    A.PlayClan: lambda s, a, x: effects.play_clan(s, a, x),
    A.Offer: lambda s, a, x: negotiation.make_offer(s, a, x),
    A.Withdraw: lambda s, a, x: negotiation.withdraw(s, a, x),
    A.Shake: lambda s, a, x: negotiation.shake(s, a, x),
    A.Unshake: lambda s, a, x: negotiation.unshake(s, a, x),
    A.Travel: lambda s, a, x: effects.play_travel(s, a, x),
    A.Recruit: lambda s, a, x: effects.play_recruit(s, a, x),
    A.Boss: lambda s, a, x: effects.play_boss(s, a),
    A.Stop: lambda s, a, x: effects.play_stop(s, a),
    A.Pass: lambda s, a, x: windows.pass_(s, a),
    A.AlwaysPass: lambda s, a, x: windows.always_pass(s, a, x),
    A.Close: lambda s, a, x: conclusion.close(s, a, x),
    A.CancelClose: lambda s, a, x: conclusion.cancel_close(s, a),
    A.Fail: lambda s, a, x: conclusion.fail(s, a),
    A.Discard: lambda s, a, x: handlimit.discard(s, a, x),
}
