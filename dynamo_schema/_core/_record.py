"""Plain value classes that behave as dataclasses without importing :mod:`dataclasses`.

Creating a dataclass ``exec``s its generated methods (~0.3-4 M instructions each) and importing
:mod:`dataclasses` pulls in ``inspect``, ``ast`` and ``dis`` (~30 M instructions together): a cold
one-file ``validate`` paid both for the ~15 value classes on its path (docs/decisions.md D32). A
subclass of :class:`Record` (or :class:`FrozenRecord`) lists its fields in ``__slots__`` and ``_FIELDS``
(same order) and writes its own ``__init__`` (keeping a dataclass's signature); the base gives what the
dataclass gave:

* ``==`` (same class, field tuples equal, else ``NotImplemented``) over ``_COMPARE`` (default: every
  field); a mutable record is unhashable, a frozen one hashes the tuple of ``_HASH`` (default:
  ``_COMPARE``);
* the dataclass's ``repr`` text (``Name(a=1, b='x')``, fields in ``_REPR``, default every field);
* frozen records refuse assignment and deletion with :class:`dataclasses.FrozenInstanceError`
  (imported only to raise it);
* pickling and :mod:`copy` through ``__reduce__`` (the constructor, positionally); ``_replace`` is
  ``dataclasses.replace``;
* :func:`dataclasses.fields`, :func:`~dataclasses.replace`, :func:`~dataclasses.asdict` and
  :func:`~dataclasses.is_dataclass` keep working: ``__dataclass_fields__`` is built on first access, from a
  twin dataclass with the same field names and annotations.
"""

from __future__ import annotations

from operator import attrgetter

TYPE_CHECKING = False  # not typing's: a cold command-line run imports no typing at all (D56)
if TYPE_CHECKING:
    from collections.abc import Callable
    from dataclasses import Field
    from typing import Any, ClassVar, TypeVar

    # for the type checker only: a TypeVar bound by a string makes a ForwardRef, which compiles the
    # string (~10 M instructions, 3 % of a cold one-file ``validate``); the annotations are not evaluated
    _R = TypeVar("_R", bound="Record")


class _LazyDataclassFields:
    """``__dataclass_fields__``: the field table of a twin dataclass, made on first access."""

    def __get__(self, obj: object, owner: type[Record]) -> dict[str, Field[Any]]:
        table = owner.__dict__.get("_dataclass_fields_cache")
        if table is None:
            import dataclasses
            from typing import Any

            annotations: dict[str, Any] = {}
            for klass in reversed(owner.__mro__):
                annotations.update(klass.__dict__.get("__annotations__", {}))
            twin = dataclasses.make_dataclass(owner.__name__, [(name, annotations.get(name, Any))
                                                               for name in owner._FIELDS])
            table = {f.name: f for f in dataclasses.fields(twin)}
            type.__setattr__(owner, "_dataclass_fields_cache", table)
        return table


def _tuple_getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    if len(names) == 1:  # attrgetter of one name returns the value, not a 1-tuple
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    if not names:
        return lambda obj: ()
    return attrgetter(*names)


class Record:
    """A mutable value class: dataclass equality (unhashable), repr, pickling, ``dataclasses.replace``."""

    __slots__ = ()
    _FIELDS: ClassVar[tuple[str, ...]] = ()
    if TYPE_CHECKING:
        __dataclass_fields__: ClassVar[dict[str, Field[Any]]]
    else:
        __dataclass_fields__ = _LazyDataclassFields()

    if TYPE_CHECKING:
        @staticmethod
        def _compared(obj: Any, /) -> tuple[Any, ...]: ...

        @staticmethod
        def _hashed(obj: Any, /) -> tuple[Any, ...]: ...

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # one C-level getter per class for the compared and the hashed field tuples
        super().__init_subclass__(**kwargs)
        compare = tuple(getattr(cls, "_COMPARE", cls._FIELDS))
        cls._compared = staticmethod(_tuple_getter(compare))  # type: ignore[method-assign]
        cls._hashed = staticmethod(_tuple_getter(tuple(getattr(cls, "_HASH", compare))))  # type: ignore[method-assign]

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._compared(self) == self._compared(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        names = getattr(self, "_REPR", self._FIELDS)
        return f"{type(self).__qualname__}(" + ", ".join([f"{n}={getattr(self, n)!r}" for n in names]) + ")"

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), tuple([getattr(self, name) for name in self._FIELDS]))

    def _replace(self: _R, **changes: Any) -> _R:
        """``dataclasses.replace(self, **changes)`` without importing :mod:`dataclasses`."""
        values = {name: getattr(self, name) for name in self._FIELDS}
        values.update(changes)
        return type(self)(**values)


class FrozenRecord(Record):
    """An immutable :class:`Record`: hashable, assignment and deletion refused as a frozen dataclass."""

    __slots__ = ()

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(self._hashed(self))

    def __setattr__(self, name: str, value: Any) -> None:
        from dataclasses import FrozenInstanceError

        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        from dataclasses import FrozenInstanceError

        raise FrozenInstanceError(f"cannot delete field {name!r}")
