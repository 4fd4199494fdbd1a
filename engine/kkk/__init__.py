"""Kohle, Kies & Knete (Sid Sackson, 1994): the rules engine, as specified in rules/kkk.md.

One concept per module:

- `data` — the board's 16 spaces and the 15 deal tiles (`data/*.toml`), validated on load
- `cards` — families, card codes and the 98-card deck; `options`; `state`; `actions`
- `table` — low-level moves of cards, turns, the marker and the die
- `turns` — set-up and the ordinary turn (open, or roll and then open or draw 3)
- `negotiation` — offers and agreements ("Shake!"), the payout cap, void and reopened agreements
- `effects` — clan, travel, recruitment, Boss and STOP cards
- `windows` — reaction windows and last calls: who is awaited, passing, always-pass
- `assignment` — which card serves which requirement of the space
- `conclusion` — closing (the last call), conclusion, the end die, failure
- `handlimit` — the limit of 12 cards
- `waits` — deadlines and timeouts
- `views`, `legal` — what a seat may know, and what it may do
- `randomplay` — a seeded random player for tests and benchmarks
- `rules` — the `KKK` game that dispatches actions to all of these

The game registers itself here, once: `ENTRY` (see `engine.entry`).
"""

from engine.entry import Entry
from engine.kkk.policy import KkkPolicy
from engine.kkk.rules import KKK

ENTRY = Entry(game=KKK, policy=KkkPolicy, listed=1)
