"""Kesse Rügen in three languages (issue 28): everything the presentation shows — status, details, hands, help
lines, `/game move` suggestions, narration of every event kind, private notes, every refusal code, the action
prompt, the summary, the rules, the option's help and the picture's labels — is marked for translation (the
pseudo-language finds no bare word), says something else in Dutch and German than in English, and keeps within
Discord's limits."""

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot import drawing
from bot.games.kesse_ruegen import presentation
from bot.games.kesse_ruegen.presentation import REFUSALS_WITHOUT_STATE
from bot.games.kesse_ruegen.words import REFUSAL_CODES
from bot.i18n import speaking
from bot.post import Post
from engine.errors import rule
from engine.events import Event, private, public
from engine.game import Leave
from engine.kesse_ruegen.actions import Challenge, Choose, Guess, Plant
from engine.kesse_ruegen.state import KesseRuegenState
from tests.engine.kesse_ruegen.helpers import GAME, T0, arrange, new_game, placed, play, win_actions

from .test_presentation import NAMES, table

ENGINE = Path(__file__).resolve().parents[4] / "engine" / "kesse_ruegen"


def states() -> dict[str, KesseRuegenState]:
    """One table in every phase the presentation draws differently."""
    acting = win_actions(
        arrange(placed(3), pawns={0: "b2"}, tubers={"b2": 1, "d4": 0, "a3": 2}, barn={0: 1, 1: 2}), 0, 3
    )
    won = arrange(placed(2), tubers=dict.fromkeys(["a2", "a3", "a4", "a5", "b1", "b2", "b3", "b4", "b5", "c1"], 0))
    won = play(
        win_actions(arrange(won, tubers={"c2": 0, "c4": 0}), 0, 1),
        (0, Plant()),
    )
    stalled = arrange(
        placed(2),
        tubers={
            **{sq: 0 for sq in ("a2", "a3", "a4", "a5", "b1", "b2", "b3", "b4", "b5")},
            **{sq: 1 for sq in ("c1", "c2", "d1", "d2", "d3", "d4", "d5", "e1", "e2", "e3", "e4")},
        },
        barn={0: 6, 1: 5},
    )
    stalled = play(
        stalled, (0, Choose(tubers=1)), (1, Choose(tubers=0)), (0, Guess(total=1)), (1, Guess(total=0)), (0, Plant())
    )
    four = placed(4)
    left = GAME.apply(four, None, Leave(seat=3), T0).state
    return {
        "placing": new_game(3),
        "challenge": placed(3),
        "choose": play(placed(3), (0, Challenge(opponent=1)), (1, Choose(tubers=1))),
        "guess": play(
            placed(3), (0, Challenge(opponent=1)), (0, Choose(tubers=2)), (1, Choose(tubers=1)), (0, Guess(total=2))
        ),
        "acting": acting,
        "after": win_actions(placed(3), 0, 1),
        "won": won,
        "stalled": stalled,
        "left": left,
    }


def every_event() -> list[Event]:
    """An event of every kind the engine emits, in each of its variants (seats 0–2 of a three-player table)."""
    duel = {"challenger": 0, "challenged": 1, "challenger_choice": 1, "challenged_choice": 2}
    duel |= {"challenger_guess": 3, "challenged_guess": 2}
    return [
        public("placed", seat=0, square="b2", by_default=False),
        public("placed", seat=0, square="b2", by_default=True),
        public("turn", seat=1, step="place", all_placed=False),
        public("turn", seat=1, step="challenge", all_placed=False),
        public("turn", seat=1, step="challenge", all_placed=True),
        public("challenged", challenger=0, challenged=1, automatic=False, all_placed=False),
        public("challenged", challenger=0, challenged=1, automatic=True, all_placed=True),
        public("chosen", seat=1),
        public("guess_now", seat=0),
        public("guessed", seat=0, total=3, by_default=False, next=1),
        public("guessed", seat=1, total=2, by_default=True, next=None),
        public("revealed", **duel, total=3, winner=0),
        public("revealed", **duel, total=3, winner=None),
        public("revealed", **(duel | {"challenger_choice": 0, "challenged_choice": 0}), total=0, winner=1),
        public("planted", seat=0, square="b2", left=2),
        public("planted", seat=0, square="b2", left=0),
        public("moved", seat=0, source="b2", target="c3", direction="ne", barn=True, left=1),
        public("moved", seat=0, source="b2", target="b3", direction="n", barn=False, left=0),
        public("moved", seat=0, source="b2", target="b3", direction="n", barn=False, left=2),
        public("moved", seat=0, source="b2", target="c3", direction="ne", barn=True, left=0),
        public("evicted", seat=0, owner=1, square="b2", left=1),
        public("evicted", seat=0, owner=1, square="b2", left=0),
        public("reclaimed", seat=0, left=1),
        public("reclaimed", seat=0, left=0),
        public("actions_lost", seat=0, lost=2, why="no_action"),
        public("actions_lost", seat=0, lost=1, why="timeout"),
        public("actions_lost", seat=0, lost=3, why="left"),
        public("timeout", seat=0, missed="challenge"),
        public("won", seat=0, fields=9),
        public("stalled", winners=[1], fields=11, all_placed=False),
        public("stalled", winners=[0, 1], fields=8, all_placed=True),
        public("left", seat=2, stay=True),
        public("left", seat=2, stay=False),
        public("duel_off", seat=1, other=0, challenger=0, challenged=1),
        private(0, "your_choice", seat=0, tubers=2, by_default=False),
        private(0, "your_choice", seat=0, tubers=1, by_default=True),
        private(0, "your_fist_back", seat=0, tubers=2),
    ]


SAMPLE_VALUES: dict[str, dict[str, Any]] = {
    "player_count": {"least": 2, "most": 4, "seats": 5},
    "first_seat_out_of_range": {"seats": 3},
    "game_over": {"winners": [0]},
    "not_your_placement": {"seat": 1},
    "no_such_square": {"square": "f9", "last": "e5"},
    "place_in_barn": {"square": "c3"},
    "place_taken": {"seat": 1, "square": "a1"},
    "must_take_actions": {"left": 2},
    "plant_in_barn": {"barn": "c3"},
    "plant_own_tuber_there": {"seat": 0, "square": "b2"},
    "plant_field_taken": {"square": "b2", "owner": 1},
    "plant_no_supply": {"seat": 0},
    "move_off_board": {"direction": "sw", "square": "a1"},
    "move_onto_pawn": {"seat": 1, "square": "b3"},
    "evict_nothing": {"square": "b2"},
    "evict_own": {"seat": 0, "square": "b2"},
    "reclaim_not_in_barn": {"barn": "c3"},
    "reclaim_none_in_barn": {"seat": 0},
    "challenge_automatic": {"opponent": 1},
    "challenge_left": {"seat": 2},
    "not_in_duel": {"challenger": 0, "challenged": 1},
    "supply_too_small": {"seat": 1, "have": 1, "options": [0, 1]},
    "choose_range": {"most": 2},
    "challenger_guesses_first": {"challenger": 0},
    "not_your_guess": {"seat": 0},
    "guess_range": {"most": 4},
    "guess_taken": {"challenger": 0, "total": 3},
    "already_left": {"seat": 2},
}


def posts_of(post: Post | None) -> Iterator[tuple[str, str]]:
    """(what, text) for every part of a post a person reads."""
    if post is None:
        return
    for what, text in (("title", post.title), ("description", post.description), ("content", post.content)):
        if text:
            yield what, text
    if post.footer:
        yield "footer", post.footer
    for name, value in post.fields:
        yield "field name", name
        yield "field", value
    for button in post.buttons:
        yield "button", button.label


def rendered() -> list[tuple[str, str]]:
    """Everything the presentation says about the tables of `states()`, as (what, text), in the language spoken."""
    out: list[tuple[str, str]] = []
    three = table(placed(3))
    for name, state in states().items():
        t = table(state)
        status = presentation.status(t)
        status.title = None  # the platform's title ("Kesse Rügen #7")
        out += [(f"{name} status {w}", x) for w, x in posts_of(status)]
        details = presentation.status_details(t)
        if details is not None:
            details.title = None
        out += [(f"{name} details {w}", x) for w, x in posts_of(details)]
        for post in presentation.live_posts(t):
            out += [(f"{name} prompt {w}", x) for w, x in posts_of(post)]
        out += [(f"{name} summary", line) for line in presentation.summary(t)]
        for seat in range(state.seats):
            out += [(f"{name} hand {seat} {w}", x) for w, x in posts_of(presentation.private_view(t, seat))]
            out += [(f"{name} help {seat}", line) for line in presentation.help_lines(t, seat)]
            for action in GAME.legal_actions(state, seat):
                out.append((f"{name} move {seat}", presentation.describe_action(t, seat, action)))
        for wait in GAME.waiting_on(state):
            out.append((f"{name} wait {wait.what}", presentation.wait_task(t, wait, t.names).task))
        with drawing.recording() as drawn:
            presentation.picture(GAME, GAME.view(state, None), NAMES[: state.seats])
        out += [(f"{name} picture", d.words) for d in drawn if not d.words.isdigit() and len(d.words) > 1]
    for event in every_event():
        line = presentation.event_line(three, event) if event.public else presentation.private_line(three, event)
        assert line, f"no words for {event.kind} {event.data}"
        out.append((f"event {event.kind}", str(line)))
    for code in REFUSAL_CODES:
        out.append((f"refusal {code}", presentation.refusal_words(three, rule(code, **SAMPLE_VALUES.get(code, {})))))
    for state_name in ("placing", "challenge", "choose", "guess", "acting", "won"):
        t = table(states()[state_name])
        for code in ("all_placed", "no_actions", "cannot_challenge_now", "no_fist_now", "no_guess_now"):
            out.append((f"refusal {code} while {state_name}", presentation.refusal_words(t, rule(code))))
    out.append(("score", presentation.score_text(three, 1)))
    out.append(("score", presentation.score_text(three, 7)))
    out += [("rules", line) for line in presentation.rules(GAME).split("\n")]
    out.append(("option first_seat", presentation.option_help("first_seat") or ""))
    return out


WAIT_CODES = ("place", "challenge", "choose", "guess", "act")
"""The engine's wait codes (`engine.kesse_ruegen.waits`): `wait_task` words each."""

NAME_WORDS = re.compile(
    r"\b(anna|bert|cleo|dave|kesse_ruegen|Kesse Rügen)\b|\b[a-e][1-5]\b|<#\d+>|<@\d+>|<t:\d+(:\w)?>"
)
COMMAND = re.compile(r"`/kr [a-z]+( [a-z]+:)?`|`[a-e][1-5]`")


def bare(text: str) -> str:
    """The text outside every ⟦…⟧ (nested ones too), without names, squares, mentions and commands."""
    previous = None
    while previous != text:
        previous, text = text, re.sub(r"⟦[^⟦⟧]*⟧", "", text)
    return COMMAND.sub("", NAME_WORDS.sub("", text))


LETTERS = re.compile(r"[^\W\d_]")
SAME_IN_EVERY_LANGUAGE = {"Details"}


def ours(text: str) -> list[str]:
    """The lines of `text` this game words: not the platform's lines of who is awaited (⏳, `bot.table`)."""
    return text.split("\n")


def test_every_word_is_marked_for_translation() -> None:
    with speaking("qps"):
        said = rendered()
    assert len(said) > 300
    unmarked = [(what, line) for what, text in said for line in ours(text) if LETTERS.search(bare(line))]
    assert unmarked == []


def test_every_refusal_code_the_engine_raises_has_words() -> None:
    raised = set()
    for source in ENGINE.glob("*.py"):
        raised |= set(re.findall(r"\brule\(\s*\"([a-z_]+)\"", source.read_text()))
    assert raised == set(REFUSAL_CODES)
    three = table(placed(3))
    for code in raised:
        error = rule(code, **SAMPLE_VALUES.get(code, {}))
        words = presentation.refusal_words(three, error)
        assert words and code not in words, code
    for code in REFUSALS_WITHOUT_STATE:  # the set-up's refusals come before there is a state
        stateless = table(placed(3))
        stateless.state = None
        words = presentation.refusal_words(stateless, rule(code, **SAMPLE_VALUES[code]))
        assert words and code not in words and str(SAMPLE_VALUES[code]["seats"]) in words, words


def test_every_event_kind_and_wait_of_random_play_has_words() -> None:
    """Seeded random games (now and then a deadline passing) emit no event kind `every_event` doesn't cover, and
    wait for nothing but the codes `wait_task` words."""
    covered = {e.kind for e in every_event()}
    seen: set[str] = set()
    waits: set[str] = set()
    for seats in (2, 3, 4):
        state = new_game(seats, first=None, seed=seats)
        rng = random.Random(seats)
        for _ in range(600):
            if state.phase == "over":
                break
            seat = GAME.waiting_on(state)[0].seats[0]
            if rng.random() < 0.1:
                seat, action = None, rng.choice(GAME.legal_actions(state, None))
            else:
                action = rng.choice(GAME.legal_actions(state, seat))
            outcome = GAME.apply(state, seat, action, T0)
            seen |= {e.kind for e in outcome.events}
            waits |= {w.what for w in GAME.waiting_on(outcome.state)}
            state = outcome.state
    assert seen <= covered, seen - covered
    assert waits == set(WAIT_CODES)


@pytest.mark.parametrize("lang", ["nl", "de"])
def test_dutch_and_german_say_it_in_their_own_words_within_discords_limits(lang: str) -> None:
    english = rendered()
    with speaking(lang):
        translated = rendered()
    assert [what for what, _ in translated] == [what for what, _ in english]
    for (what, en), (_, text) in zip(english, translated, strict=True):
        for en_line, line in zip(ours(en), ours(text), strict=False):
            if not LETTERS.search(bare(en_line)) or line in SAME_IN_EVERY_LANGUAGE:
                continue  # names, numbers, emoji only
            assert line != en_line, f"{lang} {what}: still English: {line!r}"
        limit = {"button": 80, "title": 256, "field": 1024, "field name": 256, "footer": 2048}.get(what.split()[-1])
        if what.split()[-1] == "description":
            limit = 4096
        elif what.split()[-1] == "content" or what.startswith("event") or what.startswith("refusal"):
            limit = 2000
        elif " move " in f" {what} ":
            limit = 100
        if what.endswith("picture"):
            assert not text.endswith("…"), f"{lang} {what} doesn't fit the picture: {text!r}"
        if limit is not None:
            assert len(text) <= limit, f"{lang} {what} is {len(text)} long: {text!r}"


def test_the_tubers_are_the_rulebooks() -> None:
    t = table(placed(4))
    with speaking("nl"):
        dutch = presentation.status(t).description or ""
    with speaking("de"):
        german = presentation.status(t).description or ""
    assert all(kind in dutch for kind in ("wortels", "suikerbieten", "radijzen", "bieten"))
    assert all(kind in german for kind in ("Möhren", "Zuckerrüben", "Radieschen", "Rote Bete"))
