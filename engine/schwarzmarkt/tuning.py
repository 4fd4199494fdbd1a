"""The numbers behind Schwarzmarkt's rule-of-thumb computer player, one set per level.

`EASY` is the player as it was before levels (issue 31: easy is today's player). `NORMAL` is the same rule with the
numbers changed where head-to-head games against easy showed it pays (ablation over seeded games, 3 seats; each
change alone moved little, together they won about 43 % of 1,200 games against two easy seats, share 33 %):
- it drives the price up only about half the die when it holds wanted cards, instead of the whole die: the next
  players sell at the price it leaves, so a fast climb pays them first;
- it expects the others to sell wanted cards more eagerly (`sell_chance` 0.8), so it sells sooner;
- a card kept in the second game round is worth as much as in the first (its own late sales are not hurried);
- Raid and Old Debt, cards that take from the leader, are played sooner.
The hard player uses `NORMAL` for everything but its trading turns, and models every seat's trading with the normal
rule in its look-ahead (`engine.schwarzmarkt.search`).
"""

from dataclasses import dataclass, field
from typing import Literal

EVENT_VALUES = {
    "quick_deal": 12.0,
    "old_debt": 9.0,
    "raid": 8.0,
    "new_goods": 1.0,
    "forced_swap": 1.0,
    "limit": 0.5,
    "shortage": 0.5,
    "spoiled_goods": 0.5,
    "espionage": 0.2,
}
"""An event card's worth to its player (what it gains plus what it costs the leader, shared among the others)."""


@dataclass(frozen=True)
class Tuning:
    """The rule of thumb's numbers (see `engine.schwarzmarkt.policy`)."""

    card_value: float = 6.0
    """What a goods card kept for a later offer is worth, in luxury goods, in the first game round."""
    late_card_value: float = 3.0
    """The same in the second game round."""
    sell_chance: float = 0.5
    """The chance that a player holding a wanted card sells it before this seat's next turn."""
    push: Literal["die", "half"] = "die"
    """How far it moves the marker without a trade while holding wanted cards: as far as is safe (`die`), or about
    half of that, rounded up (`half`)."""
    event_values: dict[str, float] = field(default_factory=lambda: dict(EVENT_VALUES))

    def push_move(self, safe: int) -> int:
        """The move it makes when moves 1 to `safe` are safe (see `push`)."""
        return safe if self.push == "die" else (safe + 1) // 2


EASY = Tuning()
NORMAL = Tuning(
    late_card_value=6.0,
    sell_chance=0.8,
    push="half",
    event_values={**EVENT_VALUES, "old_debt": 16.0, "raid": 16.0},
)
