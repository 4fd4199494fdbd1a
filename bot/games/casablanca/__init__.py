"""Casablanca in Discord: the map as text and the narration (`presentation`, `maptext`), the bribe sheet and the
private answers with amount buttons (`prompts`), and the `/cb` commands (`commands`). Mirrors `engine/casablanca/`.
Everything public is drawn from the public view only, so a picture of the map (`picture.py`, from the same view) can
be added later without touching the rules."""

from .presentation import CasablancaPresentation

presentation = CasablancaPresentation()

__all__ = ["CasablancaPresentation", "presentation"]
