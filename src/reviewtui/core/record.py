"""``@record``: the stock ``@dataclass`` for reviewtui's records, cheaper to build.

The stock decorator compiles the source text of about six methods per class (``__init__``,
``__repr__``, ``__eq__``, ``__hash__`` and, when frozen, ``__setattr__``/``__delattr__``),
and importing ``dataclasses`` brings ``inspect`` (with ``ast``, ``dis``, ``tokenize``);
for the ~50 records a one-turn ``reviewtui check`` imports that was a third of its
start-up (issue 13, "Headless start-up"). ``record`` does the bookkeeping itself, as the
stock decorator does it: it reads the class's annotations (a ``ClassVar`` is no field),
collects defaults and ``field()`` settings, refuses a mutable default, re-creates the
class with ``__slots__`` and sets ``__match_args__``. ``dataclasses`` is imported only
when something asks for ``__dataclass_fields__`` or ``__dataclass_params__`` (descriptors
that then build the stock ``Field`` objects), so ``dataclasses.fields``, ``replace``,
``asdict`` and ``is_dataclass`` answer exactly as for a stock class. Use this module's
``field`` (the stock ``dataclasses.field`` works too) and ``replace`` (the stock one for
anything but a record), which need no ``dataclasses``.

It adds the methods itself: ``__init__`` compiled once per shape of class and copied
under each class's names; ``__eq__``/``__hash__`` the stock methods' code, compiled once
per field count and made when a class is first compared or hashed; ``__repr__`` and the
frozen ``__setattr__``/``__delattr__`` as closures, never compiled.

The methods behave as the stock ones (tests/core/test_record_*.py build random classes
both ways and compare them). Supported: ``frozen``, ``slots`` and ``eq``; fields with
``field(default=, default_factory=, init=, repr=, compare=, hash=, metadata=)``;
``__post_init__``. Anything else (other options, ``kw_only`` fields, ``InitVar``, base
classes, a class that writes its own ``__init__``/``__repr__``/``__eq__``/``__hash__``)
raises ``TypeError`` when the class is decorated: use ``dataclasses.dataclass`` there.
"""

from __future__ import annotations

import _thread
import sys
from collections.abc import Callable, Mapping
from types import CodeType, FunctionType, MemberDescriptorType

from reviewtui.core import record_inits
from reviewtui.core.text.lazy_pattern import LazyPattern
from reviewtui.core.typed import dataclass_transform, overload

TYPE_CHECKING = False  # as typing's (see core/typed.py: typing is not imported at run time)
if TYPE_CHECKING:
    from typing import Any, TypeVar

    _T = TypeVar("_T")


class _Missing:
    """No default (the stock ``dataclasses.MISSING`` stands for it in a stock Field)."""

    def __repr__(self) -> str:
        return "<missing>"


class _Factory:
    """The default an ``__init__`` parameter with a default_factory shows, as stock."""

    def __repr__(self) -> str:
        return "<factory>"


_MISSING: Any = _Missing()
_FACTORY: Any = _Factory()

# The stock decorator writes these; a class body that defines one wants the stock rules
# for keeping it, which record does not reproduce.
_GENERATED = ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__",
              "__getstate__", "__setstate__")


class FieldSpec:
    """What ``field()`` says of one field, and, once the class is built, its name and type."""

    __slots__ = ("name", "type", "default", "default_factory", "init", "repr", "hash",
                 "compare", "metadata", "classvar")

    def __init__(self, default: Any, default_factory: Any, init: bool, repr: bool,
                 hash: bool | None, compare: bool, metadata: Mapping[Any, Any] | None) -> None:
        if default is not _MISSING and default_factory is not _MISSING:
            raise ValueError("cannot specify both default and default_factory")
        self.name: str = ""
        self.type: Any = None
        self.default, self.default_factory = default, default_factory
        self.init, self.repr, self.hash, self.compare = init, repr, hash, compare
        self.metadata = metadata
        self.classvar = False

    def __repr__(self) -> str:
        return (f"field(name={self.name!r}, default={self.default!r}, "
                f"default_factory={self.default_factory!r}, init={self.init}, "
                f"repr={self.repr}, hash={self.hash}, compare={self.compare})")

    def stock(self) -> Any:
        """The stock ``dataclasses.Field`` of this field."""
        import dataclasses

        missing = dataclasses.MISSING
        stock_field: Any = dataclasses.field
        made: Any = stock_field(
            default=missing if self.default is _MISSING else self.default,
            default_factory=missing if self.default_factory is _MISSING
            else self.default_factory,
            init=self.init, repr=self.repr, hash=self.hash, compare=self.compare,
            metadata=self.metadata, kw_only=missing if self.classvar else False)
        made.name, made.type = self.name, self.type
        made._field_type = (dataclasses._FIELD_CLASSVAR if self.classvar  # type: ignore[attr-defined]
                            else dataclasses._FIELD)  # type: ignore[attr-defined]
        return made


@overload
def field(*, default: _T, init: bool = ..., repr: bool = ..., hash: bool | None = ...,
          compare: bool = ..., metadata: Mapping[Any, Any] | None = ...) -> _T: ...


@overload
def field(*, default_factory: Callable[[], _T], init: bool = ..., repr: bool = ...,
          hash: bool | None = ..., compare: bool = ...,
          metadata: Mapping[Any, Any] | None = ...) -> _T: ...


@overload
def field(*, init: bool = ..., repr: bool = ..., hash: bool | None = ..., compare: bool = ...,
          metadata: Mapping[Any, Any] | None = ...) -> Any: ...


def field(*, default: Any = _MISSING, default_factory: Any = _MISSING, init: bool = True,
          repr: bool = True, hash: bool | None = None, compare: bool = True,
          metadata: Mapping[Any, Any] | None = None) -> Any:
    """``dataclasses.field`` for a record (no ``kw_only``), without importing dataclasses."""
    return FieldSpec(default, default_factory, init, repr, hash, compare, metadata)


def _replace(obj: _T, /, **changes: Any) -> _T:
    """``dataclasses.replace``: for a record without importing dataclasses; the stock
    function for anything else."""
    specs: tuple[FieldSpec, ...] | None = type(obj).__dict__.get("__record_fields__")
    if specs is None:
        import dataclasses

        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    for spec in specs:
        if not spec.init:
            if spec.name in changes:
                raise ValueError(f"field {spec.name} is declared with init=False, "
                                 "it cannot be specified with replace()")
        elif spec.name not in changes:
            changes[spec.name] = getattr(obj, spec.name)
    return obj.__class__(**changes)


if TYPE_CHECKING:  # the type checker checks the changes against the fields, as stock
    from dataclasses import replace as replace
else:
    replace = _replace


@overload
@dataclass_transform(field_specifiers=(field, FieldSpec))
def record(cls: type[_T], /) -> type[_T]: ...


@overload
def record(*, frozen: bool = False, slots: bool = False,
           eq: bool = True) -> Callable[[type[_T]], type[_T]]: ...


def record(cls: type[_T] | None = None, /, *, frozen: bool = False, slots: bool = False,
           eq: bool = True) -> type[_T] | Callable[[type[_T]], type[_T]]:
    """``@dataclass`` / ``@dataclass(frozen=..., slots=..., eq=...)``, built cheaply."""

    def build(cls: type[_T]) -> type[_T]:
        return _build(cls, frozen=frozen, slots=slots, eq=eq)

    return build if cls is None else build(cls)


# As the stock decorator reads a string annotation: "ClassVar[int]", "typing.ClassVar[int]".
_NAMED = LazyPattern(r"^(?:\s*(\w+)\s*\.)?\s*(\w+)")


def _kind(annotation: object, cls: type) -> str:
    """"classvar", "initvar", "kw_only" or "" (a field), as the stock decorator tells: a
    string annotation by what its name is in the class's module."""
    if "typing" not in sys.modules and "dataclasses" not in sys.modules:
        return ""  # ClassVar, InitVar and KW_ONLY are made there: nothing can be one yet
    if isinstance(annotation, str):
        match = _NAMED.match(annotation)
        module = sys.modules.get(cls.__module__)
        if match is None or module is None:
            return ""
        space = vars(module)
        found = space.get(match.group(2))
        kind = "classvar" if found is not None and found is _class_var() else _stock_kind(found)
        prefix = match.group(1)
        if prefix:  # "typing.ClassVar": the module's typing, then its own name ClassVar
            home = sys.modules.get("typing" if kind == "classvar" else "dataclasses")
            if home is None or space.get(prefix) is not home:
                return ""
        return kind
    class_var = _class_var()
    if class_var is not None:
        from typing import get_origin  # imported already: ClassVar is

        if annotation is class_var or get_origin(annotation) is class_var:
            return "classvar"
    return _stock_kind(annotation)


def _class_var() -> object:
    """``typing.ClassVar``, or None while typing is not imported: then nothing can be it
    (or be made of it), and it is not imported for the question."""
    typing = sys.modules.get("typing")
    return None if typing is None else typing.ClassVar


def _stock_kind(annotation: object) -> str:
    stock = sys.modules.get("dataclasses")  # an InitVar or KW_ONLY object is made there
    if stock is not None:
        if annotation is stock.InitVar or isinstance(annotation, stock.InitVar):
            return "initvar"
        if annotation is stock.KW_ONLY:
            return "kw_only"
    return ""


def _spec_of(value: object) -> FieldSpec | None:
    """``value`` as a FieldSpec when it is one, or a stock ``dataclasses.Field``."""
    if type(value) is FieldSpec:
        return value
    stock = sys.modules.get("dataclasses")  # no Field can exist before it is imported
    if stock is None or not isinstance(value, stock.Field):
        return None
    if value.kw_only is True:
        raise TypeError("keyword-only fields are not supported; use dataclasses.dataclass")
    missing = stock.MISSING
    spec = FieldSpec(_MISSING if value.default is missing else value.default,
                     _MISSING if value.default_factory is missing else value.default_factory,
                     value.init, value.repr, value.hash, value.compare,
                     value.metadata or None)
    return spec


def _fields_of(cls: type) -> list[FieldSpec]:
    """The class's fields and ClassVar pseudo-fields, in order, as the stock decorator
    reads them; the class attributes of the fields left as it leaves them."""
    name = cls.__qualname__
    annotations = cls.__dict__.get("__annotations__", {})
    found = []
    for field_name, annotation in annotations.items():
        kind = _kind(annotation, cls)
        if kind == "initvar":
            raise TypeError(f"@record {name}: InitVar fields are not supported; "
                            "use dataclasses.dataclass")
        if kind == "kw_only":
            raise TypeError(f"@record {name}: keyword-only fields are not supported; "
                            "use dataclasses.dataclass")
        value = cls.__dict__.get(field_name, _MISSING)
        try:
            spec = _spec_of(value)
        except TypeError:
            raise TypeError(f"@record {name}: keyword-only fields are not supported; "
                            "use dataclasses.dataclass") from None
        given = spec is not None  # by field(): the object leaves the class
        if spec is None:
            if isinstance(value, MemberDescriptorType):  # a slot of the class body
                value = _MISSING
            spec = FieldSpec(value, _MISSING, True, True, None, True, None)
        spec.name, spec.type = field_name, annotation
        if kind == "classvar":
            if spec.default_factory is not _MISSING:
                raise TypeError(f"field {field_name} cannot have a default factory")
            spec.classvar = True
        elif spec.default is not _MISSING and type(spec.default).__hash__ is None:
            raise ValueError(f"mutable default {type(spec.default)} for field "
                             f"{field_name} is not allowed: use default_factory")
        if given:
            if spec.default is _MISSING:
                delattr(cls, field_name)
            else:
                setattr(cls, field_name, spec.default)
        found.append(spec)
    for attribute, value in cls.__dict__.items():
        if attribute not in annotations and _spec_of(value) is not None:
            raise TypeError(f"{attribute!r} is a field but has no type annotation")
    return found


def _slotted(cls: type, names: tuple[str, ...]) -> type:
    """The class again, with ``__slots__`` for its fields, as the stock decorator makes it."""
    if "__slots__" in cls.__dict__:
        raise TypeError(f"{cls.__name__} already specifies __slots__")
    body = dict(cls.__dict__)
    body["__slots__"] = names
    for name in names:
        body.pop(name, None)  # a default: read by __init__, not from the class
    body.pop("__dict__", None)
    body.pop("__weakref__", None)
    made = type(cls)(cls.__name__, cls.__bases__, body)
    made.__qualname__ = cls.__qualname__
    return made


def _record_of(cls: type) -> type:
    """The record ``cls`` is or derives from (a stock dataclass may derive from one)."""
    return next(klass for klass in cls.__mro__ if "__record_all__" in klass.__dict__)


class _StockFields:
    """``__dataclass_fields__`` made when first read: the stock Field objects, which
    need ``dataclasses`` (and its ``inspect``) imported."""

    def __get__(self, instance: object, owner: type) -> dict[str, Any]:
        owner = _record_of(owner)
        specs: tuple[FieldSpec, ...] = owner.__dict__["__record_all__"]
        made = {spec.name: spec.stock() for spec in specs}
        type.__setattr__(owner, "__dataclass_fields__", made)
        return made


class _StockParams:
    """``__dataclass_params__`` made when first read: what the class is (init, repr, eq,
    frozen), not how it was built."""

    def __get__(self, instance: object, owner: type) -> Any:
        import dataclasses

        owner = _record_of(owner)
        eq, frozen = owner.__dict__["__record_options__"]
        made = dataclasses._DataclassParams(  # type: ignore[attr-defined]
            True, True, eq, False, False, frozen)
        type.__setattr__(owner, "__dataclass_params__", made)
        return made


def _build(cls: type[_T], *, frozen: bool, slots: bool, eq: bool) -> type[_T]:
    name = cls.__qualname__
    if cls.__bases__ != (object,):
        raise TypeError(f"@record {name}: base classes are not supported; "
                        "use dataclasses.dataclass")
    own = [method for method in _GENERATED if method in cls.__dict__]
    if own:
        raise TypeError(f"@record {name} defines {', '.join(own)}; "
                        "use dataclasses.dataclass")
    every = _fields_of(cls)
    fields = tuple(spec for spec in every if not spec.classvar)
    names = tuple(spec.name for spec in fields)
    built: Any = _slotted(cls, names) if slots else cls
    built.__record_all__ = tuple(every)
    built.__record_fields__ = fields
    built.__record_options__ = eq, frozen
    built.__dataclass_fields__ = _StockFields()
    built.__dataclass_params__ = _StockParams()
    if "__match_args__" not in built.__dict__:
        built.__match_args__ = tuple(  # type: ignore[misc]
            spec.name for spec in fields if spec.init)

    built.__init__ = _init(built, fields, frozen=frozen, slots=slots)
    built.__repr__ = _repr(tuple(f.name for f in fields if f.repr))
    if eq:
        built.__eq__ = _eq(built, tuple(f.name for f in fields if f.compare))
        # As the stock decorator: a mutable record that compares by value is unhashable.
        built.__hash__ = _hash(built, tuple(
            f.name for f in fields if (f.compare if f.hash is None else f.hash)
        )) if frozen else None
    if frozen:
        built.__setattr__, built.__delattr__ = _frozen(built, frozenset(names))
        if slots:  # pickling and copy.copy restore a frozen slotted record's state
            built.__getstate__, built.__setstate__ = _state(names)
    if not cls.__doc__:
        built.__doc__ = _SignatureDoc()
    return built  # type: ignore[no-any-return]


def _init(cls: type, fields: tuple[FieldSpec, ...], *, frozen: bool,
          slots: bool) -> Callable[..., None]:
    """``__init__`` as the stock decorator writes it (defaults given apart, as values)."""
    self = "__dataclass_self__" if "self" in {f.name for f in fields} else "self"
    env: dict[str, Any] = {"__name__": cls.__module__, "__record_factory__": _FACTORY,
                           "__record_set__": object.__setattr__}
    shape, defaults, renamed = [], [], {}
    for i, f in enumerate(fields):
        factory = f.default_factory is not _MISSING
        if f.init:
            kind = "F" if factory else "V"
            if factory:
                defaults.append(_FACTORY)
            elif f.default is not _MISSING:
                defaults.append(f.default)
            elif defaults:
                raise TypeError(f"non-default argument {f.name!r} follows default argument")
        elif factory:
            kind = "f"
        else:  # a slotted class has no class attribute to read the default from
            kind = "d" if slots and f.default is not _MISSING else "-"
        if kind in "Ffd":
            env[f"__record_{f.name}__"] = f.default_factory if factory else f.default
        shape.append(kind)
        renamed[f"_f{i}"], renamed[f"_g{i}"] = f.name, f"__record_{f.name}__"
    key = (frozen, self, "".join(shape), hasattr(cls, "__post_init__"))
    template = _SHAPES.get(key) or _SHAPES.setdefault(key, _template(*key))
    code = template.replace(
        co_varnames=tuple(renamed.get(name, name) for name in template.co_varnames),
        co_names=tuple(renamed.get(name, name) for name in template.co_names),
        co_consts=tuple(renamed.get(c, c) if type(c) is str else c
                        for c in template.co_consts),
        co_name="__init__", co_qualname=f"{cls.__qualname__}.__init__")
    init: Any = FunctionType(code, env, "__init__", tuple(defaults) or None)
    init.__annotations__ = {**{f.name: f.type for f in fields if f.init}, "return": None}
    return init  # type: ignore[no-any-return]


# Compiling is what costs: each shape of __init__ (frozen or not, what each field does,
# __post_init__) is compiled once, with placeholder names (field i: _f{i}, its default
# or factory: _g{i}); a class of that shape gets a copy of the code under its own names.
# The shapes reviewtui's own records have come compiled, from record_inits.py (written
# by ``python -m reviewtui.core.record_inits``; a shape it lacks is compiled here).
_SHAPES: dict[tuple[bool, str, str, bool], CodeType] = {}


def _template(frozen: bool, self: str, shape: str, post_init: bool) -> CodeType:
    premade = getattr(record_inits, premade_name(frozen, self, shape, post_init), None)
    if premade is not None:
        return premade.__code__  # type: ignore[no-any-return]
    namespace: dict[str, Any] = {}
    exec(template_source("__init__", frozen, self, shape, post_init), namespace)
    return namespace["__init__"].__code__  # type: ignore[no-any-return]


def premade_name(frozen: bool, self: str, shape: str, post_init: bool) -> str:
    """The name of a shape's function in record_inits.py."""
    return (f"init_{'frozen' if frozen else 'mutable'}_{'self' if self == 'self' else 'other'}"
            f"_{shape.replace('-', 'x')}{'_post' if post_init else ''}")


def template_source(name: str, frozen: bool, self: str, shape: str, post_init: bool) -> str:
    """The source of a shape's ``__init__``, as a function called ``name``."""
    params, lines = [self], []
    for i, kind in enumerate(shape):
        if kind in "VF":
            params.append(f"_f{i}")
        value = {"V": f"_f{i}", "F": f"_g{i}() if _f{i} is __record_factory__ else _f{i}",
                 "f": f"_g{i}()", "d": f"_g{i}", "-": ""}[kind]
        if value:
            lines.append(f"__record_set__({self}, '_f{i}', {value})" if frozen
                         else f"{self}._f{i} = {value}")
    if post_init:
        lines.append(f"{self}.__post_init__()")
    body = "\n".join(f"    {line}" for line in lines or ["pass"])
    return f"def {name}({', '.join(params)}):\n{body}\n"


class _SignatureDoc:
    """The docstring the stock decorator gives an undocumented class, ``Name(a: 'int')``,
    made when read (a class's ``__doc__`` may be a descriptor): a signature costs more to
    make at import than the rest of the class."""

    def __get__(self, instance: object, owner: type) -> str:
        import inspect

        try:
            text = str(inspect.signature(owner)).replace(" -> None", "")
        except (TypeError, ValueError):  # pragma: no cover - as the stock decorator
            text = ""
        return owner.__name__ + text


_repr_running: set[tuple[int, int]] = set()


def _repr(names: tuple[str, ...]) -> Callable[[object], str]:
    def __repr__(self: object) -> str:
        key = id(self), _thread.get_ident()
        if key in _repr_running:  # a record that holds itself: "..." as reprlib says
            return "..."
        _repr_running.add(key)
        try:
            shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        finally:
            _repr_running.discard(key)
        return f"{self.__class__.__qualname__}({shown})"

    return __repr__


def _eq(cls: type, names: tuple[str, ...]) -> Callable[[object, object], Any]:
    """The stock ``__eq__``: the tuples of the compared fields, same class only."""
    return _on_first_call(cls, "__eq__", lambda: _renamed(
        cls, _compare_templates(len(names))[0], names))


def _hash(cls: type, names: tuple[str, ...]) -> Callable[[object], int]:
    """The stock ``__hash__``: of the tuple of the hashed fields."""
    return _on_first_call(cls, "__hash__", lambda: _renamed(
        cls, _compare_templates(len(names))[1], names))


def _on_first_call(cls: type, name: str,
                   make: Callable[[], Callable[..., Any]]) -> Callable[..., Any]:
    """A stand-in for method ``name`` of ``cls`` that makes the method when first called,
    puts it on the class in its own place, and answers with it. Most records are never
    compared or hashed in a short command (a one-turn ``check``: one class hashed, none
    compared), so their methods need not be made at import."""

    def stand_in(self: object, *args: object) -> Any:
        method = make()
        setattr(cls, name, method)
        return method(self, *args)

    stand_in.__name__ = name
    stand_in.__qualname__ = f"{cls.__qualname__}.{name}"
    return stand_in


# The same code as the stock methods, so as fast (closures over operator.attrgetter were
# measured slower: CPython 3.11 specialises the attribute loads of compiled code, not
# attrgetter's). Compiled once per number of fields, with placeholder names (field i:
# _f{i}); a class gets a copy under its own field names.
_COMPARE: dict[int, tuple[CodeType, CodeType]] = {}
_BUILTINS: dict[str, Any] = {}  # the globals of __eq__/__hash__: builtins only


def _compare_templates(count: int) -> tuple[CodeType, CodeType]:
    found = _COMPARE.get(count)
    if found is None:
        eq, hash_ = (getattr(record_inits, f"{name}_{count}", None) for name in ("eq", "hash"))
        if eq is None or hash_ is None:  # not premade: compiled here
            exec(compare_source("__eq__", "__hash__", count), _BUILTINS)
            eq, hash_ = _BUILTINS.pop("__eq__"), _BUILTINS.pop("__hash__")
        found = _COMPARE[count] = (eq.__code__.replace(co_name="__eq__"),
                                   hash_.__code__.replace(co_name="__hash__"))
    return found


def compare_source(eq: str, hash_: str, count: int) -> str:
    """The source of ``__eq__`` and ``__hash__`` over ``count`` fields, named as given."""

    def values(of: str) -> str:
        return f"({''.join(f'{of}._f{i},' for i in range(count))})"

    return (f"def {eq}(self, other):\n"
            f"    if other.__class__ is self.__class__:\n"
            f"        return {values('self')} == {values('other')}\n"
            f"    return NotImplemented\n\n\n"
            f"def {hash_}(self):\n"
            f"    return hash({values('self')})\n")


def _renamed(cls: type, template: CodeType, names: tuple[str, ...]) -> Callable[..., Any]:
    renamed = {f"_f{i}": name for i, name in enumerate(names)}
    code = template.replace(co_names=tuple(renamed.get(n, n) for n in template.co_names),
                            co_qualname=f"{cls.__qualname__}.{template.co_name}")
    return FunctionType(code, _BUILTINS)


def _frozen_error() -> type[AttributeError]:
    """``dataclasses.FrozenInstanceError``, the stock class (callers catch it)."""
    from dataclasses import FrozenInstanceError

    return FrozenInstanceError


def _frozen(cls: type, names: frozenset[str]) -> tuple[Callable[[object, str, object], None],
                                                         Callable[[object, str], None]]:
    # A record's only base is object, so object's methods are super(cls, self)'s.
    def __setattr__(self: object, name: str, value: object) -> None:
        if type(self) is cls or name in names:
            raise _frozen_error()(f"cannot assign to field {name!r}")
        object.__setattr__(self, name, value)

    def __delattr__(self: object, name: str) -> None:
        if type(self) is cls or name in names:
            raise _frozen_error()(f"cannot delete field {name!r}")
        object.__delattr__(self, name)

    return __setattr__, __delattr__


def _state(names: tuple[str, ...]) -> tuple[Callable[[object], list[Any]],
                                            Callable[[object, list[Any]], None]]:
    def __getstate__(self: object) -> list[Any]:
        return [getattr(self, name) for name in names]

    def __setstate__(self: object, state: list[Any]) -> None:
        for name, value in zip(names, state, strict=False):
            object.__setattr__(self, name, value)

    return __getstate__, __setstate__
