"""Small helpers for the game's text: money, agents and buildings as players read and type them."""

import unicodedata

from engine.casablanca.state import STEP, CasablancaState
from engine.errors import RuleError


def money(amount: int) -> str:
    return f"${amount:,}"


def agent_index(state: CasablancaState, text: str) -> int:
    """The agent a player names, by colour or name (any case; "gray" for "grey"); RuleError naming the choices."""
    key = " ".join(text.strip().casefold().split())
    if key == "gray":
        key = "grey"
    for i, agent in enumerate(state.agents):
        if key in (agent.colour, agent.name.casefold()):
            return i
    choices = ", ".join(a.colour for a in state.agents)
    raise RuleError(f"There's no agent “{text.strip()}” — name one by colour ({choices}) or by name.")


def _fold(text: str) -> str:
    """A name as compared: any case, any apostrophe, accents ignored ("ricks cafe" is "Rick's Café")."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return "".join(ch for ch in plain.casefold() if ch.isalnum())


def building(state: CasablancaState, text: str) -> str:
    """The building a player names (any case; "house 7" or "7"); RuleError when there is none."""
    key = _fold(text)
    key = key.removeprefix("house") if key.removeprefix("house").isdigit() else key
    for name in state.streets:
        if key == _fold(name):
            return name
    raise RuleError(f"There's no building “{text.strip()}” on the map — houses are 1 to 12, the HQs and the Bazaar.")


def check_amount(amount: int, what: str) -> None:
    """Amounts go in $100 steps."""
    if amount < 0 or amount % STEP:
        raise RuleError(f"{what} goes in steps of $100 (e.g. $300 or $1,200).")


def and_list(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
