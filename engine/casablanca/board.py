"""The map data file (`data/map.toml`): its pydantic model, validated on load, and the loader.

A server owner may replace it as `casablanca/map.toml` in the game data folder (the bot's `GAME_DATA_DIR`; see
`engine.registry`). A wrong file stops start-up with a one-line `DataFileError` naming the file and the field. The map
and the agents are copied into each game's state at set-up, so a replaced file never changes a game in progress.
"""

from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from engine.data import load_toml

MAP_FILE = Path(__file__).parent / "data" / "map.toml"

HQ_COUNT = 4
AGENT_COUNT = 8


class AgentData(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    colour: str = Field(min_length=1, pattern=r"^[a-z]+$")
    """One lower-case word; commands name an agent by it (or by name)."""
    home: str
    """The agent's home HQ, where it starts and where it must bring the suitcase (main game)."""


class MapData(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    bazaar: str = Field(min_length=1)
    hqs: list[str] = Field(min_length=HQ_COUNT, max_length=HQ_COUNT)
    streets: dict[str, list[str]]
    agents: list[AgentData] = Field(min_length=AGENT_COUNT, max_length=AGENT_COUNT)

    @field_validator("hqs")
    @classmethod
    def _distinct_hqs(cls, value: list[str], info: ValidationInfo) -> list[str]:
        if len(set(value)) != len(value):
            raise ValueError("the four HQs must have different names")
        if info.data.get("bazaar") in value:
            raise ValueError("the Bazaar cannot also be an HQ")
        return value

    @field_validator("streets")
    @classmethod
    def _a_sound_map(cls, value: dict[str, list[str]], info: ValidationInfo) -> dict[str, list[str]]:
        needed = [info.data.get("bazaar"), *(info.data.get("hqs") or [])]
        for name in needed:
            if name is not None and name not in value:
                raise ValueError(f"{name!r} is missing (every HQ and the Bazaar need streets)")
        for building, ends in value.items():
            if len(set(ends)) != len(ends):
                raise ValueError(f"{building!r} lists the same street twice")
            if not ends:
                raise ValueError(f"{building!r} has no street")
            for end in ends:
                if end == building:
                    raise ValueError(f"{building!r} has a street to itself")
                if end not in value:
                    raise ValueError(f"{building!r} has a street to {end!r}, which is not a building of the map")
                if building not in value[end]:
                    raise ValueError(f"the street {building!r} → {end!r} has no way back (add {building!r} to {end!r})")
        start = next(iter(value))
        seen = {start}
        todo = [start]
        while todo:
            for end in value[todo.pop()]:
                if end not in seen:
                    seen.add(end)
                    todo.append(end)
        if len(seen) != len(value):
            cut = sorted(set(value) - seen)
            raise ValueError(f"the map is not connected: {', '.join(cut)} cannot be reached from {start!r}")
        return value

    @field_validator("agents")
    @classmethod
    def _eight_agents(cls, value: list[AgentData], info: ValidationInfo) -> list[AgentData]:
        colours = [a.colour for a in value]
        if len(set(colours)) != len(colours):
            raise ValueError("two agents have the same colour (each colour names one agent)")
        names = [a.name.casefold() for a in value]
        if len(set(names)) != len(names):
            raise ValueError("two agents have the same name")
        buildings = {b.casefold() for b in info.data.get("streets") or {}}
        for agent in value:
            if agent.name.casefold() in buildings or agent.colour in buildings:
                raise ValueError(f"the agent {agent.name!r} has the name of a building")
        hqs = info.data.get("hqs") or []
        for agent in value:
            if hqs and agent.home not in hqs:
                raise ValueError(f"the home of {agent.name!r} is {agent.home!r}, which is not one of the HQs")
        return value


def load_map(path: Path = MAP_FILE) -> MapData:
    """Read and validate a map file; `DataFileError` names the file and the field."""
    return load_toml(path, MapData)


@cache
def default_map() -> MapData:
    """The shipped map, read once."""
    return load_map()
