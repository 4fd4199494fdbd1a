"""`engine.built`: a plain model made without validation is the one validation makes, and misuse is refused."""

import copy
import pickle
from datetime import UTC, datetime
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, RootModel, ValidationError

from engine.built import built
from engine.kkk.rules import KKK
from engine.kkk.views import PlayerView


class Point(BaseModel):
    x: int
    y: int
    tags: list[str] = Field(default_factory=list)


def test_built_is_the_validated_model() -> None:
    made = built(Point, {"tags": ["a"], "y": 2, "x": 1})
    same = Point(x=1, y=2, tags=["a"])
    assert made == same and list(made.__dict__) == ["x", "y", "tags"]
    assert made.model_dump_json() == same.model_dump_json() and made.model_fields_set == same.model_fields_set


def test_every_field_and_no_other() -> None:
    with pytest.raises(TypeError, match="tags"):
        built(Point, {"x": 1, "y": 2})
    with pytest.raises(TypeError, match="z"):
        built(Point, {"x": 1, "y": 2, "tags": [], "z": 3})
    with pytest.raises(KeyError):
        built(Point, {"x": 1, "y": 2, "z": 3})


def test_a_model_that_is_not_plain_is_refused() -> None:
    class Private(BaseModel):
        x: int
        _seen: int = PrivateAttr(default=0)

    with pytest.raises(TypeError, match="not a plain model"):
        built(Private, {"x": 1})


# --- what `built` relies on in pydantic (pyproject.toml pins pydantic below the next minor version for it) ---------


def test_a_pydantic_instance_is_the_four_slots_built_writes() -> None:
    """`built` writes an instance's whole state by hand: if pydantic ever keeps something more on an instance, this
    fails, and `built` must learn it (or give way to `model_construct`) before the pin is raised."""
    assert set(BaseModel.__slots__) == {
        "__dict__",
        "__pydantic_fields_set__",
        "__pydantic_extra__",
        "__pydantic_private__",
    }
    made, constructed = built(Point, {"x": 1, "y": 2, "tags": []}), Point.model_construct(x=1, y=2, tags=[])
    for slot in BaseModel.__slots__:
        assert getattr(made, slot) == getattr(constructed, slot), slot


def test_a_built_model_behaves_as_a_validated_one() -> None:
    made = built(Point, {"x": 1, "y": 2, "tags": ["a"]})
    assert made.model_copy(update={"x": 5}) == Point(x=5, y=2, tags=["a"])
    assert copy.deepcopy(made) == made and pickle.loads(pickle.dumps(made)) == made
    assert Point.model_validate_json(made.model_dump_json()) == made
    assert repr(made) == repr(Point(x=1, y=2, tags=["a"]))
    frozen = built(Frozen, {"x": 1})
    assert hash(frozen) == hash(Frozen(x=1))
    with pytest.raises(ValidationError, match="frozen"):
        frozen.x = 2


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)
    x: int


class PostInit(BaseModel):
    x: int

    def model_post_init(self, context: Any) -> None:
        pass


class Aliased(BaseModel):
    x: int = Field(alias="ex")


class Extra(BaseModel):
    model_config = ConfigDict(extra="allow")
    x: int


@pytest.mark.parametrize("cls", [PostInit, Aliased, Extra, RootModel[int]])
def test_what_model_construct_would_do_more_for_is_refused(cls: type[BaseModel]) -> None:
    """The class attributes `built` reads to tell a plain model (`__pydantic_post_init__`, `__private_attributes__`,
    `__pydantic_root_model__`, aliases, `extra`) still mean what it takes them to mean."""
    with pytest.raises(TypeError, match="not a plain model"):
        built(cls, {"x": 1} if cls is not RootModel[int] else {"root": 1})


def test_the_kkk_player_view_is_the_one_validation_makes() -> None:
    """The one use in the engine: every seat's view of a game in play, equal to the validated model in every slot."""
    game = KKK()
    state = game.setup(4, game.parse_options({}), 7, datetime(2025, 1, 1, tzinfo=UTC))
    for seat in range(4):
        view = game.view(state, seat)
        assert type(view) is PlayerView
        again = PlayerView.model_validate(view.model_dump())
        assert view == again and view.model_dump_json() == again.model_dump_json()
        assert view.model_fields_set == again.model_fields_set
        assert view.__pydantic_extra__ is again.__pydantic_extra__ is None
        assert view.__pydantic_private__ is again.__pydantic_private__ is None
