"""The options a Kohle, Kies & Knete game can be started with."""

from engine.options import GameOptions


class KkkOptions(GameOptions):
    """The shared deadlines (`turn_deadline`, `reaction_time`) plus this game's own switches."""

    hide_hand_sizes: bool = False
    """Hand sizes are public by default (a physical hand's size is visible); True hides them from the table."""
