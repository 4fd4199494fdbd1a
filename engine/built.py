"""Building a view model from values the engine has just computed from a valid state, without validating them again.

A player's view is the public view's two dozen fields plus a few of their own, made for every seat on every move
(the platform compares each seat's hand before and after). `PlayerView(**fields)` validates every field again, down
to each item of each list of the public view's models, and `model_construct` walks every field through pydantic's
alias handling in Python: both take four times as long as making the instance. `built(Model, values)` makes the same
instance `model_construct` makes for a plain model (no aliases, no defaults to fill in, no private attributes, no
`model_post_init`): the fields in the model's order, all of them given and no other. It checks no types: it is only
for values the program built itself from valid data, never for input.

It writes the four slots of a pydantic instance itself, as `model_construct` does, which is pydantic's internal
layout rather than its API: pyproject.toml pins pydantic below its next minor version, and tests/engine/test_built.py
checks what this relies on (the slots, the class attributes read to tell a plain model, a built model behaving as a
validated one) before the pin is raised.
"""

from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)

_NAMES: dict[type[BaseModel], tuple[str, ...]] = {}
"""Per model class (a class: the entry never goes stale), its field names in order, once checked plain."""
_setattr = object.__setattr__


def _names(cls: type[BaseModel]) -> tuple[str, ...]:
    names = _NAMES.get(cls)
    if names is None:
        fields = cls.model_fields
        plain = (
            not cls.__private_attributes__
            and not cls.__pydantic_post_init__
            and not cls.__pydantic_root_model__
            and cls.model_config.get("extra") != "allow"
            and all(f.alias in (None, n) and f.validation_alias in (None, n) for n, f in fields.items())
        )
        if not plain:
            raise TypeError(f"{cls.__name__} is not a plain model: build it with validation")
        names = _NAMES[cls] = tuple(fields)
    return names


def built(cls: type[M], values: dict[str, Any]) -> M:
    """`cls.model_construct(**values)` for a plain model given every field (see the module's docstring)."""
    names = _names(cls)
    if len(values) != len(names):
        missing = sorted(set(names) - values.keys()) or sorted(values.keys() - set(names))
        raise TypeError(f"{cls.__name__}: every field and no other, not {missing[0]}")
    data = {name: values[name] for name in names}  # KeyError: a field not given (another name given instead)
    model = cls.__new__(cls)
    _setattr(model, "__dict__", data)
    _setattr(model, "__pydantic_fields_set__", set(names))
    _setattr(model, "__pydantic_extra__", None)
    _setattr(model, "__pydantic_private__", None)
    return model
