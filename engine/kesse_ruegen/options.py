"""Kesse Rügen's options: the shared deadlines, and who begins."""

from pydantic import Field

from engine.options import GameOptions


class KesseRuegenOptions(GameOptions):
    first_seat: int | None = Field(default=None, ge=0)
    """The seat that places first and challenges first (the rulebook: the oldest player). None: drawn at random."""
