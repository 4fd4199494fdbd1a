"""Everything Casablanca's presentation words, rendered over whole seeded games (no Discord): the status, the
sheets, help lines, `/game move` suggestions, the announcement post, the private answers of the buttons, every
event the engine emits (public and private), every refusal code, the options' help, the rules summary and the
picture's labels. Each text comes with what it is (`Shown.what`), so a test can check Discord's limits too.

Used by the pseudo-language test (nothing unmarked) and the Dutch/German tests (everything translated, in limits)."""

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from bot.games.casablanca import picture, prompts, refusals
from bot.games.casablanca.narration import event_words
from bot.games.casablanca.presentation import CasablancaPresentation, public, reason_words
from bot.presentation import Post, Table
from bot.service import Refusal
from engine.casablanca.options import CasablancaOptions, Variant
from engine.casablanca.randomplay import play
from engine.casablanca.rules import Casablanca
from engine.casablanca.state import CasablancaState
from engine.errors import rule
from engine.events import Event
from storage.models import GameRecord, SeatRecord

NOW = datetime(2026, 1, 1, tzinfo=UTC)
NAMES = ["anna", "bert", "cleo", "dave"]
GAME = Casablanca()
PRESENTATION = CasablancaPresentation()


@dataclass(frozen=True)
class Shown:
    what: str
    """"button", "option" (a select option or autocomplete), "title", "field", "field_name", "description",
    "content", "footer", "line" (a message line), "form_title", "form_label", "placeholder", "picture"."""
    text: str


def table(state: CasablancaState | None, status: str = "active") -> Table:
    record = GameRecord(id=7, kind="casablanca", status=status, version=3, thread_id=99, created_at=NOW, updated_at=NOW)
    seats_n = state.seats if state is not None else 3
    seats = [
        SeatRecord(game_id=7, joined_at=NOW, seat=s, player_id=100 + s, display_name=NAMES[s], dm_ok=True)
        for s in range(seats_n)
    ]
    return Table(GAME, record, seats, state, NOW)


def post_texts(post: Post | None) -> list[Shown]:
    if post is None:
        return []
    out = []
    if post.content:
        out.append(Shown("content", post.content))
    if post.title:
        out.append(Shown("title", post.title))
    if post.description:
        out.append(Shown("description", post.description))
    if post.footer:
        out.append(Shown("footer", post.footer))
    for name, value in post.fields:
        out += [Shown("field_name", name), Shown("field", value)]
    out += [Shown("button", b.label) for b in post.buttons]
    return out


@contextmanager
def picture_words() -> Iterator[list[str]]:
    """The words the picture draws (whole, before wrapping and fitting)."""
    drawn: list[str] = []
    wrapping: list[bool] = []
    write, lines, fit = picture.write, picture._lines, picture.d.fit

    def my_write(draw: Any, xy: Any, words: str, *args: Any, **kw: Any) -> None:
        if not wrapping:  # a wrapped text's lines are recorded whole, by `my_lines`
            drawn.append(words)
        write(draw, xy, words, *args, **kw)

    def my_lines(draw: Any, xy: Any, words: str, *args: Any, **kw: Any) -> float:
        drawn.append(words)
        wrapping.append(True)
        try:
            return lines(draw, xy, words, *args, **kw)
        finally:
            wrapping.pop()

    picture.write, picture._lines, picture.d.fit = my_write, my_lines, lambda words, size, room: words  # type: ignore[assignment]
    try:
        yield drawn
    finally:
        picture.write, picture._lines, picture.d.fit = write, lines, fit  # type: ignore[assignment]


def _private_answers(t: Table, seat: int) -> list[Post]:
    """The private answers the seat's buttons open now (those that apply)."""
    view = prompts.seat_view(t, seat)
    ann = view.announcement
    keys = ["mv", "hit", "br", "brs.0", "brs.7"]
    if ann is not None:
        keys += [f"obj.{ann.no}", f"askno.{ann.no}", f"con.{ann.no}.{len(view.auctions)}"]
    alive = [a.index for a in view.agents if a.at is not None]
    if alive:
        keys += [f"mva.{alive[0]}", f"bra.{alive[0]}"]
    out = []
    for key in keys:
        try:
            found = prompts.reply(t, seat, key)
        except Refusal as refused:
            out.append(Post(content=str(refused)))
            continue
        if found is not None:
            out.append(found)
    try:
        prompts.action(t, seat, "lim.99999.0")
    except Refusal as refused:
        out.append(Post(content=str(refused)))
    return out


def _form(t: Table, seat: int) -> list[Shown]:
    form = prompts.bribe_form(t, seat, "brf.7")
    if form is None:
        return []
    out = [Shown("form_title", form.title)]
    for f in form.fields:
        out += [Shown("form_label", f.label), Shown("placeholder", f.placeholder)]
    try:
        prompts.form_bribe(t, seat, "brf.7", ["lots"] * len(form.fields))
    except Refusal as refused:
        out.append(Shown("content", str(refused)))
    return out


def state_texts(state: CasablancaState, events: list[Event], status: str = "active") -> list[Shown]:
    """Everything worded about one state (and the events that led to it)."""
    t = table(state, status)
    out: list[Shown] = []
    out += post_texts(PRESENTATION.status(t))
    out += post_texts(PRESENTATION.status_details(t))
    for post in PRESENTATION.live_posts(t):
        out += post_texts(post)
    view = public(t)
    for event in events:
        words = event_words(t, view, event)
        assert words is not None, f"no words for the event {event.kind} {event.data}"
        out.append(Shown("line", words))
        line = PRESENTATION.event_line(t, event)
        if line:
            out.append(Shown("line", str(line)))
    for post in PRESENTATION.event_posts(t, events):
        out += post_texts(post)
    for wait in GAME.waiting_on(state):
        task = PRESENTATION.wait_task(t, wait, t.names)
        if task.task:
            out.append(Shown("line", task.task))
    for seat in range(state.seats):
        out += post_texts(PRESENTATION.private_view(t, seat))
        out += [Shown("line", line) for line in PRESENTATION.help_lines(t, seat)]
        legal = GAME.legal_actions(state, seat)
        out += [Shown("option", words) for _a, words in PRESENTATION.move_choices(t, seat, legal)]
        if state.phase != "over":
            for post in _private_answers(t, seat):
                out += post_texts(post)
            out += _form(t, seat)
    if state.phase == "over" or status != "active":
        out += [Shown("line", line) for line in PRESENTATION.summary(t)]
        result = GAME.result(state) or GAME.standings(state)
        out.append(Shown("line", reason_words(result.reason)))
        out += [Shown("line", PRESENTATION.score_text(t, s.score)) for s in result.standings]
    with picture_words() as drawn:
        PRESENTATION.picture(GAME, GAME.view(state, None), NAMES[: state.seats])
    out += [Shown("picture", words) for words in drawn]
    return out


def game_texts(seats: int, seed: int, variant: bool = False, every: int = 1) -> list[Shown]:
    """A whole seeded random game's words: every `every`-th state (and always the last), with each step's events."""
    out: list[Shown] = []
    steps: list[tuple[CasablancaState, list[Event]]] = []

    def step(state: CasablancaState, actor: int | None, action: Any, outcome: Any, now: datetime) -> None:
        steps.append((outcome.state.model_copy(deep=True), list(outcome.events)))

    options = CasablancaOptions(variant=Variant.hq if variant else Variant.main)
    first = GAME.setup(seats, options, seed, NOW)
    out += state_texts(first, GAME.setup_events(first))
    played = play(GAME, seats, seed, options=options, on_step=step, max_actions=400)
    pending: list[Event] = []
    for i, (state, events) in enumerate(steps):
        pending += events
        if i % every == 0 or i == len(steps) - 1:
            out += state_texts(state, pending)
            pending = []
    out += state_texts(played.state, [], status="abandoned" if played.state.phase != "over" else "finished")
    return out


ENGINE_CODES = re.compile(r"""rule\(\s*"([a-z_]+)\"""")


def engine_codes() -> set[str]:
    """Every refusal code the engine raises (read from its sources)."""
    from pathlib import Path

    folder = Path(__file__).resolve().parents[4] / "engine" / "casablanca"
    found = set()
    for path in folder.glob("*.py"):
        found |= set(ENGINE_CODES.findall(path.read_text()))
    return found


SAMPLE_VALUES: dict[str, dict[str, Any]] = {
    "no_such_agent": {"name": "pink", "colours": ["green", "purple", "blue", "white"]},
    "no_such_building": {"name": "Casino"},
    "not_in_steps": {"what": "bribe", "amount": 150},
    "bribe_agent_out": {"agent": 1},
    "agent_named_twice": {"agent": 1},
    "first_bribe_three": {"least": 3},
    "agent_out": {"agent": 2},
    "already_there": {"agent": 0, "building": "Rick's Café"},
    "not_adjacent": {"agent": 4, "source": "Airport", "to": "7", "ways": ["2", "6"]},
    "no_suitcase_here": {"agent": 4, "source": "Airport"},
    "victim_out": {"victim": 1},
    "hit_itself": {"agent": 0},
    "not_together": {"agent": 0, "victim": 4, "building": "Rick's Café"},
    "hit_needs_money": {"agent": 0, "cost": 1000},
    "limit_above_bribe": {"agent": 1},
    "objection_being_taken": {"seat": 0},
    "not_your_announcement": {"seat": 0},
    "player_count": {"variant": True, "least": 2, "most": 4, "count": 5},
    "first_seat_range": {"seats": 3},
    "choose_hq_first": {"seat": 1},
    "waiting_for_objections": {"seat": 1},
    "separate_turns": {"deed": "move"},
    "not_your_turn": {"seat": 2},
    "first_turn_bribe": {"least": 3},
    "not_your_hq_turn": {"seat": 1},
    "not_an_hq": {"building": "Bazaar", "free": ["Airport", "Hotel"]},
    "hq_taken": {"hq": "Hotel", "seat": 1},
    "already_left": {"seat": 2},
}


def refusal_texts(state: CasablancaState) -> dict[str, str]:
    """Every engine code in words (with sample values), plus the variants of a few."""
    t = table(state)
    out = {}
    extra = [
        ("not_in_steps", {"what": "limit", "amount": 150}),
        ("separate_turns", {"deed": "hit"}),
        ("player_count", {"variant": False, "least": 2, "most": 8, "count": 9}),
    ]
    for code in sorted(engine_codes()):
        words = refusals.refusal_words(t, rule(code, **SAMPLE_VALUES.get(code, {})))
        assert words is not None, f"no words for the refusal {code}"
        out[code] = words
    for code, values in extra:
        words = refusals.refusal_words(t, rule(code, **values))
        assert words is not None
        out[f"{code}:{values}"] = words
    return out


def other_texts() -> list[Shown]:
    """The rules summary and the options' help."""
    out = [Shown("line", PRESENTATION.rules(GAME))]
    for name in ("variant", "first_seat", "deal_hqs"):
        words = PRESENTATION.option_help(name)
        assert words is not None
        out.append(Shown("line", words))
    return out
