"""Reaction windows (issue 27): each kind has its game's own default length, a table's `reaction_time` replaces them
all, a window closes as soon as everyone it asks has answered, and — the twin test — two tables that differ only in
hidden information (hands, bribes) get the same window deadlines and close their windows at the same moment.

The states are the conformance walk's (`twins/<game>.py`: seeded random play) at a reaction window; the twin is the
same hook's (the hands re-dealt, bribes moved to agents the announcement doesn't involve). Every awaited seat then
answers in a seeded order at seeded times — the answer every asked seat may give whatever it holds (KKK: no STOP;
Casablanca: no objection) — and both tables are compared after each answer.
"""

import random
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

from engine import registry
from engine.casablanca import waits as cb_waits
from engine.casablanca.actions import NoObjection
from engine.deadlines import Current
from engine.kkk import actions as kkk_actions
from engine.kkk import waits as kkk_waits
from tests.engine.conformance.twins import hooks, walk

HOOKS = hooks()

WINDOW_GAMES: dict[str, tuple[Callable[[Any], Current | None], Any, dict[str, timedelta]]] = {
    "casablanca": (cb_waits.current, NoObjection(), {"objection": timedelta(hours=12), "contest": timedelta(hours=8)}),
    "kkk": (kkk_waits.current, kkk_actions.Pass(), {"stop": timedelta(hours=6), "last_call": timedelta(hours=6)}),
}
"""Per game with reaction windows: its current wait, the answer any asked seat may give, and the lengths this test
expects (written out, so a change of a default is a deliberate change here too)."""

ANSWERED = {"casablanca": {"objection"}, "kkk": {"stop", "last_call"}}
"""The kinds of window answered by everyone asked alike (the contest asks one player, whose answer reveals a limit)."""


def directed(name: str, reaction_time: timedelta | None = None) -> list[Any]:
    """States at windows random play seldom reaches (KKK's last call: random deals rarely get that far)."""
    if name != "kkk":
        return []
    from tests.engine.kkk.tables import ready_b, round_a

    out = []
    for base, seat, action in (
        (ready_b, 0, kkk_actions.Close()),
        (round_a, 3, kkk_actions.Travel(target=2, family="L")),
    ):
        t = base()
        t.state.options = t.state.options.model_copy(update={"reaction_time": reaction_time})
        t(seat, action)
        out.append(t.state)
    return out


def window_states(name: str, reaction_time: timedelta | None = None) -> list[Any]:
    """States at a reaction window: the conformance walk's (games with `reaction_time` set, if given), and the
    directed ones."""
    current = WINDOW_GAMES[name][0]
    out = []
    walked = HOOKS[name][2]() if reaction_time is None else walk(name, range(4), 120, reaction_time=reaction_time)
    for state in walked:
        cur = current(state)
        if cur is not None and cur.kind == "reaction":
            out.append(state)
    return out + directed(name, reaction_time)


def test_every_game_with_reaction_windows_declares_the_length_of_each_kind() -> None:
    for name in registry.games():
        game = registry.get(name)
        if not game.uses_reaction_time:
            assert not game.reaction_windows, name
            continue
        if name in WINDOW_GAMES:
            assert dict(game.reaction_windows) == WINDOW_GAMES[name][2]
        assert game.reaction_windows and all(
            timedelta(hours=4) <= d <= timedelta(hours=12) for d in game.reaction_windows.values()
        ), f"{name}: a window a player who looks in every few hours could miss"


@pytest.mark.parametrize("name", sorted(WINDOW_GAMES))
def test_each_kind_of_window_has_its_default_length_and_the_tables_reaction_time_replaces_them_all(name: str) -> None:
    game = registry.get(name)
    current, _, lengths = WINDOW_GAMES[name]
    seen: set[str] = set()
    for state in window_states(name):
        cur = current(state)
        assert cur is not None and cur.window in lengths
        (wait,) = game.waiting_on(state)
        assert wait.until - wait.since == lengths[cur.window], cur.key
        seen.add(cur.window)
    assert seen == set(lengths), f"the walk never reached {set(lengths) - seen}"
    # A table that set reaction_time: every kind of window is that long (games walked the same way, that option on).
    kinds = set()
    for state in window_states(name, reaction_time=timedelta(minutes=25)):
        cur = current(state)
        assert cur is not None
        (wait,) = game.waiting_on(state)
        assert wait.until - wait.since == timedelta(minutes=25), cur.key
        kinds.add(cur.window)
    assert kinds == set(lengths), f"the walk with reaction_time never reached {set(lengths) - kinds}"


@pytest.mark.parametrize("name", sorted(WINDOW_GAMES))
def test_a_window_closes_at_the_last_answer_with_the_same_deadlines_whatever_the_hidden_information(name: str) -> None:
    game = registry.get(name)
    current, answer, _ = WINDOW_GAMES[name]
    make_twin = HOOKS[name][1]
    compared = 0
    for i, state in enumerate(window_states(name)):
        cur = current(state)
        assert cur is not None
        if cur.window not in ANSWERED[name]:
            continue
        twin = make_twin(state)
        if isinstance(twin, str):
            continue  # nothing hidden to vary here
        pick = random.Random(i)
        a, b = state, twin
        (first,) = game.waiting_on(a)
        assert game.waiting_on(b) == [first], f"{cur.key}: the twins' windows differ before anyone answers"
        order = pick.sample(list(first.seats), len(first.seats))
        now = first.since
        for n, seat in enumerate(order):
            now += timedelta(minutes=pick.randint(1, 120))
            if now >= first.until:
                break  # the deadline comes first: closing by time is the conformance twin test's part
            a = game.apply(a, seat, answer, now).state
            b = game.apply(b, seat, answer, now).state
            wa, wb = game.waiting_on(a), game.waiting_on(b)
            assert [(w.seats, w.since, w.until, w.timeout) for w in wa] == [
                (w.seats, w.since, w.until, w.timeout) for w in wb
            ], f"{cur.key}: after {n + 1} answers the twins wait differently"
            still_open = bool(wa) and wa[0].timeout == first.timeout
            if n + 1 < len(order):
                # Not everyone has answered: the same window, the same deadline, waiting on the rest.
                assert still_open and wa[0].until == first.until and set(wa[0].seats) == set(order[n + 1 :])
            else:
                # The last answer closes it at once, in both tables — long before its deadline.
                assert not still_open, f"{cur.key}: the window stayed open after everyone answered"
                compared += 1
    assert compared >= 5, f"only {compared} windows compared"
