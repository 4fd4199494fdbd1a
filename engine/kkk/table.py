"""Low-level moves on the table shared by the rule modules: seats, hands, piles, the marker, the die.

Helpers named `check_*` only look and raise `RuleError`; every other helper changes the state and must be called
only after all checks of an action have passed (so a refused action leaves nothing half-done).
"""

from bisect import insort

from pydantic import JsonValue

from engine.errors import rule
from engine.events import Event, private, public
from engine.kkk.cards import DRAW_COUNT, HAND_LIMIT
from engine.kkk.data import Space, Tile
from engine.kkk.state import Effect, KkkState

NO_SUCH_PLAYER = "no_such_player"
"""The refusal code of a seat number that is no seat of the table."""


def left(state: KkkState, s: int) -> int:
    """The next seat: "left" in the rulebook."""
    return (s + 1) % state.seats


def right(state: KkkState, s: int) -> int:
    return (s - 1) % state.seats


def others(state: KkkState, s: int) -> list[int]:
    return [x for x in range(state.seats) if x != s]


# --- hands --------------------------------------------------------------------------------------------


def check_holds(state: KkkState, s: int, code: str, count: int = 1) -> None:
    """Refuse unless seat `s` holds `count` copies of `code` (the message goes to `s` only)."""
    held = state.hands[s].count(code)
    if held < count:
        if count == 1:
            raise rule("not_held", card=code)
        raise rule("not_enough_cards", card=code, count=count, held=held)


def take(state: KkkState, s: int, code: str, count: int = 1) -> list[str]:
    hand = state.hands[s]
    for _ in range(count):
        hand.remove(code)
    return [code] * count


def give(state: KkkState, s: int, codes: list[str]) -> None:
    hand = state.hands[s]
    for code in codes:
        insort(hand, code)


def over_limit(state: KkkState) -> int | None:
    """The seat holding more than 12 influence cards, if any (only a draw can cause it, so at most one)."""
    for s, hand in enumerate(state.hands):
        if len(hand) > HAND_LIMIT:
            return s
    return None


def check_nobody_over_limit(state: KkkState, actor: int) -> None:
    s = over_limit(state)
    if s is not None:
        if s == actor:
            raise rule("over_hand_limit", limit=HAND_LIMIT, extra=len(state.hands[s]) - HAND_LIMIT)
        raise rule("waiting_for_discard", seat=s, limit=HAND_LIMIT)


# --- piles --------------------------------------------------------------------------------------------


def draw_cards(state: KkkState, s: int, count: int = DRAW_COUNT) -> list[Event]:
    """Seat `s` draws up to `count` cards, reshuffling the discard pile when the draw pile runs out."""
    events: list[Event] = []
    drawn: list[str] = []
    for _ in range(count):
        if not state.draw:
            if not state.discard:
                events.append(public("piles_empty"))
                break
            state.draw = state.discard
            state.discard = []
            state.rng.shuffle(state.draw)
            events.append(public("reshuffle", count=len(state.draw)))
        drawn.append(state.draw.pop())
    give(state, s, drawn)
    if drawn:
        events.insert(0, public("draw", seat=s, count=len(drawn)))
        events.insert(1, private(s, "drew", cards=list(drawn)))
    return events


def to_discard(state: KkkState, codes: list[str]) -> None:
    state.discard.extend(codes)


# --- board --------------------------------------------------------------------------------------------


def free(state: KkkState, number: int) -> bool:
    return state.tiles[number - 1] is None


def next_free(state: KkkState, number: int, steps: int = 1) -> int:
    """The space `steps` free spaces clockwise from `number`, skipping spaces with a deal tile."""
    n = len(state.tiles)
    pos = number
    for _ in range(steps):
        for _ in range(n):
            pos = pos % n + 1
            if free(state, pos):
                break
    return pos


def current_tile(state: KkkState) -> Tile | None:
    """The tile that fixes the value of the next concluded deal (None once all are used)."""
    if state.deals >= len(state.data.tiles.tiles):
        return None
    return state.data.tile(state.deals + 1)


def round_space(state: KkkState) -> Space:
    assert state.round is not None
    return state.data.space(state.round.space)


def payout(state: KkkState) -> int:
    """What the bank pays the Boss for the deal of the open round."""
    tile = current_tile(state)
    return round_space(state).dividends * (tile.value if tile else 0)


def dividend_value(state: KkkState) -> int:
    tile = current_tile(state)
    return tile.value if tile else 0


def roll_die(state: KkkState) -> int:
    return state.rng.randint(1, 6)


# --- pending effects ----------------------------------------------------------------------------------


def effect_data(effect: Effect) -> dict[str, JsonValue]:
    """A pending card as events and refusals carry it: `kind` ("travel", "recruit", "boss"), `by` (its player),
    `family`, `target` (a seat, or None: beside the board) and `on` ("investor" or "clan")."""
    return {"kind": effect.kind, "by": effect.by, "family": effect.family, "target": effect.target, "on": effect.on}
