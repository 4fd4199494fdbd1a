"""How a game looks and feels in Discord: the hooks a game's package under `bot/games/<game>/` implements.

The platform (lobby, service, notifier, scheduler, moderators) never knows a game's rules or its views' shape; it
asks the game's `Presentation` for:

- `status(table)`: the one public status message of the table thread (content, embed, buttons);
- `private_view(table, seat)`: a seat's hand, for its DM message and `/game hand` (only `view(state, seat)`!). Its
  `buttons` are the seat's private buttons: they ride on the hand DM and on the ephemeral `/game hand` answer, and a
  click on them is that seat's move (see "Private buttons" below);
- `event_line(table, event)`: one line of public narration for an event (None: say nothing). An `Aside` (a `str`)
  is a line that something else already shows publicly (the status, an offer's message): the platform says it only
  where it costs no new message — added to the thread's newest narration message — and drops it otherwise;
- `event_posts(table, events)`: extra thread messages the game wants tracked (e.g. one message per offer, with 🤝
  added), each with a `ref` so later reactions on it map back to the game. A new one marked `replaces_narration`
  says all that the action's events say: it is posted *instead of* the narration message (one message, not two) —
  as the command's reply when there is one — with the platform's own lines (who is awaited, with mentions) below
  it;
- `live_posts(table)`: tracked messages whose look follows the current state (e.g. the prompt of the turn under
  way): after every change of the game, including a moderator's undo that has no events, each one that was posted
  (by `event_posts`) is edited to match; it is never posted from here, and an unchanged one costs no call;
- `summary(table)`: a few lines summing up a finished game for its final message, under the standings (e.g. KKK's
  deals concluded and each player's biggest payout; Kesse Rügen's fields held). Default: none;
- `score_text(table, score)`: a score as players read it (e.g. "$48M"), for the standings the platform posts;
- `status_details(table)`: the whole table in full (e.g. the board's every space, every offer), for a status kept to
  one phone screen: shown privately to whoever clicks the status's `Details` button (key "details", answered by the
  platform, players and onlookers alike). None (the default): the status says it all;
- `picture(game, view, names)`: the table drawn as PNG bytes from the public view `game.view(state, None)` and the
  seats' display names alone (None: no picture; the default). The platform shows it as the status embed's image and
  uploads it only when it changed; it runs in a worker thread, so it must not touch anything but its arguments (see
  `bot.pictures`; `bot.drawing.names` makes the names drawable and short);
- `help_lines(table, seat)`: what `seat` may do right now, one line per kind of move (`legal_actions` grouped by
  type), each naming the exact command or button — the heart of `/game help` and the status's "❓ What can I do?"
  button (the platform adds who is awaited and how to follow; see `bot.helping`). The generic one asks
  `help_line(table, seat, kind, actions)` per kind; a game overrides `help_line` to name its own commands (and
  `help_lines` to merge or add lines);
- `describe_action(table, seat, action)`: one legal move as a player reads it, at most 100 characters — the
  suggestions of `/game move`, which never shows a player JSON (default: the action's fields in words);
- `move_choices(table, seat, actions)`: the moves `/game move` suggests, in order, each with its words (default: the
  legal `actions`, each as `describe_action` says it) — a game whose legal list only samples a free amount (e.g.
  Casablanca's bribes) offers better ones here, worked out from the seat's own view; a picked one is checked by the
  engine like any move;
- `rules(game)`: the one-paragraph summary `/game rules` lists games with (the paged rules themselves are the
  player's pages `docs/rules/<game>.md`, see `bot.rules`);
- `prompt_in_hand(table, wait)`: whether a player newly awaited for this wait decides on their hand DM (its buttons
  are there: a secret choice, a duel's guess, a trade from the hand) and so is prompted there: the hand comes down
  to them as a new DM that says it's on them (a DM notifies; an edit doesn't), and the thread's narration names
  them without a mention — so a step that only moves such a decision along adds no new message to the thread.
  Default: never (a player whose DMs are closed, or who just acted, is never prompted by DM);
- `cog(bot)`: extra slash commands (e.g. the `/kkk` group), added at start-up and synced with the others.

Two jobs are not drawing, and each is its own small object the presentation holds (composed, not inherited; a game
names its subclasses in `controls_type` / `hands_type`):

- `controls` (`bot.controls.Controls`): the input mapping — the action behind a button, a form or a reaction, a
  private answer to a button, stray and refused reactions, refused moves, the tracked messages to reconcile, an
  away player's move: e.g. `presentation.controls.button_action(table, seat, key)`;
- `hands` (`bot.hands.Hands`): the hand message's fingerprint — `hands.digest(game, state, seat)`, what the DM shows
  as text, and `hands.buttons(table, seat)`, so the DM is edited only when either changes (`hand_fingerprint`).

Private buttons. A click on a button of a seat's hand DM acts for that seat and must come from its player (anyone
else, e.g. after `/mod kick`, is refused privately); a click on an ephemeral message (a `/game hand` answer or a
`controls.button_reply`) acts for the clicker's seat. Either way the clicked message is then brought up to date as the
seat's current hand (the interaction's own response, so it costs no extra call), and the move's narration goes to
the table thread as a normal post.

`GenericPresentation` implements every hook from the engine alone (public and private views dumped field by field,
the events' own texts; the default `Controls` find the Pass button's and the away player's pass among
`legal_actions`), so any registered game is playable at the platform level before its own presentation exists. A
game's presentation subclasses it and overrides what it wants. Everything here is pure rendering: no Discord calls,
no database.

What the hooks take and give lives beside this module and is re-exported here: the `Table` (`bot.table`) and the
`Post`, `Button` and `Aside` values (`bot.post`).
"""

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from bot.controls import Controls, legal_pass
from bot.hands import Hands

# The hand fingerprint's helpers, re-exported: they moved to `bot.hands` with the fingerprint hooks.
from bot.hands import button_signature as button_signature
from bot.hands import hand_fingerprint as hand_fingerprint
from bot.hands import private_part as private_part
from bot.hands import private_post as private_post
from bot.i18n.platform import _

# The values a presentation takes and gives, re-exported: every game's package imports them from here.
from bot.post import MAX_CONTENT as MAX_CONTENT
from bot.post import MAX_EMBED as MAX_EMBED
from bot.post import Aside as Aside
from bot.post import Button as Button
from bot.post import ButtonStyle as ButtonStyle
from bot.post import Post as Post
from bot.post import Task as Task
from bot.post import cut
from bot.table import Table as Table
from bot.table import moment as moment
from bot.table import timestamp as timestamp
from bot.table import waiting_lines as waiting_lines
from engine.errors import RuleError
from engine.events import Event, Wait
from engine.game import Game, Result

if TYPE_CHECKING:
    from discord.ext import commands


def _value(value: Any, limit: int = 300) -> str:
    if isinstance(value, str):
        text = value
    elif isinstance(value, list | tuple) and all(isinstance(v, int | str) for v in value):
        text = ", ".join(str(v) for v in value) if value else "—"
    else:
        text = json.dumps(value, separators=(", ", ": "), default=str)
    return cut(text, limit)


def _label(name: str) -> str:
    return name.replace("_", " ").capitalize()


PER_SEAT_SUFFIXES = ("scores", "sizes", "by_seat", "per_seat", "counts", "money")


def model_fields(
    data: BaseModel | dict[str, Any], names: Sequence[str], skip: Sequence[str] = ()
) -> list[tuple[str, str]]:
    """A view as (label, value) pairs. A list field named like `scores`, `hand_sizes` or `…_by_seat` with one entry
    per seat is shown with the seats' names."""
    if isinstance(data, BaseModel):
        data = data.model_dump(mode="json")
    out: list[tuple[str, str]] = []
    for key, value in data.items():
        if key in skip or value is None:
            continue
        per_seat = key.endswith(PER_SEAT_SUFFIXES) and isinstance(value, list) and len(value) == len(names)
        if per_seat:
            value = ", ".join(f"{names[i]}: {_value(v, 60)}" for i, v in enumerate(value))
        out.append((_label(key), _value(value)))
    return out


class Presentation:
    """The hooks; see the module docstring. Subclass `GenericPresentation` rather than this."""

    controls_type: type[Controls] = Controls
    """The game's input mapping (`self.controls`), made with this presentation."""
    hands_type: type[Hands] = Hands
    """The game's hand fingerprints (`self.hands`), made with this presentation."""

    def __init__(self) -> None:
        self.controls = self.controls_type(self)
        self.hands = self.hands_type(self)

    def status(self, table: Table) -> Post:
        raise NotImplementedError

    def private_view(self, table: Table, seat: int) -> Post:
        raise NotImplementedError

    def event_line(self, table: Table, event: Event) -> str | None:
        raise NotImplementedError

    def event_posts(self, table: Table, events: Sequence[Event]) -> list[Post]:
        return []

    def summary(self, table: Table) -> list[str]:
        """A few lines summing up the finished game, for its final message (see the module docstring)."""
        return []

    def status_details(self, table: Table) -> Post | None:
        """The whole table in full, for the status's Details button (see the module docstring)."""
        return None

    def live_posts(self, table: Table) -> list[Post]:
        """Tracked messages to bring up to date after any change (edited only if already posted)."""
        return []

    def score_text(self, table: Table, score: int) -> str:
        """A score as the players read it in the standings (e.g. "$48M" for money)."""
        return str(score)

    def picture(self, game: Game, view: BaseModel, names: Sequence[str]) -> bytes | None:  # type: ignore[type-arg]
        """The table as a PNG, drawn from the public view and the seats' display names only (called in a worker
        thread); None: no picture."""
        return None

    def help_lines(self, table: Table, seat: int) -> list[str]:
        """What `seat` may do right now, one line per kind of move with its command or button; [] for nothing."""
        return []

    def describe_action(self, table: Table, seat: int, action: Any) -> str:
        """One legal move as a player reads it (a `/game move` suggestion: at most 100 characters, no JSON)."""
        return describe_fields(table, action)

    def move_choices(self, table: Table, seat: int, actions: Sequence[Any]) -> list[tuple[Any, str]]:
        """The moves `/game move` suggests to `seat`, in order, each with its words (see the module docstring)."""
        return [(a, self.describe_action(table, seat, a)) for a in actions]

    def rules(self, game: Game) -> str:  # type: ignore[type-arg]
        return game.summary

    def wait_task(self, table: Table, wait: Wait, names: Sequence[str]) -> Task:
        """What the awaited of `wait` are to do, in the language being spoken, with `names` for the seats it names
        (the engine's `wait.what` is a code, `wait.about` its values). Default: the engine's text as it was."""
        from bot.awaiting import legacy_task

        return legacy_task(wait, names)

    def reason_words(self, table: Table, reason: str) -> str:
        """How a game ended (`Result.reason`, the engine's code), as the standings' last line says it, in the
        language being spoken. Default: the reason as the engine gives it."""
        return reason

    def private_line(self, table: Table, event: Event) -> str | None:
        """One line for the hand DM of the seat a private event is addressed to ("You drew …"), in the language
        being spoken (the player's own); None: nothing to say. Default: the text of an event stored before the
        engines stopped wording."""
        return table.render(event.text) if event.text else None

    def refusal_words(self, table: Table, error: RuleError) -> str:
        """A refused move (`error.code`, `error.values`) as the player who tried reads it, in the language being
        spoken: short, naming the fix. Default: the engine's fallback message with the players' names."""
        return table.render(error.message)

    def option_help(self, name: str) -> str | None:
        """What the game's own option `name` does, one phrase in the language being spoken, for `/game rules` and
        refusals (None: the options model's docstring, English)."""
        return None

    def prompt_in_hand(self, table: Table, wait: Wait) -> bool:
        """Whether a player newly awaited for `wait` is prompted in their hand DM rather than by a mention in the
        thread (see the module docstring). Default: never."""
        return False

    def cog(self, bot: "commands.Bot") -> "commands.Cog | None":
        return None


class GenericPresentation(Presentation):
    """Works for any game from its engine alone."""

    colour = 0x2B6CB0

    def status(self, table: Table) -> Post:
        game = table.game
        footer = _("Game #%(id)d · %(game)s", id=table.record.id, game=game.name)
        post = Post(title=table.title, colour=self.colour, footer=footer)
        lines: list[str] = []
        players = ", ".join(f"**{n}**" for n in table.names) or "—"
        if table.state is None:
            post.description = _("Waiting in the lobby. Players: %(players)s", players=players)
            return post
        result = table.result
        if result is not None or table.record.status in ("finished", "abandoned"):
            standings = result or game.standings(table.state)  # type: ignore[arg-type]
            lines.append(_("**Game over.**") if result is not None else _("**Game ended by a moderator.**"))
            lines += standings_lines(table, standings, self)
            post.description = "\n".join(lines)
            return post
        if table.record.status == "paused":
            lines.append(_("⏸️ **Paused by a moderator** — deadlines are on hold."))
        lines.append(_("Players: %(players)s", players=players))
        lines += waiting_lines(table)
        post.description = "\n".join(lines)
        post.fields = model_fields(game.view(table.state, None), table.names, skip=("seat",))  # type: ignore[arg-type]
        post.buttons = [Button(_("My hand"), "hand", "primary", "🂠")]
        if pass_possible(table):
            post.buttons.append(Button(_("Pass"), "pass", "secondary"))
        return post

    def private_view(self, table: Table, seat: int) -> Post:
        assert table.state is not None
        mine = private_part(table.game, table.state, seat)
        return Post(
            title=_("Your hand — %(title)s", title=table.title),
            description=None if mine else _("Nothing secret in your hand right now."),
            fields=model_fields(mine, table.names, skip=("seat",)),
            colour=self.colour,
            footer=_(
                "Game #%(id)d · seat %(n)d (%(name)s)", id=table.record.id, n=seat + 1, name=table.plain_name(seat)
            ),
        )

    def event_line(self, table: Table, event: Event) -> str | None:
        return table.render(event.text) if event.text else None

    def rules(self, game: Game) -> str:  # type: ignore[type-arg]
        return game.summary or _(
            "%(game)s: %(least)d–%(most)d players.", game=game.title, least=game.min_seats, most=game.max_seats
        )

    def help_lines(self, table: Table, seat: int) -> list[str]:
        if table.state is None:
            return []
        groups = group_actions(table.game.legal_actions(table.state, seat))  # type: ignore[arg-type]
        return [line for kind, acts in groups.items() if (line := self.help_line(table, seat, kind, acts))]

    def help_line(self, table: Table, seat: int, kind: str, actions: Sequence[Any]) -> str | None:
        """One kind of legal move (all `actions` share the type `kind`): what it is, a few examples as
        `/game move` suggests them, and how to make it. None leaves the kind out."""
        shown = [f"“{self.describe_action(table, seat, a)}”" for a in actions[:3]]
        examples = ", ".join(shown)
        if len(actions) > 3:
            examples = _("%(examples)s and %(n)d more", examples=examples, n=len(actions) - 3)
        if kind == "pass" and pass_possible(table):
            how = _("the **Pass** button on the status message, or `/game move` (pick it from the suggestions)")
        else:
            how = _("`/game move` (pick it from the suggestions)")
        return f"• **{_label(kind)}** — {examples}: {how}"


def pass_possible(table: Table) -> bool:
    """Whether some reaction window waits on a seat that may pass now: the status then offers a Pass button."""
    return any(w.kind == "reaction" and any(legal_pass(table, s) is not None for s in w.seats) for w in table.waits)


SEAT_FIELDS = frozenset({"seat", "to", "target", "opponent", "player", "victim_seat"})
"""Action fields that hold a seat number: `describe_fields` shows the seat's name instead."""


def group_actions(actions: Sequence[Any]) -> dict[str, list[Any]]:
    """Legal actions by their `type`, in the order the game lists them (one `/game help` line per kind)."""
    groups: dict[str, list[Any]] = {}
    for action in actions:
        groups.setdefault(str(getattr(action, "type", type(action).__name__)), []).append(action)
    return groups


def _words(value: Any, names: Sequence[str] = ()) -> str:
    """A field's value in words: lists joined, a mapping as "key value" pairs — never JSON."""
    if isinstance(value, dict):
        return ", ".join(f"{k} {_words(v)}" for k, v in value.items()) or _("none")
    if isinstance(value, list | tuple):
        return ", ".join(_words(v) for v in value) or _("none")
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return str(value)


def describe_fields(table: Table, action: Any) -> str:
    """A move in words from its own fields: "Play: card 5", "Offer: price 3, family L, to bert" — the generic
    `describe_action`. Seat fields (`SEAT_FIELDS`) show the seat's name; empty and false fields are left out."""
    data = action if isinstance(action, dict) else table.game.dump_action(action)
    parts = []
    for key, value in data.items():
        if key == "type" or value is None or value is False or value in ((), [], {}):
            continue
        count = len(table.names)
        if key in SEAT_FIELDS and isinstance(value, int) and not isinstance(value, bool) and 0 <= value < count:
            value = table.plain_name(value)
        parts.append(key.replace("_", " ") if value is True else f"{key.replace('_', ' ')} {_words(value)}")
    label = _label(str(data.get("type", "move")))
    return cut(f"{label}: {', '.join(parts)}" if parts else label, 100)


def standings_lines(table: Table, result: Result, presentation: Presentation | None = None) -> list[str]:
    """The standings, one line a seat, each score as the game's `score_text` writes it."""
    medals = {1: "🥇", 2: "🥈", 3: "🥉"}
    score = presentation.score_text if presentation is not None else (lambda _t, n: str(n))
    lines = [
        f"{medals.get(s.rank, f'{s.rank}.')} **{table.names[s.seat]}** — {score(table, s.score)}"
        for s in result.standings
        if s.seat < len(table.names)
    ]
    if result.reason:
        why = presentation.reason_words(table, result.reason) if presentation is not None else result.reason
        lines.append(f"_{table.render(why)}_")
    return lines


def said(presentation: Presentation, table: Table, event: Event) -> str | None:
    """A public event as the table read it (`event_line`), or the words an event stored before the engines stopped
    wording carries; for accounts of what happened (`/game log`, an undo's preview)."""
    line = presentation.event_line(table, event)
    if line is None and event.text:
        line = table.render(event.text)
    return str(line) if line is not None else None
