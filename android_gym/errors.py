"""The exception tree of `android_gym`: one subclass per failure, so callers catch the narrowest one."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


class AndroidGymError(Exception):
    """Base of every error raised by `android_gym`."""


class ConfigError(AndroidGymError, ValueError):
    """A constructor or `gym.make` argument is invalid; the message names the argument."""


class UnknownNameError(ConfigError, KeyError):
    """A name (task, suite, app, preset, evaluator) is not known; the message suggests the closest match."""

    def __str__(self) -> str:  # KeyError would repr() the message
        return str(self.args[0]) if self.args else ""


class DeviceError(AndroidGymError):
    """A device failed; the env turns this into `truncated=True` with `info["error"]`, never a crash of `step()`."""


class DeviceTimeoutError(DeviceError, TimeoutError):
    """A device call did not finish within its deadline (the message states it in seconds)."""


class DeviceOfflineError(DeviceError):
    """The device is not reachable (not attached, offline, connection refused or dropped)."""


class DeviceProtocolError(DeviceError):
    """The device answered something that could not be understood (garbage, truncated image, bad XML)."""


class MissingExtraError(AndroidGymError, ImportError):
    """A feature needs an optional dependency that is not installed; the message names the extra that brings it."""


class UnsupportedError(AndroidGymError, NotImplementedError):
    """A feature this device or evaluator does not support; the message says which and what to use instead."""


class EnvStateError(AndroidGymError, RuntimeError):
    """An API was used in the wrong state (step before reset, use after close)."""


class UnsafePathError(AndroidGymError, PermissionError):
    """A path we were to write is a symbolic link or a folder another user controls; nothing was written through it."""


def closest(name: str, known: Iterable[str]) -> str | None:
    """The known name most like `name` (difflib's similarity of at least 0.6), or None: every "did you mean".

    >>> closest("genral", ["general", "webshop"])
    'general'
    >>> closest("xyz", ["general", "webshop"]) is None
    True
    """
    close = difflib.get_close_matches(name, list(known), n=1)
    return close[0] if close else None


def unknown_name(kind: str, name: str, known: list[str] | tuple[str, ...]) -> UnknownNameError:
    """Build an `UnknownNameError` that lists the known names and suggests the closest one.

    >>> str(unknown_name("suite", "genral", ["general", "webshop"]))
    "unknown suite 'genral'; did you mean 'general'? Known: general, webshop"
    """
    hint = f"; did you mean {close!r}?" if (close := closest(name, known)) else ";"
    return UnknownNameError(f"unknown {kind} {name!r}{hint} Known: {', '.join(sorted(known))}")
