"""Who the table waits for, in words: the "⏳" line after an action, the reminder, and the DM a player gets.

A wait's `what` is the engine's text with seat references ("{seat:2} to open the deal or roll", "STOP or pass on
{seat:0}'s travel card"). The line names each awaited player once: inside `what` where it names them, otherwise in
front of it. Who is *mentioned* (and so pinged) is decided by the caller: everyone awaited, except the player whose
own action led to the wait (never ping someone for the continuation of what they just did) — they are named, not
mentioned.
"""

from collections.abc import Callable, Collection, Sequence

from engine.text import render, seats_in


def awaited(
    what: str,
    seats: Sequence[int],
    names: Sequence[str],
    mention: Callable[[int], str],
    ping: Collection[int],
) -> str:
    """`what` with the awaited seats in `ping` mentioned, the others by name; awaited seats `what` doesn't name are
    listed in front ("@anna @bert — STOP or pass on cleo's travel card")."""
    shown = [mention(i) if i in ping and i in seats else n for i, n in enumerate(names)]
    named = set(seats_in(what))
    lead = " ".join(shown[s] if s < len(shown) else f"seat {s + 1}" for s in seats if s not in named)
    body = render(what, shown)
    return f"{lead} — {body}" if lead else body


def for_the_player(what: str, seat: int) -> str:
    """`what` as said to the awaited player themselves, after "waiting for you": "{seat:3} to open the deal" reads
    "to open the deal", and any other reference to them is "you" (other seats' references stay, for rendering)."""
    own = f"{{seat:{seat}}}"
    if what.startswith(own + " "):
        return what.removeprefix(own + " ")
    return f"— {what.replace(own, 'you')}"
