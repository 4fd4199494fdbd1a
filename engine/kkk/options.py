"""The options a Kohle, Kies & Knete game can be started with."""

from engine.options import GameOptions


class KkkOptions(GameOptions):
    """The shared deadlines (`turn_deadline`, `reaction_time`) plus this game's own switches."""

    hide_hand_sizes: bool = False
    """On: the table doesn't show how many cards each player holds (by default it does, as at a real table)."""
