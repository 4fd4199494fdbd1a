"""Kohle, Kies & Knete in Discord: the `/kkk` commands, the status message, the DM hands, the narration, one message
per offer with 🤝 ("Shake!"), and a message with Pass / STOP buttons per reaction window and last call.

The platform loads `presentation` from here (`bot.games.load_presentation`). One concept per module:

- `i18n` — the game's gettext domain (`kkk`): `_`, `n_`, `N_`; every word below goes through it
- `words` — families, cards and money as players read and type them (in English, Dutch and German)
- `telling` — what each engine event says (the engine's events carry codes and values only)
- `refusals` — every refusal code of the engine in the player's words, naming the fix
- `reading` — the engine's views, read for rendering (the only way game state reaches Discord)
- `status` — the table's status message; `hand` — a player's DM; `narration` — one line per public event
- `posts` — the tracked messages: offers, reaction windows, last calls
- `choices` — autocomplete from the player's own view
- `presentation` — the platform's hooks (buttons, what a 🤝 means, which are stray, the answer to a refused one,
  money in the standings, away passes)
- `commands` — the `/kkk` commands (the cog)
"""

from bot.games.kkk.presentation import KkkPresentation

presentation = KkkPresentation()

__all__ = ["KkkPresentation", "presentation"]
