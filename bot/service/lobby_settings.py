"""A lobby's settings (most players, seat shuffle, options naming a player), kept in its message ref's key."""

from dataclasses import dataclass

from bot.game_options import PlayerPick


@dataclass(frozen=True)
class LobbySettings:
    max_seats: int
    random_order: bool = True
    picks: tuple[tuple[str, PlayerPick], ...] = ()
    """Options that name a player (`bot.game_options.PlayerPick`), resolved to a seat at the start."""

    def key(self) -> str:
        picks = "".join(f";pick.{name}={pick.key()}" for name, pick in self.picks)
        return f"max={self.max_seats};random={int(self.random_order)}{picks}"

    @classmethod
    def parse(cls, key: str, default_max: int) -> "LobbySettings":
        parts = dict(p.split("=", 1) for p in key.split(";") if "=" in p)
        picks = []
        for name, value in parts.items():
            pick = PlayerPick.from_key(value) if name.startswith("pick.") else None
            if pick is not None:
                picks.append((name[5:], pick))
        try:
            return cls(
                max_seats=int(parts.get("max", default_max)),
                random_order=parts.get("random", "1") == "1",
                picks=tuple(picks),
            )
        except ValueError:
            return cls(max_seats=default_max, picks=tuple(picks))
