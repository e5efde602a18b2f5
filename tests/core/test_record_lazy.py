"""``@record`` builds, constructs, compares, replaces and refuses without importing
``dataclasses`` (core/record.py; issue 13, "Headless start-up"), and the stock functions
still answer once something asks for them."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import typing
from dataclasses import FrozenInstanceError, dataclass, fields
from typing import Any, ClassVar

import pytest

from reviewtui.core.record import field, record, replace

_SCRIPT = textwrap.dedent('''
    import sys
    from typing import ClassVar
    from reviewtui.core.record import field, record, replace

    @record(frozen=True, slots=True)
    class Point:
        """A point."""
        x: int
        y: int = 0
        tags: tuple[str, ...] = field(default_factory=tuple)
        hidden: str = field(default="h", init=False, repr=False)
        limit: ClassVar[int] = 3

    @record
    class Bag:
        items: list[int] = field(default_factory=list)

    one = Point(1, 2)
    assert replace(one, y=5) == Point(1, 5)
    assert hash(one) == hash(Point(1, 2)) and repr(one) == "Point(x=1, y=2, tags=())"
    assert Point.__match_args__ == ("x", "y", "tags") and Point.limit == 3
    assert Bag() == Bag([]) and Bag().items is not Bag().items
    before = sorted(m for m in ("dataclasses", "inspect") if m in sys.modules)
    try:
        one.x = 3  # the stock FrozenInstanceError: dataclasses imported to raise it
    except AttributeError as refused:
        assert type(refused).__module__ == "dataclasses", type(refused)
    import dataclasses
    names = [f.name for f in dataclasses.fields(one)]
    assert names == ["x", "y", "tags", "hidden"], names
    assert dataclasses.asdict(one) == {"x": 1, "y": 2, "tags": (), "hidden": "h"}
    assert dataclasses.is_dataclass(Point) and Point.__dataclass_params__.frozen
    print(before)
''')


def test_a_record_needs_no_dataclasses_until_asked_for_its_fields() -> None:
    done = subprocess.run([sys.executable, "-c", _SCRIPT], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[]"


def test_a_frozen_record_raises_the_stock_frozen_error() -> None:
    @record(frozen=True)
    class Frozen:
        a: int

    with pytest.raises(FrozenInstanceError):
        Frozen(1).a = 2  # type: ignore[misc]


@record
class WithClassVars:
    a: int
    plain: ClassVar[int] = 1
    quoted: ClassVar[str] = "q"
    spelled: typing.ClassVar[int] = 2


def test_classvar_annotations_are_no_fields_in_any_spelling() -> None:
    # under `from __future__ import annotations` each of these is a string
    assert WithClassVars.__annotations__["spelled"] == "typing.ClassVar[int]"
    assert [f.name for f in fields(WithClassVars)] == ["a"]
    assert WithClassVars.__match_args__ == ("a",)
    assert (WithClassVars.plain, WithClassVars.quoted, WithClassVars.spelled) == (1, "q", 2)
    assert repr(WithClassVars(4)) == "WithClassVars(a=4)"


def test_record_field_refuses_what_the_stock_one_refuses() -> None:
    with pytest.raises(ValueError, match="cannot specify both default and default_factory"):
        field(default=1, default_factory=list)
    with pytest.raises(TypeError, match="'loose' is a field but has no type annotation"):
        @record
        class Loose:
            loose = field(default=1)
    with pytest.raises(ValueError, match="mutable default <class 'list'> for field items"):
        @record
        class Shared:
            items: list[int] = field(default=[])  # noqa: RUF009 - refused, as stock


def test_record_replace_checks_as_the_stock_one() -> None:
    @record(frozen=True)
    class Pair:
        a: int
        b: int = field(default=0, init=False)

    with pytest.raises(ValueError, match="field b is declared with init=False"):
        replace(Pair(1), b=2)
    with pytest.raises(TypeError, match="unexpected keyword argument 'c'"):
        replace(Pair(1), c=2)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="dataclass"):
        replace(object())  # type: ignore[type-var]  # not a record: the stock function
    assert replace(Pair(1), a=3) == Pair(3)


def test_each_premade_init_is_the_code_its_shape_compiles_to() -> None:
    from reviewtui.core import record as built
    from reviewtui.core import record_inits

    names = [name for name in vars(record_inits) if name.startswith("init_")]
    assert len(names) >= 10  # reviewtui's own shapes: written, not left empty
    for name in names:
        _, kind, self, shape, *post = name.split("_")
        key = (kind == "frozen", "self" if self == "self" else "__dataclass_self__",
               shape.replace("x", "-"), post == ["post"])
        assert built.premade_name(*key) == name
        space: dict[str, Any] = {}
        exec(built.template_source("__init__", *key), space)
        want, got = space["__init__"].__code__, getattr(record_inits, name).__code__
        assert (got.co_code, got.co_names, got.co_varnames, got.co_consts, got.co_argcount) \
            == (want.co_code, want.co_names, want.co_varnames, want.co_consts,
                want.co_argcount), name


def test_a_record_of_a_premade_shape_gets_its_init_without_compiling() -> None:
    @record(frozen=True, slots=True)
    class Twin:
        x: int
        y: int

    code = Twin.__init__.__code__
    assert (code.co_name, code.co_qualname) == ("__init__", f"{Twin.__qualname__}.__init__")
    assert code.co_filename.endswith("record_inits.py")  # copied, not compiled
    assert code.co_varnames[:3] == ("self", "x", "y")
    assert Twin(1, 2) == Twin(y=2, x=1)
    assert repr(Twin(1, 2)).endswith("Twin(x=1, y=2)")


def test_a_class_with_its_own_slots_is_refused_as_by_dataclass() -> None:
    for decorate in (dataclass(slots=True), record(slots=True)):
        with pytest.raises(TypeError, match="Own already specifies __slots__"):
            @decorate
            class Own:
                __slots__ = ("a",)
                a: int


def test_each_premade_eq_and_hash_is_the_code_its_count_compiles_to() -> None:
    from reviewtui.core import record as built
    from reviewtui.core import record_inits

    counts = [int(name[3:]) for name in vars(record_inits) if name.startswith("eq_")]
    assert counts == list(range(len(counts)))
    assert len(counts) > 5
    for count in counts:
        space: dict[str, Any] = {}
        exec(built.compare_source("__eq__", "__hash__", count), space)
        for name in ("eq", "hash"):
            want = space[f"__{name}__"].__code__
            got = getattr(record_inits, f"{name}_{count}").__code__
            assert (got.co_code, got.co_names, got.co_varnames, got.co_consts) == \
                (want.co_code, want.co_names, want.co_varnames, want.co_consts)
