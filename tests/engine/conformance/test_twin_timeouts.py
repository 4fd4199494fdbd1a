"""Twin states at every kind of deadline, for every registered game (issue 23: "a default must never tell the table
anything about a hidden hand").

For each game a small hook (`twins/<game>.py`, found by the game's name) makes a twin of a state at a deadline: the same
game, differing only in hidden information (hands, bribes, a closed fist) that the wait's default must not reveal. The
same timeout is applied to both, and the table must see exactly the same: public events, public view, what the game
waits for next. A kind of deadline at which the game holds no hidden information at all says so (`NO_SECRET`), and the
harness checks that it is true rather than skipping it silently. Information that a rule itself reveals (a played card,
a raided kind's count, the claims of an auction) is kept the same in the twin: only what stays hidden is varied.

The states come from seeded random legal play (`walk`), plus directed states where random play reaches a kind
seldom (Schwarzmarkt's events). Every game lists the kinds it must cover (`KINDS`), so a game whose waits change
without this test changing fails here.
"""

import pytest

from engine import registry
from tests.engine.conformance.twins import hooks

HOOKS = hooks()


def test_every_registered_game_has_a_twin_hook() -> None:
    assert set(HOOKS) == set(registry.games())


@pytest.mark.parametrize("name", sorted(registry.games()))
def test_a_deadline_default_looks_the_same_whatever_the_hidden_information(name: str) -> None:
    game = registry.get(name)
    kind_of, make_twin, states, kinds, secret_free = HOOKS[name]
    compared: dict[str, int] = {}
    no_secret: dict[str, str] = {}
    for state in states():
        kind = kind_of(state)
        twin = make_twin(state)
        if isinstance(twin, str):
            no_secret.setdefault(kind, twin)
            continue
        assert game.view(twin, None) == game.view(state, None), f"{kind}: the twin differs in public"
        (wait,) = game.waiting_on(state)[:1]
        assert game.waiting_on(twin) == game.waiting_on(state)
        a = game.apply(state, None, wait.timeout, wait.until)
        b = game.apply(twin, None, wait.timeout, wait.until)
        if game.result(a.state) is not None or game.result(b.state) is not None:
            continue  # the end of the game shows every secret by the rules
        assert [e for e in a.events if e.public] == [e for e in b.events if e.public], f"{kind}: public events"
        assert game.view(a.state, None) == game.view(b.state, None), f"{kind}: public view after the default"
        assert game.waiting_on(a.state) == game.waiting_on(b.state), f"{kind}: the next wait"
        compared[kind] = compared.get(kind, 0) + 1
    assert set(compared) | set(no_secret) <= kinds, "a kind of deadline this test doesn't know"
    assert kinds - secret_free <= set(compared), f"never compared: {kinds - secret_free - set(compared)}"
    assert secret_free <= set(no_secret) and not secret_free & set(compared), "a secret where none was declared"
