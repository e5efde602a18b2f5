"""``@record``: the stock ``@dataclass`` for reviewtui's records, cheaper to build.

The stock decorator compiles the source text of about six methods per class (``__init__``,
``__repr__``, ``__eq__``, ``__hash__`` and, when frozen, ``__setattr__``/``__delattr__``);
for the ~50 records a one-turn ``reviewtui check`` imports that was a third of its
start-up (issue 13, "Headless start-up"). ``record`` lets the stock decorator do the
bookkeeping with its code generation turned off, so ``dataclasses.fields``, ``replace``,
``asdict``, ``is_dataclass``, ``__match_args__`` and slots are exactly the stock ones.
It adds the methods itself: ``__init__`` compiled once per shape of class and copied
under each class's names; ``__eq__``/``__hash__`` the stock methods' code, compiled once
per field count and made when a class is first compared or hashed; ``__repr__`` and the
frozen ``__setattr__``/``__delattr__`` as closures, never compiled.

The methods behave as the stock ones (tests/core/test_record_*.py build random classes
both ways and compare them). Supported: ``frozen``, ``slots`` and ``eq``; fields with
``field(default=, default_factory=, init=, repr=, compare=, hash=)``; ``__post_init__``.
Anything else (other options, ``kw_only`` fields, ``InitVar``, base classes, a class
that writes its own ``__init__``/``__repr__``/``__eq__``/``__hash__``) raises
``TypeError`` when the class is decorated: use ``dataclasses.dataclass`` there.
"""

from __future__ import annotations

import _thread
import dataclasses
import inspect
from collections.abc import Callable
from types import CodeType, FunctionType
from typing import Any, TypeVar, dataclass_transform, overload

_T = TypeVar("_T")
# Private to dataclasses, stable since 3.7: the marker of an InitVar pseudo-field, and the
# default an __init__ parameter with a default_factory shows (its repr is "<factory>").
_INITVAR: Any = dataclasses._FIELD_INITVAR  # type: ignore[attr-defined]
_FACTORY: Any = dataclasses._HAS_DEFAULT_FACTORY  # type: ignore[attr-defined]

# The stock decorator writes these; a class body that defines one wants the stock rules
# for keeping it, which record does not reproduce.
_GENERATED = ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__",
              "__getstate__", "__setstate__")


@overload
@dataclass_transform(field_specifiers=(dataclasses.field, dataclasses.Field))
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


def _build(cls: type[_T], *, frozen: bool, slots: bool, eq: bool) -> type[_T]:
    name = cls.__qualname__
    if cls.__bases__ != (object,):
        raise TypeError(f"@record {name}: base classes are not supported; "
                        "use dataclasses.dataclass")
    own = [method for method in _GENERATED if method in cls.__dict__]
    if own:
        raise TypeError(f"@record {name} defines {', '.join(own)}; "
                        "use dataclasses.dataclass")
    documented = bool(cls.__doc__)
    if not documented:
        cls.__doc__ = name  # a stand-in: spares the stock decorator a signature
    built: Any = dataclasses.dataclass(cls, init=False, repr=False, eq=False, slots=slots)
    fields = dataclasses.fields(built)
    if any(f._field_type is _INITVAR for f in built.__dataclass_fields__.values()):
        raise TypeError(f"@record {name}: InitVar fields are not supported; "
                        "use dataclasses.dataclass")
    if any(f.kw_only is True for f in fields):
        raise TypeError(f"@record {name}: keyword-only fields are not supported; "
                        "use dataclasses.dataclass")

    built.__init__ = _init(built, fields, frozen=frozen, slots=slots)
    built.__repr__ = _repr(tuple(f.name for f in fields if f.repr))
    if eq:
        built.__eq__ = _eq(built, tuple(f.name for f in fields if f.compare))
        # As the stock decorator: a mutable record that compares by value is unhashable.
        built.__hash__ = _hash(built, tuple(
            f.name for f in fields if (f.compare if f.hash is None else f.hash)
        )) if frozen else None
    if frozen:
        built.__setattr__, built.__delattr__ = _frozen(built, frozenset(f.name for f in fields))
        if slots:  # pickling and copy.copy restore a frozen slotted record's state
            built.__getstate__ = _getstate
            built.__setstate__ = _setstate
    params = built.__dataclass_params__  # what the class is, not how it was built
    params.init, params.repr, params.eq, params.frozen = True, True, eq, frozen
    if not documented:
        built.__doc__ = _SignatureDoc()
    return built  # type: ignore[no-any-return]


def _init(cls: type, fields: tuple[dataclasses.Field[Any], ...], *, frozen: bool,
          slots: bool) -> Callable[..., None]:
    """``__init__`` as the stock decorator writes it (defaults given apart, as values)."""
    self = "__dataclass_self__" if "self" in {f.name for f in fields} else "self"
    env: dict[str, Any] = {"__name__": cls.__module__, "__record_factory__": _FACTORY,
                           "__record_set__": object.__setattr__}
    shape, defaults, renamed = [], [], {}
    for i, f in enumerate(fields):
        factory = f.default_factory is not dataclasses.MISSING
        if f.init:
            kind = "F" if factory else "V"
            if factory:
                defaults.append(_FACTORY)
            elif f.default is not dataclasses.MISSING:
                defaults.append(f.default)
            elif defaults:
                raise TypeError(f"non-default argument {f.name!r} follows default argument")
        elif factory:
            kind = "f"
        else:  # a slotted class has no class attribute to read the default from
            kind = "d" if slots and f.default is not dataclasses.MISSING else "-"
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
        co_qualname=f"{cls.__qualname__}.__init__")
    init: Any = FunctionType(code, env, "__init__", tuple(defaults) or None)
    init.__annotations__ = {**{f.name: f.type for f in fields if f.init}, "return": None}
    return init  # type: ignore[no-any-return]


# Compiling is what costs: each shape of __init__ (frozen or not, what each field does,
# __post_init__) is compiled once, with placeholder names (field i: _f{i}, its default
# or factory: _g{i}); a class of that shape gets a copy of the code under its own names.
_SHAPES: dict[tuple[bool, str, str, bool], CodeType] = {}


def _template(frozen: bool, self: str, shape: str, post_init: bool) -> CodeType:
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
    body = "\n".join(f" {line}" for line in lines or ["pass"])
    namespace: dict[str, Any] = {}
    exec(f"def __init__({', '.join(params)}):\n{body}\n", namespace)
    return namespace["__init__"].__code__  # type: ignore[no-any-return]


class _SignatureDoc:
    """The docstring the stock decorator gives an undocumented class, ``Name(a: 'int')``,
    made when read (a class's ``__doc__`` may be a descriptor): a signature costs more to
    make at import than the rest of the class."""

    def __get__(self, instance: object, owner: type) -> str:
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
        def values(of: str) -> str:
            return f"({''.join(f'{of}._f{i},' for i in range(count))})"

        exec(f"def __eq__(self, other):\n"
             f" if other.__class__ is self.__class__:\n"
             f"  return {values('self')} == {values('other')}\n"
             f" return NotImplemented\n"
             f"def __hash__(self):\n"
             f" return hash({values('self')})\n", _BUILTINS)
        found = _COMPARE[count] = (_BUILTINS.pop("__eq__").__code__,
                                   _BUILTINS.pop("__hash__").__code__)
    return found


def _renamed(cls: type, template: CodeType, names: tuple[str, ...]) -> Callable[..., Any]:
    renamed = {f"_f{i}": name for i, name in enumerate(names)}
    code = template.replace(co_names=tuple(renamed.get(n, n) for n in template.co_names),
                            co_qualname=f"{cls.__qualname__}.{template.co_name}")
    return FunctionType(code, _BUILTINS)


def _frozen(cls: type, names: frozenset[str]) -> tuple[Callable[[object, str, object], None],
                                                         Callable[[object, str], None]]:
    # A record's only base is object, so object's methods are super(cls, self)'s.
    def __setattr__(self: object, name: str, value: object) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        object.__setattr__(self, name, value)

    def __delattr__(self: object, name: str) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        object.__delattr__(self, name)

    return __setattr__, __delattr__


def _getstate(self: object) -> list[Any]:
    return [getattr(self, f.name) for f in dataclasses.fields(self)]  # type: ignore[arg-type]


def _setstate(self: object, state: list[Any]) -> None:
    for f, value in zip(dataclasses.fields(self), state, strict=False):  # type: ignore[arg-type]
        object.__setattr__(self, f.name, value)
