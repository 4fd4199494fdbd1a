"""Kesse Rügen in Discord: the emoji board and narration (`presentation`, `board`), the `/kr` commands
(`commands`) and the secret fist's buttons on the hand message or an ephemeral answer (`prompts`). Mirrors
`engine/kesse_ruegen/`."""

from .presentation import KesseRuegenPresentation

presentation = KesseRuegenPresentation()

__all__ = ["KesseRuegenPresentation", "presentation"]
