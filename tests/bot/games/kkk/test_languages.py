"""Kohle, Kies & Knete in three languages (issue 28): every word the presentation shows is marked for gettext, the
Dutch and German catalogs translate it, and what it renders stays within Discord's limits.

One sweep renders everything a player can read from a seeded game of random legal play — the status and its
Details, every seat's hand, the help lines, every legal move's words, every public event's narration line and
tracked posts, every private note, every wait's task, and the picture's labels — plus every refusal code the engine
raises (the engine's own refusal cases, `tests/engine/kkk/test_refusals.py`). Then:

- in the pseudo-language `qps` (each translated message wrapped in ⟦…⟧), nothing outside the brackets is a word:
  only names (players', the families', the game's title), numbers, emoji, punctuation, markdown, mentions and
  timestamps;
- in Dutch and German, no line is the English one (except lines made only of names and numbers), and every button,
  select option, embed field, title and description fits Discord's limits.
"""

import re
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.games.kkk import picture, posts, refusals, status, telling
from bot.games.kkk.presentation import KkkPresentation
from bot.i18n import speaking
from bot.presentation import Aside, Post, Table
from engine import registry
from engine.errors import RuleError
from engine.kkk import randomplay
from engine.kkk.cards import FAMILY_NAMES
from engine.kkk.state import KkkState
from storage.models import GameRecord, SeatRecord
from tests.engine.kkk import test_refusals

NOW = datetime(2025, 1, 1, tzinfo=UTC)
NAMES = ("anna", "bert", "cleo", "dave")
KKK = registry.get("kkk")
PRESENTATION = KkkPresentation()


def table_for(state: KkkState, status: str = "active") -> Table:
    record = GameRecord(
        id=1, kind="kkk", status=status, seed=7, seat_count=state.seats, setup_at=NOW, version=3, created_at=NOW,
        updated_at=NOW,
    )  # fmt: skip
    seats = [
        SeatRecord(game_id=1, seat=i, player_id=100 + i, display_name=NAMES[i], joined_at=NOW)
        for i in range(state.seats)
    ]
    return Table(KKK, record, seats, state, NOW)


def posts_text(post: Post) -> Iterator[tuple[str, str]]:
    """(what, text) of every part of a post a player reads."""
    yield "content", post.content
    if post.title:
        yield "title", post.title
    if post.description:
        yield "description", post.description
    for name, value in post.fields:
        yield "field name", name
        yield "field", value
    if post.footer:
        yield "footer", post.footer
    for b in post.buttons:
        yield "button", b.label


def sweep(seed: int, seats: int = 4) -> Callable[[], list[tuple[str, str]]]:
    """A renderer of everything a seeded game shows, in the language being spoken (call it inside `speaking`)."""
    steps: list[tuple[KkkState, list[Any]]] = []

    def on_step(before: KkkState, actor: int | None, action: Any, outcome: Any, now: datetime) -> None:
        steps.append((outcome.state, list(outcome.events)))

    first = KKK.setup(seats, KKK.parse_options(), seed, NOW)
    randomplay.play(KKK, seats, seed, max_actions=3000, timeout_rate=0.05, on_step=on_step)

    def render() -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        setup = table_for(first)
        for e in KKK.setup_events(first):
            out.append(("event", PRESENTATION.event_line(setup, e) or ""))
        for i, (state, events) in enumerate(steps):
            table = table_for(state)
            if i % 7 == 0 or state.phase == "over" or any(e.kind in ("pending", "last_call") for e in events):
                out += [(f"status {k}", t) for k, t in posts_text(PRESENTATION.status(table))]
                details = PRESENTATION.status_details(table)
                if details is not None:
                    out += [(f"details {k}", t) for k, t in posts_text(details)]
                for s in range(state.seats):
                    out += [(f"hand {k}", t) for k, t in posts_text(PRESENTATION.private_view(table, s))]
                    out += [("help", line) for line in PRESENTATION.help_lines(table, s)]
                    for action in KKK.legal_actions(state, s)[:40]:
                        out.append(("move", PRESENTATION.describe_action(table, s, action)))
                for w in table.waits:
                    out.append(("wait", PRESENTATION.wait_task(table, w, list(NAMES)).task))
                out += [("summary", line) for line in PRESENTATION.summary(table)]
            for e in events:
                if e.public:
                    line = PRESENTATION.event_line(table, e)
                    out.append(("event", str(line) if line is not None else ""))
                else:
                    out.append(("note", telling.sentence(e, telling.plain(NAMES)) or ""))
            for post in PRESENTATION.event_posts(table, [e for e in events if e.public]):
                out += [(f"post {k}", t) for k, t in posts_text(post)]
        return out

    return render


def refusal_texts() -> list[tuple[str, str]]:
    """Every refusal case of the engine's tests, worded (and the codes they reach)."""
    out = []
    for case in test_refusals.CASES:
        t = case.build()
        actor = case.actor(t.state) if callable(case.actor) else case.actor
        action = case.action(t.state) if callable(case.action) else case.action
        try:
            KKK.apply(t.state, actor, action, t.now)
        except RuleError as exc:
            out.append((exc.code, refusals.refusal_words(table_for(t.state), exc)))
    try:
        KKK.setup(2, KKK.parse_options(), 1, NOW)
    except RuleError as exc:
        out.append((exc.code, refusals.refusal_words(table_for(KKK.setup(4, KKK.parse_options(), 1, NOW)), exc)))
    return out


def picture_texts(states: list[KkkState], monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    drawn: list[tuple[str, str]] = []
    real = picture.d.text

    def spy(draw: Any, xy: Any, text: str, *args: Any, **kwargs: Any) -> Any:
        drawn.append(("picture", text))
        return real(draw, xy, text, *args, **kwargs)

    monkeypatch.setattr(picture.d, "text", spy)
    for state in states:
        picture.draw_picture(KKK.view(state, None), list(NAMES))  # type: ignore[arg-type]
    return drawn


RENDER = sweep(11)
PROPER = sorted({*NAMES, *FAMILY_NAMES.values(), "Kohle, Kies & Knete"}, key=len, reverse=True)
NOT_WORDS = [
    re.compile(r"<@!?\d+>"),  # mentions
    re.compile(r"<t:\d+(:[a-zA-Z])?>"),  # timestamps
    re.compile(r"\b(" + "|".join(re.escape(p) for p in PROPER) + r")\b"),
    re.compile(r"\b[HKLPRT]\b"),  # the families' initials (the board's legend and code block)
    re.compile(r"\bkkk\b"),  # the game's kind, as in commands
]


def words_outside_brackets(text: str) -> str:
    """What is left of `text` outside ⟦…⟧ once names, mentions and timestamps are taken out: letters there are
    words nobody marked."""
    while True:
        stripped = re.sub(r"⟦[^⟦⟧]*⟧", "", text)
        if stripped == text:
            break
        text = stripped
    for pattern in NOT_WORDS:
        text = pattern.sub("", text)
    return "".join(re.findall(r"[A-Za-zÀ-ÿ]{2,}", text))


def test_every_refusal_code_the_engine_raises_has_words() -> None:
    """The codes `refusals` words are exactly those `raise rule("…")` names in engine/kkk, and each case says them."""
    from pathlib import Path

    raised: set[str] = set()
    for path in Path("engine/kkk").glob("*.py"):
        raised |= set(re.findall(r"""raise rule\(\s*["']([a-z_]+)["']""", path.read_text()))
    raised.add("no_such_player")  # raised through its constant, `NO_SUCH_PLAYER`
    assert raised <= refusals.CODES, raised - refusals.CODES
    assert raised >= refusals.CODES, refusals.CODES - raised
    reached = {code for code, _ in refusal_texts()}
    assert reached == refusals.CODES


def test_the_pseudo_language_shows_no_unmarked_word(monkeypatch: pytest.MonkeyPatch) -> None:
    with speaking("qps"):
        texts = RENDER() + refusal_texts()
        states = [KKK.setup(4, KKK.parse_options(), 11, NOW)]
        states += [t.state for t in (test_refusals.fresh(), test_refusals.over())]
        from tests.engine.kkk import tables

        states += [tables.round_d().state, tables.last_call_b().state, tables.pending_travel().state]
        texts += picture_texts(states, monkeypatch)
        tasks = [
            PRESENTATION.wait_task(table_for(s), w, list(NAMES)).task
            for s in (tables.over_c().state, tables.round_a().state, tables.last_call_b().state)
            for w in KKK.waiting_on(s)
        ]
        texts += [("wait", t) for t in tasks]
    kinds = {k.split()[0] for k, _ in texts}
    assert {"status", "details", "hand", "help", "move", "event", "note", "post", "wait", "picture"} <= kinds
    leaks = {(k, t) for k, t in texts if words_outside_brackets(t)}
    assert not leaks, sorted(leaks)[:20]


SHARED = re.compile(r"\b(STOP|Details|Clan|Boss|div)\b")
"""Words the glossary keeps the same in Dutch or German (the STOP card, the Details button, "Clan" and "Boss" in
German, the board's "div" abbreviation in Dutch)."""


def _lines(texts: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(k, line) for k, t in texts for line in t.splitlines()]


@pytest.mark.parametrize("lang", ["nl", "de"])
def test_dutch_and_german_say_every_line_in_their_words(lang: str) -> None:
    with speaking("en"):
        english = _lines(RENDER() + refusal_texts())
    with speaking(lang):
        translated = _lines(RENDER() + refusal_texts())
    assert len(english) == len(translated)
    same = [
        (k, en)
        for (k, en), (_, tr) in zip(english, translated, strict=True)
        # a line of only names and numbers reads the same, and so do the few words the languages share
        if en == tr and words_outside_brackets(SHARED.sub("", en))
    ]
    assert not same, same[:20]


LIMITS = {"button": 80, "field": 1024, "field name": 256, "title": 256, "description": 4096, "content": 2000}


@pytest.mark.parametrize("lang", ["en", "nl", "de"])
def test_what_is_shown_fits_discords_limits(lang: str) -> None:
    with speaking(lang):
        texts = RENDER()
        # The autocomplete suggestions (select options: ≤ 100) of a table in the middle of a deal.
        from bot.games.kkk import choices
        from tests.bot.games.kkk.test_rendering import table_for as rendering_table
        from tests.engine.kkk import tables

        t = tables.last_call_b()
        view = KKK.view(t.state, 0)
        options = [
            *choices.places(KKK.view(test_refusals.fresh().state, 0), ""),  # type: ignore[arg-type]
            *choices.clans(view, ""),  # type: ignore[arg-type]
            *choices.offer_families(view, "", None, list(NAMES)),  # type: ignore[arg-type]
            *choices.travels(view, "", None, list(NAMES)),  # type: ignore[arg-type]
            *choices.recruits(view, "", list(NAMES)),  # type: ignore[arg-type]
            *choices.assignments(KKK.view(t.state, None), "", list(NAMES)),  # type: ignore[arg-type]
            *choices.discards(KKK.view(tables.over_c().state, 0), ""),  # type: ignore[arg-type]
        ]
        assert rendering_table  # the same table shape as the other rendering tests
    for kind, text in texts:
        limit = LIMITS.get(kind.split(" ", 1)[1] if " " in kind else kind)
        if limit is not None:
            assert len(text) <= limit, (lang, kind, text)
    for name, _value in options:
        assert 1 <= len(name) <= 100, (lang, name)
    for kind, text in texts:
        if kind == "move":
            assert len(text) <= 100, (lang, text)


def test_a_mixed_table_words_each_reader_in_their_own_language() -> None:
    """The same table, read at once in three languages (a Dutch table, a German reader's hand, an English one's)."""
    from tests.engine.kkk import tables

    table = table_for(tables.last_call_b().state)
    with speaking("nl"):
        nl = PRESENTATION.status(table)
    with speaking("de"):
        de = PRESENTATION.private_view(table, 1)
    with speaking("en"):
        en = PRESENTATION.private_view(table, 1)
    assert "Laten gaan" in [b.label for b in nl.buttons]
    assert de.title is not None and de.title.startswith("Deine Hand")
    assert en.title is not None and en.title.startswith("Your hand")
    assert isinstance(posts.SHAKE, str) and status.COLOUR
    assert not isinstance(PRESENTATION.event_line(table, KKK.setup_events(table.state)[0]), Aside)  # type: ignore[arg-type]


def engine_event_kinds() -> set[str]:
    """Every event kind engine/kkk emits: the first string of each `public(…)`, `private(…)`, `offer_event(…)` call
    and each `Event(kind=…)`."""
    import ast
    from pathlib import Path

    kinds: set[str] = set()
    for path in Path("engine/kkk").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name in ("public", "private", "offer_event"):
                strings = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
                if strings:
                    kinds.add(strings[0])
            elif name == "Event":
                kinds |= {k.value.value for k in node.keywords if k.arg == "kind" and isinstance(k.value, ast.Constant)}
    return kinds


SAID_ELSEWHERE = {"discarded_played", "offers_ended"}
"""Event kinds only for renderers: the cards discarded at a round's end (secret which), and how each offer ended
(its own message says so, `posts.ended_posts`)."""


def test_every_event_kind_the_engine_emits_has_words() -> None:
    from engine.events import Event

    kinds = engine_event_kinds()
    assert len(kinds) > 40
    with speaking("qps"):
        for kind in sorted(kinds - SAID_ELSEWHERE):
            said = telling.sentence(Event(kind=kind), telling.plain(NAMES))
            assert said, kind
            assert not words_outside_brackets(said), (kind, said)
    with speaking("en"):
        reached = {k for k in kinds if telling.sentence(Event(kind=k), telling.plain(NAMES))}
    assert reached == kinds - SAID_ELSEWHERE
