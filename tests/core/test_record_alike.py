"""``@record`` behaves as the stock ``@dataclass`` (issue 13, "Headless start-up").

Each example draws a class: its options (frozen, slots, eq), fields with or without
defaults, factories, ``init``/``repr``/``compare``/``hash`` settings, a ClassVar, a
``__post_init__``, a docstring; then builds it once with ``dataclasses.dataclass`` and once
with ``record``, makes instances from the same arguments, and compares everything a
caller can see: whether decoration fails and how, the constructor's signature, defaults
and annotations, the docstring, ``fields()`` and ``__match_args__``, slots, repr text,
``==``/``!=`` (also against another class), hashes, assigning and deleting attributes,
``replace()``, ``asdict()``, ``copy.copy``, pickling, and the order in which factories
and ``__post_init__`` ran.
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
import itertools
import pickle
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from reviewtui.core.record import field as record_field
from reviewtui.core.record import record
from reviewtui.core.record import replace as record_replace

NAN = float("nan")  # one object: equal to itself inside a tuple, as the stock __eq__ sees it
NAMES = ("a", "b", "c", "self", "items", "kind", "other")
VALUES = st.one_of(st.integers(-2, 2), st.text("xy", max_size=2), st.none(), st.just(NAN),
                   st.tuples(st.integers(0, 1)), st.frozensets(st.integers(0, 2), max_size=2),
                   st.lists(st.integers(0, 1), max_size=2))  # a list: unhashable, mutable
ANNOTATIONS = ("int", "str", "tuple[int, ...]", int, "Any")


class FieldSpec(NamedTuple):
    name: str
    annotation: object
    kind: str  # "required", "default" or "factory"
    default: object
    factory: str  # "list", "tuple" or "count" (a fresh counter per class)
    init: bool
    repr: bool
    compare: bool
    hash: bool | None
    plain: bool  # a default written as `name: T = value`, not field(default=value)


class ClassSpec(NamedTuple):
    frozen: bool
    slots: bool
    eq: bool
    fields: tuple[FieldSpec, ...]
    classvar: object  # False, or the ClassVar annotation: an object or a string
    post_init: bool
    doc: str | None
    own_field: bool  # the record is built with record's field(), the stock one otherwise


def field_specs(name: str) -> st.SearchStrategy[FieldSpec]:
    return st.builds(FieldSpec, st.just(name), st.sampled_from(ANNOTATIONS),
                     st.sampled_from(["required", "default", "factory"]), VALUES,
                     st.sampled_from(["list", "tuple", "count"]),
                     st.sampled_from([True, True, True, False]), st.booleans(),
                     st.booleans(), st.sampled_from([None, None, True, False]), st.booleans())


# Made once: a strategy object new at each draw is validated each time, which cost more
# than the draws themselves (the draws are the same either way).
FIELD_SPECS = {name: field_specs(name) for name in NAMES}


@st.composite
def class_specs(draw: st.DrawFn) -> ClassSpec:
    names = draw(st.permutations(NAMES))[:draw(st.integers(0, 5))]  # in any order
    fields = tuple(draw(FIELD_SPECS[name]) for name in names)
    return ClassSpec(draw(st.booleans()), draw(st.booleans()), draw(st.booleans()), fields,
                     draw(st.sampled_from([False, ClassVar[int], "ClassVar[int]",
                                           "typing.ClassVar[int]"])), draw(st.booleans()),
                     draw(st.sampled_from([None, "A record."])), draw(st.booleans()))


class Built(NamedTuple):
    cls: Any  # the class, or the exception decoration raised
    log: list[object]  # __post_init__ calls and factory results, in order


_UNSET = "<unset>"


def build(spec: ClassSpec, decorator: Callable[..., Any]) -> Built:
    log: list[object] = []
    counter = itertools.count()

    def count() -> int:
        made = next(counter)
        log.append(("factory", made))
        return made

    factories: dict[str, Callable[[], object]] = {"list": list, "tuple": tuple, "count": count}
    make_field: Any = record_field if spec.own_field and decorator is record else field
    body: dict[str, Any] = {"__module__": __name__, "__qualname__": "Rec",
                            "__annotations__": {}}
    if spec.doc is not None:
        body["__doc__"] = spec.doc
    for f in spec.fields:
        body["__annotations__"][f.name] = f.annotation
        settings_ = {"init": f.init, "repr": f.repr, "compare": f.compare, "hash": f.hash}
        if f.kind == "default":
            settings_["default"] = f.default
        elif f.kind == "factory":
            settings_["default_factory"] = factories[f.factory]
        usual = f.init and f.repr and f.compare and f.hash is None
        if f.kind == "default" and f.plain and usual:
            body[f.name] = f.default
        elif f.kind != "required" or not usual:
            body[f.name] = make_field(**settings_)
    if spec.classvar is not False:
        body["__annotations__"]["limit"] = spec.classvar
        body["limit"] = 5
    if spec.post_init:
        def __post_init__(self: object) -> None:
            log.append(("post_init", tuple(getattr(self, f.name, _UNSET)
                                           for f in spec.fields)))
        body["__post_init__"] = __post_init__
    cls = type("Rec", (), body)
    try:
        return Built(decorator(frozen=spec.frozen, slots=spec.slots, eq=spec.eq)(cls), log)
    except (TypeError, ValueError) as problem:
        return Built(problem, log)


def outcome(action: Callable[[], object]) -> object:
    """What ``action`` returned, or the type and text of what it raised."""
    try:
        return action()
    except Exception as problem:  # noqa: BLE001 - compared, not hidden
        return (type(problem), str(problem))


def shown(value: object) -> object:
    """A comparable stand-in: instances by their repr, failures by type and text."""
    return outcome(lambda: repr(value)) if not isinstance(value, tuple) else value


class Other:
    """Not a record: equality with it is NotImplemented."""


def arguments(data: st.DataObject, fields: tuple[FieldSpec, ...]) -> tuple[list[object],
                                                                            dict[str, object]]:
    """Values for the init fields: a positional prefix, then keywords, some omitted."""
    positional: list[object] = []
    keywords: dict[str, object] = {}
    by_keyword = False
    for f in fields:
        if not f.init:
            continue
        if f.kind != "required" and data.draw(st.booleans()):
            by_keyword = True  # omitted: what follows must be given by keyword
            continue
        value = data.draw(VALUES)
        by_keyword = by_keyword or data.draw(st.booleans())
        if by_keyword:
            keywords[f.name] = value
        else:
            positional.append(value)
    return positional, keywords


def view_of_class(cls: Any) -> object:
    init = cls.__init__
    signature = inspect.signature(cls)
    return (str(signature), [repr(p.default) for p in signature.parameters.values()],
            init.__annotations__, init.__qualname__, init.__name__,
            cls.__doc__, cls.__match_args__, getattr(cls, "__slots__", None),
            [(f.name, f.type, repr(f.default), getattr(f.default_factory, "__name__", None),
              f.init, f.repr,
              f.compare, f.hash, f.kw_only) for f in dataclasses.fields(cls)],
            cls.__hash__ is None, dataclasses.is_dataclass(cls),
            {key: getattr(cls.__dataclass_params__, key)
             for key in ("init", "repr", "eq", "order", "unsafe_hash", "frozen")})


def view_of_instances(built: Built, spec: ClassSpec, calls: list[tuple[list[object],
                                                                       dict[str, object]]],
                      change: tuple[str, object] | None) -> list[object]:
    cls = built.cls
    seen: list[object] = []
    width = sum(f.init for f in spec.fields)
    seen.extend(shown(outcome(wrong)) for wrong in (  # the messages name __init__ and fields
        cls, lambda: cls(*range(width + 1)), lambda: cls(unknown=1)))
    made = [outcome(lambda args=args: cls(*args[0], **args[1])) for args in calls]
    seen.extend(shown(m) for m in made)
    if any(isinstance(m, tuple) for m in made):
        event("construction failed")
        return [*seen, built.log]
    first, second = made
    other = Other()
    seen.append([outcome(lambda a=a, b=b: a == b) for a in made for b in made])
    seen.append([outcome(lambda a=a, b=b: a != b) for a in made for b in made])
    seen.append([outcome(lambda a=a: a.__eq__(other)) for a in made])
    seen.append([outcome(lambda a=a: a == other) for a in made])
    if spec.eq:
        seen.append([outcome(lambda a=a: hash(a)) for a in made])
        event("hashed" if isinstance(seen[-1][0], int) else "not hashed")
    else:  # identity: the same for both only as "object's hash of this instance"
        seen.append([outcome(lambda a=a: hash(a) == object.__hash__(a)) for a in made])
    seen.append(outcome(lambda: dict(vars(first))))  # what the instance holds itself
    seen.append(outcome(lambda: dataclasses.asdict(first)))
    for replace in (dataclasses.replace, record_replace):  # record's: the stock one's twin
        seen.append(shown(outcome(lambda replace=replace: replace(first))))
        if change is not None:
            name, value = change
            seen.append(shown(outcome(lambda replace=replace, name=name, value=value:
                                      replace(first, **{name: value}))))
        for f in spec.fields:  # init=False fields refused by name
            if not f.init:
                seen.append(outcome(lambda replace=replace, f=f: replace(first, **{f.name: 1})))
    seen.append(outcome(lambda: type(first).__match_args__))
    seen.append(shown(outcome(lambda: copy.copy(first))))
    seen.append(outcome(lambda: copy.copy(first) == first))
    seen.append(pickled(cls, first))
    names = [f.name for f in spec.fields]
    for name in [*names[:2], "extra"]:
        seen.append(stock_slip(outcome(lambda name=name: setattr(second, name, 7)), spec,
                               name))
        seen.append(shown(second))
        seen.append(stock_slip(outcome(lambda name=name: delattr(second, name)), spec,
                               name))
        seen.append(shown(second))
    seen.append(built.log)
    return seen


def stock_slip(seen: object, spec: ClassSpec, name: str) -> object:
    """The stock frozen, slotted class refuses a name that is no field with a TypeError:
    its __setattr__ calls super() with the class as it was before slots replaced it
    (CPython 3.11). record refuses with the FrozenInstanceError of any other frozen class."""
    if not (spec.frozen and spec.slots and name == "extra"):
        return seen
    if seen == (TypeError, "super(type, obj): obj must be an instance or subtype of type"):
        return "refused"  # the stock class
    if seen in ((dataclasses.FrozenInstanceError, "cannot assign to field 'extra'"),
                (dataclasses.FrozenInstanceError, "cannot delete field 'extra'")):
        return "refused"  # record's
    return seen


def pickled(cls: Any, instance: object) -> object:
    """A pickling round trip, with the class findable under its name for the while."""
    module = sys.modules[__name__]
    module.Rec = cls  # type: ignore[attr-defined]
    try:
        return outcome(lambda: repr(pickle.loads(pickle.dumps(instance))))
    finally:
        del module.Rec  # type: ignore[attr-defined]


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(spec=class_specs(), data=st.data())
def test_a_record_behaves_as_the_stock_dataclass(spec: ClassSpec, data: st.DataObject) -> None:
    stock, mine = build(spec, dataclass), build(spec, record)
    if isinstance(stock.cls, Exception) or isinstance(mine.cls, Exception):
        event(f"decoration refused: {type(stock.cls).__name__}")
        assert shown(mine.cls) == shown(stock.cls)
        assert (type(mine.cls), str(mine.cls)) == (type(stock.cls), str(stock.cls))
        return
    assert view_of_class(mine.cls) == view_of_class(stock.cls)
    calls = [arguments(data, spec.fields), arguments(data, spec.fields)]
    if data.draw(st.booleans()):
        calls[1] = calls[0]  # equal instances, not only different ones
    init_names = [f.name for f in spec.fields if f.init]
    change = (data.draw(st.sampled_from(init_names)), data.draw(VALUES)) if init_names else None
    assert view_of_instances(mine, spec, calls, change) == \
        view_of_instances(stock, spec, calls, change)
