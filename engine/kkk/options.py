"""The options a Kohle, Kies & Knete game can be started with.

`hide_hand_sizes` hides the running count of each hand from the views (and so from the status message). It is not a
secret: kkk.md makes hand sizes public, and every step that changes one is a public event (5 cards dealt, 3 per draw,
each card played, the number discarded to get down to 12). The option only spares the table the count, and its
description (shown by `/game new` and `/game rules`) says so, so nobody takes it for a secret.
"""

from pydantic import Field

from engine.options import GameOptions


class KkkOptions(GameOptions):
    """The shared deadlines (`turn_deadline`, `reaction_time`) plus this game's own switches."""

    # The description is given explicitly (not as a docstring) so that it stays one line when shown to players.
    hide_hand_sizes: bool = Field(
        default=False,
        description=(
            "On: the table doesn't show how many cards each player holds. It hides the running count only: a careful "
            "player can still reckon it from the public plays (5 dealt, 3 per draw, each card played or discarded)."
        ),
    )
