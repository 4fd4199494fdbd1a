"""The options a Kohle, Kies & Knete game can be started with.

`hide_hand_sizes` hides the running count of each hand from the views (and so from the status message). It is not a
secret: kkk.md makes hand sizes public, and every step that changes one is a public event (5 cards dealt, 3 per draw,
each card played, the number discarded to get down to 12). The option only spares the table the count, and its
description (shown by `/game new` and `/game rules`) says so, so nobody takes it for a secret.
"""

from engine.options import GameOptions


class KkkOptions(GameOptions):
    """The shared deadlines (`turn_deadline`, `reaction_time`) plus this game's own switches."""

    # On: the views leave out how many cards each player holds (the running count only: a careful player can still
    # reckon it from the public plays). The words players read are the presentation's (`option_help`): the engine
    # speaks no language, so the field has no description.
    hide_hand_sizes: bool = False
