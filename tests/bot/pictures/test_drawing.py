"""Each game's picture over seeded random games: it renders at every step, is a small deterministic PNG, changes
when the board does and only when the public view does, and shows nothing hidden."""

import io
import itertools
import random
from typing import Any

import pytest
from PIL import Image

from bot.games import load_presentation
from bot.pictures import MAX_BYTES
from tests.bot.pictures.walk import SEATS, game_kind, game_of, states

KINDS = ("kkk", "kesse_ruegen", "schwarzmarkt", "casablanca", "casablanca_hq")
SEEDS = (1, 2)
NAMES = ("Anna", "Bert", "Carla", "Dieter", "Ede", "Fritzi")


def names(kind: str) -> tuple[str, ...]:
    return NAMES[: SEATS[kind]]


def board(kind: str, view: Any) -> Any:
    """What a player checks on the picture: when this changes, the picture must change."""
    if kind == "kkk":
        r = view.round
        round_part = None
        if r is not None:
            round_part = (r.space, r.boss, r.payout, [(q.family, q.assigned is not None) for q in r.requirements])
        return (view.marker, [s.tile for s in view.spaces], view.tile and view.tile.number, round_part)
    if kind == "kesse_ruegen":
        return (view.tubers, [(p.pawn, p.in_barn, p.supply) for p in view.players], view.phase, view.turn)
    if game_kind(kind) == "casablanca":
        ann = view.announcement
        return (
            [(a.at, a.carries, a.carried) for a in view.agents],
            view.suitcase_at,
            view.carriers,
            [(p.hq, p.face_down) for p in view.players],
            ann and (ann.kind, ann.agent, ann.to, ann.victim),
            view.phase,
            view.turn,
        )
    return (view.marker, view.end_space, view.offer, view.luxury, view.phase, view.turn)


def pictures(kind: str, seed: int, steps: int = 250) -> list[tuple[Any, bytes]]:
    game = game_of(kind)
    presentation = load_presentation(game_kind(kind))
    out = []
    for state in states(kind, seed, steps):
        view = game.view(state, None)
        out.append((view, presentation.picture(game, view, names(kind))))
    return out


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", SEEDS)
def test_every_step_renders_a_small_png_and_the_picture_follows_the_public_view(kind: str, seed: int) -> None:
    shots = pictures(kind, seed)
    assert len(shots) > 50
    for _view, png in shots:
        assert png is not None and len(png) <= MAX_BYTES
        image = Image.open(io.BytesIO(png))
        assert image.format == "PNG" and image.width <= 1200
    for (before, old), (after, new) in itertools.pairwise(shots):
        if before.model_dump_json() == after.model_dump_json():
            assert old == new, "an unchanged public view gave another picture"
        if board(kind, before) != board(kind, after):
            assert old != new, f"the board changed and the picture did not: {board(kind, after)}"


@pytest.mark.parametrize("kind", KINDS)
def test_the_same_public_view_gives_the_same_bytes(kind: str) -> None:
    game = game_of(kind)
    presentation = load_presentation(game_kind(kind))
    for i, state in enumerate(states(kind, 7, 120)):
        if i % 20:
            continue
        view = game.view(state, None)
        again = game.view(game.load_state(game.dump_state(state)), None)  # as after a restart
        assert presentation.picture(game, view, names(kind)) == presentation.picture(game, again, names(kind))


def hide_differently(kind: str, state: Any, rnd: random.Random) -> Any:
    """A copy of `state` that differs only in what nobody may see: hands, money, piles' order, a closed fist."""
    other = state.model_copy(deep=True)
    if kind == "kkk":
        rnd.shuffle(other.draw)
        if other.phase != "over":
            other.money = [m + rnd.randint(1, 9) for m in other.money]
        by_size: dict[int, list[int]] = {}
        for seat, hand in enumerate(other.hands):
            by_size.setdefault(len(hand), []).append(seat)
        for seats in by_size.values():
            if len(seats) > 1:
                a, b = seats[:2]
                other.hands[a], other.hands[b] = other.hands[b], other.hands[a]
    elif kind == "kesse_ruegen":
        duel = other.duel
        if duel is not None:
            for seat in duel.chosen():
                duel.set_choice(seat, 1 if duel.choice(seat) != 1 else 0)
    elif game_kind(kind) == "casablanca":  # other bribes, the same capital spent (and a secret objection's limit)
        for seat, bribes in enumerate(other.bribes):
            if sum(bribes) and other.phase != "over":  # at the end every sheet is public
                other.bribes[seat] = [sum(bribes)] + [0] * (len(bribes) - 1)
        other.objections = [o.model_copy(update={"limit": o.limit + 100}) for o in other.objections]
    else:
        for seat, hand in enumerate(other.goods):  # the same number of cards, other kinds
            if sum(hand):
                other.goods[seat] = [sum(hand)] + [0] * (len(hand) - 1)
        other.goods_pile = list(reversed(other.goods_pile))
        rnd.shuffle(other.black_pile)
    return other


@pytest.mark.parametrize("kind", KINDS)
def test_games_differing_only_in_hidden_information_give_identical_pictures(kind: str) -> None:
    game = game_of(kind)
    presentation = load_presentation(game_kind(kind))
    rnd = random.Random(5)
    differed = 0
    for state in states(kind, 3, 200):
        other = hide_differently(kind, state, rnd)
        if game.dump_state(other) != game.dump_state(state):
            differed += 1
        assert game.view(other, None) == game.view(state, None)
        seen = presentation.picture(game, game.view(other, None), names(kind))
        assert seen == presentation.picture(game, game.view(state, None), names(kind))
    assert differed > 20, "the hidden information hardly differed: the test would prove nothing"
