"""Every word on every game's picture is legible on a phone and inside the picture, over whole seeded games.

A status picture is about 1200 px wide and shown about 400 px wide on a phone: text under `MIN_SIZE` (22 px at 1200
px, in proportion on a narrower picture) shrinks to an unreadable few pixels there (issue 26). Every text goes through
`bot.drawing.text`, which `recording()` watches. The players get awkward names on purpose: long ones, the widest
letters, emoji, accents, another script.
"""

import io
from collections.abc import Sequence
from functools import cache
from typing import Any

import pytest
from PIL import Image, ImageChops

from bot import drawing as d
from bot.games import load_presentation
from tests.bot.pictures.examples import EXAMPLES, OUT, example, render
from tests.bot.pictures.walk import SEATS, game_kind, game_of, states

KINDS = ("kkk", "kesse_ruegen", "schwarzmarkt", "casablanca", "casablanca_hq")
SEEDS = (1, 2)
AWKWARD = (
    "WWWWWWWWWWWWWWWWWWWW",  # the widest letters, far over the length a name may have
    "Robo Anna 🤖",  # a computer player: the font has no emoji
    "Jürgen Müller-Lüdenscheidt",  # accents and length
    "李小龙",  # nothing the font can draw: the picture says "Seat 4"
    "Christopher Columbus",
    "bo",
    "Mmmmmmmmmmmmmmmmm",
    "Åsa",
)


def awkward_names(kind: str) -> tuple[str, ...]:
    return AWKWARD[: SEATS[kind]]


@cache
def whole_game(kind: str, seed: int) -> tuple[Any, ...]:
    """Public views of one seeded game from set-up to its end: some 150 spread over the game (that keeps the tests
    quick: a game of Kesse Rügen takes thousands of steps), and the last."""
    game = game_of(kind)
    every = list(states(kind, seed, 10_000))
    assert game.result(every[-1]) is not None, f"{kind} seed {seed} did not reach the end"
    step = max(1, len(every) // 150)
    return tuple(game.view(state, None) for state in every[::step] + every[-1:])


def drawn(kind: str, view: Any, names: Sequence[str]) -> tuple[list[d.Drawn], tuple[int, int]]:
    game = game_of(kind)
    presentation = load_presentation(game_kind(kind))
    with d.recording() as texts:
        png = presentation.picture(game, view, names)
    assert png is not None
    return texts, Image.open(io.BytesIO(png)).size


def problems(texts: list[d.Drawn], size: tuple[int, int]) -> list[str]:
    """What is wrong with the texts of one picture of `size`: too small, or (partly) outside it."""
    width, height = size
    smallest = d.MIN_SIZE * min(width, d.FULL_WIDTH) / d.FULL_WIDTH
    out = []
    for t in texts:
        assert t.image == size, "every text is drawn on the picture itself"
        if t.size < smallest - 0.5:  # font sizes are whole pixels: 21 px is fine on a 1180 px picture
            out.append(f"{t.words!r} at {t.size} px (the least is {smallest:.1f})")
        x0, y0, x1, y1 = t.box
        if x0 < 0 or y0 < 0 or x1 > width or y1 > height:
            out.append(f"{t.words!r} at {t.box} leaves the {width}x{height} picture")
    return out


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", SEEDS)
def test_every_text_of_a_whole_game_is_large_enough_and_inside_the_picture(kind: str, seed: int) -> None:
    names = awkward_names(kind)
    found: dict[str, None] = {}  # in order, once each
    views = whole_game(kind, seed)
    for view in views:
        texts, size = drawn(kind, view, names)
        assert texts, "a picture with no words at all: the recorder saw nothing"
        found.update(dict.fromkeys(problems(texts, size)))
    assert len(views) > 100
    assert views[-1].phase == "over"
    assert not found, "\n".join(list(found)[:20])


@pytest.mark.parametrize("kind", KINDS)
def test_the_pictures_name_the_players_drawably_and_shortly(kind: str) -> None:
    """Over a game, the players' names appear (made drawable and short), never "Seat 1" for a name the font can
    draw, and never a character the font lacks."""
    names = awkward_names(kind)
    expected = d.names(names)
    words = set()
    for view in whole_game(kind, 1):
        texts, _ = drawn(kind, view, names)
        words.update(t.words for t in texts)
    every = " ".join(words)
    for seat, name in enumerate(expected):
        core = name.rstrip(d.ELLIPSIS)[:6]  # a layout may cut a name further to fit its room
        assert core in every, f"{names[seat]!r} (as {name!r}) is on no picture"
    assert "WWWWWWWWWWWWW" not in every, "a name longer than a name may be"
    for word in words:
        assert all(d.drawable(c) for c in word), f"{word!r} has a character the font cannot draw"
    if len(names) >= 4:
        assert "Seat 4" in every, "a name with nothing drawable becomes its seat"
    assert not any(f"Seat {s + 1}" in every for s, n in enumerate(expected) if n != f"Seat {s + 1}")


def test_names_are_drawable_and_short() -> None:
    assert d.name("Robo Anna 🤖", 0) == "Robo Anna"
    assert d.name("Jürgen", 0) == "Jurgen"
    assert d.name("李小龙", 2) == "Seat 3"
    assert d.name("Christopher Columbus", 0) == "Christopher…"
    assert len(d.name("W" * 40, 0)) == d.NAME_CHARACTERS
    assert d.name("  anna   maria ", 0) == "anna maria"
    assert d.width(d.fit("W" * 40, 30, 200), 30) <= 200
    assert d.fit("anna", 30, 200) == "anna"


def test_the_recorder_sees_every_text_and_only_inside() -> None:
    _, draw = d.canvas(200, 100)
    with d.recording() as texts:
        d.text(draw, (10, 10), "hello", 24)
        d.badge(draw, (50, 50), 20, d.SKY, "K")
    d.text(draw, (10, 60), "unseen", 24)
    assert [(t.words, t.size, t.image) for t in texts] == [("hello", 24, (200, 100)), ("K", 24, (200, 100))]
    assert problems(texts, (200, 100)) == []
    with d.recording() as texts:
        d.text(draw, (190, 10), "too far", 24)
    assert len(problems(texts, (200, 100))) == 1
    _, wide = d.canvas(1200, 100)
    with d.recording() as texts:
        d.text(wide, (10, 10), "too small", 20)
        d.text(wide, (1190, 10), "too small and too far", 20)
    assert len(problems(texts, (1200, 100))) == 3


@pytest.mark.parametrize("kind", list(EXAMPLES))
def test_the_example_pictures_in_docs_name_the_players_legibly_and_are_up_to_date(kind: str) -> None:
    view, names = example(kind)
    texts, size = drawn(kind, view, names)
    assert problems(texts, size) == []
    words = " ".join(t.words for t in texts)
    assert "Seat" not in words, "the example names its players"
    assert any(name in words for name in d.names(names)), words
    png = render(kind)
    assert len(png) < 60_000, "a few dozen KB"
    # Alike pixel by pixel, not byte by byte: another Pillow may encode or anti-alias the same picture a little
    # differently, and that must not fail the suite; an out-of-date example differs in far more than that.
    shown = Image.open(OUT / f"{kind}.png").convert("RGB")
    now = Image.open(io.BytesIO(png)).convert("RGB")
    assert shown.size == now.size, f"docs/pictures/{kind}.png is out of date: {REGENERATE.format(kind=kind)}"
    changed = ImageChops.difference(shown, now).convert("L").point(lambda v: 255 if v > 48 else 0).histogram()[255]
    assert changed <= shown.width * shown.height // 200, (
        f"docs/pictures/{kind}.png is not what the game draws now ({changed} pixels differ): "
        + REGENERATE.format(kind=kind)
    )


REGENERATE = "`python -m tests.bot.pictures.examples {kind}` draws it again"
