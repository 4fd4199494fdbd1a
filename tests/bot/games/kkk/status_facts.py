"""What the status message must show, worked out from the store's state (not from the view the status is made of).

`assert_status_shows(text, state, names)` checks the status embed's text against the game's state, as a player
would check the table: whose turn it is (or who must discard, or who places the marker), the Boss, the space's
dividends and payout, each requirement of the space with what covers it (own investor, own clan card, another
player's card under agreement #n) or "not covered", the pending effects with the window's deadline (`<t:…:R>`), a
last call, the dollar marker and the placed tiles on their spaces, the next tile's dividend value, every player's
hand size, and the draw and discard pile sizes. The dividend values per tile are the rulebook's ($2M for deals 1–3,
$3M for 4–6, $4M for 7–12, $5M for 13–15), written out here, not read from the game's data.
"""

from engine.kkk.cards import FAMILY_NAMES, HAND_LIMIT
from engine.kkk.state import Effect, KkkState

TILE_VALUE = {n: 2 if n <= 3 else 3 if n <= 6 else 4 if n <= 12 else 5 for n in range(1, 16)}


def _effect(e: Effect, names: list[str]) -> str:
    by = f"**{names[e.by]}**"
    if e.kind == "boss":
        return f"{by}'s Boss card"
    assert e.family is not None
    fam = FAMILY_NAMES[e.family]
    if e.target is None:
        what = f"the {fam} investor beside the board"
    else:
        what = f"**{names[e.target]}**'s {fam} {'clan card' if e.on == 'clan' else 'investor'}"
    return f"{by}'s travel card on {what}" if e.kind == "travel" else f"{by}'s recruitment of {what}"


def _coverers(state: KkkState, fam: str, names: list[str]) -> list[str]:
    """How the status may name each card of `fam` at the Boss's disposal (worked out from the state)."""
    r = state.round
    assert r is not None
    boss = r.boss
    out = []
    if state.investors[fam] == boss and fam not in r.travel:
        out.append("own investor")
    if fam in r.clans[boss]:
        out.append("own clan card")
    for o in state.offers:
        if o.status != "binding" or o.family != fam:
            continue
        if state.investors[fam] == o.seller and fam not in r.travel:
            out.append(f"{names[o.seller]}'s investor (agreement #{o.id})")
        if fam in r.clans[o.seller]:
            out.append(f"{names[o.seller]}'s clan card (agreement #{o.id})")
    return out


def assert_status_shows(text: str, state: KkkState, names: list[str]) -> None:
    """The status embed `text` shows the facts of `state` (see the module docstring)."""

    def shows(fact: str, what: str) -> None:
        assert fact in text, f"the status doesn't show {what}: {fact!r} is missing from\n{text}"

    # Hand sizes and piles.
    if not state.options.hide_hand_sizes:
        sizes = " · ".join(f"{names[s]} {len(h)} card{'s' if len(h) != 1 else ''}" for s, h in enumerate(state.hands))
        shows(sizes, "the hand sizes")
    shows(f"Draw pile {len(state.draw)} · discard pile {len(state.discard)}", "the pile sizes")

    # The board in one line: the marker, and each placed tile on its space (the Details list all 16 spaces).
    marker = f"💲 Marker on space {state.marker}" if state.marker is not None else "💲 The marker isn't placed yet"
    done = [f"{i + 1} (deal {tile})" for i, tile in enumerate(state.tiles) if tile is not None]
    shows(f"{marker} · deals done on {', '.join(done)}" if done else f"{marker} · no deal done yet", "the board")

    # The next tile's dividend value.
    if state.deals < 15:
        n = state.deals + 1
        shows(f"Deal {n} of 15: one dividend is worth **${TILE_VALUE[n]}M**.", "the next tile's dividend value")

    # Whose turn it is.
    over = [s for s, h in enumerate(state.hands) if len(h) > HAND_LIMIT and not state.pending]
    if over:
        shows(f"✋ **{names[over[0]]}** holds more than 12 cards", "who must discard")
    elif state.phase == "place_marker":
        shows(f"🎬 **{names[state.placer]}** places the dollar marker", "who places the marker")
        shows(f"**{names[state.turn]}** starts", "who starts")
    elif state.phase == "turn":
        shows(f"🎲 **{names[state.turn]}**'s turn: open the deal on space {state.marker}", "whose turn it is")
    elif state.phase == "rolled":
        shows(f"🎲 **{names[state.turn]}** rolled {state.last_roll}: open the deal on space {state.marker}", "the roll")

    # The round: the Boss, the payout, each requirement and what covers it.
    r = state.round
    if r is not None:
        space = state.data.space(r.space)
        value = TILE_VALUE[state.deals + 1]
        shows(f"the Boss is **{names[r.boss]}** (and has the turn)", "the Boss and whose turn it is")
        shows(
            f"Boss **{names[r.boss]}** · {space.dividends} dividends × ${value}M = **${space.dividends * value}M**",
            "the payout",
        )
        required = list(space.required)
        group = list(space.group.of) if space.group else []
        covered_in_group = 0
        for fam in required + group:
            name = FAMILY_NAMES[fam]
            ways = _coverers(state, fam, names)
            lines = [
                line
                for line in (x.removeprefix("What the space needs: ") for x in text.splitlines())
                if line[2:].startswith(f"{name} — ")
            ]
            assert len(lines) == 1, f"the status should show the requirement {name} once:\n{text}"
            line = lines[0]
            if not ways:
                assert line == f"❌ {name} — not covered", f"{name} has no card at the Boss's disposal: {line!r}"
                continue
            shown = line.split(" — ", 1)[1].removeprefix("also at hand: ")
            assert shown in ways, f"{name} is covered by one of {ways}, but the status says {line!r}"
            if fam in required:
                assert line.startswith("✅"), f"{name} is required and covered: {line!r}"
            else:
                covered_in_group += line.startswith("✅")
        if space.group:
            have = sum(bool(_coverers(state, f, names)) for f in group)
            assert covered_in_group == min(space.group.k, have), f"the group block shows {covered_in_group} ✅"

    # Pending effects and the window's deadline; a last call.
    if state.pending or (r is not None and r.last_call is not None):
        assert state.deadline is not None
        if len(state.pending) > 1:
            for e in state.pending:
                shows(f"⏳ {_effect(e, names)}", "a pending effect")
        elif state.pending:
            top = _effect(state.pending[0], names).replace("**", "")
            shows(f"STOP or pass on {top}", "the pending effect")
        if r is not None and r.last_call is not None:
            shows(f"📣 Last call by **{names[r.boss]}**", "the last call")
        shows(f"Closes <t:{int(state.deadline.until.timestamp())}:R>", "when the reaction window closes")
    else:
        assert "Reaction window" not in text, f"no window is open:\n{text}"
