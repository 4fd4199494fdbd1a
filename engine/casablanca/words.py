"""Reading what a player names: agents by colour or name, buildings by name or number, amounts in $100 steps.

The engine speaks no language: a name it can't read is refused with a code and the values the bot's words need."""

import unicodedata

from engine.casablanca.state import STEP, CasablancaState
from engine.errors import rule


def agent_index(state: CasablancaState, text: str) -> int:
    """The agent a player names, by colour or name (any case; "gray" for "grey"); `no_such_agent` otherwise."""
    key = " ".join(text.strip().casefold().split())
    if key == "gray":
        key = "grey"
    for i, agent in enumerate(state.agents):
        if key in (agent.colour, agent.name.casefold()):
            return i
    raise rule("no_such_agent", name=text.strip(), colours=[a.colour for a in state.agents])


def _fold(text: str) -> str:
    """A name as compared: any case, any apostrophe, accents ignored ("ricks cafe" is "Rick's Café")."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return "".join(ch for ch in plain.casefold() if ch.isalnum())


def building(state: CasablancaState, text: str) -> str:
    """The building a player names (any case; "house 7" or "7"); `no_such_building` when there is none."""
    key = _fold(text)
    for prefix in ("house", "huis", "haus"):
        if key.removeprefix(prefix).isdigit():
            key = key.removeprefix(prefix)
    for name in state.streets:
        if key == _fold(name):
            return name
    raise rule("no_such_building", name=text.strip())


def check_amount(amount: int, what: str) -> None:
    """Amounts go in $100 steps (`what`: "limit" or "bribe")."""
    if amount < 0 or amount % STEP:
        raise rule("not_in_steps", what=what, amount=amount)
