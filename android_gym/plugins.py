"""Classes named by import path, `"<module>:<class>"`: how both packages load a user's judge or policy.

Naming a class, rather than passing an object, lets every process (a rollout worker, an env process) build its own
copy: the module must be importable there. A run folder can never choose one (`distrl_agent.run_folder`).
"""

from __future__ import annotations

import importlib
import re

from android_gym.errors import ConfigError

IMPORT_PATH = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*")
"""'<module>:<class>', e.g. 'my_judges:Strict' or 'lab.policies:DeepCritic'."""


def load_class(target: str, base: type, what: str) -> type:
    """The class `target` names, imported now; it must be a subclass of `base`.

    Args:
        target: "<module>:<class>".
        base: the class it must derive from.
        what: the setting that named it, for messages (e.g. "`policy.custom.target`").

    Raises:
        ConfigError: a malformed path, a module or name that cannot be imported, or a class not derived from `base`.

    >>> load_class("collections:OrderedDict", dict, "`x`").__name__
    'OrderedDict'
    """
    if not IMPORT_PATH.fullmatch(target):
        raise ConfigError(f"{what} {target!r} is not an import path '<module>:<class>'")
    module_name, _, attr = target.partition(":")
    try:
        found = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as e:
        raise ConfigError(f"{what} {target!r}: cannot import it ({e}); its module must be importable in every "
                          "process that builds it (installed, or on PYTHONPATH)") from e
    if not (isinstance(found, type) and issubclass(found, base)):
        raise ConfigError(f"{what} {target!r} is {found!r}, which is not a subclass of {base.__module__}."
                          f"{base.__name__}")
    return found
