"""A user's module, written for a test: importable here and in every process the test starts.

For tests of what users name by import path (`py:` judges, custom policies): the module gets a name of its own per
test, so two tests never share an imported copy.
"""

from __future__ import annotations

import os
import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def user_module(folder: Path, prefix: str, source: str) -> Iterator[str]:
    """Write `source` as a module named `<prefix>_<folder name>` in `folder`, put `folder` on sys.path and
    PYTHONPATH (for child processes) while the block runs, and yield the module's name."""  # noqa: D205, D209
    name = f"{prefix}_{folder.name.replace('-', '_')}"
    (folder / f"{name}.py").write_text(textwrap.dedent(source))
    saved_path, saved_env = list(sys.path), os.environ.get("PYTHONPATH")
    sys.path.insert(0, str(folder))
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(folder), saved_env) if p)
    try:
        yield name
    finally:
        sys.path[:] = saved_path
        if saved_env is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = saved_env
        sys.modules.pop(name, None)
