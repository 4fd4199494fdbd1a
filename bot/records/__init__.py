"""Players' records (issue 32): what each finished game came to, each player's figures and ratings, derived from the
games' logs.

- `derive`: a game's result and placements from its log (pure; replays the history that stands);
- `rating`: the ratings (openskill) a rated game gives its players (pure);
- `recorder`: when and how they are written (after a game ends, at start-up, and a full rebuild);
- `words`: every text the record commands show (`/game history`, `/game log`, `/game top`, `/me …`), in one place
  for the translation to come;
- `commands`: those commands' answers, built from the store's rows.
"""

from bot.records.recorder import Counts, Recorder

__all__ = ["Counts", "Recorder"]
