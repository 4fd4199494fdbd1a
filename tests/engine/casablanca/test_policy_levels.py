"""The Casablanca computer player's levels (easy, normal, hard): each only ever chooses a legal move the rules accept,
is deterministic from its seed, and its limits never exceed its bribe; and a few positions where the levels choose
differently (see `engine/casablanca/policy.py`)."""

import random
from datetime import timedelta
from typing import Any, get_args

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.casablanca import randomplay
from engine.casablanca.actions import Bribe, Contest, Move, NoObjection, Object
from engine.casablanca.policy import PATIENCE, VETO, CasablancaPolicy, Level
from engine.casablanca.state import Announcement, CasablancaState

from .helpers import GAME, GREEN, GREY, RED, T0, Table, new_game

LEVELS: tuple[Level, ...] = get_args(Level)
POLICIES = {level: CasablancaPolicy(GAME, level=level) for level in LEVELS}


def play(
    seed: int, variant: str, seats: int, levels: dict[int, Level], steps: int
) -> list[tuple[CasablancaState, int]]:
    """A game where the seats in `levels` are computer players of that level (each decision checked to be legal;
    `apply` raises on a refused one) and the others random; returns (state, seat) of every decision taken."""
    rnd = random.Random(seed)
    state = new_game(seats, variant=variant, first=None, seed=seed)
    now = T0
    asked: list[tuple[CasablancaState, int]] = []
    for _ in range(steps):
        if state.phase == "over":
            break
        waits = GAME.waiting_on(state)
        order = list(waits[0].seats)
        rnd.shuffle(order)
        actor: int | None = None
        action: Any = None
        for seat in order:
            legal = GAME.legal_actions(state, seat)
            if seat in levels:
                choice = POLICIES[levels[seat]].decide(GAME.view(state, seat), legal, seat, random.Random(seed))
                asked.append((state, seat))
                if choice is not None:
                    assert choice in legal, f"{levels[seat]}: {choice} is not among the legal moves"
                    if isinstance(choice, Object | Contest) and state.announcement is not None:
                        assert choice.limit <= state.bribes[seat][state.announcement.agent]
                    if isinstance(choice, Bribe):
                        assert sum(choice.amounts.values()) <= state.capital[seat]
            elif legal:
                choice = rnd.choices(legal, [randomplay.weight(state, seat, a) for a in legal])[0]
            else:
                choice = None
            if choice is not None:
                actor, action = seat, choice
                break
        if actor is None:
            now = max(now, waits[0].until)
            action = waits[0].timeout
        else:
            now += timedelta(seconds=rnd.randint(1, 120))
        state = GAME.apply(state, actor, action, now).state
    return asked


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    variant=st.sampled_from(["main", "hq"]),
    seats=st.integers(2, 4),
    levels=st.lists(st.sampled_from(LEVELS), min_size=4, max_size=4),
)
def test_every_level_only_chooses_legal_moves(seed: int, variant: str, seats: int, levels: list[Level]) -> None:
    chosen = {s: levels[s] for s in range(seats) if s % 2 == 0 or levels[s] != "easy"}
    play(seed, variant, seats, chosen, steps=300)


def test_every_level_is_deterministic_from_its_seed() -> None:
    decisions = play(3, "main", 4, {0: "easy", 1: "normal", 2: "hard"}, steps=300)
    assert len(decisions) > 50
    for state, seat in decisions[::7]:
        view, legal = GAME.view(state, seat), GAME.legal_actions(state, seat)
        for policy in POLICIES.values():
            assert policy.decide(view, legal, seat, random.Random(5)) == policy.decide(
                view, legal, seat, random.Random(5)
            )


def _crowded() -> CasablancaState:
    """Main game, seat 0 to move: everything it has ($8,000) is on Rudy Red, who shares house 6 with two others."""
    state = new_game(3, first=0, seed=1)
    state.started = [True] * 3
    state.capital = [0, 2_000, 2_000]
    state.bribes = [[0] * 8 for _ in range(3)]
    state.bribes[0][RED] = 8_000
    for seat in (1, 2):
        state.bribes[seat] = [1_000] * 8
    state.at = ["6", "6", "10", "11", "6", "7", "1", "12"]
    return state


def _company() -> CasablancaState:
    """`_crowded`, but Rudy Red (seat 0's whole stake) waits in house 4 with two other agents, and Green could carry
    the suitcase out of the Bazaar towards an end."""
    state = _crowded()
    state.at = ["Bazaar", "Bazaar", "10", "4", "4", "11", "1", "4"]
    return state


def _decide(level: Level, state: CasablancaState, seat: int = 0) -> Any:
    return POLICIES[level].decide(GAME.view(state, seat), GAME.legal_actions(state, seat), seat, random.Random(1))


def test_normal_and_hard_take_the_backed_agent_out_of_company() -> None:
    """Any agent in Red's house can hit it on an opponent's turn and lose seat 0 everything at once: normal and hard
    move Red to an empty house; easy (the issue-16 player) takes the suitcase along instead."""
    state = _company()
    assert _decide("easy", state) == Move(agent="green", to="3", suitcase=True)
    for level in ("normal", "hard"):
        choice = _decide(level, state)
        assert isinstance(choice, Move) and choice.agent == "red", level
        assert all(where != choice.to for a, where in enumerate(state.at) if a != RED), level


def test_keeping_out_of_company_fades_so_tables_end() -> None:
    """Agents fleeing each other's company chased one another for ever at a table of such players: after `PATIENCE`
    announcements normal plays as easy does."""
    state = _company()
    state.last_announcement = Announcement(no=PATIENCE, kind="move", seat=1, agent=2, source="11", to="10")
    assert _decide("normal", state) == _decide("easy", state) == Move(agent="green", to="3", suitcase=True)


def test_hard_backs_an_agent_normal_players_seldom_back() -> None:
    """At the start every agent is as near to an end: normal players bribe any three neighbours first and back the
    first of them (Green in three trios of eight, Yellow and Grey in none); hard's first bribe is a trio whose agent
    it backs is one they never back, and of $100 on Red, Brown and Yellow it backs Yellow where normal backs Red."""
    state = new_game(4, first=0, seed=1)
    for k in range(6):
        first = POLICIES["hard"].decide(GAME.view(state, 0), GAME.legal_actions(state, 0), 0, random.Random(k))
        assert isinstance(first, Bribe) and set(first.amounts) & {"yellow", "grey"}, first
    state.started[0] = True
    state.capital[0] = 9_700
    state.bribes[0][RED] = state.bribes[0][RED + 1] = state.bribes[0][RED + 2] = 100
    assert _decide("normal", state) == Bribe(amounts={"red": 2_000})
    assert _decide("hard", state) == Bribe(amounts={"yellow": 2_000})


def test_hard_puts_veto_money_on_every_other_agent() -> None:
    """With $3,000 on Red, normal keeps bribing Red; hard first puts $100 at a time on the other agents until each has
    `VETO` (more than normal players' first $100: its objections then stop their moves of those agents)."""
    state = _crowded()
    state.at = ["Bazaar", "9", "10", "2", "6", "11", "1", "12"]  # Red alone: no company to flee
    state.capital[0] = 5_000
    state.bribes[0] = [VETO, VETO, VETO, VETO, 3_000, VETO, 100, VETO]
    normal = _decide("normal", state)
    assert isinstance(normal, Bribe) and set(normal.amounts) == {"red"}
    assert _decide("hard", state) == Bribe(amounts={"yellow": 100})
    state.bribes[0][6] = VETO
    hard = _decide("hard", state)
    assert not (isinstance(hard, Bribe) and "red" not in hard.amounts)


def test_normal_and_hard_keep_their_money_for_the_agent_they_will_back() -> None:
    """A first turn must bribe three agents: easy puts $1,000 on each, normal and hard the least they may ($100), so
    that later they can put more on one agent than easy players backing the same agent can (those end with equal
    sums: a shared win)."""
    state = new_game(4, first=0, seed=1)
    easy = _decide("easy", state)
    assert isinstance(easy, Bribe) and set(easy.amounts.values()) == {1_000}
    for level in ("normal", "hard"):
        sharp = _decide(level, state)
        assert isinstance(sharp, Bribe) and set(sharp.amounts.values()) == {100}, level
        assert len(sharp.amounts) == 3, level


def test_company_for_the_backed_agent_is_objected_to_with_all_of_the_bribe() -> None:
    """Seat 1 announces Michael Gray into Red's empty house 9: easy lets it be, normal and hard object with all of
    their $1,000 on Gray (a lost objection costs nothing in the main game)."""
    state = _crowded()
    state.at = ["Bazaar", "Bazaar", "10", "3", "9", "11", "1", "4"]
    state.bribes[0][GREY] = 1_000
    state.capital[0] = 1_000
    state.turn = 1
    table = Table(state)
    table.move(1, "grey", "9")
    assert _decide("easy", table.state) == NoObjection()
    assert _decide("normal", table.state) == _decide("hard", table.state) == Object(limit=1_000)


def test_hard_wins_with_an_agent_normal_players_never_back() -> None:
    """Normal players back the first agent of the trio they bribed first, never Yellow or Grey on the default map
    (every first turn is played on the board as set up, where no trio's first agent is either). So with `VETO` on
    Grey, more than their $100, hard wins if Grey ends the game: it carries the suitcase home with Grey, though it
    backs Red; normal, with as little on Grey, does not (an end by Grey would be another player's)."""
    state = _crowded()
    state.at = ["Bazaar", "9", "10", "2", "6", "11", "1", "7"]  # Grey next to its home, the Police Station
    state.capital[0] = 5_000
    state.bribes[0] = [0, 0, 0, 0, 3_000, 0, 0, VETO]
    state.suitcase, state.carrier, state.carried_by = None, GREY, [GREEN, GREY]
    home = Move(agent="grey", to="Police Station", suitcase=True)
    assert _decide("hard", state) == home
    assert _decide("normal", state) != home
