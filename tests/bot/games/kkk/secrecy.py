"""The secrecy checks every KKK bot test runs after each step: nothing public, and nothing shown to another player,
may depend on what is in a hand.

Words alone can't prove that ("dave draws 3 cards (one is a Piepenbrok travel)" names no hand; "cleo holds 1 STOP"
names no card code), so the main check compares *twins*: the same table with other cards in the hands.

- `swap_hands(state, seats)`: a twin whose hands at `seats` hold other cards of the same number (types the hand
  lacks first, STOP and Boss cards first of all, so for a hand of ordinary size "holds a STOP" flips both ways),
  taken from those hands and the draw pile; the draw pile keeps its size, so the 98 cards are all still there and
  every public count is unchanged. Until the game is over, those seats also pass their money round (the running
  totals are private, rules/kkk.md "What is secret"; the sum stays that of the payouts).
- `assert_public_same(table, entries)`: with every hand swapped, the status post, the narration lines and tracked
  posts of the given log entries' public events, and the live posts must render identically; and for each seat,
  with only the OTHER seats' hands swapped, its view and its DM (the private view) must be identical.
- `SecretProbe`: the engine the tests' bot runs (a `KKK` subclass). It records every refusal of a player's action
  (state, seat, action, reason), so a refusal can be re-applied to a twin: the reason must not change. And while
  `probe.twin` is set, every state the bot loads from the store is swapped first — the tests re-run a refused
  command, a refused click or an autocomplete request through Discord on that twin and require the same answer. An
  action the twin would accept is refused with `ACCEPTED_ON_TWIN` (so a twin is never committed, and the answer
  differs, failing the check).
- `TextCheck`: the textual check, on the raw messages of SimCord's backend (only those new or changed since the
  last step are read): no public message shows a hand block, a card code or private wording; no DM or ephemeral
  reply shows another player's hand block; each player's DM shows their current hand.
"""

import difflib
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

import simcord

from bot.games.kkk.posts import OFFER, SHAKE, offer_key
from bot.games.kkk.words import hand_block
from bot.presentation import Post, Presentation, Table
from engine.errors import RuleError
from engine.events import Event
from engine.kkk.cards import BOSS, FAMILIES, JOKER, RECRUIT, STOP, clan, travel
from engine.kkk.rules import KKK, clone
from engine.kkk.state import KkkState
from storage import LogEntry
from storage.models import MessageRef
from tests.bot.i18n.pseudo import unmarked

ACCEPTED_ON_TWIN = "⚠️ (test probe) the twin table would have ACCEPTED this action"
PRIORITY = (STOP, BOSS, RECRUIT, JOKER, *(travel(f) for f in FAMILIES), *(clan(f) for f in FAMILIES))
"""The order in which a twin hand takes card types: secrets people ask about first."""
CODE = re.compile(r"\b(?:clan|travel):[HKLPRT*]")
PRIVATE_PHRASES = ("You drew", "You discarded", "You hold", "Your hand", "only you see")


# --- twins ------------------------------------------------------------------------------------------------------


def swap_hands(state: KkkState, seats: Iterable[int]) -> KkkState | None:
    """A twin of `state` whose hands at `seats` hold other cards (same numbers); None if no hand could change."""
    seats = sorted(set(seats))
    twin = clone(state)
    pool = Counter(state.draw)
    for s in seats:
        pool += Counter(state.hands[s])
    for s in seats:
        held = Counter(state.hands[s])
        size = len(state.hands[s])
        new: list[str] = []
        for kinds in ([k for k in PRIORITY if not held[k]], list(PRIORITY)):
            while len(new) < size:
                took = False
                for k in kinds:
                    if len(new) < size and pool[k] > 0:
                        pool[k] -= 1
                        new.append(k)
                        took = True
                if not took:
                    break
        twin.hands[s] = sorted(new)
    twin.draw = sorted(pool.elements())
    assert len(twin.draw) == len(state.draw) and [len(h) for h in twin.hands] == [len(h) for h in state.hands]
    if all(Counter(twin.hands[s]) == Counter(state.hands[s]) for s in seats):
        return None
    if state.phase != "over" and len(seats) > 1:  # running totals are private too: pass the money round
        for s, m in zip(seats, [state.money[s] for s in seats[1:] + seats[:1]], strict=True):
            twin.money[s] = m
    return twin


def same_post(a: Post, b: Post) -> bool:
    return _post_key(a) == _post_key(b)


def _post_key(p: Post) -> tuple[Any, ...]:
    return (p.content, p.title, p.description, p.fields, p.footer, p.buttons, p.ref, p.reactions)


def _show(p: Post) -> str:
    return "\n".join(x for x in [p.content, p.title or "", p.description or ""] + [f"{n}: {v}" for n, v in p.fields])


def _diff(a: Post, b: Post) -> str:
    """The lines that differ between a post and its twin's."""
    lines = difflib.unified_diff(_show(a).splitlines(), _show(b).splitlines(), "real", "twin", n=0, lineterm="")
    return "\n".join(lines) or f"(same text; buttons, refs or reactions differ: {a.buttons} vs {b.buttons})"


def public_events(entries: Iterable[LogEntry]) -> list[Event]:
    return [e for entry in entries for e in (Event.model_validate(x) for x in entry.events) if e.public]


@dataclass
class TwinCount:
    """How many comparisons had really different hands (a twin check that never ran would prove nothing)."""

    public: int = 0
    private: int = 0
    refusals: int = 0
    suggestions: int = 0


def assert_public_same(presentation: Presentation, table: Table, entries: list[LogEntry], count: TwinCount) -> None:
    state = table.state
    assert isinstance(state, KkkState)
    events = public_events(entries)
    twin_state = swap_hands(state, range(state.seats))
    if twin_state is not None:
        twin = replace(table, state=twin_state)
        a, b = presentation.status(table), presentation.status(twin)
        assert same_post(a, b), f"the status depends on a secret (a hand or private money):\n{_diff(a, b)}"
        lines = [presentation.event_line(table, e) for e in events]
        twin_lines = [presentation.event_line(twin, e) for e in events]
        assert lines == twin_lines, f"narration depends on a secret (a hand or private money): {lines} vs {twin_lines}"
        for kind, (xs, ys) in {
            "tracked post": (presentation.event_posts(table, events), presentation.event_posts(twin, events)),
            "live post": (presentation.live_posts(table), presentation.live_posts(twin)),
        }.items():
            assert len(xs) == len(ys) and all(same_post(x, y) for x, y in zip(xs, ys, strict=True)), (
                f"a {kind} depends on a secret (a hand or private money): "
                f"{[_show(x) for x in xs]} vs {[_show(y) for y in ys]}"
            )
        count.public += 1
    game = table.game
    for s in range(state.seats):
        others = swap_hands(state, [o for o in range(state.seats) if o != s])
        if others is None:
            continue
        twin = replace(table, state=others)
        assert game.view(state, s) == game.view(others, s), f"seat {s}'s view depends on another player's secrets"
        a, b = presentation.private_view(table, s), presentation.private_view(twin, s)
        assert same_post(a, b), f"{table.names[s]}'s DM depends on another player's secrets:\n{_diff(a, b)}"
        count.private += 1


# --- the engine the tests' bot runs -----------------------------------------------------------------------------


@dataclass
class Refused:
    state: KkkState
    seat: int
    action: Any
    now: datetime
    message: str


class SecretProbe(KKK):
    """KKK, recording refusals and able to play on a twin (see the module docstring)."""

    def __init__(self, data: Any = None) -> None:
        super().__init__(data)
        self.twin: Callable[[KkkState], KkkState] | None = None
        self.refusals: list[Refused] = []

    def load_state(self, data: str | bytes | dict[str, Any]) -> KkkState:
        state = super().load_state(data)
        return self.twin(state) if self.twin is not None else state

    def apply(self, state: KkkState, actor: int | None, action: Any, now: datetime) -> Any:
        try:
            outcome = super().apply(state, actor, action, now)
        except RuleError as exc:
            if actor is not None and self.twin is None:
                self.refusals.append(Refused(state, actor, action, now, exc.message))
            raise
        if self.twin is not None:
            raise RuleError(ACCEPTED_ON_TWIN)
        return outcome


def install_probe(bot: Any) -> SecretProbe:
    """Make the bot's KKK engine a `SecretProbe` (a restarted bot may have been given a plain one)."""
    game = bot.service.read.games["kkk"]
    if not isinstance(game, SecretProbe):
        game = SecretProbe(game.data)
        bot.service.read.games["kkk"] = game
    return game


def assert_public_refusal_same(presentation: Presentation, table: Table, refused: Refused, count: TwinCount) -> None:
    """A refusal the table is told about (a refused 🤝, or a `/kkk shake` the game posts too) reads the same with
    every hand swapped."""
    twin_state = swap_hands(refused.state, range(refused.state.seats))
    if twin_state is None:
        return
    real, twin = replace(table, state=refused.state), replace(table, state=twin_state)
    said = getattr(presentation.controls, "action_refused", None)
    if said is not None:
        a, b = (said(x, refused.seat, refused.action, refused.message) for x in (real, twin))
        assert (a is None) == (b is None) and (a is None or same_post(a, b)), (
            f"the table's line for a refused move depends on a hand: {a and _show(a)!r} vs {b and _show(b)!r}"
        )
    offer = getattr(refused.action, "offer", None)
    if isinstance(offer, int):
        reopened = next((o.reopened for o in refused.state.offers if o.id == offer), 0)
        ref = MessageRef(
            message_id=0, channel_id=0, game_id=table.record.id, kind=OFFER, key=offer_key(offer, reopened)
        )
        a, b = (
            presentation.controls.reaction_refused(x, ref, refused.seat, SHAKE, True, refused.message)
            for x in (real, twin)
        )
        assert (a is None) == (b is None) and (a is None or same_post(a, b)), (
            f"the table's line for a refused 🤝 depends on a hand: {a and _show(a)!r} vs {b and _show(b)!r}"
        )


def assert_refusal_same(probe: SecretProbe, refused: Refused, seats: Iterable[int], count: TwinCount) -> None:
    """The refusal's reason is the same on a twin whose hands at `seats` differ."""
    twin = swap_hands(refused.state, seats)
    if twin is None:
        return
    try:
        KKK.apply(probe, twin, refused.seat, refused.action, refused.now)  # the plain rules, nothing recorded
    except RuleError as exc:
        assert exc.message == refused.message, (
            f"the refusal of {refused.action!r} depends on a hand it must not read: "
            f"{refused.message!r} vs {exc.message!r}"
        )
    else:
        raise AssertionError(f"{refused.action!r} was refused ({refused.message!r}) but a twin accepts it")
    count.refusals += 1


# --- the words of the messages ------------------------------------------------------------------------------


def raw_text(message: Any, *, hand_fields: bool = True) -> str:
    """A SimCord backend message's text: content and embeds (title, description, fields, footer)."""
    parts = [message.content or ""]
    for e in message.embeds:
        parts += [e.get("title") or "", e.get("description") or "", (e.get("footer") or {}).get("text") or ""]
        for f in e.get("fields") or []:
            if hand_fields or not str(f.get("name") or "").startswith("🃏"):
                parts.append(f"{f.get('name')}: {f.get('value')}")
    return "\n".join(p for p in parts if p)


def raw_hand_fields(message: Any) -> list[str]:
    """The values of a message's hand fields (the DM's and `/game hand`'s "🃏 Your hand (n cards)")."""
    return [
        str(f.get("value") or "")
        for e in message.embeds
        for f in e.get("fields") or []
        if str(f.get("name") or "").startswith("🃏")
    ]


class TextCheck:
    """The textual check, incremental: a message is read when it is new or has changed since the last step."""

    def __init__(self, env: simcord.Env, public_channels: list[int], players: list[Any]) -> None:
        self.env = env
        self.public_channels = public_channels
        self.players = players
        self.seen: dict[int, tuple[str, str]] = {}

    def _changed(self, channel_id: int) -> list[Any]:
        out = []
        for m in self.env.backend.messages.get(channel_id, {}).values():
            key = (m.content, repr(m.embeds))
            if self.seen.get(m.id) != key:
                self.seen[m.id] = key
                out.append(m)
        return out

    def check(self, hands: list[list[str]]) -> None:
        # As Discord holds it: under the pseudo-language the transcript stores texts without their ⟦ ⟧ marks.
        blocks = [unmarked(hand_block(h)) for h in hands]
        ids = {p.id: seat for seat, p in enumerate(self.players)}
        names = [p.name for p in self.players]
        for channel in self.public_channels:
            for m in self._changed(channel):
                text = raw_text(m)
                if not m.is_ephemeral:
                    for seat, block in enumerate(blocks):
                        assert block not in text, f"{names[seat]}'s hand is in a public message:\n{text}"
                    assert not CODE.search(text), f"a card code in public: {text}"
                    for phrase in PRIVATE_PHRASES:
                        assert phrase not in text, f"private wording in public: {text}"
                    continue
                viewer = next((u for u in ids if m.visible_to(u)), None)
                self._private(m, ids.get(viewer) if viewer is not None else None, blocks, names)
        for seat, p in enumerate(self.players):
            dm = self.env.backend.get_dm_channel(p.id)
            for m in self._changed(dm.id):
                self._private(m, seat, blocks, names)
            stored = self.env.backend.messages.get(dm.id, {}).values()
            assert any(blocks[seat] in raw_hand_fields(m) for m in stored), f"{names[seat]}'s DM lacks their hand"

    @staticmethod
    def _private(m: Any, viewer: int | None, blocks: list[str], names: list[str]) -> None:
        """A message only `viewer` sees: no other player's hand, neither as its hand field nor in other text."""
        fields, other = raw_hand_fields(m), raw_text(m, hand_fields=False)
        for seat, block in enumerate(blocks):
            if seat == viewer or (viewer is not None and blocks[viewer] == block):
                continue
            who = names[viewer] if viewer is not None else "someone outside the game"
            assert block not in fields, f"{names[seat]}'s hand is shown to {who}"
            assert block not in other, f"{names[seat]}'s hand is in a message to {who}:\n{other}"
