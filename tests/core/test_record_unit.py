"""``@record`` (core/record.py): the cases a random class rarely hits, and what it refuses.

The broad comparison with the stock ``@dataclass`` is in test_record_alike.py.
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
from dataclasses import KW_ONLY, FrozenInstanceError, InitVar, dataclass, field
from typing import Any

import pytest

from reviewtui.core.record import record


@record(frozen=True, slots=True)
class Point:
    """A frozen, slotted record as most of reviewtui's are."""

    x: int
    y: int = 0
    tags: tuple[str, ...] = field(default_factory=tuple)
    note: str = field(default="", compare=False, repr=False)
    kind: str = field(default="point", init=False)


@record(slots=True)
class Bag:
    items: list[int] = field(default_factory=list)


@record(eq=False)
class Job:
    name: str


@record
class Loop:
    inner: list[Any] = field(default_factory=list)


def test_a_frozen_record_builds_compares_hashes_and_shows_as_the_stock_one() -> None:
    one = Point(1, 2, ("a",), note="n")
    assert repr(one) == "Point(x=1, y=2, tags=('a',), kind='point')"
    assert one == Point(1, 2, ("a",), note="other")  # note is not compared
    assert one != Point(1, 3, ("a",))
    assert hash(one) == hash((1, 2, ("a",), "point"))  # the stock hash: of the compared tuple
    assert one.__eq__(object()) is NotImplemented
    assert str(inspect.signature(Point)) == \
        "(x: 'int', y: 'int' = 0, tags: 'tuple[str, ...]' = <factory>, note: 'str' = '') -> None"
    assert Point.__match_args__ == ("x", "y", "tags", "note")
    assert not hasattr(one, "__dict__")
    assert Point.__doc__ == "A frozen, slotted record as most of reviewtui's are."


def test_a_frozen_record_refuses_assignment_and_deletion_of_any_attribute() -> None:
    one = Point(1)
    with pytest.raises(FrozenInstanceError, match="cannot assign to field 'x'"):
        one.x = 2  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError, match="cannot delete field 'y'"):
        del one.y  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError, match="cannot assign to field 'other'"):
        one.other = 1  # type: ignore[attr-defined]
    assert one == Point(1)


def test_replace_asdict_copy_and_pickle_keep_working() -> None:
    one = Point(1, 2, ("a",), note="n")
    assert dataclasses.replace(one, y=5) == Point(1, 5, ("a",))
    assert dataclasses.replace(one, y=5).note == "n"
    assert dataclasses.asdict(one) == {"x": 1, "y": 2, "tags": ("a",), "note": "n",
                                       "kind": "point"}
    assert dataclasses.is_dataclass(one)
    assert [f.name for f in dataclasses.fields(Point)] == ["x", "y", "tags", "note", "kind"]
    for twin in (copy.copy(one), copy.deepcopy(one), pickle.loads(pickle.dumps(one))):
        assert twin == one
        assert twin.note == "n"
    with pytest.raises(ValueError, match="init=False"):
        dataclasses.replace(one, kind="other")


def test_the_class_says_what_it_is_not_how_it_was_built() -> None:
    params = Point.__dataclass_params__  # type: ignore[attr-defined]
    assert (params.init, params.repr, params.eq, params.frozen) == (True, True, True, True)
    params = Bag.__dataclass_params__  # type: ignore[attr-defined]
    assert (params.eq, params.frozen) == (True, False)


def test_a_mutable_record_that_compares_by_value_is_unhashable() -> None:
    assert Bag.__hash__ is None  # type: ignore[comparison-overlap]
    with pytest.raises(TypeError, match="unhashable"):
        hash(Bag())
    first, second = Bag(), Bag()
    assert first == second
    first.items.append(1)
    assert first != second
    assert second.items == []  # each instance gets its own list from the factory
    first.items = [2]
    assert first == Bag([2])


def test_eq_false_keeps_identity() -> None:
    one = Job("a")
    assert one != Job("a")
    assert one == one
    assert hash(one) == object.__hash__(one)
    assert Job.__doc__ == "Job(name: 'str')"


def test_a_record_that_holds_itself_shows_dots() -> None:
    loop = Loop()
    loop.inner.append(loop)
    assert repr(loop) == "Loop(inner=[...])"


def test_post_init_runs_after_every_field_is_set() -> None:
    seen = []

    @record(frozen=True, slots=True)
    class Entry:
        kind: str
        items: tuple[int, ...] = ()

        def __post_init__(self) -> None:
            seen.append((self.kind, self.items))
            object.__setattr__(self, "kind", self.kind.upper())

    assert Entry("a", (1,)).kind == "A"
    assert seen == [("a", (1,))]


def test_a_field_named_self_works() -> None:
    @record
    class Odd:
        self: int
        other: int = 1

    assert Odd(5) == Odd(self=5, other=1)
    assert repr(Odd(5)) == f"{Odd.__qualname__}(self=5, other=1)"


def test_a_required_field_after_a_defaulted_one_is_refused_as_by_dataclass() -> None:
    for decorator in (dataclass, record):
        with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):
            @decorator
            class Bad:
                a: int = 0
                b: int


@pytest.mark.parametrize("decorate", [
    lambda cls: record(order=True)(cls),  # type: ignore[call-overload]
    lambda cls: record(kw_only=True)(cls),  # type: ignore[call-overload]
    lambda cls: record(unsafe_hash=True)(cls),  # type: ignore[call-overload]
    lambda cls: record(init=False)(cls),  # type: ignore[call-overload]
], ids=["order", "kw_only", "unsafe_hash", "init"])
def test_options_record_does_not_support_are_refused(decorate: Any) -> None:
    class Plain:
        a: int

    with pytest.raises(TypeError, match="unexpected keyword argument"):
        decorate(Plain)


def test_what_record_does_not_reproduce_is_refused_when_the_class_is_decorated() -> None:
    class Base:
        pass

    with pytest.raises(TypeError, match="base classes are not supported"):
        @record
        class Derived(Base):
            a: int

    with pytest.raises(TypeError, match="defines __eq__, __hash__"):
        @record(frozen=True)
        class OwnEq:
            a: int

            def __eq__(self, other: object) -> bool:
                return True

            def __hash__(self) -> int:
                return 0

    with pytest.raises(TypeError, match="defines __repr__"):
        @record
        class OwnRepr:
            a: int

            def __repr__(self) -> str:
                return "x"

    with pytest.raises(TypeError, match="InitVar fields are not supported"):
        @record
        class WithInitVar:
            a: int
            b: InitVar[int]

    with pytest.raises(TypeError, match="keyword-only fields are not supported"):
        @record
        class WithKwOnly:
            a: int
            _: KW_ONLY
            b: int

    with pytest.raises(TypeError, match="keyword-only fields are not supported"):
        @record
        class WithKwOnlyField:
            a: int = field(kw_only=True)


def test_a_mutable_default_is_refused_as_by_dataclass() -> None:
    with pytest.raises(ValueError, match="mutable default"):
        @record
        class Shared:
            items: list[int] = []


def test_eq_and_hash_are_made_on_first_use_and_answer_alike_before_and_after() -> None:
    @record(frozen=True, slots=True)
    class Pair:
        left: int
        right: str

    stand_ins = Pair.__dict__["__eq__"], Pair.__dict__["__hash__"]
    assert "left" not in stand_ins[0].__code__.co_names  # not made yet
    first = (Pair(1, "a") == Pair(1, "a"), Pair(1, "a") == Pair(2, "a"), hash(Pair(1, "a")))
    made = Pair.__dict__["__eq__"], Pair.__dict__["__hash__"]
    assert made[0] is not stand_ins[0]
    assert made[1] is not stand_ins[1]
    assert {"left", "right"} <= set(made[0].__code__.co_names)
    assert made[0].__qualname__.endswith("Pair.__eq__")
    again = (Pair(1, "a") == Pair(1, "a"), Pair(1, "a") == Pair(2, "a"), hash(Pair(1, "a")))
    assert first == again == (True, False, hash((1, "a")))
    assert Pair(1, "a").__eq__(1) is NotImplemented
