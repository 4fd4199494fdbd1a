"""`engine.built`: a plain model made without validation is the one validation makes, and misuse is refused."""

import pytest
from pydantic import BaseModel, Field, PrivateAttr

from engine.built import built


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
