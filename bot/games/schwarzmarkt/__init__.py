"""Schwarzmarkt in Discord: the table drawn from the public view (`look`), the status, hand and narration
(`presentation`), the private buttons for a trading turn, a card to play and an event's choices (`prompts`), and the
`/sm` commands (`commands`). Mirrors `engine/schwarzmarkt/`."""

from .presentation import SchwarzmarktPresentation

presentation = SchwarzmarktPresentation()

__all__ = ["SchwarzmarktPresentation", "presentation"]
