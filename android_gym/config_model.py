"""`ConfigModel`: the one way a config class turns plain data (YAML, kwargs, overrides) into a checked, frozen value.

Every config of both packages (env, pool, device, judge, sim presets; the trainer's sections, rules and policies)
derives from it, so a wrong key or value reads the same everywhere: the dotted key, what was expected, what arrived,
and for an unknown key the closest known one.

It is a pydantic v2 model with `extra="forbid"`, `frozen=True` and `strict=True` (no silent "3" -> 3 or 1 -> True;
an int is still accepted for a float, and a list for a tuple, since YAML has no tuples), and:
- constructing one directly (`Config(x=1)`) or from data (`Config.from_data(mapping, where="learner")`) raises
  `ConfigError`, never pydantic's `ValidationError` (for an unknown key, or a validator's `UnknownNameError`, the
  narrower `UnknownNameError` where that is a kind of the model's `error_type`, as callers catch the narrowest);
- checks that need code raise `FieldError(field, expected, value)` from a validator, and the message gets the dotted
  path of the field;
- `to_data()` gives plain YAML-safe data that `from_data` reads back to an equal config, and `replace(**changes)` is
  `dataclasses.replace` with validation.

>>> from pydantic import Field
>>> class Sizes(ConfigModel):
...     width: int = Field(default=8, ge=1)
...     scale: float = 1.0
>>> Sizes.from_data({"width": 3, "scale": 2}).to_data()
{'width': 3, 'scale': 2.0}
>>> Sizes.from_data({"widht": 3}, where="obs")
Traceback (most recent call last):
...
android_gym.errors.UnknownNameError: unknown config key `obs.widht`; did you mean `obs.width`? Known: width, scale
>>> Sizes(width=0)
Traceback (most recent call last):
...
android_gym.errors.ConfigError: `width` must be greater than or equal to 1, got 0
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar, Self, get_args, get_origin

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from android_gym.errors import ConfigError, UnknownNameError, closest


class FieldError(ValueError):
    """Raised by a validator: `field` (a name, or a dotted name below the model) must be `expected`, not `value`."""

    def __init__(self, field: str, expected: str, value: Any) -> None:
        super().__init__(f"`{field}` must be {expected}, got {value!r}")
        self.field, self.expected, self.value = field, expected, value


class UnknownKeyError(ValueError):
    """Raised for a key that the model at that place has no field for (turned into a message with the closest)."""

    def __init__(self, key: str, known: list[str]) -> None:
        super().__init__(key)
        self.key, self.known = key, known


class SubConfigError(ValueError):
    """Raised by `build_field` inside a validator: a sub-config's first problem, placed under `field`."""

    def __init__(self, field: str, error: ValidationError, cls: type) -> None:
        super().__init__(str(error))
        self.field, self.error, self.cls = field, error, cls


class ConfigModel(BaseModel):
    """Base of every config: frozen, no unknown keys, strict types; errors are `ConfigError` with the dotted key."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, validate_default=False,
                              arbitrary_types_allowed=True, protected_namespaces=())

    error_type: ClassVar[type[Exception]] = ConfigError
    """What this config raises (distrl_agent's configs raise its own `ConfigError`)."""

    def __init__(self, /, **data: Any) -> None:
        try:
            super().__init__(**data)
        except ValidationError as e:
            raise config_error(e, type(self), "") from None

    # Pydantic calls a model's own `__init__` while validating data (even nested data) unless it is marked as the
    # base one; validation must raise `ValidationError` (with the whole path), which `from_data` then translates.
    __init__.__pydantic_base_init__ = True  # type: ignore[attr-defined]

    @classmethod
    def from_data(cls, data: Mapping[str, Any] | Self | None, where: str = "") -> Self:
        """A config from a mapping of its fields (None: the defaults; a config of this class: itself).

        Args:
            data: plain data, e.g. a YAML section or `gym.make` kwargs.
            where: the dotted key of `data` in its tree, for messages ("learner", "env.device_options").

        Raises:
            ConfigError: an unknown key (with the closest known one), a wrong type or a bad value, naming its key.
        """
        if data is None:
            return cls()
        if isinstance(data, cls):
            return data
        if not isinstance(data, Mapping):
            raise cls.error_type(f"`{where or cls.__name__}` must be a mapping of {cls.__name__} fields, got {data!r}")
        try:
            return cls.model_validate(dict(data))
        except ValidationError as e:
            raise config_error(e, cls, where) from None

    def to_data(self) -> dict[str, Any]:
        """Every field as plain data (dicts, lists, str, numbers, bool, None) that `from_data` reads back."""
        return _plain(self.model_dump(mode="python"))

    def replace(self, **changes: Any) -> Self:
        """A copy with `changes` applied and checked like a new config."""
        return type(self)(**{**dict(self), **changes})

    @classmethod
    def field_docs(cls) -> dict[str, str]:
        r"""Each field's description from the `Attributes:` sections of this class's docstring and its bases'.

        A subclass's entry wins over its base's; an entry naming several fields ("beta_start, beta_end: ...")
        describes each of them. Fields no docstring describes are left out (`distrl train --help-config` shows them
        as undocumented, and a test keeps the trainer's sections complete).

        >>> class Sizes(ConfigModel):
        ...     width: int = 8
        >>> Sizes.__doc__ = "Sizes.\n\nAttributes:\n    width: pixels across;\n        at least 1.\n"
        >>> Sizes.field_docs()
        {'width': 'pixels across; at least 1.'}
        """
        docs: dict[str, str] = {}
        for klass in reversed(cls.__mro__):
            if issubclass(klass, ConfigModel) and "__doc__" in klass.__dict__ and klass.__doc__:
                docs.update({k: v for k, v in _attribute_docs(klass.__doc__).items() if k in cls.model_fields})
        return docs

    @model_validator(mode="before")
    @classmethod
    def _refuse_unknown_keys(cls, data: Any) -> Any:
        """Unknown keys are refused here, where the model knows its fields (pydantic's own error lists none)."""
        if not isinstance(data, Mapping):
            return data
        known = list(cls.model_fields)
        for key in data:
            if key not in cls.model_fields:
                raise UnknownKeyError(str(key), known)
        tuples = _tuple_fields(cls)  # YAML and JSON have lists only; strict mode would refuse them for a tuple
        return {k: _as_tuples(v) if k in tuples else v for k, v in data.items()}


_ENTRY = re.compile(r"(\s*)([A-Za-z_][\w, ]*?)(?: \([^)]*\))?: (.*)")


def _attribute_docs(doc: str) -> dict[str, str]:
    """The `name: text` entries of a Google-style `Attributes:` section (continuation lines joined)."""
    lines = doc.expandtabs().splitlines()
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == "Attributes:")
    except StopIteration:
        return {}
    docs: dict[str, str] = {}
    names: list[str] = []
    indent = None
    for line in lines[start + 1:]:
        if not line.strip():
            continue
        depth = len(line) - len(line.lstrip())
        entry = _ENTRY.fullmatch(line)
        if indent is None and entry:
            indent = depth
        if indent is None or depth < indent:
            break
        if depth == indent and entry:
            names = [n.strip() for n in entry.group(2).split(",") if n.strip()]
            for name in names:
                docs[name] = entry.group(3).strip()
        elif depth > indent:
            for name in names:
                docs[name] += " " + line.strip()
        else:
            break
    return docs


def build_field(cls: type[ConfigModel], data: Any, field: str) -> Any:
    """`cls.from_data(data)` for use inside a validator (a sub-config whose class another field chooses).

    Its errors keep their dotted key: `learner.coefficients.gama`, not `learner`.
    """
    if data is None:
        return cls()
    if isinstance(data, cls):
        return data
    if not isinstance(data, Mapping):
        raise FieldError(field, f"a mapping of {cls.__name__} fields", data)
    try:
        return cls.model_validate(dict(data))
    except ValidationError as e:
        raise SubConfigError(field, e, cls) from None


def _as_tuples(value: Any) -> Any:
    """`value` with every list in it, and in lists in it, a tuple (a tuple field's `[[7, 30]]` is `((7, 30),)`);
    mappings are left to the models they are data of."""  # noqa: D205, D209
    return tuple(map(_as_tuples, value)) if isinstance(value, list | tuple) else value


def _tuple_fields(cls: type[BaseModel]) -> frozenset[str]:
    found = _TUPLE_FIELDS.get(cls)
    if found is None:
        def is_tuple(hint: Any) -> bool:
            return get_origin(hint) is tuple or hint is tuple or any(is_tuple(arg) for arg in get_args(hint))

        found = _TUPLE_FIELDS[cls] = frozenset(name for name, f in cls.model_fields.items() if is_tuple(f.annotation))
    return found


_TUPLE_FIELDS: dict[type, frozenset[str]] = {}


def config_error(error: ValidationError, cls: type, where: str) -> Exception:
    """The first problem of a pydantic `ValidationError` as a `ConfigError` that names its dotted key."""
    error_type = getattr(cls, "error_type", ConfigError)
    first = error.errors(include_url=False)[0]
    path = ".".join(str(part) for part in (where, *first["loc"]) if part != "")
    cause = (first.get("ctx") or {}).get("error")
    if isinstance(cause, SubConfigError):
        inner = config_error(cause.error, cause.cls, f"{path}.{cause.field}" if path else cause.field)
        return error_type(str(inner))
    if isinstance(cause, UnknownKeyError):
        key = f"{path}.{cause.key}" if path else cause.key
        close = closest(cause.key, cause.known)
        hint = f"; did you mean `{f'{path}.' if path else ''}{close}`?" if close else ";"
        known = ", ".join(cause.known)
        return _narrowest(error_type, UnknownNameError)(f"unknown config key `{key}`{hint} Known: {known}")
    if isinstance(cause, FieldError):  # from a model validator (below `path`) or a field validator (at it)
        key = path if path.rpartition(".")[2] == cause.field else f"{path}.{cause.field}" if path else cause.field
        return error_type(f"`{key}` must be {cause.expected}, got {cause.value!r}")
    if isinstance(cause, ConfigError | ValueError) and cause is not None:
        kind = _narrowest(error_type, UnknownNameError) if isinstance(cause, UnknownNameError) else error_type
        return kind(f"`{path}`: {cause}" if path else str(cause))
    if first["type"] == "missing":
        return error_type(f"`{path}` is required")
    return error_type(f"`{path or cls.__name__}` {_expected(first)}, got {_short(first.get('input'))}")


def _narrowest(error_type: type[Exception], narrower: type[Exception]) -> type[Exception]:
    """`narrower` where it is a kind of `error_type` (android_gym's `ConfigError`), else `error_type` (distrl's)."""
    return narrower if issubclass(narrower, error_type) else error_type


def _expected(error: Mapping[str, Any]) -> str:
    """Pydantic's "Input should be ..." as "must be ...", with the closest choice for a literal."""
    message = re.sub(r"^Input should\b", "must", str(error["msg"]))
    if error["type"] == "literal_error" and isinstance(error.get("input"), str):
        choices = re.findall(r"'([^']*)'", str((error.get("ctx") or {}).get("expected", "")))
        if close := closest(error["input"], choices):
            message += f" (did you mean {close!r}?)"
    return message


def _short(value: Any, limit: int = 200) -> str:
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}..."


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value
