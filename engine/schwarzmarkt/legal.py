"""What each seat may do now: drives autocomplete, the buttons, random play and fuzzing.

Trades are listed exhaustively (every mix of still-wanted cards the seat holds: at most 32 for the five-kind
offer), each with its only move; without a trade, every allowed distance. `trade_options` is the part the
presentation's buttons and autocomplete use.
"""

from itertools import product
from typing import Any

from engine.schwarzmarkt import eventcards
from engine.schwarzmarkt.actions import Give, Pick, Play, Target, Timeout, Trade
from engine.schwarzmarkt.market import GOODS
from engine.schwarzmarkt.state import SchwarzmarktState
from engine.schwarzmarkt.waits import pending


def trade_sets(state: SchwarzmarktState, seat: int) -> list[tuple[str, ...]]:
    """Every non-empty set of cards `seat` may trade now, as lists of kinds (fewest cards first)."""
    ranges = [range(min(state.wanted[k], state.goods[seat][k]) + 1) for k in range(len(GOODS))]
    out: list[tuple[str, ...]] = []
    for counts in product(*ranges):
        n = sum(counts)
        if n == 0 or (n > 1 and state.force("shortage")):
            continue
        out.append(tuple(GOODS[k] for k, c in enumerate(counts) for _ in range(c)))
    out.sort(key=len)
    return out


def moves(state: SchwarzmarktState) -> list[int]:
    """The distances the marker may move without a trade (0 only at the last call)."""
    if state.last_call:
        return [0]
    return list(range(1, min(state.die(), state.end_space - state.marker) + 1))


def legal_actions(state: SchwarzmarktState, seat: int | None) -> list[Any]:
    if state.phase == "over":
        return []
    if seat is None:
        return [Timeout(key=p.key) for p in pending(state)]
    if seat != state.turn or not state.playing(seat):
        return []
    match state.phase:
        case "play":
            return [Play(card=c) for c in state.black_market[seat]]
        case "trade":
            after = 0 if state.last_call else 1
            found: list[Any] = [Trade(cards=(), move=m) for m in moves(state)]
            found += [Trade(cards=cards, move=after) for cards in trade_sets(state, seat)]
            return found
        case "event":
            p = state.pending
            assert p is not None
            if p.step == "target":
                return [Target(seat=s) for s in eventcards.targets(state)]
            if p.step == "pick":
                return [Pick(good=g) for g in eventcards.picks(state)]
            return [Give(cards=c) for c in eventcards.gives(state)]
    return []
